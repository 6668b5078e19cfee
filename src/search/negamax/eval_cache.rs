//! The per-thread cache of static evaluations.

/// A thread's last static evaluations by position hash, so that a position the search meets
/// again (a re-search, a transposition, the next iteration) is not evaluated again. The
/// evaluation is a function of what the hash covers (pieces and side to move), so a hit
/// returns exactly what evaluating would.
pub(super) struct EvalCache {
    slots: Vec<(u64, i32)>,
    /// `slots.len() - 1` (the length is a power of two).
    mask: usize,
}

impl EvalCache {
    /// Most slots: 64 Ki of 16 bytes, 1 MiB, half this CPU's level-2 cache.
    const SLOTS: usize = 1 << 16;
    /// Fewest slots.
    const MIN_SLOTS: usize = 1 << 10;

    /// A cache for a search of at most `nodes` nodes (`None`: unbounded). A small search
    /// (self-play data is made at a few thousand nodes a move) gets a small cache: filling
    /// 1 MiB for every move cost more than the cache saved. A hit returns exactly what
    /// evaluating would, so the size changes the speed, never the search.
    pub(super) fn new(nodes: Option<u64>) -> EvalCache {
        let wanted = nodes.map_or(Self::SLOTS as u64, |n| n.saturating_mul(2));
        let len = (wanted.min(Self::SLOTS as u64) as usize)
            .next_power_of_two()
            .clamp(Self::MIN_SLOTS, Self::SLOTS);
        // Key 0 with its slot 0 could be taken for a stored entry; no position hashes to 0
        // in practice, and a slot is only read back when its key matches in full.
        EvalCache {
            slots: vec![(u64::MAX, 0); len],
            mask: len - 1,
        }
    }

    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<i32> {
        let (k, v) = self.slots[key as usize & self.mask];
        (k == key).then_some(v)
    }

    #[inline]
    pub(super) fn put(&mut self, key: u64, eval: i32) {
        self.slots[key as usize & self.mask] = (key, eval);
    }
}
