//! The engine of one game, on any back end: the jobs the game gives it (the engine's move, a
//! hint, an analysis, the weighing of a draw offer), and how a job runs on an engine that
//! speaks engine-protocol.md, its results handed to the game's [`Session`].
//!
//! Where the engine runs is the back end's ([`Backend`]): natively a `bashni` child process
//! driven by a worker thread (`native/engine_process.rs`), in the browser a protocol session
//! in the page's own worker (`browser/engine.rs`). Both speak the same lines and run each job
//! through [`JobRunner`]: the options set as the job needs, `position` and `go`, the `info`
//! lines of an analysis fed to the page at most every [`ANALYSIS_PUSH`], the search stopped
//! when the job goes stale, and `bestmove` handed to the game.
//!
//! Every job carries a generation number; the game bumps the shared generation whenever it
//! changes (a move, a takeback, leaving analysis). The worker stops a search whose
//! generation is no longer current and drops its result, so a stale answer never lands.

use super::json::{self, Value};
use super::session::{Session, lock};
use crate::client::info::{PvInfo, parse_pv_info};
use crate::client::reply::{EngineError, GoReply, GoWatcher};
use crate::games::Variant;
use crate::platform::Instant;
use crate::search::Poll;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// Time an engine gets to answer after `stop` (or after its time limit) before it is taken
/// for dead and restarted.
pub const STOP_GRACE: Duration = Duration::from_secs(2);

/// Shortest time between two analysis updates pushed to the page.
pub const ANALYSIS_PUSH: Duration = Duration::from_millis(100);

/// What a job is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// The engine's own move.
    Play,
    /// The best move for the person, for the position after `ply` plies.
    Hint { ply: usize },
    /// Analysis of the position after `ply` plies, or of its threat (the other side to move).
    Analyse { ply: usize, threat: bool },
    /// The engine weighs the person's draw offer in the position after `ply` plies.
    Offer { ply: usize },
}

impl JobKind {
    /// `play`, `hint`, `analysis` or `draw offer`.
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Play => "play",
            JobKind::Hint { .. } => "hint",
            JobKind::Analyse { .. } => "analysis",
            JobKind::Offer { .. } => "draw offer",
        }
    }
}

/// One search for the engine.
#[derive(Clone, Debug)]
pub struct Job {
    /// What it is for.
    pub kind: JobKind,
    /// The `position` command.
    pub position: String,
    /// The `go` command.
    pub go: String,
    /// The longest it may run before `stop` is sent.
    pub limit: Duration,
    /// `Skill Level` for this search.
    pub skill: u8,
    /// `MultiPV` for this search.
    pub multipv: u32,
    /// Set by [`EngineHandle::replace`].
    pub epoch: u64,
}

/// What a game's engine worker waits for, on its one channel.
pub enum Order {
    /// A job from the game.
    Job(Job),
    /// The output of the engine with this serial number ended: it died (or was replaced).
    /// Natively the engine's output reader sends it the moment the process dies, so an
    /// engine killed while idle, between jobs or during its handshake is seen at once.
    Ended(u64),
    /// The game is closed: quit the engine and end.
    Quit,
}

/// The game's side of its engine worker.
pub struct EngineHandle {
    epoch: Arc<AtomicU64>,
    /// None once the game is closed (the worker was told to quit).
    jobs: Option<Sender<Order>>,
    busy: Option<JobKind>,
}

/// The worker's side, before its game's session exists: its channel, a sender on it for its
/// engines' deaths, and the shared generation. [`Inbox::start`] makes it an [`EngineStart`].
pub struct Inbox {
    orders: Receiver<Order>,
    ends: Sender<Order>,
    epoch: Arc<AtomicU64>,
}

impl Inbox {
    /// What a back end starts the engine of the game `session`, of `setup`, with.
    pub fn start(self, setup: EngineSetup, session: Weak<Mutex<Session>>) -> EngineStart {
        EngineStart {
            setup,
            orders: self.orders,
            ends: self.ends,
            runner: JobRunner::new(session, self.epoch),
        }
    }
}

