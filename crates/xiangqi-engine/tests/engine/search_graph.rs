//! The backends on a game that is a graph, not a tree: the table's bounds are
//! keyed by `Game::key`, so transpositions are searched once.

use xiangqi_engine::search::{
    AlphaBeta, Game, Limits, Minimax, MtSss, Mtdf, NoTrace, Score, Search, Sss, TranspositionTable,
};

/// A race to a goal square: from square `n` a move steps 1 or 2 forward, and
/// the squares past `LAST` are terminal. Every square is reached along many
/// paths, so the tree has Fibonacci-many nodes but only `LAST + 2` positions.
/// The square alone decides the value for the side to move, as a real
/// position's key would.
#[derive(Clone, Debug)]
struct Race {
    square: u32,
    history: Vec<u32>,
}

const LAST: u32 = 24;

impl Race {
    fn new() -> Race {
        Race {
            square: 0,
            history: Vec::new(),
        }
    }
}

impl Game for Race {
    type Move = u32;

    fn moves(&self, out: &mut Vec<u32>) {
        if self.square <= LAST {
            out.extend([1, 2]);
        }
    }

    fn play(&mut self, step: u32) {
        self.history.push(self.square);
        self.square += step;
    }

    fn undo(&mut self, _step: u32) {
        self.square = self.history.pop().expect("undo follows play");
    }

    fn evaluate(&self) -> Score {
        Score::ZERO
    }

    fn outcome(&self) -> Option<Score> {
        // Arbitrary but fixed terminal values, from the side to move.
        (self.square > LAST).then(|| Score::new([7, -3][(self.square - LAST - 1) as usize]))
    }

    fn key(&self) -> u64 {
        u64::from(self.square)
    }
}

fn table() -> TranspositionTable<u32> {
    TranspositionTable::with_entries(1024)
}

#[test]
fn transpositions_are_searched_once_with_a_table() {
    let mut game = Race::new();
    let limits = Limits::none();
    let reference = Minimax.search(&mut game, &limits, &mut NoTrace);
    assert!(reference.stats.nodes() > 100_000, "the tree is large");
    let value = reference.value.exact().unwrap();

    let alphabeta = AlphaBeta::default().search(&mut game, &limits, &mut NoTrace);
    let sss = Sss.search(&mut game, &limits, &mut NoTrace);
    assert_eq!(alphabeta.value.exact(), Some(value));
    assert_eq!(sss.value.exact(), Some(value));

    let positions = u64::from(LAST) + 3;
    for (name, result) in [
        (
            "mtsss",
            MtSss::new(table()).search(&mut game, &limits, &mut NoTrace),
        ),
        (
            "mtdf",
            Mtdf::new(table(), Score::ZERO).search(&mut game, &limits, &mut NoTrace),
        ),
    ] {
        assert_eq!(result.value.exact(), Some(value), "{name}");
        assert_eq!(result.best_move, reference.best_move, "{name}");
        let passes = match result.details {
            xiangqi_engine::search::Details::Mt { passes } => u64::from(passes),
            _ => unreachable!("MT details"),
        };
        // A square is reached at even and at odd plies, where a pass searches
        // it with mirrored null windows: at most two expansions per pass.
        assert!(
            result.stats.interior <= 2 * positions * passes,
            "{name}: {:?} in {passes} passes",
            result.stats
        );
        assert!(result.stats.nodes() * 100 < reference.stats.nodes());
        assert!(
            result.stats.leaves <= 2,
            "{name}: the two terminal squares, once each"
        );
    }
    assert_eq!(game.square, 0, "searches leave the game where it was");
}

#[test]
fn a_kept_table_answers_the_next_search_at_once() {
    let mut game = Race::new();
    let mut mtdf = Mtdf::new(table(), Score::ZERO);
    let first = mtdf.search(&mut game, &Limits::none(), &mut NoTrace);
    mtdf.first_guess = first.value.exact().unwrap();
    let second = mtdf.search(&mut game, &Limits::none(), &mut NoTrace);
    assert_eq!(second.value, first.value);
    assert_eq!(second.stats.leaves, 0, "every bound comes from the table");
    mtdf.table.clear();
    let third = mtdf.search(&mut game, &Limits::none(), &mut NoTrace);
    assert!(third.stats.leaves > 0);
}
