//! A group's positions split by their men, so that the solver holds one part at a time.
//!
//! A man's move is irreversible and resets the clock, so the positions of one placement of
//! the men (a men configuration: the men's part of a slot, whose king slots are contiguous)
//! lead to each other by king moves only, each of which also turns the side to move: the
//! configuration seen from the other side, in the group's other table. A sub-problem is
//! every configuration with the same advancement of our men and of theirs (the sums of the
//! men's ranks, each counted from its own side), with its counterpart in the other table.
//! A man's move that does not crown or capture advances a man (a Turkish man's sideways
//! move keeps the advancement and the sub-problem), so the sub-problems are solved in
//! decreasing total advancement: every man's move leaves for a sub-problem solved before,
//! whose value it takes as a move to a smaller table does. Sub-problems of one total do not
//! reach each other and are solved in parallel.
//!
//! In a game symmetric under the board's mirror (Turkish), the configurations whose men's
//! mirror comes first ([`Layout::mirror_first`]) are in no sub-problem: their positions'
//! values are their mirrors', copied once the others are solved.

use super::game::Layout;
use super::material::Indexer;
use std::collections::HashMap;
use std::ops::Range;

/// A men configuration of no sub-problem: two men on one square, or solved as its mirror.
const NONE: u32 = u32::MAX;

/// One men configuration of one of the group's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The table's place in the group.
    pub table: usize,
    /// The men's part of its slots ([`Indexer::men`]).
    pub men: u64,
}

/// A sub-problem: men configurations that king moves join, and its total advancement.
#[derive(Debug)]
pub struct Sub {
    /// Its configurations; its local slots are theirs, the first one's king slots first.
    pub configs: Vec<Config>,
    /// Its local slots.
    pub size: u64,
    /// The advancement of our men plus theirs.
    pub total: u32,
}

/// Where a slot of the group is solved: a sub-problem, and the slot's place in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The sub-problem's place in [`Split::subs`].
    pub sub: u32,
    /// The local slot.
    pub local: u32,
}

/// The sub-problems of a group, in the order they are solved.
pub struct Split {
    /// By table and men configuration: its sub-problem, or [`NONE`].
    sub_of: Vec<Vec<u32>>,
    /// By table and men configuration: its first local slot in its sub-problem.
    base: Vec<Vec<u32>>,
    /// The king slots of one configuration, by table.
    king_slots: Vec<u64>,
    /// The sub-problems, more advanced first.
    pub subs: Vec<Sub>,
}

/// The advancement of a side's men: the sum of their ranks counted from that side (White's
/// from rank 0, Black's from rank 7) on a board of `squares` squares, eight ranks.
fn advancement(men: u64, white: bool, squares: usize) -> u32 {
    let per_rank = (squares / 8) as u32;
    let mut sum = 0;
    let mut set = men;
    while set != 0 {
        let rank = set.trailing_zeros() / per_rank;
        sum += if white { rank } else { 7 - rank };
        set &= set - 1;
    }
    sum
}

impl Split {
    /// The split of the group of tables `ix` (one signature, or a signature and its swap)
    /// on a board of `squares` squares; with `mirror`, of the configurations that are not
    /// solved as their mirror.
    pub fn new(ix: &[Indexer], squares: usize, mirror: bool) -> Split {
        // The key of a configuration: (our advancement, theirs) as seen in the first table.
        let key = |table: usize, men: [u64; 2]| {
            let (a, b) = (
                advancement(men[0], true, squares),
                advancement(men[1], false, squares),
            );
            match (table, ix.len()) {
                (0, 2) => (a, b),
                (_, 2) => (b, a),
                _ => (a.min(b), a.max(b)),
            }
        };
        let mut keys: Vec<(u32, u32)> = Vec::new();
        let mut seen = HashMap::new();
        let mut sub_of: Vec<Vec<u32>> = Vec::new();
        for (t, i) in ix.iter().enumerate() {
            let mut of = vec![NONE; i.men_configs() as usize];
            for (c, slot) in of.iter_mut().enumerate() {
                if let Some(men) = i
                    .men(c as u64)
                    .filter(|&m| !mirror || !Layout::mirror_first(m))
                {
                    let k = key(t, men);
                    *slot = *seen.entry(k).or_insert_with(|| {
                        keys.push(k);
                        keys.len() as u32 - 1
                    });
                }
            }
            sub_of.push(of);
        }
        // Solving order: more advanced first, then by key.
        let mut order: Vec<u32> = (0..keys.len() as u32).collect();
        order.sort_by_key(|&k| {
            let (a, b) = keys[k as usize];
            (std::cmp::Reverse(a + b), a, b)
        });
        let mut rename = vec![0u32; keys.len()];
        for (new, &old) in order.iter().enumerate() {
            rename[old as usize] = new as u32;
        }
        let mut subs: Vec<Sub> = order
            .iter()
            .map(|&k| Sub {
                configs: Vec::new(),
                size: 0,
                total: keys[k as usize].0 + keys[k as usize].1,
            })
            .collect();
        let mut base = Vec::new();
        for (t, of) in sub_of.iter_mut().enumerate() {
            let ks = ix[t].king_slots();
            let mut b = vec![0u32; of.len()];
            for (c, s) in of.iter_mut().enumerate() {
                if *s == NONE {
                    continue;
                }
                *s = rename[*s as usize];
                let sub = &mut subs[*s as usize];
                b[c] = sub.size as u32;
                sub.configs.push(Config {
                    table: t,
                    men: c as u64,
                });
                sub.size += ks;
                assert!(
                    sub.size < 1 << 31,
                    "a sub-problem of {} positions is too large",
                    sub.size
                );
            }
            base.push(b);
        }
        Split {
            sub_of,
            base,
            king_slots: ix.iter().map(|i| i.king_slots()).collect(),
            subs,
        }
    }

