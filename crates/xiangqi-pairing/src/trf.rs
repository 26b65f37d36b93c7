//! FIDE's Tournament Report File, TRF(x): the exchange format of pairing
//! programs (JaVaFo, bbpPairings, Swiss-Manager) and of rating reports.
//!
//! Written: the `012` name line, one `001` line per player with each round's
//! opponent, colour and result, `XXR` (number of rounds) and `XXC`
//! (`white1`/`black1`: the top seed's colour in round 1), which is what a
//! pairing program needs. Read: the same, plus `142` for the rounds; other
//! lines are skipped. Result codes: `1 = 0` played; `W D L` played, unrated
//! (read as played); `+ -` forfeits; `U` the pairing-allocated bye; `F H Z`
//! (or blank) a round without a game worth 1, ½ or 0.

use crate::dutch::Pairing;
use crate::tournament::{Colour, Game, GameResult, Player, Points, Tournament};

/// A TRF line that cannot be understood: its line number and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TrfError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for TrfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TrfError {}

/// The TRF(x) text of `tournament`, lines ending in `\n`.
pub fn write(tournament: &Tournament) -> String {
    let entries = tournament.entries();
    let mut out = format!("012 {}\n", tournament.name);
    for (i, player) in tournament.players.iter().enumerate() {
        let points: Points = entries[i].iter().map(|e| e.points).sum();
        let name: String = player.name.chars().take(33).collect();
        let mut line = format!(
            "001 {:>4}      {:<33} {:>4}{:28}{:>4} {:>4}",
            i + 1,
            name,
            player.rating,
            "",
            format!("{}.{}", points.0 / 2, if points.0 % 2 == 1 { 5 } else { 0 }),
            i + 1
        );
        for games in &tournament.rounds {
            let cell = games.iter().find_map(|g| cell(g, i)).unwrap_or_default();
            if cell.is_empty() {
                line.push_str("          ");
            } else {
                line.push_str("  ");
                line.push_str(&cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&format!("XXR {}\n", tournament.total_rounds));
    let first = match tournament.first_colour {
        Colour::White => "white1",
        Colour::Black => "black1",
    };
    out.push_str(&format!("XXC {first}\n"));
    out
}

/// Player `me`'s 8-character round cell in `game`, if the game concerns them.
fn cell(game: &Game, me: usize) -> Option<String> {
    let opp = |o: usize| format!("{:>4}", o + 1);
    match *game {
        Game::Played {
            white,
            black,
            result,
        } if me == white || me == black => {
            let is_white = me == white;
            let code = match (result, is_white) {
                (GameResult::Draw, _) => '=',
                (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => '1',
                _ => '0',
            };
            let (o, c) = if is_white { (black, 'w') } else { (white, 'b') };
            Some(format!("{} {} {}", opp(o), c, code))
        }
        Game::Forfeit {
            white,
            black,
            winner,
        } if me == white || me == black => {
            let (o, c, mine) = if me == white {
                (black, 'w', Colour::White)
            } else {
                (white, 'b', Colour::Black)
            };
            let code = if winner == Some(mine) { '+' } else { '-' };
            Some(format!("{} {} {}", opp(o), c, code))
        }
        Game::Bye { player } if player == me => Some("0000 - U".into()),
        Game::Absent { player, points } if player == me => {
            let code = match points.0 {
                0 => 'Z',
                1 => 'H',
                _ => 'F',
            };
            Some(format!("0000 - {code}"))
        }
        _ => None,
    }
}

/// One player's round as read.
#[derive(Clone, Copy)]
struct Cell {
    opponent: Option<usize>,
    colour: Option<Colour>,
    code: char,
}

/// Reads a TRF(x) file. Players are numbered by their `001` start rank.
pub fn read(text: &str) -> Result<Tournament, TrfError> {
    let mut name = String::new();
    let mut total_rounds = None;
    let mut first_colour = Colour::White;
    // A player's line as read: the player, each round's cell, the line number.
    type Row = (Player, Vec<Option<Cell>>, usize);
    let mut players: Vec<Option<Row>> = Vec::new();
    // bbpPairings ends lines with a lone CR.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    for (index, raw) in text.split('\n').enumerate() {
        let line_no = index + 1;
        let err = |message: String| TrfError {
            line: line_no,
            message,
        };
        let line: Vec<char> = raw.chars().collect();
        let text_of = |a: usize, b: usize| -> String {
            line.get(a..b.min(line.len()))
                .map(|s| s.iter().collect())
                .unwrap_or_default()
        };
        let prefix = text_of(0, 3);
        match prefix.as_str() {
            "012" => name = text_of(4, line.len()).trim().to_string(),
            "XXR" | "142" => {
                let n: u32 = text_of(3, line.len())
                    .trim()
                    .parse()
                    .map_err(|_| err("the number of rounds is not a number".into()))?;
                total_rounds = Some(n);
            }
            "XXC" => {
                for word in text_of(3, line.len()).split_whitespace() {
                    match word {
                        "white1" => first_colour = Colour::White,
                        "black1" => first_colour = Colour::Black,
                        _ => {}
                    }
                }
            }
            "001" => {
                let id: usize = text_of(4, 8)
                    .trim()
                    .parse()
                    .map_err(|_| err("the start rank (columns 5-8) is not a number".into()))?;
                if id == 0 {
                    return Err(err("start rank 0".into()));
                }
                let rating = match text_of(48, 52).trim() {
                    "" => 0,
                    r => r
                        .parse()
                        .map_err(|_| err(format!("rating {r:?} is not a number")))?,
                };
                let player = Player {
                    name: text_of(14, 47).trim().to_string(),
                    rating,
                };
                let mut cells = Vec::new();
                let mut start = 91;
                while start < line.len() {
                    let c = text_of(start, start + 8);
                    let c: Vec<char> = format!("{c:<8}").chars().collect();
                    let opp: String = c[0..4].iter().collect();
                    let opponent = match opp.trim() {
                        "" | "0000" | "0" => None,
                        o => Some(o.parse::<usize>().map_err(|_| {
                            err(format!(
                                "opponent {o:?} in column {} is not a number",
                                start + 1
                            ))
                        })?),
                    };
                    let colour = match c[5] {
                        'w' | 'W' => Some(Colour::White),
                        'b' | 'B' => Some(Colour::Black),
                        '-' | ' ' => None,
                        x => return Err(err(format!("colour {x:?} in column {}", start + 6))),
                    };
                    let code = c[7].to_ascii_uppercase();
                    if !"10=WDL+-UFHZ ".contains(code) {
                        return Err(err(format!("result {code:?} in column {}", start + 8)));
                    }
                    if opponent.is_none() && code == ' ' && colour.is_none() {
                        cells.push(None);
                    } else {
                        cells.push(Some(Cell {
                            opponent: opponent.map(|o| o - 1),
                            colour,
                            code,
                        }));
                    }
                    start += 10;
                }
                if players.len() < id {
                    players.resize(id, None);
                }
                if players[id - 1].is_some() {
                    return Err(err(format!("player {id} appears twice")));
                }
                players[id - 1] = Some((player, cells, line_no));
            }
            _ => {}
        }
    }
    let mut list = Vec::new();
    for (i, p) in players.into_iter().enumerate() {
        list.push(p.ok_or(TrfError {
            line: 0,
            message: format!("no 001 line for player {}", i + 1),
        })?);
    }
    let rounds_played = list.iter().map(|p| p.1.len()).max().unwrap_or(0);
    let mut rounds = vec![Vec::new(); rounds_played];
    for (i, (_, cells, line)) in list.iter().enumerate() {
        let err = |message: String| TrfError {
            line: *line,
            message,
        };
        for (r, cell) in cells.iter().enumerate() {
            let Some(cell) = cell else { continue };
            let game = match (cell.opponent, cell.code) {
                (Some(o), code) => {
                    let other = list
                        .get(o)
                        .and_then(|p| p.1.get(r).copied().flatten())
                        .filter(|c| c.opponent == Some(i))
                        .ok_or_else(|| {
                            err(format!(
                                "round {}: player {} does not list {} back",
                                r + 1,
                                o + 1,
                                i + 1
                            ))
                        })?;
                    if o < i {
                        continue;
                    }
                    let (white, black, my_colour) = match (cell.colour, other.colour) {
                        (Some(Colour::Black), _) | (None, Some(Colour::White)) => {
                            (o, i, Colour::Black)
                        }
                        _ => (i, o, Colour::White),
                    };
                    match (code, other.code) {
                        ('+' | '-', '+' | '-') => Game::Forfeit {
                            white,
                            black,
                            winner: if code == '+' {
                                Some(my_colour)
                            } else if other.code == '+' {
                                Some(my_colour.opposite())
                            } else {
                                None
                            },
                        },
                        (a, b) => {
                            let mine = match a {
                                '1' | 'W' => 2,
                                '=' | 'D' => 1,
                                '0' | 'L' => 0,
                                _ => {
                                    return Err(err(format!(
                                        "round {}: result {a:?} with an opponent",
                                        r + 1
                                    )));
                                }
                            };
                            let theirs = match b {
                                '1' | 'W' => 2,
                                '=' | 'D' => 1,
                                '0' | 'L' => 0,
                                _ => {
                                    return Err(err(format!(
                                        "round {}: results do not match",
                                        r + 1
                                    )));
                                }
                            };
                            if mine + theirs != 2 {
                                return Err(err(format!("round {}: results do not match", r + 1)));
                            }
                            let white_points = if white == i { mine } else { theirs };
                            let result = match white_points {
                                2 => GameResult::WhiteWins,
                                1 => GameResult::Draw,
                                _ => GameResult::BlackWins,
                            };
                            Game::Played {
                                white,
                                black,
                                result,
                            }
                        }
                    }
                }
                (None, 'U' | '+') => Game::Bye { player: i },
                (None, 'F' | '1' | 'W') => Game::Absent {
                    player: i,
                    points: Points::ONE,
                },
                (None, 'H' | '=' | 'D') => Game::Absent {
                    player: i,
                    points: Points::HALF,
                },
                (None, _) => Game::Absent {
                    player: i,
                    points: Points::ZERO,
                },
            };
            rounds[r].push(game);
        }
    }
    let tournament = Tournament {
        name,
        players: list.into_iter().map(|p| p.0).collect(),
        total_rounds: total_rounds
            .unwrap_or(rounds_played as u32)
            .max(rounds_played as u32),
        rounds,
        first_colour,
    };
    tournament
        .validate()
        .map_err(|message| TrfError { line: 0, message })?;
    Ok(tournament)
}

/// Reads a TRF(x) file given to a pairing program: a last round in which
/// nobody is paired holds the players who sit out the round to be paired
/// (JaVaFo's and bbpPairings' convention). Returns the tournament without that
/// round and those players.
pub fn read_for_pairing(text: &str) -> Result<(Tournament, Vec<usize>), TrfError> {
    let mut tournament = read(text)?;
    let mut absent = Vec::new();
    if let Some(last) = tournament.rounds.last()
        && last.iter().all(|g| matches!(g, Game::Absent { .. }))
    {
        absent = last.iter().filter_map(|g| g.players()[0]).collect();
        absent.sort_unstable();
        tournament.rounds.pop();
    }
    Ok((tournament, absent))
}

/// Reads bbpPairings' (and JaVaFo's) pairing output: a count line, then
/// `white black` per board, `player 0` for the bye; 1-based numbers.
pub fn read_pairing_output(text: &str) -> Result<Pairing, String> {
    let mut boards = Vec::new();
    let mut bye = None;
    for line in text.lines().skip(1) {
        let nums: Vec<usize> = line
            .split_whitespace()
            .map(|w| w.parse().map_err(|_| format!("not a number: {w:?}")))
            .collect::<Result<_, _>>()?;
        match nums[..] {
            [] => {}
            [p, 0] if p > 0 => bye = Some(p - 1),
            [w, b] if w > 0 && b > 0 => boards.push((w - 1, b - 1)),
            _ => return Err(format!("unexpected line {line:?}")),
        }
    }
    Ok(Pairing { boards, bye })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Tournament {
        Tournament {
            name: "Club night".into(),
            players: (0..5)
                .map(|i| Player {
                    name: format!("Player {}", i + 1),
                    rating: 2000 - 100 * i as u32,
                })
                .collect(),
            rounds: vec![
                vec![
                    Game::Played {
                        white: 0,
                        black: 3,
                        result: GameResult::WhiteWins,
                    },
                    Game::Played {
                        white: 4,
                        black: 1,
                        result: GameResult::Draw,
                    },
                    Game::Bye { player: 2 },
                ],
                vec![
                    Game::Forfeit {
                        white: 1,
                        black: 0,
                        winner: Some(Colour::Black),
                    },
                    Game::Forfeit {
                        white: 2,
                        black: 4,
                        winner: None,
                    },
                    Game::Absent {
                        player: 3,
                        points: Points::HALF,
                    },
                ],
                vec![
                    Game::Played {
                        white: 3,
                        black: 2,
                        result: GameResult::BlackWins,
                    },
                    Game::Absent {
                        player: 0,
                        points: Points::ZERO,
                    },
                ],
            ],
            total_rounds: 5,
            first_colour: Colour::Black,
        }
    }

    #[test]
    fn writes_fixed_columns() {
        let text = write(&sample());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "012 Club night");
        assert_eq!(
            lines[1],
            "001    1      Player 1                          2000                             2.0    1     4 w 1     2 b +  0000 - Z"
        );
        assert_eq!(
            lines[3],
            "001    3      Player 3                          1800                             2.0    3  0000 - U     5 w -     4 b 1"
        );
        // Player 5 did not play round 3: a blank cell, trimmed at the end.
        assert_eq!(
            lines[5],
            "001    5      Player 5                          1600                             0.5    5     2 w =     3 b -"
        );
        assert_eq!(&lines[6..], ["XXR 5", "XXC black1"]);
    }

    #[test]
    fn reads_back_what_it_writes() {
        let t = sample();
        let back = read(&write(&t)).unwrap();
        let norm = |t: &Tournament| {
            let mut t = t.clone();
            for r in &mut t.rounds {
                r.sort_by_key(|g| g.players()[0]);
            }
            t
        };
        assert_eq!(norm(&back), norm(&t));
    }

    #[test]
    fn reads_bbp_pairings_output_with_carriage_returns() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/bbp-generated-cr.trf"
        ))
        .unwrap();
        let t = read(&text).unwrap();
        assert_eq!(t.players.len(), 9);
        assert_eq!(t.rounds.len(), 4);
        assert_eq!(
            t.players[0],
            Player {
                name: "Test0001 Player0001".into(),
                rating: 2568
            }
        );
        assert!(t.rounds[0].contains(&Game::Played {
            white: 4,
            black: 0,
            result: GameResult::BlackWins
        }));
        assert!(t.rounds[3].contains(&Game::Bye { player: 4 }));
        let s = crate::standings(&t);
        assert_eq!((s[0].player, s[0].points), (0, Points(7)));
    }

    #[test]
    fn errors_name_the_line() {
        let bad = "012 x\n001    1      A                                 2000                             1.0    1     2 w 1\n001    2      B                                 1900                             0.0    2     1 b 1\n";
        let e = read(bad).unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.to_string(), "line 2: round 1: results do not match");
        let e = read("001    x\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: the start rank (columns 5-8) is not a number"
        );
        let e = read("XXR many\n").unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (1, "the number of rounds is not a number")
        );
        let one_sided = "001    1      A                                 2000                             1.0    1     2 w 1\n001    2      B                                 1900                             0.0    2\n";
        assert_eq!(
            read(one_sided).unwrap_err().to_string(),
            "line 1: round 1: player 2 does not list 1 back"
        );
    }

    #[test]
    fn reads_the_pairing_program_output() {
        let p = read_pairing_output("3\n1 5\n6 2\n9 0\n").unwrap();
        assert_eq!(p.boards, [(0, 4), (5, 1)]);
        assert_eq!(p.bye, Some(8));
        assert!(read_pairing_output("1\n1 x\n").is_err());
    }
}
