//! Where a session's work (a search, a perft) runs, and the loops that drive a session.
//!
//! Natively ([`Runner::Threads`], driven by [`run`]) the work runs on a thread of its own
//! while the session's thread goes on taking input from the reader thread, so that `stop`
//! and `isready` are answered during a search.
//!
//! In WebAssembly there is one thread, the page's Web Worker ([`Runner::Host`], driven
//! through [`HostSession`]): the session hands its work to the host instead of starting a
//! thread, the host runs it, and the search gives the host a turn every few hundred nodes
//! ([`Poll`]) in which the host reads the lines that came meanwhile and gives them to the
//! session, exactly as the reader thread would. The session's ordering rules (`queue.rs`)
//! are the same in both.

use super::Output;
use super::game::AnyGame;
use super::options::Options;
use super::queue::{Now, Ordered, Queue};
use super::reader::{Input, Line};
use crate::games::Variant;
use crate::platform::Instant;
use crate::search::{Engine, Poll, SearchControl};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};

/// A session's work, ready to run: it sends its result to the session as an event.
pub type Work = Box<dyn FnOnce() + Send>;

/// What a session reacts to: its input, and what its work sends back when done (`D`).
pub(crate) enum Event<D> {
    /// An input line or the end of input.
    Input(Input),
    /// Work ended.
    Done(D),
}

/// What every session keeps, whatever its protocol: commands `C` (refused with `E`), its
/// work's results `D`.
pub(crate) struct Core<C, E, D> {
    pub out: Output,
    /// Its own events (its work sends its results here).
    pub tx: Sender<Event<D>>,
    /// `None` while a search has it.
    pub engine: Option<Engine>,
    pub options: Options,
    /// The game being played.
    pub game: AnyGame,
    /// Commands read while busy (or behind such a command), in order.
    pub queue: Queue<C, E>,
    /// Where its work runs.
    pub runner: Runner,
}

impl<C: Ordered, E, D> Core<C, E, D> {
    /// At the start of `variant` with default options.
    pub(crate) fn new(out: Output, tx: Sender<Event<D>>, variant: Variant, runner: Runner) -> Self {
        let mut options = Options::default();
        let mut engine = options.new_engine();
        options.take_default_egdb(&mut engine);
        Core {
            out,
            tx,
            engine: Some(engine),
            options,
            game: AnyGame::start(variant),
            queue: Queue::new(),
            runner,
        }
    }
}

/// A search that runs: its control, and whether only `stop` is sure to end it.
pub(crate) struct Running {
    pub control: Arc<SearchControl>,
    pub needs_stop: bool,
}

impl Running {
    /// Whether only `stop` is sure to end it now (asked so, or pondering).
    pub(crate) fn unbounded(&self) -> bool {
        self.needs_stop || self.control.is_pondering()
    }

    /// `ponderhit`: the clock runs from now, if it ponders.
    pub(crate) fn ponderhit(&self) {
        if self.control.is_pondering() {
            self.control.ponderhit();
        }
    }

    /// The end of input: stopped if only `stop` would end it; a limited search runs on.
    pub(crate) fn at_eof(&self) {
        if self.unbounded() {
            self.control.stop();
        }
    }
}

/// How a session starts a search (what was read around its `go`).
pub(crate) struct Start {
    /// The thread's name.
    pub name: &'static str,
    /// It starts pondering.
    pub ponder: bool,
    /// Only `stop` is sure to end it (`go infinite`, a bare `go`, Hub's `go analyze`).
    pub needs_stop: bool,
    /// A `stop` was read after it while it waited: it stops as soon as it starts.
    pub stopped: bool,
    /// A `ponderhit` was read after it while it waited.
    pub ponderhit: bool,
    /// The input has ended: nobody is left to send `stop`.
    pub eof: bool,
}

/// Where a session's work runs.
pub(crate) enum Runner {
    /// On a thread started for each job.
    Threads,
    /// On the host's thread, when the host takes it ([`Runner::take`]); its searches give
    /// the host `poll` turns.
    Host { poll: Poll, ready: Option<Work> },
}

impl Runner {
    /// The control of a new search, polled on a host.
    pub(crate) fn control(&self, ponder: bool) -> Arc<SearchControl> {
        match self {
            Runner::Threads => SearchControl::new(ponder),
            Runner::Host { poll, .. } => SearchControl::polled(ponder, Some(*poll)),
        }
    }

