//! The miner's last word on a solution: every legal move of each solver position searched on
//! its own (docs/puzzles.md, "The method", step 6). The two-line search before it compares the
//! best two lines of one MultiPV search, whose second line is searched in the best one's
//! shadow (a narrower window, a table the first line filled); near the gap the two can
//! disagree. Here each move's score comes from a search of the position after it, to a fixed
//! number of nodes from an empty table, as the independent checker of the test suite scores
//! it, so what the miner ships is what that checker accepts at the same nodes.
//!
//! A solver move passes when it scores best, beats every other move by the gap in winning
//! chances, and, for the first, clears the floor: the only win, or at least
//! [`FLOOR_CP`] and ahead of every other move by [`FLOOR_MARGIN_CP`].

use super::judge::{FLOOR_CP, FLOOR_MARGIN_CP};
use super::lines::{Choice, nodes as node_limits};
use crate::games::Game;
use crate::review::{centi, negated, winning_chances};
use crate::search::{Engine, Score, SearchControl};

/// The score of `pos` for its side to move: the rules' verdict where the game is over, else
/// a search of `nodes` nodes from an empty table.
fn score_of<G: Game>(engine: &mut Engine, pos: &G, nodes: u64) -> Score {
    if let Some(winner) = pos.decided() {
        return if winner == pos.side_to_move() {
            Score::WinIn(0)
        } else {
            Score::LossIn(0)
        };
    }
    if !pos.has_legal_move() {
        return Score::LossIn(0);
    }
    engine.clear_hash();
    let control = SearchControl::new(false);
    engine
        .search(pos, &[], &node_limits(nodes), &control, &mut |_| {})
        .score
}

/// Every legal move of `pos` with its own score (the side to move's view), in the legal
/// moves' order.
pub fn each_move<G: Game>(engine: &mut Engine, pos: &G, nodes: u64) -> Vec<Choice<G::Move>> {
    pos.legal_moves()
        .iter()
        .map(|&mv| Choice {
            mv,
            score: negated(score_of(engine, &pos.played(&mv), nodes)),
        })
        .collect()
}

/// Whether `mv` passes among `scored` (every legal move's own score): best, ahead of every
/// other move by `gap` in winning chances, and over the floor when it is the `first` move.
pub fn passes<M: PartialEq>(scored: &[Choice<M>], mv: &M, gap: f64, first: bool) -> bool {
    let Some(mine) = scored.iter().find(|c| c.mv == *mv).map(|c| c.score) else {
        return false;
    };
    let others = scored
        .iter()
        .filter(|c| c.mv != *mv)
        .map(|c| centi(c.score));
    let second = others.max();
    if second.is_some_and(|s| s > centi(mine)) {
        return false;
    }
    let chances = |cp: i32| winning_chances(Score::Cp(cp));
    if second.is_some_and(|s| winning_chances(mine) - chances(s) < gap - 1e-9) {
        return false;
    }
    if !first {
        return true;
    }
    let only_win =
        matches!(mine, Score::WinIn(_)) && second.is_none_or(|s| s < crate::review::DECISIVE_CP);
    let ahead =
        centi(mine) >= FLOOR_CP && second.is_none_or(|s| centi(mine) - s >= FLOOR_MARGIN_CP);
    only_win || ahead
}

/// The longest start of `solution` (played from `start`, the solver to move) whose solver
/// moves all pass, cut after a solver move; empty when the first fails.
pub fn checked<G: Game>(
    engine: &mut Engine,
    start: &G,
    solution: &[G::Move],
    nodes: u64,
    gap: f64,
) -> Vec<G::Move> {
    let mut pos = start.clone();
    let mut kept = 0;
    for (i, mv) in solution.iter().enumerate() {
        if i % 2 == 0 {
            let scored = each_move(engine, &pos, nodes);
            if !passes(&scored, mv, gap, i == 0) {
                break;
            }
            kept = i + 1;
        }
        pos = pos.played(mv);
    }
    solution[..kept].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Rules;
    use crate::games::bashni::Position;

    fn choices(scores: &[Score]) -> Vec<Choice<u8>> {
        scores
            .iter()
            .enumerate()
            .map(|(i, &score)| Choice { mv: i as u8, score })
            .collect()
    }

    #[test]
    fn a_move_passes_by_the_gap_and_the_floor() {
        let s = choices(&[Score::Cp(400), Score::Cp(-50), Score::Cp(-300)]);
        assert!(passes(&s, &0, 0.7, true));
        // Not the best.
        assert!(!passes(&s, &1, 0.7, false));
        // wc(+400) - wc(-20) = 0.664: under the gap.
        let s = choices(&[Score::Cp(400), Score::Cp(-20)]);
        assert!(!passes(&s, &0, 0.7, false));
        // Over the gap but under the floor (a man and a third).
        let s = choices(&[Score::Cp(130), Score::Cp(-400)]);
        assert!(passes(&s, &0, 0.7, false));
        assert!(!passes(&s, &0, 0.7, true));
        // The only win clears the floor; one of two wins is not unique.
        let s = choices(&[Score::WinIn(5), Score::Cp(100)]);
        assert!(passes(&s, &0, 0.7, true));
        let s = choices(&[Score::WinIn(5), Score::WinIn(9)]);
        assert!(!passes(&s, &0, 0.7, true));
        // A lone move passes the gap; the floor still wants its score.
        assert!(passes(&choices(&[Score::Cp(200)]), &0, 0.7, true));
        assert!(!passes(&choices(&[Score::Cp(100)]), &0, 0.7, true));
        assert!(!passes(&choices(&[Score::Cp(100)]), &7, 0.7, false));
    }

    #[test]
    fn the_line_is_cut_after_its_last_passing_solver_move() {
        // The king takes four men at once (a1:f6:h4:e1:a5); every other move takes fewer.
        let pos = Position::from_fen("8/8/8/6B1/1b1b4/6b1/8/W7 w").unwrap();
        let mut engine = Engine::new();
        let best = pos.parse_move("a1:f6:h4:e1:a5").unwrap();
        assert_eq!(checked(&mut engine, &pos, &[best], 5_000, 0.7), vec![best]);
        let other = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| *m != best)
            .unwrap();
        assert!(checked(&mut engine, &pos, &[other], 5_000, 0.7).is_empty());
    }
}