    /// Where slot `slot` of table `table` is solved, or `None` for a slot without a
    /// position or solved as its mirror.
    pub fn place(&self, table: usize, slot: u64) -> Option<Place> {
        let ks = self.king_slots[table];
        let c = (slot / ks) as usize;
        let sub = self.sub_of[table][c];
        (sub != NONE).then(|| Place {
            sub,
            local: self.base[table][c] + (slot % ks) as u32,
        })
    }

    /// The sub-problems in runs of one total advancement, in solving order: those of a run
    /// do not reach each other.
    pub fn levels(&self) -> Vec<Range<usize>> {
        let mut out: Vec<Range<usize>> = Vec::new();
        for (i, s) in self.subs.iter().enumerate() {
            match out.last_mut() {
                Some(r) if self.subs[r.start].total == s.total => r.end = i + 1,
                _ => out.push(i..i + 1),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egdb::game::{EgdbGame, stored};
    use crate::egdb::material::{Signature, indexer};
    use crate::egdb::solve::group;

    fn split_of<G: EgdbGame>(text: &str) -> (Vec<Indexer>, Split) {
        let sigs = group(Signature::parse(text).unwrap());
        let ix: Vec<Indexer> = sigs.iter().map(|&s| indexer::<G>(s)).collect();
        let split = Split::new(&ix, G::SQUARES, G::MIRROR);
        (ix, split)
    }

    /// Every slot with a position has one place, each place one slot; the others none (in
    /// Turkish, also the positions solved as their mirror, about half).
    fn places_are_one_to_one<G: EgdbGame>(text: &str) {
        let (ix, split) = split_of::<G>(text);
        let mut mirrored = 0u64;
        let mut seen: Vec<Vec<bool>> = split
            .subs
            .iter()
            .map(|s| vec![false; s.size as usize])
            .collect();
        for (t, i) in ix.iter().enumerate() {
            for slot in 0..i.size() {
                match (i.layout(slot), split.place(t, slot)) {
                    (None, None) => {}
                    (Some(l), None) if G::MIRROR && Layout::mirror_first(l.men) => mirrored += 1,
                    (Some(_), Some(p)) => {
                        let s = &mut seen[p.sub as usize][p.local as usize];
                        assert!(!*s, "{text}: two slots at {p:?}");
                        *s = true;
                    }
                    (l, p) => panic!("{text} {t} {slot}: {l:?} placed at {p:?}"),
                }
            }
        }
        assert!(seen.iter().flatten().all(|&s| s), "{text}: an empty place");
        let placed: u64 = split.subs.iter().map(|s| s.size).sum();
        // Kings alone are their own mirror's men configuration: all solved as they are.
        assert_eq!(mirrored > 0, G::MIRROR && text.contains('M'), "{text}");
        assert!(
            mirrored <= placed,
            "{text}: {mirrored} mirrored of {placed}"
        );
    }

    /// Every move from a position stays in its sub-problem, leaves the group, or reaches a
    /// sub-problem solved before (then it is a man's move); a king's move always stays.
    fn order_is_topological<G: EgdbGame>(text: &str) {
        let (ix, split) = split_of::<G>(text);
        let levels = split.levels();
        assert_eq!(
            levels.iter().map(|r| r.len()).sum::<usize>(),
            split.subs.len()
        );
        let level_of = |sub: u32| levels.iter().position(|r| r.contains(&(sub as usize)));
        let mut man_moves_out = 0;
        for (t, i) in ix.iter().enumerate() {
            for slot in 0..i.size() {
                let (Some(layout), Some(from)) = (i.layout(slot), split.place(t, slot)) else {
                    continue;
                };
                let pos = G::from_layout(&layout);
                if pos.decided().is_some() {
                    continue;
                }
                for m in pos.legal_moves().iter() {
                    let child = pos.played(m).layout();
                    let canon = stored::<G>(&child);
                    let sig = Signature::of(&canon);
                    let Some(j) = ix.iter().position(|x| x.signature() == sig) else {
                        continue;
                    };
                    let to = split.place(j, ix[j].index(&canon)).expect("a position");
                    let man_move = child.men[0] != layout.men[0];
                    if to.sub != from.sub {
                        assert!(man_move, "{text}: a king's move leaves its sub-problem");
                        assert!(
                            level_of(to.sub) < level_of(from.sub),
                            "{text}: a man's move to a later sub-problem"
                        );
                        man_moves_out += 1;
                    }
                }
            }
        }
        assert!(man_moves_out > 0, "{text}: no man's move tried");
    }

    #[test]
    fn every_russian_slot_has_one_place() {
        for text in ["KvK", "MvK", "KMvM", "MMvK", "KvMM", "MvM"] {
            places_are_one_to_one::<crate::games::russian::Position>(text);
        }
    }

    #[test]
    fn every_turkish_slot_has_one_place() {
        for text in ["KvK", "MvK", "MvM"] {
            places_are_one_to_one::<crate::games::turkish::Position>(text);
        }
    }

    #[test]
    fn man_moves_lead_to_sub_problems_solved_before() {
        for text in ["MvK", "KMvM", "MMvK", "MvM", "KMvK"] {
            order_is_topological::<crate::games::russian::Position>(text);
        }
        // A Turkish king against a lone man has won already (the game's rule).
        for text in ["KMvK", "MvM"] {
            order_is_topological::<crate::games::turkish::Position>(text);
        }
    }

    #[test]
    fn kings_alone_are_one_sub_problem() {
        let (_, split) = split_of::<crate::games::russian::Position>("KKvK");
        assert_eq!(split.subs.len(), 1);
        assert_eq!(split.subs[0].configs.len(), 2);
    }
}
