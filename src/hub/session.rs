//! One Hub session: commands taken in the order they were read, a search run on a worker
//! thread while commands are still read, as in the UCI-shaped session
//! ([`crate::protocol`]).
//!
//! Ordering rules:
//! - `stop` acts at once: it ends the running search and every `go` read before it (each
//!   still answers its one `done`).
//! - `ponder-hit` goes to the last `go` read before it (the queued one, else the running
//!   search).
//! - `ping` is answered at once when nothing is queued (even during a search), else in turn.
//! - `quit` stops everything read before it; what was queued still runs, then the session
//!   ends.
//! - Any other command read during a search waits until its `done` has been written.

use super::command::{GoMode, HubCommand, HubError, Level, parse_line};
use super::notation::{NotationError, parse_move, parse_position};
use super::output::{done_line, error_line, info_line, value};
use super::tablebase::database_pv;
use crate::games::kit::std_fen::Numbering;
use crate::games::{Game, Record, Variant};
use crate::protocol::Output;
use crate::protocol::game::{AnyGame, on_game};
use crate::protocol::options::{HASH, OptionChange, OptionError, parse_change, threads};
use crate::protocol::queue::{self, Next, Now, Ordered, Role};
use crate::protocol::quote::quote;
use crate::protocol::reader::Line;
use crate::protocol::runner::{self, Core, Driven, Runner, Running, Start};
use crate::search::{Engine, SearchControl, SearchLimits};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::Sender;

/// The games Hub can describe (one piece per square).
pub const HUB_VARIANTS: [Variant; 3] = [Variant::Russian, Variant::Brazilian, Variant::Turkish];

/// The Hub parameter that names the endgame databases' folder (the protocol's `EGDBPath`).
pub const EGDB_PARAM: &str = "egdb-path";

/// What a search sends back: the engine and its `done` line.
pub(crate) type Finished = (Box<Engine>, String);

/// What the session reacts to.
pub(crate) type Event = runner::Event<Finished>;

/// A search ready to run: it writes its `info` lines and returns its `done` line.
type Job = Box<dyn FnOnce(&mut Engine, &SearchControl, &Output) -> String + Send>;

/// A command read but not run yet.
type Pending = queue::Pending<HubCommand, HubError>;

impl Ordered for HubCommand {
    fn role(&self) -> Role {
        match self {
            HubCommand::Stop => Role::Stop,
            HubCommand::PonderHit => Role::PonderHit,
            HubCommand::Quit => Role::Quit,
            HubCommand::Ping => Role::Ping,
            HubCommand::Go(_) => Role::Search,
            _ => Role::Other,
        }
    }
}

/// State of one Hub session.
pub(crate) struct Session {
    /// The game, engine, options and queue.
    core: Core<HubCommand, HubError, Finished>,
    numbering: Numbering,
    level: Level,
    busy: Option<Running>,
}

impl Driven for Session {
    type Command = HubCommand;
    type Error = HubError;
    type Done = Finished;

    fn core(&self) -> &Core<HubCommand, HubError, Finished> {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core<HubCommand, HubError, Finished> {
        &mut self.core
    }

    fn parse(text: &str) -> Result<Option<HubCommand>, HubError> {
        parse_line(text)
    }

    fn too_long(l: &Line) -> HubError {
        HubError::TooLong(l.cut_from.unwrap_or(0))
    }

    /// `stop`, `ponder-hit` and a `ping` with nothing queued act at once (see [`queue`]).
    fn act_now(&mut self, now: Now) {
        match (now, &self.busy) {
            (Now::Stop, Some(b)) => b.control.stop(),
            (Now::PonderHit, Some(b)) => b.ponderhit(),
            (Now::Answer, _) => self.core.out.line("pong"),
            _ => {}
        }
    }

    /// End of input: a search only `stop` ends is stopped; the rest still runs.
    fn on_eof(&mut self) {
        self.core.queue.set_eof();
        if let Some(b) = &self.busy {
            b.at_eof();
        }
    }

    fn on_done(&mut self, (engine, line): Finished) {
        self.core.engine = Some(*engine);
        self.busy = None;
        self.core.out.line(&line);
    }

    /// Runs queued commands in order while the engine is idle; while it is busy only a
    /// queued `ping` at the front can be answered. A panic (a bug) is reported, not fatal.
    fn pump(&mut self) {
        loop {
            match self.core.queue.next(self.busy.is_some()) {
                Next::Run(p) => {
                    if catch_unwind(AssertUnwindSafe(|| self.handle_command(p))).is_err() {
                        self.error(&"internal error");
                        if self.core.engine.is_none() && self.busy.is_none() {
                            self.core.engine = Some(self.core.options.new_engine());
                        }
                    }
                }
                Next::Answer => self.core.out.line("pong"),
                Next::Wait => break,
            }
        }
    }

    fn busy(&self) -> bool {
        self.busy.is_some()
    }

    fn needs_stop(&self) -> bool {
        self.busy.as_ref().is_some_and(Running::unbounded)
    }
}

impl Session {
    /// A session at the start of `variant` (Russian, Brazilian or Turkish draughts).
    pub(crate) fn new(out: Output, tx: Sender<Event>, variant: Variant, runner: Runner) -> Session {
        Session {
            core: Core::new(out, tx, variant, runner),
            numbering: Numbering::Top,
            level: Level::default(),
            busy: None,
        }
    }

