//! One candidate position put through the miner's tests (docs/puzzles.md, "The method"), in
//! numbered steps from the cheapest: most positions leave at the first.
//!
//! Every search runs to a fixed number of nodes or a fixed depth on one thread, from an
//! empty table, so a candidate's answer depends on its position alone: the same in any run,
//! shard or thread.

use super::candidates::Candidate;
use super::check;
use super::judge::{first_move, unique};
use super::lines::{Choice, best_move, depth, nodes, two_lines};
use super::rating::starting_rating;
use super::themes::themes;
use crate::games::{Game, Record};
use crate::record::puzzle::Puzzle;
use crate::review::centi;
use crate::search::{Engine, Score};

/// A screened position goes on only when its best move scores at least this (one man) or
/// wins: below the floor, to allow for the shallow search's error.
pub const SCREEN_CP: i32 = 100;

/// A one-move puzzle is kept only when a search this deep (plies, with the captures after
/// them) picks another move: the move is not seen at a glance.
pub const EASY_DEPTH: u32 = 3;

/// How the miner searches.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Nodes of the screening search (one line); 0 skips it.
    pub screen_nodes: u64,
    /// Nodes of the miner's two-line search.
    pub nodes: u64,
    /// Nodes of the deeper two-line search that checks every solver move, and of the search
    /// that finds the opponent's replies.
    pub verify_nodes: u64,
    /// Nodes of the search of each legal move on its own in the final check (step 6).
    pub check_nodes: u64,
    /// The gap in winning chances that makes a solver move unique.
    pub gap: f64,
    /// Most solver moves in a solution.
    pub max_solver_moves: usize,
    /// Seed of the puzzles' names.
    pub seed: u64,
}

/// Whether `pos` has a move and no rule has ended the game (Turkish draughts' one king
/// against one man is won at once).
fn goes_on<G: Game>(pos: &G) -> bool {
    pos.decided().is_none() && pos.has_legal_move()
}

/// Step 1: a position worth searching: the game goes on and the solver has a choice.
fn worth_searching<G: Game>(c: &Candidate<G>) -> bool {
    goes_on(&c.before) && goes_on(&c.after) && c.after.legal_moves().len() >= 2
}

/// Step 2: the screening search's best move wins or is a man up.
fn passes_screen<G: Game>(engine: &mut Engine, pos: &G, s: &Settings) -> bool {
    if s.screen_nodes == 0 {
        return true;
    }
    best_move(engine, pos, &nodes(s.screen_nodes))
        .is_some_and(|b| matches!(b.score, Score::WinIn(_)) || centi(b.score) >= SCREEN_CP)
}

/// Step 5: the solution from the checked first move on, while the solver's moves stay unique
/// by the gap (each checked by a two-line search of `verify_nodes`) and the game goes on;
/// the opponent replies with its only move or its best.
fn extend<G: Game>(
    engine: &mut Engine,
    start: &G,
    first: Choice<G::Move>,
    s: &Settings,
) -> Vec<G::Move> {
    let mut line = vec![first.mv];
    let mut pos = start.played(&first.mv);
    while line.len().div_ceil(2) < s.max_solver_moves && goes_on(&pos) {
        let legal = pos.legal_moves();
        let reply = if legal.len() == 1 {
            legal[0]
        } else {
            match best_move(engine, &pos, &nodes(s.verify_nodes)) {
                Some(b) => b.mv,
                None => break,
            }
        };
        let next = pos.played(&reply);
        if !goes_on(&next) {
            break;
        }
        let Some(lines) = two_lines(engine, &next, s.verify_nodes) else {
            break;
        };
        if !unique(&lines, s.gap) {
            break;
        }
        line.push(reply);
        line.push(lines.best.mv);
        pos = next.played(&lines.best.mv);
    }
    line
}

/// Step 8: the whole line replays as a game from the puzzle's FEN, no position of it over by
/// a rule (repetition, the no-progress clock) before its last move.
fn replays<G: Game>(c: &Candidate<G>, solution: &[G::Move]) -> bool {
    let mut record = Record::new(c.before.clone());
    for m in std::iter::once(&c.played).chain(solution) {
        if record.outcome().is_some() {
            return false;
        }
        record.play(*m);
    }
    true
}

