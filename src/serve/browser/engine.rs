//! The games' engines in the browser: each a protocol session ([`crate::protocol::host`]) in
//! this very process, spoken to with the lines a native engine process is sent, its output
//! read as a process's is ([`read_reply`]), its jobs run by the same [`JobRunner`]. There is
//! one thread: a search runs on it when the host takes the job ([`super::run`]), and gives
//! the host its turns ([`super::poll`]), in which the engine's output is read and `stop`
//! given when the job has gone stale or run past its time ([`check_search`]).

use super::{FRAMES, Frame, can_turn, poll};
use crate::client::reply::{EngineError, GoReply, GoWatcher, read_reply};
use crate::platform::Instant;
use crate::protocol::Output;
use crate::protocol::runner::HostSession;
use crate::record::game_record::LastInfo;
use crate::search::Turn;
use crate::serve::engine_worker::{
    EngineLink, EngineStart, Job, JobRunner, Order, SearchOrder, Watch,
};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::Write;
use std::rc::Rc;
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Where the page cannot give the host turns (a browser without WebAssembly JavaScript
/// Promise Integration, or a search that waits for `stop`), how long a search runs before
/// it is stopped: nothing could stop it otherwise, and nothing else could run meanwhile.
pub const NO_TURN_SLICE: Duration = Duration::from_millis(1000);

thread_local! {
    /// The open games' engines.
    static ENGINES: RefCell<Vec<Rc<RefCell<InProcess>>>> = const { RefCell::new(Vec::new()) };
}

/// An engine's output: the lines its session writes, until they are read.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Lines {
    /// The whole lines written since the last call (a line not yet ended stays).
    fn take(&self) -> VecDeque<String> {
        let mut buf = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let Some(end) = buf.iter().rposition(|&b| b == b'\n') else {
            return VecDeque::new();
        };
        let whole: Vec<u8> = buf.drain(..=end).collect();
        String::from_utf8_lossy(&whole)
            .lines()
            .map(|l| l.trim().to_string())
            .collect()
    }
}

/// A search of an engine in progress: what the host's turns read and stop.
pub(super) struct Search {
    session: Rc<RefCell<HostSession>>,
    out: Lines,
    watch: Rc<RefCell<Watch>>,
    deadline: Instant,
    started: Instant,
    stopped: bool,
    info: Option<LastInfo>,
    reply: Option<GoReply>,
}

/// The engine session of one game, as the job runner speaks to it.
struct Link {
    session: Rc<RefCell<HostSession>>,
    out: Lines,
}

impl EngineLink for Link {
    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.session.borrow_mut().line(line.to_string(), None);
        Ok(())
    }

    fn go(&mut self, order: &SearchOrder<'_>) -> GoReply {
        self.out.take(); // what earlier commands said
        {
            let mut s = self.session.borrow_mut();
            s.line(order.position.to_string(), None);
            s.line(order.go.to_string(), None);
        }
        let now = Instant::now();
        FRAMES.with(|f| {
            f.borrow_mut().push(Frame::Engine(Search {
                session: self.session.clone(),
                out: self.out.clone(),
                watch: order.watch.clone(),
                deadline: order.deadline,
                started: now,
                stopped: false,
                info: None,
                reply: None,
            }))
        });
        // The work runs outside any borrow of the session: its turns give it `stop`.
        loop {
            let work = self.session.borrow_mut().work();
            let Some(work) = work else {
                break;
            };
            work();
            self.session.borrow_mut().settle();
        }
        let frame = FRAMES.with(|f| f.borrow_mut().pop());
        let Some(Frame::Engine(mut search)) = frame else {
            return GoReply::Crashed;
        };
        read_output(&mut search);
        // No `bestmove`: the session refused the commands (a bug of the server's).
        search.reply.unwrap_or(GoReply::Crashed)
    }
}

/// Reads what the engine of `search` wrote: `info` lines to its watch, `bestmove` as its
/// reply.
fn read_output(search: &mut Search) {
    for line in search.out.take() {
        let mut watch = search.watch.borrow_mut();
        if let Some(reply) = read_reply(&line, Instant::now(), &mut search.info, &mut *watch) {
            search.reply = Some(reply);
        }
    }
}