/// What a back end starts a game's engine with ([`Backend::start_engine`]).
pub struct EngineStart {
    /// The game, and its databases.
    pub setup: EngineSetup,
    /// The game's orders, and the ends of its engines.
    pub orders: Receiver<Order>,
    /// Given to every engine's output reader, which sends [`Order::Ended`] on it.
    pub ends: Sender<Order>,
    /// Runs the game's jobs on the engine and hands their results to the game.
    pub runner: JobRunner,
}

impl EngineHandle {
    /// A handle, and the inbox for the back end's worker ([`Inbox::start`]).
    pub fn new() -> (EngineHandle, Inbox) {
        let (tx, rx) = channel();
        let epoch = Arc::new(AtomicU64::new(0));
        let handle = EngineHandle {
            epoch: epoch.clone(),
            jobs: Some(tx.clone()),
            busy: None,
        };
        let inbox = Inbox {
            orders: rx,
            ends: tx,
            epoch,
        };
        (handle, inbox)
    }

    /// Stops the current job (if any) and queues `job` (if any) in its place.
    pub fn replace(&mut self, job: Option<Job>) {
        let epoch = self.epoch.fetch_add(1, Ordering::SeqCst) + 1;
        self.busy = job.as_ref().map(|j| j.kind);
        if let Some(mut job) = job {
            job.epoch = epoch;
            // A worker that has gone (the game was closed, or its thread died) takes no jobs.
            let sent = self
                .jobs
                .as_ref()
                .is_some_and(|jobs| jobs.send(Order::Job(job)).is_ok());
            if !sent {
                self.busy = None;
            }
        }
    }

    /// Whether a job of generation `epoch` is still the current one.
    pub fn is_current(&self, epoch: u64) -> bool {
        self.epoch.load(Ordering::SeqCst) == epoch
    }

    /// The current job has ended.
    pub fn idle(&mut self) {
        self.busy = None;
    }

    /// What the engine is doing.
    pub fn busy(&self) -> Option<JobKind> {
        self.busy
    }

    /// The game is closed: stop the search and let the worker quit its engine.
    pub fn shutdown(&mut self) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        if let Some(jobs) = self.jobs.take() {
            let _ = jobs.send(Order::Quit);
        }
        self.busy = None;
    }
}

impl Drop for EngineHandle {
    /// The game is gone: stop the search and tell the worker to quit its engine.
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// What a game's engine starts with: the game, and the folder of the endgame databases it is
/// given (`bashni serve --egdb`; absolute, since the native engine is a process of its own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSetup {
    /// The game.
    pub variant: Variant,
    /// The databases' folder, set as the engine's `EGDBPath`.
    pub egdb: Option<PathBuf>,
}

/// Where a back end runs the games' engines and their reviews: threads and engine processes
/// natively (`native/`), the page's one thread in the browser (`browser/`).
pub trait Backend: Send + Sync {
    /// Starts the engine of a game: its worker takes the game's orders and runs them with
    /// `start`'s runner. An error (one line) says why it could not start; the game is then
    /// not opened.
    fn start_engine(&self, start: EngineStart) -> Result<(), String>;

    /// Engines running now.
    fn engines(&self) -> usize;

    /// Runs a review's work, apart from the request that starts it (a thread natively).
    fn start_review(&self, work: Box<dyn FnOnce() + Send>) -> Result<(), String>;

    /// The turn the searches of reviews give their host, where they run on the host's one
    /// thread (None natively: a search runs on a thread of its own).
    fn poll(&self) -> Option<Poll>;
}

/// An engine that speaks the protocol: a child process natively, a session in the page's
/// worker in the browser.
pub trait EngineLink {
    /// Sends one line (an option).
    fn send(&mut self, line: &str) -> Result<(), EngineError>;

