//! Which positions the search threads are searching now, so that a thread can leave a move
//! that another one is already searching for later and search a different subtree first
//! (simplified ABDADA, Tom Kerrigan's refinement of Weill's ABDADA): with Lazy SMP alone the
//! threads walk the same tree in the same order and duplicate much of their work. When a
//! thread comes back to the deferred move, the other has usually stored its result in the
//! table.
//!
//! One slot per hash bucket, each the hash of a position being searched (0: free). A
//! collision only makes a thread defer a move it need not have deferred, or not defer one it
//! could have: never a wrong score, as nothing is read back but "busy or not".

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots: 2^15 of 8 bytes, 256 KiB, a few times more than the nodes deep enough to be
/// marked that a handful of threads can be inside at once.
const SLOTS: usize = 1 << 15;

/// The positions being searched now by some thread.
pub(super) struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    /// An empty table.
    pub fn new() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, hash: u64) -> &AtomicU64 {
        &self.slots[hash as usize & (SLOTS - 1)]
    }

    /// Whether another thread is searching the position `hash` now.
    #[inline]
    pub fn is_busy(&self, hash: u64) -> bool {
        self.slot(hash).load(Ordering::Relaxed) == hash
    }

    /// Marks `hash` as being searched.
    #[inline]
    pub fn enter(&self, hash: u64) {
        self.slot(hash).store(hash, Ordering::Relaxed);
    }

    /// Clears the mark of `hash`, unless the slot was taken over by another position since.
    #[inline]
    pub fn leave(&self, hash: u64) {
        let _ = self
            .slot(hash)
            .compare_exchange(hash, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_lasts_from_enter_to_leave_and_a_collision_does_not_clear_it() {
        let busy = Busy::new();
        let (a, b) = (0x1234_5678_9abc_0001u64, 0x0fed_cba9_8765_0001u64);
        assert!(!busy.is_busy(a));
        busy.enter(a);
        assert!(busy.is_busy(a));
        // `b` shares `a`'s slot; leaving `b` while `a` holds it leaves `a` marked.
        busy.leave(b);
        assert!(busy.is_busy(a));
        busy.leave(a);
        assert!(!busy.is_busy(a));
    }
}
