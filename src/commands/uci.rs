//! `xiangqi-tui uci`: the UCI (and UCCI) engine on standard input and output.

use std::sync::Arc;

use anyhow::Result;
use xiangqi_tui::egtb::{self, Tablebases};

pub fn run() -> Result<()> {
    xiangqi_tui::engine::uci::run_with_tablebases(
        std::io::stdin(),
        std::io::stdout(),
        installed_tablebases(),
    )?;
    Ok(())
}

/// The tables in the data directory (`egtb generate`'s default), if there are any.
pub fn installed_tablebases() -> Option<Arc<Tablebases>> {
    let tables = Tablebases::open(&egtb::default_dir()?);
    (!tables.is_empty()).then(|| Arc::new(tables))
}
