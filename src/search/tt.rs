//! The transposition table shared by all search threads.
//!
//! Lock-free: each slot is two `AtomicU64`s, the data and the key XOR the data. A reader
//! accepts a slot only if `key_xor ^ data` equals its hash, so an entry torn by a concurrent
//! write (data from one store, key from another) is rejected instead of being trusted.
//! Four slots make a bucket, one cache line aligned to one, so that a probe costs one
//! memory access; the search asks for a child's bucket ([`TranspositionTable::prefetch`])
//! as soon as it has made the move, before the evaluation's update, so that the access
//! overlaps that work. Replacement prefers the same position, then the shallowest or oldest
//! entry.

use std::fmt;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Kind of bound a stored score is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at most this.
    Upper = 1,
    /// The true score is at least this.
    Lower = 2,
    /// Exact score.
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// [`Move::key`] of the best move found (0 if none).
    pub move_key: u32,
    /// Score, adjusted to be relative to this position (see `search::to_tt`).
    pub score: i16,
    /// Remaining depth searched (at most [`MAX_STORED_DEPTH`]).
    pub depth: u8,
    /// Whether the whole subtree was searched without reductions or pruning (a node whose
    /// window only a win or a loss could settle): a bound that holds even where a
    /// heuristic one proves nothing.
    pub proof: bool,
    /// Bound type.
    pub bound: Bound,
}

const SLOTS: usize = 4;

/// Deepest remaining depth an entry records (seven bits; the eighth is [`Entry::proof`]). No
/// search goes deeper: [`super::MAX_DEPTH`] is below it and extensions do not add to a
/// node's remaining depth beyond the root's.
pub const MAX_STORED_DEPTH: u8 = 127;
const _: () = assert!(super::MAX_DEPTH < MAX_STORED_DEPTH as u32);

#[derive(Default)]
struct Slot {
    key_xor: AtomicU64,
    data: AtomicU64,
}

/// One bucket: a cache line, aligned to one (a `Vec<Slot>` of a large table starts 16 bytes
/// past a page, so every bucket straddled two lines).
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Slot; SLOTS]);
const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

fn pack(e: &Entry, age: u8) -> u64 {
    e.move_key as u64
        | (e.score as u16 as u64) << 32
        | ((e.depth.min(MAX_STORED_DEPTH) as u64) << 48)
        | (e.proof as u64) << 55
        | (e.bound as u64) << 56
        | ((age & 63) as u64) << 58
}

fn unpack(d: u64) -> Option<(Entry, u8)> {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let e = Entry {
        move_key: d as u32,
        score: (d >> 32) as u16 as i16,
        depth: (d >> 48) as u8 & MAX_STORED_DEPTH,
        proof: (d >> 55) & 1 == 1,
        bound,
    };
    Some((e, (d >> 58) as u8))
}

/// A table size whose memory cannot be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The size asked for, MiB.
    pub mib: usize,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot allocate a {} MiB hash table: not enough memory",
            self.mib
        )
    }
}

impl std::error::Error for TableError {}

