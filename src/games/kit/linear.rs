//! What every game's linear evaluation shares: feature groups, the [`Sink`] that one walk over
//! a position feeds, the tapering of opening and endgame values by a phase, and the
//! [`LinearEval`] trait through which `bashni tune` fits any game's weights and writes its
//! weights file.
//!
//! A game's evaluation is a sum over features of (White's count - Black's count) x weight,
//! each weight an opening and an endgame value blended by the game's phase. One function per
//! game, [`LinearEval::extract`], counts the features, and both the engine (a sink that
//! multiplies by the weights as it goes) and the tuner (a sink that records the counts) call
//! it, so what is evaluated and what is tuned cannot drift apart.

use super::game::Game;
use crate::games::kit::color::Color;

/// Receives feature counts.
pub trait Sink {
    /// Side `c` has `count` more of feature `f`.
    fn add(&mut self, c: Color, f: usize, count: i32);
}

/// A feature group: a name and the range of feature indices it covers.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    /// Name in the weights file.
    pub name: &'static str,
    /// The evaluation term it belongs to, as `eval` shows it.
    pub term: &'static str,
    /// First feature index.
    pub start: usize,
    /// Number of features.
    pub len: usize,
}

/// Declares a game's feature groups: one constant per group (its first feature index),
/// `GROUPS` (every group in index order) and `NUM_FEATURES`.
///
/// ```text
/// groups! {
///     MAN = "man", 1, "material";
///     ADVANCE = "advance", 8, "advancement";
/// }
/// ```
macro_rules! groups {
    ($($id:ident = $name:literal, $len:expr, $term:literal;)*) => {
        groups!(@consts 0usize; $($id $len;)*);
        /// Every feature group, in index order.
        pub const GROUPS: &[$crate::games::kit::linear::Group] = &[$($crate::games::kit::linear::Group {
            name: $name, term: $term, start: $id, len: $len
        }),*];
    };
    (@consts $at:expr; $id:ident $len:expr; $($rest:tt)*) => {
        #[doc = concat!("First feature of group `", stringify!($id), "`.")]
        pub const $id: usize = $at;
        groups!(@consts $at + $len; $($rest)*);
    };
    (@consts $at:expr;) => {
        /// Number of features.
        pub const NUM_FEATURES: usize = $at;
    };
}
pub(crate) use groups;

/// The name of feature `f` among `groups`: its group, and its index within the group when
/// there are several.
pub fn feature_name(groups: &[Group], f: usize) -> String {
    let g = groups
        .iter()
        .find(|g| f >= g.start && f < g.start + g.len)
        .expect("feature index in range");
    if g.len == 1 {
        g.name.to_string()
    } else {
        format!("{} {}", g.name, f - g.start)
    }
}

/// A game whose evaluation is linear in its weights: what `bashni tune` needs to fit them and
/// to write them back as the game's weights file.
pub trait LinearEval: Game {
    /// The feature groups, in index order (they tile `0..NUM_FEATURES`).
    const GROUPS: &'static [Group];
    /// Number of features.
    const NUM_FEATURES: usize;
    /// The phase at the start of a game (opening); 0 is the endgame.
    const PHASE_MAX: i32;
    /// The weights compiled in: `[opening, endgame]` per feature, centi-men.
    const WEIGHTS: &'static [[i32; 2]];
    /// Where the weights file lives in the source tree (what `bashni tune --out` replaces
    /// to change the weights compiled in).
    const WEIGHTS_FILE: &'static str;

    /// Counts every feature of the position into `sink`.
    fn extract<S: Sink>(&self, sink: &mut S);

    /// The game phase, from [`LinearEval::PHASE_MAX`] (opening) down to 0 (endgame).
    fn phase(&self) -> i32;
}

/// Blends an opening and an endgame value by `phase` out of `phase_max`.
#[inline]
pub fn taper_by(mg: i32, eg: i32, phase: i32, phase_max: i32) -> i32 {
    (mg * phase + eg * (phase_max - phase)) / phase_max
}

/// The sink of the engine's evaluation: weighted sums from White's view.
struct Weighted<'a> {
    weights: &'a [[i32; 2]],
    mg: i32,
    eg: i32,
}

impl Sink for Weighted<'_> {
    #[inline(always)]
    fn add(&mut self, c: Color, f: usize, count: i32) {
        let v = if c == Color::White { count } else { -count };
        let w = self.weights[f];
        self.mg += w[0] * v;
        self.eg += w[1] * v;
    }
}

/// The linear evaluation of `pos` with the weights compiled in, centi-men from the side to
/// move's view.
#[inline]
pub fn evaluate<G: LinearEval>(pos: &G) -> i32 {
    let mut sum = Weighted {
        weights: G::WEIGHTS,
        mg: 0,
        eg: 0,
    };
    pos.extract(&mut sum);
    let white = taper_by(sum.mg, sum.eg, pos.phase(), G::PHASE_MAX);
    if pos.side_to_move() == Color::White {
        white
    } else {
        -white
    }
}

/// The value of weight `f` (a piece's material weight, say) in `pos`'s phase.
#[inline]
pub fn weight_now<G: LinearEval>(pos: &G, f: usize) -> i32 {
    let w = G::WEIGHTS[f];
    taper_by(w[0], w[1], pos.phase(), G::PHASE_MAX)
}

/// Per-side feature counts, for tests and displays: `counts[colour][feature]`.
pub fn side_counts<G: LinearEval>(pos: &G) -> [Vec<i32>; 2] {
    struct Counts([Vec<i32>; 2]);
    impl Sink for Counts {
        fn add(&mut self, c: Color, f: usize, count: i32) {
            self.0[c.index()][f] += count;
        }
    }
    let mut counts = Counts([vec![0; G::NUM_FEATURES], vec![0; G::NUM_FEATURES]]);
    pos.extract(&mut counts);
    counts.0
}

