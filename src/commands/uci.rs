//! `xiangqi-tui uci`: the UCI (and UCCI) engine on standard input and output.

use anyhow::Result;
use xiangqi_engine::egtb::Tablebases;

pub fn run() -> Result<()> {
    xiangqi_engine::uci::run_with_tablebases(
        std::io::stdin(),
        std::io::stdout(),
        Tablebases::installed(),
    )?;
    Ok(())
}
