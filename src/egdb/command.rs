//! `bashni egdb`: build, probe, verify and describe the tables.

use super::file::{Changed, TableFile, file_name, write};
use super::game::{EgdbGame, Layout};
use super::material::Signature;
use super::probe::Store;
use super::solve::{build_order, group, solve};
use super::value::Outcome;
use super::verify::verify;
use super::{GAMES, for_egdb_game};
use crate::games::kit::rules::Rules;
use crate::games::kit::variant::Variant;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Build, probe and check endgame databases, exact under the no-progress rule.
///
/// Russian, Brazilian and Turkish draughts only, each under its own rules (Brazilian: the
/// majority capture rule, no crowning during a capture, the 20-move rule). Values
/// (docs/egdb.md): win, cursed-win, draw, blessed-loss or loss for the side to move, and the
/// plies to the next capture or man move.
///
/// Examples:
///   bashni egdb build --variant russian --pieces 3 --out egdb
///   bashni egdb build --variant brazilian --pieces 3 --out egdb
///   bashni egdb probe --variant russian --dir egdb --fen "W:WKa1,Kc3:BKh8"
///   bashni egdb verify --dir egdb
///   bashni egdb verify --variant russian --dir egdb
///   bashni egdb info --dir egdb
///   bashni egdb plan --variant russian --pieces 3
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct EgdbArgs {
    #[command(subcommand)]
    command: EgdbCommand,
}

