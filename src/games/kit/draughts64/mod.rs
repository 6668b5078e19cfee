//! Draughts-64: the games of single pieces on the 32 dark squares of Bashni's board, with men
//! that capture backward, flying kings and captured pieces taken off when the move ends
//! (FMJD's section 64 plays two of them: Russian and Brazilian draughts). What they share is
//! here, once: the position and what a move does to it ([`position`]), the capture walk and
//! the legal moves ([`movegen`]), the FEN and move notation ([`notation`]), the linear
//! evaluation's features ([`features`]) and the network's inputs ([`nnue`]). Where the games differ is a [`Laws`] value, a
//! zero-sized type each game folder declares: a game is `Position<ItsLaws>`.

pub mod features;
pub mod movegen;
pub mod nnue;
pub mod notation;
pub mod position;

pub use position::Position;

use std::fmt::Debug;
use std::hash::Hash;

/// The rules in which the draughts-64 games differ, as constants of a zero-sized type (one
/// per game: the search and move generation are compiled for each, so a rule costs nothing
/// where it does not apply).
pub trait Laws: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static {
    /// The game's name in messages: `Russian draughts`.
    const NAME: &'static str;

    /// Whether only the capture sequences that take the most pieces are legal (Brazilian
    /// draughts; kings count as men), or any may be chosen (Russian draughts).
    const MAJORITY: bool;

    /// Whether a man that lands on its far rank during a capture is crowned there at once
    /// and goes on capturing as a king (Russian draughts), or stays a man until its move
    /// ends there (Brazilian draughts: a man that only passes the far rank is not crowned).
    const CROWN_IN_CAPTURE: bool;
}

/// Implements [`crate::games::Rules`] and [`crate::games::Game`] for a draughts-64 game's
/// position type `$pos` (`Position<ItsLaws>`) through [`impl_game!`](crate::games::kit::game),
/// with what every draughts-64 game does alike (the kit's moves, the standard FEN in PDN,
/// captures merged, one piece per square); `$game` adds the game's own: its `Evaluator`,
/// `MAN`, `BOOK` and draw rule. The game's module has `movegen` and `notation` (these
/// modules) and its own `eval` and `bench` in scope, as `impl_game!` asks.
macro_rules! impl_draughts64 {
    ($pos:ident: $variant:ident; $($game:tt)*) => {
        $crate::games::kit::game::impl_game! {
            $pos: $variant,
            $crate::games::kit::moves::Move,
            $crate::games::kit::moves::MoveList,
            squares = $crate::games::kit::square::NUM_BITS;
            rules {
                fn to_pdn_fen(&self) -> String {
                    $crate::games::kit::std_fen::write(self)
                }
            }
            game {
                $($game)*

                #[inline]
                fn generate_captures(&self, list: &mut $crate::games::kit::moves::MoveList) -> bool {
                    $crate::games::kit::draughts64::movegen::generate_captures(self, list, true)
                }

                #[inline]
                fn commanders(&self, c: $crate::games::kit::Color) -> u32 {
                    self.pieces(c).count()
                }

                fn tower_at(&self, file: u8, rank: u8) -> Option<$crate::games::kit::tower::Tower> {
                    use $crate::games::kit::tower::Tower;
                    let sq = $crate::games::kit::square::Square::from_coords(file, rank)?;
                    Some(self.piece(sq).map_or(Tower::EMPTY, Tower::single))
                }
            }
        }
    };
}
pub(crate) use impl_draughts64;
