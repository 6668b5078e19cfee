//! `bashni tune`: fits the evaluation's weights to `bashni datagen` data and writes them as
//! the weights file the build compiles in.

pub mod data;
pub mod optimise;

use crate::games::Variant;
use crate::games::kit::linear::LinearEval;
use data::Samples;
use optimise::{FitSettings, Objective, Params, fit, fit_k, loss};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `bashni tune`.
#[derive(clap::Args, Debug)]
#[command(
    about = "Fit the evaluation's weights to self-play data (Texel method, Adam)",
    long_about = "Fit the evaluation's weights to positions written by `bashni datagen`: K is \
        fitted first, then every weight (opening and endgame value of each feature) moves by \
        Adam to minimise the squared error between sigmoid(K * eval) and a blend of the game's \
        result and the search score. One position in --valid-every is held out; training stops \
        when its loss has not improved for --patience epochs. Bad lines are reported with their \
        line number and skipped. The best weights are written as Rust source to --out. Each \
        game (--variant) has its own features and weights file: src/games/bashni/eval/weights.txt (Bashni), \
        src/games/turkish/eval/weights.txt, src/games/russian/eval/weights.txt, \
        src/games/lasca/eval/weights.txt.",
    after_help = "Examples:\n  \
        bashni tune data.txt --out src/games/bashni/eval/weights.txt\n  \
        bashni tune --variant turkish turkish.txt --out src/games/turkish/eval/weights.txt\n  \
        bashni tune a.txt b.txt --from src/games/bashni/eval/weights.txt --lambda 0.7 --epochs 500 --out w.txt"
)]
pub struct TuneArgs {
    /// The game whose weights are fitted: bashni, turkish, russian, brazilian or lasca.
    #[arg(long, default_value_t = Variant::Bashni)]
    pub variant: Variant,
    /// Data files (`bashni datagen --out`).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the weights (Rust source; the game's weights file, e.g.
    /// src/games/bashni/eval/weights.txt for Bashni, is the one compiled in); never one of the data files.
    #[arg(long)]
    pub out: PathBuf,
    /// Start from this weights file instead of the weights compiled in.
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Share of the game result in the target (the rest is the search score), 0 to 1.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Adam step size, centi-men: more than 0, at most 100.
    #[arg(long, default_value_t = 1.0, value_parser = learning_rate)]
    pub learning_rate: f64,
    /// Most epochs (at least 1).
    #[arg(long, default_value_t = 300, value_parser = at_least_one)]
    pub epochs: usize,
    /// Stop after this many epochs without a better validation loss.
    #[arg(long, default_value_t = 20)]
    pub patience: usize,
    /// Hold out one position in this many (by position hash) for validation.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..))]
    pub valid_every: u64,
    /// Threads for the gradient (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Runs `bashni tune`; returns the exit code.
pub fn run(args: TuneArgs) -> i32 {
    if let Err(e) = out_is_no_input(&[&args.out], &args.data) {
        eprintln!("error: {e}");
        return 2;
    }
    match crate::for_variant!(args.variant, G => tune::<G>(&args)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// A count of at least 1 (clap's ranges work on u64/i64, not usize).
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("'{text}' is not a whole number of at least 1")),
    }
}

/// A finite number more than `low` and at most `high`, for an argument that is a number
/// (`nan`, `inf` and absurd values would train nothing and write the starting weights).
pub(crate) fn number_in(text: &str, low: f64, high: f64) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > low && x <= high => Ok(x),
        Ok(_) => Err(format!(
            "must be a number more than {low} and at most {high}"
        )),
        Err(_) => Err("not a number".to_string()),
    }
}

/// `--learning-rate`: more than 0, at most 100 centi-men.
fn learning_rate(text: &str) -> Result<f64, String> {
    number_in(text, 0.0, 100.0)
}