/// Asks Linux to back the reserved, not yet touched capacity of `buckets` with 2 MiB pages
/// where they fit whole (transparent huge pages, where the system has them "on request"):
/// every probe is a random access, and with 4 KiB pages almost each one also missed the
/// address-translation cache (measured: 1 to 4 % more nodes a second with the default
/// 16 MiB table, 2026-11-27). Nothing changes if the request is refused.
fn ask_for_huge_pages(buckets: &mut Vec<Bucket>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = buckets.as_mut_ptr() as usize;
        let end = start + buckets.capacity() * std::mem::size_of::<Bucket>();
        let first = start.next_multiple_of(HUGE);
        let last = end / HUGE * HUGE;
        if last > first {
            // SAFETY: `first..last` lies inside `buckets`' own allocation, which nothing else
            // references; MADV_HUGEPAGE changes only which pages the kernel backs it with,
            // never its contents, its address or whether it may be accessed, so no Rust
            // reference or value is affected whatever the call returns (a refusal is fine).
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buckets;
}

/// The table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mib` MiB (at least one bucket). The memory is reserved fallibly: a
    /// size that cannot be had is an error, not an abort.
    pub fn new(mib: usize) -> Result<TranspositionTable, TableError> {
        let err = TableError { mib };
        let bytes = mib.max(1).checked_mul(1024 * 1024).ok_or(err)?;
        Self::with_buckets((bytes / std::mem::size_of::<Bucket>()).max(1)).ok_or(err)
    }

    /// The smallest table: one bucket.
    pub fn smallest() -> TranspositionTable {
        Self::with_buckets(1).expect("one bucket is 64 bytes")
    }

    fn with_buckets(count: usize) -> Option<TranspositionTable> {
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).ok()?;
        ask_for_huge_pages(&mut buckets);
        buckets.resize_with(count, Bucket::default);
        Some(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    /// Size in MiB.
    pub fn size_mib(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    fn slots(&self) -> impl Iterator<Item = &Slot> {
        self.buckets.iter().flat_map(|b| &b.0)
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in self.slots() {
            s.key_xor.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation (older entries become preferred victims).
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store(a.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, hash: u64) -> &[Slot; SLOTS] {
        let i = ((hash as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i].0
    }

    /// Asks the processor to bring `hash`'s bucket into the cache (a hint: it changes no
    /// result, only when the later probe's memory arrives).
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let line: *const Bucket = self.bucket(hash).as_ptr().cast();
            // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has; a prefetch
            // never faults and never writes, and `line` points into the table in any case.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The entry for `hash`, if present and intact.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        for s in self.bucket(hash) {
            let d = s.data.load(Ordering::Relaxed);
            let k = s.key_xor.load(Ordering::Relaxed);
            if k ^ d == hash
                && let Some((e, _)) = unpack(d)
            {
                return Some(e);
            }
        }
        None
    }

    /// Stores an entry for `hash`.
    pub fn store(&self, hash: u64, entry: Entry) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(hash);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let d = s.data.load(Ordering::Relaxed);
            let k = s.key_xor.load(Ordering::Relaxed);
            let Some((old, old_age)) = unpack(d) else {
                victim = i;
                break;
            };
            if k ^ d == hash {
                // Same position: keep a deeper entry of this search unless the new one is exact.
                if old.depth > entry.depth + 2 && old_age == age && entry.bound != Bound::Exact {
                    return;
                }
                let mut e = entry;
                if e.move_key == 0 {
                    e.move_key = old.move_key;
                }
                let data = pack(&e, age);
                s.data.store(data, Ordering::Relaxed);
                s.key_xor.store(hash ^ data, Ordering::Relaxed);
                return;
            }
            let stale = (age.wrapping_sub(old_age) & 63) as i32;
            let value = old.depth as i32 - 8 * stale;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let data = pack(&entry, age);
        bucket[victim].data.store(data, Ordering::Relaxed);
        bucket[victim].key_xor.store(hash ^ data, Ordering::Relaxed);
    }

    /// Per-mille of sampled slots used by the current search generation: the first 1,000
    /// slots, as Stockfish samples (every search's info line computes it, so a larger sample
    /// costs every short search, as datagen's are).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = (self.buckets.len() * SLOTS).min(1000);
        let used = self
            .slots()
            .take(n)
            .filter(|s| matches!(unpack(s.data.load(Ordering::Relaxed)), Some((_, a)) if a == age))
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe() {
        let tt = TranspositionTable::new(1).unwrap();
        let e = Entry {
            move_key: 77,
            score: -1234,
            depth: 9,
            proof: true,
            bound: Bound::Lower,
        };
        tt.store(0xdead_beef_1234_5678, e);
        assert_eq!(tt.probe(0xdead_beef_1234_5678), Some(e));
        assert_eq!(tt.probe(0x1111), None);
        assert!(tt.hashfull() <= 1);
        tt.clear();
        assert_eq!(tt.probe(0xdead_beef_1234_5678), None);
    }

    #[test]
    fn the_proof_flag_survives_and_depth_is_capped() {
        let tt = TranspositionTable::new(1).unwrap();
        for (depth, proof) in [(0, true), (127, true), (127, false), (200, false)] {
            let e = Entry {
                move_key: 5,
                score: 300,
                depth,
                proof,
                bound: Bound::Exact,
            };
            tt.store(42, e);
            let back = tt.probe(42).unwrap();
            assert_eq!(back.proof, proof);
            assert_eq!(back.depth, depth.min(MAX_STORED_DEPTH));
            tt.clear();
        }
    }

    #[test]
    fn every_bucket_is_one_cache_line() {
        let tt = TranspositionTable::new(4).unwrap();
        assert!(
            tt.buckets
                .iter()
                .all(|b| (b as *const Bucket as usize).is_multiple_of(64))
        );
        assert_eq!(tt.size_mib(), 4);
        tt.prefetch(42); // a hint only: the table reads the same after it
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn impossible_sizes_are_errors() {
        for mib in [usize::MAX, usize::MAX / (1024 * 1024), 1 << 40] {
            // black_box: a table that is made and dropped unseen may have its allocation
            // optimised away (LLVM may elide an unused allocation and take it as granted).
            let made = std::hint::black_box(TranspositionTable::new(std::hint::black_box(mib)));
            assert_eq!(made.err(), Some(TableError { mib }));
        }
        assert_eq!(TranspositionTable::smallest().size_mib(), 0);
    }
}
