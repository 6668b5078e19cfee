//! Moves (identified by their landing path) and move lists.

use crate::games::kit::square::{BoardSquare, Square};
use arrayvec::ArrayVec;
use std::fmt;
use std::ops::{Deref, DerefMut};

/// Most jumps one move can make: each jump takes one enemy piece, and a side has 12.
pub const MAX_JUMPS: usize = 12;

/// A move of a game on squares `S`: origin, the squares it lands on in order (at most `N`),
/// whether it captures, and what the game keeps beside (`X`: for a capture, what it takes, so
/// that playing it needs no search). Every game's move is one of these, so that what they
/// share (the path, its text, its key) is written once; each game adds its own constructor
/// of a capture and its own questions about `X`.
///
/// Two moves are equal exactly when their paths and `X` are equal; `X` follows from the path
/// in every game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MoveOf<S, const N: usize, X> {
    from: S,
    len: u8,
    capture: bool,
    landings: [S; N],
    extra: X,
}

/// A move on the 32 dark squares (Bashni, Russian draughts), with the squares it jumps in
/// order (`jumped[i]` before `landings[i]`).
pub type Move = MoveOf<Square, MAX_JUMPS, [Square; MAX_JUMPS]>;

impl<S: BoardSquare, const N: usize, X: Copy + Default> Default for MoveOf<S, N, X> {
    fn default() -> Self {
        MoveOf {
            from: S::default(),
            len: 0,
            capture: false,
            landings: [S::default(); N],
            extra: X::default(),
        }
    }
}

impl<S: BoardSquare, const N: usize, X: Copy + Default> MoveOf<S, N, X> {
    /// A quiet move (a step, or a king's slide).
    #[inline]
    pub fn quiet(from: S, to: S) -> Self {
        let mut m = MoveOf {
            from,
            len: 1,
            ..MoveOf::default()
        };
        m.landings[0] = to;
        m
    }

    /// A capture landing on `landings` in order (1 to `N` squares), with what the game keeps
    /// of it: each game's own `capture` makes `extra`.
    #[inline]
    pub fn with_landings(from: S, landings: &[S], extra: X) -> Self {
        debug_assert!(!landings.is_empty() && landings.len() <= N);
        let mut m = MoveOf {
            from,
            len: landings.len() as u8,
            capture: true,
            extra,
            ..MoveOf::default()
        };
        m.landings[..landings.len()].copy_from_slice(landings);
        m
    }

    /// The square the move starts from.
    #[inline]
    pub fn from(&self) -> S {
        self.from
    }

    /// The square the move ends on.
    #[inline]
    pub fn to(&self) -> S {
        self.landings[self.len as usize - 1]
    }

    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.capture
    }

    /// Landing squares in order (origin excluded).
    #[inline]
    pub fn landings(&self) -> &[S] {
        &self.landings[..self.len as usize]
    }

    /// What the game keeps beside the path (for a quiet move, `X`'s default).
    #[inline]
    pub fn extra(&self) -> &X {
        &self.extra
    }

    /// The full path, origin first.
    pub fn path(&self) -> impl Iterator<Item = S> + '_ {
        std::iter::once(self.from).chain(self.landings().iter().copied())
    }

    /// A 32-bit digest of the landing path, used where a full move does not fit (the
    /// transposition table). Never 0.
    pub fn key(&self) -> u32 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ self.capture as u64;
        for sq in self.path() {
            h = (h ^ sq.index() as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        let k = (h ^ (h >> 32)) as u32;
        k.max(1)
    }
}

impl Move {
    /// A capture landing on `landings` in order and jumping `jumped[i]` before `landings[i]`.
    pub fn capture(from: Square, landings: &[Square], jumped: &[Square]) -> Move {
        debug_assert!(!landings.is_empty() && landings.len() == jumped.len());
        let mut extra = [Square::default(); MAX_JUMPS];
        extra[..jumped.len()].copy_from_slice(jumped);
        Move::with_landings(from, landings, extra)
    }

    /// Squares jumped, in order (empty for a quiet move).
    #[inline]
    pub fn jumped(&self) -> &[Square] {
        if self.capture {
            &self.extra[..self.len as usize]
        } else {
            &[]
        }
    }
}

impl<S: BoardSquare, const N: usize, X: Copy + Default> fmt::Display for MoveOf<S, N, X> {
    /// `c3-d4` for a quiet move, `c3:e5:g7` for a capture.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { ':' } else { '-' };
        write!(f, "{}", self.from)?;
        for sq in self.landings() {
            write!(f, "{sep}{sq}")?;
        }
        Ok(())
    }
}

/// Capacity of a move list before it moves to the heap.
pub const INLINE_MOVES: usize = 128;

/// A list of moves: inline up to [`INLINE_MOVES`], on the heap beyond (positions with many
/// flying-king capture paths can exceed any small fixed bound, and none may be lost).
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // inline storage is the point
pub enum MoveList {
    /// The usual case.
    Inline(ArrayVec<Move, INLINE_MOVES>),
    /// Overflowed.
    Heap(Vec<Move>),
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList::Inline(ArrayVec::new())
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        match self {
            MoveList::Inline(v) => {
                if let Err(e) = v.try_push(m) {
                    let mut heap: Vec<Move> = v.to_vec();
                    heap.push(e.element());
                    *self = MoveList::Heap(heap);
                }
            }
            MoveList::Heap(v) => v.push(m),
        }
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        *self = MoveList::new();
    }

    /// Keeps the first `len` moves (all of them if there are no more).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        match self {
            MoveList::Inline(v) => v.truncate(len),
            MoveList::Heap(v) => v.truncate(len),
        }
    }

    /// Mutable access to the moves (for ordering).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        match self {
            MoveList::Inline(v) => v.as_mut_slice(),
            MoveList::Heap(v) => v.as_mut_slice(),
        }
    }

    /// Keeps only moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        match self {
            MoveList::Inline(v) => v.retain(|m| f(m)),
            MoveList::Heap(v) => v.retain(|m| f(m)),
        }
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        match self {
            MoveList::Inline(v) => v.as_slice(),
            MoveList::Heap(v) => v.as_slice(),
        }
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl crate::games::kit::rules::MoveBuf<Move> for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_overflows_to_heap_without_loss() {
        let a = Square::parse("a1").unwrap();
        let b = Square::parse("b2").unwrap();
        let mut l = MoveList::new();
        for _ in 0..INLINE_MOVES + 5 {
            l.push(Move::quiet(a, b));
        }
        assert_eq!(l.len(), INLINE_MOVES + 5);
        assert!(matches!(l, MoveList::Heap(_)));
    }

    #[test]
    fn display_and_key() {
        let sq = |s| Square::parse(s).unwrap();
        let q = Move::quiet(sq("c3"), sq("d4"));
        assert_eq!(q.to_string(), "c3-d4");
        let c = Move::capture(sq("c3"), &[sq("e5"), sq("g7")], &[sq("d4"), sq("f6")]);
        assert_eq!(c.to_string(), "c3:e5:g7");
        assert_eq!(c.jumped().len(), 2);
        assert_ne!(q.key(), c.key());
    }
}
