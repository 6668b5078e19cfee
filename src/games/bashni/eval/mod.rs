//! Static evaluation in centi-men (a man = 100) from the side to move's view.
//!
//! Towers change the material picture: a piece under an enemy commander is a reserve that a
//! capture of that tower may free, and an enemy piece under an own commander is a liability
//! that comes back to life if the tower is jumped. So every piece counts for its own colour,
//! at a weight that depends on where it stands in its tower.
//!
//! The evaluation is a weighted sum of features ([`features`]); the weights
//! ([`weights::WEIGHTS`], a file `bashni tune` writes) have an opening and an endgame value,
//! blended by how many towers are left: pieces never leave the board in Bashni, but towers
//! merge as the game goes on, so the tower count is the game's clock.

pub mod features;
pub mod weights;

use crate::games::bashni::position::Position;
use crate::games::kit::color::Color;
use crate::games::kit::linear;
use crate::games::kit::moves::Move;
use features::{GROUPS, KING_PRISONER, MAN_PRISONER, NUM_FEATURES, Sink, extract};
use weights::WEIGHTS;

/// Towers at the start; the phase runs from this (opening) down to 0 (endgame).
pub const PHASE_MAX: i32 = 24;

/// The game phase of `pos`: the number of towers, at most [`PHASE_MAX`].
#[inline]
pub fn phase(pos: &Position) -> i32 {
    (pos.occupied().count() as i32).min(PHASE_MAX)
}

/// Blends an opening and an endgame value by `phase`.
#[inline]
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

impl linear::LinearEval for Position {
    const GROUPS: &'static [linear::Group] = GROUPS;
    const NUM_FEATURES: usize = NUM_FEATURES;
    const PHASE_MAX: i32 = PHASE_MAX;
    const WEIGHTS: &'static [[i32; 2]] = &WEIGHTS;
    const WEIGHTS_FILE: &'static str = "src/games/bashni/eval/weights.txt";

    #[inline]
    fn extract<S: Sink>(&self, sink: &mut S) {
        extract(self, sink);
    }

    #[inline]
    fn phase(&self) -> i32 {
        phase(self)
    }
}

/// The sink of the engine's evaluation: weighted sums from White's view.
#[derive(Default)]
struct Weighted {
    mg: i32,
    eg: i32,
}

impl Sink for Weighted {
    #[inline(always)]
    fn add(&mut self, c: Color, f: usize, count: i32) {
        let v = if c == Color::White { count } else { -count };
        self.mg += WEIGHTS[f][0] * v;
        self.eg += WEIGHTS[f][1] * v;
    }
}

/// Static evaluation from the side to move's view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut sum = Weighted::default();
    extract(pos, &mut sum);
    let white = taper(sum.mg, sum.eg, phase(pos));
    if pos.side() == Color::White {
        white
    } else {
        -white
    }
}

/// The value of a single commander (a man, or a king) in the current phase, for move
/// ordering and other estimates that need piece values.
pub fn commander_value(king: bool, phase: i32) -> i32 {
    let w = WEIGHTS[if king { features::KING } else { features::MAN }];
    taper(w[0], w[1], phase)
}

/// Material a capture takes, at the evaluation's values: each commander it removes, plus
/// what each of our pieces it frees gains by going from prisoner to commander.
pub fn capture_gain(pos: &Position, m: &Move) -> i32 {
    let phase = phase(pos);
    let mut gain = 0;
    for (i, &c) in m.jumped().iter().enumerate() {
        // A square jumped twice gives up its second piece the second time.
        let times = m.jumped()[..i].iter().filter(|&&x| x == c).count();
        let t = pos.tower(c);
        let piece = t.piece(times.min(t.height().saturating_sub(1)));
        gain += commander_value(piece.is_king(), phase);
        if t.height() > times + 1 {
            let freed = t.piece(times + 1);
            if freed.color() == pos.side() {
                let king = freed.is_king();
                let p = WEIGHTS[if king { KING_PRISONER } else { MAN_PRISONER }];
                gain += commander_value(king, phase) - taper(p[0], p[1], phase);
            }
        }
    }
    gain
}

/// The evaluation terms `eval` shows, in order; each gathers one or more feature groups.
pub const TERMS: [&str; 9] = [
    "material",
    "prisoners",
    "advancement",
    "back rank",
    "mobility",
    "exposed",
    "center",
    "piece squares",
    "tempo",
];

/// One side's evaluation by term (opening and endgame blended by the position's phase), for
/// display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    values: [i32; TERMS.len()],
}

impl Terms {
    /// Sum of the terms.
    pub fn total(&self) -> i32 {
        self.values.iter().sum()
    }

    /// Term names and values, in [`TERMS`] order.
    pub fn named(&self) -> Vec<(&'static str, i32)> {
        TERMS.iter().copied().zip(self.values).collect()
    }
}

/// Per-side feature counts.
struct Counts([[i32; NUM_FEATURES]; 2]);

impl Sink for Counts {
    fn add(&mut self, c: Color, f: usize, count: i32) {
        self.0[c.index()][f] += count;
    }
}

/// Terms of `c`'s side.
pub fn side_terms(pos: &Position, c: Color) -> Terms {
    let mut counts = Counts([[0; NUM_FEATURES]; 2]);
    extract(pos, &mut counts);
    let phase = phase(pos);
    let mut mg = [0; TERMS.len()];
    let mut eg = [0; TERMS.len()];
    for g in GROUPS {
        let t = TERMS
            .iter()
            .position(|&t| t == g.term)
            .expect("every group's term is listed");
        let range = g.start..g.start + g.len;
        for (w, n) in WEIGHTS[range.clone()]
            .iter()
            .zip(&counts.0[c.index()][range])
        {
            mg[t] += w[0] * n;
            eg[t] += w[1] * n;
        }
    }
    let values = std::array::from_fn(|t| taper(mg[t], eg[t], phase));
    Terms { values }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::notation::{parse_fen, to_fen};
    use crate::games::kit::fen::mirrored;
    use crate::record::openings::random_playout;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    /// Positions from random games of many lengths.
    fn positions() -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(7);
        (0..300)
            .filter_map(|i| random_playout::<Position, _>(&mut rng, 2 + i % 80))
            .map(|(g, _)| g.position().clone())
            .collect()
    }

    #[test]
    fn the_generic_evaluation_is_this_one() {
        linear::check_layout::<Position>();
        for p in positions() {
            assert_eq!(linear::evaluate(&p), evaluate(&p), "{}", to_fen(&p));
        }
    }

    #[test]
    fn colours_are_symmetric() {
        for p in positions() {
            let m = parse_fen(&mirrored(&to_fen(&p))).unwrap();
            assert_eq!(evaluate(&p), evaluate(&m), "{}", to_fen(&p));
        }
    }

    #[test]
    fn terms_add_up_to_the_evaluation() {
        for p in positions() {
            let us = side_terms(&p, p.side()).total();
            let them = side_terms(&p, p.side().opponent()).total();
            // Each term is rounded on its own.
            assert!(
                (evaluate(&p) - (us - them)).abs() <= TERMS.len() as i32,
                "{}",
                to_fen(&p)
            );
        }
    }

    #[test]
    fn own_prisoners_are_a_reserve() {
        // Black commands a tower holding a white man: that man counts for White.
        let with = parse_fen("8/8/8/8/3(bw)4/8/8/w7 w").unwrap();
        let without = parse_fen("8/8/8/8/3b4/8/8/w7 w").unwrap();
        assert!(evaluate(&with) > evaluate(&without));
    }
}
