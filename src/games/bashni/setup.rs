//! Building a position piece by piece, validated: the way to make a position other than by
//! FEN or by playing moves (the model is shakmaty's `Setup` and cozy-chess's `BoardBuilder`).

use crate::games::bashni::position::Position;
use crate::games::kit::color::Color;
use crate::games::kit::square::Square;
use crate::games::kit::tower::Tower;
use std::fmt;

/// Most pieces a colour may have.
pub const MAX_PIECES: usize = 12;

/// Why a [`Setup`] is not a valid position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SetupError {
    /// A colour has more than [`MAX_PIECES`] pieces, commanders and prisoners together.
    TooManyPieces(Color, usize),
    /// The move number is 0 (it starts at 1).
    ZeroMoveNumber,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::TooManyPieces(c, n) => {
                write!(f, "{c} has {n} pieces, at most {MAX_PIECES} allowed")
            }
            SetupError::ZeroMoveNumber => write!(f, "the move number must be at least 1"),
        }
    }
}

impl std::error::Error for SetupError {}

/// A position under construction: towers on squares, side to move, capture clock and move
/// number, checked only by [`Setup::build`]. Squares are always dark ([`Square`] has no
/// light squares) and towers at most 24 high ([`Tower`]), so what is left to check is the
/// piece count and the move number.
#[derive(Clone, Debug)]
pub struct Setup {
    pos: Position,
}

impl Default for Setup {
    fn default() -> Self {
        Setup::new()
    }
}

impl Setup {
    /// An empty board, White to move, clock 0, move 1.
    pub fn new() -> Setup {
        Setup {
            pos: Position::empty(),
        }
    }

    /// Starts from an existing position (to change a few things in it).
    pub fn from_position(pos: &Position) -> Setup {
        Setup { pos: pos.clone() }
    }

    /// The tower on `sq` so far (`Tower::EMPTY` if none).
    pub fn tower(&self, sq: Square) -> Tower {
        self.pos.tower(sq)
    }

    /// Puts `tower` on `sq`, replacing what was there (`Tower::EMPTY` clears the square).
    pub fn put(&mut self, sq: Square, tower: Tower) -> &mut Setup {
        self.pos.set_tower(sq, tower);
        self
    }

    /// Sets the side to move.
    pub fn side(&mut self, side: Color) -> &mut Setup {
        self.pos.set_side(side);
        self
    }

    /// Sets the plies since the last capture.
    pub fn clock(&mut self, plies: u16) -> &mut Setup {
        self.pos.set_clock(plies);
        self
    }

    /// Sets the move number (at least 1).
    pub fn move_number(&mut self, n: u16) -> &mut Setup {
        self.pos.set_fullmove(n);
        self
    }

    /// The position, if it is a valid one.
    pub fn build(&self) -> Result<Position, SetupError> {
        validate(&self.pos)?;
        Ok(self.pos.clone())
    }
}

/// The checks of [`Setup::build`], also run by the FEN reader.
pub(crate) fn validate(pos: &Position) -> Result<(), SetupError> {
    for c in [Color::White, Color::Black] {
        let n = pos.piece_count(c);
        if n > MAX_PIECES {
            return Err(SetupError::TooManyPieces(c, n));
        }
    }
    if pos.fullmove() == 0 {
        return Err(SetupError::ZeroMoveNumber);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::notation::{parse_fen, to_fen};
    use crate::games::kit::tower::Piece;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn builds_what_a_fen_says() {
        let tower = Tower::from_pieces(&[
            Piece::new(Color::White, true),
            Piece::new(Color::Black, false),
            Piece::new(Color::Black, false),
        ])
        .unwrap();
        let pos = Setup::new()
            .put(sq("d4"), tower)
            .put(sq("a7"), Tower::single(Piece::new(Color::Black, false)))
            .side(Color::Black)
            .clock(3)
            .move_number(9)
            .build()
            .unwrap();
        assert_eq!(to_fen(&pos), "8/b7/8/8/3(Wbb)4/8/8/8 b 3 9");
        assert_eq!(pos, parse_fen("8/b7/8/8/3(Wbb)4/8/8/8 b 3 9").unwrap());
        assert_eq!(pos.hash(), pos.compute_hash());
        assert_eq!(Setup::new().build().unwrap(), Position::empty());
        let start = Position::startpos();
        assert_eq!(Setup::from_position(&start).build().unwrap(), start);
        let cleared = Setup::from_position(&start)
            .put(sq("a1"), Tower::EMPTY)
            .build()
            .unwrap();
        assert_eq!(cleared.piece_count(Color::White), 11);
        assert_eq!(cleared.hash(), cleared.compute_hash());
    }

    #[test]
    fn refuses_invalid_positions() {
        let mut s = Setup::new();
        let white = Piece::new(Color::White, false);
        let mut tall = Tower::single(white);
        for _ in 0..12 {
            tall = tall.with_bottom(white);
        }
        s.put(sq("c3"), tall);
        let e = s.build().unwrap_err();
        assert_eq!(e, SetupError::TooManyPieces(Color::White, 13));
        assert_eq!(e.to_string(), "white has 13 pieces, at most 12 allowed");
        s.put(sq("c3"), Tower::single(white)).move_number(0);
        assert_eq!(s.build(), Err(SetupError::ZeroMoveNumber));
        assert_eq!(
            SetupError::ZeroMoveNumber.to_string(),
            "the move number must be at least 1"
        );
        s.move_number(1);
        assert!(s.build().is_ok());
    }
}
