//! What the draughts-64 games' linear evaluations look at: numbered features, each counted
//! for one side, and the one walk over a position that counts them ([`extract`]), which
//! feeds both the engine and `bashni tune` (see [`crate::games::kit::linear`]). Each game
//! weighs them with its own weights file (`src/games/<game>/eval/weights.txt`).
//!
//! The board and its geometry are Bashni's, so the masks (centre, back ranks, the long
//! diagonal, the passed-man cones, piece-square numbering) are Bashni's evaluation's own.

use crate::games::kit::Color;
use crate::games::kit::bitboard::Bitboard;
use crate::games::kit::draughts64::{Laws, Position};
use crate::games::kit::linear::{self, LinearEval, Sink, groups};
use crate::games::kit::masks::{CENTER_MASK, PST_INDEX};
use crate::games::kit::moves::Move;
use crate::games::kit::square::Direction;
use crate::games::kit::terms::{self, terms_at_groups};

groups! {
    MAN = "man", 1, "material";
    KING = "king", 1, "material";
    // Men by ranks advanced from their own side (7: never, a man there is crowned).
    ADVANCE = "advance", 8, "advancement";
    // Men on their own back rank, which keeps the enemy's men from being crowned there.
    BACK_RANK = "back rank", 1, "back rank";
    // Quiet steps of men and single steps of kings.
    MOBILITY = "mobility", 1, "mobility";
    // Squares the kings can slide to along whole diagonals.
    KING_RAYS = "king rays", 1, "mobility";
    // A king on the long diagonal a1-h8 (the "main road").
    LONG_DIAGONAL = "long diagonal", 1, "mobility";
    // Pieces an enemy piece could jump at once (a man next to them, or a king along the
    // diagonal, and an empty square beyond): [men, kings].
    EXPOSED = "exposed", 2, "exposed";
    // Pieces on the centre squares (files c-f of ranks 3-6).
    CENTER = "center", 1, "center";
    // Men with no enemy man in front of them close enough to stop them, by ranks advanced.
    PASSED = "passed man", 8, "advancement";
    // Piece-square values from each side's own view (square 0 = its a1 corner).
    PST_MAN = "pst man", 32, "piece squares";
    PST_KING = "pst king", 32, "piece squares";
    TEMPO = "tempo", 1, "tempo";
}

terms_at_groups!();

/// Every piece on the board at the start.
pub const PHASE_MAX: i32 = 24;

/// The game phase: the number of pieces left, at most [`PHASE_MAX`].
#[inline]
pub fn phase<L: Laws>(pos: &Position<L>) -> i32 {
    (pos.occupied().count() as i32).min(PHASE_MAX)
}

/// Counts every feature of `pos` into `sink`.
#[inline]
pub fn extract<L: Laws, S: Sink>(pos: &Position<L>, sink: &mut S) {
    let empty = !pos.occupied();
    for c in [Color::White, Color::Black] {
        men(pos, c, empty, sink);
        kings(pos, c, empty, sink);
        exposed(pos, c, empty, sink);
        let ours = pos.pieces(c);
        sink.add(c, CENTER, (ours & Bitboard(CENTER_MASK)).count() as i32);
    }
    sink.add(pos.side(), TEMPO, 1);
}

/// Men of `c`: material, advancement, passed men (no enemy man in the cone), piece squares,
/// back rank and steps.
#[inline]
fn men<L: Laws, S: Sink>(pos: &Position<L>, c: Color, empty: Bitboard, sink: &mut S) {
    let men = pos.pieces(c) & !pos.kings();
    let their_men = (pos.pieces(c.opponent()) & !pos.kings()).0;
    sink.add(c, MAN, men.count() as i32);
    terms::men(c, men, their_men, empty, MEN, sink, |sq, sink| {
        sink.add(c, PST_MAN + PST_INDEX[c.index()][sq.index()] as usize, 1);
    });
}

/// Kings of `c`: material, piece squares, single steps, whole-diagonal reach and the long
/// diagonal.
#[inline]
fn kings<L: Laws, S: Sink>(pos: &Position<L>, c: Color, empty: Bitboard, sink: &mut S) {
    let kings = pos.pieces(c) & pos.kings();
    if kings.is_empty() {
        return;
    }
    sink.add(c, KING, kings.count() as i32);
    for sq in kings {
        sink.add(c, PST_KING + PST_INDEX[c.index()][sq.index()] as usize, 1);
    }
    terms::kings(c, kings, empty, KINGS, sink);
}