/// A puzzle's name: six letters and digits from the seed, the game and the position.
pub fn puzzle_id<G: Game>(after: &G, seed: u64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut x = after.hash() ^ seed.rotate_left(17) ^ (G::VARIANT as u64).wrapping_mul(0x9e37_79b9);
    // splitmix64's finaliser: every bit of the inputs moves every letter.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    (0..6)
        .map(|_| {
            let d = DIGITS[(x % 62) as usize] as char;
            x /= 62;
            d
        })
        .collect()
}

/// The step at which a candidate stopped being one: the miner's funnel, counted in its
/// summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stop {
    /// 1: the game is over, or the solver has one move.
    NoChoice,
    /// 2: the screening search does not see the solver a man up.
    Screen,
    /// 3: the miner's two lines find no unique move over the floor.
    Mined,
    /// 4: the deeper search disagrees.
    Verified,
    /// 6: searched on its own, every legal move of the first position, the first move is not
    /// best by the gap and over the floor.
    Checked,
    /// 7: a one-move puzzle a shallow search solves.
    Easy,
    /// 8: the line crosses a game's end by repetition or the no-progress rule.
    Replay,
    /// A position a puzzle of the same game passes through: part of that one.
    InLine,
}

impl Stop {
    /// Every step, in order.
    pub const ALL: [Stop; 8] = [
        Stop::NoChoice,
        Stop::Screen,
        Stop::Mined,
        Stop::Verified,
        Stop::Checked,
        Stop::Easy,
        Stop::Replay,
        Stop::InLine,
    ];

    /// Its name in the summary.
    pub fn name(self) -> &'static str {
        match self {
            Stop::NoChoice => "no choice",
            Stop::Screen => "screen",
            Stop::Mined => "mined",
            Stop::Verified => "verify",
            Stop::Checked => "check",
            Stop::Easy => "easy",
            Stop::Replay => "replay",
            Stop::InLine => "in a puzzle's line",
        }
    }
}

/// The puzzle that starts at candidate `c`, or the step where it stopped; `source` names its
/// game.
pub fn mine<G: Game>(
    engine: &mut Engine,
    c: &Candidate<G>,
    s: &Settings,
    source: &str,
) -> Result<Puzzle, Stop> {
    // 1. The solver has a choice.
    if !worth_searching(c) {
        return Err(Stop::NoChoice);
    }
    engine.clear_hash();
    // 2. A short search sees the solver ahead.
    if !passes_screen(engine, &c.after, s) {
        return Err(Stop::Screen);
    }
    // 3. The miner's two lines: one move unique by the gap, over the floor.
    let mined = two_lines(engine, &c.after, s.nodes).ok_or(Stop::Mined)?;
    if !first_move(&mined, s.gap) {
        return Err(Stop::Mined);
    }
    // 4. A deeper two-line search agrees: the same move, unique, over the floor.
    let deep = two_lines(engine, &c.after, s.verify_nodes).ok_or(Stop::Verified)?;
    if deep.best.mv != mined.best.mv || !first_move(&deep, s.gap) {
        return Err(Stop::Verified);
    }
    // 5. The line, while the solver's moves stay unique.
    let solution = extend(engine, &c.after, deep.best, s);
    // 6. Every legal move searched on its own: each solver move best by the gap, the first
    // over the floor; the line cut after its last solver move that passes.
    let solution = check::checked(engine, &c.after, &solution, s.check_nodes, s.gap);
    if solution.is_empty() {
        return Err(Stop::Checked);
    }
    // 7. A one-move puzzle only where a shallow search misses the move.
    if solution.len() == 1
        && best_move(engine, &c.after, &depth(EASY_DEPTH)).is_some_and(|b| b.mv == solution[0])
    {
        return Err(Stop::Easy);
    }
    // 8. The line is a game's line from the puzzle's FEN.
    if !replays(c, &solution) {
        return Err(Stop::Replay);
    }
    let moves = std::iter::once(&c.played)
        .chain(&solution)
        .map(|m| m.to_string())
        .collect();
    Ok(Puzzle {
        id: puzzle_id(&c.after, s.seed),
        fen: c.before.to_fen(),
        moves,
        rating: starting_rating(deep.settled, solution.len().div_ceil(2)),
        themes: themes(&c.after, &solution),
        source: source.to_string(),
    })
}
