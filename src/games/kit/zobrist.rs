//! Hashing of positions over tower contents.
//!
//! A square's contribution is a 64-bit mix of its packed tower and a per-square seed, so any
//! tower of any height hashes in O(1) and a move only re-hashes the squares it touched. An empty
//! square contributes 0; the side to move is one more key.

use crate::games::kit::square::{NUM_BITS, Square};
use crate::games::kit::tower::Tower;

/// XORed in when Black is to move.
pub const SIDE_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

const fn build_seeds() -> [u64; NUM_BITS] {
    let mut s = [0u64; NUM_BITS];
    let mut i = 0;
    while i < NUM_BITS {
        s[i] = splitmix(0x1234_5678 + i as u64 * 0x1_0000_0001);
        i += 1;
    }
    s
}

const SEEDS: [u64; NUM_BITS] = build_seeds();

/// Hash contribution of `tower` standing on `sq` (0 when empty).
#[inline]
pub fn tower_key(sq: Square, tower: Tower) -> u64 {
    if tower.is_empty() {
        0
    } else {
        splitmix(tower.raw() ^ SEEDS[sq.index()])
    }
}
