//! The network in floating point, as the trainer fits it: the forward pass, the gradient of
//! the loss over a slice of positions, Adam, and the rounding to the engine's integers.
//!
//! All parameters live in one flat vector (first-layer weights, their biases, output weights,
//! output bias), so that the gradient, Adam's moments and the sums over threads are plain
//! element-wise loops.

use super::data::{Entry, NetDataset};
use crate::games::kit::nnue::{HIDDEN, NetShape, Network, QA, QB, SCALE};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const H: usize = HIDDEN;
/// Output weights stay within what an `i16` holds at scale `QB`.
const W2_LIMIT: f32 = i16::MAX as f32 / QB as f32;

/// Where each part of the parameter vector starts, for a game's shape: first-layer weights,
/// the factoriser's (one row per kind of piece, see [`Model`]), the biases, the output
/// weights and the output bias.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The game's network shape.
    pub shape: NetShape,
    w1: usize,
    f1: usize,
    b1: usize,
    w2: usize,
    b2: usize,
    /// Number of parameters.
    pub params: usize,
    /// First-layer weights (square-specific and factor parts each) and biases stay within
    /// this, so that the engine's 16-bit accumulator (`max_active` inputs of two parts each
    /// and a bias, times `QA`) cannot overflow; at most 2.
    w1_limit: f32,
}

impl Layout {
    /// The layout of a network of `shape`.
    pub fn of(shape: NetShape) -> Layout {
        let w1 = 0;
        let f1 = w1 + shape.inputs * H;
        let b1 = f1 + shape.kinds * H;
        let w2 = b1 + H;
        let b2 = w2 + 2 * H;
        let fits = i16::MAX as f32 / (QA as f32 * (2 * shape.max_active + 1) as f32);
        Layout {
            shape,
            w1,
            f1,
            b1,
            w2,
            b2,
            params: b2 + 1,
            // A margin for the rounding to integers.
            w1_limit: if fits < 2.0 { fits * 0.99 } else { 2.0 },
        }
    }
}

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
    /// Where each part of `p` is.
    pub layout: Layout,
    /// All parameters, laid out as `layout` says.
    pub p: Vec<f32>,
}

/// One position's hidden layer before the clip, both halves (side to move first).
struct Hidden([[f32; H]; 2]);

impl Model {
    /// Small random weights drawn from `seed`; clipped-ReLU units start half open.
    pub fn random(shape: NetShape, seed: u64) -> Model {
        let l = Layout::of(shape);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut p = vec![0.0f32; l.params];
        let a1 = 1.0 / (shape.max_active as f32).sqrt();
        p[l.w1..l.f1]
            .iter_mut()
            .for_each(|w| *w = rng.random_range(-a1..a1));
        p[l.b1..l.w2].iter_mut().for_each(|b| *b = 0.5);
        let a2 = 1.0 / (2.0 * H as f32).sqrt();
        p[l.w2..l.b2]
            .iter_mut()
            .for_each(|w| *w = rng.random_range(-a2..a2));
        Model { layout: l, p }
    }

    /// The weights of a trained network, to go on training from (`bashni train --init`), as a
    /// model of `shape` (the network's own, or another game's with the same inputs): each
    /// integer divided by its scale, the factoriser's rows zero (the network holds their sums
    /// already), so that [`Model::quantise`] gives the same network back.
    pub fn from_network(net: &Network, shape: NetShape) -> Model {
        debug_assert!(net.shape.same_inputs(&shape));
        let l = Layout::of(shape);
        let mut p = vec![0.0f32; l.params];
        let (qa, qb) = (QA as f32, QB as f32);
        for (dst, row) in p[l.w1..l.f1].chunks_exact_mut(H).zip(net.w1.iter()) {
            dst.iter_mut()
                .zip(row)
                .for_each(|(d, &w)| *d = w as f32 / qa);
        }
        for (d, &b) in p[l.b1..l.w2].iter_mut().zip(&net.b1) {
            *d = b as f32 / qa;
        }
        for (dst, side) in p[l.w2..l.b2].chunks_exact_mut(H).zip(&net.w2) {
            dst.iter_mut()
                .zip(side)
                .for_each(|(d, &w)| *d = w as f32 / qb);
        }
        p[l.b2] = net.b2 as f32 / (qa * qb);
        Model { layout: l, p }
    }

