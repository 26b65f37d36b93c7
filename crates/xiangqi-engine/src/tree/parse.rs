//! The `.tree` parser (§2.1): a tokenizer that tracks line:column, and a
//! recursive-descent parser that checks every rule as it goes.

use std::collections::HashMap;

use crate::search::{Interval, MAX_EVAL, Score};
use crate::tree::error::{SourcePos, TreeError, TreeErrorKind};

/// A node as parsed, in pre-order.
#[derive(Clone, Debug)]
pub(crate) struct ParsedNode {
    pub(crate) parent: Option<u32>,
    pub(crate) name: Option<String>,
    /// A leaf's value, or an interior node's optional estimate.
    pub(crate) interval: Option<Interval>,
    pub(crate) children: Vec<u32>,
    /// 1-based position among the parent's children (0 for the root).
    pub(crate) rank: u32,
    pub(crate) pos: SourcePos,
}

/// Deeper nesting is refused rather than risking the parser's stack.
pub const MAX_NESTING: u32 = 1000;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Open,
    Close,
    Equals,
    BracketOpen,
    BracketClose,
    Comma,
    Int(String),
    Name(String),
    End,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Open => "'('".into(),
            Tok::Close => "')'".into(),
            Tok::Equals => "'='".into(),
            Tok::BracketOpen => "'['".into(),
            Tok::BracketClose => "']'".into(),
            Tok::Comma => "','".into(),
            Tok::Int(text) => format!("number {text}"),
            Tok::Name(name) => format!("name '{name}'"),
            Tok::End => "end of input".into(),
        }
    }
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    pos: SourcePos,
}

fn error(pos: SourcePos, kind: TreeErrorKind) -> TreeError {
    TreeError { pos, kind }
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '\''
}

fn tokenize(text: &str) -> Result<Vec<Token>, TreeError> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    let (mut line, mut column) = (1u32, 1u32);
    let advance = |c: char, line: &mut u32, column: &mut u32| {
        if c == '\n' {
            *line += 1;
            *column = 1;
        } else {
            *column += 1;
        }
    };
    while let Some(&c) = chars.peek() {
        let pos = SourcePos { line, column };
        let single = match c {
            '(' => Some(Tok::Open),
            ')' => Some(Tok::Close),
            '=' => Some(Tok::Equals),
            '[' => Some(Tok::BracketOpen),
            ']' => Some(Tok::BracketClose),
            ',' => Some(Tok::Comma),
            _ => None,
        };
        if let Some(tok) = single {
            chars.next();
            advance(c, &mut line, &mut column);
            tokens.push(Token { tok, pos });
        } else if c.is_whitespace() {
            chars.next();
            advance(c, &mut line, &mut column);
        } else if c == '#' {
            while let Some(&c) = chars.peek() {
                if c == '\n' {
                    break;
                }
                chars.next();
                advance(c, &mut line, &mut column);
            }
        } else if c.is_ascii_digit() || c == '+' || c == '-' {
            let mut text = String::new();
            text.push(c);
            chars.next();
            advance(c, &mut line, &mut column);
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                text.push(d);
                chars.next();
                advance(d, &mut line, &mut column);
            }
            if !text.ends_with(|d: char| d.is_ascii_digit()) {
                return Err(error(pos, TreeErrorKind::UnexpectedChar(c)));
            }
            // "3abc" would be a name starting with a digit.
            if let Some(&next) = chars.peek().filter(|&&next| is_name_char(next)) {
                return Err(error(
                    SourcePos { line, column },
                    TreeErrorKind::UnexpectedChar(next),
                ));
            }
            tokens.push(Token {
                tok: Tok::Int(text),
                pos,
            });
        } else if is_name_start(c) {
            let mut name = String::new();
            while let Some(&d) = chars.peek().filter(|&&d| is_name_char(d)) {
                name.push(d);
                chars.next();
                advance(d, &mut line, &mut column);
            }
            tokens.push(Token {
                tok: Tok::Name(name),
                pos,
            });
        } else {
            return Err(error(pos, TreeErrorKind::UnexpectedChar(c)));
        }
    }
    tokens.push(Token {
        tok: Tok::End,
        pos: SourcePos { line, column },
    });
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    next: usize,
    nodes: Vec<ParsedNode>,
    names: HashMap<String, SourcePos>,
    nesting: u32,
}

