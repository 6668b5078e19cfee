//! A move list for any move type: inline up to [`INLINE_MOVES`], on the heap beyond (flying
//! kings can have more capture paths than any small fixed bound, and none may be lost).
//! Bashni keeps its own `crate::games::bashni::MoveList`, unchanged.

use arrayvec::ArrayVec;
use std::ops::{Deref, DerefMut};

/// Capacity before the list moves to the heap.
pub const INLINE_MOVES: usize = 128;

/// A list of moves of type `M`.
#[derive(Clone, Debug)]
pub enum MoveList<M> {
    /// The usual case.
    Inline(ArrayVec<M, INLINE_MOVES>),
    /// Overflowed.
    Heap(Vec<M>),
}

impl<M> Default for MoveList<M> {
    fn default() -> Self {
        MoveList::Inline(ArrayVec::new())
    }
}

impl<M: Clone> MoveList<M> {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList<M> {
        MoveList::default()
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: M) {
        match self {
            MoveList::Inline(v) => {
                if let Err(e) = v.try_push(m) {
                    let mut heap: Vec<M> = v.to_vec();
                    heap.push(e.element());
                    *self = MoveList::Heap(heap);
                }
            }
            MoveList::Heap(v) => v.push(m),
        }
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        *self = MoveList::default();
    }
}

impl<M> Deref for MoveList<M> {
    type Target = [M];
    #[inline]
    fn deref(&self) -> &[M] {
        match self {
            MoveList::Inline(v) => v.as_slice(),
            MoveList::Heap(v) => v.as_slice(),
        }
    }
}

impl<M> DerefMut for MoveList<M> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [M] {
        match self {
            MoveList::Inline(v) => v.as_mut_slice(),
            MoveList::Heap(v) => v.as_mut_slice(),
        }
    }
}

impl<M: Clone + Send> super::rules::MoveBuf<M> for MoveList<M> {
    #[inline]
    fn push(&mut self, m: M) {
        MoveList::push(self, m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflows_to_the_heap_without_loss() {
        let mut l = MoveList::new();
        for i in 0..INLINE_MOVES + 3 {
            l.push(i);
        }
        assert_eq!(l.len(), INLINE_MOVES + 3);
        assert_eq!(l[INLINE_MOVES + 2], INLINE_MOVES + 2);
        assert!(matches!(l, MoveList::Heap(_)));
        l.clear();
        assert!(l.is_empty());
    }
}
