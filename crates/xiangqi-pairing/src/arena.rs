//! Arena tournaments as lichess runs them: no rounds; a player whose game
//! ends goes back to the waiting pool and is paired again with someone close
//! in the standings.
//!
//! **Scoring** (lichess's arena rules): a win is 2 points, a draw 1, a loss 0.
//! Two wins in a row put a player *on fire*: from the next game on, every game
//! is worth double (a win 4, a draw 2) until the player fails to win; the game
//! that breaks the streak still counts double. So W W D scores 2 + 2 + 2, and
//! W W W W scores 2 + 2 + 4 + 4. lichess's berserk bonus and its rule against
//! quick draws need the moves of the game and are left to the caller.
//!
//! **Ranking**: points, then performance (the average over games of the
//! opponent's rating, +500 for a win, -500 for a loss: lichess's tie-break),
//! then the caller's order.

use crate::matching::max_weight_matching;
use crate::tournament::Colour;

/// A game's result for one player.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// The points of each game of a player, in the order played, and whether the
/// player is on fire for the next game.
pub fn game_points(results: &[Outcome]) -> (Vec<u32>, bool) {
    let mut wins_in_a_row = 0;
    let mut points = Vec::with_capacity(results.len());
    for &result in results {
        let on_fire = wins_in_a_row >= 2;
        let base = match result {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        };
        points.push(if on_fire { 2 * base } else { base });
        wins_in_a_row = if result == Outcome::Win {
            wins_in_a_row + 1
        } else {
            0
        };
    }
    (points, wins_in_a_row >= 2)
}

/// A finished game, from one player's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ArenaGame {
    pub outcome: Outcome,
    pub opponent_rating: u32,
}

/// One line of an arena's standings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ArenaStanding {
    /// Index into the records given to [`standings`].
    pub player: usize,
    /// 1-based; players equal on points and performance share it.
    pub rank: usize,
    pub points: u32,
    pub games: u32,
    /// `None` before the first game.
    pub performance: Option<i64>,
    pub on_fire: bool,
}

/// Ranks players from their games (each in the order played).
pub fn standings(records: &[Vec<ArenaGame>]) -> Vec<ArenaStanding> {
    let mut rows: Vec<ArenaStanding> = records
        .iter()
        .enumerate()
        .map(|(player, games)| {
            let outcomes: Vec<Outcome> = games.iter().map(|g| g.outcome).collect();
            let (points, on_fire) = game_points(&outcomes);
            let performance = (!games.is_empty()).then(|| {
                let total: i64 = games
                    .iter()
                    .map(|g| {
                        i64::from(g.opponent_rating)
                            + match g.outcome {
                                Outcome::Win => 500,
                                Outcome::Draw => 0,
                                Outcome::Loss => -500,
                            }
                    })
                    .sum();
                total / games.len() as i64
            });
            ArenaStanding {
                player,
                rank: 0,
                points: points.iter().sum(),
                games: games.len() as u32,
                performance,
                on_fire,
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        (b.points, b.performance)
            .cmp(&(a.points, a.performance))
            .then(a.player.cmp(&b.player))
    });
    for i in 0..rows.len() {
        let tied = i > 0
            && (rows[i].points, rows[i].performance)
                == (rows[i - 1].points, rows[i - 1].performance);
        rows[i].rank = if tied { rows[i - 1].rank } else { i + 1 };
    }
    rows
}

/// The most players [`pair`] considers at once.
pub const MAX_POOL: usize = 2000;

/// A player waiting for a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Waiting {
    /// The caller's id for the player.
    pub player: usize,
    pub points: u32,
    pub rating: u32,
    /// The opponent of the player's last game, if any.
    pub last_opponent: Option<usize>,
    /// Games as White minus games as Black.
    pub colour_balance: i32,
}