    /// Sends `search`'s `position` and `go`, hands each `info` line to its watch and asks it
    /// whether to stop (then sends `stop`), sends `stop` at its deadline too; returns the
    /// engine's reply.
    fn go(&mut self, search: &SearchOrder<'_>) -> GoReply;
}

/// One search a job asks of its engine ([`EngineLink::go`]).
pub struct SearchOrder<'a> {
    /// The `position` command.
    pub position: &'a str,
    /// The `go` command.
    pub go: &'a str,
    /// When `stop` is sent, whatever the watch says.
    pub deadline: Instant,
    /// Given each `info` line, and asked whether to stop.
    pub watch: &'a Rc<RefCell<Watch>>,
}

/// Runs one game's jobs on its engine, whatever the engine, and hands their results to the
/// game; it keeps which options the engine has been given.
pub struct JobRunner {
    session: Weak<Mutex<Session>>,
    epoch: Arc<AtomicU64>,
    /// Options as last set in the engine (None: not yet).
    skill: Option<u8>,
    multipv: u32,
}

impl JobRunner {
    /// The runner of the game `session`, whose jobs' generation is `epoch`.
    pub fn new(session: Weak<Mutex<Session>>, epoch: Arc<AtomicU64>) -> JobRunner {
        JobRunner {
            session,
            epoch,
            skill: None,
            multipv: 1,
        }
    }

    /// Whether `job` is still the game's current job.
    pub fn is_current(&self, job: &Job) -> bool {
        job.epoch == self.epoch.load(Ordering::SeqCst)
    }

    /// Whether the game is gone.
    pub fn game_gone(&self) -> bool {
        self.session.strong_count() == 0
    }

    /// The engine was replaced by a new one, which has been given no options yet.
    pub fn engine_replaced(&mut self) {
        self.skill = None;
        self.multipv = 1;
    }

    /// Tells the game of an engine problem.
    pub fn tell(&self, what: String) {
        if let Some(s) = self.session.upgrade() {
            lock(&s).engine_trouble(what);
        }
    }

    /// Tells the game that `job` failed for good.
    pub fn fail(&self, job: &Job, what: String) {
        if let Some(s) = self.session.upgrade() {
            lock(&s).engine_failed(job.epoch, what);
        }
    }

    fn set_options(&mut self, link: &mut dyn EngineLink, job: &Job) -> Result<(), EngineError> {
        if self.skill != Some(job.skill) {
            link.send(&format!("setoption name Skill Level value {}", job.skill))?;
            self.skill = Some(job.skill);
        }
        if self.multipv != job.multipv {
            link.send(&format!("setoption name MultiPV value {}", job.multipv))?;
            self.multipv = job.multipv;
        }
        Ok(())
    }

    /// Runs `job` on `link` and hands its result to the game; an error when the engine
    /// crashed or did not answer (the caller restarts it).
    pub fn run_job(&mut self, link: &mut dyn EngineLink, job: &Job) -> Result<(), EngineError> {
        self.set_options(link, job)?;
        let watch = Rc::new(RefCell::new(Watch {
            epoch: job.epoch,
            current: self.epoch.clone(),
            feed: match job.kind {
                JobKind::Analyse { ply, threat } => {
                    Some(Feed::new(self.session.clone(), ply, threat))
                }
                _ => None,
            },
        }));
        let reply = link.go(&SearchOrder {
            position: &job.position,
            go: &job.go,
            deadline: Instant::now() + job.limit,
            watch: &watch,
        });
        if let Some(feed) = &mut watch.borrow_mut().feed {
            feed.push(job.epoch, true);
        }
        let (text, score) = match reply {
            GoReply::Move { text, info, .. } => (Some(text), info.map(|i| i.score)),
            GoReply::NoMove { .. } => (None, None),
            GoReply::Timeout => return Err(EngineError::Timeout("bashni".into(), "go")),
            GoReply::Crashed => return Err(EngineError::Crashed("bashni".into())),
        };
        // The engine is idle again, ready for the next `position`/`go` without a `readyok`:
        // the protocol processes commands in order.
        let Some(session) = self.session.upgrade() else {
            return Ok(());
        };
        let mut s = lock(&session);
        let now = Instant::now();
        match (job.kind, text) {
            (JobKind::Play, Some(t)) => s.play_engine(job.epoch, &t, now),
            (JobKind::Hint { ply }, Some(t)) => s.set_hint(job.epoch, ply, &t, score),
            (JobKind::Offer { ply }, Some(_)) => s.answer_offer(job.epoch, ply, score, now),
            (JobKind::Analyse { .. }, _) => {
                if s.engine.is_current(job.epoch) {
                    s.engine.idle();
                }
            }
            (_, None) => {
                if s.engine.is_current(job.epoch) {
                    s.engine.idle();
                    s.engine_trouble("the engine found no legal move".into());
                }
            }
        }
        Ok(())
    }
}

