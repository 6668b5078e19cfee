//! Network inputs of a board of towers (Bashni and Lasca): one input per (square, kind of
//! tower) from each side's view, the kind being the commander (own or enemy, man or king)
//! and how many own and enemy pieces stand under it (0, 1, 2, 3 or more of each). A move's
//! changes are the touched squares whose towers differ before and after it.

use crate::games::kit::color::Color;
use crate::games::kit::tower::Tower;
use arrayvec::ArrayVec;

/// Kinds of tower an input tells apart on one square: 4 commanders x 4 own-below counts x 4
/// enemy-below counts. (Telling apart also whose piece is directly under the commander, 192
/// kinds, played no better in Bashni and made the first layer three times as large: slower.)
pub const KINDS: usize = 4 * 4 * 4;

/// Bits of a tower's packed pieces that hold colours (bit 0 of each 2-bit piece, 24 pieces).
const COLOUR_BITS: u64 = 0x5555_5555_5555;

/// Black pieces under the commander.
#[inline]
pub fn black_below(tower: Tower) -> u32 {
    ((tower.raw() >> 2) & COLOUR_BITS & ((1u64 << (2 * (tower.height() - 1))) - 1)).count_ones()
}

/// The kind (0..[`KINDS`]) of the non-empty `tower` from `persp`'s view: its commander (own
/// or enemy, man or king), then the own and enemy pieces below it, each capped at 3.
#[inline]
pub fn kind(persp: Color, tower: Tower) -> usize {
    let black = black_below(tower);
    let white = tower.height() as u32 - 1 - black;
    let (own_below, enemy_below) = match persp {
        Color::White => (white, black),
        Color::Black => (black, white),
    };
    let top = tower.top();
    let commander = ((top.color() != persp) as usize) << 1 | top.is_king() as usize;
    (commander * 4 + own_below.min(3) as usize) * 4 + enemy_below.min(3) as usize
}

/// What a move changed on a board of towers: each touched square (of the game's square type
/// `S`) whose tower changed, with its tower before and after; at most `N` squares.
#[derive(Clone, Debug)]
pub struct TowerDelta<S, const N: usize> {
    changes: ArrayVec<(S, Tower, Tower), N>,
}

impl<S, const N: usize> Default for TowerDelta<S, N> {
    fn default() -> Self {
        TowerDelta {
            changes: ArrayVec::new(),
        }
    }
}

impl<S: Copy, const N: usize> TowerDelta<S, N> {
    /// Forgets the last move's changes.
    #[inline]
    pub fn clear(&mut self) {
        self.changes.clear();
    }

    /// Notes `sq`'s tower `old` before the move and `new` after it, if they differ. Each
    /// square is noted once (the caller passes a set of squares).
    #[inline]
    pub fn note(&mut self, sq: S, old: Tower, new: Tower) {
        if old != new {
            self.changes.push((sq, old, new));
        }
    }

    /// [`FeatureSet::changed_inputs`](super::FeatureSet::changed_inputs) of a board of towers,
    /// `index` giving a tower's input on a square from a perspective.
    #[inline(always)]
    pub fn changed(
        &self,
        persp: Color,
        index: impl Fn(Color, S, Tower) -> usize,
        mut sub: impl FnMut(usize),
        mut add: impl FnMut(usize),
    ) {
        for &(sq, old, new) in &self.changes {
            if !old.is_empty() {
                sub(index(persp, sq, old));
            }
            if !new.is_empty() {
                add(index(persp, sq, new));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kit::tower::Piece;

    #[test]
    fn counts_below_are_by_colour_and_capped_at_three() {
        let w = Piece::new(Color::White, false);
        let b = Piece::new(Color::Black, false);
        let t = Tower::from_pieces(&[w, b, b, w, b, b, b]).unwrap();
        assert_eq!(black_below(t), 5);
        // White's view: own man commands, 1 own and 5 (capped 3) enemy below.
        let (own_man, enemy_man) = (0, 2);
        assert_eq!(kind(Color::White, t), (own_man * 4 + 1) * 4 + 3);
        // Black's view: enemy man commands, 3 (capped) own, 1 enemy below.
        assert_eq!(kind(Color::Black, t), (enemy_man * 4 + 3) * 4 + 1);
        let k = Tower::from_pieces(&[Piece::new(Color::Black, true)]).unwrap();
        assert_eq!((kind(Color::White, k), kind(Color::Black, k)), (48, 16));
    }

    #[test]
    fn a_delta_notes_only_changed_squares() {
        let man = Tower::single(Piece::new(Color::White, false));
        let mut d = TowerDelta::<u8, 4>::default();
        d.note(1, man, man);
        d.note(2, man, Tower::EMPTY);
        d.note(3, Tower::EMPTY, man);
        let (mut subs, mut adds) = (vec![], vec![]);
        let index = |_: Color, sq: u8, t: Tower| sq as usize * KINDS + kind(Color::White, t);
        d.changed(Color::White, index, |i| subs.push(i), |i| adds.push(i));
        assert_eq!((subs, adds), (vec![2 * KINDS], vec![3 * KINDS]));
    }
}
