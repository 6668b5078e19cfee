//! A deliberately simple solver, written apart from `src/egdb/`: it knows the game only
//! through its legal moves (the library's `Rules` and `Game`), and solves the game with the
//! no-progress clock as part of the state, by plain value iteration over every (position,
//! clock) pair: no distances, no index, no symmetry.
//!
//! Rules it applies (docs/rules-russian.md, docs/rules-turkish.md): the game's own decision
//! (Turkish: one king against one man) first; a side without a legal move loses, at any
//! clock; with the clock at the limit the game is drawn; a capture or a man's move sets the
//! clock to 0, a king's quiet move adds 1. A state is won if a move leads to a lost state,
//! lost if every move leads to a won one; whatever is left when nothing changes is drawn.

use bashni::games::{Game, Rules};
use std::collections::HashMap;

/// A solved state: won or lost for the side to move, or not decided (drawn).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Result3 {
    Win,
    Draw,
    Loss,
}

/// Where a move leads: a position of the set, or a position decided on the spot.
#[derive(Clone, Copy)]
enum To {
    Index(u32),
    Lost,
}

struct Edge {
    to: To,
    resets: bool,
}

/// The positions of the set with their moves, and the solution at each clock and without
/// the rule.
pub struct Solution<G> {
    pub positions: Vec<G>,
    /// `at[c][p]`: position `p` with the clock at `c`.
    pub at: Vec<Vec<Result3>>,
    /// Without the rule.
    pub free: Vec<Result3>,
}

/// Every position with the given pieces: `piece_sets` lists sets of piece letters (`w`, `W`,
/// `b`, `B`); each is put on every choice of distinct squares (a man never on its crowning
/// rank), with either side to move. `dark_only`: the game plays on the dark squares.
pub fn positions<G: Rules>(piece_sets: &[&str], dark_only: bool) -> Vec<G> {
    let squares: Vec<(u8, u8)> = (0..8u8)
        .flat_map(|r| (0..8u8).map(move |f| (f, r)))
        .filter(|&(f, r)| !dark_only || (f + r) % 2 == 0)
        .collect();
    let mut out = Vec::new();
    for set in piece_sets {
        let letters: Vec<char> = set.chars().collect();
        let mut chosen = Vec::new();
        place(&squares, &letters, &mut chosen, &mut out);
    }
    out
}

fn place<G: Rules>(
    squares: &[(u8, u8)],
    letters: &[char],
    chosen: &mut Vec<(u8, u8)>,
    out: &mut Vec<G>,
) {
    if chosen.len() == letters.len() {
        for side in ["w", "b"] {
            let mut board = [['.'; 8]; 8];
            for (&(f, r), &l) in chosen.iter().zip(letters) {
                board[r as usize][f as usize] = l;
            }
            out.push(G::from_fen(&fen(&board, side)).expect("a FEN of the test's own"));
        }
        return;
    }
    let i = chosen.len();
    for &(f, r) in squares {
        let l = letters[i];
        if (l == 'w' && r == 7) || (l == 'b' && r == 0) || chosen.contains(&(f, r)) {
            continue;
        }
        // Pieces of one letter in increasing square order: each set of squares once.
        if i > 0 && letters[i - 1] == l && chosen[i - 1] >= (f, r) {
            continue;
        }
        chosen.push((f, r));
        place(squares, letters, chosen, out);
        chosen.pop();
    }
}

fn fen(board: &[[char; 8]; 8], side: &str) -> String {
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|r| {
            let mut s = String::new();
            let mut empty = 0;
            for &cell in &board[r] {
                match cell {
                    '.' => empty += 1,
                    c => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(c);
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            s
        })
        .collect();
    format!("{} {side} 0 1", ranks.join("/"))
}

/// Solves `positions`, whose successors must all be among them (or have no legal move).
pub fn solve<G: Game>(positions: Vec<G>, limit: usize) -> Solution<G> {
    let index: HashMap<u64, u32> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p.hash(), i as u32))
        .collect();
    let mut fixed = vec![None; positions.len()];
    let mut edges: Vec<Vec<Edge>> = Vec::with_capacity(positions.len());
    for (i, p) in positions.iter().enumerate() {
        let mut list = Vec::new();
        if let Some(w) = p.decided() {
            fixed[i] = Some(if w == p.side_to_move() {
                Result3::Win
            } else {
                Result3::Loss
            });
        } else {
            for m in p.legal_moves().iter() {
                let (f, r) = G::move_squares(m)[0];
                let man = !p.tower_at(f, r).expect("a square").top().is_king();
                let child = p.played(m);
                let to = match index.get(&child.hash()) {
                    Some(&j) => To::Index(j),
                    None if !child.has_legal_move() => To::Lost,
                    None => panic!("{} leads out of the set: {}", p.to_fen(), child.to_fen()),
                };
                list.push(Edge {
                    to,
                    resets: man || G::is_capture(m),
                });
            }
            if list.is_empty() {
                fixed[i] = Some(Result3::Loss);
            }
        }
        edges.push(list);
    }
    let at = solve_with_clock(&fixed, &edges, limit);
    let free = solve_with_clock(&fixed, &edges, usize::MAX).remove(0);
    Solution {
        positions,
        at,
        free,
    }
}

/// Value iteration over (position, clock); `limit` usize::MAX: no rule (one clock value).
fn solve_with_clock(
    fixed: &[Option<Result3>],
    edges: &[Vec<Edge>],
    limit: usize,
) -> Vec<Vec<Result3>> {
    let clocks = if limit == usize::MAX { 1 } else { limit + 1 };
    let n = fixed.len();
    let mut at: Vec<Vec<Result3>> = (0..clocks)
        .map(|_| fixed.iter().map(|f| f.unwrap_or(Result3::Draw)).collect())
        .collect();
    loop {
        let mut changed = false;
        for c in (0..clocks).rev() {
            if clocks > 1 && c == limit {
                continue; // drawn unless decided or without a move
            }
            for p in 0..n {
                if fixed[p].is_some() || at[c][p] != Result3::Draw {
                    continue;
                }
                let (mut win, mut all_lose) = (false, true);
                for e in &edges[p] {
                    let v = match e.to {
                        To::Lost => Result3::Loss,
                        To::Index(j) => {
                            let next = if e.resets || clocks == 1 { 0 } else { c + 1 };
                            at[next][j as usize]
                        }
                    };
                    win |= v == Result3::Loss;
                    all_lose &= v == Result3::Win;
                }
                let v = if win {
                    Result3::Win
                } else if all_lose {
                    Result3::Loss
                } else {
                    continue;
                };
                at[c][p] = v;
                changed = true;
            }
        }
        if !changed {
            return at;
        }
    }
}
