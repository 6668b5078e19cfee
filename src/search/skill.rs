//! Playing strength below full, for people and for GUIs: `Skill Level` 0 to 20 and
//! `UCI_Elo` (see engine-protocol.md).
//!
//! A weaker level plays like a weaker player, not like a random mover with good moves in
//! between: it searches shallower (a depth cap per level), looks at its best few moves
//! ([`CANDIDATES`] lines), and picks one at random, each with a weight that falls off with
//! how much worse than the best its search says it is (a softmax with a temperature per
//! level). So it mostly plays its best move, sometimes a slightly worse one, and rarely a
//! clear mistake; a move its search sees losing material is almost never chosen unless the
//! level is very low. The Elo of each level was measured by matches ([`LADDER`]).

use super::{Bound, Score, SearchInfo};
use crate::games::kit::moves::Move;
use rand::{Rng, RngExt};
use std::fmt;

/// Highest level: full strength.
pub const MAX_LEVEL: u8 = 20;

/// Lines a weakened search looks at to choose among.
pub const CANDIDATES: usize = 4;

/// Depth cap and temperature (Bashni's internal evaluation units when they were tuned, 44 to
/// a man, [`TUNED_MAN`]: see [`choose`]) of levels 0 to 19; level 20 is the full engine.
/// Up to level 11 every second level searches a ply deeper and the one between chooses more
/// carefully at the same depth; above, every level searches deeper.
const LEVELS: [(u32, f64); MAX_LEVEL as usize] = [
    (1, 250.0),
    (1, 100.0),
    (2, 150.0),
    (2, 70.0),
    (3, 100.0),
    (3, 45.0),
    (4, 70.0),
    (4, 30.0),
    (5, 45.0),
    (5, 20.0),
    (6, 30.0),
    (6, 12.0),
    (7, 15.0),
    (8, 12.0),
    (9, 10.0),
    (10, 8.0),
    (11, 6.0),
    (12, 4.0),
    (14, 3.0),
    (16, 2.0),
];

/// Elo of each level, 0 to 20, as measured by the ladder matches in docs/measurements.md (each level
/// against the one below at 2 s + 0.02 s a game, anchored at level 0 = 1000). `UCI_Elo` maps
/// onto it, interpolating between levels. It never falls: levels 16 to 19, whose measured
/// Elo did not rise past level 16's (2856, 2842, 2850, 2839: within the noise of each
/// other), share their mean, and an Elo they share plays the highest of them.
pub const LADDER: [u32; MAX_LEVEL as usize + 1] = [
    1000, 1123, 1314, 1439, 1576, 1762, 1822, 1918, 2010, 2131, 2247, 2317, 2396, 2565, 2730, 2815,
    2847, 2847, 2847, 2847, 2972,
];

/// Scores beyond this (centi-men) stand for wins and losses when choosing.
const DECISIVE_CP: f64 = 20_000.0;

/// A playing strength: a level from 0 to [`MAX_LEVEL`], possibly between two levels (from
/// an Elo), kept in hundredths of a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength(u16);

/// What is wrong with a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError(pub u32);

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is above the highest level, {MAX_LEVEL}", self.0)
    }
}

impl std::error::Error for LevelError {}

impl Strength {
    /// Full strength.
    pub const FULL: Strength = Strength(MAX_LEVEL as u16 * 100);

    /// Level `n`, 0 to [`MAX_LEVEL`].
    pub fn level(n: u32) -> Result<Strength, LevelError> {
        if n > u32::from(MAX_LEVEL) {
            return Err(LevelError(n));
        }
        Ok(Strength(n as u16 * 100))
    }

    /// The strength of `elo` on the [`LADDER`] (clamped to it), between two levels by
    /// linear interpolation of their Elo.
    pub fn from_elo(elo: u32) -> Strength {
        let elo = elo.clamp(LADDER[0], LADDER[MAX_LEVEL as usize]);
        let k = LADDER
            .windows(2)
            .position(|w| elo < w[1])
            .unwrap_or(MAX_LEVEL as usize);
        if k == MAX_LEVEL as usize {
            return Strength::FULL;
        }
        let span = f64::from(LADDER[k + 1] - LADDER[k]);
        let frac = f64::from(elo - LADDER[k]) / span;
        Strength(k as u16 * 100 + (frac * 100.0).round() as u16)
    }

