//! Move text as a path of squares (`c3-d4`, `c3:e5:c7`, `c3xe5`), for every game: splitting
//! it into squares, finding the legal move it names, and why a text names none.
//!
//! The games differ only in their square names (a game on the dark squares refuses a light
//! one as "not a dark square") and their example moves: a game passes its [`Words`].

use crate::games::kit::moves::MoveOf;
use crate::games::kit::square::{BoardSquare, Square};
use std::fmt;

/// How a game words its move-text errors.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Words {
    /// What a square name must name: "dark square", "square".
    pub square: &'static str,
    /// Example moves: "c3-d4 or c3:e5".
    pub example: &'static str,
}

/// The words of a game on the 32 dark squares (Bashni, Russian draughts).
pub const DARK_SQUARES: Words = Words {
    square: "dark square",
    example: "c3-d4 or c3:e5",
};

/// What is wrong with a move text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// The text is not a sequence of squares joined by `-`, `:` or `x`.
    Syntax(String, Words),
    /// A part that is not a square name (of a square the game plays on).
    BadSquare(String, String, Words),
    /// Well-formed, but not legal here (the legal moves follow).
    Illegal(String, Vec<String>),
    /// `from:to` matches several captures.
    Ambiguous(String, Vec<String>),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(m, w) => write!(
                f,
                "bad move '{m}': expected squares joined by '-' or ':', like {}",
                w.example
            ),
            MoveError::BadSquare(m, s, w) => {
                write!(f, "bad move '{m}': '{s}' is not a {}", w.square)
            }
            MoveError::Illegal(m, legal) => {
                if legal.is_empty() {
                    write!(f, "illegal move {m}: no legal moves")
                } else {
                    write!(f, "illegal move {m}: legal moves are {}", legal.join(" "))
                }
            }
            MoveError::Ambiguous(m, cands) => {
                write!(f, "ambiguous move {m}: could be {}", cands.join(" "))
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// A move that is a path of squares.
pub trait PathMove: Copy + fmt::Display {
    /// The game's square.
    type Square: Copy + Eq;
    /// Whether the move captures.
    fn is_capture(&self) -> bool;
    /// Where it starts.
    fn from(&self) -> Self::Square;
    /// Where it ends.
    fn to(&self) -> Self::Square;
    /// Whether its path (origin and every landing) is `squares`.
    fn path_is(&self, squares: &[Self::Square]) -> bool;
}

/// Splits `body` (the move text `text`, or part of it) into at most `most` squares named as
/// `square` reads them, without checking legality.
pub fn parse_path<S>(
    text: &str,
    body: &str,
    most: usize,
    words: Words,
    square: impl Fn(&str) -> Option<S>,
) -> Result<Vec<S>, MoveError> {
    let parts: Vec<&str> = body.split(['-', ':', 'x', 'X']).collect();
    if parts.len() < 2 || parts.len() > most || parts.iter().any(|p| p.is_empty()) {
        return Err(MoveError::Syntax(text.to_string(), words));
    }
    parts
        .iter()
        .map(|p| {
            square(p).ok_or_else(|| MoveError::BadSquare(text.to_string(), p.to_string(), words))
        })
        .collect()
}

/// Whether `s` names a square of the 8x8 board, light or dark.
pub fn is_coordinate(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 2
        && (b'a'..=b'h').contains(&b[0].to_ascii_lowercase())
        && (b'1'..=b'8').contains(&b[1])
}

/// The legal move whose path `squares` is, of the kind the separators say (`-` a quiet move,
/// `:` or `x` a capture).
pub fn exact<M: PathMove>(legal: &[M], text: &str, squares: &[M::Square]) -> Option<M> {
    let captures = text.contains([':', 'x', 'X']);
    let fits = |m: &&M| m.is_capture() == captures && !(captures && text.contains('-'));
    legal
        .iter()
        .filter(fits)
        .find(|m| m.path_is(squares))
        .copied()
}

/// The move a text names: its whole path; else, for a capture text, what `other` finds
/// (`None` for most games), then the one capture from the first square to the last when the
/// text names only those two; else why none.
pub fn find<M: PathMove>(
    legal: &[M],
    text: &str,
    squares: &[M::Square],
    other: impl FnOnce() -> Option<M>,
) -> Result<M, MoveError> {
    if let Some(m) = exact(legal, text, squares) {
        return Ok(m);
    }
    if text.contains([':', 'x', 'X']) && !text.contains('-') {
        if let Some(m) = other() {
            return Ok(m);
        }
        if squares.len() == 2 {
            let cands: Vec<&M> = legal
                .iter()
                .filter(|m| m.is_capture() && m.from() == squares[0] && m.to() == squares[1])
                .collect();
            match cands.len() {
                0 => {}
                1 => return Ok(*cands[0]),
                _ => {
                    let mut names: Vec<String> = cands.iter().map(|m| m.to_string()).collect();
                    names.sort();
                    return Err(MoveError::Ambiguous(text.to_string(), names));
                }
            }
        }
    }
    let mut names: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
    names.sort();
    Err(MoveError::Illegal(text.to_string(), names))
}

/// The legal move (of `legal`) that `text` names, its squares (at most `most`) read by
/// `square` and its errors worded by `words`: a game's whole `parse_move` when its square
/// names are exactly the squares it plays on.
pub fn parse_legal<M: PathMove>(
    legal: &[M],
    text: &str,
    most: usize,
    words: Words,
    square: impl Fn(&str) -> Option<M::Square>,
) -> Result<M, MoveError> {
    let squares = parse_path(text, text.trim(), most, words, square)?;
    find(legal, text, &squares, || None)
}

impl<S: BoardSquare, const N: usize, X: Copy + Default> PathMove for MoveOf<S, N, X> {
    type Square = S;

    fn is_capture(&self) -> bool {
        MoveOf::is_capture(self)
    }

    fn from(&self) -> S {
        MoveOf::from(self)
    }

    fn to(&self) -> S {
        MoveOf::to(self)
    }

    fn path_is(&self, squares: &[S]) -> bool {
        self.path().eq(squares.iter().copied())
    }
}

/// The squares of a move text of a game on the dark squares; a light square is a
/// well-formed name, so a text naming one is simply no legal move (an empty path).
pub fn dark_squares(text: &str) -> Result<Vec<Square>, MoveError> {
    match parse_path(text, text, 14, DARK_SQUARES, Square::parse) {
        Err(MoveError::BadSquare(_, sq, _)) if is_coordinate(&sq) => Ok(Vec::new()),
        other => other,
    }
}