/// [`side_counts`] of the position `fen` describes, for tests written as FENs.
///
/// # Panics
/// If `fen` is not a position of `G`.
pub fn fen_counts<G: LinearEval>(fen: &str) -> [Vec<i32>; 2] {
    match G::from_fen(fen) {
        Ok(pos) => side_counts(&pos),
        Err(_) => panic!("not a {:?} FEN: {fen}", G::VARIANT),
    }
}

/// The evaluation terms of `G` in the order its groups first name them (each term gathers
/// one or more feature groups).
pub fn term_names<G: LinearEval>() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for g in G::GROUPS {
        if !names.contains(&g.term) {
            names.push(g.term);
        }
    }
    names
}

/// Side `c`'s evaluation of `pos` term by term ([`term_names`] order), each term's opening
/// and endgame values blended by the phase on their own (so the terms of both sides add up
/// to [`evaluate`] within a centi-man a term), for display.
pub fn side_terms<G: LinearEval>(pos: &G, c: Color) -> Vec<(&'static str, i32)> {
    let counts = side_counts(pos);
    let names = term_names::<G>();
    let mut mg = vec![0; names.len()];
    let mut eg = vec![0; names.len()];
    for g in G::GROUPS {
        let t = names.iter().position(|&n| n == g.term).expect("listed");
        let range = g.start..g.start + g.len;
        for (w, n) in G::WEIGHTS[range.clone()]
            .iter()
            .zip(&counts[c.index()][range])
        {
            mg[t] += w[0] * n;
            eg[t] += w[1] * n;
        }
    }
    let phase = pos.phase();
    names
        .iter()
        .enumerate()
        .map(|(t, &n)| (n, taper_by(mg[t], eg[t], phase, G::PHASE_MAX)))
        .collect()
}

/// Checks that `G`'s groups tile its features and that it has a weight per feature (for each
/// game's tests).
/// Implements [`LinearEval`] for a game's position type `$pos` from the game's `features`
/// module (`GROUPS`, `NUM_FEATURES`, `PHASE_MAX`, `extract`, `phase`) and `weights` module
/// (`WEIGHTS`, the file `$file` that `bashni tune` writes), and defines the game's
/// `evaluate`, the weighted sum.
macro_rules! impl_linear_eval {
    ($pos:ty, $file:literal) => {
        impl $crate::games::kit::linear::LinearEval for $pos {
            const GROUPS: &'static [$crate::games::kit::linear::Group] = features::GROUPS;
            const NUM_FEATURES: usize = features::NUM_FEATURES;
            const PHASE_MAX: i32 = features::PHASE_MAX;
            const WEIGHTS: &'static [[i32; 2]] = &weights::WEIGHTS;
            const WEIGHTS_FILE: &'static str = $file;

            #[inline]
            fn extract<S: $crate::games::kit::linear::Sink>(&self, sink: &mut S) {
                features::extract(self, sink);
            }

            #[inline]
            fn phase(&self) -> i32 {
                features::phase(self)
            }
        }

        /// Static evaluation from the side to move's view.
        #[inline]
        pub fn evaluate(pos: &$pos) -> i32 {
            $crate::games::kit::linear::evaluate(pos)
        }
    };
}
pub(crate) use impl_linear_eval;

#[cfg(test)]
pub(crate) fn check_layout<G: LinearEval>() {
    let mut at = 0;
    for g in G::GROUPS {
        assert_eq!(g.start, at, "{}", g.name);
        at += g.len;
    }
    assert_eq!(at, G::NUM_FEATURES);
    assert_eq!(G::WEIGHTS.len(), G::NUM_FEATURES);
}

/// Checks that the terms of both sides add up to the evaluation of each of `positions`.
#[cfg(test)]
pub(crate) fn check_terms<G: LinearEval>(positions: &[G]) {
    for p in positions {
        let sum = |c: Color| side_terms(p, c).iter().map(|t| t.1).sum::<i32>();
        let us = p.side_to_move();
        let net = sum(us) - sum(us.opponent());
        let slack = term_names::<G>().len() as i32;
        assert!((evaluate(p) - net).abs() <= slack, "{}", p.to_fen());
    }
}

/// Positions from random games of many lengths, for tests: the first 300 games that lasted
/// their length (random games often end early).
#[cfg(test)]
pub(crate) fn sample_positions<G: Game>(seed: u64) -> Vec<G> {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..5000)
        .filter_map(|i| crate::record::openings::random_playout::<G, _>(&mut rng, 2 + i % 90))
        .map(|(g, _)| g.position().clone())
        .take(300)
        .collect()
}

/// Checks a game's evaluation over `positions`: the feature layout, terms that add up, the
/// usual first terms, and colour symmetry (a position's colour-swapped twin, whose side to
/// move sees what the original's did, evaluates alike).
#[cfg(test)]
pub(crate) fn check_evaluation<G: LinearEval + PartialEq>(
    positions: &[G],
    evaluate: impl Fn(&G) -> i32,
) {
    let mirrored = |p: &G| G::from_fen(&super::fen::mirrored(&p.to_fen())).unwrap();
    check_layout::<G>();
    check_terms(positions);
    let names = term_names::<G>();
    assert_eq!(names[0], "material");
    assert!(names.contains(&"piece squares"));
    assert!(positions.len() > 200);
    for p in positions {
        let m = mirrored(p);
        assert!(mirrored(&m) == *p, "{}", p.to_fen());
        assert_eq!(evaluate(p), evaluate(&m), "{}", p.to_fen());
    }
}
