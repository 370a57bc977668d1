//! Tuning the evaluation: self-play data generation ([`datagen`]), the
//! training record format ([`record`]) and Texel tuning over the
//! evaluation's parameter vector ([`texel`]). The command line lives in the
//! binary (`chuhan datagen`, `chuhan tune`); this module prints nothing.

pub mod datagen;
pub mod record;
pub mod texel;