    /// Whether the work runs on the host's thread (the engine must then search on the
    /// calling thread, with one thread).
    pub(crate) fn on_host(&self) -> bool {
        matches!(self, Runner::Host { .. })
    }

    /// Starts `work` on a thread named `name`, or keeps it for the host. An error says why
    /// no thread could be started.
    pub(crate) fn start(&mut self, name: &str, work: Work) -> std::io::Result<()> {
        match self {
            Runner::Threads => std::thread::Builder::new()
                .name(name.to_string())
                .spawn(work)
                .map(|_| ()),
            Runner::Host { ready, .. } => {
                *ready = Some(work);
                Ok(())
            }
        }
    }

    /// The work kept for the host, if any.
    pub(crate) fn take(&mut self) -> Option<Work> {
        match self {
            Runner::Threads => None,
            Runner::Host { ready, .. } => ready.take(),
        }
    }

    /// Starts a search: `job` runs with `engine` (on its own thread, or for the host), and
    /// `done` gets the engine back with the job's result. The error says why no thread could
    /// start (the engine is then lost: the caller makes a new one).
    pub(crate) fn start_search<R: 'static>(
        &mut self,
        mut engine: Engine,
        start: Start,
        job: impl FnOnce(&mut Engine, &SearchControl) -> R + Send + 'static,
        done: impl FnOnce(Engine, R) + Send + 'static,
    ) -> Result<Running, String> {
        if self.on_host() {
            engine.search_on_calling_thread(true);
        }
        let control = self.control(start.ponder);
        if start.ponderhit && start.ponder {
            control.ponderhit();
        }
        let running = Running {
            control,
            needs_stop: start.needs_stop,
        };
        if start.stopped || (start.eof && running.unbounded()) {
            running.control.stop(); // asked for already, or nobody is left to send `stop`
        }
        let ctl = running.control.clone();
        let work = move || {
            let result = job(&mut engine, &ctl);
            done(engine, result);
        };
        self.start(start.name, Box::new(work))
            .map(|()| running)
            .map_err(|e| format!("cannot start the search thread: {e}"))
    }
}

/// A session as its drivers see it: events in, and whether it is over.
pub(crate) trait Driven {
    /// Its commands.
    type Command: Ordered;
    /// Why a line is not a command.
    type Error;
    /// What its work sends back when done.
    type Done: Send + 'static;
    /// What it keeps in common with every session.
    fn core(&self) -> &Core<Self::Command, Self::Error, Self::Done>;
    /// The same, to change.
    fn core_mut(&mut self) -> &mut Core<Self::Command, Self::Error, Self::Done>;
    /// Reads one line: a command, nothing (a blank line) or why not.
    fn parse(text: &str) -> Result<Option<Self::Command>, Self::Error>;
    /// The refusal of a line longer than the protocol's limit.
    fn too_long(line: &Line) -> Self::Error;
    /// Does what a line asks for at once ([`Now`]: `stop`, `ponderhit`, `isready`).
    fn act_now(&mut self, now: Now);
    /// The end of input.
    fn on_eof(&mut self);
    /// Its work ended.
    fn on_done(&mut self, done: Self::Done);
    /// Runs every queued command the engine being idle lets run.
    fn pump(&mut self);
    /// Whether work runs.
    fn busy(&self) -> bool;
    /// Whether the running work is a search that only `stop` is sure to end (`go infinite`,
    /// pondering, Hub's `go analyze`).
    fn needs_stop(&self) -> bool;

    /// Takes one input line in order (the queue's rules: `stop`, `isready`, `ponderhit` act
    /// at once, the rest waits its turn).
    fn on_line(&mut self, line: Line) {
        let now = self
            .core_mut()
            .queue
            .take(line, Self::parse, Self::too_long);
        self.act_now(now);
    }

    /// Whether the session has ended (`quit`, or end of input, with its work done).
    fn finished(&self) -> bool {
        self.core().queue.finished(self.busy())
    }

    /// Where its work runs.
    fn runner(&mut self) -> &mut Runner {
        &mut self.core_mut().runner
    }

