//! `bashni train`: fits the network ([`crate::games::kit::nnue`]) to `bashni datagen` data and writes it
//! quantised, with a manifest that says how it was made.
//!
//! Deterministic for a given seed and thread count: the shuffles come from the seed, each
//! batch is cut into one slice per thread, and the slices' gradients are added in order.

pub mod data;
pub mod model;

use crate::games::Game;
use crate::games::Variant;
use crate::games::kit::nnue::network::MAX_FILE_BYTES;
use crate::games::kit::nnue::{FeatureSet, NetError, NetShape, Network};
use crate::tune::data::{Loaded, Samples, load_reported};
use crate::tune::optimise::golden_min;
use data::{Entry, NetDataset};
use model::{Adam, Model, Objective};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `bashni train`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Train the evaluation network (NNUE) on self-play data",
    long_about = "Train the evaluation network on positions written by `bashni datagen`: the \
        target blends the game's result and the search score as in `bashni tune` (K, as there, is where \
        the linear evaluation best predicts the results); Adam on mini-batches; one position in --valid-every \
        (by position hash) is held out, and training stops when its loss has not improved for \
        --patience epochs (the step size drops at each such epoch). The best network is \
        written quantised to --out, and a manifest (settings, data, losses per epoch) beside \
        it as <out>.md. The result depends only on the data, the settings, --seed and \
        --threads.",
    after_help = "Examples:\n  \
        bashni train data.txt --out nets/new.nnue\n  \
        bashni train a.txt b.txt --epochs 40 --lambda 0.3 --threads 2 --out nets/new.nnue"
)]
pub struct TrainArgs {
    /// Data files (`bashni datagen --out`).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the network (the manifest goes beside it, as <out>.md); neither may be
    /// one of the data files.
    #[arg(long)]
    pub out: PathBuf,
    /// Share of the game result in the target (the rest is the search score), 0 to 1.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f32,
    /// Adam step size at the start: more than 0, at most 1.
    #[arg(long, default_value_t = 0.001, value_parser = zero_to_one)]
    pub learning_rate: f32,
    /// Step size factor at each epoch without a better validation loss: more than 0, at
    /// most 1.
    #[arg(long, default_value_t = 0.3, value_parser = zero_to_one)]
    pub decay: f32,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch: u64,
    /// Most epochs.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub epochs: u64,
    /// Stop after this many epochs without a better validation loss.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    pub patience: u64,
    /// Hold out one position in this many (by position hash) for validation.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(2..))]
    pub valid_every: u64,
    /// Seed of the starting weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (the result depends on it; default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// Start from this network's weights (the same game's, or a game's with the same inputs:
    /// Russian draughts' for Brazilian) instead of random ones, to go on training a network on
    /// new data.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// The game: bashni, turkish, russian, brazilian or lasca.
    #[arg(long, default_value_t = Variant::Bashni)]
    pub variant: Variant,
}

