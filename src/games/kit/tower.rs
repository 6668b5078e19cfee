//! Towers: stacks of 1 to 24 pieces packed into one `u64`.
//!
//! Two bits per piece (bit 0: colour, 1 = black; bit 1: king), the top piece (commander) in
//! bits 0-1, the next one in bits 2-3 and so on; the height sits in bits 48-53. Taking the
//! commander off is a shift, adding a prisoner at the bottom is an OR, so a jump costs a few
//! instructions.

use super::color::Color;
use std::fmt;

/// Maximum number of pieces in one tower (both sides' 12 pieces).
pub const MAX_HEIGHT: usize = 24;

const HEIGHT_SHIFT: u32 = 48;
const PIECES_MASK: u64 = (1 << HEIGHT_SHIFT) - 1;

/// One piece: a colour and a rank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(u8);

impl Piece {
    /// A piece of `color`, a king when `king`.
    #[inline]
    pub const fn new(color: Color, king: bool) -> Piece {
        Piece(color as u8 | (king as u8) << 1)
    }

    /// Its colour.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Whether it is a king.
    #[inline]
    pub const fn is_king(self) -> bool {
        self.0 & 2 != 0
    }

    /// The FEN letter: `w`, `W`, `b`, `B`.
    pub const fn letter(self) -> char {
        match self.0 {
            0 => 'w',
            1 => 'b',
            2 => 'W',
            _ => 'B',
        }
    }

    /// The piece for a FEN letter.
    pub const fn from_letter(c: char) -> Option<Piece> {
        match c {
            'w' => Some(Piece(0)),
            'b' => Some(Piece(1)),
            'W' => Some(Piece(2)),
            'B' => Some(Piece(3)),
            _ => None,
        }
    }
}

/// A stack of pieces; `Tower::EMPTY` is an empty square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Tower(u64);

impl Tower {
    /// No pieces.
    pub const EMPTY: Tower = Tower(0);

    /// A tower of one piece.
    #[inline]
    pub const fn single(p: Piece) -> Tower {
        Tower(p.0 as u64 | 1 << HEIGHT_SHIFT)
    }

    /// Builds a tower from its pieces, top first; `None` if there are more than 24.
    pub fn from_pieces(pieces: &[Piece]) -> Option<Tower> {
        if pieces.len() > MAX_HEIGHT {
            return None;
        }
        let mut t = Tower::EMPTY;
        for &p in pieces {
            t = t.with_bottom(p);
        }
        Some(t)
    }

    /// The raw packed value (used for hashing).
    #[inline]
    pub const fn raw(self) -> u64 {
        self.0
    }

    /// Number of pieces.
    #[inline]
    pub const fn height(self) -> usize {
        (self.0 >> HEIGHT_SHIFT) as usize
    }

    /// Whether the square is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The commander. Meaningless on an empty tower.
    #[inline]
    pub const fn top(self) -> Piece {
        Piece((self.0 & 3) as u8)
    }

    /// The piece at `i` (0 = top).
    #[inline]
    pub const fn piece(self, i: usize) -> Piece {
        Piece(((self.0 >> (2 * i)) & 3) as u8)
    }

    /// The tower without its commander.
    #[inline]
    pub const fn without_top(self) -> Tower {
        if self.height() <= 1 {
            return Tower::EMPTY;
        }
        let pieces = (self.0 & PIECES_MASK) >> 2;
        Tower(pieces | ((self.height() as u64 - 1) << HEIGHT_SHIFT))
    }

    /// The tower with `p` added at the bottom. The caller keeps heights within 24.
    #[inline]
    pub const fn with_bottom(self, p: Piece) -> Tower {
        let h = self.height() as u64;
        Tower(((self.0 & PIECES_MASK) | (p.0 as u64) << (2 * h)) | ((h + 1) << HEIGHT_SHIFT))
    }

    /// The tower with its commander made a king.
    #[inline]
    pub const fn with_top_crowned(self) -> Tower {
        Tower(self.0 | 2)
    }

    /// Pieces from top to bottom.
    pub fn pieces(self) -> impl Iterator<Item = Piece> {
        (0..self.height()).map(move |i| self.piece(i))
    }

    /// How many pieces of `color` the tower holds.
    pub fn count(self, color: Color) -> usize {
        self.pieces().filter(|p| p.color() == color).count()
    }
}

impl fmt::Display for Tower {
    /// FEN form: a letter for one piece, `(...)` top first for two or more.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.height() == 1 {
            return write!(f, "{}", self.top().letter());
        }
        write!(f, "(")?;
        for p in self.pieces() {
            write!(f, "{}", p.letter())?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_and_pop() {
        let wk = Piece::new(Color::White, true);
        let bm = Piece::new(Color::Black, false);
        let t = Tower::single(wk).with_bottom(bm).with_bottom(bm);
        assert_eq!(t.height(), 3);
        assert_eq!(t.to_string(), "(Wbb)");
        let rest = t.without_top();
        assert_eq!(rest.to_string(), "(bb)");
        assert_eq!(rest.top(), bm);
        assert_eq!(rest.without_top().without_top(), Tower::EMPTY);
        let full = Tower::from_pieces(&[bm; 24]).unwrap();
        assert_eq!(full.height(), 24);
        assert_eq!(full.piece(23), bm);
        assert!(Tower::from_pieces(&[bm; 25]).is_none());
        let crowned = Tower::single(Piece::new(Color::Black, false)).with_top_crowned();
        assert!(crowned.top().is_king());
    }
}