/// Pairs waiting players: as many games as possible, each between players as
/// close in the standings (points, then rating) as the pool allows, and
/// never two players whose last game was against each other while
/// `others_playing` (someone else may soon be free). When nobody else is
/// playing, a rematch is better than waiting for nobody, so it is allowed,
/// as the last resort. Returns `(white, black)` by the callers' ids: the
/// player who had White less often gets White, else the lower-ranked one
/// (the higher-ranked had the easier pool). With an odd pool one player
/// waits. Only the first [`MAX_POOL`] players are considered.
pub fn pair(waiting: &[Waiting], others_playing: bool) -> Vec<(usize, usize)> {
    // Beyond the weights' range, the rest wait for the next call.
    let waiting = &waiting[..waiting.len().min(MAX_POOL)];
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&waiting[a], &waiting[b]);
        (y.points, y.rating)
            .cmp(&(x.points, x.rating))
            .then(x.player.cmp(&y.player))
    });
    let rank_of = |i: usize| order.iter().position(|&o| o == i).expect("ranked");
    let ranks: Vec<usize> = (0..waiting.len()).map(rank_of).collect();
    // Lexicographic weights: a game at all, then no rematch, then the
    // smallest squared distance in points and in rank (squared, so that two
    // near pairs beat one near and one far). The bit fields hold pools of up
    // to `MAX_POOL` players.
    const GAME: u64 = 1 << 60;
    const FRESH: u64 = 1 << 50;
    let rematch = |i: usize, j: usize| {
        waiting[i].last_opponent == Some(waiting[j].player)
            || waiting[j].last_opponent == Some(waiting[i].player)
    };
    let m = max_weight_matching(waiting.len(), |i, j| {
        let again = rematch(i, j);
        if again && others_playing {
            return 0;
        }
        let points = u64::from(waiting[i].points.abs_diff(waiting[j].points).min(1023));
        let rank = ranks[i].abs_diff(ranks[j]).min(1023) as u64;
        GAME + if again { 0 } else { FRESH } - (((points * points) << 20) | (rank * rank))
    });
    let mut pairs = Vec::new();
    for &i in &order {
        let Some(j) = m[i] else { continue };
        if ranks[j] < ranks[i] {
            continue;
        }
        // i ranks above j.
        let (a, b) = (&waiting[i], &waiting[j]);
        let white_for_j = match a.colour_balance.cmp(&b.colour_balance) {
            std::cmp::Ordering::Less => Colour::Black,
            std::cmp::Ordering::Greater => Colour::White,
            std::cmp::Ordering::Equal => Colour::White,
        };
        pairs.push(match white_for_j {
            Colour::White => (b.player, a.player),
            Colour::Black => (a.player, b.player),
        });
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::*;

    #[test]
    fn streaks_double_from_the_third_win_until_a_game_is_not_won() {
        assert_eq!(game_points(&[Win, Win, Draw]), (vec![2, 2, 2], false));
        assert_eq!(game_points(&[Win, Win, Win, Win]), (vec![2, 2, 4, 4], true));
        assert_eq!(
            game_points(&[Win, Win, Loss, Win, Win, Win]),
            (vec![2, 2, 0, 2, 2, 4], true)
        );
        assert_eq!(
            game_points(&[Draw, Win, Draw, Win]),
            (vec![1, 2, 1, 2], false)
        );
        assert_eq!(game_points(&[Win, Win]), (vec![2, 2], true));
        assert_eq!(game_points(&[]), (vec![], false));
    }

    #[test]
    fn standings_by_points_then_performance() {
        let g = |outcome, opponent_rating| ArenaGame {
            outcome,
            opponent_rating,
        };
        let records = vec![
            vec![g(Win, 1500), g(Loss, 1600)],  // 2 points, perf 1550
            vec![g(Draw, 1800), g(Draw, 1900)], // 2 points, perf 1850
            vec![g(Win, 1400), g(Win, 1400), g(Win, 1400)], // 8 points, on fire
            vec![],
        ];
        let s = standings(&records);
        let view: Vec<_> = s
            .iter()
            .map(|r| (r.player, r.rank, r.points, r.performance, r.on_fire))
            .collect();
        assert_eq!(
            view,
            [
                (2, 1, 8, Some(1900), true),
                (1, 2, 2, Some(1850), false),
                (0, 3, 2, Some(1550), false),
                (3, 4, 0, None, false),
            ]
        );
    }

    fn w(player: usize, points: u32, last_opponent: Option<usize>, colour_balance: i32) -> Waiting {
        Waiting {
            player,
            points,
            rating: 1500,
            last_opponent,
            colour_balance,
        }
    }

    #[test]
    fn neighbours_in_the_standings_meet() {
        let pool = [
            w(10, 8, None, 0),
            w(11, 0, None, 0),
            w(12, 7, None, 0),
            w(13, 1, None, 0),
        ];
        assert_eq!(pair(&pool, false), [(12, 10), (11, 13)]);
    }

    #[test]
    fn no_rematch_while_others_may_come_free() {
        // 10 and 12 just played each other; they are closest in score.
        let pool = [
            w(10, 8, Some(12), 1),
            w(12, 7, Some(10), -1),
            w(13, 5, None, 0),
            w(14, 0, None, 0),
        ];
        // 10-13 and 12-14 (3² + 7²) rather than 10-14 and 12-13 (8² + 2²);
        // White to whoever had it less.
        assert_eq!(pair(&pool, true), [(13, 10), (12, 14)]);
        // Two players alone who just met wait while others play...
        let two = [w(10, 8, Some(12), 1), w(12, 7, Some(10), -1)];
        assert_eq!(pair(&two, true), []);
        // ...and play again when nobody else can come.
        assert_eq!(pair(&two, false), [(12, 10)]);
    }

    #[test]
    fn an_odd_pool_leaves_one_waiting() {
        let pool = [w(1, 4, None, 0), w(2, 4, None, 0), w(3, 0, None, 0)];
        assert_eq!(pair(&pool, true), [(2, 1)]);
    }
}