/// Refuses outputs that are one of the inputs (the same path, through links or `..`, or the
/// same file under another name): writing one would destroy the data being read.
pub(crate) fn out_is_no_input(outs: &[&Path], inputs: &[PathBuf]) -> Result<(), String> {
    for out in outs {
        if let Some(input) = inputs.iter().find(|i| crate::files::same_file(out, i)) {
            return Err(format!(
                "'{}' is the data file '{}': writing it would destroy the data; choose another --out",
                out.display(),
                input.display()
            ));
        }
    }
    Ok(())
}

/// A weights file is a few KB; a larger one is not one (and is not read into memory).
const MAX_WEIGHTS_FILE: u64 = 1 << 20;

fn start_weights<G: LinearEval>(from: Option<&Path>) -> Result<Params, String> {
    let ints = match from {
        None => G::WEIGHTS.to_vec(),
        Some(p) => {
            let text = crate::files::read_text(p, MAX_WEIGHTS_FILE)
                .map_err(|e| format!("cannot read '{}': {e}", p.display()))?;
            crate::games::kit::weights::parse::<G>(&text)
                .map_err(|e| format!("'{}': {e}", p.display()))?
        }
    };
    Ok(ints.iter().map(|w| [w[0] as f64, w[1] as f64]).collect())
}

fn tune<G: LinearEval>(args: &TuneArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {} is not between 0 and 1", args.lambda));
    }
    if let Some(n) = args.threads {
        // Only fails if a global pool exists already, which is then used as it is.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global();
    }
    // 1. Starting weights and data (bad lines reported and skipped).
    let start = start_weights::<G>(args.from.as_deref())?;
    let clock = Instant::now();
    let loaded = data::load_reported::<data::Dataset<G>>(&args.data, args.valid_every)?;
    // 2. K, fitted to the results with the starting weights.
    let k = fit_k(&loaded.train, &start);
    let objective = Objective {
        k,
        lambda: args.lambda,
    };
    // With no position held out (a tiny data set, or --valid-every 0) the training loss stands
    // in for the validation loss, as in `fit`, and every line says so.
    let held_out = if loaded.valid.is_empty() {
        println!("no validation positions: the training loss is used in their place");
        &loaded.train
    } else {
        &loaded.valid
    };
    let before = loss(held_out, &start, &objective);
    println!("K = {k:.6}; validation loss of the starting weights {before:.6}");
    // 3. Adam over every weight until the validation loss stops improving.
    let settings = FitSettings {
        objective,
        learning_rate: args.learning_rate,
        max_epochs: args.epochs,
        patience: args.patience.max(1),
        trainable: vec![[true; 2]; G::NUM_FEATURES],
    };
    let mut epochs = 0;
    let (best, best_loss) = fit(&loaded.train, &loaded.valid, start, &settings, &mut |r| {
        epochs = r.epoch;
        println!(
            "epoch {:>4}  train {:.6}  validation {:.6}",
            r.epoch, r.train, r.valid
        );
    });
    // 4. The best weights, rounded, written with a header that says how they were made.
    let rounded: Vec<[i32; 2]> = best
        .iter()
        .map(|w| [w[0].round() as i32, w[1].round() as i32])
        .collect();
    let header = vec![
        format!("Game: {} ({} features)", G::VARIANT, G::NUM_FEATURES),
        format!(
            "Made from: {} ({} training and {} validation positions)",
            args.data
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            loaded.train.len(),
            loaded.valid.len()
        ),
        format!(
            "Start: {}; K = {k:.6}, lambda = {}, learning rate {}, {epochs} epochs",
            args.from
                .as_ref()
                .map_or("the weights compiled in".to_string(), |p| p
                    .display()
                    .to_string()),
            args.lambda,
            args.learning_rate
        ),
        format!("Validation loss: {before:.6} before, {best_loss:.6} after"),
    ];
    crate::files::replace(
        &args.out,
        crate::games::kit::weights::render::<G>(&rounded, &header).as_bytes(),
    )
    .map_err(|e| format!("cannot write '{}': {e}", args.out.display()))?;
    println!(
        "wrote {} ({:.1} s); validation loss {before:.6} -> {best_loss:.6}",
        args.out.display(),
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}