    /// Whether this is full strength (nothing is weakened).
    pub fn is_full(self) -> bool {
        self == Strength::FULL
    }

    /// The level of one move: a strength between levels `k` and `k + 1` plays each move at
    /// one of them, `k + 1` with the probability of its fraction.
    pub fn draw_level(self, rng: &mut impl Rng) -> u8 {
        let (k, frac) = (self.0 / 100, self.0 % 100);
        let up = frac > 0 && rng.random_range(0..100) < frac;
        (k + u16::from(up)) as u8
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 % 100 {
            0 => write!(f, "level {}", self.0 / 100),
            r => write!(f, "level {}.{r:02}", self.0 / 100),
        }
    }
}

/// Depth cap of `level` (`None` at full strength).
pub fn depth_cap(level: u8) -> Option<u32> {
    LEVELS.get(level as usize).map(|&(d, _)| d)
}

/// Whether `level` evaluates with the linear evaluation instead of the network: the levels
/// that look one ply deep. A network learns from self-play and misjudges the lopsided
/// positions a one-ply search walks into against a beginner (in Bashni, level 0 won 363 of 400
/// games against a random mover with network 2, 366 with network 3, 388 with the linear
/// evaluation); the hand-set linear terms hold there, and one ply gains little from the
/// network's finer judgement.
pub fn linear_eval(level: u8) -> bool {
    depth_cap(level) == Some(1)
}

/// A line's score in centi-men, wins and losses as large values (sooner is larger).
fn centi(score: Score) -> f64 {
    match score {
        Score::Cp(c) => f64::from(c),
        Score::WinIn(p) => DECISIVE_CP - f64::from(p),
        Score::LossIn(p) => f64::from(p) - DECISIVE_CP,
    }
}

/// Bashni's `MAN` when the temperatures were tuned and the ladder measured: scores were then
/// reported in the evaluation's own units, so a temperature of `TUNED_MAN` is one man, in
/// every game. Fixed here so that a network with another scale keeps the levels' meaning.
const TUNED_MAN: f64 = 44.0;

/// Chooses the index of the line `level` plays among `scores` (the candidates' scores, any
/// order): at random, with weight `exp((score - best) / temperature)`. At full strength,
/// or with one candidate, the best.
pub fn choose(level: u8, scores: &[Score], rng: &mut impl Rng) -> usize {
    let best = (0..scores.len())
        .max_by(|&a, &b| centi(scores[a]).total_cmp(&centi(scores[b])))
        .unwrap_or(0);
    let Some(&(_, temperature)) = LEVELS.get(level as usize) else {
        return best;
    };
    let temperature = temperature * 100.0 / TUNED_MAN;
    if scores.len() < 2 {
        return best;
    }
    let top = centi(scores[best]);
    let weights: Vec<f64> = scores
        .iter()
        .map(|&s| ((centi(s) - top) / temperature).exp())
        .collect();
    let mut x = rng.random::<f64>() * weights.iter().sum::<f64>();
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    best
}

/// One candidate: a line of the last depth the weakened search completed.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate<M = Move> {
    /// Its score.
    pub score: Score,
    /// Its moves.
    pub pv: Vec<M>,
}

/// Collects the lines of a search's reports: those of the deepest depth at which every
/// expected line was reported (or, when none was, the lines seen at the deepest depth).
pub struct Lines<M = Move> {
    expected: usize,
    depth: u32,
    current: Vec<Option<Candidate<M>>>,
    complete: Vec<Candidate<M>>,
}

impl<M: Clone> Lines<M> {
    /// A collector for searches that report `expected` lines per depth.
    pub fn new(expected: usize) -> Lines<M> {
        Lines {
            expected,
            depth: 0,
            current: Vec::new(),
            complete: Vec::new(),
        }
    }

