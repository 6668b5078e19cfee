//! The protocol session: one dispatcher that takes every input line in the order it was read
//! and runs searches and perft on a worker thread.
//!
//! The ordering rules (engine-protocol.md, "Order of commands"):
//! - A command that needs the engine idle (`position`, `go`, `setoption`, `d`, ...) waits in
//!   a queue while a search or perft runs, and everything read after it waits behind it.
//! - `stop` ends the running work and marks every `go` still queued (they were all read
//!   before it) to stop as soon as it starts, so each still gets its one `bestmove`.
//! - `ponderhit` goes to the last `go` read before it: the queued one if there is one, else
//!   the running search.
//! - `isready` is answered when everything read before it has answered, except the final
//!   answer of the `go` that is running (UCI answers `isready` during a search at once).
//! - `quit` stops everything read before it; queued commands still run (their searches
//!   stopped at once) and the session ends; lines after `quit` are not read.
//!
//! A search or perft prints its last line (`bestmove`, `nodes`) from this thread, in the
//! same step that marks the engine idle, so a command sent after that line has been seen
//! never finds the engine busy.

use super::Output;
use super::command::{Command, CommandError, GoArgs, parse_line, quote};
use super::game::{AnyGame, eval_lines, on_game};
use super::options::{OptionChange, Options, declarations, parse_change};
use super::queue::{self, Next, Now, Ordered, Queue, Role};
use super::reader::{Input, Line};
use super::runner::{Driven, Runner};
use super::state::{moves_line, state_line};
use super::work::{PerftJob, PreparedSearch, perft_job, prepare_search};
use crate::display::diagram;
use crate::games::Variant;
use crate::search::{Engine, SearchControl};
use std::fmt::Display;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;

/// What the session reacts to.
pub(crate) enum Event {
    /// An input line or the end of input.
    Input(Input),
    /// A search ended; the engine comes back with its final lines (notes, `bestmove`).
    SearchDone(Box<Engine>, Vec<String>),
    /// A perft ended: its lines, or `None` when it was stopped.
    PerftDone(Option<Vec<String>>),
}

/// The job a worker thread is doing.
enum Busy {
    /// A search, with its control and whether only `stop` is sure to end it.
    Search {
        control: Arc<SearchControl>,
        needs_stop: bool,
    },
    /// `go perft`, with its stop flag.
    Perft { stop: Arc<AtomicBool> },
}

/// A command read but not started yet.
type Pending = queue::Pending<Command, CommandError>;

impl Ordered for Command {
    fn role(&self) -> Role {
        match self {
            Command::Stop => Role::Stop,
            Command::PonderHit => Role::PonderHit,
            Command::Quit => Role::Quit,
            Command::IsReady => Role::Ping,
            Command::Go(_) => Role::Search,
            Command::Perft(_) => Role::Work,
            _ => Role::Other,
        }
    }
}

/// State of one protocol session.
pub(crate) struct Session {
    out: Output,
    tx: Sender<Event>,
    /// `None` while a search has it.
    engine: Option<Engine>,
    options: Options,
    /// The game being played (its variant is the `UCI_Variant` option).
    game: AnyGame,
    /// The game the session started in (`UCI_Variant`'s declared default).
    start_variant: Variant,
    busy: Option<Busy>,
    /// Commands read while busy (or behind such a command), in order.
    queue: Queue<Command, CommandError>,
    /// Where searches and perfts run.
    runner: Runner,
}

impl Driven for Session {
    type Event = Event;

    fn input(input: Input) -> Event {
        Event::Input(input)
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Input(Input::Line(_, line)) => self.on_line(line),
            Event::Input(Input::Eof) => self.on_eof(),
            Event::SearchDone(engine, lines) => self.on_search_done(*engine, lines),
            Event::PerftDone(lines) => self.on_perft_done(lines),
        }
        self.pump();
    }

    /// Over after `quit` or end of input, once the running job and the queued commands are
    /// done.
    fn finished(&self) -> bool {
        self.queue.finished(self.busy.is_some())
    }

    fn needs_stop(&self) -> bool {
        matches!(&self.busy, Some(Busy::Search { control, needs_stop }) if *needs_stop || control.is_pondering())
    }

    fn runner(&mut self) -> &mut Runner {
        &mut self.runner
    }
}

impl Session {
    /// A session at the start position of game `variant` with default options; `tx` feeds
    /// its own events; its work runs where `runner` says.
    pub(crate) fn new(out: Output, tx: Sender<Event>, variant: Variant, runner: Runner) -> Session {
        let options = Options::default();
        Session {
            out,
            tx,
            engine: Some(options.new_engine()),
            options,
            game: AnyGame::start(variant),
            start_variant: variant,
            busy: None,
            queue: Queue::new(),
            runner,
        }
    }

