//! The searches the miner runs, each to a fixed number of nodes or a fixed depth on one
//! thread (so their results never depend on the machine's load): the two best moves of a
//! position (MultiPV 2), the best move alone, and a shallow search's choice.

use crate::games::Game;
use crate::search::{Bound, Engine, Score, SearchControl, SearchInfo, SearchLimits};
use std::collections::BTreeMap;

/// A root move and its score, the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice<M> {
    /// The move.
    pub mv: M,
    /// Its score.
    pub score: Score,
}

/// What a two-line search found at its deepest completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwoLines<M> {
    /// The best move.
    pub best: Choice<M>,
    /// The second best, if there is another legal move.
    pub second: Option<Choice<M>>,
    /// The depth they come from.
    pub depth: u32,
    /// The shallowest depth from which every completed depth had the same best move: how
    /// deep one must look to see it (the puzzle's starting rating grows with it).
    pub settled: u32,
}

/// One completed depth: its number, the best line's move and score, the second's.
type Depth<M> = (u32, Choice<M>, Option<Choice<M>>);

/// The best and second-best lines of `pos` searched to `nodes` nodes (the solver's view);
/// `None` without a legal move. Only completed depths count: lines reported with an exact
/// score, both lines of one depth.
pub fn two_lines<G: Game>(engine: &mut Engine, pos: &G, nodes: u64) -> Option<TwoLines<G::Move>> {
    let legal = pos.legal_moves().len();
    if legal == 0 {
        return None;
    }
    let want = legal.min(2);
    let limits = SearchLimits {
        nodes: Some(nodes),
        multipv: 2,
        ..Default::default()
    };
    // Per depth, the first move and score of line 1 and line 2.
    let mut depths: BTreeMap<u32, [Option<Choice<G::Move>>; 2]> = BTreeMap::new();
    let mut see = |info: &SearchInfo<G::Move>| {
        if info.currmove.is_some() || info.bound != Bound::Exact || !(1..=2).contains(&info.multipv)
        {
            return;
        }
        if let Some(&mv) = info.pv.first() {
            depths.entry(info.depth).or_default()[info.multipv - 1] = Some(Choice {
                mv,
                score: info.score,
            });
        }
    };
    let control = SearchControl::new(false);
    let result = engine.search(pos, &[], &limits, &control, &mut see);
    let complete: Vec<Depth<G::Move>> = depths
        .into_iter()
        .filter_map(|(d, [a, b])| {
            let a = a?;
            (want == 1 || b.is_some()).then_some((d, a, b))
        })
        .collect();
    let Some(&(depth, best, second)) = complete.last() else {
        // Not even depth 1 completed (a tiny budget): the search's own answer, alone.
        let mv = result.best?;
        return Some(TwoLines {
            best: Choice {
                mv,
                score: result.score,
            },
            second: None,
            depth: result.depth,
            settled: result.depth,
        });
    };
    let settled = complete
        .iter()
        .rev()
        .take_while(|(_, a, _)| a.mv == best.mv)
        .last()
        .map_or(depth, |(d, _, _)| *d);
    Some(TwoLines {
        best,
        second,
        depth,
        settled,
    })
}

/// The best move of `pos` and its score, searched to `limits` (one line).
pub fn best_move<G: Game>(
    engine: &mut Engine,
    pos: &G,
    limits: &SearchLimits<G::Move>,
) -> Option<Choice<G::Move>> {
    let control = SearchControl::new(false);
    let r = engine.search(pos, &[], limits, &control, &mut |_| {});
    r.best.map(|mv| Choice { mv, score: r.score })
}

/// Limits of `nodes` nodes.
pub fn nodes<M>(nodes: u64) -> SearchLimits<M> {
    SearchLimits {
        nodes: Some(nodes.max(1)),
        ..Default::default()
    }
}

/// Limits of `depth` plies (with the quiescence search beyond them).
pub fn depth<M>(depth: u32) -> SearchLimits<M> {
    SearchLimits {
        depth: Some(depth.max(1)),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Rules;
    use crate::games::bashni::Position;

    #[test]
    fn two_lines_are_the_two_best_moves() {
        // The king takes four men (a1:f6:h4:e1:a5) or fewer: the long capture is best by far.
        let pos = Position::from_fen("8/8/8/6B1/1b1b4/6b1/8/W7 w").unwrap();
        let mut engine = Engine::new();
        let lines = two_lines(&mut engine, &pos, 20_000).unwrap();
        assert_eq!(lines.best.mv.to_string(), "a1:f6:h4:e1:a5");
        let second = lines.second.unwrap();
        assert_ne!(second.mv, lines.best.mv);
        assert!(crate::review::centi(lines.best.score) > crate::review::centi(second.score));
        assert!(lines.settled <= lines.depth && lines.depth >= 2);
        // The same search again gives the same answer (a fresh table each time).
        engine.clear_hash();
        assert_eq!(two_lines(&mut engine, &pos, 20_000), Some(lines));
    }

    #[test]
    fn one_legal_move_gives_one_line_and_none_gives_nothing() {
        let pos = Position::from_fen("8/8/8/8/3(bw)4/2w5/8/8 w").unwrap();
        assert_eq!(pos.legal_moves().len(), 1);
        let lines = two_lines(&mut Engine::new(), &pos, 2_000).unwrap();
        assert_eq!(
            (lines.best.mv.to_string(), lines.second),
            ("c3:e5".into(), None)
        );
        let over = Position::from_fen("8/8/8/8/8/8/8/w7 b").unwrap();
        assert_eq!(two_lines(&mut Engine::new(), &over, 2_000), None);
    }
}
