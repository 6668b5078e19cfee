//! Masks and numberings of the 32 dark squares that evaluations look at: the centre, the
//! back ranks, the long diagonal, the passed-man cones, piece-square numbering, how far a
//! man has advanced. Bashni's and Russian draughts' evaluations share them.

use crate::games::kit::color::Color;
use crate::games::kit::square::{NUM_BITS, Square};

const fn build_center() -> u64 {
    let mut b = 0u64;
    let mut r = 2;
    while r <= 5 {
        let mut f = 2;
        while f <= 5 {
            if let Some(sq) = Square::from_coords(f, r) {
                b |= sq.bit();
            }
            f += 1;
        }
        r += 1;
    }
    b
}

/// The four central squares of each of ranks 3 to 6 (files c to f).
pub const CENTER_MASK: u64 = build_center();

const fn rank_mask(rank: u8) -> u64 {
    let mut b = 0u64;
    let mut f = 0;
    while f < 8 {
        if let Some(sq) = Square::from_coords(f, rank) {
            b |= sq.bit();
        }
        f += 1;
    }
    b
}

/// Each side's back rank (White: rank 1, Black: rank 8).
pub const BACK_RANK_MASK: [u64; 2] = [rank_mask(0), rank_mask(7)];

const fn build_long_diagonal() -> u64 {
    let mut b = 0u64;
    let mut i = 0;
    while i < 8 {
        if let Some(sq) = Square::from_coords(i, i) {
            b |= sq.bit();
        }
        i += 1;
    }
    b
}

/// The long diagonal a1-h8.
pub const LONG_DIAGONAL_MASK: u64 = build_long_diagonal();

/// Per colour and square bit index: the squares in front of a man there that an enemy could
/// stop it from (the cone widening by one file each rank towards its far rank).
const fn build_cones() -> [[u64; NUM_BITS]; 2] {
    let mut out = [[0u64; NUM_BITS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut rank = 0u8;
        while rank < 8 {
            let mut file = 0u8;
            while file < 8 {
                if let Some(sq) = Square::from_coords(file, rank) {
                    let mut cone = 0u64;
                    let mut step = 1i32;
                    while step < 8 {
                        let r = if c == 0 {
                            rank as i32 + step
                        } else {
                            rank as i32 - step
                        };
                        if r < 0 || r > 7 {
                            break;
                        }
                        let mut f = file as i32 - step;
                        while f <= file as i32 + step {
                            if f >= 0
                                && f <= 7
                                && let Some(s) = Square::from_coords(f as u8, r as u8)
                            {
                                cone |= s.bit();
                            }
                            f += 1;
                        }
                        step += 1;
                    }
                    out[c][sq.index()] = cone;
                }
                file += 1;
            }
            rank += 1;
        }
        c += 1;
    }
    out
}

pub const CONES: [[u64; NUM_BITS]; 2] = build_cones();

/// Per colour and square bit index: the square's number 0..32 seen from that side (0 = its
/// own a1 corner), for piece-square features. Black sees the board turned half round.
const fn build_pst_index() -> [[u8; NUM_BITS]; 2] {
    let mut out = [[0u8; NUM_BITS]; 2];
    let mut rank = 0u8;
    while rank < 8 {
        let mut file = 0u8;
        while file < 8 {
            if let Some(sq) = Square::from_coords(file, rank) {
                out[0][sq.index()] = rank * 4 + file / 2;
                out[1][sq.index()] = (7 - rank) * 4 + (7 - file) / 2;
            }
            file += 1;
        }
        rank += 1;
    }
    out
}

pub const PST_INDEX: [[u8; NUM_BITS]; 2] = build_pst_index();

/// Ranks a man of `c` on `sq` has advanced from its own side.
#[inline]
pub fn advanced(c: Color, sq: Square) -> usize {
    if c == Color::White {
        sq.rank() as usize
    } else {
        7 - sq.rank() as usize
    }
}
