//! Network inputs of a board of single pieces (Turkish and Russian draughts): one input per
//! (square, own or enemy, man or king) from each side's view, Black's view the board turned
//! half round. A move's changes are found by comparing the boards before and after it, so
//! they need nothing of the move.

#[cfg(test)]
use super::FeatureSet;
use super::MAX_CHANGED;
use crate::games::kit::color::Color;
use arrayvec::ArrayVec;

/// Kinds of piece an input tells apart on one square: own man, own king, enemy man, enemy
/// king.
pub const KINDS: usize = 4;

/// A board of single pieces as the network sees it.
pub trait PieceBoard {
    /// Squares of the game's network (0..SQUARES after [`PieceBoard::dense`]).
    const SQUARES: usize;

    /// The bits of the layout that are squares.
    const SQUARE_BITS: u64;

    /// White's pieces, Black's and the kings, as bit sets in the game's own layout.
    fn planes(&self) -> [u64; 3];

    /// The square (0..[`PieceBoard::SQUARES`]) of bit `bit` of the layout, seen from White,
    /// so numbered that `SQUARES - 1 - square` is the square turned half round.
    fn dense(bit: u32) -> usize;
}

/// The input of a piece on bit `bit` (White's if `white`; a king if `king`) from `persp`'s
/// view.
#[inline(always)]
pub fn input<B: PieceBoard>(persp: Color, bit: u32, white: bool, king: bool) -> usize {
    let d = B::dense(bit);
    let (square, own) = match persp {
        Color::White => (d, white),
        Color::Black => (B::SQUARES - 1 - d, !white),
    };
    square * KINDS + ((!own as usize) << 1 | king as usize)
}

/// Calls `f` with each bit set in `set`.
#[inline(always)]
fn each_bit(mut set: u64, mut f: impl FnMut(u32)) {
    while set != 0 {
        f(set.trailing_zeros());
        set &= set - 1;
    }
}

/// [`FeatureSet::active_inputs`](super::FeatureSet::active_inputs) of a piece board.
#[inline(always)]
pub fn active<B: PieceBoard>(pos: &B, persp: Color, mut f: impl FnMut(usize)) {
    let [white, black, kings] = pos.planes();
    each_bit(white, |b| {
        f(input::<B>(persp, b, true, kings >> b & 1 != 0))
    });
    each_bit(black, |b| {
        f(input::<B>(persp, b, false, kings >> b & 1 != 0))
    });
}

/// What a move changed: each changed square's bit with what stood there before and after
/// (0 nothing, else 1 + (black << 1 | king)).
#[derive(Clone, Default, Debug)]
pub struct PieceDelta {
    changes: ArrayVec<(u8, u8, u8), MAX_CHANGED>,
}

/// What stands on bit `b` of `planes`, coded as in [`PieceDelta`].
#[inline(always)]
fn code(planes: &[u64; 3], b: u32) -> u8 {
    let on = |set: u64| (set >> b & 1) as u8;
    let (white, black, king) = (on(planes[0]), on(planes[1]), on(planes[2]));
    (white | black) * (1 + (black << 1 | king))
}

/// [`FeatureSet::record`](super::FeatureSet::record) of a piece board: the squares where `before` and `after` differ.
#[inline]
pub fn record<B: PieceBoard>(delta: &mut PieceDelta, before: &B, after: &B) {
    let (old, new) = (before.planes(), after.planes());
    let changed = (old[0] ^ new[0]) | (old[1] ^ new[1]) | (old[2] ^ new[2]);
    delta.changes.clear();
    each_bit(changed, |b| {
        delta.changes.push((b as u8, code(&old, b), code(&new, b)));
    });
}

/// [`FeatureSet::changed_inputs`](super::FeatureSet::changed_inputs) of a piece board.
#[inline(always)]
pub fn changed<B: PieceBoard>(
    delta: &PieceDelta,
    persp: Color,
    mut sub: impl FnMut(usize),
    mut add: impl FnMut(usize),
) {
    let input_of = |b: u8, code: u8| {
        let kind = code - 1;
        input::<B>(persp, b as u32, kind & 2 == 0, kind & 1 != 0)
    };
    for &(b, old, new) in &delta.changes {
        if old != 0 {
            sub(input_of(b, old));
        }
        if new != 0 {
            add(input_of(b, new));
        }
    }
}