    fn error(&self, what: &dyn std::fmt::Display) {
        self.core.out.line(&error_line(what));
    }

    fn handle_command(&mut self, p: Pending) {
        let command = match p.command {
            Ok(c) => c,
            Err(e) => return self.error(&e),
        };
        match command {
            HubCommand::Hub => self.identify(),
            HubCommand::Init => self.core.out.line("ready"),
            HubCommand::Ping => self.core.out.line("pong"),
            HubCommand::SetParam { name, value } => self.set_param(&name, &value),
            HubCommand::NewGame => {
                if let Some(e) = self.core.engine.as_mut() {
                    e.new_game();
                }
                self.core.game = AnyGame::start(self.core.game.variant());
            }
            HubCommand::Pos { pos, moves } => {
                let n = self.numbering;
                let set =
                    on_game!(&mut self.core.game, g => set_position(g, pos.as_deref(), &moves, n));
                if let Err(e) = set {
                    self.error(&e);
                }
            }
            HubCommand::Level(l) => self.level = l,
            HubCommand::Go(mode) => self.start_search(mode, p.stop, p.ponderhit),
            HubCommand::Stop | HubCommand::PonderHit | HubCommand::Quit => {}
        }
    }

    fn identify(&self) {
        let version = env!("CARGO_PKG_VERSION");
        let line = format!("id name=bashni version={version} author=\"the bashni developers\"");
        self.core.out.line(&line);
        let names: Vec<&str> = HUB_VARIANTS.iter().map(|v| v.name()).collect();
        let variant = self.core.game.variant();
        self.core.out.line(&format!(
            "param name=variant value={variant} type=enum values={}",
            value(&names.join(" "))
        ));
        let numbering = match self.numbering {
            Numbering::Top => "top",
            Numbering::A1 => "a1",
        };
        self.core.out.line(&format!(
            "param name=move-numbering value={numbering} type=enum values=\"top a1\""
        ));
        let t = threads();
        let o = &self.core.options;
        self.core.out.line(&format!(
            "param name=threads value={} type=int min={} max={}",
            o.threads, t.min, t.max
        ));
        self.core.out.line(&format!(
            "param name=hash value={} type=int min={} max={}",
            o.hash_mb, HASH.min, HASH.max
        ));
        let egdb = if o.egdb.is_some() {
            o.egdb_path.as_str()
        } else {
            ""
        };
        self.core.out.line(&format!(
            "param name={EGDB_PARAM} value={} type=string",
            value(egdb)
        ));
        self.core.out.line("wait");
    }

    fn set_param(&mut self, name: &str, value: &str) {
        match name.to_ascii_lowercase().as_str() {
            "variant" => match value.parse::<Variant>() {
                Ok(v) if HUB_VARIANTS.contains(&v) => {
                    if let Some(e) = self.core.engine.as_mut() {
                        e.new_game();
                    }
                    self.core.game = AnyGame::start(v);
                    // Hub has no free-text line to say that a loaded network was dropped.
                    let _ = self.core.options.game_changed(v, self.core.engine.as_mut());
                }
                _ => self.error(&format!(
                    "variant '{}': Hub plays russian, brazilian or turkish here",
                    quote(value)
                )),
            },
            // lidraughts-bot tells the game's starting clock; the clock of each move comes
            // with `level`.
            "initial-time" => {}
            "move-numbering" => match value.to_ascii_lowercase().as_str() {
                "top" => self.numbering = Numbering::Top,
                "a1" => self.numbering = Numbering::A1,
                _ => self.error(&format!(
                    "move-numbering '{}': expected top or a1",
                    quote(value)
                )),
            },
            EGDB_PARAM => self.set_egdb(value),
            other => {
                let option = other.replace(['-', '_'], " ");
                match parse_change(&option, Some(value)) {
                    Ok(OptionChange::Variant(_)) | Err(_) => self.error(&format!(
                        "unknown or bad parameter {}={}",
                        quote(name),
                        quote(value)
                    )),
                    Ok(change) if let Err(e) = change.check_game(self.core.game.variant()) => {
                        self.error(&format!("{}: {e}", quote(name)))
                    }
                    Ok(change) => {
                        if let Some(engine) = self.core.engine.as_mut()
                            && let Err(e) = self.core.options.apply(change, engine)
                        {
                            self.error(&format!("{}: {e}", quote(name)));
                        }
                    }
                }
            }
        }
    }

