//! Russian FEN and move notation: Bashni's (docs/rules.md, section 4) without towers. The FEN
//! is read by Bashni's reader, which then must find one piece per square; moves are Bashni's
//! paths, and any capture path of a merged move is accepted for it.

use crate::games::bashni::notation;
use crate::games::kit::fen;
use crate::games::kit::moves::{Move, MoveList};
use crate::games::kit::path;
pub use crate::games::kit::path::MoveError;
use crate::games::kit::square::Square;
use crate::games::kit::std_fen::{self, Layout};
use crate::games::kit::tower::Tower;
use crate::games::russian::movegen::{generate_captures, legal_moves, same_capture};
use crate::games::russian::position::Position;
use std::fmt;

/// The initial position's FEN (Bashni's).
pub const START_FEN: &str = notation::START_FEN;

/// What is wrong with a Russian FEN.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// Not a FEN in Bashni's format (what and where).
    Format(notation::FenError),
    /// A tower of two or more pieces, on this square.
    Tower(String),
    /// A standard draughts FEN (`W:Wa1,...:B...`) that cannot be read.
    Standard(crate::games::kit::std_fen::StdFenError),
    /// A board no game reaches: a man on its own last rank, where it would have been crowned.
    Unreachable(fen::BoardError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Format(e) => e.fmt(f),
            FenError::Standard(e) => e.fmt(f),
            FenError::Unreachable(e) => e.fmt(f),
            FenError::Tower(sq) => {
                write!(
                    f,
                    "a tower on {sq}: Russian draughts has one piece per square"
                )
            }
        }
    }
}

impl std::error::Error for FenError {}

/// Parses a FEN: Bashni's format with one piece per square (clock and move number
/// optional), or the standard draughts FEN (`W:Wa1,c1,Kh2:Bb8`, see
/// [`crate::games::kit::std_fen`]).
pub fn parse_fen(text: &str) -> Result<Position, FenError> {
    if std_fen::is_standard(text) {
        let board = std_fen::parse(text, Layout::Diagonal).map_err(FenError::Standard)?;
        return parse_fen(&board.chess_fen());
    }
    let bashni = notation::parse_fen(text).map_err(FenError::Format)?;
    let mut pos = Position::empty();
    for sq in Square::all() {
        let tower = bashni.tower(sq);
        match tower.height() {
            0 => {}
            1 => pos.put(sq, Some(tower.top())),
            _ => return Err(FenError::Tower(sq.to_string())),
        }
    }
    // Bashni's reader takes a man on its own last rank (its rules tests use such boards);
    // here a man is crowned the moment it gets there, so no game reaches one.
    let at =
        |file, rank| Square::from_coords(file, rank).map_or(Tower::EMPTY, |sq| bashni.tower(sq));
    if let Some(sq) = fen::man_on_last_rank((8, 8), at) {
        return Err(FenError::Unreachable(fen::BoardError::ManOnLastRank(sq)));
    }
    pos.set_side(bashni.side());
    pos.set_clock(bashni.clock());
    pos.set_fullmove(bashni.fullmove());
    Ok(pos)
}

/// Prints the position's FEN, always with clock and move number.
pub fn to_fen(pos: &Position) -> String {
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
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
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

    #[test]
    fn start_round_trips_and_towers_are_refused() {
        let p = parse_fen(START_FEN).unwrap();
        assert_eq!(p, Position::startpos());
        assert_eq!(to_fen(&p), START_FEN);
        assert_eq!(p.hash(), p.compute_hash());
        assert_eq!(
            parse_fen("8/8/8/8/3(wb)4/8/8/8 w").unwrap_err().to_string(),
            "a tower on d4: Russian draughts has one piece per square"
        );
        assert_eq!(
            parse_fen("8/8/8/8/8/8/8 w").unwrap_err().to_string(),
            "board has 7 ranks, expected 8"
        );
        assert_eq!(
            to_fen(&parse_fen("8/8/8/8/3W4/8/1b6/B7 b 3 9").unwrap()),
            "8/8/8/8/3W4/8/1b6/B7 b 3 9"
        );
        // A man on its own last rank: crowned there at once, so no game reaches it.
        assert_eq!(
            parse_fen("8/8/8/8/3W4/8/8/b7 b").unwrap_err().to_string(),
            "a man on a1, its own last rank (it would be a king)"
        );
    }
}
