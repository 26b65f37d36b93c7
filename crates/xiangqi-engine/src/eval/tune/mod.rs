//! Texel tuning of the evaluation weights: positions labelled with their game's result,
//! a logistic fit of the evaluation to those results, and the fitted weights written back
//! as `weights.rs`. The `tune` example drives it (see docs/tuning.md).

pub mod fit;
pub mod sample;
pub mod set;
pub mod source;

pub use fit::{FitOptions, Freedom, default_freedoms, error, fit, fit_k};
pub use sample::{Sample, quiet_leaf};
pub use set::{SlotValues, WeightSet};
pub use source::weights_source;

#[cfg(test)]
mod tests;
