//! Playing strength for `bashni play`: levels 0 to 20, the protocol's `Skill Level` (see
//! [`crate::search::skill`], where the levels and their measured Elo are).

use crate::display::plies;
use crate::games::Variant;
use crate::search::Strength;
use crate::search::skill::{LADDER, MAX_LEVEL, depth_cap};
use std::fmt;
use std::str::FromStr;

/// A playing level, 0 (weakest) to [`Level::MAX`] (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Level(u8);

/// What is wrong with a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelError {
    /// Not a whole number.
    NotANumber(String),
    /// Above [`Level::MAX`].
    TooHigh(u32),
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelError::NotANumber(t) => {
                write!(f, "'{t}' is not a number from 0 to {}", Level::MAX)
            }
            LevelError::TooHigh(n) => write!(f, "{n} is above the highest level, {}", Level::MAX),
        }
    }
}

impl std::error::Error for LevelError {}

impl Level {
    /// The highest level: full strength.
    pub const MAX: u8 = MAX_LEVEL;
    /// Full strength.
    pub const FULL: Level = Level(Level::MAX);

    /// The level `n`, if it is one.
    pub fn new(n: u32) -> Result<Level, LevelError> {
        u8::try_from(n)
            .ok()
            .filter(|&n| n <= Level::MAX)
            .map(Level)
            .ok_or(LevelError::TooHigh(n))
    }

    /// The number, 0 to 20.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The depth cap of this level; `None` at full strength.
    pub fn depth(self) -> Option<u32> {
        depth_cap(self.0)
    }

    /// The engine's strength at this level.
    pub fn strength(self) -> Strength {
        Strength::level(u32::from(self.0)).unwrap_or(Strength::FULL)
    }

    /// One line for `help` and `level`: what this level does in `game`. The depth is the
    /// nominal one the engine reports (`depth 2`); below it the search always follows the
    /// captures that are pending, as at every depth. The ladder's Elo were measured in
    /// Bashni; every game gets the same depth caps and the same choices among the best
    /// moves, so in the other games the Elo is said to be Bashni's.
    pub fn describe(self, game: Variant) -> String {
        let elo = LADDER[self.0 as usize];
        let measured = match game {
            Variant::Bashni => "",
            _ => " measured in Bashni",
        };
        match self.depth() {
            None => format!("level {} (full strength, Elo {elo}{measured})", self.0),
            Some(d) => format!(
                "level {} (Elo {elo}{measured}: looks {} ahead, then follows the captures; \
                 picks among its best moves)",
                self.0,
                plies(d)
            ),
        }
    }
}

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Level, LevelError> {
        let n: u32 = s
            .trim()
            .parse()
            .map_err(|_| LevelError::NotANumber(s.trim().to_string()))?;
        Level::new(n)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_and_depths() {
        assert_eq!("0".parse::<Level>().unwrap().depth(), Some(1));
        assert_eq!(Level::FULL.depth(), None);
        assert!(Level::FULL.strength().is_full());
        assert_eq!(
            "7".parse::<Level>().unwrap().strength(),
            Strength::level(7).unwrap()
        );
        assert_eq!("21".parse::<Level>(), Err(LevelError::TooHigh(21)));
        assert_eq!(
            "-1".parse::<Level>(),
            Err(LevelError::NotANumber("-1".into()))
        );
        assert_eq!(Level::new(300), Err(LevelError::TooHigh(300)));
    }

    #[test]
    fn descriptions_say_the_depth_reported() {
        let d = |n: u32| Level::new(n).unwrap().describe(Variant::Bashni);
        assert_eq!(
            d(0),
            "level 0 (Elo 1000: looks 1 ply ahead, then follows the captures; picks among \
             its best moves)"
        );
        assert!(d(3).contains("looks 2 plies ahead"), "{}", d(3));
        use crate::search::skill::LADDER;
        assert_eq!(
            d(20),
            format!("level 20 (full strength, Elo {})", LADDER[20])
        );
        let turkish = Level::new(3).unwrap().describe(Variant::Turkish);
        let want = format!(
            "level 3 (Elo {} measured in Bashni: looks 2 plies ahead",
            LADDER[3]
        );
        assert!(turkish.starts_with(&want), "{turkish}");
    }
}
