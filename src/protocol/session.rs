//! The protocol session: executes commands in order, runs searches and perft on a worker
//! thread, and answers `stop`, `isready`, `ponderhit` and `quit` at once while one runs.
//! Other commands that arrive meanwhile wait in a queue and run, in order, when it ends.

use super::command::{Command, CommandError, GoArgs, parse_line};
use super::options::{Options, declarations, parse_change};
use super::{Output, bestmove_line, info_line};
use crate::display::{diagram, eval_report};
use crate::rules::game::Game;
use crate::rules::movegen::legal_moves;
use crate::rules::perft::divide;
use crate::rules::position::Position;
use crate::search::{Engine, Score, SearchControl, SearchInfo, SearchLimits, SearchResult};
use std::collections::VecDeque;
use std::fmt::Display;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};

/// What the session reacts to.
pub(crate) enum Event {
    /// An input line.
    Line(String),
    /// End of input.
    Eof,
    /// A search ended; the engine comes back with its result.
    SearchDone(Box<Engine>, SearchResult),
    /// A perft ended (its lines are already written).
    PerftDone,
}

/// The job a worker thread is doing.
enum Busy {
    /// A search, with its control and whether it runs until `stop`.
    Search {
        control: Arc<SearchControl>,
        until_stop: bool,
    },
    /// `go perft` (it cannot be stopped).
    Perft,
}

/// State of one protocol session.
pub(crate) struct Session {
    out: Output,
    tx: Sender<Event>,
    /// `None` while a search has it.
    engine: Option<Engine>,
    options: Options,
    game: Game,
    busy: Option<Busy>,
    /// Lines that arrived while busy.
    queue: VecDeque<String>,
    eof: bool,
    quit: bool,
}

impl Session {
    /// A session at the start position with default options; `tx` feeds its own events.
    pub(crate) fn new(out: Output, tx: Sender<Event>) -> Session {
        let options = Options::default();
        Session {
            out,
            tx,
            engine: Some(options.new_engine()),
            options,
            game: Game::new(Position::startpos()),
            busy: None,
            queue: VecDeque::new(),
            eof: false,
            quit: false,
        }
    }

    /// Handles events until `quit` or end of input (after the running job and the queued
    /// commands are done). Returns the exit code.
    pub(crate) fn run(mut self, rx: Receiver<Event>) -> i32 {
        while let Ok(event) = rx.recv() {
            match event {
                Event::Line(line) => self.on_line(line),
                Event::Eof => self.on_eof(),
                Event::SearchDone(engine, result) => self.on_search_done(*engine, result),
                Event::PerftDone => self.busy = None,
            }
            self.drain_queue();
            if self.finished() {
                break;
            }
        }
        0
    }

    /// Whether the session is over: `quit` or end of input, and no job left running (a
    /// search is stopped by `quit`; a perft cannot be interrupted and is let finish).
    fn finished(&self) -> bool {
        self.busy.is_none() && (self.quit || self.eof)
    }

    fn on_line(&mut self, line: String) {
        if self.quit {
            return;
        }
        if self.busy.is_none() {
            self.handle(&line);
            return;
        }
        match parse_line(&line) {
            Ok(Some(Command::Stop)) => self.stop_search(),
            Ok(Some(Command::IsReady)) => self.out.line("readyok"),
            Ok(Some(Command::PonderHit)) => {
                if let Some(Busy::Search { control, .. }) = &self.busy {
                    control.ponderhit();
                }
            }
            Ok(Some(Command::Quit)) => {
                self.quit = true;
                self.stop_search();
            }
            _ => self.queue.push_back(line),
        }
    }

    /// End of input: a search that only `stop` ends (`go infinite`, a bare `go`, pondering)
    /// is stopped; a limited search and the queued commands still run to completion.
    fn on_eof(&mut self) {
        self.eof = true;
        if let Some(Busy::Search {
            control,
            until_stop,
        }) = &self.busy
            && (*until_stop || control.is_pondering())
        {
            control.stop();
        }
    }

    fn stop_search(&self) {
        if let Some(Busy::Search { control, .. }) = &self.busy {
            control.stop();
        }
    }

    fn on_search_done(&mut self, engine: Engine, result: SearchResult) {
        self.engine = Some(engine);
        self.busy = None;
        for note in &result.notes {
            self.out.line(&format!("info string {note}"));
        }
        self.out.line(&bestmove_line(&result));
    }

    fn drain_queue(&mut self) {
        while self.busy.is_none() && !self.quit {
            let Some(line) = self.queue.pop_front() else {
                break;
            };
            self.handle(&line);
        }
    }