/// Runs `bashni train`; returns the exit code.
pub fn run(args: TrainArgs) -> i32 {
    let manifest = manifest_path(&args.out);
    if let Err(e) = crate::tune::out_is_no_input(&[&args.out, &manifest], &args.data) {
        eprintln!("error: {e}");
        return 2;
    }
    let trained = match args.variant {
        Variant::Bashni => train::<crate::games::bashni::Position>(&args),
        Variant::Turkish => train::<crate::games::turkish::Position>(&args),
        Variant::Russian => train::<crate::games::russian::Position>(&args),
        Variant::Brazilian => train::<crate::games::brazilian::Position>(&args),
        Variant::Lasca => train::<crate::games::lasca::Position>(&args),
    };
    match trained {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// One epoch's losses.
struct Epoch {
    train: f64,
    valid: f64,
    lr: f32,
}

/// The loss `K` and `lambda` define, and the linear evaluation's validation loss under it.
struct Fitted {
    obj: Objective,
    linear: f64,
}

/// What the epochs found: each epoch's losses, and the best validation loss with its model.
struct Trained {
    epochs: Vec<Epoch>,
    best: (f64, Model),
}

fn train<P: FeatureSet + Game>(args: &TrainArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {} is not between 0 and 1", args.lambda));
    }
    let threads = args
        .threads
        .map_or_else(crate::search::Engine::max_useful_threads, |n| n as usize);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    // 1. The starting weights (a bad --init is refused before the data is read), and the data
    // (bad lines reported and skipped; duplicates kept once).
    let start = starting_model::<P>(args)?;
    let clock = Instant::now();
    let loaded = load_reported::<NetDataset<P>>(&args.data, args.valid_every)?;
    let held_out = if loaded.valid.is_empty() {
        println!("no validation positions: the training loss is used in their place");
        &loaded.train
    } else {
        &loaded.valid
    };
    // 2. K and the objective.
    let fitted = fit_objective(args, &loaded.train, held_out, threads);
    // 3. Adam on shuffled batches from random weights or --init's; the best network by
    // validation loss is kept.
    let trained = run_epochs(
        args,
        &pool,
        &loaded.train,
        held_out,
        &fitted.obj,
        &start,
        &clock,
    );
    // 4. The best network, quantised, and its manifest.
    write_network(args, &loaded, &fitted, threads, &trained, &clock)
}

/// Step 2: K, the scale at which the linear evaluation best predicts the results (as `bashni
/// tune` fits it), so that the network's centi-men are the linear evaluation's and the
/// search's margins, tuned on those, keep their meaning.
fn fit_objective<P: FeatureSet + Game>(
    args: &TrainArgs,
    train_set: &NetDataset<P>,
    held_out: &NetDataset<P>,
    threads: usize,
) -> Fitted {
    let k = fit_k(train_set);
    let obj = Objective {
        k,
        lambda: args.lambda,
    };
    let linear = linear_loss(held_out, &obj);
    println!(
        "K = {k:.6}, lambda {}, {threads} threads, seed {}; validation loss of the linear evaluation {linear:.6}",
        args.lambda, args.seed
    );
    Fitted { obj, linear }
}

/// The weights training starts from: `--init`'s network, or random ones from `--seed`.
fn starting_model<P: FeatureSet + Game>(args: &TrainArgs) -> Result<Model, String> {
    let Some(path) = &args.init else {
        return Ok(Model::random(P::SHAPE, args.seed));
    };
    let bytes = crate::files::read_regular_bytes(path, MAX_FILE_BYTES as u64)
        .map_err(|e| format!("cannot read --init '{}': {e}", path.display()))?;
    let net = match Network::from_bytes(&bytes, P::SHAPE) {
        Err(NetError::Game(other, _)) => kin_network(&bytes, &other, P::SHAPE),
        read => read.map_err(|e| e.to_string()),
    }
    .map_err(|e| format!("--init '{}': {e}", path.display()))?;
    Ok(Model::from_network(&net, P::SHAPE))
}

/// A network of `other`'s game to start `shape`'s game's training from: taken when its inputs
/// are the same (Russian draughts' for Brazilian draughts'), refused by name otherwise.
fn kin_network(bytes: &[u8], other: &str, shape: NetShape) -> Result<Network, String> {
    let refused = NetError::Game(other.to_string(), shape.game);
    let theirs = Variant::ALL
        .into_iter()
        .find(|v| v.name() == other)
        .and_then(crate::games::network_shape)
        .filter(|s| s.same_inputs(&shape))
        .ok_or_else(|| refused.to_string())?;
    let net = Network::from_bytes(bytes, theirs).map_err(|e| e.to_string())?;
    println!(
        "--init: a network of {other}, whose inputs are {}'s: training starts from its weights",
        shape.game
    );
    Ok(net)
}

/// Step 3: Adam on shuffled batches, epoch by epoch, the step size cut at each epoch without
/// a better validation loss, until `--patience` such epochs or `--epochs`.
fn run_epochs<P: FeatureSet + Game>(
    args: &TrainArgs,
    pool: &rayon::ThreadPool,
    train_set: &NetDataset<P>,
    held_out: &NetDataset<P>,
    obj: &Objective,
    start: &Model,
    clock: &Instant,
) -> Trained {
    let threads = pool.current_num_threads();
    let mut model = start.clone();
    let mut adam = Adam::new(model.layout.params);
    let mut lr = args.learning_rate;
    let mut best = (
        pool.install(|| mean_loss(&model, held_out, obj)),
        model.clone(),
    );
    println!("start: validation {:.6}", best.0);
    let mut epochs = Vec::new();
    let mut order: Vec<Entry> = train_set.entries().to_vec();
    let mut stale = 0;
    for epoch in 1..=args.epochs {
        let mut rng = StdRng::seed_from_u64(args.seed ^ epoch.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        order.shuffle(&mut rng);
        let mut sum = 0.0;
        for batch in order.chunks(args.batch as usize) {
            let (grad, loss) =
                pool.install(|| batch_gradient(&model, train_set, batch, obj, threads));
            sum += loss;
            adam.step(&mut model, &grad, lr);
        }
        let valid = pool.install(|| mean_loss(&model, held_out, obj));
        let e = Epoch {
            train: sum / order.len() as f64,
            valid,
            lr,
        };
        println!(
            "epoch {epoch:>3}  train {:.6}  validation {:.6}  lr {:.6}  ({:.0} s)",
            e.train,
            e.valid,
            e.lr,
            clock.elapsed().as_secs_f64()
        );
        epochs.push(e);
        if valid < best.0 {
            best = (valid, model.clone());
            stale = 0;
        } else {
            stale += 1;
            lr *= args.decay;
            if stale >= args.patience {
                break;
            }
        }
    }
    Trained { epochs, best }
}

/// Step 4: the best network, quantised, to `--out`, and its manifest beside it.
fn write_network<P: FeatureSet + Game>(
    args: &TrainArgs,
    loaded: &Loaded<NetDataset<P>>,
    fitted: &Fitted,
    threads: usize,
    trained: &Trained,
    clock: &Instant,
) -> Result<(), String> {
    let (best_loss, best_model) = &trained.best;
    let net = best_model.quantise();
    crate::files::replace(&args.out, &net.to_bytes())
        .map_err(|e| format!("cannot write '{}': {e}", args.out.display()))?;
    let manifest_path = manifest_path(&args.out);
    let manifest = manifest(
        args,
        loaded,
        (fitted.obj.k, fitted.linear),
        threads,
        &trained.epochs,
        *best_loss,
    );
    crate::files::replace(&manifest_path, manifest.as_bytes())
        .map_err(|e| format!("cannot write '{}': {e}", manifest_path.display()))?;
    println!(
        "wrote {} and {} ({:.1} s); validation loss {:.6}",
        args.out.display(),
        manifest_path.display(),
        clock.elapsed().as_secs_f64(),
        best_loss
    );
    Ok(())
}

/// A finite number more than 0 and at most 1 (`--learning-rate`, `--decay`).
fn zero_to_one(text: &str) -> Result<f32, String> {
    // Read as f32 itself (not through f64), so that a value means what it always meant.
    match text.trim().parse::<f32>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 1.0 => Ok(x),
        Ok(_) => Err("must be a number more than 0 and at most 1".to_string()),
        Err(_) => Err("not a number".to_string()),
    }
}

/// `<out>.md`.
fn manifest_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".md");
    PathBuf::from(name)
}