/// Parses a whole `.tree` text into its nodes in pre-order (the root first).
pub(crate) fn parse(text: &str) -> Result<Vec<ParsedNode>, TreeError> {
    let mut parser = Parser {
        tokens: tokenize(text)?,
        next: 0,
        nodes: Vec::new(),
        names: HashMap::new(),
        nesting: 0,
    };
    parser.tree()?;
    Ok(parser.nodes)
}

impl Parser {
    fn peek(&self) -> &Token {
        self.peek_at(0)
    }

    fn peek_at(&self, ahead: usize) -> &Token {
        let last = self.tokens.len() - 1;
        &self.tokens[(self.next + ahead).min(last)]
    }

    fn bump(&mut self) -> Token {
        let token = self.peek().clone();
        if token.tok != Tok::End {
            self.next += 1;
        }
        token
    }

    fn expected(&self, expected: &'static str) -> TreeError {
        let token = self.peek();
        error(
            token.pos,
            TreeErrorKind::Expected {
                expected,
                found: token.tok.describe(),
            },
        )
    }

    fn tree(&mut self) -> Result<(), TreeError> {
        let first = self.peek().clone();
        match first.tok {
            Tok::Open => {}
            Tok::End => return Err(error(first.pos, TreeErrorKind::EmptyInput)),
            Tok::Close => return Err(error(first.pos, TreeErrorKind::UnmatchedParen)),
            Tok::Int(_) | Tok::BracketOpen | Tok::Name(_) => {
                // Parse the leaf so that a malformed one is reported as such.
                self.node(None)?;
                return Err(error(first.pos, TreeErrorKind::LeafRoot));
            }
            _ => return Err(self.expected("a tree '( ... )'")),
        }
        self.interior(None)?;
        let next = self.peek();
        match next.tok {
            Tok::End => Ok(()),
            Tok::Close => Err(error(next.pos, TreeErrorKind::UnmatchedParen)),
            _ => Err(error(next.pos, TreeErrorKind::TrailingInput)),
        }
    }

    fn add(&mut self, parent: Option<u32>, pos: SourcePos) -> u32 {
        let index = self.nodes.len() as u32;
        let rank = match parent {
            Some(parent) => {
                let siblings = &mut self.nodes[parent as usize].children;
                siblings.push(index);
                siblings.len() as u32
            }
            None => 0,
        };
        self.nodes.push(ParsedNode {
            parent,
            name: None,
            interval: None,
            children: Vec::new(),
            rank,
            pos,
        });
        index
    }

    fn name(&mut self, index: u32, name: String, pos: SourcePos) -> Result<(), TreeError> {
        if name == "root" && index != 0 {
            return Err(error(pos, TreeErrorKind::ReservedName));
        }
        if let Some(&first) = self.names.get(&name) {
            return Err(error(pos, TreeErrorKind::DuplicateName { name, first }));
        }
        self.names.insert(name.clone(), pos);
        self.nodes[index as usize].name = Some(name);
        Ok(())
    }

