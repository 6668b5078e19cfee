//! A new game's variations, as `POST /api/games` takes them: collected from a PDN's tree or
//! given by a page as whole lines, counted against the limits before a move of them is
//! replayed, and less those that add nothing. The answer carries each variation whole from
//! the start (the page's tree keeps lines so), which is why [`MAX_TREE_MOVES`] counts them
//! so: a few bytes of PDN can name a long line many times.

use super::error::{ApiError, ErrorKind};
use crate::record::pdn::{MAX_VARIATION_DEPTH, PdnMove};

/// Most moves a new game may start with (a PDN of a very long game still fits).
pub const MAX_START_MOVES: usize = 2000;
/// Most variations a new game may bring (a PDN's, or those a page sends).
pub const MAX_VARIATIONS: usize = 300;

// The page writes its variations nested, each inside the one it leaves: its own PDN of the
// most variations a game may have must read back.
const _: () = assert!(MAX_VARIATIONS <= MAX_VARIATION_DEPTH);
/// Most moves a new game's lines may hold together: its main line and every variation, each
/// variation counted whole from the start, as the answer carries it (and a page sends it
/// back). A PDN of 300 one-move variations late in a 2,000-ply game is 21 KB of text but
/// about 600,000 such moves: refused on this count, before a move of it is replayed.
pub const MAX_TREE_MOVES: usize = 20_000;

fn bad(what: impl Into<String>) -> ApiError {
    ApiError::new(ErrorKind::BadRequest, what)
}

/// A new game's lines counted as they are collected, before any is replayed: at most
/// [`MAX_START_MOVES`] moves in each, [`MAX_VARIATIONS`] variations and [`MAX_TREE_MOVES`]
/// moves in all; `what` begins the message of a refusal.
pub struct Budget {
    moves: usize,
    variations: usize,
    what: &'static str,
}

impl Budget {
    /// The budget with the main line, of `moves` moves, counted.
    pub fn new(moves: usize, what: &'static str) -> Result<Budget, ApiError> {
        if moves > MAX_START_MOVES {
            return Err(bad(format!("{what}at most {MAX_START_MOVES} moves")));
        }
        Ok(Budget {
            moves,
            variations: 0,
            what,
        })
    }

    /// Counts a variation of `moves` moves from the start.
    pub fn take(&mut self, moves: usize) -> Result<(), ApiError> {
        let what = self.what;
        if self.variations == MAX_VARIATIONS {
            return Err(bad(format!("{what}more than {MAX_VARIATIONS} variations")));
        }
        if moves > MAX_START_MOVES {
            return Err(bad(format!(
                "{what}a variation of over {MAX_START_MOVES} moves"
            )));
        }
        self.variations += 1;
        self.moves += moves;
        if self.moves > MAX_TREE_MOVES {
            return Err(bad(format!(
                "{what}over {MAX_TREE_MOVES} moves in the main line and the variations \
                 together, each variation counted from the start"
            )));
        }
        Ok(())
    }
}

/// Where [`variation_lines`] is in one line of a PDN's tree.
struct Cursor<'a> {
    line: &'a [PdnMove],
    /// Moves before the line's first, from the start.
    base: usize,
    /// The move whose variations come next.
    at: usize,
    /// How many of them came.
    done: usize,
}

/// Every variation of a PDN game (its main line `main`) as a whole line from the start,
/// depth first: a variation, then those inside it, then the next one. Each is counted in
/// `budget` before it is built. A stack rather than recursion: the reader bounds the
/// tree's depth, and this walk needs no stack of its own for it.
pub fn variation_lines(
    main: &[PdnMove],
    budget: &mut Budget,
) -> Result<Vec<Vec<String>>, ApiError> {
    let mut out = Vec::new();
    // The moves from the start before the top cursor's move `at`.
    let mut before: Vec<&str> = Vec::new();
    let mut stack = vec![Cursor {
        line: main,
        base: 0,
        at: 0,
        done: 0,
    }];
    while let Some(c) = stack.last_mut() {
        let Some(m) = c.line.get(c.at) else {
            stack.pop();
            continue;
        };
        let fork = c.base + c.at;
        before.truncate(fork);
        if let Some(v) = m.variations.get(c.done) {
            c.done += 1;
            budget.take(fork + v.len())?;
            let whole = before.iter().map(|t| t.to_string());
            out.push(whole.chain(v.iter().map(|m| m.text.clone())).collect());
            stack.push(Cursor {
                line: v,
                base: fork,
                at: 0,
                done: 0,
            });
            continue;
        }
        before.push(&m.text);
        c.at += 1;
        c.done = 0;
    }
    Ok(out)
}

/// The variations less those that add nothing: a line inside the main line or inside
/// another variation (of two equal ones, the first stays). Sorted, a line lies inside
/// another exactly when it lies inside the next different one (the lines between share its
/// start), and equal lines sit side by side in the order given: a sort, not every pair.
pub fn without_repeats(main: &[String], lines: Vec<Vec<String>>) -> Vec<Vec<String>> {
    let inside = |a: &[String], b: &[String]| a.len() <= b.len() && a == &b[..a.len()];
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by(|&a, &b| lines[a].cmp(&lines[b]));
    let mut keep = vec![false; lines.len()];
    let mut k = 0;
    while k < order.len() {
        let l = &lines[order[k]];
        let end = k + order[k..].iter().take_while(|&&j| lines[j] == *l).count();
        let next = order.get(end).map(|&j| lines[j].as_slice());
        keep[order[k]] = !inside(l, main) && !next.is_some_and(|o| inside(l, o));
        k = end;
    }
    lines
        .into_iter()
        .zip(keep)
        .filter_map(|(l, k)| k.then_some(l))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `without_repeats` did before it sorted: every pair compared.
    fn without_repeats_by_pairs(main: &[String], lines: &[Vec<String>]) -> Vec<Vec<String>> {
        let inside = |a: &[String], b: &[String]| a.len() <= b.len() && a == &b[..a.len()];
        (0..lines.len())
            .filter(|&i| {
                let l = &lines[i];
                !inside(l, main)
                    && !lines
                        .iter()
                        .enumerate()
                        .any(|(j, o)| j != i && inside(l, o) && (l.len() < o.len() || j < i))
            })
            .map(|i| lines[i].clone())
            .collect()
    }

    #[test]
    fn repeated_lines_go_as_every_pair_compared_would_say() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as usize
        };
        for _ in 0..2000 {
            let line = |next: &mut dyn FnMut(u64) -> usize| -> Vec<String> {
                let len = next(4);
                (0..len).map(|_| ["a", "b"][next(2)].to_string()).collect()
            };
            let main = line(&mut next);
            let n = next(9);
            let lines: Vec<Vec<String>> = (0..n).map(|_| line(&mut next)).collect();
            assert_eq!(
                without_repeats(&main, lines.clone()),
                without_repeats_by_pairs(&main, &lines),
                "{main:?} {lines:?}"
            );
        }
    }
}
