//! `xiangqi-tui uci`: the UCI (and UCCI) engine on standard input and output.

use anyhow::Result;

pub fn run() -> Result<()> {
    xiangqi_tui::engine::uci::run(std::io::stdin(), std::io::stdout())?;
    Ok(())
}