    /// Takes one input line in order (see [`queue`]): `stop`, `ponderhit`, `quit` and an
    /// `isready` with nothing queued act at once; everything else joins the queue.
    fn on_line(&mut self, line: Line) {
        let now = self.queue.take(line, parse_line, |l| {
            CommandError::TooLong(l.text.clone(), l.cut_from.unwrap_or(0))
        });
        match now {
            Now::Stop => self.stop_running(),
            Now::PonderHit => self.ponderhit_running(),
            Now::Answer => self.out.line("readyok"),
            Now::Nothing => {}
        }
    }

    /// `stop`: ends the running job (the queue marks the `go`s read before it).
    fn stop_running(&mut self) {
        match &self.busy {
            Some(Busy::Search { control, .. }) => control.stop(),
            Some(Busy::Perft { stop }) => stop.store(true, Ordering::SeqCst),
            None => {}
        }
    }

    /// `ponderhit` with no `go` queued: for the running search, if it ponders.
    fn ponderhit_running(&mut self) {
        if let Some(Busy::Search { control, .. }) = &self.busy
            && control.is_pondering()
        {
            control.ponderhit()
        }
    }

    /// End of input: a search that only `stop` is sure to end (`go infinite`, a bare `go`,
    /// `go mate` alone, pondering) is stopped; a limited search, a perft and the queued commands still run to the end.
    fn on_eof(&mut self) {
        self.queue.set_eof();
        if let Some(Busy::Search {
            control,
            needs_stop,
        }) = &self.busy
            && (*needs_stop || control.is_pondering())
        {
            control.stop();
        }
    }

    fn on_search_done(&mut self, engine: Engine, lines: Vec<String>) {
        self.engine = Some(engine);
        self.busy = None;
        lines.iter().for_each(|l| self.out.line(l));
    }

    fn on_perft_done(&mut self, lines: Option<Vec<String>>) {
        self.busy = None;
        match lines {
            Some(lines) => lines.iter().for_each(|l| self.out.line(l)),
            None => self.out.line("info string perft stopped"),
        }
    }

    /// Runs queued commands in order while the engine is idle; while it is busy only a
    /// queued `isready` at the front can be answered.
    fn pump(&mut self) {
        loop {
            match self.queue.next(self.busy.is_some()) {
                Next::Run(pending) => self.handle(pending),
                Next::Answer => self.out.line("readyok"),
                Next::Wait => break,
            }
        }
    }

    /// Executes one command while idle. A panic (a bug) is reported, not fatal.
    fn handle(&mut self, pending: Pending) {
        let Pending {
            line,
            command,
            stop,
            ponderhit,
        } = pending;
        let ok = catch_unwind(AssertUnwindSafe(|| match command {
            Ok(Command::Go(args)) => self.start_search(&args, stop, ponderhit),
            Ok(Command::Perft(depth)) => self.start_perft(depth, stop),
            Ok(cmd) => self.execute(cmd),
            Err(e) => self.error(&e),
        }));
        if ok.is_err() {
            self.error(&format!("internal error while handling '{}'", quote(&line)));
            if self.engine.is_none() && self.busy.is_none() {
                self.engine = Some(self.options.new_engine());
            }
        }
    }

    fn error(&self, what: &dyn Display) {
        self.out.line(&format!("info string error: {what}"));
    }

    fn execute(&mut self, cmd: Command) {
        match cmd {
            Command::Uci => self.identify(),
            Command::Debug | Command::Stop | Command::PonderHit | Command::Quit => {}
            Command::Go(_) | Command::Perft(_) => {} // started by `handle`
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => self.new_game(self.game.variant()),
            Command::Position(args) => {
                // Read in the game being played; on an error the game stays as it was.
                let read = on_game!(&mut self.game, g => match args.to_game() {
                    Ok(game) => {
                        *g = game;
                        Ok(())
                    }
                    Err(e) => Err(e.to_string()),
                });
                if let Err(e) = read {
                    self.error(&e);
                }
            }
            Command::Display => {
                let lines = on_game!(&self.game, g => diagram(g.position()));
                lines.iter().for_each(|l| self.out.line(l));
            }
            Command::Eval => {
                let lines = eval_lines(&self.game, self.engine.as_ref(), self.options.use_nnue);
                lines.iter().for_each(|l| self.out.line(l));
            }
            Command::Moves => self.out.line(&on_game!(&self.game, g => moves_line(g))),
            Command::State => self.out.line(&on_game!(&self.game, g => state_line(g))),
        }
    }

