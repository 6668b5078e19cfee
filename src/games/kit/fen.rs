//! What every game's FEN shares after its board: the side to move (`w` or `b`), then, if
//! given, the no-progress clock and the move number, and why they are refused.

use crate::games::kit::color::Color;
use crate::games::kit::square::Coords;
use crate::games::kit::tower::{MAX_HEIGHT, Piece, Tower};
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

impl Fields {
    /// Sets these fields on `pos` through its setters (the clock and move number only when
    /// given, so that a short FEN keeps the position's own).
    pub fn apply<P>(
        self,
        pos: &mut P,
        side: fn(&mut P, Color),
        clock: fn(&mut P, u16),
        fullmove: fn(&mut P, u16),
    ) {
        side(pos, self.side);
        if let Some(n) = self.clock {
            clock(pos, n);
        }
        if let Some(n) = self.fullmove {
            fullmove(pos, n);
        }
    }
}

/// What is wrong with a FEN's board in any game: its shape and its characters (the game's
/// own errors, such as a piece on a square it does not play on, are its own).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BoardError {
    /// Nothing to parse.
    Empty,
    /// The board has this many ranks, not the game's number (which follows).
    RankCount(usize, u8),
    /// A rank (its number from 1) adds up to this many files, not the game's width (which
    /// follows where the game's message names it).
    RankWidth(u8, usize, Option<u8>),
    /// A character that is not a digit, a piece or anything else the game reads, at this
    /// character position (from 1).
    UnknownChar(char, usize),
    /// A man commands a square of its own last rank ([`man_on_last_rank`]).
    ManOnLastRank(Coords),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Empty => write!(f, "empty FEN"),
            BoardError::RankCount(n, want) => {
                let s = if *n == 1 { "" } else { "s" };
                write!(f, "board has {n} rank{s}, expected {want}")
            }
            BoardError::RankWidth(r, n, None) => write!(f, "rank {r} has {n} files"),
            BoardError::RankWidth(r, n, Some(want)) => {
                write!(f, "rank {r} has {n} files, expected {want}")
            }
            BoardError::UnknownChar(c, i) => write!(f, "unknown character '{c}' at character {i}"),
            BoardError::ManOnLastRank(sq) => {
                write!(f, "a man on {sq}, its own last rank (it would be a king)")
            }
        }
    }
}

impl std::error::Error for BoardError {}

/// Implements `From` [`BoardError`] and [`FieldError`] for a game's FEN error `$e`, through its
/// variants `Board` and `Fields`, so that the kit's readers answer in the game's error.
macro_rules! fen_error_from {
    ($e:ty) => {
        impl From<$crate::games::kit::fen::BoardError> for $e {
            fn from(e: $crate::games::kit::fen::BoardError) -> $e {
                <$e>::Board(e)
            }
        }

        impl From<$crate::games::kit::fen::FieldError> for $e {
            fn from(e: $crate::games::kit::fen::FieldError) -> $e {
                <$e>::Fields(e)
            }
        }
    };
}
pub(crate) use fen_error_from;

/// Reads a FEN into a new `$pos` (from its `empty()`), in a function answering an error that
/// [`fen_error_from`] converts: the board by `$board` (the board text and the position), then
/// the fields after it, the clock named `$clock` in errors, set through the position's
/// `set_side`, `set_clock` and `set_fullmove`. A macro because those setters are the
/// positions' own methods, with no trait over them.
macro_rules! read_fen {
    ($text:expr, $clock:expr, $pos:ty, $board:expr) => {{
        use $crate::games::kit::fen;
        let (board, rest) = fen::split($text).ok_or(fen::BoardError::Empty)?;
        let mut pos = <$pos>::empty();
        $board(board, &mut pos)?;
        let fields = fen::parse_fields(rest, $clock)?;
        fields.apply(
            &mut pos,
            <$pos>::set_side,
            <$pos>::set_clock,
            <$pos>::set_fullmove,
        );
        pos
    }};
}
pub(crate) use read_fen;

/// Reads a FEN board of `files` x `ranks` squares, the top rank first and ranks split by `/`:
/// a digit from 1 to `files` skips that many squares; anything else is a token that `token`
/// reads from the rest of its rank and the character position (from 1) of its start,
/// answering what stands there and how many bytes it used; `put` places it on its square
/// (file and rank 0-based) while the rank is not yet full. `names_width`: whether a wrong
/// rank width's message names the right one. Every game's FEN board has this shape; the
/// games differ only in their tokens (a letter, a tower in parentheses) and squares.
pub fn read_board<E: From<BoardError>>(
    board: &str,
    (files, ranks): (u8, u8),
    names_width: bool,
    mut token: impl FnMut(&str, usize) -> Result<(Tower, usize), E>,
    mut put: impl FnMut(u8, u8, Tower) -> Result<(), E>,
) -> Result<(), E> {
    let texts: Vec<&str> = board.split('/').collect();
    if texts.len() != ranks as usize {
        return Err(BoardError::RankCount(texts.len(), ranks).into());
    }
    let mut offset = 0; // byte offset of the current rank within the FEN
    for (i, text) in texts.iter().enumerate() {
        let rank = ranks - 1 - i as u8;
        let mut file = 0usize;
        let mut j = 0;
        while j < text.len() {
            let rest = &text[j..];
            let gap = rest.chars().next().and_then(|c| c.to_digit(10));
            if let Some(n) = gap.filter(|n| (1..=files as u32).contains(n)) {
                file += n as usize;
                j += 1;
                continue;
            }
            let (tower, used) = token(rest, offset + j + 1)?;
            j += used;
            if file < files as usize {
                put(file as u8, rank, tower)?;
            }
            file += 1;
        }
        if file != files as usize {
            let want = names_width.then_some(files);
            return Err(BoardError::RankWidth(rank + 1, file, want).into());
        }
        offset += text.len() + 1;
    }
    Ok(())
}