/// The host's turn for the running engine search, if the top frame is one: its output read,
/// and `stop` given (once) when its job has gone stale, at its deadline, or where the page
/// cannot give turns after [`NO_TURN_SLICE`] (at once when it only waits for `stop`).
pub(super) fn check_search(turn: Turn) {
    let stop = FRAMES.with(|f| {
        let mut frames = f.borrow_mut();
        let Some(Frame::Engine(search)) = frames.last_mut() else {
            return None;
        };
        read_output(search);
        if search.stopped {
            return None;
        }
        let now = Instant::now();
        let stale = search.watch.borrow_mut().should_stop();
        let stuck = !can_turn()
            && (turn == Turn::Waiting || now.duration_since(search.started) >= NO_TURN_SLICE);
        if stale || now >= search.deadline || stuck {
            search.stopped = true;
            return Some(search.session.clone());
        }
        None
    });
    // Given outside the frames' borrow: `stop` acts on the search's control at once.
    if let Some(session) = stop {
        session.borrow_mut().line("stop".to_string(), None);
    }
}

/// One game's engine in the page's worker.
pub(super) struct InProcess {
    orders: Receiver<Order>,
    runner: JobRunner,
    link: Link,
    /// The newest job taken from the channel, not yet run.
    next: Option<Job>,
    /// The game closed its side of the channel: the engine goes.
    gone: bool,
}

impl InProcess {
    /// Takes the game's newest job from the channel: whether one that is current waits.
    fn ready(&mut self) -> bool {
        loop {
            match self.orders.try_recv() {
                Ok(Order::Job(job)) => self.next = Some(job),
                // (an engine in this process never ends by itself)
                Ok(Order::Ended(_)) => {}
                Err(TryRecvError::Empty) => break,
                Ok(Order::Quit) | Err(TryRecvError::Disconnected) => {
                    self.gone = true;
                    self.next = None;
                    break;
                }
            }
        }
        if self
            .next
            .as_ref()
            .is_some_and(|j| !self.runner.is_current(j))
        {
            self.next = None;
        }
        self.next.is_some()
    }

    /// Runs the job waiting, if any (on an engine in this process nothing crashes or hangs
    /// but by a bug, which ends the whole module; a refusal fails the job).
    fn run_next(&mut self) {
        let Some(job) = self.next.take() else {
            return;
        };
        if let Err(e) = self.runner.run_job(&mut self.link, &job) {
            self.runner.fail(&job, e.to_string());
        }
    }
}

/// Starts the engine of a game: a protocol session in that game (its databases are not
/// given: the page has none), which takes the game's orders (an engine in this process never
/// ends by itself: its `ends` go unused).
pub(super) fn start(start: EngineStart) {
    let out = Lines::default();
    let host = crate::protocol::host(Output::new(out.clone()), start.setup.variant, poll);
    let engine = InProcess {
        orders: start.orders,
        runner: start.runner,
        link: Link {
            session: Rc::new(RefCell::new(host)),
            out,
        },
        next: None,
        gone: false,
    };
    ENGINES.with(|e| e.borrow_mut().push(Rc::new(RefCell::new(engine))));
}

/// Drops the engines whose games have gone (the running one stays).
fn prune(engines: &mut Vec<Rc<RefCell<InProcess>>>) {
    engines.retain(|x| {
        x.try_borrow_mut().map_or(true, |mut x| {
            x.ready();
            !x.gone
        })
    });
}

/// Engines of open games.
pub(super) fn count() -> usize {
    ENGINES.with(|e| {
        let mut engines = e.borrow_mut();
        prune(&mut engines);
        engines.len()
    })
}

/// Runs the job of the first engine that has one (the engines that have gone are dropped);
/// false when none has.
pub(super) fn run_one() -> bool {
    let next = ENGINES.with(|e| {
        let mut engines = e.borrow_mut();
        prune(&mut engines);
        let found = engines
            .iter()
            .position(|x| x.try_borrow_mut().is_ok_and(|mut x| x.ready()))?;
        // The next turn starts after this one: no game's engine waits behind another's.
        let engine = engines.remove(found);
        engines.push(engine.clone());
        Some(engine)
    });
    let Some(engine) = next else {
        return false;
    };
    engine.borrow_mut().run_next();
    true
}

/// Whether the search on top of the host's stack is an engine's.
pub(super) fn engine_on_top() -> bool {
    FRAMES.with(|f| matches!(f.borrow().last(), Some(Frame::Engine(_))))
}