    /// Handles one event, then runs what can run.
    fn handle(&mut self, event: Event<Self::Done>) {
        match event {
            Event::Input(Input::Line(_, line)) => self.on_line(line),
            Event::Input(Input::Eof) => self.on_eof(),
            Event::Done(done) => self.on_done(done),
        }
        self.pump();
    }
}

/// Runs `session` natively: handles the events of `rx` until the session is over; returns
/// the exit code.
pub(crate) fn run<S: Driven>(mut session: S, rx: Receiver<Event<S::Done>>) -> i32 {
    while let Ok(event) = rx.recv() {
        session.handle(event);
        if session.finished() {
            break;
        }
    }
    0
}

/// A session on its host's one thread (WebAssembly): the host gives it input lines with
/// [`HostSession::line`], runs the work it hands over ([`HostSession::work`]) outside any
/// borrow of the session, and then lets it take the work's result
/// ([`HostSession::settle`]). During the work, the search's [`Poll`] turns give the host the
/// chance to hand over the lines that came meanwhile: `stop`, `isready` and `ponderhit` act at
/// once, everything else waits for the engine as it does natively.
pub struct HostSession(Box<dyn Steps>);

impl HostSession {
    /// Hosts `session`, whose own events come back on `rx`.
    pub(crate) fn new<S: Driven + 'static>(
        session: S,
        rx: Receiver<Event<S::Done>>,
    ) -> HostSession {
        HostSession(Box::new(Hosted { session, rx }))
    }

    /// One input line (its text without the line ending; `cut_from` its full length when the
    /// host cut a longer line to the protocol's limit).
    pub fn line(&mut self, text: String, cut_from: Option<u64>) {
        self.0
            .input(Input::Line(Instant::now(), Line { text, cut_from }));
    }

    /// The end of input: what only `stop` would end is stopped, the rest still runs.
    pub fn eof(&mut self) {
        self.0.input(Input::Eof);
    }

    /// The work ready to run, if any: the host runs it, then calls [`HostSession::settle`].
    pub fn work(&mut self) -> Option<Work> {
        self.0.work()
    }

    /// Takes the results of the work that ran and runs what can run now.
    pub fn settle(&mut self) {
        self.0.settle();
    }

    /// Whether the session is over (`quit`).
    pub fn finished(&self) -> bool {
        self.0.finished()
    }

    /// Whether the running work is a search that only `stop` is sure to end.
    pub fn needs_stop(&self) -> bool {
        self.0.needs_stop()
    }
}

/// What [`HostSession`] needs of a hosted session, whatever its protocol.
trait Steps {
    fn input(&mut self, input: Input);
    fn work(&mut self) -> Option<Work>;
    fn settle(&mut self);
    fn finished(&self) -> bool;
    fn needs_stop(&self) -> bool;
}

struct Hosted<S: Driven> {
    session: S,
    rx: Receiver<Event<S::Done>>,
}

impl<S: Driven> Steps for Hosted<S> {
    fn input(&mut self, input: Input) {
        if !self.session.finished() {
            self.session.handle(Event::Input(input));
        }
    }

    fn work(&mut self) -> Option<Work> {
        self.session.runner().take()
    }

    fn settle(&mut self) {
        while let Ok(event) = self.rx.try_recv() {
            self.session.handle(event);
        }
    }

    fn finished(&self) -> bool {
        self.session.finished()
    }

