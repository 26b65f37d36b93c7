//! "Did you mean" suggestions for misspelt keys and names.

/// The candidate closest to `input`, if one is close enough to be a likely typo.
///
/// Jaro-Winkler rewards a shared prefix, which suits config keys (`movetime` for
/// `movetime_ms`, `depht` for `depth`); the threshold keeps unrelated words out.
pub fn closest<'a, I>(input: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    const THRESHOLD: f64 = 0.8;
    let input = input.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|candidate| (strsim::jaro_winkler(&input, candidate), candidate))
        .filter(|(score, _)| *score >= THRESHOLD)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::closest;

    const KEYS: &[&str] = &[
        "algorithm",
        "depth",
        "movetime_ms",
        "nodes",
        "hash_mb",
        "theme",
    ];

    #[test]
    fn typos_find_the_intended_word() {
        assert_eq!(closest("depht", KEYS.iter().copied()), Some("depth"));
        assert_eq!(
            closest("movetime", KEYS.iter().copied()),
            Some("movetime_ms")
        );
        assert_eq!(closest("algoritm", KEYS.iter().copied()), Some("algorithm"));
        assert_eq!(closest("Theme", KEYS.iter().copied()), Some("theme"));
        assert_eq!(
            closest("alphabeat", ["minimax", "alphabeta", "sss"]),
            Some("alphabeta")
        );
    }

    #[test]
    fn unrelated_words_get_no_suggestion() {
        assert_eq!(closest("colour_scheme", KEYS.iter().copied()), None);
        assert_eq!(closest("x", KEYS.iter().copied()), None);
    }
}
