//! Match statistics: Elo with 95% error bars (per game and per game pair), likelihood of
//! superiority, and the sequential probability ratio test (SPRT) on trinomial or pentanomial
//! results, with the formulas cutechess-cli and fastchess use.

/// The result of one game from the first engine's view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// First engine won.
    Win,
    /// Drawn.
    Draw,
    /// First engine lost.
    Loss,
}

impl GameResult {
    /// Points: 1, 0.5 or 0.
    pub fn points(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }

    fn half_points(self) -> usize {
        match self {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }
    }
}

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Score as a fraction (0.5 when no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Fraction of draws.
    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.draws as f64 / n as f64
        }
    }

    /// Counts one game.
    pub fn add(&mut self, r: GameResult) {
        match r {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }
}

/// Game pairs (same opening, colours swapped) by their total score in half points:
/// `counts[k]` = pairs scoring k/2 points (0, 0.5, 1, 1.5, 2).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Pentanomial {
    /// Pair counts by half points.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Counts one pair.
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        self.counts[first.half_points() + second.half_points()] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// Elo difference of a score fraction (logistic model).
pub fn elo_from_score(s: f64) -> f64 {
    let s = s.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Mean and variance of samples with values `xs` and counts `ns`.
fn mean_var(xs: &[f64], ns: &[u64]) -> Option<(f64, f64, f64)> {
    let n: u64 = ns.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = xs.iter().zip(ns).map(|(x, &c)| x * c as f64).sum::<f64>() / n;
    let var = xs
        .iter()
        .zip(ns)
        .map(|(x, &c)| (x - mean).powi(2) * c as f64)
        .sum::<f64>()
        / n;
    Some((mean, var, n))
}

fn elo_interval(mean: f64, var: f64, n: f64) -> (f64, f64) {
    let sd = (var / n).sqrt();
    let lo = elo_from_score(mean - Z95 * sd);
    let hi = elo_from_score(mean + Z95 * sd);
    (elo_from_score(mean), (hi - lo) / 2.0)
}

/// Elo and the half-width of its 95% interval, from per-game scores (as cutechess-cli).
pub fn elo_with_error(w: &Wdl) -> (f64, f64) {
    match mean_var(&[1.0, 0.5, 0.0], &[w.wins, w.draws, w.losses]) {
        Some((m, v, n)) => elo_interval(m, v, n),
        None => (0.0, 0.0),
    }
}

/// Elo and the half-width of its 95% interval, from per-pair scores.
pub fn elo_with_error_pentanomial(p: &Pentanomial) -> (f64, f64) {
    match mean_var(&[0.0, 0.25, 0.5, 0.75, 1.0], &p.counts) {
        Some((m, v, n)) => elo_interval(m, v, n),
        None => (0.0, 0.0),
    }
}

/// The error function, to about 1e-15 (Taylor series near 0, continued fraction beyond).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // erf(x) = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        return sum * 2.0 / std::f64::consts::PI.sqrt();
    }
    if x > 6.0 {
        return 1.0;
    }
    // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...)))), evaluated backwards.
    let mut f = x;
    for k in (1..60).rev() {
        f = x + (k as f64 / 2.0) / f;
    }
    1.0 - (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

/// Likelihood of superiority: the probability that the first engine is the stronger, from
/// wins and losses (draws carry no information here).
pub fn los(w: &Wdl) -> f64 {
    let decisive = (w.wins + w.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((w.wins as f64 - w.losses as f64) / (2.0 * decisive).sqrt()))
}

/// An SPRT between H0: Elo = elo0 and H1: Elo = elo1 (logistic Elo).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sprt {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Game pairs an SPRT plays before it may decide.
pub const SPRT_MIN_PAIRS: u64 = 20;

/// What an SPRT concludes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SprtDecision {
    /// LLR fell below the lower bound.
    AcceptH0,
    /// LLR rose above the upper bound.
    AcceptH1,
    /// Neither yet.
    Continue,
}

