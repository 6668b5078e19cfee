//! `bashni match` (engine-vs-engine matches, refereed by our rules) and `bashni openings`
//! (balanced random openings), in any of the games (`--variant`: everything behind it is
//! generic over the game). Flags and output follow cutechess-cli and fastchess.
//!
//! - [`args`]: the command-line arguments and the help's examples.
//! - [`compat`]: cutechess-cli's and fastchess's spellings (`-engine`, `-each`, `-pgnout`,
//!   ...) turned into ours before clap reads them.
//! - [`config`]: engine specs (`key=value` tokens), limits, time controls, SPRT settings.
//! - [`engine`]: an engine process and the protocol lines the referee needs.
//! - [`referee`]: one game, with clocks and every way a game can end.
//! - [`openings`]: openings files and random balanced openings.
//! - [`runner`]: the workers that play game pairs concurrently; [`capacity`]: how many at once.
//! - [`output`]: the score, the progress line, the final report and the PDN.
//! - [`stats`]: Elo, error bars, LOS, SPRT.
//! - [`pdn`]: writing and reading PDN game records; [`record`]: a game as a PDN record.
//! - [`adjudicate`]: optional draw and resign adjudication by score.

pub mod adjudicate;
pub mod args;
pub mod capacity;
pub mod compat;
pub mod config;
pub mod output;
pub mod referee;
pub mod runner;
pub mod shards;
pub mod signals;
pub mod stats;

pub use args::{EngineTokens, MatchArgs, OpeningsArgs, OpeningsFormat, OpeningsOrder};

use crate::client::spec::Proto;
use crate::games::{Game, Variant};
use crate::record::openings::{self, RandomOpenings};
use crate::shard::Shard;
use adjudicate::{DrawRule, ResignRule};
use config::{ConfigError, EngineSpec, Limit, TimeControl, parse_engine, parse_sprt};
use output::{Reporter, Tally};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use referee::Referee;
use runner::{Event, MatchPlan, OpeningSource, RunningMatch};
use shards::{MatchIdentity, Part};
use stats::Sprt;
use std::time::Duration;

