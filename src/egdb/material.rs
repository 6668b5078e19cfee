//! Material signatures and the index of a position within its signature's table.
//!
//! A table holds the positions of one signature with White to move (a position with Black to
//! move is looked up turned half round, [`Layout::canonical`]): the side to move is "us". The
//! index places, in this order, our men on the squares a man of ours may stand on, their men
//! likewise (a slot where they share a square with ours holds no position), then our kings on
//! the squares the men left free and their kings on those still free, each group ranked by
//! the combinatorial number system.

use super::game::{EgdbGame, Layout};
use crate::games::kit::Color;
use std::fmt;

/// Men and kings of the side to move ("us") and of the other side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Signature {
    /// Our men and kings.
    pub us: Side,
    /// Their men and kings.
    pub them: Side,
}

/// One side's material.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Side {
    /// Kings.
    pub kings: u8,
    /// Men.
    pub men: u8,
}

impl Side {
    fn pieces(self) -> u32 {
        u32::from(self.kings) + u32::from(self.men)
    }
}

/// Why a material signature was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignatureError {
    /// Not of the form `KKMvK`: kings `K` and men `M` of the side to move, `v`, the other's.
    Syntax(String),
    /// A side without pieces: the game is over, there is nothing to store.
    EmptySide(String),
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SignatureError::Syntax(s) => write!(
                f,
                "material {s:?}: expected kings K and men M of the side to move, v, then the other side's (e.g. KKMvK)"
            ),
            SignatureError::EmptySide(s) => write!(f, "material {s:?}: each side needs a piece"),
        }
    }
}

impl std::error::Error for SignatureError {}

impl Signature {
    /// The signature of a layout's pieces, seen from the side to move.
    pub fn of(layout: &Layout) -> Signature {
        let side = |c: Color| Side {
            kings: layout.kings[c.index()].count_ones() as u8,
            men: layout.men[c.index()].count_ones() as u8,
        };
        Signature {
            us: side(layout.side),
            them: side(layout.side.opponent()),
        }
    }

    /// The same material with the other side to move.
    pub fn swapped(self) -> Signature {
        Signature {
            us: self.them,
            them: self.us,
        }
    }

    /// Pieces on the board.
    pub fn pieces(self) -> u32 {
        self.us.pieces() + self.them.pieces()
    }

    /// Men on the board.
    pub fn men(self) -> u32 {
        u32::from(self.us.men) + u32::from(self.them.men)
    }

    /// Every signature of `min..=max` pieces with a piece on each side, fewest pieces first.
    pub fn all(min: u32, max: u32) -> Vec<Signature> {
        let mut out = Vec::new();
        for n in min.max(2)..=max {
            for us in 1..n {
                for uk in 0..=us {
                    for tk in 0..=(n - us) {
                        out.push(Signature {
                            us: Side {
                                kings: uk as u8,
                                men: (us - uk) as u8,
                            },
                            them: Side {
                                kings: tk as u8,
                                men: (n - us - tk) as u8,
                            },
                        });
                    }
                }
            }
        }
        out
    }

    /// Reads `KKMvK`.
    pub fn parse(text: &str) -> Result<Signature, SignatureError> {
        let syntax = || SignatureError::Syntax(text.to_string());
        let (a, b) = text.split_once(['v', 'V']).ok_or_else(syntax)?;
        let side = |s: &str| -> Result<Side, SignatureError> {
            let mut side = Side::default();
            for ch in s.chars() {
                match ch {
                    'K' | 'k' => side.kings = side.kings.checked_add(1).ok_or_else(syntax)?,
                    'M' | 'm' => side.men = side.men.checked_add(1).ok_or_else(syntax)?,
                    _ => return Err(syntax()),
                }
            }
            Ok(side)
        };
        let sig = Signature {
            us: side(a)?,
            them: side(b)?,
        };
        if sig.us.pieces() == 0 || sig.them.pieces() == 0 {
            return Err(SignatureError::EmptySide(text.to_string()));
        }
        Ok(sig)
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let side = |s: Side| "K".repeat(s.kings as usize) + &"M".repeat(s.men as usize);
        write!(f, "{}v{}", side(self.us), side(self.them))
    }
}

/// Binomial coefficients up to 64 choose 64.
struct Binomials([[u64; 65]; 65]);

