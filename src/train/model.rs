//! The network in floating point, as the trainer fits it: the forward pass, the gradient of
//! the loss over a slice of positions, Adam, and the rounding to the engine's integers.
//!
//! All parameters live in one flat vector (first-layer weights, their biases, output weights,
//! output bias), so that the gradient, Adam's moments and the sums over threads are plain
//! element-wise loops.

use super::data::{Entry, NetDataset};
use crate::games::kit::nnue::{HIDDEN, INPUTS, KINDS, Network, QA, QB, SCALE};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const H: usize = HIDDEN;
/// Inputs of the factoriser: an input's tower kind without its square (see [`Model`]).
const FACTORS: usize = KINDS;
/// Where each part of the parameter vector starts.
const W1: usize = 0;
const F1: usize = W1 + INPUTS * H;
const B1: usize = F1 + FACTORS * H;
const W2: usize = B1 + H;
const B2: usize = W2 + 2 * H;
/// Number of parameters.
pub const PARAMS: usize = B2 + 1;
/// First-layer weights (square-specific and factor parts each) and biases stay within this,
/// so that the engine's 16-bit accumulator (24 inputs and a bias, times `QA`) cannot
/// overflow.
const W1_LIMIT: f32 = 2.0;
/// Output weights stay within what an `i16` holds at scale `QB`.
const W2_LIMIT: f32 = i16::MAX as f32 / QB as f32;

/// How the target is made and how the output maps to an expected score (as in `bashni tune`).
#[derive(Clone, Copy, Debug)]
pub struct Objective {
    /// Scale of the sigmoid, per centi-man.
    pub k: f32,
    /// Weight of the game's result in the target (the rest is the search score).
    pub lambda: f32,
}

impl Objective {
    /// The target of `e`: its result and search score blended.
    #[inline]
    pub fn target(&self, e: &Entry) -> f32 {
        self.lambda * e.result + (1.0 - self.lambda) * sigmoid(self.k * e.score)
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The network's parameters in floating point.
///
/// Training adds a factoriser: each input's row is its own weights plus those of its tower
/// kind (commander and counts below, whatever the square), which every square shares, so
/// what is learnt about a kind of tower on one square helps on all. The engine's network
/// holds the sums ([`Model::quantise`]), so it costs nothing at play.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// All parameters, laid out as the constants above say.
    pub p: Vec<f32>,
}

/// One position's hidden layer before the clip, both halves (side to move first).
struct Hidden([[f32; H]; 2]);

impl Model {
    /// Small random weights drawn from `seed`; clipped-ReLU units start half open.
    pub fn random(seed: u64) -> Model {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut p = vec![0.0f32; PARAMS];
        let a1 = 1.0 / (24f32).sqrt();
        p[W1..F1]
            .iter_mut()
            .for_each(|w| *w = rng.random_range(-a1..a1));
        p[B1..W2].iter_mut().for_each(|b| *b = 0.5);
        let a2 = 1.0 / (2.0 * H as f32).sqrt();
        p[W2..B2]
            .iter_mut()
            .for_each(|w| *w = rng.random_range(-a2..a2));
        Model { p }
    }

    fn hidden(&self, us: &[u16], them: &[u16]) -> Hidden {
        let mut h = Hidden([[0.0; H]; 2]);
        for (half, inputs) in h.0.iter_mut().zip([us, them]) {
            half.copy_from_slice(&self.p[B1..W2]);
            for &i in inputs {
                let row = &self.p[W1 + i as usize * H..][..H];
                let factor = &self.p[F1 + (i as usize % FACTORS) * H..][..H];
                half.iter_mut()
                    .zip(row)
                    .zip(factor)
                    .for_each(|((a, w), f)| *a += w + f);
            }
        }
        h
    }

    fn output(&self, h: &Hidden) -> f32 {
        let mut out = self.p[B2];
        for (half, w) in h.0.iter().zip(self.p[W2..B2].chunks_exact(H)) {
            out += half
                .iter()
                .zip(w)
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        }
        out
    }