/// Why a match cannot start.
#[derive(Debug)]
pub enum MatchError {
    /// A bad setting.
    Config(ConfigError),
    /// A bad openings file.
    Openings(openings::OpeningsError),
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::Config(e) => e.fmt(f),
            MatchError::Openings(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<ConfigError> for MatchError {
    fn from(e: ConfigError) -> Self {
        MatchError::Config(e)
    }
}

impl From<openings::OpeningsError> for MatchError {
    fn from(e: openings::OpeningsError) -> Self {
        MatchError::Openings(e)
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

/// A match of game `G` ready to run: what to play, how to judge it, and which part of which
/// match it is.
struct Planned<G: Game> {
    plan: MatchPlan<G>,
    sprt: Option<Sprt>,
    shard: Shard,
    identity: MatchIdentity,
}

/// Everything that decides which games a match plays, in words, for [`MatchIdentity`]: the
/// game (named for any but Bashni, so that a Bashni match keeps the identity it had before
/// the other games came), engines, length, openings, seed and referee.
fn describe<G: Game>(args: &MatchArgs, plan: &MatchPlan<G>, seed: u64) -> String {
    let openings = match &plan.openings {
        OpeningSource::Initial => "initial".to_string(),
        OpeningSource::List(list) => {
            let all: Vec<String> = list
                .iter()
                .map(|o| format!("{:?} {}", o.fen, o.moves.join(" ")))
                .collect();
            format!(
                "list of {} ({})",
                list.len(),
                MatchIdentity::new(all.join("\n")).id
            )
        }
        OpeningSource::Random(_) => format!(
            "random {:?} plies, depth {}, max score {}",
            args.random_openings, args.filter_depth, args.max_score
        ),
    };
    let game = match G::VARIANT {
        Variant::Bashni => String::new(),
        v => format!("variant {v}; "),
    };
    // Named only when an engine speaks Hub, so that other matches keep their identity.
    let protos = if plan.protos.contains(&Proto::Hub) {
        format!("protocols {:?}; ", plan.protos)
    } else {
        String::new()
    };
    format!(
        "{game}engines {:?}; {protos}games {}; openings {openings}; seed {seed}; referee {:?}",
        plan.engines, plan.games, plan.referee
    )
}

/// Step of [`plan`]: the two engines (a side's own limit, else the global one) and the
/// protocol each speaks; equal names get `-1` and `-2`.
fn engine_specs(args: &MatchArgs) -> Result<(Vec<EngineSpec>, [Proto; 2]), MatchError> {
    let global = Limit {
        clock: args
            .tc
            .as_deref()
            .map(TimeControl::parse)
            .transpose()
            .map_err(ConfigError::from)?,
        movetime: args.movetime,
        depth: args.depth,
        nodes: args.nodes,
    };
    let mut engines: Vec<EngineSpec> = Vec::new();
    let mut protos = [Proto::Uci; 2];
    for (i, tokens) in args.engine.0.iter().enumerate() {
        let mut spec = parse_engine(i + 1, &args.each, tokens)?;
        if let Some(p) = protos.get_mut(i) {
            *p = config::parse_proto(&args.each, tokens)?;
        }
        if spec.limit.is_empty() {
            spec.limit = global;
        }
        config::check_limit(&spec.limit, &spec.name)?;
        engines.push(spec);
    }
    if engines[0].name == engines[1].name {
        engines[0].name += "-1";
        engines[1].name += "-2";
    }
    Ok((engines, protos))
}

/// Step of [`plan`]: where the games' openings come from.
fn opening_source<G: Game>(args: &MatchArgs, seed: u64) -> Result<OpeningSource<G>, MatchError> {
    let source = if args.initial {
        OpeningSource::Initial
    } else if let Some(plies) = args.random_openings {
        OpeningSource::Random(Box::new(RandomOpenings::new(
            seed,
            plies,
            args.filter_depth,
            args.max_score,
        )))
    } else {
        let mut list = match &args.openings {
            Some(path) => read_openings::<G>(args, path)?,
            None => openings::book::<G>(),
        };
        if args.openings_order == OpeningsOrder::Random {
            list.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
        }
        OpeningSource::List(list)
    };
    Ok(source)
}

/// Step of [`opening_source`]: the openings of the file `path`, in its format, cut to
/// `--openings-plies` and begun at `--openings-start`.
fn read_openings<G: Game>(
    args: &MatchArgs,
    path: &std::path::Path,
) -> Result<Vec<openings::Opening>, MatchError> {
    let pdn_name = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pdn") || e.eq_ignore_ascii_case("pgn"));
    let format = match args.openings_format {
        OpeningsFormat::Lines => openings::FileFormat::Lines,
        OpeningsFormat::Pdn => openings::FileFormat::Pdn,
        OpeningsFormat::Auto if pdn_name => openings::FileFormat::Pdn,
        OpeningsFormat::Auto => openings::FileFormat::Lines,
    };
    let plies = args
        .openings_plies
        .map_or(openings::Plies::ALL, openings::Plies);
    let mut list = openings::read_file::<G>(path, openings::Reading { format, plies })?;
    if let Some(start) = args.openings_start {
        let len = list.len() as u64;
        if start > len {
            let why = format!("{start} is past the file's {len} openings");
            return Err(ConfigError::OutOfRange("--openings-start", why).into());
        }
        list.rotate_left((start - 1) as usize);
    }
    Ok(list)
}

/// The plan and the SPRT settings of a match of game `G`, from its arguments.
fn plan<G: Game>(args: &MatchArgs, seed: u64) -> Result<Planned<G>, MatchError> {
    if args.engine.0.len() != 2 {
        return Err(ConfigError::EngineCount(args.engine.0.len()).into());
    }
    let (engines, protos) = engine_specs(args)?;
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let shard = args
        .shard
        .resolve(args.shards)
        .map_err(ConfigError::Shard)?;
    if shard != Shard::WHOLE {
        let fixed = args.games.is_some() || args.rounds.is_some();
        if !fixed || sprt.is_some() || args.seed.is_none() {
            return Err(ConfigError::ShardNeeds.into());
        }
    }
    let games = match (args.games, args.rounds) {
        (Some(g), _) => g,
        (None, Some(r)) => r.saturating_mul(2),
        (None, None) if sprt.is_some() => u64::MAX / 4,
        (None, None) => 2,
    };
    if !(args.stall_timeout > 0.0 && args.stall_timeout <= 1e6) {
        let why = "must be a positive number of seconds (at most 1e6)".into();
        return Err(ConfigError::OutOfRange("--stall-timeout", why).into());
    }
    let pairs = shard.range(games.div_ceil(2));
    let concurrency = capacity::games_at_once(args.concurrency, &engines, pairs.end - pairs.start)?;
    let openings = opening_source::<G>(args, seed)?;
    let limits = [engines[0].limit, engines[1].limit];
    let [a, b]: [EngineSpec; 2] = engines.try_into().expect("two engines");
    let plan = MatchPlan {
        engines: [a, b],
        protos,
        limits,
        games,
        pairs,
        concurrency,
        openings,
        referee: Referee {
            max_plies: args.max_plies,
            time_margin: Duration::from_millis(args.timemargin),
            stall_timeout: Duration::from_secs_f64(args.stall_timeout),
            draw: args.draw.as_deref().map(DrawRule::parse).transpose()?,
            resign: args.resign.as_deref().map(ResignRule::parse).transpose()?,
        },
        recover: args.recover,
    };
    let identity = MatchIdentity::new(describe(args, &plan, seed));
    Ok(Planned {
        plan,
        sprt,
        shard,
        identity,
    })
}

/// Games in the pairs `pairs` of a match of `games` games (the last pair of an odd count is
/// one game).
fn games_in(pairs: &std::ops::Range<u64>, games: u64) -> u64 {
    (pairs.end * 2).min(games) - (pairs.start * 2).min(games)
}

/// Runs a match; returns the exit code (0: played out or decided by SPRT; 1: stopped by an
/// engine failure or a PDN write error; 2: bad arguments or an engine that does not start,
/// or does not play the game).
pub fn run_match(args: MatchArgs) -> i32 {
    // Each game gets its own monomorphised match.
    crate::for_variant!(args.variant, G => play_match::<G>(args))
}

/// A match of game `G`.
fn play_match<G: Game>(args: MatchArgs) -> i32 {
    // 1. The plan: engines, limits, openings, length; any error stops here (exit 2).
    let seed = args.seed.unwrap_or_else(clock_seed);
    let Planned {
        plan,
        sprt,
        shard,
        identity,
    } = match plan::<G>(&args, seed) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    // 2. The reporter (header line once the engines run, progress, per-game lines, PDN).
    let names = [plan.engines[0].name.clone(), plan.engines[1].name.clone()];
    let games = games_in(&plan.pairs, plan.games);
    let recover = plan.recover;
    let header = header_line(&args, &plan, sprt, shard, games, seed);
    let mut reporter = match Reporter::new(header, names.clone(), games, sprt, &args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    // 3. Games run on their own threads; here each finished game is counted and reported,
    //    and the match stops on a fault (unless --recover), an SPRT decision or a fatal error.
    let interrupt = signals::Interrupt::listen();
    let running = RunningMatch::start(plan);
    let Followed {
        tally,
        mut code,
        mut fatal,
    } = follow_games(&running, &mut reporter, &interrupt, sprt, recover);
    running.join();
    // 4. A match whose engines never started (or that was stopped before) reports only why:
    //    no header, no empty report, no result file.
    if let (false, Some(msg)) = (reporter.under_way(), &fatal) {
        eprintln!("error: {msg}");
        return code;
    }
    // 5. The result file (first: it is what a batch job is for), then the final report.
    if let Some(path) = &args.result {
        let part = Part {
            identity,
            variant: G::VARIANT,
            shard,
            names: names.clone(),
            games,
            tally: tally.clone(),
            seconds: reporter.elapsed(),
        };
        if let Err(e) = shards::write_result(path, &part) {
            fatal.get_or_insert(format!("cannot write {}: {e}", path.display()));
            code = code.max(1);
        }
    }
    reporter.finish(&tally);
    if let Some(msg) = fatal {
        eprintln!("error: {msg}");
    }
    code
}

/// The match's first line: the engines, their limits, the game, the seed and the length.
fn header_line<G: Game>(
    args: &MatchArgs,
    plan: &MatchPlan<G>,
    sprt: Option<Sprt>,
    shard: Shard,
    games: u64,
    seed: u64,
) -> String {
    let length = if sprt.is_some() && args.games.is_none() && args.rounds.is_none() {
        "until SPRT decides".to_string()
    } else if shard == Shard::WHOLE {
        format!("{games} games")
    } else {
        let (first, last) = (plan.pairs.start * 2 + 1, plan.pairs.start * 2 + games);
        format!("shard {shard}: games {first}-{last} of {}", plan.games)
    };
    let game = match G::VARIANT {
        Variant::Bashni => String::new(),
        v => format!(" in {v}"),
    };
    format!(
        "Match {} ({}) vs {} ({}){game}, seed {seed}, {length}",
        plan.engines[0].name, plan.limits[0], plan.engines[1].name, plan.limits[1],
    )
}

/// What following a match's games found: the counts, the exit code so far, and the first
/// error that stopped it.
struct Followed {
    tally: Tally,
    code: i32,
    fatal: Option<String>,
}

/// Counts and reports each game as it finishes, until every game thread is done; stops the
/// match on a fault (unless `recover`), an SPRT decision, a fatal error or a signal.
fn follow_games<G: Game>(
    running: &RunningMatch<G>,
    reporter: &mut Reporter,
    interrupt: &signals::Interrupt,
    sprt: Option<Sprt>,
    recover: bool,
) -> Followed {
    let mut tally = Tally::default();
    let mut code = 0;
    let mut fatal = None;
    loop {
        if let Some(signal) = interrupt.arrived()
            && !running.stopped()
        {
            running.stop();
            fatal.get_or_insert(format!(
                "stopped by {signal}; games under way were abandoned"
            ));
            code = code.max(1);
        }
        let event = match running.events.recv_timeout(Duration::from_millis(500)) {
            Ok(e) => e,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                reporter.progress(&tally);
                continue;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        };
        match event {
            Event::Ready => reporter.engines_ready(),
            Event::Game(f) => {
                if running.stopped() && tally.decided(sprt) {
                    continue;
                }
                tally.add(&f);
                if let Err(e) = reporter.game(&f, &tally) {
                    fatal.get_or_insert(e);
                    running.stop();
                    code = 1;
                }
                if f.record.broken.is_some() && !recover {
                    fatal.get_or_insert(format!(
                        "game {}: {}; the match stops (use --recover to restart it and go on)",
                        f.number,
                        output::fault_text(&f)
                    ));
                    code = 1;
                }
                if tally.decided(sprt) {
                    running.stop();
                }
            }
            Event::Fatal(msg) => {
                running.stop();
                if tally.games() == 0 && code == 0 {
                    code = 2;
                }
                fatal.get_or_insert(msg);
                code = code.max(1);
            }
        }
    }
    Followed { tally, code, fatal }
}

/// Writes an openings file; returns the exit code.
pub fn run_openings(args: OpeningsArgs) -> i32 {
    crate::for_variant!(args.variant, G => write_openings::<G>(&args))
}

/// Writes an openings file of game `G`, its first line the command that makes it again.
fn write_openings<G: Game>(args: &OpeningsArgs) -> i32 {
    let seed = args.seed.unwrap_or_else(clock_seed);
    let draw = openings::Draw {
        seed,
        plies: args.plies,
        count: args.count,
        depth: args.depth,
        max_score: args.max_score,
    };
    let list = match openings::draw_openings::<G>(draw, args.threads as usize) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let game = match G::VARIANT {
        Variant::Bashni => String::new(),
        v => format!(" --variant {v}"),
    };
    let mut text = format!(
        "# bashni openings{game} --plies {} --count {} --seed {seed} --depth {} --max-score {}\n",
        args.plies, args.count, args.depth, args.max_score
    );
    for o in &list {
        text.push_str(&o.moves.join(" "));
        text.push('\n');
    }
    match &args.out {
        None => {
            print!("{text}");
            0
        }
        Some(path) => match crate::files::replace(path, text.as_bytes()) {
            Ok(()) => {
                eprintln!("wrote {} openings to {}", list.len(), path.display());
                0
            }
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
                1
            }
        },
    }
}
