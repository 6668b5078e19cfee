//! What every game's FEN shares after its board: the side to move (`w` or `b`), then, if
//! given, the no-progress clock and the move number, and why they are refused.

use crate::games::kit::color::Color;
use crate::games::kit::tower::Tower;
use std::fmt;

/// What is wrong with the fields after a FEN's board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FieldError {
    /// No side to move.
    MissingSide,
    /// A side to move other than `w` or `b`.
    BadSide(String),
    /// The clock is not a number (and what the game calls its clock).
    BadClock(String, &'static str),
    /// The move number is not a positive number.
    BadMoveNumber(String),
    /// Extra fields after the move number.
    TrailingFields(String),
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldError::MissingSide => write!(f, "missing side to move (w or b)"),
            FieldError::BadSide(s) => write!(f, "side to move '{s}' is not w or b"),
            FieldError::BadClock(s, clock) => {
                write!(f, "{clock} '{s}' is not a whole number 0..65535")
            }
            FieldError::BadMoveNumber(s) => {
                write!(f, "move number '{s}' is not a whole number 1..65535")
            }
            FieldError::TrailingFields(s) => write!(f, "unexpected text after the FEN: '{s}'"),
        }
    }
}

impl std::error::Error for FieldError {}

/// The fields after a FEN's board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Fields {
    /// The side to move.
    pub side: Color,
    /// The no-progress clock, if given.
    pub clock: Option<u16>,
    /// The move number (at least 1), if given.
    pub fullmove: Option<u16>,
}

/// A FEN's board and what follows it, the text trimmed; `None` for an empty text.
pub fn split(text: &str) -> Option<(&str, &str)> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let board_end = text.find(char::is_whitespace).unwrap_or(text.len());
    Some((&text[..board_end], &text[board_end..]))
}

/// Reads the fields after a FEN's board; `clock` is what the game calls its clock in errors.
pub fn parse_fields(text: &str, clock: &'static str) -> Result<Fields, FieldError> {
    let mut fields = text.split_whitespace();
    let side = match fields.next() {
        None => return Err(FieldError::MissingSide),
        Some("w") | Some("W") => Color::White,
        Some("b") | Some("B") => Color::Black,
        Some(s) => return Err(FieldError::BadSide(s.to_string())),
    };
    let clock = match fields.next() {
        Some(c) => Some(plain_number(c).ok_or_else(|| FieldError::BadClock(c.to_string(), clock))?),
        None => None,
    };
    let fullmove = match fields.next() {
        Some(m) => match plain_number(m) {
            Some(n) if n > 0 => Some(n),
            _ => return Err(FieldError::BadMoveNumber(m.to_string())),
        },
        None => None,
    };
    let rest: Vec<&str> = fields.collect();
    if !rest.is_empty() {
        return Err(FieldError::TrailingFields(rest.join(" ")));
    }
    Ok(Fields {
        side,
        clock,
        fullmove,
    })
}

/// A FEN with every field: the board from what stands on each square (`at(file, rank)`,
/// 0-based; the empty tower for an empty square or one the game does not play on), rank 8
/// first, then the side to move, the clock and the move number.
pub fn write(at: impl Fn(u8, u8) -> Tower, side: Color, clock: u16, fullmove: u16) -> String {
    let mut s = String::new();
    for rank in (0..8u8).rev() {
        let mut gap = 0;
        for file in 0..8u8 {
            let tower = at(file, rank);
            if tower.is_empty() {
                gap += 1;
                continue;
            }
            if gap > 0 {
                s.push((b'0' + gap) as char);
                gap = 0;
            }
            s.push_str(&tower.to_string());
        }
        if gap > 0 {
            s.push((b'0' + gap) as char);
        }
        if rank > 0 {
            s.push('/');
        }
    }
    let side = if side == Color::White { 'w' } else { 'b' };
    format!("{s} {side} {clock} {fullmove}")
}

/// A FEN counter: plain decimal digits (no sign) that fit in a `u16`.
fn plain_number(text: &str) -> Option<u16> {
    text.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| text.parse().ok())
        .flatten()
}

/// The FEN of `fen` with colours swapped and the board turned half round (for tests of
/// colour symmetry); the clock and move number stay.
#[cfg(test)]
pub(crate) fn mirrored(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap();
    let side = if fields.next().unwrap() == "w" {
        "b"
    } else {
        "w"
    };
    let swap = |c: char| match c {
        'w' => 'b',
        'b' => 'w',
        'W' => 'B',
        'B' => 'W',
        other => other,
    };
    let ranks: Vec<String> = board
        .split('/')
        .rev()
        .map(|rank| {
            // Tokens: a digit, a single piece, or a tower in parentheses.
            let mut tokens = Vec::new();
            let mut chars = rank.chars();
            while let Some(c) = chars.next() {
                if c == '(' {
                    let inner: String = chars.by_ref().take_while(|&c| c != ')').collect();
                    tokens.push(format!("({})", inner.chars().map(swap).collect::<String>()));
                } else {
                    tokens.push(swap(c).to_string());
                }
            }
            tokens.reverse();
            tokens.concat()
        })
        .collect();
    let rest: String = fields.map(|f| format!(" {f}")).collect();
    format!("{} {side}{rest}", ranks.join("/"))
}
