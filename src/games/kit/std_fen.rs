//! The standard draughts FEN of PDN (FMJD's PDN 3.0, written by pydraughts, Lidraughts and
//! most draughts software) for Russian, Brazilian and Turkish draughts: `W:Wa1,c1,Kh2:Bb8,d8`, the side
//! to move, then each colour's pieces, a king marked `K`. Squares are algebraic (`a1`) or
//! numbers counted from a1 (Russian: 1 = a1, 2 = c1 ... 32 = h8; Turkish: 1 = a1 ... 64 =
//! h8, as pydraughts 0.6 numbers them); `12-16` is a range of numbers. Lidraughts' optional
//! `:H<clock>:F<move number>` fields are read too.
//!
//! Both games' FEN readers accept this form beside their own chess-style FEN (docs/rules.md,
//! section 4): [`parse`] turns it into the chess-style text, which the game's reader checks
//! as always. [`write`] gives it for any position of a game played on one piece per square;
//! PDN `[FEN]` tags of Russian, Brazilian and Turkish games use it ([`super::Rules::to_pdn_fen`]).
//!
//! The square numberings live here too, shared with the Hub protocol ([`crate::hub`]), which
//! also numbers squares from the top left.

use super::game::Game;
use super::variant::Variant;
use crate::games::kit::Color;
use std::fmt;

/// Which squares of the 8x8 board a game plays on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Layout {
    /// The 32 dark squares (a1 dark): Russian draughts (and Bashni).
    Diagonal,
    /// All 64 squares: Turkish draughts.
    Full,
}

impl Layout {
    /// The layout of `variant`'s board.
    pub fn of(variant: Variant) -> Layout {
        match variant {
            Variant::Turkish => Layout::Full,
            // Lasca's 7x7 board has no standard numbering; Hub, the only user, refuses it.
            Variant::Bashni | Variant::Russian | Variant::Brazilian | Variant::Lasca => {
                Layout::Diagonal
            }
        }
    }

    /// How many squares are numbered.
    pub fn count(self) -> u32 {
        match self {
            Layout::Diagonal => 32,
            Layout::Full => 64,
        }
    }

    /// Whether pieces stand on the square of `file` and `rank` (0-based, a1 = (0, 0)).
    pub fn playable(self, file: u8, rank: u8) -> bool {
        file < 8 && rank < 8 && (self == Layout::Full || (file + rank).is_multiple_of(2))
    }

    fn per_rank(self) -> u32 {
        self.count() / 8
    }
}

/// How playable squares are numbered.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Numbering {
    /// From the top left, rank 8 first (Hub's `pos`, Scan, pydraughts 0.5): Russian 1 =
    /// b8 ... 32 = g1, Turkish 1 = a8 ... 64 = h1.
    Top,
    /// From a1, rank 1 first (PDN and pydraughts 0.6): Russian 1 = a1 ... 32 = h8, Turkish
    /// 1 = a1 ... 64 = h8.
    A1,
}

/// The square (file, rank) numbered `n`, if `n` is in range.
pub fn square_of(layout: Layout, numbering: Numbering, n: u32) -> Option<(u8, u8)> {
    if n == 0 || n > layout.count() {
        return None;
    }
    let i = n - 1;
    let row = (i / layout.per_rank()) as u8;
    let rank = match numbering {
        Numbering::Top => 7 - row,
        Numbering::A1 => row,
    };
    let k = (i % layout.per_rank()) as u8;
    let file = match layout {
        Layout::Full => k,
        Layout::Diagonal => 2 * k + rank % 2,
    };
    Some((file, rank))
}

/// The number of the square (file, rank), if pieces stand there.
pub fn number_of(layout: Layout, numbering: Numbering, file: u8, rank: u8) -> Option<u32> {
    if !layout.playable(file, rank) {
        return None;
    }
    let row = match numbering {
        Numbering::Top => 7 - rank,
        Numbering::A1 => rank,
    } as u32;
    let k = match layout {
        Layout::Full => file as u32,
        Layout::Diagonal => file as u32 / 2,
    };
    Some(row * layout.per_rank() + k + 1)
}

/// The algebraic name of a square, `a1` ... `h8`.
pub fn square_name(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

/// What is wrong with a standard FEN.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StdFenError {
    /// The side to move (before the first `:`) is not `W` or `B`.
    Side(String),
    /// A field that is none of `W...`, `B...`, `H<n>` or `F<n>`.
    Field(String),
    /// A square that is neither a name `a1`..`h8` nor a number in range (with an optional
    /// `K`), or a range that is not two numbers in order.
    Square(String),
    /// A square no piece stands on in this game (a light square of Russian draughts).
    Unplayable(String),
    /// A square given twice.
    Twice(String),
    /// A colour given twice.
    ColourTwice(char),
    /// `H` or `F` without a number in range.
    Counter(String),
}