/// Pieces of `c` that an enemy piece could jump at once: a man next to them (men capture in
/// all four directions) or a king with only empty squares between, and an empty square
/// beyond.
#[inline]
fn exposed<L: Laws, S: Sink>(pos: &Position<L>, c: Color, empty: Bitboard, sink: &mut S) {
    let them = pos.pieces(c.opponent());
    let ours = pos.pieces(c);
    let their_men = them & !pos.kings();
    let their_kings = them & pos.kings();
    let mut hit = Bitboard::EMPTY;
    for dir in Direction::ALL {
        let beyond_empty = empty.shift(dir.reverse());
        hit |= their_men.shift(dir) & ours & beyond_empty;
        let mut ray = their_kings.shift(dir);
        while !ray.is_empty() {
            hit |= ray & ours & beyond_empty;
            ray = (ray & empty).shift(dir);
        }
    }
    let kings = (hit & pos.kings()).count() as i32;
    sink.add(c, EXPOSED, hit.count() as i32 - kings);
    sink.add(c, EXPOSED + 1, kings);
}

/// Material a capture takes, at the game's evaluation values in the current phase: each man
/// and king it jumps.
#[inline]
pub fn capture_gain<L: Laws>(pos: &Position<L>, m: &Move) -> i32
where
    Position<L>: LinearEval,
{
    let man = linear::weight_now(pos, MAN);
    let king = linear::weight_now(pos, KING);
    m.jumped()
        .iter()
        .map(|&sq| if pos.kings().has(sq) { king } else { man })
        .sum()
}

/// The checks each draughts-64 game runs on its own linear evaluation (its weights).
#[cfg(test)]
pub(crate) mod checks {
    use super::*;
    use crate::games::{Game, Rules};

    /// The layout of the groups, the terms adding up to the evaluation, and the evaluation
    /// unchanged by mirroring the board, on random positions of seed `seed`.
    pub(crate) fn layout_terms_and_symmetry<L: Laws>(seed: u64)
    where
        Position<L>: LinearEval + Game,
    {
        let all = linear::sample_positions::<Position<L>>(seed);
        assert!(
            all.iter().any(|p| !p.kings().is_empty()),
            "some positions have kings"
        );
        linear::check_evaluation(&all, linear::evaluate);
    }

    /// A capture gains the material it takes: White's man on c3 takes d4 (a man) and then
    /// f6 (a king), its one legal move (under the majority rule too).
    pub(crate) fn capture_gain_is_the_material_taken<L: Laws>()
    where
        Position<L>: LinearEval + Game,
    {
        let pos = Position::<L>::from_fen("8/8/5B2/8/3b4/2w5/8/8 w 0 1").unwrap();
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), 1, "{:?}", &moves[..]);
        let gain = pos.capture_gain(&moves[0]);
        let value = |f| linear::weight_now(&pos, f);
        assert_eq!(gain, value(MAN) + value(KING));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kit::linear::{feature_name, fen_counts};
    use crate::games::russian::Position;
    use crate::games::russian::START_FEN;

    #[test]
    fn names() {
        assert_eq!(feature_name(GROUPS, KING), "king");
        assert_eq!(feature_name(GROUPS, EXPOSED + 1), "exposed 1");
    }

    #[test]
    fn the_start_position() {
        let [w, b] = fen_counts::<Position>(START_FEN);
        // Alike but for the tempo of the side to move.
        assert_eq!(w[..TEMPO], b[..TEMPO]);
        assert_eq!((w[MAN], w[KING]), (12, 0));
        assert_eq!((w[ADVANCE], w[ADVANCE + 1], w[ADVANCE + 2]), (4, 4, 4));
        assert_eq!(w[BACK_RANK], 4);
        // The 4 men of rank 3 have 7 free steps forward (a3 has only b4).
        assert_eq!(w[MOBILITY], 7);
        assert_eq!(w[EXPOSED] + w[EXPOSED + 1], 0);
        // c3 and e3 stand in the centre.
        assert_eq!(w[CENTER], 2);
        assert_eq!(w[TEMPO] + b[TEMPO], 1);
        assert_eq!(phase(&Position::startpos()), 24);
    }

    #[test]
    fn kings_and_exposed_pieces() {
        // White: a king on a1, a man on e5; Black: a man on d6 (jumped by e5 to c7) and a man
        // on f4, behind e5 (jumped by e5 backwards to g3).
        let [w, b] = fen_counts::<Position>("8/8/3b4/4w3/5b2/8/8/W7 w 0 1");
        assert_eq!((w[MAN], w[KING], b[MAN]), (1, 1, 2));
        // a1's one diagonal: b2, c3, d4 free, then e5 is White's own.
        assert_eq!(w[KING_RAYS], 3);
        assert_eq!(w[LONG_DIAGONAL], 1);
        assert_eq!(b[EXPOSED], 2);
        // Black's men jump e5 (d6 to f4 is blocked by its own man; f4 to d6 likewise), so
        // e5 is safe.
        assert_eq!(w[EXPOSED], 0);
        // A black king on h8 takes the long diagonal from the other end: e5 hangs to it
        // (d4 beyond is empty).
        let [w, _] = fen_counts::<Position>("7B/8/8/4w3/8/8/8/8 w 0 1");
        assert_eq!(w[EXPOSED], 1);
    }
}
