//! FEN and move notation (docs/rules.md, section 4), with typed errors that say what is wrong
//! and where.

use crate::games::bashni::movegen::legal_moves;
use crate::games::bashni::position::Position;
use crate::games::bashni::setup::{SetupError, validate};
use crate::games::kit::color::Color;
use crate::games::kit::fen::{self, FieldError};
use crate::games::kit::moves::Move;
use crate::games::kit::path;
pub use crate::games::kit::path::MoveError;
use crate::games::kit::square::Square;
use crate::games::kit::tower::{MAX_HEIGHT, Piece, Tower};
use std::fmt;

/// The initial position's FEN.
pub const START_FEN: &str = "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1";

/// Most pieces a colour may have.
pub const MAX_PIECES: usize = 12;

/// What is wrong with a FEN. Character positions count from 1.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// Nothing to parse.
    Empty,
    /// The board does not have 8 ranks.
    RankCount(usize),
    /// A rank adds up to a number of files other than 8 (rank number 1-8, files).
    RankWidth(u8, usize),
    /// A piece (or tower) on a light square.
    LightSquare(String, u8),
    /// A character that is not a digit, piece letter, bracket or slash.
    UnknownChar(char, usize),
    /// `()` with nothing inside.
    EmptyTower(usize),
    /// `(` never closed.
    UnclosedTower(usize),
    /// `(` inside a tower.
    NestedTower(usize),
    /// `)` with no `(`.
    UnopenedTower(usize),
    /// A tower taller than 24 pieces.
    TowerTooTall(usize),
    /// More than 12 pieces of one colour.
    TooManyPieces(Color, usize),
    /// The fields after the board (side to move, clock, move number).
    Fields(FieldError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(n) => {
                let s = if *n == 1 { "" } else { "s" };
                write!(f, "board has {n} rank{s}, expected 8")
            }
            FenError::RankWidth(r, n) => write!(f, "rank {r} has {n} files"),
            FenError::LightSquare(sq, r) => write!(f, "piece on light square {sq} (rank {r})"),
            FenError::UnknownChar(c, i) => write!(f, "unknown character '{c}' at character {i}"),
            FenError::EmptyTower(i) => write!(f, "empty tower at character {i}"),
            FenError::UnclosedTower(i) => write!(f, "unclosed tower at character {i}"),
            FenError::NestedTower(i) => write!(f, "'(' inside a tower at character {i}"),
            FenError::UnopenedTower(i) => write!(f, "')' without '(' at character {i}"),
            FenError::TowerTooTall(i) => {
                write!(f, "tower of more than {MAX_HEIGHT} pieces at character {i}")
            }
            FenError::TooManyPieces(c, n) => {
                write!(f, "{c} has {n} pieces, at most {MAX_PIECES} allowed")
            }
            FenError::Fields(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

/// Parses a FEN (docs/rules.md, section 4.2). Clock and move number are optional (default `0 1`).
pub fn parse_fen(text: &str) -> Result<Position, FenError> {
    let (board, rest) = fen::split(text).ok_or(FenError::Empty)?;
    let mut pos = Position::empty();
    parse_board(board, &mut pos)?;
    let fields = fen::parse_fields(rest, "plies since capture").map_err(FenError::Fields)?;
    pos.set_side(fields.side);
    if let Some(clock) = fields.clock {
        pos.set_clock(clock);
    }
    if let Some(n) = fields.fullmove {
        pos.set_fullmove(n);
    }
    match validate(&pos) {
        Ok(()) => Ok(pos),
        Err(SetupError::TooManyPieces(c, n)) => Err(FenError::TooManyPieces(c, n)),
        Err(SetupError::ZeroMoveNumber) => {
            Err(FenError::Fields(FieldError::BadMoveNumber("0".to_string())))
        }
    }
}

fn parse_board(board: &str, pos: &mut Position) -> Result<(), FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut offset = 0; // byte offset of the current rank within the FEN
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0usize;
        let mut chars = rank_text.char_indices().peekable();
        while let Some((j, ch)) = chars.next() {
            let at = offset + j + 1;
            let tower = match ch {
                '1'..='8' => {
                    file += ch as usize - '0' as usize;
                    continue;
                }
                '(' => {
                    let mut pieces = Vec::new();
                    loop {
                        match chars.next() {
                            None => return Err(FenError::UnclosedTower(at)),
                            Some((_, ')')) => break,
                            Some((_, '(')) => return Err(FenError::NestedTower(at)),
                            Some((k, c)) => match Piece::from_letter(c) {
                                Some(p) => pieces.push(p),
                                None if c == '/' => return Err(FenError::UnclosedTower(at)),
                                None => return Err(FenError::UnknownChar(c, offset + k + 1)),
                            },
                        }
                    }
                    if pieces.is_empty() {
                        return Err(FenError::EmptyTower(at));
                    }
                    Tower::from_pieces(&pieces).ok_or(FenError::TowerTooTall(at))?
                }
                ')' => return Err(FenError::UnopenedTower(at)),
                c => match Piece::from_letter(c) {
                    Some(p) => Tower::single(p),
                    None => return Err(FenError::UnknownChar(c, at)),
                },
            };
            if file < 8 {
                match Square::from_coords(file as u8, rank) {
                    Some(sq) => pos.set_tower(sq, tower),
                    None => {
                        let name = format!("{}{}", (b'a' + file as u8) as char, rank + 1);
                        return Err(FenError::LightSquare(name, rank + 1));
                    }
                }
            }
            file += 1;
        }
        if file != 8 {
            return Err(FenError::RankWidth(rank + 1, file));
        }
        offset += rank_text.len() + 1;
    }
    Ok(())
}

/// Prints the position's FEN, always with clock and move number.
pub fn to_fen(pos: &Position) -> String {
    let at = |file, rank| {
        Square::from_coords(file, rank)
            .map(|sq| pos.tower(sq))
            .unwrap_or_default()
    };
    fen::write(at, pos.side(), pos.clock(), pos.fullmove())
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
    fn start_round_trips() {
        let p = parse_fen(START_FEN).unwrap();
        assert_eq!(p, Position::startpos());
        assert_eq!(to_fen(&p), START_FEN);
    }

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