impl fmt::Display for StdFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StdFenError::Side(s) => write!(f, "standard FEN: side to move '{s}' is not W or B"),
            StdFenError::Field(s) => write!(
                f,
                "standard FEN: field '{s}' is none of W<pieces>, B<pieces>, H<clock>, F<move>"
            ),
            StdFenError::Square(s) => write!(
                f,
                "standard FEN: '{s}' is not a square (a name like c3, a number, or a range 1-12)"
            ),
            StdFenError::Unplayable(s) => {
                write!(f, "standard FEN: no piece can stand on {s} in this game")
            }
            StdFenError::Twice(s) => write!(f, "standard FEN: square {s} is given twice"),
            StdFenError::ColourTwice(c) => {
                write!(f, "standard FEN: the pieces of {c} are given twice")
            }
            StdFenError::Counter(s) => write!(f, "standard FEN: '{s}' is not a counter"),
        }
    }
}

impl std::error::Error for StdFenError {}

/// A position read from a standard FEN.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StdBoard {
    /// The side to move.
    pub side: Color,
    /// The pieces: (file, rank, colour, king).
    pub pieces: Vec<(u8, u8, Color, bool)>,
    /// The no-progress clock (`H`), if given.
    pub clock: Option<u16>,
    /// The move number (`F`), if given.
    pub fullmove: Option<u16>,
}

/// Whether `text` is a standard FEN rather than a chess-style one: `W` or `B` then `:`.
pub fn is_standard(text: &str) -> bool {
    let mut chars = text.trim_start().chars().filter(|c| !c.is_whitespace());
    matches!(chars.next(), Some('W' | 'B' | 'w' | 'b')) && chars.next() == Some(':')
}

/// Reads a standard FEN for a game of `layout`.
pub fn parse(text: &str, layout: Layout) -> Result<StdBoard, StdFenError> {
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let text = text.trim_end_matches('.');
    let mut fields = text.split(':');
    let side = match fields.next().unwrap_or("") {
        "W" | "w" => Color::White,
        "B" | "b" => Color::Black,
        s => return Err(StdFenError::Side(s.to_string())),
    };
    let mut board = StdBoard {
        side,
        pieces: Vec::new(),
        clock: None,
        fullmove: None,
    };
    let mut seen = [false; 2];
    for field in fields.filter(|f| !f.is_empty()) {
        // The field's letter, whatever its width (a field may begin with any character).
        let (head, rest) = field.split_at(field.chars().next().map_or(0, char::len_utf8));
        let colour = match head {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            "H" | "h" | "F" | "f" => {
                let n = rest
                    .parse::<u16>()
                    .map_err(|_| StdFenError::Counter(field.to_string()))?;
                match head {
                    "H" | "h" => board.clock = Some(n),
                    _ if n > 0 => board.fullmove = Some(n),
                    _ => return Err(StdFenError::Counter(field.to_string())),
                }
                continue;
            }
            _ => return Err(StdFenError::Field(field.to_string())),
        };
        if std::mem::replace(&mut seen[colour.index()], true) {
            return Err(StdFenError::ColourTwice(head.chars().next().unwrap_or('?')));
        }
        for token in rest.split(',').filter(|t| !t.is_empty()) {
            for (file, rank, king) in squares_of_token(token, layout)? {
                if board.pieces.iter().any(|p| (p.0, p.1) == (file, rank)) {
                    return Err(StdFenError::Twice(square_name(file, rank)));
                }
                board.pieces.push((file, rank, colour, king));
            }
        }
    }
    Ok(board)
}

/// The squares of one piece token: `c3`, `Kc3`, `12`, `K12`, `1-4`.
fn squares_of_token(token: &str, layout: Layout) -> Result<Vec<(u8, u8, bool)>, StdFenError> {
    let bad = || StdFenError::Square(token.to_string());
    let (king, body) = match token.strip_prefix(['K', 'k']) {
        Some(b) => (true, b),
        None => (false, token),
    };
    let number = |s: &str| -> Result<(u8, u8), StdFenError> {
        let n: u32 = s.parse().map_err(|_| bad())?;
        square_of(layout, Numbering::A1, n).ok_or_else(bad)
    };
    if body.starts_with(|c: char| c.is_ascii_digit()) {
        if let Some((a, b)) = body.split_once('-') {
            let (a, b): (u32, u32) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
            if a == 0 || a > b || b > layout.count() {
                return Err(bad());
            }
            return (a..=b)
                .map(|n| number(&n.to_string()).map(|(f, r)| (f, r, king)))
                .collect();
        }
        let (f, r) = number(body)?;
        return Ok(vec![(f, r, king)]);
    }
    let b = body.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0].to_ascii_lowercase()) {
        return Err(bad());
    }
    if !(b'1'..=b'8').contains(&b[1]) {
        return Err(bad());
    }
    let (file, rank) = (b[0].to_ascii_lowercase() - b'a', b[1] - b'1');
    if !layout.playable(file, rank) {
        return Err(StdFenError::Unplayable(square_name(file, rank)));
    }
    Ok(vec![(file, rank, king)])
}

