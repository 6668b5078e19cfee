//! Legal move generation.
//!
//! Captures are compulsory, so generation first asks, with whole-board shifts, whether any
//! tower of the side to move can capture at all; only then does it search capture paths
//! piece by piece (see [`crate::games::bashni::captures`]). Otherwise it generates steps and king slides.

use crate::games::bashni::captures::{CaptureSink, count_capture_paths, generate_captures};
use crate::games::bashni::position::Position;
use crate::games::kit::moves::{Move, MoveList};
use crate::games::kit::sets;
pub use crate::games::kit::sets::{can_capture_sets, count_quiets_sets, forward};
use crate::games::kit::square::{Direction, Square};

/// Whether the side to move has at least one capture (set-wise test, no per-piece work).
#[inline]
pub fn can_capture(pos: &Position) -> bool {
    let us = pos.side();
    let ours = pos.commanded_by(us);
    can_capture_sets(
        ours & !pos.kings(),
        ours & pos.kings(),
        pos.commanded_by(us.opponent()),
        pos.empty_squares(),
    )
}

impl CaptureSink for MoveList {
    #[inline]
    fn emit(&mut self, from: Square, landings: &[Square], jumped: &[Square]) {
        self.push(Move::capture(from, landings, jumped));
    }
}

/// Appends every quiet move (steps and king slides) to `list`, ignoring compulsory capture.
pub fn generate_quiets(pos: &Position, list: &mut MoveList) {
    let us = pos.side();
    sets::generate_quiets(
        us,
        pos.commanded_by(us),
        pos.kings(),
        pos.empty_squares(),
        list,
    );
}

/// Appends every capture to `list`; returns whether there was any.
pub fn generate_capture_moves(pos: &Position, list: &mut MoveList) -> bool {
    if !can_capture(pos) {
        return false;
    }
    let before = list.len();
    generate_captures(pos, list);
    list.len() > before
}

/// All legal moves of the position (captures if any, else quiet moves).
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    if !generate_capture_moves(pos, &mut list) {
        generate_quiets(pos, &mut list);
    }
    list
}

/// Number of legal moves, counted without building the list (quiet moves by popcount).
pub fn count_legal_moves(pos: &Position) -> u64 {
    let captures = count_capture_paths(pos);
    if captures > 0 {
        return captures;
    }
    let us = pos.side();
    let ours = pos.commanded_by(us);
    count_quiets_sets(
        us,
        ours & !pos.kings(),
        ours & pos.kings(),
        pos.empty_squares(),
    )
}

/// Whether the side to move has any legal move.
pub fn has_legal_move(pos: &Position) -> bool {
    if can_capture(pos) {
        return true;
    }
    let us = pos.side();
    let ours = pos.commanded_by(us);
    let empty = pos.empty_squares();
    let men = ours & !pos.kings();
    let kings = ours & pos.kings();
    for dir in forward(us) {
        if !(men.shift(dir) & empty).is_empty() {
            return true;
        }
    }
    Direction::ALL
        .iter()
        .any(|&d| !(kings.shift(d) & empty).is_empty())
}