/// The first square (top rank first, then from file a) of a board of `files` x `ranks`
/// squares where a man commands on its own last rank, White's the top rank and Black's the
/// bottom one, as `at(file, rank)` (0-based) says what stands on each square: a position no
/// game of men and kings reaches, so every such game's FEN refuses it
/// ([`BoardError::ManOnLastRank`]). A man is crowned the moment it reaches that rank, by a
/// quiet move or in a capture, and a piece freed from under a tower (Bashni) never stands on
/// an edge, as a jumped tower always has a square behind it.
pub fn man_on_last_rank((files, ranks): (u8, u8), at: impl Fn(u8, u8) -> Tower) -> Option<Coords> {
    let last = |c: Color| if c == Color::White { ranks - 1 } else { 0 };
    [ranks - 1, 0].into_iter().find_map(|rank| {
        (0..files).find_map(|file| {
            let t = at(file, rank);
            let stuck = !t.is_empty() && !t.top().is_king() && last(t.top().color()) == rank;
            stuck.then_some(Coords(file, rank))
        })
    })
}

/// The token of a single piece letter at the start of `rest` (at character position `at`).
pub fn letter<E: From<BoardError>>(rest: &str, at: usize) -> Result<(Tower, usize), E> {
    let c = rest.chars().next().expect("a token is never empty");
    let p = Piece::from_letter(c).ok_or(BoardError::UnknownChar(c, at))?;
    Ok((Tower::single(p), c.len_utf8()))
}

/// What is wrong with a tower written in parentheses (a column, top piece first), at the
/// character position (from 1) of its `(` or `)`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TowerError {
    /// `()` with nothing inside.
    Empty(usize),
    /// `(` never closed.
    Unclosed(usize),
    /// `(` inside a tower.
    Nested(usize),
    /// `)` with no `(`.
    Unopened(usize),
    /// A tower taller than [`MAX_HEIGHT`] pieces.
    TooTall(usize),
}

impl fmt::Display for TowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TowerError::Empty(i) => write!(f, "empty tower at character {i}"),
            TowerError::Unclosed(i) => write!(f, "unclosed tower at character {i}"),
            TowerError::Nested(i) => write!(f, "'(' inside a tower at character {i}"),
            TowerError::Unopened(i) => write!(f, "')' without '(' at character {i}"),
            TowerError::TooTall(i) => {
                write!(f, "tower of more than {MAX_HEIGHT} pieces at character {i}")
            }
        }
    }
}

impl std::error::Error for TowerError {}

/// The token at the start of `rest` (at character position `at`) in a FEN that may write
/// towers: a single piece letter, or a tower in parentheses (top first), with how many bytes
/// it takes up to its `)`. Bashni's boards are read with it, and the boards of the games of
/// single pieces on Bashni's squares, which refuse a tower only once they know its square.
pub fn tower_token<E: From<BoardError> + From<TowerError>>(
    rest: &str,
    at: usize,
) -> Result<(Tower, usize), E> {
    match rest.chars().next() {
        Some('(') => {}
        Some(')') => return Err(TowerError::Unopened(at).into()),
        _ => return letter(rest, at),
    }
    let mut pieces = Vec::new();
    for (k, c) in rest.char_indices().skip(1) {
        match c {
            ')' => {
                if pieces.is_empty() {
                    return Err(TowerError::Empty(at).into());
                }
                let tower = Tower::from_pieces(&pieces).ok_or(TowerError::TooTall(at))?;
                return Ok((tower, k + 1));
            }
            '(' => return Err(TowerError::Nested(at).into()),
            _ => pieces.push(Piece::from_letter(c).ok_or(BoardError::UnknownChar(c, at + k))?),
        }
    }
    Err(TowerError::Unclosed(at).into())
}

/// A FEN with every field: the board of `files` x `ranks` squares from what stands on each
/// (`at(file, rank)`, 0-based; the empty tower for an empty square or one the game does not
/// play on), the top rank first, then the side to move, the clock and the move number.
pub fn write(
    (files, ranks): (u8, u8),
    at: impl Fn(u8, u8) -> Tower,
    side: Color,
    clock: u16,
    fullmove: u16,
) -> String {
    let mut s = String::new();
    for rank in (0..ranks).rev() {
        let mut gap = 0;
        for file in 0..files {
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