    /// A new game of `variant` (`ucinewgame`, or `UCI_Variant` set): the hash table cleared
    /// and the position at the game's start.
    fn new_game(&mut self, variant: Variant) {
        if let Some(e) = self.engine.as_mut() {
            e.new_game();
        }
        self.game = AnyGame::start(variant);
    }

    fn identify(&self) {
        self.out
            .line(&format!("id name bashni {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the bashni developers");
        for line in declarations(self.start_variant) {
            self.out.line(&line);
        }
        self.out.line("uciok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match parse_change(name, value) {
            // The game is the session's, not the engine's.
            Ok(OptionChange::Variant(v)) => {
                self.new_game(v);
                if let Some(line) = self.options.game_changed(v, self.engine.as_mut()) {
                    self.out.line(&format!("info string {line}"));
                }
                for line in self.options.egdb_notes(v, false) {
                    self.out.line(&format!("info string {line}"));
                }
            }
            Ok(change) if let Err(e) = change.check_game(self.game.variant()) => self.error(&e),
            Ok(change) => {
                let egdb = matches!(change, OptionChange::EgdbPath(..));
                if let Some(engine) = self.engine.as_mut()
                    && let Err(e) = self.options.apply(change, engine)
                {
                    self.error(&format!("setoption: {e}; Hash not changed"));
                }
                if egdb {
                    for line in self.options.egdb_notes(self.game.variant(), true) {
                        self.out.line(&format!("info string {line}"));
                    }
                }
            }
            Err(e) => self.error(&e),
        }
    }

    /// Starts `go` on a worker thread; `stop` and `ponderhit` say what came after it while
    /// it was queued.
    fn start_search(&mut self, args: &GoArgs, stop: bool, ponderhit: bool) {
        let multipv = self.options.multipv as usize;
        let prepared = on_game!(&self.game, g => {
            prepare_search(g, args, multipv).map_err(|e| e.to_string())
        });
        let PreparedSearch {
            job,
            fallback,
            borrowed,
        } = match prepared {
            Ok(p) => p,
            Err(e) => return self.error(&e),
        };
        if let Some((us, side)) = borrowed {
            self.out.line(&format!(
                "info string no clock for {us}: using {side}'s for both sides"
            ));
        }
        let Some(mut engine) = self.engine.take() else {
            return self.error(&"internal error: the engine is missing");
        };
        if self.runner.on_host() {
            engine.search_on_calling_thread(true);
        }
        let control = self.runner.control(args.ponder);
        if ponderhit && args.ponder {
            control.ponderhit();
        }
        let unbounded = args.needs_stop() || control.is_pondering();
        if stop || (self.queue.eof() && unbounded) {
            control.stop(); // asked for already, or nobody is left to send `stop`
        }
        let (out, tx, ctl) = (self.out.clone(), self.tx.clone(), control.clone());
        let work = move || {
            let lines = job(&mut engine, &ctl, &out);
            let _ = tx.send(Event::SearchDone(Box::new(engine), lines));
        };
        match self.runner.start("bashni-search", Box::new(work)) {
            Ok(_) => {
                self.busy = Some(Busy::Search {
                    control,
                    needs_stop: args.needs_stop(),
                })
            }
            Err(e) => {
                self.error(&format!("cannot start the search thread: {e}"));
                self.engine = Some(self.options.new_engine());
                self.out.line(&fallback);
            }
        }
    }

    /// Starts `go perft` on a worker thread (stopped at once if `stop` came after it).
    fn start_perft(&mut self, depth: u32, stop: bool) {
        let threads = self.options.threads as usize;
        let job: PerftJob = match on_game!(&self.game, g => perft_job(g.position(), depth, threads))
        {
            Ok(job) => job,
            Err(e) => return self.error(&e),
        };
        let flag = Arc::new(AtomicBool::new(stop));
        let (tx, halt) = (self.tx.clone(), flag.clone());
        let work = move || {
            let run = AssertUnwindSafe(|| job(&halt));
            let lines = catch_unwind(run).unwrap_or_else(|_| {
                Some(vec![
                    "info string error: internal error in perft".to_string(),
                ])
            });
            let _ = tx.send(Event::PerftDone(lines));
        };
        match self.runner.start("bashni-perft", Box::new(work)) {
            Ok(_) => self.busy = Some(Busy::Perft { stop: flag }),
            Err(e) => self.error(&format!("cannot start the perft thread: {e}")),
        }
    }
}
