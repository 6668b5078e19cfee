//! Evaluation terms that the games on the 32 dark squares count alike (Bashni's commanders,
//! Russian draughts' pieces): the men's advancement, passed men, back rank and steps, and the
//! kings' steps, diagonal reach and long diagonal. Each game names its own feature indices
//! (its `groups!` table), so these take them as arguments.

use super::bitboard::Bitboard;
use super::color::Color;
use super::linear::Sink;
use super::masks::{BACK_RANK_MASK, CONES, LONG_DIAGONAL_MASK, advanced};
use super::sets::forward;
use super::square::{Direction, Square};

/// Where a game's men terms are in its feature table.
#[derive(Clone, Copy, Debug)]
pub struct MenTerms {
    /// First of 8 features: men by ranks advanced from their own side.
    pub advance: usize,
    /// First of 8 features: passed men by ranks advanced.
    pub passed: usize,
    /// Men on their own back rank.
    pub back_rank: usize,
    /// The men's quiet steps forward.
    pub mobility: usize,
}

/// Where a game's king terms are in its feature table.
#[derive(Clone, Copy, Debug)]
pub struct KingTerms {
    /// The kings' single steps.
    pub mobility: usize,
    /// Squares the kings can slide to along whole diagonals.
    pub rays: usize,
    /// Kings on the long diagonal a1-h8.
    pub long_diagonal: usize,
}

/// Counts the men `men` of `c`: each by ranks advanced, passed when no square of `blockers`
/// is in its cone, and `per_man` (a game's own per-square term) between the two; then those
/// on the back rank and their free steps forward.
#[inline(always)]
pub fn men<S: Sink>(
    c: Color,
    men: Bitboard,
    blockers: u64,
    empty: Bitboard,
    t: MenTerms,
    sink: &mut S,
    mut per_man: impl FnMut(Square, &mut S),
) {
    for sq in men {
        let a = advanced(c, sq);
        sink.add(c, t.advance + a, 1);
        per_man(sq, sink);
        if CONES[c.index()][sq.index()] & blockers == 0 {
            sink.add(c, t.passed + a, 1);
        }
    }
    sink.add(
        c,
        t.back_rank,
        (men & Bitboard(BACK_RANK_MASK[c.index()])).count() as i32,
    );
    let mut steps = 0;
    for dir in forward(c) {
        steps += (men.shift(dir) & empty).count() as i32;
    }
    sink.add(c, t.mobility, steps);
}

/// Counts the kings `kings` of `c` (not empty): their single steps, every square they can
/// slide to along whole diagonals, and those on the long diagonal.
#[inline(always)]
pub fn kings<S: Sink>(c: Color, kings: Bitboard, empty: Bitboard, t: KingTerms, sink: &mut S) {
    let mut steps = 0;
    let mut reach = 0;
    for dir in Direction::ALL {
        let mut x = kings.shift(dir) & empty;
        steps += x.count() as i32;
        while !x.is_empty() {
            reach += x.count() as i32;
            x = x.shift(dir) & empty;
        }
    }
    sink.add(c, t.mobility, steps);
    sink.add(c, t.rays, reach);
    sink.add(
        c,
        t.long_diagonal,
        (kings & Bitboard(LONG_DIAGONAL_MASK)).count() as i32,
    );
}

/// `const MEN: MenTerms` and `const KINGS: KingTerms` at the features of the invoking
/// module's `groups!` table that bear the names every such game gives them (`ADVANCE`,
/// `PASSED`, `BACK_RANK`, `MOBILITY`, `KING_RAYS`, `LONG_DIAGONAL`).
macro_rules! terms_at_groups {
    () => {
        /// Where the men terms the kit counts are in [`GROUPS`].
        const MEN: $crate::games::kit::terms::MenTerms = $crate::games::kit::terms::MenTerms {
            advance: ADVANCE,
            passed: PASSED,
            back_rank: BACK_RANK,
            mobility: MOBILITY,
        };

        /// Where the king terms the kit counts are in [`GROUPS`].
        const KINGS: $crate::games::kit::terms::KingTerms = $crate::games::kit::terms::KingTerms {
            mobility: MOBILITY,
            rays: KING_RAYS,
            long_diagonal: LONG_DIAGONAL,
        };
    };
}
pub(crate) use terms_at_groups;
