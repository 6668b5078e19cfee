//! Who played what in `bashni play`: the person or the engine at a level, move by move
//! (sides can be swapped in the middle of a game), and the session's score.

use super::ENGINE;
use super::level::Level;
use crate::record::game_record::PlayedMove;

/// Games won, lost and drawn by the person this session.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Games the person won.
    pub won: u32,
    /// Games the person lost.
    pub lost: u32,
    /// Games drawn.
    pub drawn: u32,
}

impl Tally {
    /// The count for a game that gave the person `half_points`.
    pub fn slot(&mut self, half_points: u32) -> &mut u32 {
        match half_points {
            2 => &mut self.won,
            0 => &mut self.lost,
            _ => &mut self.drawn,
        }
    }
}

/// Who played a move: the person, or the engine at a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The person.
    You,
    /// The engine, at this level.
    Engine(Level),
}

impl Player {
    /// The name in PDN tags: `you`, `bashni level 7`.
    pub fn name(self) -> String {
        match self {
            Player::You => "you".to_string(),
            Player::Engine(l) => format!("{ENGINE} level {l}"),
        }
    }

    /// The name in messages: `you`, `bashni`.
    pub fn short(self) -> &'static str {
        match self {
            Player::You => "you",
            Player::Engine(_) => ENGINE,
        }
    }
}

/// A move as played, with what was said about it and who played it: what `undo` takes back
/// and `redo` plays again.
#[derive(Clone, Debug)]
pub struct Played<M> {
    /// The move.
    pub mv: M,
    /// Its record in the PDN (time, and the engine's score and depth).
    pub record: PlayedMove,
    /// Who played it.
    pub by: Player,
}