    /// Takes note of one report (progress reports and bounds are ignored).
    pub fn see(&mut self, info: &SearchInfo<M>) {
        if info.currmove.is_some() || info.bound != Bound::Exact || info.pv.is_empty() {
            return;
        }
        if info.depth > self.depth {
            self.depth = info.depth;
            self.current = vec![None; self.expected.max(info.multipv)];
        }
        if info.depth == self.depth && info.multipv >= 1 {
            if info.multipv > self.current.len() {
                self.current.resize(info.multipv, None);
            }
            self.current[info.multipv - 1] = Some(Candidate {
                score: info.score,
                pv: info.pv.clone(),
            });
            if self.current.iter().all(Option::is_some) {
                self.complete = self.current.iter().flatten().cloned().collect();
            }
        }
    }

    /// The candidates.
    pub fn finish(self) -> Vec<Candidate<M>> {
        if self.complete.is_empty() {
            self.current.into_iter().flatten().collect()
        } else {
            self.complete
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn levels_and_elo() {
        assert_eq!(Strength::level(20), Ok(Strength::FULL));
        assert_eq!(Strength::level(21), Err(LevelError(21)));
        assert_eq!(Strength::from_elo(0), Strength::level(0).unwrap());
        assert_eq!(Strength::from_elo(u32::MAX), Strength::FULL);
        assert_eq!(Strength::from_elo(LADDER[7]), Strength::level(7).unwrap());
        let mid = (LADDER[3] + LADDER[4]) / 2;
        assert_eq!(Strength::from_elo(mid).to_string(), "level 3.50");
        // The ladder never falls, a flat stretch of it plays its highest level, and a
        // higher Elo is never a lower strength.
        assert!(LADDER.windows(2).all(|w| w[0] <= w[1]));
        let flat = (0..MAX_LEVEL as usize).find(|&k| LADDER[k] == LADDER[k + 1]);
        if let Some(k) = flat {
            let top = (k..=MAX_LEVEL as usize)
                .rfind(|&j| LADDER[j] == LADDER[k])
                .unwrap();
            let s = Strength::from_elo(LADDER[k]);
            assert_eq!(s, Strength::level(top as u32).unwrap());
        }
        let mut last = Strength::from_elo(0).0;
        for elo in LADDER[0]..=LADDER[20] {
            let s = Strength::from_elo(elo).0;
            assert!(s >= last);
            last = s;
        }
    }

    #[test]
    fn depth_grows_with_level() {
        // Each level searches at least as deep as the one below, and where the depth is the
        // same it chooses more carefully.
        assert!(
            LEVELS
                .windows(2)
                .all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 > w[1].1))
        );
        assert_eq!(depth_cap(0), Some(1));
        assert_eq!(depth_cap(MAX_LEVEL), None);
    }

    #[test]
    fn between_levels_draws_both() {
        let mut rng = StdRng::seed_from_u64(1);
        let s = Strength(530);
        let draws: Vec<u8> = (0..1000).map(|_| s.draw_level(&mut rng)).collect();
        let up = draws.iter().filter(|&&l| l == 6).count();
        assert!(draws.iter().all(|&l| l == 5 || l == 6));
        assert!((200..400).contains(&up), "{up}");
        assert!((0..100).all(|_| Strength::level(4).unwrap().draw_level(&mut rng) == 4));
    }

    #[test]
    fn choice_prefers_better_moves() {
        let mut rng = StdRng::seed_from_u64(2);
        // Bashni's 10, 50 and -300 internal units, as centi-men.
        let scores = [
            Score::Cp(23),
            Score::Cp(114),
            Score::Cp(-682),
            Score::LossIn(3),
        ];
        let mut counts = [0; 4];
        for _ in 0..2000 {
            counts[choose(0, &scores, &mut rng)] += 1;
        }
        // Level 0: the best most often, a slightly worse move often, a lost piece rarely,
        // a lost game never.
        assert!(counts[1] > counts[0] && counts[0] > counts[2], "{counts:?}");
        assert!(
            counts[0] > 300 && counts[2] < 300 && counts[3] == 0,
            "{counts:?}"
        );
        // Strong levels nearly always play the best; full strength always.
        let strong = (0..2000)
            .filter(|_| choose(19, &scores, &mut rng) == 1)
            .count();
        assert!(strong == 2000, "{strong}");
        assert!((0..100).all(|_| choose(MAX_LEVEL, &scores, &mut rng) == 1));
        let win = [Score::Cp(900), Score::WinIn(5)];
        assert!((0..100).all(|_| choose(0, &win, &mut rng) == 1));
    }
}
