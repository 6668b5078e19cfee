//! What Turkish draughts' evaluation looks at: numbered features, each counted for one side,
//! and the one walk over a position that counts them ([`extract`]), which feeds both the
//! engine and `bashni tune` (see [`crate::games::kit::linear`]).
//!
//! Turkish draughts is played on all 64 squares, men stepping forward and sideways, kings
//! flying along ranks and files; so the board's left and right halves are alike and the
//! piece-square features fold files a-h onto a-d.

use crate::games::kit::Color;
use crate::games::kit::linear::{Sink, groups};
use crate::games::turkish::board::{Dir, Square, squares};
use crate::games::turkish::position::Position;

groups! {
    MAN = "man", 1, "material";
    KING = "king", 1, "material";
    // Men by ranks advanced from their own side (7: never, a man there is crowned).
    ADVANCE = "advance", 8, "advancement";
    // Men with no enemy man in front of them close enough to stop them (the cone widening
    // by one file each rank towards their far rank), by ranks advanced.
    PASSED = "passed man", 8, "advancement";
    // Men with an own piece right behind them: no enemy can jump them from the front.
    BACKED = "backed", 1, "structure";
    // Men side by side with an own piece: no enemy can jump them from that side.
    FLANKED = "flanked", 1, "structure";
    // Quiet steps of men (forward and sideways).
    MOBILITY = "mobility", 1, "mobility";
    // Squares the kings can slide to along ranks and files.
    KING_RAYS = "king rays", 1, "mobility";
    // Pieces an enemy piece could jump at once: [men, kings].
    HANGING = "hanging", 2, "hanging";
    // Pieces on the centre files c-f of ranks 3-6.
    CENTER = "center", 1, "center";
    // Piece-square values from each side's own view, files folded (rank * 4 + file from the
    // nearer edge; 0 = its a1/h1 corners).
    PST_MAN = "pst man", 32, "piece squares";
    PST_KING = "pst king", 32, "piece squares";
    TEMPO = "tempo", 1, "tempo";
}

/// Every piece on the board at the start.
pub const PHASE_MAX: i32 = 32;

/// The game phase: the number of pieces left, at most [`PHASE_MAX`].
#[inline]
pub fn phase(pos: &Position) -> i32 {
    (pos.occupied().count_ones() as i32).min(PHASE_MAX)
}

/// Files c-f of ranks 3-6.
const CENTER_MASK: u64 = 0x0000_3c3c_3c3c_0000;

/// Per colour and square: the squares in front of a man there from which an enemy man
/// could still come in its way (the cone widening by one file each rank).
const CONES: [[u64; 64]; 2] = {
    let mut out = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut cone = 0u64;
            let mut step = 1;
            while step < 8 {
                let r = if c == 0 { rank + step } else { rank - step };
                if r >= 0 && r <= 7 {
                    let mut f = file - step;
                    while f <= file + step {
                        if f >= 0 && f <= 7 {
                            cone |= 1u64 << (r * 8 + f);
                        }
                        f += 1;
                    }
                }
                step += 1;
            }
            out[c][sq] = cone;
            sq += 1;
        }
        c += 1;
    }
    out
};

/// Ranks a man of `c` on `sq` has advanced from its own side.
#[inline]
fn advanced(c: Color, sq: Square) -> usize {
    match c {
        Color::White => sq.rank() as usize,
        Color::Black => 7 - sq.rank() as usize,
    }
}

/// The piece-square index of `sq` from `c`'s view: rank from its own side, times 4, plus
/// the file counted from the nearer edge.
#[inline]
fn pst_index(c: Color, sq: Square) -> usize {
    let file = sq.file().min(7 - sq.file()) as usize;
    advanced(c, sq) * 4 + file
}

/// One step towards `c`'s own side: the square behind a man of `c`.
#[inline]
fn backward(c: Color) -> Dir {
    match c {
        Color::White => Dir::South,
        Color::Black => Dir::North,
    }
}