    /// The evaluation, centi-men, side to move's view, of a position with these inputs.
    pub fn eval(&self, us: &[u16], them: &[u16]) -> f32 {
        self.output(&self.hidden(us, them)) * SCALE as f32
    }

    /// Sum of squared errors over `entries`.
    pub fn loss_sum(&self, data: &NetDataset, entries: &[Entry], obj: &Objective) -> f64 {
        entries
            .iter()
            .map(|e| {
                let (us, them) = data.inputs(e);
                let d = sigmoid(obj.k * self.eval(us, them)) - obj.target(e);
                (d * d) as f64
            })
            .sum()
    }

    /// Adds to `grad` the gradient of the squared errors over `entries`, each scaled by
    /// `scale`, and returns their sum.
    pub fn gradient(
        &self,
        data: &NetDataset,
        entries: &[Entry],
        obj: &Objective,
        scale: f32,
        grad: &mut [f32],
    ) -> f64 {
        let mut total = 0.0f64;
        for e in entries {
            let (us, them) = data.inputs(e);
            let h = self.hidden(us, them);
            let pred = sigmoid(obj.k * self.output(&h) * SCALE as f32);
            let d = pred - obj.target(e);
            total += (d * d) as f64;
            // d(loss)/d(output).
            let g = 2.0 * d * pred * (1.0 - pred) * obj.k * SCALE as f32 * scale;
            grad[B2] += g;
            for (side, (half, inputs)) in h.0.iter().zip([us, them]).enumerate() {
                let w2 = W2 + side * H;
                let mut dh = [0.0f32; H];
                for j in 0..H {
                    let a = half[j];
                    grad[w2 + j] += g * a.clamp(0.0, 1.0);
                    if a > 0.0 && a < 1.0 {
                        dh[j] = g * self.p[w2 + j];
                    }
                }
                grad[B1..W2]
                    .iter_mut()
                    .zip(&dh)
                    .for_each(|(gb, d)| *gb += d);
                for &i in inputs {
                    let row = &mut grad[W1 + i as usize * H..][..H];
                    row.iter_mut().zip(&dh).for_each(|(gw, d)| *gw += d);
                    let factor = &mut grad[F1 + (i as usize % FACTORS) * H..][..H];
                    factor.iter_mut().zip(&dh).for_each(|(gf, d)| *gf += d);
                }
            }
        }
        total
    }

    /// Keeps every weight inside what the engine's integers hold.
    pub fn clip(&mut self) {
        self.p[W1..W2]
            .iter_mut()
            .for_each(|w| *w = w.clamp(-W1_LIMIT, W1_LIMIT));
        self.p[W2..B2]
            .iter_mut()
            .for_each(|w| *w = w.clamp(-W2_LIMIT, W2_LIMIT));
    }

    /// The engine's integer network: first layer times `QA`, output weights times `QB`,
    /// output bias times both, rounded.
    pub fn quantise(&self) -> Network {
        let q = |w: f32, s: i32| (w * s as f32).round() as i16;
        let mut w1 = vec![[0i16; H]; INPUTS].into_boxed_slice();
        for (i, (row, src)) in w1
            .iter_mut()
            .zip(self.p[W1..F1].chunks_exact(H))
            .enumerate()
        {
            let factor = &self.p[F1 + (i % FACTORS) * H..][..H];
            row.iter_mut()
                .zip(src)
                .zip(factor)
                .for_each(|((d, &w), &f)| *d = q(w + f, QA));
        }
        let b1 = std::array::from_fn(|j| q(self.p[B1 + j], QA));
        let w2 = std::array::from_fn(|s| std::array::from_fn(|j| q(self.p[W2 + s * H + j], QB)));
        let b2 = (self.p[B2] * (QA * QB) as f32).round() as i32;
        Network {
            w1,
            b1,
            w2,
            b2,
            avx2: crate::games::kit::nnue::network::cpu_has_avx2(),
        }
    }
}

/// Adam's state: the moments of every parameter and the step count.
pub struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    /// Zero moments.
    pub fn new() -> Adam {
        Adam {
            m: vec![0.0; PARAMS],
            v: vec![0.0; PARAMS],
            t: 0,
        }
    }

