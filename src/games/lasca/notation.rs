//! Lasca's position text and move notation (docs/rules-lasca.md, "Notation"), with typed
//! errors that say what is wrong and where.
//!
//! The position text is `RULES-lasca.md`'s: seven ranks from rank 7 down, each covering
//! files a-g, a digit for that many squares with no piece (playable or not), a letter for a
//! single piece (`w` `b` soldiers, `W` `B` officers) and a column of several pieces in
//! parentheses, top first; then the side to move and, optionally (this engine's addition,
//! as in its other games), the no-capture clock and the move number.

use crate::games::kit::Color;
use crate::games::kit::fen::{self, BoardError, FieldError};
pub use crate::games::kit::path::MoveError;
use crate::games::kit::path::{self, Words};
use crate::games::kit::square::Coords;
use crate::games::kit::tower::{Piece, Tower};
use crate::games::lasca::board::{Square, promotion_mask, squares};
use crate::games::lasca::movegen::legal_moves;
use crate::games::lasca::moves::{MAX_JUMPS, Move};
use crate::games::lasca::position::Position;
use std::fmt;

/// The initial position's FEN (with the clock and move number this engine always writes).
pub const START_FEN: &str = "b1b1b1b/1b1b1b1/b1b1b1b/7/w1w1w1w/1w1w1w1/w1w1w1w w 0 1";

/// Most pieces on the board: the 22 men of a game (nothing ever leaves the board).
pub const MAX_PIECES: usize = 22;