impl StdBoard {
    /// The same position as a chess-style FEN (ranks 8 to 1, `w b W B`, digits for empty
    /// squares), with the clock and move number when they were given.
    pub fn chess_fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..8u8).rev() {
            let mut gap = 0u8;
            for file in 0..8u8 {
                let piece = self.pieces.iter().find(|p| (p.0, p.1) == (file, rank));
                let Some(&(_, _, c, king)) = piece else {
                    gap += 1;
                    continue;
                };
                if gap > 0 {
                    s.push((b'0' + gap) as char);
                    gap = 0;
                }
                s.push(match (c, king) {
                    (Color::White, false) => 'w',
                    (Color::White, true) => 'W',
                    (Color::Black, false) => 'b',
                    (Color::Black, true) => 'B',
                });
            }
            if gap > 0 {
                s.push((b'0' + gap) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::White {
            " w"
        } else {
            " b"
        });
        if self.clock.is_some() || self.fullmove.is_some() {
            let clock = self.clock.unwrap_or(0);
            s.push_str(&format!(" {clock} {}", self.fullmove.unwrap_or(1)));
        }
        s
    }
}

/// The standard FEN of a position of a game with one piece per square, squares algebraic,
/// each colour's pieces in a1 order: `W:Wa1,c1,Kh2:Bb8`.
pub fn write<G: Game>(pos: &G) -> String {
    let mut lists = [String::new(), String::new()];
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let Some(tower) = pos.tower_at(file, rank) else {
                continue;
            };
            if tower.is_empty() {
                continue;
            }
            let p = tower.top();
            let list = &mut lists[p.color().index()];
            if !list.is_empty() {
                list.push(',');
            }
            if p.is_king() {
                list.push('K');
            }
            list.push_str(&square_name(file, rank));
        }
    }
    let side = if pos.side_to_move() == Color::White {
        'W'
    } else {
        'B'
    };
    format!(
        "{side}:W{}:B{}",
        lists[Color::White.index()],
        lists[Color::Black.index()]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numberings() {
        let d = Layout::Diagonal;
        assert_eq!(square_of(d, Numbering::Top, 1), Some((1, 7))); // b8
        assert_eq!(square_of(d, Numbering::Top, 32), Some((6, 0))); // g1
        assert_eq!(square_of(d, Numbering::A1, 1), Some((0, 0))); // a1
        assert_eq!(square_of(d, Numbering::A1, 2), Some((2, 0))); // c1
        assert_eq!(square_of(d, Numbering::A1, 32), Some((7, 7))); // h8
        let f = Layout::Full;
        assert_eq!(square_of(f, Numbering::Top, 1), Some((0, 7)));
        assert_eq!(square_of(f, Numbering::Top, 64), Some((7, 0)));
        assert_eq!(square_of(f, Numbering::A1, 9), Some((0, 1)));
        assert_eq!(square_of(d, Numbering::A1, 33), None);
        assert_eq!(square_of(d, Numbering::A1, 0), None);
        for layout in [d, f] {
            for numbering in [Numbering::Top, Numbering::A1] {
                for n in 1..=layout.count() {
                    let (file, rank) = square_of(layout, numbering, n).unwrap();
                    assert_eq!(number_of(layout, numbering, file, rank), Some(n));
                }
            }
        }
        assert_eq!(number_of(d, Numbering::A1, 1, 0), None);
    }

    #[test]
    fn reads_every_form() {
        let b = parse("W:Wa1,Kc3,5:BK32,b8", Layout::Diagonal).unwrap();
        assert_eq!(b.side, Color::White);
        assert_eq!(
            b.pieces,
            [
                (0, 0, Color::White, false),
                (2, 2, Color::White, true),
                (1, 1, Color::White, false),
                (7, 7, Color::Black, true),
                (1, 7, Color::Black, false)
            ]
        );
        assert_eq!(b.chess_fen(), "1b5B/8/8/8/8/2W5/1w6/w7 w");
        let r = parse("B:W1-12:B21-32:H3:F7", Layout::Diagonal).unwrap();
        assert_eq!(r.pieces.len(), 24);
        assert_eq!((r.clock, r.fullmove), (Some(3), Some(7)));
        assert!(r.chess_fen().ends_with(" b 3 7"));
        assert!(is_standard(" W:Wa1:Bb8") && !is_standard("8/8/8/8/8/8/8/W7 w"));
        let e = |t: &str| parse(t, Layout::Diagonal).unwrap_err().to_string();
        assert!(e("X:Wa1").contains("side to move 'X'"));
        assert!(e("W:Wa2").contains("no piece can stand on a2"));
        assert!(e("W:Wa1,a1").contains("a1 is given twice"));
        assert!(e("W:W33").contains("'33' is not a square"));
        assert!(e("W:W4-2").contains("'4-2'"));
        assert!(e("W:Q5").contains("field 'Q5'"));
        // A field that begins with a character of more than one byte (found by the fuzz).
        assert!(e("b:\u{fffd}Kc3,a1:Bb8.").contains("field '\u{fffd}Kc3,a1'"));
        assert!(e("W:Wa1:Wc1").contains("given twice"));
        assert_eq!(
            parse("W:Wa2:Bh7", Layout::Full).unwrap().chess_fen(),
            "8/7b/8/8/8/8/w7/8 w"
        );
    }
}
