//! Hub's notation: positions and moves as square numbers.
//!
//! A position (`pos=`) is the side to move (`W` or `B`) then every playable square numbered
//! from the top left ([`Numbering::Top`]): `e` empty, `w` `b` men, `W` `B` kings; 32
//! squares in Russian draughts, 64 in Turkish. A move is `from-to`, or a capture
//! `fromxto` then `x` and each captured square in any order (`15x29x20x26`); its squares
//! are numbered from the top (Scan, pydraughts 0.5) or from a1 (pydraughts 0.6), as the
//! `move-numbering` parameter says.

use crate::games::Game;
use crate::games::kit::Color;
use crate::games::kit::std_fen::{Layout, Numbering, StdBoard, number_of, square_of};
use std::fmt;

/// What is wrong with a Hub position or move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// A position that is not a side and one letter per square (text, squares expected).
    BadPosition(String, u32),
    /// The game refuses the position (its words).
    Refused(String),
    /// A move that is not square numbers joined by `-` or `x`.
    BadMove(String),
    /// A move that is not legal here (text, the legal moves).
    Illegal(String, Vec<String>),
    /// A capture given by its ends alone that fits several legal captures.
    Ambiguous(String),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::BadPosition(p, n) => write!(
                f,
                "position '{p}' is not W or B then {n} letters of w, b, W, B, e"
            ),
            NotationError::Refused(why) => write!(f, "position refused: {why}"),
            NotationError::BadMove(m) => {
                write!(f, "move '{m}' is not square numbers joined by - or x")
            }
            NotationError::Illegal(m, legal) => {
                write!(f, "illegal move '{m}' (legal: {})", legal.join(" "))
            }
            NotationError::Ambiguous(m) => {
                write!(
                    f,
                    "move '{m}' fits several captures: give the captured squares"
                )
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// The position in Hub's `pos=` form.
pub fn position_text<G: Game>(pos: &G) -> String {
    let layout = Layout::of(G::VARIANT);
    let mut s = String::new();
    s.push(if pos.side_to_move() == Color::White {
        'W'
    } else {
        'B'
    });
    for n in 1..=layout.count() {
        let Some((file, rank)) = square_of(layout, Numbering::Top, n) else {
            continue;
        };
        let tower = pos.tower_at(file, rank).unwrap_or_default();
        s.push(if tower.is_empty() {
            'e'
        } else {
            let p = tower.top();
            match (p.color(), p.is_king()) {
                (Color::White, false) => 'w',
                (Color::White, true) => 'W',
                (Color::Black, false) => 'b',
                (Color::Black, true) => 'B',
            }
        });
    }
    s
}

/// Reads a position in Hub's `pos=` form (the game's FEN reader checks it).
pub fn parse_position<G: Game>(text: &str) -> Result<G, NotationError> {
    let layout = Layout::of(G::VARIANT);
    let bad = || NotationError::BadPosition(text.to_string(), layout.count());
    let mut chars = text.chars();
    let side = match chars.next() {
        Some('W' | 'w') => Color::White,
        Some('B' | 'b') => Color::Black,
        _ => return Err(bad()),
    };
    let squares: Vec<char> = chars.collect();
    if squares.len() != layout.count() as usize {
        return Err(bad());
    }
    let mut board = StdBoard {
        side,
        pieces: Vec::new(),
        clock: None,
        fullmove: None,
    };
    for (i, c) in squares.into_iter().enumerate() {
        let piece = match c {
            'e' | 'E' | '.' => continue,
            'w' => (Color::White, false),
            'W' => (Color::White, true),
            'b' => (Color::Black, false),
            'B' => (Color::Black, true),
            _ => return Err(bad()),
        };
        let (file, rank) = square_of(layout, Numbering::Top, i as u32 + 1).ok_or_else(bad)?;
        board.pieces.push((file, rank, piece.0, piece.1));
    }
    G::from_fen(&board.chess_fen()).map_err(|e| NotationError::Refused(e.to_string()))
}

/// A move's squares as Hub numbers: from, to, and the captured squares in ascending order.
fn move_numbers<G: Game>(pos: &G, m: &G::Move, numbering: Numbering) -> (u32, u32, Vec<u32>) {
    let layout = Layout::of(G::VARIANT);
    let num = |(f, r): (u8, u8)| number_of(layout, numbering, f, r).unwrap_or(0);
    let path = G::move_squares(m);
    let from = path.first().copied().map_or(0, num);
    let to = path.last().copied().map_or(0, num);
    let mut captured = Vec::new();
    if G::is_capture(m) {
        let after = pos.played(m);
        let them = pos.side_to_move().opponent();
        for rank in 0..8u8 {
            for file in 0..8u8 {
                let was = pos.tower_at(file, rank).unwrap_or_default();
                let now = after.tower_at(file, rank).unwrap_or_default();
                if !was.is_empty()
                    && was.top().color() == them
                    && (now.is_empty() || now.top().color() != them)
                {
                    captured.push(num((file, rank)));
                }
            }
        }
        captured.sort_unstable();
    }
    (from, to, captured)
}

/// The move in Hub notation.
pub fn move_text<G: Game>(pos: &G, m: &G::Move, numbering: Numbering) -> String {
    let (from, to, captured) = move_numbers(pos, m, numbering);
    if !G::is_capture(m) {
        return format!("{from}-{to}");
    }
    let mut s = format!("{from}x{to}");
    for c in captured {
        s.push_str(&format!("x{c}"));
    }
    s
}

/// Moves in Hub notation, each played in turn from `pos`.
pub fn line_text<G: Game>(pos: &G, moves: &[G::Move], numbering: Numbering) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        out.push(move_text(&p, m, numbering));
        p.play(m);
    }
    out
}

