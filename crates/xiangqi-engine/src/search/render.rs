//! Trace events as text lines: exactly the `.sss-trace`, `.ab-trace` and
//! `.bstar-trace` lines of §2.3, and lines in the same style for the events
//! those files do not cover (minimax, MT passes, the table, limits).

use std::borrow::Cow;
use std::fmt::Write;

use crate::search::game::NodeId;
use crate::search::score::{Interval, Score, ScoreText};
use crate::search::trace::{Descriptor, PassOutcome, TraceEvent};

/// How trace lines write scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TraceScores {
    /// As the trace files of §2.3: MAX's view (the root mover's), in the search's own
    /// units (`242`, `inf`).
    #[default]
    Max,
    /// As every screen shows scores: Red's view, in pawns (`-2.42`, `#-2` when Black
    /// mates in 2). `negate` when Black is MAX: its scores are turned to Red's, so its
    /// alpha and beta read from Red's side (its alpha is then Red's upper bound).
    RedPawns { negate: bool },
}

impl TraceScores {
    /// `value` (MAX's view) as this style writes it.
    pub fn text(self, value: Score) -> String {
        let TraceScores::RedPawns { negate } = self else {
            return ScoreText(value).to_string();
        };
        let red = if negate { -value } else { value };
        if ScoreText(red).to_string().ends_with("inf") {
            return ScoreText(red).to_string();
        }
        if let Some(plies) = red.mate_plies() {
            // Plies to mate, as moves of the side that mates.
            let moves = plies.div_ceil(2);
            return if red > Score::ZERO {
                format!("#{moves}")
            } else {
                format!("#-{moves}")
            };
        }
        let sign = if red < Score::ZERO { "-" } else { "+" };
        let cp = red.get().unsigned_abs();
        format!("{sign}{}.{:02}", cp / 100, cp % 100)
    }

    /// `interval` (MAX's view) as this style writes it: `[lo,hi]` in its own view.
    pub fn interval(self, interval: Interval) -> String {
        let shown = match self {
            TraceScores::RedPawns { negate: true } => interval.negated(),
            _ => interval,
        };
        format!("[{},{}]", self.lone(shown.lo), self.lone(shown.hi))
    }

    /// A bound already in this style's view.
    fn lone(self, value: Score) -> String {
        match self {
            TraceScores::RedPawns { .. } => TraceScores::RedPawns { negate: false }.text(value),
            TraceScores::Max => ScoreText(value).to_string(),
        }
    }

    /// A width (B*'s widening): never negated.
    fn width(self, delta: Score) -> String {
        self.lone(delta)
    }
}

/// Maps node ids to labels for display.
pub trait NodeNames {
    fn label(&self, node: NodeId) -> Cow<'_, str>;

    /// The labels of `node`'s children after the first `searched` ones, when
    /// the names know the tree's shape. Used for "cutoff ... pruned: ...".
    fn children_after(&self, node: NodeId, searched: u32) -> Option<Vec<Cow<'_, str>>> {
        let _ = (node, searched);
        None
    }
}

/// Labels that are just the ids, for games without names (e.g. `#1a2b`).
#[derive(Clone, Copy, Debug, Default)]
pub struct IdNames;

impl NodeNames for IdNames {
    fn label(&self, node: NodeId) -> Cow<'_, str> {
        Cow::Owned(format!("#{:x}", node.0))
    }
}

/// Which list the entry events that follow belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum List {
    None,
    Open,
    Bounds,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StepPart {
    Other,
    Purge,
    Push,
}

/// Turns a stream of events into text lines. Events that complete a line make
/// [`TraceText::feed`] return it; the rest build lines up (SSS* steps, B* lists)
/// or have no text form (`Separation`).
pub struct TraceText<'n, N: ?Sized> {
    names: &'n N,
    line: String,
    list: List,
    entries_left: u32,
    /// SSS* steps seen so far (`Pop` events).
    steps: u64,
    /// Inside an SSS* step, between `Pop` and the end of its OPEN snapshot.
    in_step: bool,
    part: StepPart,
    scores: TraceScores,
    /// OPEN entries written per snapshot (`None`: all of them).
    open_limit: Option<u32>,
    /// The snapshot being written: its length and the entries seen so far.
    open_len: u32,
    open_seen: u32,
    /// Entries of the step's current push or purge list so far (limited as OPEN is).
    part_seen: u32,
}