/// Counts every feature of `pos` into `sink`.
#[inline]
pub fn extract<S: Sink>(pos: &Position, sink: &mut S) {
    let empty = !pos.occupied();
    for c in [Color::White, Color::Black] {
        men(pos, c, empty, sink);
        kings(pos, c, empty, sink);
        hanging(pos, c, empty, sink);
        let ours = pos.pieces(c);
        sink.add(c, CENTER, (ours & CENTER_MASK).count_ones() as i32);
    }
    sink.add(pos.side(), TEMPO, 1);
}

/// Men of `c`: material, advancement, passed men, piece squares, structure and steps.
#[inline]
fn men<S: Sink>(pos: &Position, c: Color, empty: u64, sink: &mut S) {
    let ours = pos.pieces(c);
    let men = ours & !pos.kings();
    let their_men = pos.pieces(c.opponent()) & !pos.kings();
    sink.add(c, MAN, men.count_ones() as i32);
    for sq in squares(men) {
        let a = advanced(c, sq);
        sink.add(c, ADVANCE + a, 1);
        sink.add(c, PST_MAN + pst_index(c, sq), 1);
        if CONES[c.index()][sq.index()] & their_men == 0 {
            sink.add(c, PASSED + a, 1);
        }
    }
    // A man whose square behind holds an own piece: shift the own pieces one step forward.
    let back = backward(c);
    let backed = men & back.reverse().shift(ours);
    sink.add(c, BACKED, backed.count_ones() as i32);
    let flanked = men & (Dir::East.shift(ours) | Dir::West.shift(ours));
    sink.add(c, FLANKED, flanked.count_ones() as i32);
    let mut steps = 0;
    for d in Dir::man_dirs(c) {
        steps += (d.shift(men) & empty).count_ones() as i32;
    }
    sink.add(c, MOBILITY, steps);
}

/// Kings of `c`: material, piece squares and the squares they can slide to.
#[inline]
fn kings<S: Sink>(pos: &Position, c: Color, empty: u64, sink: &mut S) {
    let kings = pos.pieces(c) & pos.kings();
    if kings == 0 {
        return;
    }
    sink.add(c, KING, kings.count_ones() as i32);
    for sq in squares(kings) {
        sink.add(c, PST_KING + pst_index(c, sq), 1);
    }
    let mut reach = 0;
    for d in Dir::ALL {
        let mut x = d.shift(kings) & empty;
        while x != 0 {
            reach += x.count_ones() as i32;
            x = d.shift(x) & empty;
        }
    }
    sink.add(c, KING_RAYS, reach);
}