/// The gradient of the batch's mean loss and the batch's summed loss: one slice per thread,
/// the slices' gradients added in order (so the result does not depend on scheduling).
fn batch_gradient<P: FeatureSet + Game>(
    model: &Model,
    data: &NetDataset<P>,
    batch: &[Entry],
    obj: &Objective,
    threads: usize,
) -> (Vec<f32>, f64) {
    let scale = 1.0 / batch.len() as f32;
    let slice = batch.len().div_ceil(threads).max(1);
    let parts: Vec<(Vec<f32>, f64)> = batch
        .par_chunks(slice)
        .map(|part| {
            let mut grad = vec![0.0f32; model.layout.params];
            let loss = model.gradient(data, part, obj, scale, &mut grad);
            (grad, loss)
        })
        .collect();
    let mut parts = parts.into_iter();
    let (mut grad, mut loss) = parts
        .next()
        .unwrap_or((vec![0.0; model.layout.params], 0.0));
    for (g, l) in parts {
        grad.iter_mut().zip(&g).for_each(|(a, b)| *a += b);
        loss += l;
    }
    (grad, loss)
}

/// Mean loss over a whole set, in fixed slices added in order.
fn mean_loss<P: FeatureSet + Game>(model: &Model, data: &NetDataset<P>, obj: &Objective) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sums: Vec<f64> = data
        .entries()
        .par_chunks(4096)
        .map(|part| model.loss_sum(data, part, obj))
        .collect();
    sums.iter().sum::<f64>() / data.len() as f64
}

