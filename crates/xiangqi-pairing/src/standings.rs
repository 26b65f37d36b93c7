//! Standings of a Swiss tournament: points, then Buchholz, Buchholz cut-1,
//! Sonneborn-Berger and direct encounter (FIDE tie-break regulations, C.07,
//! as in force from March 2026).
//!
//! Points: a win 1, a draw ½, a loss 0; the pairing-allocated bye and a
//! forfeit win 1; an absence what the organiser gave (0, ½ for a requested
//! half-point bye, 1 for a full-point bye).
//!
//! **Unplayed rounds** (C.07 article 16). A round without a game is one of:
//! a pairing-allocated or full-point bye; a forfeit win; a forfeit loss; a
//! requested bye (an absence worth 0 or ½; a round before a late player
//! joined counts as one). Forfeit losses and requested byes are *voluntary*
//! unplayed rounds (VURs).
//! - For the tie-breaks of their opponents, a player's score is *adjusted*:
//!   a requested bye followed only by VURs (or in the latest round) counts as
//!   a draw, every other round with the points awarded.
//! - For the player's own Buchholz and Sonneborn-Berger, each unplayed round
//!   is a game against a *dummy* whose score is the player's own score,
//!   capped by the scheduled opponent's adjusted score for forfeits and by
//!   half the number of rounds for byes; the result is the points awarded.
//! - Cut-1 drops the smallest contribution, except that a player with VURs
//!   has the smallest VUR contribution dropped instead.
//!
//! "The latest round" is the latest one played, so live standings treat a
//! requested bye in the round just played as the rules treat one in the
//! last round.
//!
//! **Direct encounter** (a simplification of article 6) separates players
//! still tied after the other criteria: if every two of them played each
//! other, the points they scored in those games rank them; otherwise it
//! leaves them tied (it is 0 for all). Players tied on everything share a
//! rank.

use crate::tournament::{Entry, Points, Tournament};

/// One line of the standings.
#[derive(Clone, PartialEq, Debug)]
pub struct Standing {
    /// Index into [`Tournament::players`].
    pub player: usize,
    /// 1-based; tied players share a rank.
    pub rank: usize,
    pub points: Points,
    /// Games played over the board (not byes, forfeits, absences).
    pub games: u32,
    /// The tie-breaks, in points. Exact: halves and quarters are exact in
    /// binary floating point.
    pub buchholz: f64,
    pub buchholz_cut1: f64,
    pub sonneborn_berger: f64,
    pub direct_encounter: f64,
}

/// The standings after the rounds in `tournament`, best first; players tied
/// on everything appear in pairing-number order.
pub fn standings(tournament: &Tournament) -> Vec<Standing> {
    let entries = tournament.entries();
    let score: Vec<u32> = entries
        .iter()
        .map(|es| es.iter().map(|e| e.points.0).sum())
        .collect();
    let kinds: Vec<Vec<Round>> = entries.iter().map(|es| classify(es)).collect();
    // Article 16.3, in half points.
    let adjusted: Vec<u32> = entries
        .iter()
        .zip(&kinds)
        .map(|(es, ks)| {
            es.iter()
                .zip(ks)
                .map(|(e, k)| {
                    if *k == Round::RequestedLast {
                        1
                    } else {
                        e.points.0
                    }
                })
                .sum()
        })
        .collect();
    let rounds = (tournament.total_rounds as usize).max(tournament.rounds.len()) as u32;
    let mut rows: Vec<Standing> = entries
        .iter()
        .enumerate()
        .map(|(i, es)| {
            // Each round's (opponent's or dummy's score, own points, VUR), in
            // half points.
            let contributions: Vec<(u32, u32, bool)> = es
                .iter()
                .zip(&kinds[i])
                .map(|(e, kind)| {
                    let opponent = match kind {
                        Round::Played => adjusted[e.opponent.expect("played")],
                        Round::ForfeitWin | Round::ForfeitLoss => {
                            score[i].min(adjusted[e.opponent.expect("paired")])
                        }
                        _ => score[i].min(rounds),
                    };
                    (opponent, e.points.0, kind.voluntary())
                })
                .collect();
            let buchholz: u32 = contributions.iter().map(|c| c.0).sum();
            let cut = contributions
                .iter()
                .filter(|c| c.2)
                .map(|c| c.0)
                .min()
                .or_else(|| contributions.iter().map(|c| c.0).min())
                .unwrap_or(0);
            let sb_quarters: u32 = contributions.iter().map(|c| c.0 * c.1).sum();
            Standing {
                player: i,
                rank: 0,
                points: Points(score[i]),
                games: es.iter().filter(|e| e.played).count() as u32,
                buchholz: f64::from(buchholz) / 2.0,
                buchholz_cut1: f64::from(buchholz - cut) / 2.0,
                sonneborn_berger: f64::from(sb_quarters) / 4.0,
                direct_encounter: 0.0,
            }
        })
        .collect();
    let key = |s: &Standing| (s.points, s.buchholz, s.buchholz_cut1, s.sonneborn_berger);
    rows.sort_by(|a, b| {
        key(b)
            .partial_cmp(&key(a))
            .expect("finite")
            .then(a.player.cmp(&b.player))
    });
    // Direct encounter within each group tied on the criteria before it.
    let mut start = 0;
    while start < rows.len() {
        let end = (start..rows.len())
            .find(|&j| key(&rows[j]) != key(&rows[start]))
            .unwrap_or(rows.len());
        if end - start > 1 {
            let group: Vec<usize> = rows[start..end].iter().map(|s| s.player).collect();
            let mut all_met = true;
            let mut among = vec![0.0; end - start];
            for (gi, &p) in group.iter().enumerate() {
                for &q in &group {
                    if p == q {
                        continue;
                    }
                    let games: Vec<_> = entries[p]
                        .iter()
                        .filter(|e| e.played && e.opponent == Some(q))
                        .collect();
                    if games.is_empty() {
                        all_met = false;
                    }
                    among[gi] += games
                        .iter()
                        .map(|e| f64::from(e.points.0) / 2.0)
                        .sum::<f64>();
                }
            }
            if all_met {
                for (row, de) in rows[start..end].iter_mut().zip(among) {
                    row.direct_encounter = de;
                }
                rows[start..end].sort_by(|a, b| {
                    b.direct_encounter
                        .partial_cmp(&a.direct_encounter)
                        .expect("finite")
                        .then(a.player.cmp(&b.player))
                });
            }
        }
        start = end;
    }
    for i in 0..rows.len() {
        let tied = i > 0
            && key(&rows[i]) == key(&rows[i - 1])
            && rows[i].direct_encounter == rows[i - 1].direct_encounter;
        rows[i].rank = if tied { rows[i - 1].rank } else { i + 1 };
    }
    rows
}

