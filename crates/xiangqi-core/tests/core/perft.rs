//! Perft counts from `tests/data/perft.epd` (computed by two independent engines).

use xiangqi_core::board::Position;

fn cases() -> Vec<(String, Vec<(u32, u64)>)> {
    let text = include_str!("../../../../tests/data/perft.epd");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let depths = parts
                .map(|p| {
                    let p = p.trim();
                    let (d, n) = p.split_once(' ').expect("`;Dn count` field");
                    (
                        d.trim_start_matches('D').parse().unwrap(),
                        n.parse().unwrap(),
                    )
                })
                .collect();
            (fen, depths)
        })
        .collect()
}

#[test]
fn every_epd_position_matches_at_every_depth() {
    let cases = cases();
    assert_eq!(cases.len(), 35);
    for (fen, depths) in cases {
        let mut pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (depth, expected) in depths {
            assert_eq!(pos.perft(depth), expected, "{fen} depth {depth}");
        }
        assert_eq!(pos.to_fen().split(' ').next(), fen.split(' ').next());
    }
}

#[test]
fn divide_sums_to_perft_and_names_moves_in_iccs() {
    let mut pos = Position::startpos();
    let split = pos.perft_divide(3);
    assert_eq!(split.len(), 44);
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 79666);
    assert!(split.iter().any(|(m, _)| m.iccs() == "h2e2"));
}