    /// `set-param name=egdb-path value=DIR`: the endgame databases in DIR (empty: none); a
    /// folder that does not read is one `error` line and changes nothing.
    fn set_egdb(&mut self, dir: &str) {
        let change = match parse_change("egdbpath", Some(dir)) {
            Ok(change) => change,
            Err(OptionError::Egdb(why)) => {
                return self.error(&format!("{EGDB_PARAM}: {why}; not changed"));
            }
            Err(e) => return self.error(&format!("{EGDB_PARAM}: {e}")),
        };
        if let Some(engine) = self.core.engine.as_mut()
            && let Err(e) = self.core.options.apply(change, engine)
        {
            self.error(&format!("{EGDB_PARAM}: {e}"));
        }
    }

    fn start_search(&mut self, mode: GoMode, stop: bool, ponderhit: bool) {
        let n = self.numbering;
        let (job, needs_stop) = on_game!(&self.core.game, g => search_job(g, &self.level, mode, n));
        let Some(engine) = self.core.engine.take() else {
            return self.error(&"internal error: the engine is missing");
        };
        let start = Start {
            name: "bashni-hub-search",
            ponder: mode == GoMode::Ponder,
            needs_stop,
            stopped: stop,
            ponderhit,
            eof: self.core.queue.eof(),
        };
        let (out, tx) = (self.core.out.clone(), self.core.tx.clone());
        let done = move |engine, line| {
            let _ = tx.send(Event::Done((Box::new(engine), line)));
        };
        let job = move |engine: &mut Engine, ctl: &SearchControl| job(engine, ctl, &out);
        match self.core.runner.start_search(engine, start, job, done) {
            Ok(running) => self.busy = Some(running),
            Err(e) => {
                self.error(&e);
                self.core.engine = Some(self.core.options.new_engine());
                self.core.out.line("done");
            }
        }
    }
}

/// `pos`: the game from a position (the start when `None`) and moves, or unchanged on an
/// error.
fn set_position<G: Game>(
    game: &mut Record<G>,
    pos: Option<&str>,
    moves: &[String],
    n: Numbering,
) -> Result<(), NotationError> {
    let start = match pos {
        None => G::startpos(),
        Some(text) => parse_position::<G>(text)?,
    };
    let mut record = Record::new(start);
    for text in moves {
        let m = parse_move(record.position(), text, n)?;
        record.play(m);
    }
    *game = record;
    Ok(())
}

/// The search limits of `level` for the side to move (`time` is the clock before this
/// move's increment: the search gets `time + inc`).
pub fn limits_of<M>(level: &Level, mode: GoMode) -> SearchLimits<M> {
    let ms = |s: f64| (s.max(0.0) * 1000.0).round() as u64;
    let mut l = SearchLimits::<M> {
        depth: level.depth,
        nodes: level.nodes,
        movetime: level.move_time.map(ms),
        movestogo: level.moves.filter(|&m| m > 0),
        ..SearchLimits::default()
    };
    if let Some(t) = level.time {
        let inc = level.inc.unwrap_or(0.0);
        let clock = ms(t + inc).max(1);
        (l.wtime, l.btime) = (Some(clock), Some(clock));
        (l.winc, l.binc) = (Some(ms(inc)), Some(ms(inc)));
    }
    let unlimited = l.depth.is_none() && l.nodes.is_none() && l.movetime.is_none();
    l.infinite = mode == GoMode::Analyze || level.infinite || (unlimited && l.wtime.is_none());
    l
}

/// The search of the current position of `game`, and whether only `stop` ends it.
fn search_job<G: Game>(game: &Record<G>, level: &Level, mode: GoMode, n: Numbering) -> (Job, bool) {
    let limits = limits_of::<G::Move>(level, mode);
    let needs_stop = limits.infinite;
    let pos = game.position().clone();
    let history = game.history().to_vec();
    let job = move |engine: &mut Engine, control: &SearchControl, out: &Output| {
        let tables = engine.egdb().and_then(|dbs| dbs.of::<G>());
        let mut report = |info: &crate::search::SearchInfo<G::Move>| {
            let line = match &tables {
                Some(tb) if info.currmove.is_none() && info.multipv == 1 => {
                    let mut info = info.clone();
                    info.pv = database_pv(&pos, &info.pv, tb.as_ref());
                    info_line(&pos, &info, n)
                }
                _ => info_line(&pos, info, n),
            };
            if let Some(line) = line {
                out.line(&line);
            }
        };
        let run = AssertUnwindSafe(|| engine.search(&pos, &history, &limits, control, &mut report));
        match catch_unwind(run) {
            Ok(result) => done_line(&pos, &result, n),
            Err(_) => {
                out.line(&error_line(&"internal error in the search"));
                let first = pos.legal_moves().iter().next().copied();
                first.map_or("done".to_string(), |m| {
                    format!("done move={}", super::notation::move_text(&pos, &m, n))
                })
            }
        }
    };
    (Box::new(job), needs_stop)
}
