//! Texel-style fitting: the evaluation `e` (White's view) predicts White's expected score as
//! `sigmoid(K * e)`; the target blends the game's result and the search score,
//! `lambda * result + (1 - lambda) * sigmoid(K * score)`; the loss is the mean squared error.
//! `K` is fitted first (to the results, with the starting weights), then every weight is
//! moved by Adam on the exact gradient, computed in parallel.

use super::data::{Dataset, Entry};
use crate::games::kit::linear::LinearEval;
use crate::tune::data::Samples;
use rayon::prelude::*;

/// Weights as the optimiser holds them: `[f][0]` opening, `[f][1]` endgame, in centi-men.
pub type Params = Vec<[f64; 2]>;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The evaluation of `e` under `w`, White's view, not rounded.
#[inline]
pub fn eval<G: LinearEval>(data: &Dataset<G>, e: &Entry, w: &Params) -> f64 {
    let p = e.phase as f64 / G::PHASE_MAX as f64;
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(f, c) in data.features(e) {
        let f = f as usize;
        mg += w[f][0] * c as f64;
        eg += w[f][1] * c as f64;
    }
    mg * p + eg * (1.0 - p)
}

/// How the target is made and how eval maps to an expected score.
#[derive(Clone, Copy, Debug)]
pub struct Objective {
    /// Scale of the sigmoid, per centi-man.
    pub k: f64,
    /// Weight of the game's result in the target (the rest is the search score).
    pub lambda: f64,
}

impl Objective {
    #[inline]
    fn target(&self, e: &Entry) -> f64 {
        self.lambda * e.result as f64 + (1.0 - self.lambda) * sigmoid(self.k * e.score as f64)
    }
}

/// Mean squared error of `w` on `data`.
pub fn loss<G: LinearEval>(data: &Dataset<G>, w: &Params, obj: &Objective) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sum: f64 = data
        .entries()
        .par_iter()
        .map(|e| {
            let d = sigmoid(obj.k * eval(data, e, w)) - obj.target(e);
            d * d
        })
        .sum();
    sum / data.len() as f64
}

/// The gradient of [`loss`] with respect to every weight.
pub fn gradient<G: LinearEval>(data: &Dataset<G>, w: &Params, obj: &Objective) -> Params {
    let n = data.len().max(1) as f64;
    data.entries()
        .par_chunks(4096)
        .map(|chunk| {
            let mut g = vec![[0.0; 2]; G::NUM_FEATURES];
            for e in chunk {
                let s = sigmoid(obj.k * eval(data, e, w));
                // d(loss)/d(eval) for this position.
                let d = 2.0 * (s - obj.target(e)) * s * (1.0 - s) * obj.k / n;
                let p = e.phase as f64 / G::PHASE_MAX as f64;
                for &(f, c) in data.features(e) {
                    let f = f as usize;
                    g[f][0] += d * c as f64 * p;
                    g[f][1] += d * c as f64 * (1.0 - p);
                }
            }
            g
        })
        .reduce(
            || vec![[0.0; 2]; G::NUM_FEATURES],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x[0] += y[0];
                    x[1] += y[1];
                }
                a
            },
        )
}

/// The `K` that minimises the loss of `w` against the game results alone (golden-section
/// search on a log scale).
pub fn fit_k<G: LinearEval>(data: &Dataset<G>, w: &Params) -> f64 {
    let f = |log_k: f64| {
        loss(
            data,
            w,
            &Objective {
                k: log_k.exp(),
                lambda: 1.0,
            },
        )
    };
    golden_min(f, (1e-5f64).ln(), (1e-1f64).ln()).exp()
}

