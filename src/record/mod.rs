//! Game records, below every front end that plays games: PDN reading and writing, results
//! and terminations, time controls, and the openings (files, random draws, the built-in
//! book, the ballot tables' names). `bashni match`, `play`, `datagen` and `serve` share them without depending on each
//! other.

pub mod ballots;
pub mod draw_offer;
pub mod game_record;
pub mod openings;
pub mod pdn;
pub mod pdn_write;
pub mod puzzle;
pub mod result;
pub mod time_control;
