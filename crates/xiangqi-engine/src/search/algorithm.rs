//! Choosing a backend by name.

use std::fmt;
use std::str::FromStr;

use crate::search::Search;
use crate::search::alphabeta::AlphaBeta;
use crate::search::bstar::BStar;
use crate::search::depth_first::Bounding;
use crate::search::game::IntervalGame;
use crate::search::limits::{Limits, SearchResult};
use crate::search::minimax::Minimax;
use crate::search::mt::{DEFAULT_TABLE_ENTRIES, MtSss, Mtdf};
use crate::search::score::Score;
use crate::search::sss::Sss;
use crate::search::trace::Tracer;
use crate::search::tt::TranspositionTable;

/// The search backends, by the names the CLI and config use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    Minimax,
    AlphaBeta,
    Sss,
    MtSss,
    Mtdf,
    BStar,
}

impl Algorithm {
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Sss,
        Algorithm::MtSss,
        Algorithm::Mtdf,
        Algorithm::BStar,
    ];

    /// The name the CLI and the config use.
    pub const fn as_str(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Sss => "sss",
            Algorithm::MtSss => "mtsss",
            Algorithm::Mtdf => "mtdf",
            Algorithm::BStar => "bstar",
        }
    }

    /// Whether the backend proves an exact value (all but B*).
    pub fn is_exact(self) -> bool {
        self != Algorithm::BStar
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of [`Algorithm::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm '{name}': valid names are {}", Algorithm::ALL.map(Algorithm::as_str).join(", "))]
pub struct UnknownAlgorithm {
    pub name: String,
}

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(name: &str) -> Result<Algorithm, UnknownAlgorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|algorithm| algorithm.as_str().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| UnknownAlgorithm {
                name: name.to_string(),
            })
    }
}

/// Settings that only some backends use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Alpha-beta's value convention (MT passes are always fail-soft).
    pub bounding: Bounding,
    /// Transposition-table entries for MT-SSS* and MTD(f).
    pub table_entries: usize,
    /// MTD(f)'s first guess.
    pub first_guess: Score,
    /// B*'s optional widening δ.
    pub widen: Option<Score>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            bounding: Bounding::FailSoft,
            table_entries: DEFAULT_TABLE_ENTRIES,
            first_guess: Score::ZERO,
            widen: None,
        }
    }
}

/// Any backend, chosen at run time.
#[derive(Clone, Debug)]
pub enum Backend<M> {
    Minimax(Minimax),
    AlphaBeta(AlphaBeta),
    Sss(Sss),
    MtSss(MtSss<M>),
    Mtdf(Mtdf<M>),
    BStar(BStar),
}

impl<M: Copy> Backend<M> {
    pub fn new(algorithm: Algorithm, options: &SearchOptions) -> Self {
        let table = || TranspositionTable::with_entries(options.table_entries);
        match algorithm {
            Algorithm::Minimax => Backend::Minimax(Minimax),
            Algorithm::AlphaBeta => Backend::AlphaBeta(AlphaBeta::new(options.bounding)),
            Algorithm::Sss => Backend::Sss(Sss),
            Algorithm::MtSss => Backend::MtSss(MtSss::new(table())),
            Algorithm::Mtdf => Backend::Mtdf(Mtdf::new(table(), options.first_guess)),
            Algorithm::BStar => Backend::BStar(BStar::new(options.widen)),
        }
    }

    /// Entries in use in the backend's transposition table (MT-SSS* and MTD(f) only).
    pub fn table_occupied(&self) -> Option<usize> {
        match self {
            Backend::MtSss(mt) => Some(mt.table.occupied()),
            Backend::Mtdf(mt) => Some(mt.table.occupied()),
            _ => None,
        }
    }

    pub fn algorithm(&self) -> Algorithm {
        match self {
            Backend::Minimax(_) => Algorithm::Minimax,
            Backend::AlphaBeta(_) => Algorithm::AlphaBeta,
            Backend::Sss(_) => Algorithm::Sss,
            Backend::MtSss(_) => Algorithm::MtSss,
            Backend::Mtdf(_) => Algorithm::Mtdf,
            Backend::BStar(_) => Algorithm::BStar,
        }
    }
}

impl<G: IntervalGame> Search<G> for Backend<G::Move> {
    fn search<T: Tracer<G::Move>>(
        &mut self,
        game: &mut G,
        limits: &Limits,
        tracer: &mut T,
    ) -> SearchResult<G::Move> {
        match self {
            Backend::Minimax(backend) => backend.search(game, limits, tracer),
            Backend::AlphaBeta(backend) => backend.search(game, limits, tracer),
            Backend::Sss(backend) => backend.search(game, limits, tracer),
            Backend::MtSss(backend) => backend.search(game, limits, tracer),
            Backend::Mtdf(backend) => backend.search(game, limits, tracer),
            Backend::BStar(backend) => backend.search(game, limits, tracer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips() {
        for algorithm in Algorithm::ALL {
            assert_eq!(algorithm.as_str().parse::<Algorithm>(), Ok(algorithm));
        }
        assert_eq!("AlphaBeta".parse::<Algorithm>(), Ok(Algorithm::AlphaBeta));
    }

    #[test]
    fn unknown_name_lists_the_valid_ones() {
        let error = "negascout".parse::<Algorithm>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown algorithm 'negascout': valid names are minimax, alphabeta, sss, mtsss, mtdf, bstar"
        );
    }
}