/// Pieces of `c` that an enemy piece could jump at once: a man next to them (in a direction
/// it captures in) or a king with only empty squares between, and an empty square beyond.
#[inline]
fn hanging<S: Sink>(pos: &Position, c: Color, empty: u64, sink: &mut S) {
    let them = c.opponent();
    let ours = pos.pieces(c);
    let their_men = pos.pieces(them) & !pos.kings();
    let their_kings = pos.pieces(them) & pos.kings();
    let mut hit = 0u64;
    for d in Dir::man_dirs(them) {
        hit |= d.shift(their_men) & ours & d.reverse().shift(empty);
    }
    for d in Dir::ALL {
        // Slide every king along `d` over empty squares; the first piece met is hit if it is
        // ours and the square beyond is empty.
        let mut ray = d.shift(their_kings);
        while ray != 0 {
            hit |= ray & ours & d.reverse().shift(empty);
            ray &= empty;
            ray = d.shift(ray);
        }
    }
    let kings = (hit & pos.kings()).count_ones() as i32;
    sink.add(c, HANGING, hit.count_ones() as i32 - kings);
    sink.add(c, HANGING + 1, kings);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kit::linear::{feature_name, fen_counts};
    use crate::games::turkish::notation::parse_fen;

    #[test]
    fn names() {
        assert_eq!(feature_name(GROUPS, MAN), "man");
        assert_eq!(feature_name(GROUPS, PST_KING + 3), "pst king 3");
        assert_eq!(CENTER_MASK.count_ones(), 16);
    }

    #[test]
    fn the_start_position() {
        let [w, b] = fen_counts::<Position>(crate::games::turkish::START_FEN);
        // Alike but for the tempo of the side to move.
        assert_eq!(w[..TEMPO], b[..TEMPO]);
        assert_eq!((w[MAN], w[KING]), (16, 0));
        assert_eq!((w[ADVANCE + 1], w[ADVANCE + 2]), (8, 8));
        // Rank 2's men are backed by nobody, rank 3's by rank 2; all but none are flanked.
        assert_eq!((w[BACKED], w[FLANKED]), (8, 16));
        // Each of the 8 front men can step forward; sideways nothing is free.
        assert_eq!(w[MOBILITY], 8);
        assert_eq!(w[HANGING] + w[HANGING + 1], 0);
        assert_eq!(w[CENTER], 4);
        assert_eq!(w[PASSED..PASSED + 8].iter().sum::<i32>(), 0);
        assert_eq!(w[PST_MAN + 4] + w[PST_MAN + 8], 4);
        assert_eq!(w[TEMPO], 1);
        assert_eq!(b[TEMPO], 0);
        assert_eq!(
            phase(&parse_fen(crate::games::turkish::START_FEN).unwrap()),
            32
        );
    }

    #[test]
    fn kings_hanging_and_passed_men() {
        // White: a king on d4, a man on b6; Black: men on d6 and g2, a king on h8.
        let [w, b] = fen_counts::<Position>("7B/8/1w1b4/8/3W4/8/6b1/8 w 0 1");
        assert_eq!((w[MAN], w[KING], b[MAN], b[KING]), (1, 1, 2, 1));
        // d4's rays: 1 up (d5, then d6 is Black's), 3 down, 3 left, 4 right = 11.
        assert_eq!(w[KING_RAYS], 11);
        // h8's rays: 7 down, 7 left = 14.
        assert_eq!(b[KING_RAYS], 14);
        // The white king jumps d6 (d7 empty); nothing reaches g2; Black's king on h8 has no
        // white piece on its lines, and no black man stands next to b6 or d4.
        assert_eq!((b[HANGING], b[HANGING + 1]), (1, 0));
        assert_eq!((w[HANGING], w[HANGING + 1]), (0, 0));
        // b6 (advanced 5): d6 is on the same rank, not in front: passed. g2 has d4's king
        // only, no man, in front: passed too (advanced 6 for Black).
        assert_eq!(w[PASSED + 5], 1);
        assert_eq!(b[PASSED + 6], 1);
        // d6 has the white man b6 beside it, not in front (Black's front is rank 5 and
        // down): passed (advanced 2).
        assert_eq!(b[PASSED + 2], 1);
        assert_eq!(
            phase(&parse_fen("7B/8/1w1b4/8/3W4/8/6b1/8 w 0 1").unwrap()),
            5
        );
    }

    #[test]
    fn men_hang_to_men_forward_and_sideways_only() {
        // A white man on d4 with a black man on d5 (d3 empty): Black jumps it southwards.
        let [w, _] = fen_counts::<Position>("8/8/8/3b4/3w4/8/8/8 w 0 1");
        assert_eq!(w[HANGING], 1);
        // A black man on d3, below the white man on d4: neither captures backwards.
        let [w, b] = fen_counts::<Position>("8/8/8/8/3w4/3b4/8/8 w 0 1");
        assert_eq!((w[HANGING], b[HANGING]), (0, 0));
        // Side by side with the squares beyond empty: each jumps the other.
        let [w, b] = fen_counts::<Position>("8/8/8/8/3wb3/8/8/8 w 0 1");
        assert_eq!((w[HANGING], b[HANGING]), (1, 1));
        // A backed man cannot be jumped from the front.
        let [w, _] = fen_counts::<Position>("8/8/8/3b4/3w4/3w4/8/8 w 0 1");
        assert_eq!((w[HANGING], w[BACKED]), (0, 1));
    }
}
