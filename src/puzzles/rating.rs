//! A puzzle's starting rating. Lichess starts every puzzle at one rating and lets the players'
//! results move it; a starting point from the puzzle itself makes the first players' puzzles
//! fit them sooner. Two things make a puzzle hard: how deep the engine had to look before it
//! settled on the first move for good (the depth from which every deeper iteration of the
//! checking search kept it), and how many moves the solver must find.

/// Rating of a puzzle seen at depth 1 with one move to find.
pub const BASE: u32 = 900;
/// Added for each ply deeper the first move was settled.
pub const PER_PLY: u32 = 100;
/// Added for each solver move after the first.
pub const PER_MOVE: u32 = 100;
/// The lowest starting rating.
pub const MIN: u32 = 600;
/// The highest starting rating.
pub const MAX: u32 = 2800;

/// The starting rating of a puzzle whose first move settled at depth `settled` and whose
/// solution has `solver_moves` moves of the solver.
pub fn starting_rating(settled: u32, solver_moves: usize) -> u32 {
    let moves = solver_moves.saturating_sub(1).min(20) as u32;
    (BASE + PER_PLY * settled.saturating_sub(1).min(30) + PER_MOVE * moves).clamp(MIN, MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deeper_and_longer_is_harder() {
        assert_eq!(starting_rating(1, 1), 900);
        assert_eq!(starting_rating(6, 1), 1400);
        assert_eq!(starting_rating(6, 3), 1600);
        assert!(starting_rating(9, 2) > starting_rating(8, 2));
        assert_eq!(starting_rating(60, 40), MAX);
        assert_eq!(starting_rating(0, 0), 900);
    }
}