impl<'n, N: NodeNames + ?Sized> TraceText<'n, N> {
    pub fn new(names: &'n N) -> Self {
        TraceText {
            names,
            line: String::new(),
            list: List::None,
            entries_left: 0,
            steps: 0,
            in_step: false,
            part: StepPart::Other,
            scores: TraceScores::Max,
            open_limit: None,
            open_len: 0,
            open_seen: 0,
            part_seen: 0,
        }
    }

    /// The same, writing at most `limit` entries of each OPEN snapshot and then how many
    /// it holds: a line's length stays in proportion to the step, not to OPEN (which
    /// reaches thousands of entries on a real position). OPEN is ordered by merit, so
    /// the entries written are the ones the next steps take.
    pub fn with_open_limit(mut self, limit: u32) -> Self {
        self.open_limit = Some(limit);
        self
    }

    /// The same, writing scores in `scores`' style.
    pub fn with_scores(mut self, scores: TraceScores) -> Self {
        self.scores = scores;
        self
    }

    fn label(&self, node: NodeId) -> Cow<'n, str> {
        self.names.label(node)
    }

    fn descriptor(&self, desc: &Descriptor) -> String {
        format!(
            "{}/{}/{}",
            self.label(desc.node),
            desc.status.letter(),
            self.scores.text(desc.merit)
        )
    }

    fn take_line(&mut self) -> Option<String> {
        self.list = List::None;
        Some(std::mem::take(&mut self.line))
    }

    /// Starts a list of `len` entries after the text in `self.line`.
    fn start_list(&mut self, list: List, len: u32) -> Option<String> {
        if len == 0 {
            self.in_step = false;
            return self.take_line();
        }
        self.list = list;
        self.entries_left = len;
        None
    }

    fn list_entry(&mut self, list: List, text: &str) -> Option<String> {
        if self.list != list {
            return None;
        }
        let shown = list != List::Open || self.open_limit.is_none_or(|k| self.open_seen < k);
        if shown {
            self.line.push(' ');
            self.line.push_str(text);
        }
        if list == List::Open {
            self.open_seen += 1;
        }
        self.entries_left -= 1;
        if self.entries_left == 0 {
            if list == List::Open && self.open_seen > self.open_limit.unwrap_or(u32::MAX) {
                let _ = write!(self.line, " … ({} in all)", self.open_len);
            }
            self.in_step = false;
            self.take_line()
        } else {
            None
        }
    }

    fn step_part(&mut self, part: StepPart, keyword: &str, text: &str) {
        if self.part != part {
            self.close_part();
            self.part = part;
            let _ = write!(self.line, " ; {keyword}");
        }
        self.part_seen += 1;
        if self.open_limit.is_none_or(|k| self.part_seen <= k) {
            self.line.push(' ');
            self.line.push_str(text);
        }
    }

    /// Ends the step's push or purge list: how many it held when some were left out.
    fn close_part(&mut self) {
        if self.part_seen > self.open_limit.unwrap_or(u32::MAX) {
            let _ = write!(self.line, " … ({} in all)", self.part_seen);
        }
        self.part_seen = 0;
        self.part = StepPart::Other;
    }

    /// Feeds one event; returns a line when one is complete.
    pub fn feed<M>(&mut self, event: &TraceEvent<M>) -> Option<String> {
        use TraceEvent as E;
        let scores = self.scores;
        let s = |value: Score| scores.text(value);
        match *event {
            E::Enter {
                node, alpha, beta, ..
            } => Some(format!(
                "enter {} alpha={} beta={}",
                self.label(node),
                s(alpha),
                s(beta)
            )),
            // SSS*'s Γ4 evaluation shows in the step's push.
            E::Leaf { .. } if self.in_step => None,
            E::Leaf { node, value, .. } => {
                Some(format!("leaf {} = {}", self.label(node), s(value)))
            }
            E::ChildValue {
                node,
                k,
                child,
                value,
                ..
            } => Some(format!(
                "child {} #{k} {} -> {}",
                self.label(node),
                self.label(child),
                s(value)
            )),
            E::NewBest { node, k, value, .. } => {
                Some(format!("best {} := {} #{k}", self.label(node), s(value)))
            }
            E::AlphaRaised { node, alpha, .. } => {
                Some(format!("alpha {} := {}", self.label(node), s(alpha)))
            }
            E::BetaLowered { node, beta, .. } => {
                Some(format!("beta {} := {}", self.label(node), s(beta)))
            }
            E::Cutoff {
                node, k, pruned, ..
            } => {
                let pruned_text = match self.names.children_after(node, k) {
                    Some(labels) if labels.is_empty() => "-".to_string(),
                    Some(labels) => labels.join(" "),
                    None if pruned == 0 => "-".to_string(),
                    None => format!("{pruned} more"),
                };
                Some(format!(
                    "cutoff {} after #{k} pruned: {pruned_text}",
                    self.label(node)
                ))
            }
            E::Exit { node, value, .. } => {
                Some(format!("exit {} -> {}", self.label(node), s(value)))
            }
            E::TtProbe {
                node,
                hit,
                lower,
                upper,
                ..
            } => Some(if hit {
                format!("tt hit {} [{},{}]", self.label(node), s(lower), s(upper))
            } else {
                format!("tt miss {}", self.label(node))
            }),
            E::TtHitCut {
                node, lower, upper, ..
            } => Some(format!(
                "tt cut {} [{},{}]",
                self.label(node),
                s(lower),
                s(upper)
            )),
            E::TtStore {
                node, lower, upper, ..
            } => Some(format!(
                "tt store {} [{},{}]",
                self.label(node),
                s(lower),
                s(upper)
            )),
            E::PassStart { pass, gamma } => Some(format!("pass {pass} gamma={}", s(gamma))),
            E::PassEnd {
                pass,
                value,
                outcome,
                lower,
                upper,
            } => {
                let how = match outcome {
                    PassOutcome::FailedHigh => "failed high",
                    PassOutcome::FailedLow => "failed low",
                };
                Some(format!(
                    "pass {pass} -> {} {how} ; value in [{},{}]",
                    s(value),
                    s(lower),
                    s(upper)
                ))
            }
            E::MtDone { value, passes } => Some(format!("done value {} passes {passes}", s(value))),
            E::Pop { desc } => {
                self.steps += 1;
                self.in_step = true;
                self.part = StepPart::Other;
                self.part_seen = 0;
                self.line = format!("step {}: pop {}", self.steps, self.descriptor(&desc));
                None
            }
            E::Gamma { case } => {
                let _ = write!(self.line, " ; case {}", case.name());
                None
            }
            E::Purge { desc, .. } => {
                let text = self.descriptor(&desc);
                self.step_part(StepPart::Purge, "purge", &text);
                None
            }
            E::Push { desc } => {
                let text = self.descriptor(&desc);
                self.step_part(StepPart::Push, "push", &text);
                None
            }
            E::OpenSnapshot { len } => {
                self.open_len = len;
                self.open_seen = 0;
                self.close_part();
                if self.in_step {
                    self.line.push_str(" ; OPEN =");
                } else {
                    self.line = format!("step {}: OPEN =", self.steps);
                }
                self.start_list(List::Open, len)
            }
            E::OpenEntry { desc } => {
                let text = self.descriptor(&desc);
                self.list_entry(List::Open, &text)
            }
            E::SssDone { value } => {
                self.in_step = false;
                self.close_part();
                let _ = write!(self.line, " ; case done ; value {}", s(value));
                self.take_line()
            }
            E::Iteration { children, .. } => {
                self.line = "root".to_string();
                self.start_list(List::Bounds, children)
            }
            E::Expand { node, children } => {
                self.line = format!("expand {} ->", self.label(node));
                self.start_list(List::Bounds, children)
            }
            E::Bounds { node, interval } => {
                let text = format!("{}{}", self.label(node), scores.interval(interval));
                self.list_entry(List::Bounds, &text)
            }
            E::Separation { .. } => None,
            E::Strategy {
                strategy, target, ..
            } => Some(format!(
                "strategy {} target {}",
                strategy.name(),
                self.label(target)
            )),
            E::Descend { to, .. } => Some(format!("descend {}", self.label(to))),
            E::Backup { node, old, new } => Some(format!(
                "backup {} {} -> {}",
                self.label(node),
                scores.interval(old),
                scores.interval(new)
            )),
            E::Widen { delta } => Some(format!("widen {}", scores.width(delta))),
            E::Restart => Some("restart".to_string()),
            E::BStarStop { reason, best } => Some(format!(
                "stop {} best {}",
                reason.name(),
                best.map_or(Cow::Borrowed("-"), |node| self.label(node))
            )),
            E::LimitReached { limit } => {
                if self.in_step {
                    self.in_step = false;
                    self.close_part();
                    let _ = write!(self.line, " ; limit reached: {}", limit.name());
                    self.take_line()
                } else {
                    Some(format!("limit reached: {}", limit.name()))
                }
            }
        }
    }
}

