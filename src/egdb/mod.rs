//! Endgame databases for Russian, Brazilian and Turkish draughts (docs/egdb.md): exact values
//! under the game's no-progress rule, as Syzygy's tables are for chess's fifty-move rule.
//!
//! - [`value`]: what a value means (win, cursed win, draw, blessed loss, loss, and the
//!   distance to the next capture or man move) and how the rule's clock enters;
//! - [`game`]: what a game must give ([`EgdbGame`]): its pieces as dense bitboards;
//! - [`material`]: material signatures and the index of a position in its table;
//! - [`solve`]: the retrograde solver;
//! - `fixpoint`: the solver's two fixpoints on a sub-problem's graph;
//! - [`split`]: a group's positions split by their men into sub-problems;
//! - [`coder`]: the range coder of the files' blocks and its two models (values, distances);
//! - [`file`]: the table files (header, checksum, a value layer and a distance layer);
//! - [`probe`]: the tables of a game and [`Probe`], the value of a position;
//! - [`moves`]: a position's value and each of its legal moves', at its clock;
//! - [`verify`]: each stored value checked against its successors';
//! - [`command`]: `bashni egdb`.

pub mod coder;
pub mod command;
pub mod file;
mod fixpoint;
pub mod folder;
pub mod game;
pub mod material;
pub mod moves;
pub mod probe;
pub mod solve;
pub mod split;
pub mod value;
pub mod verify;

pub use folder::{EGDB_DIR_VAR, default_dir};
pub use game::EgdbGame;
pub use material::Signature;
pub use moves::{MoveValue, Rated, Verdict, move_values, rated_move};
pub use probe::{Probe, ProbeError, Store};
pub use value::{Outcome, Plies, Value, Wdl};

use crate::games::Variant;

/// The games that have endgame databases, in the order they are listed: the one list, which
/// [`for_egdb_game!`] turns into types.
pub const GAMES: [Variant; 3] = [Variant::Russian, Variant::Brazilian, Variant::Turkish];

/// Runs `$body` with the type alias `$g` naming the position type of `$v` if it is one of
/// [`GAMES`] (an [`EgdbGame`]), else `$none`: where a game chosen at run time becomes the
/// type its tables are built, read and probed for.
macro_rules! for_egdb_game {
    ($v:expr, $g:ident => $body:expr, _ => $none:expr) => {
        match $v {
            $crate::games::Variant::Russian => {
                type $g = $crate::games::russian::Position;
                $body
            }
            $crate::games::Variant::Brazilian => {
                type $g = $crate::games::brazilian::Position;
                $body
            }
            $crate::games::Variant::Turkish => {
                type $g = $crate::games::turkish::Position;
                $body
            }
            _ => $none,
        }
    };
}
pub(crate) use for_egdb_game;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_with_tables_are_the_games_the_macro_knows() {
        for v in Variant::ALL {
            let typed =
                for_egdb_game!(v, G => Some(<G as crate::games::Rules>::VARIANT), _ => None);
            assert_eq!(typed.is_some(), GAMES.contains(&v), "{v}");
            assert!(typed.is_none_or(|t| t == v), "{v}");
        }
    }
}
