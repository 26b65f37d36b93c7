//! The integration tests of the pairing crate, one binary (a module per former test file).

mod bbp;
mod bbp_compare;
mod dutch_edges;
mod dutch_fixed;
mod dutch_invariants;
mod trf_fuzz;