impl Sprt {
    /// ln(beta / (1 - alpha)).
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// ln((1 - beta) / alpha).
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    fn llr(&self, xs: &[f64], ns: &[u64]) -> f64 {
        let games: u64 = ns.iter().sum();
        if games == 0 {
            return 0.0;
        }
        // Empty outcome classes get a tiny pseudo-count (as fastchess does), so that a
        // one-sided result, with no variance at all, still moves the LLR.
        let weights: Vec<f64> = ns
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let total: f64 = weights.iter().sum();
        let mean = xs.iter().zip(&weights).map(|(x, w)| x * w).sum::<f64>() / total;
        let var = xs
            .iter()
            .zip(&weights)
            .map(|(x, w)| (x - mean).powi(2) * w)
            .sum::<f64>()
            / total;
        let n = games as f64;
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = 1.0 / (1.0 + 10f64.powf(-self.elo0 / 400.0));
        let s1 = 1.0 / (1.0 + 10f64.powf(-self.elo1 / 400.0));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// Log-likelihood ratio from game results (normal approximation).
    pub fn llr_trinomial(&self, w: &Wdl) -> f64 {
        self.llr(&[1.0, 0.5, 0.0], &[w.wins, w.draws, w.losses])
    }

    /// Log-likelihood ratio from game pairs (normal approximation on pair scores / 2).
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr(&[0.0, 0.25, 0.5, 0.75, 1.0], &p.counts)
    }

    /// The decision for an LLR.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} vs {b}");
    }

    #[test]
    fn elo_of_scores() {
        close(elo_from_score(0.75), 190.848_501_887_865, 1e-9);
        close(elo_from_score(0.5), 0.0, 1e-12);
    }

    #[test]
    fn elo_error_matches_reference() {
        // python3: m=(60+10)/100; v=(60*(1-m)**2+20*(.5-m)**2+20*(0-m)**2)/100; sd=(v/100)**.5
        // e=lambda s:-400*math.log10(1/s-1); print(e(m), (e(m+1.959963984540054*sd)-e(m-1.959963984540054*sd))/2)
        // -> 147.19071411783776 66.01338122038528
        let (elo, err) = elo_with_error(&Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        });
        close(elo, 147.190_714_117_837_76, 1e-9);
        close(err, 66.013_381_220_385_28, 1e-6);
    }

    #[test]
    fn erf_and_los() {
        close(erf(0.5), 0.520_499_877_813_046_5, 1e-14);
        close(erf(1.0), 0.842_700_792_949_714_9, 1e-14);
        close(erf(3.0), 0.999_977_909_503_001_4, 1e-14);
        close(erf(-2.0), -0.995_322_265_018_952_7, 1e-14);
        // python3: 0.5*(1+math.erf(10/math.sqrt(20))) -> 0.9992172988709987
        close(
            los(&Wdl {
                wins: 10,
                draws: 0,
                losses: 0,
            }),
            0.999_217_298_870_998_7,
            1e-12,
        );
        close(
            los(&Wdl {
                wins: 5,
                draws: 3,
                losses: 5,
            }),
            0.5,
            1e-12,
        );
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        close(s.lower_bound(), -2.944_438_979_166_44, 1e-12);
        close(s.upper_bound(), 2.944_438_979_166_44, 1e-12);
        // python3 (wins 350, draws 350, losses 300):
        // m=(350+175)/1000; v=(350*(1-m)**2+350*(.5-m)**2+300*m**2)/1000
        // s0=.5; s1=1/(1+10**(-10/400)); print(1000*(s1-s0)*(2*m-s0-s1)/(2*v)) -> 1.5826042936635434
        let w = Wdl {
            wins: 350,
            draws: 350,
            losses: 300,
        };
        let m: f64 = 0.525;
        let v = (350.0 * (1.0 - m).powi(2) + 350.0 * (0.5 - m).powi(2) + 300.0 * m * m) / 1000.0;
        let s1 = 1.0 / (1.0 + 10f64.powf(-10.0 / 400.0));
        let expected = 1000.0 * (s1 - 0.5) * (2.0 * m - 0.5 - s1) / (2.0 * v);
        close(s.llr_trinomial(&w), expected, 1e-9);
        close(expected, 1.582_604_293_663_543_4, 1e-9);
        assert_eq!(s.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(s.decide(-3.0), SprtDecision::AcceptH0);
        assert_eq!(s.decide(0.0), SprtDecision::Continue);
        let mut p = Pentanomial::default();
        assert_eq!(s.llr_pentanomial(&p), 0.0);
        p.add_pair(GameResult::Win, GameResult::Draw);
        p.add_pair(GameResult::Loss, GameResult::Draw);
        p.add_pair(GameResult::Win, GameResult::Win);
        assert_eq!(p.counts, [0, 1, 0, 1, 1]);
        // A one-sided result still decides.
        let sweep = Pentanomial {
            counts: [0, 0, 0, 0, 200],
        };
        assert_eq!(s.decide(s.llr_pentanomial(&sweep)), SprtDecision::AcceptH1);
        assert!(s.llr_pentanomial(&p).is_finite());
    }
}