/// The `x` in `a..b` where `f` is lowest, for an `f` with one minimum there (golden-section
/// search, 60 steps).
pub fn golden_min(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - r * (b - a);
    let mut d = a + r * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct FitSettings {
    /// The objective (K and lambda).
    pub objective: Objective,
    /// Adam's step size, centi-men.
    pub learning_rate: f64,
    /// Most epochs (one gradient step over the whole training set each).
    pub max_epochs: usize,
    /// Stop after this many epochs without a better validation loss.
    pub patience: usize,
    /// Which weights may move (`[f][0]`, `[f][1]`); the rest stay as they start.
    pub trainable: Vec<[bool; 2]>,
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// Epoch number, from 1.
    pub epoch: usize,
    /// Training loss before the step.
    pub train: f64,
    /// Validation loss before the step (the training loss when there is no validation set).
    pub valid: f64,
}

/// Fits `w` with Adam; returns the weights with the best validation loss seen and that
/// loss. `on_epoch` hears every epoch.
pub fn fit<G: LinearEval>(
    train: &Dataset<G>,
    valid: &Dataset<G>,
    start: Params,
    settings: &FitSettings,
    on_epoch: &mut dyn FnMut(EpochReport),
) -> (Params, f64) {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPS: f64 = 1e-8;
    let obj = &settings.objective;
    let held_out = if valid.is_empty() { train } else { valid };
    let mut w = start;
    let mut m = vec![[0.0; 2]; G::NUM_FEATURES];
    let mut v = vec![[0.0; 2]; G::NUM_FEATURES];
    let mut best = (w.clone(), f64::INFINITY);
    let mut since_best = 0;
    for epoch in 1..=settings.max_epochs {
        let valid_loss = loss(held_out, &w, obj);
        on_epoch(EpochReport {
            epoch,
            train: loss(train, &w, obj),
            valid: valid_loss,
        });
        if valid_loss < best.1 {
            best = (w.clone(), valid_loss);
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= settings.patience {
                break;
            }
        }
        let g = gradient(train, &w, obj);
        let t = epoch as i32;
        for f in 0..G::NUM_FEATURES {
            for s in 0..2 {
                if !settings.trainable[f][s] {
                    continue;
                }
                m[f][s] = BETA1 * m[f][s] + (1.0 - BETA1) * g[f][s];
                v[f][s] = BETA2 * v[f][s] + (1.0 - BETA2) * g[f][s] * g[f][s];
                let m_hat = m[f][s] / (1.0 - BETA1.powi(t));
                let v_hat = v[f][s] / (1.0 - BETA2.powi(t));
                w[f][s] -= settings.learning_rate * m_hat / (v_hat.sqrt() + EPS);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::Position;
    use crate::games::bashni::eval::features::{ADVANCE, KING, MAN, MAN_PRISONER, NUM_FEATURES};
    use crate::games::bashni::eval::weights::WEIGHTS;

    type Dataset = super::Dataset<Position>;
    use crate::record::openings::random_playout;
    use crate::tune::data::Samples;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    /// Positions from random games of many lengths (towers, kings, all phases).
    fn positions(n: usize) -> Vec<crate::games::bashni::position::Position> {
        let mut rng = StdRng::seed_from_u64(42);
        let mut out = Vec::new();
        let mut plies = 4;
        while out.len() < n {
            if let Some((game, _)) =
                random_playout::<crate::games::bashni::Position, _>(&mut rng, plies)
            {
                out.push(game.position().clone());
            }
            plies = 4 + (plies + 7) % 70;
        }
        out
    }

    /// Labels made by known weights are fitted back to those weights.
    #[test]
    fn recovers_known_weights() {
        let start: Params = WEIGHTS.iter().map(|w| [w[0] as f64, w[1] as f64]).collect();
        let mut truth = start.clone();
        truth[MAN] = [130.0, 90.0];
        truth[KING] = [250.0, 330.0];
        truth[MAN_PRISONER] = [50.0, 20.0];
        truth[ADVANCE + 3] = [25.0, 0.0];
        let k = 0.006;
        let mut data = Dataset::default();
        let mut labelled = Dataset::default();
        for p in positions(3000) {
            labelled.push(&p, 0.0, 0);
            let e = *labelled.entries().last().unwrap();
            let target = sigmoid(k * eval(&labelled, &e, &truth));
            data.push(&p, target as f32, 0);
        }
        let mut trainable = vec![[false; 2]; NUM_FEATURES];
        for f in [MAN, KING, MAN_PRISONER, ADVANCE + 3] {
            trainable[f] = [true, true];
        }
        let settings = FitSettings {
            objective: Objective { k, lambda: 1.0 },
            learning_rate: 2.0,
            max_epochs: 1500,
            patience: 50,
            trainable,
        };
        let before = loss(&data, &start, &settings.objective);
        let (fitted, after) = fit(&data, &Dataset::default(), start, &settings, &mut |_| {});
        assert!(after < before / 100.0, "loss {before} -> {after}");
        for f in [MAN, KING, MAN_PRISONER, ADVANCE + 3] {
            for s in 0..2 {
                assert!(
                    (fitted[f][s] - truth[f][s]).abs() < 3.0,
                    "feature {f} side {s}: {} vs {}",
                    fitted[f][s],
                    truth[f][s]
                );
            }
        }
    }

    /// What the tuner fits is the engine's evaluation (up to rounding).
    #[test]
    fn the_tuner_sees_the_engine_evaluation() {
        let w: Params = WEIGHTS.iter().map(|w| [w[0] as f64, w[1] as f64]).collect();
        let mut data = Dataset::default();
        let all = positions(300);
        for p in &all {
            data.push(p, 0.5, 0);
        }
        for (p, e) in all.iter().zip(data.entries()) {
            let engine = crate::games::bashni::eval::evaluate(p) as f64;
            let white = if p.side() == crate::games::kit::color::Color::White {
                engine
            } else {
                -engine
            };
            assert!(
                (eval(&data, e, &w) - white).abs() <= 1.0,
                "{white} vs {}",
                eval(&data, e, &w)
            );
        }
    }

    /// The fitted K is where the loss is lowest.
    #[test]
    fn k_minimises_the_loss() {
        let w: Params = WEIGHTS.iter().map(|w| [w[0] as f64, w[1] as f64]).collect();
        let mut data = Dataset::default();
        for (i, p) in positions(500).iter().enumerate() {
            let e = crate::games::bashni::eval::evaluate(p) as f64;
            let white = if p.side() == crate::games::kit::color::Color::White {
                e
            } else {
                -e
            };
            // Results that follow the evaluation with K = 0.004, drawn deterministically.
            let r = if (i as f64 * 0.618).fract() < sigmoid(0.004 * white) {
                1.0
            } else {
                0.0
            };
            data.push(p, r, 0);
        }
        let k = fit_k(&data, &w);
        let l = |k: f64| loss(&data, &w, &Objective { k, lambda: 1.0 });
        assert!(l(k) <= l(k * 1.2) && l(k) <= l(k / 1.2), "K = {k}");
    }

    /// The gradient matches finite differences of the loss.
    #[test]
    fn gradient_is_exact() {
        let w: Params = WEIGHTS.iter().map(|w| [w[0] as f64, w[1] as f64]).collect();
        let mut data = Dataset::default();
        for (i, p) in positions(200).iter().enumerate() {
            data.push(p, (i % 3) as f32 / 2.0, (i as i32 % 7 - 3) * 40);
        }
        let obj = Objective {
            k: 0.005,
            lambda: 0.5,
        };
        let g = gradient(&data, &w, &obj);
        for f in [MAN, KING, MAN_PRISONER, ADVANCE + 2] {
            for s in 0..2 {
                let h = 1e-3;
                let mut up = w.clone();
                up[f][s] += h;
                let mut down = w.clone();
                down[f][s] -= h;
                let numeric = (loss(&data, &up, &obj) - loss(&data, &down, &obj)) / (2.0 * h);
                assert!(
                    (numeric - g[f][s]).abs() <= 1e-6 + 1e-3 * numeric.abs(),
                    "feature {f}: {numeric} vs {}",
                    g[f][s]
                );
            }
        }
    }
}
