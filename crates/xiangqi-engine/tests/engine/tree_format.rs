//! The `.tree` parser: every rule of §2.1 is enforced with its line:column.

use xiangqi_engine::search::Algorithm;
use xiangqi_engine::tree::{SourcePos, Tree, TreeError, TreeErrorKind};

fn error(text: &str) -> TreeError {
    match Tree::parse(text) {
        Ok(_) => panic!("{text:?} should be rejected"),
        Err(error) => error,
    }
}

fn at(line: u32, column: u32) -> SourcePos {
    SourcePos { line, column }
}

#[test]
fn unclosed_parenthesis_points_at_the_open_one() {
    let e = error("(1\n  (2 3)\n  (4 5)");
    assert_eq!(e.kind, TreeErrorKind::UnclosedParen);
    assert_eq!(e.pos, at(1, 1));
    assert_eq!(
        e.to_string(),
        "1:1: unbalanced parentheses: this '(' is never closed"
    );
    assert_eq!(error("(1 (2 3) (4 5)").pos, at(1, 1));
    assert_eq!(error("((1 2) (3").pos, at(1, 8));
}

#[test]
fn unmatched_close_parenthesis() {
    let e = error("(1 2))");
    assert_eq!(e.kind, TreeErrorKind::UnmatchedParen);
    assert_eq!(e.pos, at(1, 6));
    let e = error("\n) (1 2)");
    assert_eq!((e.kind, e.pos), (TreeErrorKind::UnmatchedParen, at(2, 1)));
}

#[test]
fn empty_node() {
    let e = error("(1\n   ())");
    assert_eq!(
        (e.kind.clone(), e.pos),
        (TreeErrorKind::EmptyNode, at(2, 4))
    );
    assert_eq!(
        e.to_string(),
        "2:4: empty node: '()' needs at least one child"
    );
    assert_eq!(error("()").kind, TreeErrorKind::EmptyNode);
    // A head alone is no child either.
    assert_eq!(error("(1 (A=[0,3]))").kind, TreeErrorKind::EmptyNode);
}

#[test]
fn leaf_root() {
    for (text, pos) in [
        ("5", at(1, 1)),
        ("# c\n  a=5", at(2, 3)),
        ("[1,2]", at(1, 1)),
    ] {
        let e = error(text);
        assert_eq!((e.kind, e.pos), (TreeErrorKind::LeafRoot, pos), "{text:?}");
    }
}

#[test]
fn duplicate_names() {
    let e = error("(a (b x=1 2)\n   (c x=3 4))");
    assert_eq!(e.pos, at(2, 7));
    assert_eq!(
        e.kind,
        TreeErrorKind::DuplicateName {
            name: "x".into(),
            first: at(1, 7)
        }
    );
    assert_eq!(e.to_string(), "2:7: duplicate name 'x' (first used at 1:7)");
    assert_eq!(error("(a (a 1 2))").pos, at(1, 5));
}

#[test]
fn root_name_is_reserved_for_the_root() {
    assert!(Tree::parse("(root 1 2)").is_ok());
    let e = error("(1 (root 2 3))");
    assert_eq!((e.kind, e.pos), (TreeErrorKind::ReservedName, at(1, 5)));
}

#[test]
fn inverted_interval() {
    let e = error("(1\n [5, 2])");
    assert_eq!(
        (e.kind.clone(), e.pos),
        (TreeErrorKind::InvertedInterval { lo: 5, hi: 2 }, at(2, 2))
    );
    assert_eq!(e.to_string(), "2:2: interval [5,2] has lo > hi");
    assert_eq!(error("(=[9,0] 1 2)").pos, at(1, 3));
}

#[test]
fn interior_point_value() {
    let e = error("(=5 1 2)");
    assert_eq!(
        (e.kind, e.pos),
        (TreeErrorKind::InteriorPointValue, at(1, 2))
    );
    let e = error("(A\n  (B 1 2)=7)");
    assert_eq!(
        (e.kind, e.pos),
        (TreeErrorKind::InteriorPointValue, at(2, 10))
    );
    let e = error("(A (B 1 2)=[1,2])");
    assert_eq!(
        (e.kind, e.pos),
        (TreeErrorKind::MisplacedInterval, at(1, 11))
    );
}

