//! What the evaluation looks at: numbered features, each counted for one side, and the one
//! walk over a position that counts them.
//!
//! The evaluation is linear in its weights: a position's value is the sum over features of
//! (White's count - Black's count) x weight, each weight having an opening and an endgame value
//! blended by the number of towers left (see [`super::phase`]). That one walk, [`extract`],
//! feeds both the engine (a [`Sink`] that multiplies by the weights as it goes) and the tuner
//! (a sink that records the counts), so the evaluation and what is tuned cannot drift apart.

use crate::games::bashni::position::Position;
use crate::games::kit::bitboard::Bitboard;
use crate::games::kit::color::Color;
use crate::games::kit::square::Direction;
use crate::games::kit::terms::{self, terms_at_groups};

use crate::games::kit::linear::groups;
pub use crate::games::kit::linear::{Group, Sink};
use crate::games::kit::masks::{CENTER_MASK, PST_INDEX};

groups! {
    // Commanders of towers.
    MAN = "man", 1, "material";
    KING = "king", 1, "material";
    // Pieces under a commander, by who commands them and what they are.
    MAN_UNDER_OWN = "man under own", 1, "prisoners";
    KING_UNDER_OWN = "king under own", 1, "prisoners";
    MAN_PRISONER = "man prisoner", 1, "prisoners";
    KING_PRISONER = "king prisoner", 1, "prisoners";
    // The piece directly under a commander takes over when the top is jumped; counted for the
    // commander's side: [own man, own king, enemy man, enemy king].
    NEXT_UNDER = "next under", 4, "prisoners";
    // Men commanders by ranks advanced from their own side.
    ADVANCE = "advance", 8, "advancement";
    BACK_RANK = "back rank", 1, "back rank";
    // Quiet steps of men and single steps of kings.
    MOBILITY = "mobility", 1, "mobility";
    // Squares a king can slide to along whole diagonals.
    KING_RAYS = "king rays", 1, "mobility";
    // A king on the long diagonal a1-h8.
    LONG_DIAGONAL = "long diagonal", 1, "mobility";
    // A commanded tower an adjacent enemy could jump at once, per piece in it.
    EXPOSED = "exposed", 1, "exposed";
    CENTER = "center", 1, "center";
    // Men with no enemy commander in front of them (in the cone they can still reach), by
    // ranks advanced.
    PASSED = "passed man", 8, "advancement";
    // Piece-square values from each side's own view (square 0 = its a1 corner).
    PST_MAN = "pst man", 32, "piece squares";
    PST_KING = "pst king", 32, "piece squares";
    TEMPO = "tempo", 1, "tempo";
}

terms_at_groups!();

/// The name of feature `f`: its group, and its index within the group when there are several.
pub fn feature_name(f: usize) -> String {
    crate::games::kit::linear::feature_name(GROUPS, f)
}

/// Counts every feature of `pos` into `sink`.
#[inline]
pub fn extract<S: Sink>(pos: &Position, sink: &mut S) {
    towers(pos, sink);
    let empty = pos.empty_squares();
    for c in [Color::White, Color::Black] {
        men(pos, c, empty, sink);
        kings(pos, c, empty, sink);
        exposed(pos, c, empty, sink);
        let ours = pos.commanded_by(c);
        sink.add(c, CENTER, (ours & Bitboard(CENTER_MASK)).count() as i32);
    }
    sink.add(pos.side(), TEMPO, 1);
}

/// Commanders, what is under them, and piece-square features.
#[inline]
fn towers<S: Sink>(pos: &Position, sink: &mut S) {
    for sq in pos.occupied() {
        let tower = pos.tower(sq);
        let top = tower.top();
        let c = top.color();
        let pst = PST_INDEX[c.index()][sq.index()] as usize;
        if top.is_king() {
            sink.add(c, KING, 1);
            sink.add(c, PST_KING + pst, 1);
        } else {
            sink.add(c, MAN, 1);
            sink.add(c, PST_MAN + pst, 1);
        }
        if tower.height() < 2 {
            continue;
        }
        let next = tower.piece(1);
        let enemy = next.color() != c;
        sink.add(
            c,
            NEXT_UNDER + 2 * enemy as usize + next.is_king() as usize,
            1,
        );
        for i in 1..tower.height() {
            let p = tower.piece(i);
            let own = p.color() == c;
            let f = match (own, p.is_king()) {
                (true, false) => MAN_UNDER_OWN,
                (true, true) => KING_UNDER_OWN,
                (false, false) => MAN_PRISONER,
                (false, true) => KING_PRISONER,
            };
            sink.add(p.color(), f, 1);
        }
    }
}

/// Men commanders of `c`: advancement, back rank, passed men (no enemy commander in the
/// cone) and their steps.
#[inline]
fn men<S: Sink>(pos: &Position, c: Color, empty: Bitboard, sink: &mut S) {
    let men = pos.commanded_by(c) & !pos.kings();
    let theirs = pos.commanded_by(c.opponent()).0;
    terms::men(c, men, theirs, empty, MEN, sink, |_, _| {});
}

/// Kings commanders of `c`: single steps (mobility), whole-diagonal reach, the long diagonal.
#[inline]
fn kings<S: Sink>(pos: &Position, c: Color, empty: Bitboard, sink: &mut S) {
    let kings = pos.commanded_by(c) & pos.kings();
    if !kings.is_empty() {
        terms::kings(c, kings, empty, KINGS, sink);
    }
}

/// Towers of `c` an adjacent enemy commander could jump at once, weighted by their height.
#[inline]
fn exposed<S: Sink>(pos: &Position, c: Color, empty: Bitboard, sink: &mut S) {
    let ours = pos.commanded_by(c);
    let theirs = pos.commanded_by(c.opponent());
    for dir in Direction::ALL {
        let hit = theirs.shift(dir) & ours & empty.shift(dir.reverse());
        for sq in hit {
            sink.add(c, EXPOSED, pos.tower(sq).height() as i32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_features() {
        let mut at = 0;
        for g in GROUPS {
            assert_eq!(g.start, at, "{}", g.name);
            at += g.len;
        }
        assert_eq!(at, NUM_FEATURES);
        assert_eq!(feature_name(MAN), "man");
        assert_eq!(feature_name(ADVANCE + 3), "advance 3");
    }

    #[test]
    fn tables() {
        use crate::games::kit::masks::{CONES, LONG_DIAGONAL_MASK};
        use crate::games::kit::square::Square;
        assert_eq!(CENTER_MASK.count_ones(), 8);
        assert_eq!(LONG_DIAGONAL_MASK.count_ones(), 8);
        let a1 = Square::from_coords(0, 0).unwrap();
        let h8 = Square::from_coords(7, 7).unwrap();
        assert_eq!(PST_INDEX[0][a1.index()], 0);
        assert_eq!(PST_INDEX[1][h8.index()], 0);
        let mut seen = [false; 32];
        for sq in Square::all() {
            seen[PST_INDEX[1][sq.index()] as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        // A white man on c3 has d4, b4 in front, and the whole width further on.
        let c3 = Square::from_coords(2, 2).unwrap();
        let d4 = Square::from_coords(3, 3).unwrap();
        let e3 = Square::from_coords(4, 2).unwrap();
        assert_ne!(CONES[0][c3.index()] & d4.bit(), 0);
        assert_eq!(CONES[0][c3.index()] & e3.bit(), 0);
        assert_eq!(CONES[1][c3.index()] & d4.bit(), 0);
    }
}
