//! Draughts-64 FEN and move notation: Bashni's (docs/rules.md, section 4) without towers. The
//! FEN board is read as Bashni's (towers and all, so that a Bashni FEN gets its own messages)
//! and then must hold one piece per square; moves are Bashni's paths, and any capture path of
//! a merged move is accepted for it.

use crate::games::kit::Color;
use crate::games::kit::draughts64::Laws;
use crate::games::kit::draughts64::movegen::{generate_captures, legal_moves, same_capture};
use crate::games::kit::draughts64::position::Position;
use crate::games::kit::fen::{self, BoardError, FieldError, TowerError};
use crate::games::kit::moves::{Move, MoveList};
use crate::games::kit::path;
pub use crate::games::kit::path::MoveError;
use crate::games::kit::square::{Coords, Square};
use crate::games::kit::std_fen::{self, Layout, StdFenError};
use crate::games::kit::tower::Tower;
use std::fmt;

/// The initial position's FEN (Bashni's).
pub const START_FEN: &str = "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1";

/// Most pieces a colour may have.
pub const MAX_PIECES: usize = 12;

/// What is wrong with a draughts-64 FEN. Character positions count from 1.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// The board's shape or characters.
    Board(BoardError),
    /// A piece on a light square (its name, its rank from 1).
    LightSquare(String, u8),
    /// A tower written wrong (empty, unclosed, nested, unopened, too tall).
    BadTower(TowerError),
    /// More than 12 pieces of one colour.
    TooManyPieces(Color, usize),
    /// The fields after the board (side to move, clock, move number).
    Fields(FieldError),
    /// A tower of two or more pieces, on this square, in the game named second.
    Tower(String, &'static str),
    /// A standard draughts FEN (`W:Wa1,...:B...`) that cannot be read.
    Standard(StdFenError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Board(e) => e.fmt(f),
            FenError::LightSquare(sq, r) => write!(f, "piece on light square {sq} (rank {r})"),
            FenError::BadTower(e) => e.fmt(f),
            FenError::TooManyPieces(c, n) => {
                write!(f, "{c} has {n} pieces, at most {MAX_PIECES} allowed")
            }
            FenError::Fields(e) => e.fmt(f),
            FenError::Tower(sq, game) => {
                write!(f, "a tower on {sq}: {game} has one piece per square")
            }
            FenError::Standard(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

fen::fen_error_from!(FenError);

impl From<TowerError> for FenError {
    fn from(e: TowerError) -> FenError {
        FenError::BadTower(e)
    }
}

/// Parses a FEN: Bashni's format with one piece per square (clock and move number
/// optional), or the standard draughts FEN (`W:Wa1,c1,Kh2:Bb8`, see
/// [`crate::games::kit::std_fen`]). The checks come in Bashni's order: the board, the fields
/// after it, the number of pieces (a tower's all count), and only then the towers.
pub fn parse_fen<L: Laws>(text: &str) -> Result<Position<L>, FenError> {
    if std_fen::is_standard(text) {
        let board = std_fen::parse(text, Layout::Diagonal).map_err(FenError::Standard)?;
        return parse_fen(&board.chess_fen());
    }
    let mut counts = [0usize; 2];
    let mut tower = None;
    let pos = fen::read_fen!(
        text,
        "plies since capture",
        Position<L>,
        |board, pos: &mut Position<L>| {
            fen::read_board(
                board,
                (8, 8),
                false,
                fen::tower_token,
                |file, rank, t: Tower| {
                    let sq = Square::from_coords(file, rank).ok_or_else(|| {
                        FenError::LightSquare(Coords(file, rank).to_string(), rank + 1)
                    })?;
                    for p in t.pieces() {
                        counts[p.color().index()] += 1;
                    }
                    if t.height() > 1 {
                        tower.get_or_insert(sq);
                    }
                    pos.put(sq, Some(t.top()));
                    Ok::<(), FenError>(())
                },
            )
        }
    );
    for c in [Color::White, Color::Black] {
        if counts[c.index()] > MAX_PIECES {
            return Err(FenError::TooManyPieces(c, counts[c.index()]));
        }
    }
    if let Some(sq) = tower {
        return Err(FenError::Tower(sq.to_string(), L::NAME));
    }
    // Bashni's reader takes a man on its own last rank (its rules tests use such boards); here
    // a man is crowned when it ends a move there, so no game reaches one.
    let at = |file, rank| {
        Square::from_coords(file, rank)
            .and_then(|sq| pos.piece(sq))
            .map_or(Tower::EMPTY, Tower::single)
    };
    match fen::man_on_last_rank((8, 8), at) {
        Some(sq) => Err(FenError::Board(BoardError::ManOnLastRank(sq))),
        None => Ok(pos),
    }
}

/// Prints the position's FEN, always with clock and move number.
pub fn to_fen<L: Laws>(pos: &Position<L>) -> String {
    let at = |file, rank| {
        Square::from_coords(file, rank)
            .and_then(|sq| pos.piece(sq))
            .map_or(Tower::EMPTY, Tower::single)
    };
    fen::write((8, 8), at, pos.side(), pos.clock(), pos.fullmove())
}

/// Parses a move and checks it against the legal moves of `pos`.
///
/// Accepts `-`, `:` and `x` between squares; a capture may be written by any of its paths
/// (sequences with the same start, end and captured pieces are one move), or as
/// `from:to` when exactly one legal capture goes from one to the other.
pub fn parse_move<L: Laws>(pos: &Position<L>, text: &str) -> Result<Move, MoveError> {
    let legal = legal_moves(pos);
    let squares = path::dark_squares(text)?;
    path::find(&legal, text, &squares, || {
        // Another path of a merged capture stands for the move it was merged into.
        let mut every = MoveList::new();
        generate_captures(pos, &mut every, false);
        let path = every
            .iter()
            .find(|m| m.path().eq(squares.iter().copied()))?;
        legal.iter().find(|m| same_capture(pos, m, path)).copied()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::brazilian::BrazilianLaws;
    use crate::games::russian::RussianLaws;

    #[test]
    fn start_round_trips_and_towers_are_refused() {
        let p = parse_fen::<RussianLaws>(START_FEN).unwrap();
        assert_eq!(p, Position::startpos());
        assert_eq!(to_fen(&p), START_FEN);
        assert_eq!(p.hash(), p.compute_hash());
        assert_eq!(
            parse_fen::<RussianLaws>("8/8/8/8/3(wb)4/8/8/8 w")
                .unwrap_err()
                .to_string(),
            "a tower on d4: Russian draughts has one piece per square"
        );
        assert_eq!(
            parse_fen::<BrazilianLaws>("8/8/8/8/3(wb)4/8/8/8 w")
                .unwrap_err()
                .to_string(),
            "a tower on d4: Brazilian draughts has one piece per square"
        );
        assert_eq!(
            parse_fen::<RussianLaws>("8/8/8/8/8/8/8 w")
                .unwrap_err()
                .to_string(),
            "board has 7 ranks, expected 8"
        );
        assert_eq!(
            to_fen(&parse_fen::<RussianLaws>("8/8/8/8/3W4/8/1b6/B7 b 3 9").unwrap()),
            "8/8/8/8/3W4/8/1b6/B7 b 3 9"
        );
    }

    #[test]
    fn a_man_on_its_own_last_rank_is_refused() {
        // Crowned when a move ends there, in both games, so no game reaches it.
        assert_eq!(
            parse_fen::<RussianLaws>("8/8/8/8/3W4/8/8/b7 b")
                .unwrap_err()
                .to_string(),
            "a man on a1, its own last rank (it would be a king)"
        );
        assert_eq!(
            parse_fen::<BrazilianLaws>("1w6/8/8/8/3W4/8/8/8 b")
                .unwrap_err()
                .to_string(),
            "a man on b8, its own last rank (it would be a king)"
        );
    }
}
