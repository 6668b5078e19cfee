//! Turkish draughts' static evaluation, centi-men from the side to move's view.

use super::position::Position;
use crate::rules::Color;

/// A man.
pub const MAN: i32 = 100;
/// A king (a flying rook: worth several men).
pub const KING: i32 = 450;

/// Material, and men by how far they have advanced.
pub fn evaluate(pos: &Position) -> i32 {
    let white = side_value(pos, Color::White) - side_value(pos, Color::Black);
    if pos.side() == Color::White {
        white
    } else {
        -white
    }
}

fn side_value(pos: &Position, c: Color) -> i32 {
    let ours = pos.pieces(c);
    let kings = (ours & pos.kings()).count_ones() as i32;
    let mut value = kings * KING;
    for sq in super::board::squares(ours & !pos.kings()) {
        let advanced = match c {
            Color::White => sq.rank(),
            Color::Black => 7 - sq.rank(),
        } as i32;
        value += MAN + 4 * advanced;
    }
    value
}
