//! B*'s interval estimates for positions, from shallow probe searches as Palay and
//! Berliner did for chess.
//!
//! For a node with S to move:
//! * the **realistic value** `r` is a shallow search of the node by the strong engine
//!   (`depth` plies plus its quiescence search);
//! * the **pessimistic bound** is the value for S if the opponent got a free move: a
//!   null move, then the same shallow search (the opponent's threat). It is Palay's
//!   null-move bound;
//! * the **optimistic bound** mirrors it: as far above `r` as the pessimistic bound is
//!   below, capped at `max_tempo_gap`. A position where a tempo is worth a lot is sharp
//!   both ways; a quiet one, where passing costs little, gets a narrow interval;
//! * both bounds are widened by `margin`, the uncertainty of a shallow search itself.
//!
//! In check there is no null move: the interval is `r ± in_check_gap ± margin`. A mate
//! found by a probe is a point (a proven value); a mate threat found by the null-move
//! probe is the pessimistic bound as it stands. Mate distances count from the B* root.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::search::{Interval, IntervalGame, Score, is_mate};
use xiangqi_core::board::Position;

use super::position_game::PositionGame;
use super::score::to_search;
use super::{Engine, Limits};

/// How B* estimates a position's interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbeSettings {
    /// Depth of each probe search, in plies (quiescence comes on top).
    pub depth: u32,
    /// Added on both sides of every estimate, in centipawns.
    pub margin: Score,
    /// Widest distance of a bound from the realistic value, in centipawns.
    pub max_tempo_gap: Score,
    /// Distance of the bounds from the realistic value when in check.
    pub in_check_gap: Score,
    /// The probe engine's transposition table, in MB.
    pub hash_mb: usize,
}

impl Default for ProbeSettings {
    fn default() -> Self {
        ProbeSettings {
            depth: 1,
            margin: Score::new(20),
            max_tempo_gap: Score::new(600),
            in_check_gap: Score::new(150),
            hash_mb: 8,
        }
    }
}

/// The probe searcher: a strong engine of its own, stopped with the B* search.
pub(crate) struct Prober {
    engine: Engine,
    settings: ProbeSettings,
    stop: Arc<AtomicBool>,
    /// Nodes the probes searched.
    pub(crate) nodes: u64,
}

impl Prober {
    pub(crate) fn new(settings: ProbeSettings) -> Prober {
        Prober {
            engine: Engine::new(settings.hash_mb),
            settings,
            stop: Arc::new(AtomicBool::new(false)),
            nodes: 0,
        }
    }

    /// Starts a B* search: a fresh table (so results do not depend on earlier
    /// searches) and the search's stop flag.
    pub(crate) fn start(&mut self, settings: ProbeSettings, stop: Arc<AtomicBool>) {
        if settings.hash_mb != self.settings.hash_mb {
            self.engine.set_hash_mb(settings.hash_mb);
        }
        self.engine.new_game();
        self.settings = settings;
        self.stop = stop;
        self.nodes = 0;
    }

    /// The engine's score of `pos` for its side to move; `None` once stopped.
    fn probe(&mut self, pos: &Position) -> Option<i32> {
        let limits = Limits::depth(self.settings.depth.max(1));
        let result = self.engine.search(pos, &limits, &self.stop, &mut |_| {});
        self.nodes += result.nodes;
        (!self.stop.load(Ordering::Relaxed)).then_some(result.score)
    }

    /// The interval of `pos`, `ply` plies below the B* root, from its side to move.
    fn interval(&mut self, pos: &mut Position, ply: u32) -> Interval {
        let Some(realistic) = self.probe(pos) else {
            return Interval::UNKNOWN;
        };
        let r = to_search(realistic, ply);
        let ProbeSettings {
            margin,
            max_tempo_gap,
            in_check_gap,
            ..
        } = self.settings;
        if is_mate(r) {
            return Interval::point(r);
        }
        let threatened = if pos.in_check() {
            None
        } else {
            pos.make_null_move();
            let reply = self.probe(pos);
            pos.unmake_null_move();
            let Some(reply) = reply else {
                return Interval::UNKNOWN;
            };
            Some(-to_search(reply, ply + 1))
        };
        match threatened {
            None => Interval::new(r - in_check_gap - margin, r + in_check_gap + margin),
            Some(t) if is_mate(t) && t < Score::ZERO => Interval::new(t, r + margin),
            Some(t) if is_mate(t) => Interval::new(r - margin, t),
            Some(t) => {
                let gap = (r - t).abs().min(max_tempo_gap);
                Interval::new(r - gap - margin, r + gap + margin)
            }
        }
    }
}

impl IntervalGame for PositionGame {
    /// See the module documentation. Without a prober (a game not set up for B*), a
    /// default one is made.
    fn interval(&mut self) -> Interval {
        let ply = self.ply();
        let mut prober = self
            .prober
            .take()
            .unwrap_or_else(|| Prober::new(ProbeSettings::default()));
        let mut pos = self.position().clone();
        let interval = prober.interval(&mut pos, ply);
        self.prober = Some(prober);
        interval
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interval_of(fen: &str) -> Interval {
        let pos = Position::from_fen(fen).unwrap();
        let mut game = PositionGame::new(&pos);
        game.interval()
    }

    #[test]
    fn a_quiet_position_gets_an_interval_round_its_realistic_value() {
        let interval = interval_of(Position::START_FEN);
        assert!(interval.lo < interval.hi);
        assert!(
            interval.lo > Score::new(-300) && interval.hi < Score::new(300),
            "{interval}"
        );
    }

    #[test]
    fn a_mate_the_probe_sees_is_a_point() {
        // The chariot mates at once.
        let interval = interval_of("4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1");
        assert_eq!(interval, Interval::point(Score::mate_in(1)));
    }

    #[test]
    fn a_hanging_chariot_widens_the_interval() {
        // Black's chariot on a5 hangs to the red chariot; with Black to move it can run.
        let quiet = interval_of(Position::START_FEN);
        let sharp =
            interval_of("rnbakabn1/9/1c5c1/p1p1p1p1p/r8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
        assert!(
            sharp.hi - sharp.lo > quiet.hi - quiet.lo,
            "{sharp} vs {quiet}"
        );
    }
}