/// Implements [`FeatureSet`](super::FeatureSet) for a game's position that is a [`PieceBoard`]: `$game` names
/// it, `$bytes` is its compiled-in network file and `$eighths` the network's share of the
/// evaluation ([`FeatureSet::NETWORK_EIGHTHS`](super::FeatureSet::NETWORK_EIGHTHS)).
macro_rules! piece_features {
    ($pos:ty, $game:literal, $squares:expr, $bytes:expr, network_eighths = $eighths:expr) => {
        $crate::games::kit::nnue::embedded_network!($pos, $bytes);

        impl $crate::games::kit::nnue::FeatureSet for $pos {
            const SHAPE: $crate::games::kit::nnue::NetShape = $crate::games::kit::nnue::NetShape {
                game: $game,
                inputs: $squares * $crate::games::kit::nnue::pieces::KINDS,
                kinds: $crate::games::kit::nnue::pieces::KINDS,
                max_active: $squares,
            };
            const NETWORK_EIGHTHS: i32 = $eighths;
            type Delta = $crate::games::kit::nnue::pieces::PieceDelta;

            fn embedded_network() -> std::sync::Arc<$crate::games::kit::nnue::Network> {
                std::sync::Arc::clone(&EMBEDDED)
            }

            #[inline]
            fn record(delta: &mut Self::Delta, before: &Self, after: &Self, _: &Self::Move) {
                $crate::games::kit::nnue::pieces::record(delta, before, after);
            }

            #[inline(always)]
            fn active_inputs(&self, persp: $crate::games::kit::color::Color, f: impl FnMut(usize)) {
                $crate::games::kit::nnue::pieces::active(self, persp, f);
            }

            #[inline(always)]
            fn changed_inputs(
                delta: &Self::Delta,
                persp: $crate::games::kit::color::Color,
                sub: impl FnMut(usize),
                add: impl FnMut(usize),
            ) {
                $crate::games::kit::nnue::pieces::changed::<$pos>(delta, persp, sub, add);
            }
        }
    };
}
pub(crate) use piece_features;

/// The tests of a game's network module on a piece board, `$pos`: its inputs
/// ([`check_inputs`]) and the network's checks ([`network_tests!`](super::stack::checks)),
/// the incremental one over 100 random games and at least `$least` moves.
#[cfg(test)]
macro_rules! piece_network_tests {
    ($pos:ty, least = $least:expr) => {
        #[cfg(test)]
        mod tests {
            use super::*;

            #[test]
            fn inputs_are_one_per_square_and_kind() {
                $crate::games::kit::nnue::pieces::check_inputs::<$pos>();
            }

            $crate::games::kit::nnue::stack::checks::network_tests!(
                $pos,
                games = 100,
                least = $least,
                bytes = EMBEDDED_BYTES
            );
        }
    };
}
#[cfg(test)]
pub(crate) use piece_network_tests;

/// Checks that a piece board's inputs are what this module says (called from each game's
/// tests).
#[cfg(test)]
pub(crate) fn check_inputs<B: PieceBoard + FeatureSet>() {
    let mut seen = vec![false; B::SQUARES];
    for bit in 0..64 {
        if B::SQUARE_BITS >> bit & 1 == 0 {
            continue;
        }
        let d = B::dense(bit);
        assert!(!seen[d], "bit {bit}");
        seen[d] = true;
        let w = input::<B>(Color::White, bit, true, false);
        let b = input::<B>(Color::Black, bit, false, false);
        assert_eq!(w / KINDS + b / KINDS, B::SQUARES - 1);
        assert_eq!((w % KINDS, b % KINDS), (0, 0), "own men from both chairs");
        assert_eq!(input::<B>(Color::White, bit, false, true) % KINDS, 3);
    }
    assert!(seen.iter().all(|&s| s));
}