/// Renders a whole recorded trace.
pub fn trace_lines<M, N: NodeNames + ?Sized>(names: &N, events: &[TraceEvent<M>]) -> Vec<String> {
    let mut text = TraceText::new(names);
    events.iter().filter_map(|event| text.feed(event)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Score;
    use crate::search::score::INFINITY;

    #[test]
    fn a_long_open_list_is_written_up_to_a_limit() {
        let entry = |n: u32| TraceEvent::<u8>::OpenEntry {
            desc: Descriptor {
                node: NodeId(n.into()),
                ply: 1,
                status: Status::Live,
                merit: Score::new(10 - n as i32),
            },
        };
        let mut events = vec![TraceEvent::OpenSnapshot { len: 4 }];
        events.extend((1..=4).map(entry));
        let lines = |text: TraceText<'_, IdNames>| -> Vec<String> {
            let mut text = text;
            events.iter().filter_map(|event| text.feed(event)).collect()
        };
        assert_eq!(
            lines(TraceText::new(&IdNames).with_open_limit(2)),
            ["step 0: OPEN = #1/L/9 #2/L/8 … (4 in all)"]
        );
        assert_eq!(
            lines(TraceText::new(&IdNames).with_open_limit(4)),
            ["step 0: OPEN = #1/L/9 #2/L/8 #3/L/7 #4/L/6"]
        );
        assert_eq!(
            lines(TraceText::new(&IdNames)),
            ["step 0: OPEN = #1/L/9 #2/L/8 #3/L/7 #4/L/6"]
        );
        // A step's push list too.
        let desc = |n: u64| Descriptor {
            node: NodeId(n),
            ply: 1,
            status: Status::Live,
            merit: Score::new(5),
        };
        let mut step: Vec<TraceEvent<u8>> = vec![TraceEvent::Pop { desc: desc(0) }];
        step.extend((1..=3).map(|n| TraceEvent::Push { desc: desc(n) }));
        step.push(TraceEvent::OpenSnapshot { len: 1 });
        step.push(TraceEvent::OpenEntry { desc: desc(1) });
        let mut text = TraceText::new(&IdNames).with_open_limit(2);
        let written: Vec<String> = step.iter().filter_map(|e| text.feed(e)).collect();
        assert_eq!(
            written,
            ["step 1: pop #0/L/5 ; push #1/L/5 #2/L/5 … (3 in all) ; OPEN = #1/L/5"]
        );
    }

    #[test]
    fn scores_are_written_from_reds_view_in_pawns_when_asked() {
        let black = TraceScores::RedPawns { negate: true };
        let s = Score::new;
        assert_eq!(black.text(s(242)), "-2.42");
        assert_eq!(black.text(s(-5)), "+0.05");
        assert_eq!(black.text(INFINITY), "-inf");
        // MAX (Black) mates in 2: three plies.
        assert_eq!(black.text(Score::mate_in(3)), "#-2");
        assert_eq!(
            black.interval(Interval::new(s(-100), s(250))),
            "[-2.50,+1.00]"
        );
        let red = TraceScores::RedPawns { negate: false };
        assert_eq!(red.text(s(242)), "+2.42");
        assert_eq!(red.text(Score::mate_in(1)), "#1");
        assert_eq!(TraceScores::Max.text(s(242)), "242");
        let raised: TraceEvent<u8> = TraceEvent::AlphaRaised {
            node: NodeId(0x2a),
            ply: 0,
            alpha: s(242),
        };
        assert_eq!(
            TraceText::new(&IdNames).with_scores(black).feed(&raised),
            Some("alpha #2a := -2.42".to_owned())
        );
        assert_eq!(
            TraceText::new(&IdNames).feed(&raised),
            Some("alpha #2a := 242".to_owned())
        );
    }
    use crate::search::trace::{Descriptor, Status};

    #[test]
    fn games_without_labels_show_ids_and_counts() {
        let events: [TraceEvent<u8>; 4] = [
            TraceEvent::Enter {
                node: NodeId(0x2a),
                ply: 0,
                alpha: -INFINITY,
                beta: Score::new(7),
            },
            TraceEvent::Cutoff {
                node: NodeId(0x2a),
                ply: 0,
                k: 1,
                pruned: 3,
            },
            TraceEvent::OpenSnapshot { len: 1 },
            TraceEvent::OpenEntry {
                desc: Descriptor {
                    node: NodeId(1),
                    ply: 0,
                    status: Status::Live,
                    merit: INFINITY,
                },
            },
        ];
        assert_eq!(
            trace_lines(&IdNames, &events),
            [
                "enter #2a alpha=-inf beta=7",
                "cutoff #2a after #1 pruned: 3 more",
                "step 0: OPEN = #1/L/inf",
            ]
        );
    }
}