/// What a player's round was, for article 16.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Round {
    Played,
    /// The pairing-allocated bye or a full-point bye (16.2.1).
    Bye,
    ForfeitWin,
    ForfeitLoss,
    /// A requested bye followed by a round that is not voluntarily unplayed
    /// (16.2.3).
    Requested,
    /// A requested bye followed only by voluntarily unplayed rounds, or in
    /// the latest round (16.2.5).
    RequestedLast,
}

impl Round {
    /// A voluntary unplayed round: the player was not available.
    fn voluntary(self) -> bool {
        matches!(
            self,
            Round::ForfeitLoss | Round::Requested | Round::RequestedLast
        )
    }
}

fn classify(entries: &[Entry]) -> Vec<Round> {
    let mut out: Vec<Round> = entries
        .iter()
        .map(|e| match (e.played, e.paired, e.opponent) {
            (true, _, _) => Round::Played,
            (false, true, None) => Round::Bye,
            (false, true, Some(_)) if e.points.0 >= 2 => Round::ForfeitWin,
            (false, true, Some(_)) => Round::ForfeitLoss,
            (false, false, _) if e.points.0 >= 2 => Round::Bye,
            (false, false, _) => Round::RequestedLast,
        })
        .collect();
    // A requested bye is "followed" when a later round was not voluntary.
    let mut later_available = false;
    for kind in out.iter_mut().rev() {
        if *kind == Round::RequestedLast && later_available {
            *kind = Round::Requested;
        }
        later_available |= !kind.voluntary();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{Colour, Game, GameResult, Player};

    fn players(n: usize) -> Vec<Player> {
        (0..n)
            .map(|i| Player {
                name: format!("P{}", i + 1),
                rating: 2000 - i as u32,
            })
            .collect()
    }

    fn played(white: usize, black: usize, result: GameResult) -> Game {
        Game::Played {
            white,
            black,
            result,
        }
    }

    /// Five players, three rounds, with a bye, a forfeit and a draw; every
    /// number worked out by hand below.
    #[test]
    fn tie_breaks_by_hand() {
        use GameResult::*;
        let t = Tournament {
            name: "club".into(),
            players: players(5),
            rounds: vec![
                // P1 beats P3, P2 draws P4, P5 bye.
                vec![
                    played(0, 2, WhiteWins),
                    played(3, 1, Draw),
                    Game::Bye { player: 4 },
                ],
                // P5 beats P1, P2 wins by forfeit against P3, P4 bye.
                vec![
                    played(4, 0, WhiteWins),
                    Game::Forfeit {
                        white: 1,
                        black: 2,
                        winner: Some(Colour::White),
                    },
                    Game::Bye { player: 3 },
                ],
                // P1 beats P4, P3 draws P5, P2 absent with a half point.
                vec![
                    played(0, 3, WhiteWins),
                    played(2, 4, Draw),
                    Game::Absent {
                        player: 1,
                        points: Points::HALF,
                    },
                ],
            ],
            total_rounds: 3,
            first_colour: Colour::White,
        };
        let s = standings(&t);
        let by = |p: usize| s.iter().find(|r| r.player == p).unwrap().clone();
        // Scores: P1 2, P2 2, P3 0.5, P4 1.5, P5 2.5; P2's half-point bye
        // in the latest round counts as a draw for others, as awarded.
        let p1 = by(0);
        assert_eq!((p1.points, p1.games), (Points(4), 3));
        // Opponents P3 0.5, P5 2.5, P4 1.5; no unplayed round.
        assert_eq!((p1.buchholz, p1.buchholz_cut1), (4.5, 4.0));
        // 0.5*1 + 2.5*0 + 1.5*1.
        assert_eq!(p1.sonneborn_berger, 2.0);
        let p2 = by(1);
        assert_eq!(p2.games, 1);
        // Played P4 (1.5); forfeit win: dummy of P2's score 2 capped by the
        // scheduled opponent P3's 0.5; requested bye: 2 capped by half the
        // 3 rounds, 1.5. Cut-1 drops the bye, P2's only voluntary round.
        assert_eq!((p2.buchholz, p2.buchholz_cut1), (3.5, 2.0));
        // 1.5*0.5 + 0.5*1 + 1.5*0.5.
        assert_eq!(p2.sonneborn_berger, 2.0);
        let p3 = by(2);
        // P1 2, forfeit loss: P3's own 0.5 (under P2's 2), P5 2.5; cut-1
        // drops the forfeit loss, a voluntary round.
        assert_eq!((p3.buchholz, p3.buchholz_cut1), (5.0, 4.5));
        let p5 = by(4);
        // Bye: P5's 2.5 capped by 1.5; P1 2; P3 0.5.
        assert_eq!((p5.buchholz, p5.buchholz_cut1), (4.0, 3.5));
        let order: Vec<usize> = s.iter().map(|r| r.player).collect();
        assert_eq!(order, [4, 0, 1, 3, 2]);
        assert_eq!(
            s.iter().map(|r| r.rank).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
    }

    #[test]
    fn a_requested_bye_followed_by_a_game_counts_as_awarded_for_opponents() {
        use GameResult::*;
        let t = Tournament {
            name: "byes".into(),
            players: players(4),
            rounds: vec![
                vec![
                    played(0, 1, WhiteWins),
                    Game::Absent {
                        player: 2,
                        points: Points::ZERO,
                    },
                    Game::Absent {
                        player: 3,
                        points: Points::ONE,
                    },
                ],
                vec![
                    played(2, 0, Draw),
                    Game::Absent {
                        player: 1,
                        points: Points::ZERO,
                    },
                    Game::Absent {
                        player: 3,
                        points: Points::ZERO,
                    },
                ],
            ],
            total_rounds: 2,
            first_colour: Colour::White,
        };
        // Round 1: P1 beats P2; P3 absent (0); P4 full-point bye.
        // Round 2: P3 draws P1; P2 and P4 absent (0), their latest round.
        let s = standings(&t);
        let by = |p: usize| s.iter().find(|r| r.player == p).unwrap().clone();
        // P2's adjusted score: 0 + a draw for the latest-round bye = 0.5.
        // P1: P2 0.5 + P3 0.5 (P3's round-1 bye is followed by a game).
        assert_eq!(by(0).buchholz, 1.0);
        // P3: bye, dummy min(0.5, 1) = 0.5; P1 1.5.
        assert_eq!((by(2).buchholz, by(2).buchholz_cut1), (2.0, 1.5));
    }

    #[test]
    fn direct_encounter_separates_players_tied_on_everything_else() {
        use GameResult::*;
        // A double round: P1 and P2 each beat P3 and P4 twice... kept small:
        // P1 beats P2, P2 beats P1? Use a four-player round robin in which P1
        // and P2 end equal on points, Buchholz and SB, and P2 beat P1.
        let t = Tournament {
            name: "rr".into(),
            players: players(4),
            rounds: vec![
                vec![played(1, 0, WhiteWins), played(2, 3, Draw)],
                vec![played(0, 2, WhiteWins), played(3, 1, WhiteWins)],
                vec![played(0, 3, Draw), played(1, 2, Draw)],
            ],
            total_rounds: 3,
            first_colour: Colour::White,
        };
        let s = standings(&t);
        // P1: 0 + 1 + 0.5 = 1.5; P2: 1 + 0 + 0.5 = 1.5; P3 1, P4 2.
        assert_eq!(s[0].player, 3);
        let (a, b) = (&s[1], &s[2]);
        assert_eq!((a.points, b.points), (Points(3), Points(3)));
        assert_eq!(
            (a.buchholz, a.sonneborn_berger),
            (b.buchholz, b.sonneborn_berger)
        );
        assert_eq!((a.player, a.direct_encounter), (1, 1.0));
        assert_eq!((b.player, b.direct_encounter), (0, 0.0));
        assert_eq!((a.rank, b.rank), (2, 3));
    }

    #[test]
    fn players_tied_on_everything_share_a_rank() {
        use GameResult::*;
        let t = Tournament {
            name: "two boards".into(),
            players: players(4),
            rounds: vec![vec![played(0, 1, Draw), played(2, 3, Draw)]],
            total_rounds: 1,
            first_colour: Colour::White,
        };
        let s = standings(&t);
        assert_eq!(
            s.iter().map(|r| (r.player, r.rank)).collect::<Vec<_>>(),
            [(0, 1), (1, 1), (2, 1), (3, 1)]
        );
    }
}
