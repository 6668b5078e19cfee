//! What Lasca's evaluation looks at: numbered features, each counted for one side, and the
//! one walk over a position that counts them ([`extract`]), which feeds both the engine and
//! `bashni tune` (see [`crate::games::kit::linear`]).
//!
//! Nothing ever leaves a Lasca board, so material is what each side commands and holds: a
//! column of `c` is its commander, the pieces of `c` right below it (its reserve, which take
//! over when the commander is taken) and the enemy pieces under those (its prisoners, freed
//! when the reserve is gone). Pieces of `c` held under an enemy block of one piece are one
//! capture from freedom. Soldiers advance towards promotion; officers step both ways.

use crate::games::kit::Color;
use crate::games::kit::linear::{Sink, groups};
use crate::games::kit::tower::Tower;
use crate::games::lasca::board::{ALL, Dir, EDGE, Square, squares};
use crate::games::lasca::position::Position;

groups! {
    // Columns commanded by a soldier, by an officer.
    SOLDIER = "soldier", 1, "material";
    OFFICER = "officer", 1, "material";
    // Own pieces right below the commander: [soldiers, officers].
    RESERVE = "reserve", 2, "material";
    // Enemy pieces held in own columns: [soldiers, officers].
    PRISONER = "prisoner", 2, "material";
    // Own pieces under an enemy block of exactly one piece (one capture frees them), in
    // columns that stand off the edge (where they can be jumped): [soldiers, officers].
    FREEABLE = "freeable", 2, "prisoners";
    // Soldier-commanded columns by ranks advanced (6: never, a soldier there is promoted).
    ADVANCE = "advance", 7, "advancement";
    // Steps the side's columns could make (soldiers forward, officers every way).
    MOBILITY = "mobility", 1, "mobility";
    // Own columns an enemy column could jump at once.
    HANGING = "hanging", 1, "hanging";
    // Own columns on the edge (which can never be jumped).
    EDGE_COLUMNS = "edge", 1, "structure";
    // Piece-square values of commanders from their side's view, files folded (rank * 4 +
    // file from the nearer edge; the squares of a rank have the same folded files in pairs).
    PST_SOLDIER = "pst soldier", 28, "piece squares";
    PST_OFFICER = "pst officer", 28, "piece squares";
    TEMPO = "tempo", 1, "tempo";
}

/// Columns on the board at the start.
pub const PHASE_MAX: i32 = 22;

/// The game phase: the number of columns on the board (22 at the start, fewer as captures
/// gather pieces into columns), at most [`PHASE_MAX`].
#[inline]
pub fn phase(pos: &Position) -> i32 {
    (pos.occupied().count_ones() as i32).min(PHASE_MAX)
}

/// Ranks a piece of `c` on `sq` has advanced from its own side.
#[inline]
fn advanced(c: Color, sq: Square) -> usize {
    match c {
        Color::White => sq.rank() as usize,
        Color::Black => 6 - sq.rank() as usize,
    }
}

/// The piece-square index of `sq` from `c`'s view.
#[inline]
fn pst_index(c: Color, sq: Square) -> usize {
    advanced(c, sq) * 4 + sq.file().min(6 - sq.file()) as usize
}

/// Counts every feature of `pos` into `sink`.
#[inline]
pub fn extract<S: Sink>(pos: &Position, sink: &mut S) {
    for sq in squares(pos.occupied()) {
        column(pos.column(sq), sq, sink);
    }
    for c in [Color::White, Color::Black] {
        steps(pos, c, sink);
    }
    sink.add(pos.side(), TEMPO, 1);
}