/// Mean loss of the linear evaluation (the yardstick).
fn linear_loss<P: FeatureSet + Game>(data: &NetDataset<P>, obj: &Objective) -> f64 {
    let sum: f64 = data
        .entries()
        .iter()
        .map(|e| {
            let d = model::sigmoid(obj.k * e.linear) - obj.target(e);
            (d * d) as f64
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// The `K` at which `sigmoid(K * linear evaluation)` best predicts the results.
fn fit_k<P: FeatureSet + Game>(data: &NetDataset<P>) -> f32 {
    let loss = |log_k: f64| {
        let k = log_k.exp();
        data.entries()
            .iter()
            .map(|e| {
                let d = 1.0 / (1.0 + (-k * e.linear as f64).exp()) - e.result as f64;
                d * d
            })
            .sum::<f64>()
    };
    golden_min(loss, (1e-5f64).ln(), (1e-1f64).ln()).exp() as f32
}

fn manifest<P: FeatureSet + Game>(
    args: &TrainArgs,
    loaded: &Loaded<NetDataset<P>>,
    (k, linear): (f32, f64),
    threads: usize,
    epochs: &[Epoch],
    best: f64,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Network manifest: {}\n", P::SHAPE.game);
    let _ = writeln!(
        s,
        "Shape: {} inputs x {} hidden (x2 perspectives) -> 1, clipped ReLU; QA {}, QB {}, scale {}.\n",
        P::SHAPE.inputs,
        crate::games::kit::nnue::HIDDEN,
        crate::games::kit::nnue::QA,
        crate::games::kit::nnue::QB,
        crate::games::kit::nnue::SCALE
    );
    let files: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let _ = writeln!(s, "Data files: {}", files.join(", "));
    let _ = writeln!(
        s,
        "Positions: {} training, {} validation (one in {} by hash); {} duplicates, {} bad lines skipped.\n",
        loaded.train.len(),
        loaded.valid.len(),
        args.valid_every,
        loaded.duplicates,
        loaded.bad_lines
    );
    let _ = writeln!(
        s,
        "Trainer: `bashni train --variant {} {} --out {} --lambda {} --learning-rate {} --decay {} --batch {} \
         --epochs {} --patience {} --valid-every {} --seed {}{} --threads {threads}`; K = {k:.6}.\n",
        P::SHAPE.game,
        files.join(" "),
        args.out.display(),
        args.lambda,
        args.learning_rate,
        args.decay,
        args.batch,
        args.epochs,
        args.patience,
        args.valid_every,
        args.seed,
        args.init
            .as_ref()
            .map_or(String::new(), |p| format!(" --init {}", p.display()))
    );
    let _ = writeln!(s, "| epoch | train loss | validation loss | step size |");
    let _ = writeln!(s, "|---|---|---|---|");
    for (i, e) in epochs.iter().enumerate() {
        let _ = writeln!(
            s,
            "| {} | {:.6} | {:.6} | {:.6} |",
            i + 1,
            e.train,
            e.valid,
            e.lr
        );
    }
    let _ = writeln!(
        s,
        "\nBest validation loss: {best:.6} (the network written); the linear evaluation's: {linear:.6}."
    );
    s
}
