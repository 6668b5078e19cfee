//! FEN and move notation (docs/rules.md, section 4), with typed errors that say what is wrong
//! and where.

use crate::games::bashni::movegen::legal_moves;
use crate::games::bashni::position::Position;
use crate::games::bashni::setup::{MAX_PIECES, SetupError, validate};
use crate::games::kit::color::Color;
use crate::games::kit::fen::{self, BoardError, FieldError, TowerError};
use crate::games::kit::moves::Move;
use crate::games::kit::path;
pub use crate::games::kit::path::MoveError;
use crate::games::kit::square::{Coords, Square};
use std::fmt;

/// The initial position's FEN.
pub const START_FEN: &str = "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1";

/// What is wrong with a FEN. Character positions count from 1.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// The board's shape or characters.
    Board(BoardError),
    /// A piece (or tower) on a light square.
    LightSquare(String, u8),
    /// A tower written wrong (empty, unclosed, nested, unopened, too tall).
    Tower(TowerError),
    /// More than 12 pieces of one colour.
    TooManyPieces(Color, usize),
    /// The fields after the board (side to move, clock, move number).
    Fields(FieldError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Board(e) => e.fmt(f),
            FenError::LightSquare(sq, r) => write!(f, "piece on light square {sq} (rank {r})"),
            FenError::Tower(e) => e.fmt(f),
            FenError::TooManyPieces(c, n) => {
                write!(f, "{c} has {n} pieces, at most {MAX_PIECES} allowed")
            }
            FenError::Fields(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

fen::fen_error_from!(FenError);

impl From<TowerError> for FenError {
    fn from(e: TowerError) -> FenError {
        FenError::Tower(e)
    }
}

/// Parses a FEN (docs/rules.md, section 4.2). Clock and move number are optional (default `0 1`).
pub fn parse_fen(text: &str) -> Result<Position, FenError> {
    let pos = fen::read_fen!(text, "plies since capture", Position, parse_board);
    match validate(&pos) {
        Ok(()) => Ok(pos),
        Err(SetupError::TooManyPieces(c, n)) => Err(FenError::TooManyPieces(c, n)),
        Err(SetupError::ZeroMoveNumber) => {
            Err(FenError::Fields(FieldError::BadMoveNumber("0".to_string())))
        }
    }
}

fn parse_board(board: &str, pos: &mut Position) -> Result<(), FenError> {
    fen::read_board(
        board,
        (8, 8),
        false,
        fen::tower_token,
        |file, rank, tower| {
            let sq = Square::from_coords(file, rank)
                .ok_or_else(|| FenError::LightSquare(Coords(file, rank).to_string(), rank + 1))?;
            pos.set_tower(sq, tower);
            Ok(())
        },
    )
}

/// Prints the position's FEN, always with clock and move number.
pub fn to_fen(pos: &Position) -> String {
    let at = |file, rank| {
        Square::from_coords(file, rank)
            .map(|sq| pos.tower(sq))
            .unwrap_or_default()
    };
    fen::write((8, 8), at, pos.side(), pos.clock(), pos.fullmove())
}

/// Parses a move and checks it against the legal moves of `pos`.
///
/// Accepts `-`, `:` and `x` between squares, and `from:to` for a capture when exactly one
/// legal capture starts on `from` and ends on `to`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let legal = legal_moves(pos);
    let squares = path::dark_squares(text)?;
    path::find(&legal, text, &squares, || None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_what_and_where() {
        let cases = [
            (
                "1b1b1b1b/b1b1b1b1/1b1b1b1b/1b6/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w",
                "piece on light square b5 (rank 5)",
            ),
            ("8/8/8/8/8/w1w1w1w11/8/8 w", "rank 3 has 9 files"),
            ("8/8/8/8/8/8/8/(wb w", "unclosed tower at character 15"),
            ("8/8/8/8/8/8/8/8", "missing side to move (w or b)"),
            ("8/8/8/8/8/8/8/()7 w", "empty tower at character 15"),
            (
                "8/8/8/8/8/8/8/x7 w",
                "unknown character 'x' at character 15",
            ),
            ("8/8/8/8/8/8/8 w", "board has 7 ranks, expected 8"),
            ("8 w", "board has 1 rank, expected 8"),
            ("8/8/8/8/8/8/8/8 q", "side to move 'q' is not w or b"),
            (
                "8/8/8/8/8/8/8/(wwwwwwwwwwwww)7 w",
                "white has 13 pieces, at most 12 allowed",
            ),
        ];
        for (fen, msg) in cases {
            assert_eq!(parse_fen(fen).unwrap_err().to_string(), msg, "{fen}");
        }
    }

    #[test]
    fn towers_print_top_first() {
        let p = parse_fen("8/8/8/8/8/8/8/(WbBbb)7 b 3 9").unwrap();
        assert_eq!(to_fen(&p), "8/8/8/8/8/8/8/(WbBbb)7 b 3 9");
    }
}