    /// `"(" [head] node+ ")"`, with the `(` next.
    fn interior(&mut self, parent: Option<u32>) -> Result<u32, TreeError> {
        let open = self.bump();
        if self.nesting == MAX_NESTING {
            return Err(error(open.pos, TreeErrorKind::TooDeep { max: MAX_NESTING }));
        }
        self.nesting += 1;
        let index = self.add(parent, open.pos);

        // A head is NAME, NAME=[lo,hi] or =[lo,hi]; NAME=INT is a child leaf.
        let head_name = match (&self.peek().tok, &self.peek_at(1).tok, &self.peek_at(2).tok) {
            (Tok::Name(_), Tok::Equals, Tok::Int(_)) => false,
            (Tok::Name(_), _, _) => true,
            _ => false,
        };
        if head_name {
            let token = self.bump();
            if let Tok::Name(name) = token.tok {
                self.name(index, name, token.pos)?;
            }
        }
        if self.peek().tok == Tok::Equals {
            let equals = self.bump();
            match self.peek().tok {
                Tok::BracketOpen => {
                    let interval = self.interval()?;
                    self.nodes[index as usize].interval = Some(interval);
                }
                Tok::Int(_) => return Err(error(equals.pos, TreeErrorKind::InteriorPointValue)),
                _ => return Err(self.expected("an interval '[lo,hi]' after '='")),
            }
        }

        loop {
            match self.peek().tok {
                Tok::Close => {
                    self.bump();
                    break;
                }
                Tok::End => return Err(error(open.pos, TreeErrorKind::UnclosedParen)),
                _ => {
                    self.node(Some(index))?;
                }
            }
        }
        self.nesting -= 1;
        if self.nodes[index as usize].children.is_empty() {
            return Err(error(open.pos, TreeErrorKind::EmptyNode));
        }
        // "( ... )=5" or "( ... )=[lo,hi]"
        if self.peek().tok == Tok::Equals {
            let equals = self.peek().pos;
            return Err(match self.peek_at(1).tok {
                Tok::Int(_) => error(equals, TreeErrorKind::InteriorPointValue),
                Tok::BracketOpen => error(equals, TreeErrorKind::MisplacedInterval),
                _ => self.expected("a node"),
            });
        }
        Ok(index)
    }

    fn node(&mut self, parent: Option<u32>) -> Result<u32, TreeError> {
        let token = self.peek().clone();
        match token.tok {
            Tok::Open => self.interior(parent),
            Tok::Int(_) | Tok::BracketOpen => {
                let interval = self.value()?;
                let index = self.add(parent, token.pos);
                self.nodes[index as usize].interval = Some(interval);
                Ok(index)
            }
            Tok::Name(name) => {
                self.bump();
                if self.peek().tok != Tok::Equals {
                    return Err(error(token.pos, TreeErrorKind::NameWithoutValue(name)));
                }
                self.bump();
                if !matches!(self.peek().tok, Tok::Int(_) | Tok::BracketOpen) {
                    return Err(self.expected("a value INT or [lo,hi] after '='"));
                }
                let interval = self.value()?;
                let index = self.add(parent, token.pos);
                self.name(index, name, token.pos)?;
                self.nodes[index as usize].interval = Some(interval);
                Ok(index)
            }
            _ => Err(self.expected("a node: '(', a value or NAME=value")),
        }
    }

    /// A leaf value: INT or INTERVAL.
    fn value(&mut self) -> Result<Interval, TreeError> {
        if self.peek().tok == Tok::BracketOpen {
            return self.interval();
        }
        let value = self.int()?;
        Ok(Interval::point(value))
    }

    fn int(&mut self) -> Result<Score, TreeError> {
        let token = self.peek().clone();
        let Tok::Int(text) = token.tok else {
            return Err(self.expected("a number"));
        };
        self.bump();
        text.parse::<i64>()
            .ok()
            .filter(|value| value.abs() <= i64::from(MAX_EVAL.get()))
            .map(|value| Score::new(value as i32))
            .ok_or_else(|| {
                error(
                    token.pos,
                    TreeErrorKind::ValueOutOfRange {
                        text,
                        max: MAX_EVAL.get(),
                    },
                )
            })
    }

    /// `"[" INT "," INT "]"` with `lo <= hi`.
    fn interval(&mut self) -> Result<Interval, TreeError> {
        let open = self.bump();
        let lo = self.int()?;
        if self.peek().tok != Tok::Comma {
            return Err(self.expected("',' inside the interval"));
        }
        self.bump();
        let hi = self.int()?;
        if self.peek().tok != Tok::BracketClose {
            return Err(self.expected("']' closing the interval"));
        }
        self.bump();
        if lo > hi {
            return Err(error(
                open.pos,
                TreeErrorKind::InvertedInterval {
                    lo: lo.get().into(),
                    hi: hi.get().into(),
                },
            ));
        }
        Ok(Interval::new(lo, hi))
    }
}