const BINOMIALS: Binomials = {
    let mut t = [[0u64; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    Binomials(t)
};

fn choose(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOMIALS.0[n as usize][k as usize]
    }
}

/// Rank of the set `chosen` (a subset of `within`) among the subsets of `within` of its size.
fn rank(chosen: u64, within: u64) -> u64 {
    let mut r = 0;
    let mut i = 1;
    let mut set = chosen;
    while set != 0 {
        let sq = set.trailing_zeros();
        let below = within & ((1u64 << sq) - 1);
        r += choose(below.count_ones(), i);
        i += 1;
        set &= set - 1;
    }
    r
}

/// The subset of `within` of size `k` whose rank is `r`.
fn unrank(mut r: u64, k: u32, within: u64) -> u64 {
    let mut out = 0u64;
    // `rest`: the squares of `within` below the last one chosen, `top` of them.
    let mut rest = within;
    let mut top = within.count_ones();
    for i in (1..=k).rev() {
        // The largest position p < top with C(p, i) <= r.
        let mut p = top - 1;
        while choose(p, i) > r {
            p -= 1;
        }
        r -= choose(p, i);
        // Drop the squares above the p-th of `rest`; the highest one left is it.
        for _ in p + 1..top {
            rest &= !(1u64 << (63 - rest.leading_zeros()));
        }
        let sq = 63 - rest.leading_zeros();
        out |= 1u64 << sq;
        rest &= !(1u64 << sq);
        top = p;
    }
    out
}

/// The index of one signature's table for a game of `squares` squares.
#[derive(Clone, Copy, Debug)]
pub struct Indexer {
    sig: Signature,
    all: u64,
    man_squares: [u64; 2],
    sizes: [u64; 4],
}

impl Indexer {
    /// The index of `sig` on a board of `squares` squares where a man of White (us) may stand
    /// on `man_squares[0]` and one of Black on `man_squares[1]`.
    pub fn new(sig: Signature, squares: usize, man_squares: [u64; 2]) -> Indexer {
        let all = if squares == 64 {
            u64::MAX
        } else {
            (1u64 << squares) - 1
        };
        let n = squares as u32;
        let men = sig.men();
        let sizes = [
            choose(man_squares[0].count_ones(), sig.us.men.into()),
            choose(man_squares[1].count_ones(), sig.them.men.into()),
            choose(n - men, sig.us.kings.into()),
            choose(n - men - u32::from(sig.us.kings), sig.them.kings.into()),
        ];
        Indexer {
            sig,
            all,
            man_squares,
            sizes,
        }
    }

    /// Slots of the table (some hold no position: men of both sides on one square).
    pub fn size(&self) -> u64 {
        self.sizes.iter().product()
    }

    /// The signature indexed.
    pub fn signature(&self) -> Signature {
        self.sig
    }

    /// The slot of a layout with White to move of this signature.
    pub fn index(&self, l: &Layout) -> u64 {
        let men = l.men[0] | l.men[1];
        let free = self.all & !men;
        let parts = [
            rank(l.men[0], self.man_squares[0]),
            rank(l.men[1], self.man_squares[1]),
            rank(l.kings[0], free),
            rank(l.kings[1], free & !l.kings[0]),
        ];
        parts
            .iter()
            .zip(&self.sizes)
            .fold(0, |acc, (&p, &s)| acc * s + p)
    }

    /// Men configurations: the men's part of a slot, `slot / king_slots()`.
    pub fn men_configs(&self) -> u64 {
        self.sizes[0] * self.sizes[1]
    }

    /// Slots of one men configuration: the kings' part of a slot, `slot % king_slots()`.
    /// The slots of one men configuration are contiguous.
    pub fn king_slots(&self) -> u64 {
        self.sizes[2] * self.sizes[3]
    }

    /// The men (ours, theirs) of men configuration `config`, or `None` if they share a
    /// square (then none of its slots holds a position).
    pub fn men(&self, config: u64) -> Option<[u64; 2]> {
        let wm = unrank(
            config / self.sizes[1],
            self.sig.us.men.into(),
            self.man_squares[0],
        );
        let bm = unrank(
            config % self.sizes[1],
            self.sig.them.men.into(),
            self.man_squares[1],
        );
        (wm & bm == 0).then_some([wm, bm])
    }

    /// The men configuration of the men (ours, theirs) `men`: the inverse of
    /// [`Indexer::men`].
    pub fn men_config(&self, men: [u64; 2]) -> u64 {
        rank(men[0], self.man_squares[0]) * self.sizes[1] + rank(men[1], self.man_squares[1])
    }

    /// The kings' part of a slot whose kings (ours, theirs) are `kings` and whose men leave
    /// the squares `free` (a superset of the kings' squares will do): `slot % king_slots()`.
    pub fn king_part(&self, kings: [u64; 2], free: u64) -> u64 {
        let free = free & self.all;
        rank(kings[0], free) * self.sizes[3] + rank(kings[1], free & !kings[0])
    }

    /// The layout (White to move) of the men `men` ([`Indexer::men`]) and the kings' part
    /// `kings` of a slot.
    pub fn with_kings(&self, men: [u64; 2], kings: u64) -> Layout {
        let free = self.all & !(men[0] | men[1]);
        let wk = unrank(kings / self.sizes[3], self.sig.us.kings.into(), free);
        let bk = unrank(
            kings % self.sizes[3],
            self.sig.them.kings.into(),
            free & !wk,
        );
        Layout {
            men,
            kings: [wk, bk],
            side: Color::White,
        }
    }

    /// The layout (White to move) of a slot, or `None` for a slot that holds no position.
    pub fn layout(&self, index: u64) -> Option<Layout> {
        let ks = self.king_slots();
        let men = self.men(index / ks)?;
        Some(self.with_kings(men, index % ks))
    }
}

/// The index of `sig` in game `G`.
pub fn indexer<G: EgdbGame>(sig: Signature) -> Indexer {
    Indexer::new(
        sig,
        G::SQUARES,
        [G::man_squares(Color::White), G::man_squares(Color::Black)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_read_and_write() {
        let s = Signature::parse("KKMvK").unwrap();
        assert_eq!(s.to_string(), "KKMvK");
        assert_eq!(s.swapped().to_string(), "KvKKM");
        assert!(Signature::parse("KKx").is_err());
        assert!(Signature::parse("vK").is_err());
        assert_eq!(Signature::all(2, 2).len(), 4);
    }

    #[test]
    fn every_slot_ranks_back_to_itself() {
        for sig in Signature::all(2, 3) {
            let ix = Indexer::new(sig, 32, [0x0FFF_FFFF, 0xFFFF_FFF0]);
            let mut holes = 0;
            for i in 0..ix.size() {
                match ix.layout(i) {
                    Some(l) => {
                        assert_eq!(ix.index(&l), i, "{sig} {i}");
                        assert_eq!(Signature::of(&l), sig);
                    }
                    None => holes += 1,
                }
            }
            assert!(holes < ix.size(), "{sig}");
        }
    }
}