/// Watches one search: stops it when its generation is stale, and feeds an analysis's
/// lines to the page.
pub struct Watch {
    epoch: u64,
    current: Arc<AtomicU64>,
    feed: Option<Feed>,
}

impl GoWatcher for Watch {
    fn info(&mut self, line: &str) {
        if let (Some(feed), Some(pv)) = (&mut self.feed, parse_pv_info(line)) {
            feed.add(pv);
        }
    }

    fn should_stop(&mut self) -> bool {
        if let Some(feed) = &mut self.feed
            && feed.dirty
            && feed.last_push.is_none_or(|t| t.elapsed() >= ANALYSIS_PUSH)
        {
            feed.push(self.epoch, false);
        }
        self.current.load(Ordering::SeqCst) != self.epoch
    }
}

/// The lines of an analysis, pushed to the page at most every [`ANALYSIS_PUSH`] (the first
/// ones at once: the page waits for them).
struct Feed {
    session: Weak<Mutex<Session>>,
    ply: usize,
    threat: bool,
    lines: Vec<PvInfo>,
    dirty: bool,
    last_push: Option<Instant>,
}

impl Feed {
    fn new(session: Weak<Mutex<Session>>, ply: usize, threat: bool) -> Feed {
        Feed {
            session,
            ply,
            threat,
            lines: Vec::new(),
            dirty: false,
            last_push: None,
        }
    }

    fn add(&mut self, pv: PvInfo) {
        let i = pv.multipv.saturating_sub(1) as usize;
        // A new best line at a greater depth makes the old lower lines stale.
        if i == 0 && self.lines.first().is_some_and(|l| l.depth < pv.depth) {
            self.lines.truncate(1);
        }
        if i < self.lines.len() {
            self.lines[i] = pv;
        } else if i == self.lines.len() {
            self.lines.push(pv);
        }
        self.dirty = true;
    }

    fn push(&mut self, epoch: u64, done: bool) {
        self.dirty = false;
        self.last_push = Some(Instant::now());
        let Some(session) = self.session.upgrade() else {
            return;
        };
        let mut s = lock(&session);
        if !s.engine.is_current(epoch) {
            return;
        }
        let data = analysis_json(self.ply, self.threat, &self.lines, done);
        s.subscribers.send("analysis", &data);
        s.last_analysis = Some(data);
    }
}

fn analysis_json(ply: usize, threat: bool, lines: &[PvInfo], done: bool) -> Value {
    let lines: Vec<Value> = lines
        .iter()
        .map(|l| {
            json::object([
                ("multipv", Value::from(l.multipv)),
                ("depth", Value::from(l.depth)),
                ("score", json::score(l.score)),
                ("pv", Value::from(l.pv.clone())),
            ])
        })
        .collect();
    json::object([
        ("ply", Value::from(ply)),
        ("threat", Value::from(threat)),
        ("done", Value::from(done)),
        ("lines", Value::Array(lines)),
    ])
}