    fn needs_stop(&self) -> bool {
        self.session.needs_stop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Variant;
    use crate::protocol::Output;
    use crate::search::Turn;
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::io::Write;
    use std::sync::Mutex;

    /// What a test host keeps: the session, the lines that "arrive" at each turn of a
    /// search, and everything written.
    #[derive(Default)]
    struct TestHost {
        session: Option<HostSession>,
        /// Lines that come during the search, one per turn.
        during: VecDeque<String>,
        turns: usize,
    }

    thread_local! {
        static HOST: RefCell<TestHost> = RefCell::new(TestHost::default());
    }

    /// The written lines, shared with the test.
    #[derive(Clone, Default)]
    struct Lines(Arc<Mutex<Vec<u8>>>);

    impl Write for Lines {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Lines {
        fn text(&self) -> Vec<String> {
            let bytes = self.0.lock().unwrap().clone();
            String::from_utf8(bytes)
                .unwrap()
                .lines()
                .map(String::from)
                .collect()
        }
    }

    /// A turn of the search: the next line that "came meanwhile", if any, goes in (a
    /// waiting search takes them all).
    fn poll(turn: Turn) {
        HOST.with(|h| {
            let mut h = h.borrow_mut();
            h.turns += 1;
            let n = if turn == Turn::Waiting { usize::MAX } else { 1 };
            for _ in 0..n {
                let Some(line) = h.during.pop_front() else {
                    break;
                };
                h.session.as_mut().unwrap().line(line, None);
            }
        });
    }

    /// Runs `lines` as a host does (each line in, then the work it asks for, with `during`
    /// coming in at the search's turns); returns what was written.
    fn host_run(hub: bool, lines: &[&str], during: &[&str]) -> Vec<String> {
        let out = Lines::default();
        let session = if hub {
            crate::hub::host(Output::new(out.clone()), Variant::Russian, poll).unwrap()
        } else {
            crate::protocol::host(Output::new(out.clone()), Variant::Russian, poll)
        };
        HOST.with(|h| {
            *h.borrow_mut() = TestHost {
                session: Some(session),
                during: during.iter().map(|s| s.to_string()).collect(),
                turns: 0,
            }
        });
        for line in lines {
            HOST.with(|h| {
                h.borrow_mut()
                    .session
                    .as_mut()
                    .unwrap()
                    .line(line.to_string(), None)
            });
            loop {
                let work = HOST.with(|h| h.borrow_mut().session.as_mut().unwrap().work());
                let Some(work) = work else { break };
                work();
                HOST.with(|h| h.borrow_mut().session.as_mut().unwrap().settle());
            }
        }
        HOST.with(|h| assert!(h.borrow().turns > 0 || during.is_empty()));
        out.text()
    }

    #[test]
    fn a_hosted_search_is_stopped_by_a_line_that_comes_during_it() {
        let out = host_run(
            false,
            &["position startpos", "go infinite"],
            &["isready", "stop"],
        );
        let ready = out.iter().position(|l| l == "readyok").expect("readyok");
        let best = out
            .iter()
            .position(|l| l.starts_with("bestmove "))
            .expect("bestmove");
        assert!(ready < best, "readyok comes during the search: {out:?}");
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    }

    #[test]
    fn commands_that_come_during_a_hosted_search_wait_for_it() {
        // `position` and `d` come during the search: they run after its bestmove, in order.
        let out = host_run(
            false,
            &["go depth 6"],
            &["position startpos moves c3-d4", "d"],
        );
        let best = out
            .iter()
            .position(|l| l.starts_with("bestmove "))
            .expect("bestmove");
        let fen = out.iter().position(|l| l.starts_with("FEN: ")).expect("d");
        assert!(best < fen, "{out:?}");
        assert!(out[fen].contains(" b "), "the position came after: {out:?}");
    }

    #[test]
    fn a_hosted_session_says_which_search_needs_stop() {
        let out = Lines::default();
        let mut s = crate::protocol::host(Output::new(out.clone()), Variant::Russian, |_| {});
        s.line("go infinite".to_string(), None);
        assert!(s.needs_stop());
        let work = s.work().expect("the search");
        s.line("stop".to_string(), None);
        work();
        s.settle();
        assert!(!s.needs_stop());
        s.line("go depth 2".to_string(), None);
        assert!(!s.needs_stop());
    }

    #[test]
    fn hosted_hub_answers_ping_during_a_search_and_stops() {
        let out = host_run(
            true,
            &["hub", "init", "pos", "go analyze"],
            &["ping", "stop"],
        );
        assert!(out.iter().any(|l| l == "ready"), "{out:?}");
        let pong = out.iter().position(|l| l == "pong").expect("pong");
        let done = out
            .iter()
            .position(|l| l.starts_with("done"))
            .expect("done");
        assert!(pong < done, "{out:?}");
    }

    #[test]
    fn a_hosted_perft_is_the_native_count() {
        let out = host_run(false, &["position startpos", "go perft 5"], &[]);
        assert_eq!(
            out.last().map(String::as_str),
            Some("nodes 7482"),
            "{out:?}"
        );
    }
}