/// Reads a move in Hub notation and finds it among the legal moves of `pos`. A capture
/// given by its two ends alone is accepted when one legal capture fits.
pub fn parse_move<G: Game>(
    pos: &G,
    text: &str,
    numbering: Numbering,
) -> Result<G::Move, NotationError> {
    let bad = || NotationError::BadMove(text.to_string());
    let capture = text.contains(['x', 'X']);
    let parts: Vec<&str> = if capture {
        text.split(['x', 'X']).collect()
    } else {
        text.split('-').collect()
    };
    let numbers: Vec<u32> = parts
        .iter()
        .map(|p| p.parse::<u32>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if numbers.len() < 2 || (!capture && numbers.len() != 2) {
        return Err(bad());
    }
    let (from, to) = (numbers[0], numbers[1]);
    let mut captured = numbers[2..].to_vec();
    captured.sort_unstable();
    let legal = pos.legal_moves();
    let fits: Vec<G::Move> = legal
        .iter()
        .filter(|m| G::is_capture(m) == capture)
        .filter(|m| {
            let (f, t, c) = move_numbers(pos, m, numbering);
            f == from && t == to && (c == captured || (capture && captured.is_empty()))
        })
        .copied()
        .collect();
    // Capture paths with the same ends and captured pieces are one move to Hub (Turkish
    // draughts has several such paths): the first stands for all when all lead to the same
    // position.
    let same = |a: &G::Move, b: &G::Move| pos.played(a).hash() == pos.played(b).hash();
    match fits.as_slice() {
        [m] => Ok(*m),
        [m, rest @ ..] if rest.iter().all(|r| same(m, r)) => Ok(*m),
        [] => {
            let mut names: Vec<String> =
                legal.iter().map(|m| move_text(pos, m, numbering)).collect();
            names.sort();
            Err(NotationError::Illegal(text.to_string(), names))
        }
        _ => Err(NotationError::Ambiguous(text.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Rules, russian, turkish};

    #[test]
    fn start_positions_and_moves() {
        let r = russian::Position::startpos();
        assert_eq!(position_text(&r), "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        let back: russian::Position = parse_position(&position_text(&r)).unwrap();
        assert_eq!(back.hash(), r.hash());
        let m = parse_move(&r, "22-17", Numbering::Top).unwrap();
        assert_eq!(m.to_string(), "c3-b4");
        assert_eq!(move_text(&r, &m, Numbering::A1), "10-13");
        assert_eq!(parse_move(&r, "10-13", Numbering::A1), Ok(m));
        let t = turkish::Position::startpos();
        let text = position_text(&t);
        assert_eq!(text.len(), 65);
        assert!(text.starts_with("Weeeeeeeebbbbbbbb"));
        let m = parse_move(&t, "41-33", Numbering::Top).unwrap();
        assert_eq!(m.to_string(), "a3-a4");
        assert_eq!(move_text(&t, &m, Numbering::A1), "17-25");
        assert!(matches!(
            parse_move(&t, "41-34", Numbering::Top),
            Err(NotationError::Illegal(..))
        ));
        assert!(parse_move(&t, "41-", Numbering::Top).is_err());
        assert!(parse_position::<turkish::Position>("Wbbb").is_err());
    }

    #[test]
    fn captures_list_the_captured_squares() {
        // White man c3 takes d4 and f6 (Russian), landing on g7.
        let p: russian::Position = russian::Position::from_fen("W:Wc3:Bd4,f6,h8").unwrap();
        let legal = p.legal_moves();
        assert_eq!(legal.len(), 1);
        let text = move_text(&p, &legal[0], Numbering::A1);
        assert_eq!(text, "10x28x14x23");
        assert_eq!(parse_move(&p, "10x28x23x14", Numbering::A1), Ok(legal[0]));
        assert_eq!(parse_move(&p, "10x28", Numbering::A1), Ok(legal[0]));
    }
}