#[test]
fn trailing_input() {
    let e = error("(1 2)\n(3 4)");
    assert_eq!(
        (e.kind.clone(), e.pos),
        (TreeErrorKind::TrailingInput, at(2, 1))
    );
    assert_eq!(e.to_string(), "2:1: trailing input after the tree");
    assert_eq!(error("(1 2) 3").pos, at(1, 7));
    // Comments and whitespace after the tree are fine.
    assert!(Tree::parse("(1 2)  # done\n\n").is_ok());
}

#[test]
fn interval_leaf_is_only_for_bstar() {
    let tree = Tree::parse("(A (B 1 [0,4])\n   (C [2,2] 3))").unwrap();
    assert!(tree.check_algorithm(Algorithm::BStar).is_ok());
    for algorithm in [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Sss,
        Algorithm::MtSss,
        Algorithm::Mtdf,
    ] {
        let e = tree.check_algorithm(algorithm).unwrap_err();
        assert_eq!(e.pos, at(1, 9));
        assert_eq!(
            e.to_string(),
            format!("1:9: interval leaf [0,4] is accepted only by bstar, not by {algorithm}")
        );
    }
    // Interior intervals are ignored by the other algorithms.
    let estimates = Tree::parse("(=[0,9] (A=[1,5] 1 5) 2)").unwrap();
    assert!(estimates.check_algorithm(Algorithm::Sss).is_ok());
}

#[test]
fn lexical_errors_say_where() {
    let e = error("(1 2\n  $)");
    assert_eq!(
        (e.kind, e.pos),
        (TreeErrorKind::UnexpectedChar('$'), at(2, 3))
    );
    let e = error("(1 3abc)");
    assert_eq!(
        (e.kind, e.pos),
        (TreeErrorKind::UnexpectedChar('a'), at(1, 5))
    );
    let e = error("(1 - 2)");
    assert_eq!(
        (e.kind, e.pos),
        (TreeErrorKind::UnexpectedChar('-'), at(1, 4))
    );
    let e = error("(A B 2)");
    assert_eq!(
        (e.kind, e.pos),
        (TreeErrorKind::NameWithoutValue("B".into()), at(1, 4))
    );
    let e = error("(1 99999999999999999999)");
    assert_eq!(e.pos, at(1, 4));
    assert!(matches!(e.kind, TreeErrorKind::ValueOutOfRange { .. }));
    let e = error("(1 [2 3])");
    assert_eq!(
        e.to_string(),
        "1:7: expected ',' inside the interval, found number 3"
    );
    let e = error("   # only a comment\n");
    assert_eq!((e.kind, e.pos), (TreeErrorKind::EmptyInput, at(2, 1)));
}

#[test]
fn columns_count_characters_not_bytes() {
    let e = error("(1 # 注释\n 2 ×)");
    assert_eq!(
        (e.kind, e.pos),
        (TreeErrorKind::UnexpectedChar('×'), at(2, 4))
    );
}

#[test]
fn the_spec_examples_parse() {
    for text in [
        "(A (B 3 12 8) (C 2 4 6) (D 14 5 2))",
        "(a (b (e l=9 m=3) (f n=7 o=2)) (c (h r=3 s=2)))",
        "(root=[0,30] (a=[4,20] (a1=[6,20] 6 14 20) (a2=[4,12] 4 12)) (b=[2,16] 9 2))",
        "( [ -3 , +4 ] x'=-2 _y=[1,1] )",
    ] {
        Tree::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

#[test]
fn nesting_is_bounded() {
    use xiangqi_engine::tree::MAX_NESTING;
    let depth = MAX_NESTING as usize;
    let deepest = format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
    let tree = Tree::parse(&deepest).unwrap();
    assert_eq!(tree.depth(tree.len() as u32 - 1), MAX_NESTING);
    let too_deep = format!("({deepest})");
    let e = error(&too_deep);
    assert_eq!(e.kind, TreeErrorKind::TooDeep { max: MAX_NESTING });
    assert_eq!(e.pos, at(1, MAX_NESTING + 1));
}
