//! Training on the game domain floor: the endgame school (`lessons`, `drill`).

pub mod drill;
pub mod lessons;