    /// One step of size `lr` against `grad`.
    pub fn step(&mut self, model: &mut Model, grad: &[f32], lr: f32) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        for (((p, m), v), &g) in model
            .p
            .iter_mut()
            .zip(&mut self.m)
            .zip(&mut self.v)
            .zip(grad)
        {
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + Self::EPSILON);
        }
        model.clip();
    }
}

impl Default for Adam {
    fn default() -> Self {
        Adam::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::movegen::legal_moves;
    use crate::games::bashni::nnue::features::active;
    use crate::games::bashni::position::Position;
    use crate::games::kit::nnue::Accumulator;

    /// Positions of random games.
    fn positions() -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(3);
        let mut out = Vec::new();
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..rng.random_range(0..80) {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.play(&moves[rng.random_range(0..moves.len())]);
                out.push(pos.clone());
            }
        }
        out
    }

    #[test]
    fn the_integer_network_matches_the_float_one_within_a_few_centimen() {
        let mut model = Model::random(5);
        // Output weights as large as training makes them (mean size about 0.09).
        model.p[W2..B2].iter_mut().for_each(|w| *w *= 3.0);
        model.p[B2] = 0.1;
        let net = model.quantise();
        let mut worst = 0.0f32;
        let (mut total, mut count) = (0.0f64, 0);
        for pos in positions() {
            let us: Vec<u16> = active(&pos, pos.side()).map(|i| i as u16).collect();
            let them: Vec<u16> = active(&pos, pos.side().opponent())
                .map(|i| i as u16)
                .collect();
            let float = model.eval(&us, &them);
            let int = net.output(&Accumulator::new(&net, &pos), pos.side()) as f32;
            let err = (int - float).abs();
            // Rounding the first layer to 1/255 moves each hidden unit by about 0.005 (one
            // standard deviation); over 256 units that is about 2.5 centi-men.
            assert!(err <= 12.0 + 0.01 * float.abs(), "float {float}, int {int}");
            worst = worst.max(err);
            total += err as f64;
            count += 1;
        }
        assert!(
            total / (count as f64) < 3.0,
            "mean error {}",
            total / count as f64
        );
        assert!(worst > 0.0, "rounding changes something");
    }

    #[test]
    fn the_gradient_agrees_with_finite_differences() {
        let mut data = NetDataset::default();
        use crate::tune::data::Samples;
        for (i, pos) in positions().iter().take(20).enumerate() {
            data.push(pos, (i % 3) as f32 / 2.0, (i as i32 - 10) * 30);
        }
        let model = Model::random(9);
        let obj = Objective {
            k: 0.004,
            lambda: 0.5,
        };
        let mut grad = vec![0.0f32; PARAMS];
        model.gradient(&data, data.entries(), &obj, 1.0, &mut grad);
        // Parameters that matter: the output bias, an output weight, a used input's weight.
        let (us, _) = data.inputs(&data.entries()[0]);
        for k in [
            B2,
            W2 + 3,
            W1 + us[0] as usize * H + 7,
            F1 + (us[0] as usize % FACTORS) * H + 5,
            B1 + 2,
        ] {
            let eps = 2e-3;
            let mut plus = model.clone();
            plus.p[k] += eps;
            let mut minus = model.clone();
            minus.p[k] -= eps;
            let numeric = (plus.loss_sum(&data, data.entries(), &obj)
                - minus.loss_sum(&data, data.entries(), &obj))
                / (2.0 * eps as f64);
            let analytic = grad[k] as f64;
            assert!(
                (numeric - analytic).abs() <= 1e-3 + 0.05 * analytic.abs(),
                "parameter {k}: numeric {numeric}, analytic {analytic}"
            );
        }
    }
}
