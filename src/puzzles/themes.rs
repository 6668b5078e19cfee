//! A puzzle's themes, read off its solution (docs/puzzles.md, "Themes"): what the solver's
//! moves do, in every game, and in the column games (Bashni, Lasca) what they do to columns.
//!
//! Pieces taken are counted as jumps: every jump takes one piece (a whole piece in Russian
//! and Turkish draughts and Brazilian, the commander of a column in Bashni and Lasca).

use crate::games::kit::Color;
use crate::games::kit::tower::{Piece, Tower};
use crate::games::{Game, Variant};
use std::collections::HashMap;

/// A solver move takes at least this many pieces: `multiCapture`.
pub const MULTI_CAPTURE: usize = 3;

/// Every theme name, in the order a puzzle lists them.
pub const ALL: &[&str] = &[
    "mate",
    "shot",
    "multiCapture",
    "promotion",
    "freeingPrisoners",
    "turningTower",
    "buryingKing",
    "oneMove",
    "short",
    "long",
    "veryLong",
];

/// Whether the game's captured pieces stay in columns (Bashni, Lasca): its puzzles get the
/// column themes.
pub fn has_columns(v: Variant) -> bool {
    matches!(v, Variant::Bashni | Variant::Lasca)
}

/// One jump of a column game's capture: the column jumped, as it stood when it was jumped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    /// The column jumped.
    pub column: Tower,
}

impl Jump {
    /// The jumped column's commander, taken prisoner.
    fn taken(self) -> Piece {
        self.column.top()
    }

    /// What stays on the square: the column without its commander.
    fn left(self) -> Tower {
        self.column.without_top()
    }
}

/// The columns a capture `m` from `pos` jumps, in order, in a column game: between two
/// squares it lands on stands exactly one column, the first met on the way (the moving
/// column has left its square; a jumped column loses its commander at once and may be jumped
/// again later in the move).
pub fn jumps<G: Game>(pos: &G, m: &G::Move) -> Vec<Jump> {
    let mut board: HashMap<(u8, u8), Tower> = HashMap::new();
    for f in 0..8 {
        for r in 0..8 {
            if let Some(t) = pos.tower_at(f, r).filter(|t| !t.is_empty()) {
                board.insert((f, r), t);
            }
        }
    }
    let path = G::move_squares(m);
    if !G::is_capture(m) {
        return Vec::new();
    }
    board.remove(&path[0]);
    let mut out = Vec::new();
    for pair in path.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let step = |from: u8, to: u8| (i16::from(to) - i16::from(from)).signum();
        let (df, dr) = (step(a.0, b.0), step(a.1, b.1));
        let mut sq = (a.0 as i16 + df, a.1 as i16 + dr);
        while (sq.0 as u8, sq.1 as u8) != b {
            let key = (sq.0 as u8, sq.1 as u8);
            if let Some(&column) = board.get(&key) {
                out.push(Jump { column });
                let left = column.without_top();
                if left.is_empty() {
                    board.remove(&key);
                } else {
                    board.insert(key, left);
                }
                break;
            }
            sq = (sq.0 + df, sq.1 + dr);
        }
    }
    out
}

/// Pieces a move takes (its jumps).
fn taken<G: Game>(m: &G::Move) -> usize {
    if G::is_capture(m) {
        G::move_squares(m).len() - 1
    } else {
        0
    }
}

/// Whether `m` from `pos` crowns its piece: a man leaves its square and a king of its side
/// commands where it ends.
fn crowns<G: Game>(pos: &G, m: &G::Move) -> bool {
    let path = G::move_squares(m);
    let (from, to) = (path[0], *path.last().expect("a move has squares"));
    let was_man = pos
        .tower_at(from.0, from.1)
        .is_some_and(|t| !t.is_empty() && !t.top().is_king());
    let after = pos.played(m);
    let side = pos.side_to_move();
    was_man
        && after
            .tower_at(to.0, to.1)
            .is_some_and(|t| !t.is_empty() && t.top().is_king() && t.top().color() == side)
}

/// The column themes of a solver capture's jumps: freeing prisoners (the solver's piece under
/// a jumped commander is freed), turning a tower (the freed piece commands enemy pieces that
/// stay below it), burying a king (an enemy king taken prisoner).
fn column_themes(jumps: &[Jump], solver: Color, found: &mut Vec<&'static str>) {
    for j in jumps {
        let left = j.left();
        if !left.is_empty() && left.top().color() == solver {
            found.push("freeingPrisoners");
            if left.count(solver.opponent()) > 0 {
                found.push("turningTower");
            }
        }
        if j.taken().is_king() && j.taken().color() != solver {
            found.push("buryingKing");
        }
    }
}

/// Whether the line has a shot: a solver move that takes nothing, answered by a capture,
/// after which the solver takes more pieces than the opponent to the end of the line.
fn has_shot<G: Game>(solution: &[G::Move]) -> bool {
    (0..solution.len()).step_by(2).any(|i| {
        let Some(reply) = solution.get(i + 1) else {
            return false;
        };
        if taken::<G>(&solution[i]) > 0 || taken::<G>(reply) == 0 {
            return false;
        }
        let rest = &solution[i + 1..];
        let theirs: usize = rest.iter().step_by(2).map(taken::<G>).sum();
        let ours: usize = rest.iter().skip(1).step_by(2).map(taken::<G>).sum();
        ours > theirs
    })
}

/// The themes of the solution `solution` (solver first, ending with a solver move) played
/// from `start`, the solver to move, in the order of [`ALL`] (a mate also names its length,
/// `mateIn2`, right after `mate`).
pub fn themes<G: Game>(start: &G, solution: &[G::Move]) -> Vec<String> {
    let solver = start.side_to_move();
    let mut found: Vec<&'static str> = Vec::new();
    let mut pos = start.clone();
    for (i, m) in solution.iter().enumerate() {
        if i % 2 == 0 {
            if taken::<G>(m) >= MULTI_CAPTURE {
                found.push("multiCapture");
            }
            if crowns(&pos, m) {
                found.push("promotion");
            }
            if has_columns(G::VARIANT) {
                column_themes(&jumps(&pos, m), solver, &mut found);
            }
        }
        pos.play(m);
    }
    if !pos.has_legal_move() {
        found.push("mate");
    }
    if has_shot::<G>(solution) {
        found.push("shot");
    }
    let solver_moves = solution.len().div_ceil(2);
    found.push(match solver_moves {
        1 => "oneMove",
        2 => "short",
        3 => "long",
        _ => "veryLong",
    });
    let mut out = Vec::new();
    for name in ALL {
        if found.contains(name) {
            out.push(name.to_string());
            if *name == "mate" {
                out.push(format!("mateIn{solver_moves}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
