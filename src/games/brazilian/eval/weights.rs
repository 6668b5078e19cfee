//! The weights compiled in: `weights.txt` beside this file, which `bashni tune` writes (the
//! format: [`crate::games::kit::weights`]).

use super::features::NUM_FEATURES;
use crate::games::kit::weights::compiled;

/// Opening and endgame weight of each feature (centi-men), in feature order.
pub const WEIGHTS: [[i32; 2]; NUM_FEATURES] = compiled(include_str!("weights.txt"));