    fn hidden(&self, us: &[u16], them: &[u16]) -> Hidden {
        let l = &self.layout;
        let mut h = Hidden([[0.0; H]; 2]);
        for (half, inputs) in h.0.iter_mut().zip([us, them]) {
            half.copy_from_slice(&self.p[l.b1..l.w2]);
            for &i in inputs {
                let row = &self.p[l.w1 + i as usize * H..][..H];
                let factor = &self.p[l.f1 + (i as usize % l.shape.kinds) * H..][..H];
                half.iter_mut()
                    .zip(row)
                    .zip(factor)
                    .for_each(|((a, w), f)| *a += w + f);
            }
        }
        h
    }

    fn output(&self, h: &Hidden) -> f32 {
        let l = &self.layout;
        let mut out = self.p[l.b2];
        for (half, w) in h.0.iter().zip(self.p[l.w2..l.b2].chunks_exact(H)) {
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
    pub fn loss_sum<P>(&self, data: &NetDataset<P>, entries: &[Entry], obj: &Objective) -> f64 {
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
    pub fn gradient<P>(
        &self,
        data: &NetDataset<P>,
        entries: &[Entry],
        obj: &Objective,
        scale: f32,
        grad: &mut [f32],
    ) -> f64 {
        let l = self.layout;
        let mut total = 0.0f64;
        for e in entries {
            let (us, them) = data.inputs(e);
            let h = self.hidden(us, them);
            let pred = sigmoid(obj.k * self.output(&h) * SCALE as f32);
            let d = pred - obj.target(e);
            total += (d * d) as f64;
            // d(loss)/d(output).
            let g = 2.0 * d * pred * (1.0 - pred) * obj.k * SCALE as f32 * scale;
            grad[l.b2] += g;
            for (side, (half, inputs)) in h.0.iter().zip([us, them]).enumerate() {
                let w2 = l.w2 + side * H;
                let mut dh = [0.0f32; H];
                for j in 0..H {
                    let a = half[j];
                    grad[w2 + j] += g * a.clamp(0.0, 1.0);
                    if a > 0.0 && a < 1.0 {
                        dh[j] = g * self.p[w2 + j];
                    }
                }
                grad[l.b1..l.w2]
                    .iter_mut()
                    .zip(&dh)
                    .for_each(|(gb, d)| *gb += d);
                for &i in inputs {
                    let row = &mut grad[l.w1 + i as usize * H..][..H];
                    row.iter_mut().zip(&dh).for_each(|(gw, d)| *gw += d);
                    let factor = &mut grad[l.f1 + (i as usize % l.shape.kinds) * H..][..H];
                    factor.iter_mut().zip(&dh).for_each(|(gf, d)| *gf += d);
                }
            }
        }
        total
    }

    /// Keeps every weight inside what the engine's integers hold.
    pub fn clip(&mut self) {
        let l = self.layout;
        self.p[l.w1..l.w2]
            .iter_mut()
            .for_each(|w| *w = w.clamp(-l.w1_limit, l.w1_limit));
        self.p[l.w2..l.b2]
            .iter_mut()
            .for_each(|w| *w = w.clamp(-W2_LIMIT, W2_LIMIT));
    }

    /// The engine's integer network: first layer times `QA`, output weights times `QB`,
    /// output bias times both, rounded.
    pub fn quantise(&self) -> Network {
        let l = self.layout;
        let q = |w: f32, s: i32| (w * s as f32).round() as i16;
        let mut w1 = vec![[0i16; H]; l.shape.inputs].into_boxed_slice();
        for (i, (row, src)) in w1
            .iter_mut()
            .zip(self.p[l.w1..l.f1].chunks_exact(H))
            .enumerate()
        {
            let factor = &self.p[l.f1 + (i % l.shape.kinds) * H..][..H];
            row.iter_mut()
                .zip(src)
                .zip(factor)
                .for_each(|((d, &w), &f)| *d = q(w + f, QA));
        }
        let b1 = std::array::from_fn(|j| q(self.p[l.b1 + j], QA));
        let w2 = std::array::from_fn(|s| std::array::from_fn(|j| q(self.p[l.w2 + s * H + j], QB)));
        let b2 = (self.p[l.b2] * (QA * QB) as f32).round() as i32;
        Network {
            shape: l.shape,
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

    /// Zero moments for `params` parameters.
    pub fn new(params: usize) -> Adam {
        Adam {
            m: vec![0.0; params],
            v: vec![0.0; params],
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::games::kit::nnue::stack::checks::random_games;
    use crate::games::kit::nnue::{Accumulator, FeatureSet};
    use crate::tune::data::Samples;

    /// Positions of random games.
    fn positions<P: Game>() -> Vec<P> {
        random_games::<P>(40, 80, 3)
            .into_iter()
            .flatten()
            .map(|(pos, _)| pos)
            .collect()
    }

    fn inputs<P: FeatureSet>(pos: &P, persp: crate::games::kit::Color) -> Vec<u16> {
        let mut out = Vec::new();
        pos.active_inputs(persp, |i| out.push(i as u16));
        out
    }

    fn integer_matches_float<P: FeatureSet + Game>() {
        let mut model = Model::random(P::SHAPE, 5);
        let l = model.layout;
        // Output weights as large as training makes them (mean size about 0.09).
        model.p[l.w2..l.b2].iter_mut().for_each(|w| *w *= 3.0);
        model.p[l.b2] = 0.1;
        let net = model.quantise();
        let mut worst = 0.0f32;
        let (mut total, mut count) = (0.0f64, 0);
        for pos in positions::<P>() {
            let side = pos.side_to_move();
            let float = model.eval(&inputs(&pos, side), &inputs(&pos, side.opponent()));
            let int = Accumulator::new(&net, &pos).evaluate(&net, side) as f32;
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
    fn the_integer_network_matches_the_float_one_within_a_few_centimen() {
        integer_matches_float::<crate::games::bashni::Position>();
        integer_matches_float::<crate::games::turkish::Position>();
        integer_matches_float::<crate::games::russian::Position>();
    }

    fn gradient_agrees<P: FeatureSet + Game>() {
        let mut data = NetDataset::<P>::default();
        for (i, pos) in positions::<P>().iter().take(20).enumerate() {
            data.push(pos, (i % 3) as f32 / 2.0, (i as i32 - 10) * 30);
        }
        let model = Model::random(P::SHAPE, 9);
        let l = model.layout;
        let obj = Objective {
            k: 0.004,
            lambda: 0.5,
        };
        let mut grad = vec![0.0f32; l.params];
        model.gradient(&data, data.entries(), &obj, 1.0, &mut grad);
        // Parameters that matter: the output bias, an output weight, a used input's weight.
        let (us, _) = data.inputs(&data.entries()[0]);
        for k in [
            l.b2,
            l.w2 + 3,
            l.w1 + us[0] as usize * H + 7,
            l.f1 + (us[0] as usize % l.shape.kinds) * H + 5,
            l.b1 + 2,
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

    fn a_network_read_back_quantises_to_itself<P: FeatureSet + Game>() {
        let shipped = P::embedded_network();
        let back = Model::from_network(&shipped, shipped.shape);
        assert_eq!(back.quantise(), *shipped);
        // Trained further by one step, it changes (the parameters are live, not a copy).
        let mut moved = back.clone();
        moved.p[moved.layout.b2] += 0.01;
        assert_ne!(moved.quantise(), *shipped);
    }

    #[test]
    fn a_trained_network_is_where_training_can_go_on_from() {
        a_network_read_back_quantises_to_itself::<crate::games::russian::Position>();
        a_network_read_back_quantises_to_itself::<crate::games::bashni::Position>();
    }

    #[test]
    fn the_gradient_agrees_with_finite_differences() {
        gradient_agrees::<crate::games::bashni::Position>();
        gradient_agrees::<crate::games::turkish::Position>();
        gradient_agrees::<crate::games::russian::Position>();
    }

    #[test]
    fn weights_within_the_limit_cannot_overflow_any_games_accumulator() {
        for shape in [
            <crate::games::bashni::Position as FeatureSet>::SHAPE,
            <crate::games::turkish::Position as FeatureSet>::SHAPE,
            <crate::games::russian::Position as FeatureSet>::SHAPE,
        ] {
            let mut model = Model::random(shape, 1);
            let l = model.layout;
            model.p[l.w1..l.w2].iter_mut().for_each(|w| *w = 100.0);
            model.clip();
            let net = model.quantise();
            let bytes = net.to_bytes();
            assert!(Network::from_bytes(&bytes, shape).is_ok(), "{}", shape.game);
        }
    }
}
