//! Turkish FEN and move notation (docs/rules-turkish.md, section 4), with typed errors that
//! say what is wrong and where.

use crate::games::kit::Color;
use crate::games::kit::fen::{self, BoardError, FieldError};
pub use crate::games::kit::path::MoveError;
use crate::games::kit::path::{self, Words};
use crate::games::kit::std_fen::{self, Layout};
use crate::games::kit::tower::{Piece, Tower};
use crate::games::turkish::board::Square;
use crate::games::turkish::movegen::legal_moves;
use crate::games::turkish::moves::{MAX_JUMPS, Move};
use crate::games::turkish::position::Position;
use std::fmt;

/// The initial position's FEN.
pub const START_FEN: &str = "8/bbbbbbbb/bbbbbbbb/8/8/wwwwwwww/wwwwwwww/8 w 0 1";

/// Most pieces a colour may have.
pub const MAX_PIECES: usize = 16;

/// What is wrong with a FEN. Character positions count from 1.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// The board's shape or characters.
    Board(BoardError),
    /// More than 16 pieces of one colour.
    TooManyPieces(Color, usize),
    /// The fields after the board (side to move, clock, move number).
    Fields(FieldError),
    /// A standard draughts FEN (`W:Wa2,...:B...`) that cannot be read.
    Standard(crate::games::kit::std_fen::StdFenError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Board(e) => e.fmt(f),
            FenError::TooManyPieces(c, n) => {
                write!(f, "{c} has {n} pieces, at most {MAX_PIECES} allowed")
            }
            FenError::Fields(e) => e.fmt(f),
            FenError::Standard(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

fen::fen_error_from!(FenError);

/// Parses a FEN: the chess-style one (clock and move number optional, default `0 1`), or
/// the standard draughts FEN (`W:Wa2,b2:Ba7`, see [`crate::games::kit::std_fen`]).
pub fn parse_fen(text: &str) -> Result<Position, FenError> {
    if std_fen::is_standard(text) {
        let board = std_fen::parse(text, Layout::Full).map_err(FenError::Standard)?;
        return parse_fen(&board.chess_fen());
    }
    let pos = fen::read_fen!(text, "clock", Position, parse_board);
    validate(&pos)?;
    Ok(pos)
}

/// The checks on a whole board: piece counts, and no man on its own far rank.
fn validate(pos: &Position) -> Result<(), FenError> {
    for c in [Color::White, Color::Black] {
        let n = pos.pieces(c).count_ones() as usize;
        if n > MAX_PIECES {
            return Err(FenError::TooManyPieces(c, n));
        }
    }
    match fen::man_on_last_rank((8, 8), |file, rank| tower_at(pos, file, rank)) {
        Some(sq) => Err(FenError::Board(BoardError::ManOnLastRank(sq))),
        None => Ok(()),
    }
}

/// What stands on the square of `file` and `rank` (0-based).
fn tower_at(pos: &Position, file: u8, rank: u8) -> Tower {
    let sq = Square::from_coords(file, rank).expect("on the board");
    pos.piece(sq)
        .map_or(Tower::EMPTY, |(c, king)| Tower::single(Piece::new(c, king)))
}

fn parse_board(board: &str, pos: &mut Position) -> Result<(), FenError> {
    let token = |rest: &str, at| fen::letter(rest, at);
    fen::read_board(board, (8, 8), false, token, |file, rank, tower| {
        let sq = Square::from_coords(file, rank).expect("on the board");
        let p = tower.top();
        pos.put(sq, Some((p.color(), p.is_king())));
        Ok(())
    })
}

/// Prints the position's FEN, always with clock and move number.
pub fn to_fen(pos: &Position) -> String {
    let at = |file, rank| tower_at(pos, file, rank);
    fen::write((8, 8), at, pos.side(), pos.clock(), pos.fullmove())
}

/// How Turkish draughts words its move-text errors: every square of the board is one.
const WORDS: Words = Words {
    square: "square",
    example: "d3-d4 or d3:d5",
};

/// Parses a move and checks it against the legal moves of `pos`.
///
/// Accepts `-`, `:` and `x` between squares (`-` only for a quiet move), and `from:to` for a
/// capture when exactly one legal capture goes from one to the other.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    path::parse_legal(&legal_moves(pos), text, MAX_JUMPS + 1, WORDS, Square::parse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_what_and_where() {
        let cases = [
            ("", "empty FEN"),
            ("8/8/8/8/8/8/8 w", "board has 7 ranks, expected 8"),
            ("8 w", "board has 1 rank, expected 8"),
            ("8/8/8/8/8/wwwwwwwww/8/8 w", "rank 3 has 9 files"),
            (
                "8/8/8/8/8/8/8/7x w",
                "unknown character 'x' at character 16",
            ),
            ("8/8/8/8/8/8/8/8", "missing side to move (w or b)"),
            ("8/8/8/8/8/8/8/8 q", "side to move 'q' is not w or b"),
            (
                "8/8/8/8/8/8/8/8 w -1",
                "clock '-1' is not a whole number 0..65535",
            ),
            (
                "8/8/8/8/8/8/8/8 w 0 0",
                "move number '0' is not a whole number 1..65535",
            ),
            (
                "8/8/8/8/8/8/8/8 w 0 1 x",
                "unexpected text after the FEN: 'x'",
            ),
            (
                "w7/8/8/8/8/8/8/8 w",
                "a man on a8, its own last rank (it would be a king)",
            ),
            (
                "8/8/8/wwwwwwww/wwwwwwww/w7/8/8 w",
                "white has 17 pieces, at most 16 allowed",
            ),
        ];
        for (fen, msg) in cases {
            assert_eq!(parse_fen(fen).unwrap_err().to_string(), msg, "{fen}");
        }
        assert!(parse_fen("W7/8/8/8/8/8/b7/B7 b 3 9").is_ok());
    }

    #[test]
    fn moves_parse_with_any_separator() {
        let p = parse_fen("8/8/8/4b3/3b4/3w4/8/8 w").unwrap();
        let m = parse_move(&p, "d3:d5:f5").unwrap();
        assert_eq!(m.to_string(), "d3:d5:f5");
        assert_eq!(parse_move(&p, "d3xd5xf5"), Ok(m));
        assert_eq!(parse_move(&p, "d3:f5"), Ok(m));
        assert!(matches!(
            parse_move(&p, "d3-d4"),
            Err(MoveError::Illegal(..))
        ));
        assert!(matches!(parse_move(&p, "d3:"), Err(MoveError::Syntax(..))));
        assert!(matches!(
            parse_move(&p, "d3:z9"),
            Err(MoveError::BadSquare(..))
        ));
        assert_eq!(
            parse_move(&p, "d3-d5").unwrap_err().to_string(),
            "illegal move d3-d5: legal moves are d3:d5:f5"
        );
    }
}