#[derive(Subcommand, Debug)]
enum EgdbCommand {
    /// Solve the tables of 2 to N pieces and write them.
    ///
    /// Tables already in the directory are read, not solved again. With --material, only that
    /// signature (and the same material with the other side to move) is solved, from the
    /// smaller tables already in the directory: one task of a Slurm array.
    ///
    /// Examples:
    ///   bashni egdb build --variant russian --pieces 3 --out egdb
    ///   bashni egdb build --variant turkish --pieces 2 --out egdb
    ///   bashni egdb build --variant brazilian --pieces 2 --out egdb
    ///   bashni egdb build --variant russian --pieces 3 --out egdb --material KKvK
    #[command(verbatim_doc_comment)]
    Build {
        /// The game: russian, brazilian or turkish.
        #[arg(long)]
        variant: Variant,
        /// The most pieces on the board.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=6))]
        pieces: u32,
        /// The directory the tables go to (default: the default folder, where the engine
        /// finds them by itself: $BASHNI_EGDB_DIR, else ~/.local/share/bashni/egdb on Linux).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Threads solving: sub-problems side by side, and the moves and fixpoints of each.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
        threads: u32,
        /// Only this material: kings K and men M of the side to move, v, the other side's
        /// (e.g. KKMvK).
        #[arg(long, value_parser = |s: &str| Signature::parse(s))]
        material: Option<Signature>,
    },
    /// Print the levels of a build and their groups, one level a line, in build order.
    ///
    /// A line is the level's pieces and men, then one signature of each of its groups (a
    /// signature and the same material with the other side to move): the groups of a level
    /// depend only on earlier levels, so each can be solved by `build --material SIG --pieces
    /// P` at once, one task of a Slurm array (deploy/slurm/submit.sh egdb).
    ///
    /// Examples:
    ///   bashni egdb plan --variant russian --pieces 3
    #[command(verbatim_doc_comment)]
    Plan {
        /// The game: russian, brazilian or turkish.
        #[arg(long)]
        variant: Variant,
        /// The most pieces on the board.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=6))]
        pieces: u32,
    },
    /// Print the value of a position for the side to move and its distance.
    ///
    /// One line: win, cursed-win, draw, blessed-loss or loss, then the plies to the next
    /// capture or man move; then, if the FEN's clock changes the outcome, the outcome at it.
    ///
    /// Examples:
    ///   bashni egdb build --variant russian --pieces 3 --out egdb
    ///   bashni egdb probe --variant russian --dir egdb --fen "W:WKa1,Kc3:BKh8"
    ///   bashni egdb probe --variant russian --dir egdb --fen "W:WKa1,Kc3:BKh8:H29:F1"
    #[command(verbatim_doc_comment)]
    Probe {
        /// The game: russian, brazilian or turkish.
        #[arg(long)]
        variant: Variant,
        /// The directory of the tables (default: the default folder).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// The position, in the game's FEN or the standard draughts FEN.
        #[arg(long)]
        fen: String,
    },
    /// Check every stored value against the values of its successors.
    ///
    /// Every game's tables in the directory, or with --variant only that game's.
    ///
    /// Examples:
    ///   bashni egdb build --variant russian --pieces 3 --out egdb
    ///   bashni egdb verify --dir egdb
    ///   bashni egdb verify --variant russian --dir egdb
    #[command(verbatim_doc_comment)]
    Verify {
        /// Only this game's tables: russian, brazilian or turkish.
        #[arg(long)]
        variant: Option<Variant>,
        /// The directory of the tables (default: the default folder).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// List the tables: material, positions, bytes and how many of each value.
    ///
    /// Every game's tables in the directory, or with --variant only that game's.
    ///
    /// Examples:
    ///   bashni egdb build --variant turkish --pieces 2 --out egdb
    ///   bashni egdb info --dir egdb
    #[command(verbatim_doc_comment)]
    Info {
        /// Only this game's tables: russian, brazilian or turkish.
        #[arg(long)]
        variant: Option<Variant>,
        /// The directory of the tables (default: the default folder).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// The folder named, else the default folder ([`super::default_dir`]).
fn folder(given: Option<PathBuf>, flag: &str) -> Result<PathBuf, String> {
    given.or_else(super::default_dir).ok_or_else(|| {
        format!("no default folder for the tables here (set $BASHNI_EGDB_DIR or give {flag} DIR)")
    })
}

/// Runs `bashni egdb`; the exit code.
pub fn run(args: EgdbArgs) -> i32 {
    let result = match args.command {
        EgdbCommand::Build {
            variant,
            pieces,
            out,
            threads,
            material,
        } => folder(out, "--out").and_then(|out| {
            let b = Build {
                pieces,
                out: &out,
                threads: threads as usize,
                material,
            };
            game(variant).and_then(|v| crate::for_variant!(v, G => dispatch_build::<G>(&b)))
        }),
        EgdbCommand::Plan { variant, pieces } => game(variant).map(|_| plan(pieces)),
        EgdbCommand::Probe { variant, dir, fen } => folder(dir, "--dir").and_then(|dir| {
            game(variant).and_then(|v| crate::for_variant!(v, G => dispatch_probe::<G>(&dir, &fen)))
        }),
        EgdbCommand::Verify { variant, dir } => folder(dir, "--dir").and_then(|dir| {
            run_all(
                &dir,
                variant,
                |v| crate::for_variant!(v, G => dispatch_verify::<G>(&dir)),
            )
        }),
        EgdbCommand::Info { variant, dir } => folder(dir, "--dir").and_then(|dir| {
            run_all(
                &dir,
                variant,
                |v| crate::for_variant!(v, G => dispatch_info::<G>(&dir)),
            )
        }),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn game(v: Variant) -> Result<Variant, String> {
    if GAMES.contains(&v) {
        Ok(v)
    } else {
        let names: Vec<&str> = GAMES.iter().map(|g| g.name()).collect();
        Err(format!(
            "{v} has no endgame databases ({} have)",
            names.join(", ")
        ))
    }
}

/// Runs `f` for each game with a table in `dir`, or for `only` (which must have one).
fn run_all(
    dir: &Path,
    only: Option<Variant>,
    mut f: impl FnMut(Variant) -> Result<(), String>,
) -> Result<(), String> {
    let games = match only {
        Some(v) => vec![game(v)?],
        None => GAMES.to_vec(),
    };
    let names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    let present: Vec<Variant> = games
        .into_iter()
        .filter(|v| {
            names
                .iter()
                .any(|n| n.starts_with(&format!("{v}-")) && n.ends_with(".egdb"))
        })
        .collect();
    if present.is_empty() {
        let of = only.map_or(String::new(), |v| format!(" of {v}"));
        return Err(format!("{}: no tables{of}", dir.display()));
    }
    present.into_iter().try_for_each(&mut f)
}

// The games without tables are refused by `game` and `run_all` before these are reached.
macro_rules! only_games_with_tables {
    ($name:ident, $real:ident, ($($arg:ident: $ty:ty),*)) => {
        fn $name<G: Rules>($($arg: $ty),*) -> Result<(), String> {
            for_egdb_game!(G::VARIANT, E => $real::<E>($($arg),*),
                _ => Err(format!("{} has no endgame databases", G::VARIANT)))
        }
    };
}
only_games_with_tables!(dispatch_build, build, (b: &Build));
only_games_with_tables!(dispatch_probe, probe, (dir: &Path, fen: &str));
only_games_with_tables!(dispatch_verify, verify_dir, (dir: &Path));
only_games_with_tables!(dispatch_info, info, (dir: &Path));

/// What `build` was asked for.
struct Build<'a> {
    pieces: u32,
    out: &'a Path,
    threads: usize,
    material: Option<Signature>,
}

fn build<G: EgdbGame>(b: &Build) -> Result<(), String> {
    std::fs::create_dir_all(b.out).map_err(|e| format!("{}: {e}", b.out.display()))?;
    let mut store = Store::<G>::default();
    let groups = match b.material {
        Some(sig) if sig.pieces() > b.pieces => {
            return Err(format!(
                "--material {sig} has {} pieces, more than --pieces {}",
                sig.pieces(),
                b.pieces
            ));
        }
        Some(sig) => {
            // The smaller tables come from the directory (the group's own files, perhaps of
            // an older format, are replaced).
            store = Store::open_except(b.out, &group(sig)).map_err(|e| e.to_string())?;
            vec![group(sig)]
        }
        None => build_order(b.pieces),
    };
    let start = Instant::now();
    let mut total = Tally::default();
    for sigs in groups {
        if b.material.is_none() && sigs.iter().all(|&s| store.load_if_present(b.out, s)) {
            println!(
                "{} {}: kept",
                G::VARIANT,
                sigs.iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            continue;
        }
        let t = Instant::now();
        let solved = solve::<G>(&sigs, &store, b.threads)
            .map_err(|e| format!("{e}: build the smaller tables first"))?;
        let secs = t.elapsed().as_secs_f64();
        for s in solved {
            let (path, bytes, wdl) = write(
                b.out,
                G::VARIANT,
                s.sig,
                G::CLOCK_LIMIT,
                &s.values,
                &s.left_out(),
            )
            .map_err(|e| e.to_string())?;
            let tally = Tally {
                positions: s
                    .values
                    .iter()
                    .filter(|&&v| v != super::solve::NO_POSITION)
                    .count() as u64,
                stored: s.optional.iter().filter(|&&o| !o).count() as u64,
                bytes,
                wdl,
            };
            println!("{}: {tally}, {secs:.2} s", path.display());
            total.add(&tally);
            store.insert(s.sig, s.values);
        }
    }
    println!("built {total} in {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// What a build wrote: positions (all, and those without a capture to play, which are the
/// ones stored), bytes (the files', and their value layers').
#[derive(Default)]
struct Tally {
    positions: u64,
    stored: u64,
    bytes: u64,
    wdl: u64,
}

impl Tally {
    fn add(&mut self, t: &Tally) {
        self.positions += t.positions;
        self.stored += t.stored;
        self.bytes += t.bytes;
        self.wdl += t.wdl;
    }
}

impl std::fmt::Display for Tally {
    /// `1000 positions (800 without a capture to play), 300 bytes, value layer 20 bytes
    /// (50.0 positions a byte, 40.0 without captures), 3.3 positions a byte in all`.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let per = |n: u64, bytes: u64| n as f64 / bytes.max(1) as f64;
        write!(
            f,
            "{} positions ({} without a capture to play), {} bytes, value layer {} bytes \
             ({:.1} positions a byte, {:.1} without captures), {:.1} positions a byte in all",
            self.positions,
            self.stored,
            self.bytes,
            self.wdl,
            per(self.positions, self.wdl),
            per(self.stored, self.wdl),
            per(self.positions, self.bytes)
        )
    }
}

/// Prints `build_order(pieces)` as levels: `3 1 KKvM KMvK ...` (pieces, men, a signature
/// of each group).
fn plan(pieces: u32) {
    let mut levels: Vec<((u32, u32), Vec<Signature>)> = Vec::new();
    for g in build_order(pieces) {
        let level = (g[0].pieces(), g[0].men());
        match levels.last_mut() {
            Some((l, sigs)) if *l == level => sigs.push(g[0]),
            _ => levels.push((level, vec![g[0]])),
        }
    }
    for ((p, m), sigs) in levels {
        let sigs: Vec<String> = sigs.iter().map(|s| s.to_string()).collect();
        println!("{p} {m} {}", sigs.join(" "));
    }
}

fn probe<G: EgdbGame>(dir: &Path, fen: &str) -> Result<(), String> {
    let pos = G::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    let store = Store::<G>::open(dir).map_err(|e| e.to_string())?;
    let value = store
        .prober()
        .probe(&pos)
        .map_err(|e| format!("{e} in {}", dir.display()))?;
    let clock = pos.clock();
    let fresh = value.at_clock(0, G::CLOCK_LIMIT);
    let now = value.at_clock(clock, G::CLOCK_LIMIT);
    if now == fresh {
        println!("{value}");
    } else {
        let word = match now {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        };
        println!(
            "{value} ({word} with the clock at {clock} of {})",
            G::CLOCK_LIMIT
        );
    }
    Ok(())
}

fn verify_dir<G: EgdbGame>(dir: &Path) -> Result<(), String> {
    let store = Store::<G>::open(dir).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let report = verify(&store).map_err(|e| e.to_string())?;
    for line in &report.errors {
        println!("{line}");
    }
    if report.wrong > 0 {
        return Err(format!(
            "{}: {} of {} positions disagree with their moves",
            G::VARIANT,
            report.wrong,
            report.positions
        ));
    }
    println!(
        "{}: {} tables, {} positions, each agrees with its moves ({:.1} s)",
        G::VARIANT,
        report.tables,
        report.positions,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn info<G: EgdbGame>(dir: &Path) -> Result<(), String> {
    let store = Store::<G>::open(dir).map_err(|e| e.to_string())?;
    for (sig, file) in store.file_tables() {
        let counts = census::<G>(sig, file).map_err(|_| {
            format!(
                "{}: changed while it was read",
                dir.join(file_name(G::VARIANT, sig)).display()
            )
        })?;
        let bytes = std::fs::metadata(dir.join(file_name(G::VARIANT, sig))).map_or(0, |m| m.len());
        println!(
            "{} {sig}: {} slots, {} bytes (value layer {}, distance layer {}), win {} cursed-win {} draw {} blessed-loss {} loss {} capture {} (a {}-ply rule)",
            G::VARIANT,
            file.slots,
            bytes,
            file.wdl_bytes(),
            file.distance_bytes(),
            counts[0],
            counts[1],
            counts[2],
            counts[3],
            counts[4],
            counts[5],
            file.limit
        );
    }
    Ok(())
}

/// How many positions of each value a table holds, and how many have a capture to play.
fn census<G: EgdbGame>(sig: Signature, file: &TableFile) -> Result<[u64; 6], Changed> {
    let ix = super::material::indexer::<G>(sig);
    let mut counts = [0u64; 6];
    let mut values = Vec::new();
    for b in 0..file.blocks() {
        file.decode(b, &mut values)?;
        for (i, &v) in values.iter().enumerate() {
            let Some(layout) = ix.layout((b * super::file::BLOCK + i) as u64) else {
                continue;
            };
            // A slot stored as its mirror holds nothing; its mirror counts for both.
            let mirror = layout.mirrored();
            let weight = match G::MIRROR {
                true if Layout::mirror_first(layout.men) => continue,
                true if mirror.men != layout.men => 2,
                _ => 1,
            };
            let pos = G::from_layout(&layout);
            let k = if pos.decided().is_none() && pos.can_capture() {
                5
            } else {
                usize::from(v.class())
            };
            counts[k] += weight;
        }
    }
    Ok(counts)
}
