//! Prints an SSS* search one step at a time: each line is one Γ step and the
//! OPEN list after it, then why that case applied.
//!
//! ```text
//! cargo run --example sss_steps                 # the French course's tree
//! cargo run --example sss_steps -- FILE.tree    # any tree
//! ```

use std::error::Error;

use xiangqi_engine::search::{Algorithm, Limits, Search, Sss, TraceEvent, TraceText};
use xiangqi_engine::tree::{NodeIndex, Tree};

fn main() -> Result<(), Box<dyn Error>> {
    let text = match std::env::args().nth(1) {
        Some(path) => std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?,
        None => include_str!("course-sss.tree").to_string(),
    };
    let tree = Tree::parse(&text)?;
    tree.check_algorithm(Algorithm::Sss)?;

    let mut lines = TraceText::new(&tree);
    let mut case = None;
    // Any closure taking events is a tracer: each step prints as it happens.
    let mut print_step = |event: TraceEvent<NodeIndex>| {
        if let TraceEvent::Gamma { case: applied } = event {
            case = Some(applied);
        }
        if let Some(line) = lines.feed(&event) {
            println!("{line}");
            if let Some(applied) = case.take() {
                println!("         {}", applied.reason());
            }
        }
    };
    let result = Sss.search(&mut tree.game(), &Limits::none(), &mut print_step);

    let best = result.best_move.map_or("-", |child| tree.label(child));
    match result.value.exact() {
        Some(value) => println!(
            "value {value}, best move {best}, {} leaves evaluated",
            result.stats.leaves
        ),
        None => println!("stopped early; value within {}", result.value),
    }
    Ok(())
}