/// One column's material, prisoners, advancement and square.
#[inline]
fn column<S: Sink>(col: Tower, sq: Square, sink: &mut S) {
    let top = col.top();
    let c = top.color();
    if top.is_king() {
        sink.add(c, OFFICER, 1);
        sink.add(c, PST_OFFICER + pst_index(c, sq), 1);
    } else {
        sink.add(c, SOLDIER, 1);
        sink.add(c, ADVANCE + advanced(c, sq), 1);
        sink.add(c, PST_SOLDIER + pst_index(c, sq), 1);
    }
    let mut i = 1;
    let h = col.height();
    while i < h && col.piece(i).color() == c {
        sink.add(c, RESERVE + col.piece(i).is_king() as usize, 1);
        i += 1;
    }
    let block_of_one = i == 1 && sq.bit() & EDGE == 0;
    for j in i..h {
        let p = col.piece(j);
        let k = p.is_king() as usize;
        // Every piece below the owner's block counts as held, whatever its colour (legal
        // play makes them all the opponent's).
        sink.add(c, PRISONER + k, (p.color() != c) as i32);
        if block_of_one && p.color() != c {
            sink.add(p.color(), FREEABLE + k, 1);
        }
    }
}

/// The steps, hanging columns and edge columns of `c`.
#[inline]
fn steps<S: Sink>(pos: &Position, c: Color, sink: &mut S) {
    let ours = pos.pieces(c);
    let officers = ours & pos.officers();
    let theirs = pos.pieces(c.opponent());
    let their_officers = theirs & pos.officers();
    let empty = !pos.occupied() & ALL;
    let mut n = 0;
    let mut hit = 0;
    for d in Dir::ALL {
        let movers = if Dir::forward(c).contains(&d) {
            ours
        } else {
            officers
        };
        n += (d.shift(movers) & empty).count_ones() as i32;
        // The enemy jumps `d` (forward for them, or any way for an officer) from the square
        // before ours onto the empty square beyond.
        let jumpers = if Dir::forward(c.opponent()).contains(&d) {
            theirs
        } else {
            their_officers
        };
        hit |= d.shift(jumpers) & ours & d.reverse().shift(empty);
    }
    sink.add(c, MOBILITY, n);
    sink.add(c, HANGING, hit.count_ones() as i32);
    sink.add(c, EDGE_COLUMNS, (ours & EDGE).count_ones() as i32);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kit::linear::{feature_name, fen_counts};
    use crate::games::lasca::notation::{START_FEN, parse_fen};

    #[test]
    fn names() {
        assert_eq!(feature_name(GROUPS, SOLDIER), "soldier");
        assert_eq!(feature_name(GROUPS, PST_OFFICER + 3), "pst officer 3");
    }

    #[test]
    fn the_start_position() {
        let [w, b] = fen_counts::<Position>(START_FEN);
        assert_eq!(w[..TEMPO], b[..TEMPO]);
        assert_eq!(
            (w[SOLDIER], w[OFFICER], w[RESERVE], w[PRISONER]),
            (11, 0, 0, 0)
        );
        assert_eq!((w[ADVANCE], w[ADVANCE + 1], w[ADVANCE + 2]), (4, 3, 4));
        // a3 c3 e3 g3 each step two ways but a3 and g3 one: 6.
        assert_eq!(w[MOBILITY], 6);
        assert_eq!((w[HANGING], w[EDGE_COLUMNS]), (0, 6));
        assert_eq!((w[TEMPO], b[TEMPO]), (1, 0));
        assert_eq!(phase(&parse_fen(START_FEN).unwrap()), 22);
    }

    #[test]
    fn columns_reserves_prisoners_and_freeable_pieces() {
        // d4: a white officer over a white soldier over three black soldiers; c5: a black soldier over a white officer (one capture frees it); e5 empty.
        let [w, b] = fen_counts::<Position>("7/7/2(bW)4/3(Wwbbb)3/7/7/7 w");
        assert_eq!((w[OFFICER], w[RESERVE], w[RESERVE + 1]), (1, 1, 0));
        assert_eq!((w[PRISONER], w[PRISONER + 1]), (3, 0));
        assert_eq!((b[SOLDIER], b[PRISONER + 1]), (1, 1));
        assert_eq!(w[FREEABLE + 1], 1);
        // White's officer on d4 jumps c5 (b6 empty): Black's column hangs; the black soldier
        // on c5 jumps d4 onto e3 too.
        assert_eq!((b[HANGING], w[HANGING]), (1, 1));
        assert_eq!(b[ADVANCE + 2], 1);
    }
}