/// What is wrong with a FEN. Character positions count from 1.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// The board's shape or characters.
    Board(BoardError),
    /// A `(` with no `)` after it, or a column with no piece, at this character.
    BadColumn(usize),
    /// A piece on a square that is not played on (its name).
    Unplayable(String),
    /// More than [`MAX_PIECES`] pieces on the board.
    TooManyPieces(usize),
    /// A soldier commanding a column on its own far rank (it would be an officer).
    SoldierOnLastRank(String),
    /// The fields after the board (side to move, clock, move number).
    Fields(FieldError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Board(e) => e.fmt(f),
            FenError::BadColumn(i) => {
                write!(f, "column at character {i} is empty or has no ')'")
            }
            FenError::Unplayable(sq) => write!(f, "a piece on {sq}, which is not played on"),
            FenError::TooManyPieces(n) => {
                write!(f, "{n} pieces on the board, at most {MAX_PIECES} allowed")
            }
            FenError::SoldierOnLastRank(sq) => write!(
                f,
                "a soldier commands {sq}, its own last rank (it would be an officer)"
            ),
            FenError::Fields(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

fen::fen_error_from!(FenError);

/// Parses a FEN. Any column is accepted, whatever the order of its colours (legal play
/// only makes columns of at most two colour blocks), as long as the board holds at most 22
/// pieces and no soldier commands a column on its own far rank.
pub fn parse_fen(text: &str) -> Result<Position, FenError> {
    let pos = fen::read_fen!(text, "clock", Position, parse_board);
    validate(&pos)?;
    Ok(pos)
}

/// The checks on a whole board: the number of pieces, and no soldier commanding on its own
/// far rank.
fn validate(pos: &Position) -> Result<(), FenError> {
    let n: usize = Square::all().map(|s| pos.column(s).height()).sum();
    if n > MAX_PIECES {
        return Err(FenError::TooManyPieces(n));
    }
    for c in [Color::White, Color::Black] {
        let stuck = pos.pieces(c) & !pos.officers() & promotion_mask(c);
        if let Some(sq) = squares(stuck).next() {
            return Err(FenError::SoldierOnLastRank(sq.to_string()));
        }
    }
    Ok(())
}

/// Reads a token of the board: a single piece, or a column in parentheses (top first) with
/// how many bytes it takes up to its `)`.
fn parse_token(rest: &str, at: usize) -> Result<(Tower, usize), FenError> {
    if !rest.starts_with('(') {
        return fen::letter(rest, at);
    }
    let close = rest.find(')').ok_or(FenError::BadColumn(at))?;
    let mut pieces = Vec::new();
    for (j, ch) in rest[1..close].char_indices() {
        let p = Piece::from_letter(ch).ok_or(BoardError::UnknownChar(ch, at + 1 + j))?;
        pieces.push(p);
    }
    if pieces.is_empty() {
        return Err(FenError::BadColumn(at));
    }
    if pieces.len() > MAX_PIECES {
        return Err(FenError::TooManyPieces(pieces.len()));
    }
    let column = Tower::from_pieces(&pieces).expect("at most 22 pieces");
    Ok((column, close + 1))
}

fn parse_board(board: &str, pos: &mut Position) -> Result<(), FenError> {
    fen::read_board(board, (7, 7), true, parse_token, |file, rank, column| {
        let sq = Square::from_coords(file, rank)
            .ok_or_else(|| FenError::Unplayable(Coords(file, rank).to_string()))?;
        pos.set(sq, column);
        Ok(())
    })
}

/// Prints the position's FEN, always with the clock and move number.
pub fn to_fen(pos: &Position) -> String {
    let at = |file, rank| Square::from_coords(file, rank).map_or(Tower::EMPTY, |sq| pos.column(sq));
    fen::write((7, 7), at, pos.side(), pos.clock(), pos.fullmove())
}

/// How Lasca words its move-text errors.
const WORDS: Words = Words {
    square: "playable square",
    example: "a3-b4 or c3:e5",
};

/// Parses a move and checks it against the legal moves of `pos`.
///
/// Accepts `-` for a step, `:` or `x` between the squares of a capture (`c3:e5:c7`,
/// `c3xe5xc7`), and `from:to` for a capture when exactly one legal capture goes from one to
/// the other. Moves are written with `:`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    path::parse_legal(&legal_moves(pos), text, MAX_JUMPS + 1, WORDS, Square::parse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_and_move_number_may_be_left_out() {
        let short = "b1b1b1b/1b1b1b1/b1b1b1b/7/w1w1w1w/1w1w1w1/w1w1w1w w";
        assert_eq!(parse_fen(short).unwrap(), Position::startpos());
    }

    #[test]
    fn columns_are_written_top_first() {
        let fen = "7/7/2(wbB)4/7/4(w)2/7/7 b 3 9";
        let p = parse_fen(fen).unwrap();
        let c5 = p.column(Square::parse("c5").unwrap());
        assert_eq!(c5.to_string(), "(wbB)");
        assert_eq!(to_fen(&p), "7/7/2(wbB)4/7/4w2/7/7 b 3 9");
        assert_eq!(p.pieces(Color::White).count_ones(), 2);
        // Any colour order is read.
        assert!(parse_fen("7/7/2(wbwbW)4/7/7/7/7 w").is_ok());
    }

    #[test]
    fn errors_say_what_and_where() {
        let cases = [
            ("", "empty FEN"),
            ("7/7/7/7/7/7 w", "board has 6 ranks, expected 7"),
            ("7/7/7/7/7/7/w1w1w1w1 w", "rank 1 has 8 files, expected 7"),
            ("7/7/7/7/7/7/6x w", "unknown character 'x' at character 14"),
            (
                "7/7/7/7/7/7/(wz)6 w",
                "unknown character 'z' at character 15",
            ),
            (
                "7/7/7/7/7/7/(w6 w",
                "column at character 13 is empty or has no ')'",
            ),
            (
                "7/7/7/7/7/7/()6 w",
                "column at character 13 is empty or has no ')'",
            ),
            ("7/7/7/7/7/7/1w5 w", "a piece on b1, which is not played on"),
            (
                "w6/7/7/7/7/7/7 w",
                "a soldier commands a7, its own last rank (it would be an officer)",
            ),
            (
                "7/7/7/7/7/7/b6 w",
                "a soldier commands a1, its own last rank (it would be an officer)",
            ),
            ("7/7/7/7/7/7/7", "missing side to move (w or b)"),
            (
                "7/7/7/7/7/7/7 w 0 0",
                "move number '0' is not a whole number 1..65535",
            ),
            (
                "7/7/(wwwwwwwwwwwwbbbbbbbbbbb)6/7/7/7/7 w",
                "23 pieces on the board, at most 22 allowed",
            ),
        ];
        for (fen, msg) in cases {
            assert_eq!(parse_fen(fen).unwrap_err().to_string(), msg, "{fen}");
        }
        assert!(parse_fen("W6/7/7/7/7/7/B6 b").is_ok());
        assert!(parse_fen("(wB)6/7/7/7/7/7/7 w").is_err());
        assert!(parse_fen("(bW)6/7/7/7/7/7/7 w").is_ok());
    }

    #[test]
    fn moves_read_with_any_separator_and_are_written_with_colons() {
        let p = parse_fen("7/3b3/7/3b3/2w4/7/7 w").unwrap();
        let m = parse_move(&p, "c3:e5:c7").unwrap();
        assert_eq!(m.to_string(), "c3:e5:c7");
        assert_eq!(parse_move(&p, "c3xe5xc7"), Ok(m));
        assert_eq!(parse_move(&p, "c3:c7"), Ok(m));
        assert!(matches!(
            parse_move(&p, "c3-d4"),
            Err(MoveError::Illegal(..))
        ));
        assert!(matches!(parse_move(&p, "c3:"), Err(MoveError::Syntax(..))));
        assert_eq!(
            parse_move(&p, "c3:c4").unwrap_err().to_string(),
            "bad move 'c3:c4': 'c4' is not a playable square"
        );
    }
}
