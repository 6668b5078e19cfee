//! The two sides.

use std::fmt;

/// A side: White or Black.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Moves first, men move towards rank 8.
    White,
    /// Men move towards rank 1.
    Black,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side's name for people: "white" or "black" (also what `Display` writes).
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The rank (0-based) on which this side's men promote.
    #[inline]
    pub const fn promotion_rank(self) -> u8 {
        match self {
            Color::White => 7,
            Color::Black => 0,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Color;

    #[test]
    fn names() {
        assert_eq!(Color::White.name(), "white");
        assert_eq!(Color::Black.to_string(), "black");
        assert_eq!(format!("{:>6}", Color::White.name()), " white");
        assert_eq!(Color::White.opponent(), Color::Black);
        assert_eq!(Color::Black.index(), 1);
    }
}
