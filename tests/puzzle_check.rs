//! A deliberately simple puzzle checker, independent of the miner: it knows the file format
//! from docs/puzzles.md and the game's rules, and judges a puzzle with its own searches. The
//! miner compares the two best lines of one MultiPV search; this checker plays every legal
//! move of each solver position and searches the position after it to a fixed number of
//! nodes from an empty table, so it sees each move's score by itself.
//!
//! A puzzle passes when its line replays legally from its FEN, the opponent's moves are legal
//! and the line ends with a solver move, every solver move scores best and beats every other
//! move by the gap in lichess' winning chances, and the first move clears the floor: the only
//! move that wins, or at least one and a half men and that much ahead of every other move.

use bashni::games::Game;
use bashni::games::kit::Color;
use bashni::search::{Engine, Score, SearchControl, SearchLimits};

/// lichess' gap in winning chances (`bashni puzzles --gap`, default).
pub const GAP: f64 = 0.7;
/// The floor: one and a half men.
pub const FLOOR_CP: i32 = 150;
/// A won or lost score counts as this many centi-men.
const DECISIVE: i32 = 10_000;

/// One puzzle line's fields.
#[derive(Debug, Clone)]
pub struct Line {
    pub id: String,
    pub fen: String,
    pub moves: Vec<String>,
    pub rating: u32,
    pub themes: Vec<String>,
    pub source: String,
}

/// Reads a puzzle file: the header `PuzzleId,FEN,Moves,Rating,Themes,Source`, then six
/// comma-separated fields a line (the shipped files quote nothing: no field holds a comma).
pub fn read_file(text: &str) -> Vec<Line> {
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("PuzzleId,FEN,Moves,Rating,Themes,Source")
    );
    lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 6, "{l}");
            Line {
                id: f[0].to_string(),
                fen: f[1].to_string(),
                moves: f[2].split(' ').map(String::from).collect(),
                rating: f[3].parse().unwrap_or_else(|_| panic!("rating: {l}")),
                themes: f[4]
                    .split(' ')
                    .filter(|t| !t.is_empty())
                    .map(String::from)
                    .collect(),
                source: f[5].to_string(),
            }
        })
        .collect()
}

/// Centi-men of a score (a win or loss as [`DECISIVE`]).
fn centi(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c.clamp(-DECISIVE, DECISIVE),
        Score::WinIn(_) => DECISIVE,
        Score::LossIn(_) => -DECISIVE,
    }
}

/// lichess' winning chances, -1 to 1.
fn chances(cp: i32) -> f64 {
    2.0 / (1.0 + (-0.003_682_08 * f64::from(cp)).exp()) - 1.0
}

/// The score of `pos` for its side to move, by a search of `nodes` nodes from an empty
/// table; a position where the game is over is scored by the rules.
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
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..Default::default()
    };
    let control = SearchControl::new(false);
    engine
        .search(pos, &[], &limits, &control, &mut |_| {})
        .score
}

/// Every legal move of `pos` with its score for the side to move (the negated score of the
/// position after it), best first.
fn scored_moves<G: Game>(engine: &mut Engine, pos: &G, nodes: u64) -> Vec<(G::Move, Score)> {
    let mut out: Vec<(G::Move, Score)> = pos
        .legal_moves()
        .iter()
        .map(|m| {
            let after = score_of(engine, &pos.played(m), nodes);
            let mine = match after {
                Score::Cp(c) => Score::Cp(-c),
                Score::WinIn(n) => Score::LossIn(n + 1),
                Score::LossIn(n) => Score::WinIn(n + 1),
            };
            (*m, mine)
        })
        .collect();
    out.sort_by_key(|(_, s)| -centi(*s));
    out
}

/// Why a puzzle fails the check, or `Ok` with the number of solver positions judged.
pub fn check<G: Game>(engine: &mut Engine, p: &Line, nodes: u64) -> Result<usize, String> {
    let mut pos = G::from_fen(&p.fen).map_err(|e| format!("{}: FEN: {e:?}", p.id))?;
    if p.moves.len() < 2 || !p.moves.len().is_multiple_of(2) {
        return Err(format!("{}: {} moves", p.id, p.moves.len()));
    }
    let solver: Color = pos.side_to_move().opponent();
    let mut judged = 0;
    for (i, text) in p.moves.iter().enumerate() {
        let over = pos.decided().is_some() || !pos.has_legal_move();
        if over {
            return Err(format!("{}: the game is over before move {}", p.id, i + 1));
        }
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("{}: move {} '{text}': {e:?}", p.id, i + 1))?;
        if i % 2 == 1 {
            assert_eq!(pos.side_to_move(), solver);
            let scored = scored_moves(engine, &pos, nodes);
            let (best, best_score) = scored[0];
            let mine = scored.iter().find(|(mv, _)| *mv == m).expect("legal").1;
            let others: Vec<i32> = scored
                .iter()
                .filter(|(mv, _)| *mv != m)
                .map(|(_, s)| centi(*s))
                .collect();
            let second = others.iter().copied().max();
            if centi(mine) < centi(best_score) {
                return Err(format!(
                    "{}: solver move {text} scores {mine:?}, {best} scores {best_score:?}",
                    p.id
                ));
            }
            if let Some(second) = second {
                let gap = chances(centi(mine)) - chances(second);
                if gap < GAP - 1e-9 {
                    return Err(format!(
                        "{}: solver move {text} ({mine:?}) beats the next move ({second} cp) by \
                         {gap:.3} in winning chances, under {GAP}",
                        p.id
                    ));
                }
            }
            if i == 1 {
                let only_win =
                    matches!(mine, Score::WinIn(_)) && second.is_none_or(|s| s < DECISIVE);
                let ahead =
                    centi(mine) >= FLOOR_CP && second.is_none_or(|s| centi(mine) - s >= FLOOR_CP);
                if !only_win && !ahead {
                    return Err(format!(
                        "{}: first move {text} ({mine:?}) is not the only win nor 1.5 men ahead \
                         of every other move (next best {second:?} cp)",
                        p.id
                    ));
                }
            }
            judged += 1;
        }
        pos = pos.played(&m);
    }
    Ok(judged)
}