    /// Executes one line while idle. A panic (a bug) is reported, not fatal.
    fn handle(&mut self, line: &str) {
        let ok = catch_unwind(AssertUnwindSafe(|| match parse_line(line) {
            Ok(None) => {}
            Ok(Some(cmd)) => self.execute(cmd),
            Err(e) => self.error(&e),
        }));
        if ok.is_err() {
            self.error(&format!("internal error while handling '{line}'"));
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
            Command::Debug | Command::Stop | Command::PonderHit => {}
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => {
                if let Some(e) = self.engine.as_mut() {
                    e.new_game();
                }
                self.game = Game::new(Position::startpos());
            }
            Command::Position(args) => match args.to_game() {
                Ok(game) => self.game = game,
                Err(e) => self.error(&e),
            },
            Command::Go(args) => self.start_search(&args),
            Command::Perft(depth) => self.start_perft(depth),
            Command::Quit => self.quit = true,
            Command::Display => diagram(self.game.position())
                .iter()
                .for_each(|l| self.out.line(l)),
            Command::Eval => eval_report(self.game.position())
                .iter()
                .for_each(|l| self.out.line(l)),
        }
    }

    fn identify(&self) {
        self.out
            .line(&format!("id name bashni {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the bashni developers");
        for line in declarations() {
            self.out.line(&line);
        }
        self.out.line("uciok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match parse_change(name, value) {
            Ok(change) => {
                if let Some(engine) = self.engine.as_mut()
                    && let Err(e) = self.options.apply(change, engine)
                {
                    self.error(&format!("setoption: {e}; Hash not changed"));
                }
            }
            Err(e) => self.error(&e),
        }
    }

    fn limits(&self, args: &GoArgs) -> Result<SearchLimits, CommandError> {
        Ok(SearchLimits {
            depth: args.depth,
            nodes: args.nodes,
            movetime: args.movetime,
            wtime: args.wtime,
            btime: args.btime,
            winc: args.winc,
            binc: args.binc,
            movestogo: args.movestogo,
            infinite: args.until_stop(),
            searchmoves: args.search_moves(&self.game)?,
            multipv: self.options.multipv as usize,
            mate: args.mate,
        })
    }

    fn start_search(&mut self, args: &GoArgs) {
        let limits = match self.limits(args) {
            Ok(l) => l,
            Err(e) => return self.error(&e),
        };
        let Some(mut engine) = self.engine.take() else {
            return self.error(&"internal error: the engine is missing");
        };
        let control = SearchControl::new(args.ponder);
        if self.eof && (args.until_stop() || args.ponder) {
            control.stop(); // nobody is left to send `stop`
        }
        let pos = self.game.position().clone();
        let history = self.game.history().to_vec();
        let (out, tx, ctl) = (self.out.clone(), self.tx.clone(), control.clone());
        let job = move || {
            let mut report = |info: &SearchInfo| out.line(&info_line(info));
            let run =
                AssertUnwindSafe(|| engine.search(&pos, &history, &limits, &ctl, &mut report));
            let result = catch_unwind(run).unwrap_or_else(|_| {
                out.line("info string error: internal error in the search");
                fallback_result(&pos)
            });
            let _ = tx.send(Event::SearchDone(Box::new(engine), result));
        };
        match std::thread::Builder::new()
            .name("bashni-search".into())
            .spawn(job)
        {
            Ok(_) => {
                self.busy = Some(Busy::Search {
                    control,
                    until_stop: args.until_stop(),
                })
            }
            Err(e) => {
                self.error(&format!("cannot start the search thread: {e}"));
                self.engine = Some(self.options.new_engine());
                self.out
                    .line(&bestmove_line(&fallback_result(self.game.position())));
            }
        }
    }

    fn start_perft(&mut self, depth: u32) {
        let pos = self.game.position().clone();
        let threads = self.options.threads as usize;
        let (out, tx) = (self.out.clone(), self.tx.clone());
        let job = move || {
            let run = AssertUnwindSafe(|| perft_lines(&pos, depth, threads));
            match catch_unwind(run) {
                Ok(lines) => lines.iter().for_each(|l| out.line(l)),
                Err(_) => out.line("info string error: internal error in perft"),
            }
            let _ = tx.send(Event::PerftDone);
        };
        match std::thread::Builder::new()
            .name("bashni-perft".into())
            .spawn(job)
        {
            Ok(_) => self.busy = Some(Busy::Perft),
            Err(e) => self.error(&format!("cannot start the perft thread: {e}")),
        }
    }
}

/// `<move> <count>` per root move sorted by move text, then `nodes <N>`.
fn perft_lines(pos: &Position, depth: u32, threads: usize) -> Vec<String> {
    let divided = divide(pos, depth, threads);
    let mut lines: Vec<String> = divided.lines().collect();
    lines.push(format!("nodes {}", divided.nodes));
    lines
}

/// A legal answer when the search failed: the first legal move, if any.
fn fallback_result(pos: &Position) -> SearchResult {
    let best = legal_moves(pos).iter().next().copied();
    SearchResult {
        best,
        ponder: None,
        score: Score::Cp(0),
        depth: 0,
        nodes: 0,
        pv: best.into_iter().collect(),
        notes: Vec::new(),
    }
}
