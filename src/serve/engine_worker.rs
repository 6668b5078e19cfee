//! The engine of one game: a `bashni` child process spoken to through engine-protocol.md
//! by a worker thread, which runs one job at a time (the engine's move, a hint, or an
//! analysis) and hands the results to the game's [`Session`].
//!
//! A child process rather than a search in the server's own process: the page is then a
//! real client of the protocol, a runaway or crashed search is killed without harming the
//! server or other games, and a closed tab frees exactly its process.
//!
//! Every job carries a generation number; the game bumps the shared generation whenever it
//! changes (a move, a takeback, leaving analysis). The worker stops a search whose
//! generation is no longer current and drops its result, so a stale answer never lands.
//!
//! The engines are this very program, started from its file as it was when the server started
//! ([`pin_program`]): a rebuild that replaces the binary while the server runs changes nothing.
//!
//! The worker waits on one channel for everything that concerns it ([`Order`]): the game's
//! jobs, the game's close, and the end of its engine's output, which the engine's output
//! reader sends the moment the engine dies ([`EngineProcess::start_watched`]). So an engine
//! killed while idle, between two jobs or during its handshake is seen at once, whatever the
//! load: the game is told and a new engine started (a death during a search is seen by the
//! search itself).
//!
//! An engine that crashes or stops answering is killed and started again, and the job it
//! failed is run once more on the new engine; if that fails too, the game is told
//! ([`Session::engine_failed`]) and the person may move or retry. An engine that cannot be
//! started ([`START_TRIES`] tries in a row) fails the job; the next job tries again. When the
//! game is closed ([`EngineHandle::shutdown`]) the search is stopped and the engine quits at
//! once, whatever else still holds the game.

use super::session::{Session, lock};
use crate::client::engine::{
    EngineError, EngineProcess, GoReply, GoWatcher, PvInfo, parse_pv_info,
};
use crate::client::spec::{EngineSpec, Limit, Proto};
use crate::games::Variant;
use crate::serve::json::{self, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// Time an engine gets to answer after `stop` (or after its time limit) before it is taken
/// for dead and restarted.
pub const STOP_GRACE: Duration = Duration::from_secs(2);

/// Shortest time between two analysis updates pushed to the page.
pub const ANALYSIS_PUSH: Duration = Duration::from_millis(100);

/// Starts tried in a row before an engine is given up for the job at hand (an engine killed
/// during its handshake, or one too slow to answer it on a loaded machine, is tried again).
pub const START_TRIES: usize = 3;

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

/// What the worker waits for, on its one channel.
pub enum Order {
    /// A job from the game.
    Job(Job),
    /// The output of the engine with this serial number ended: it died (or was replaced).
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

/// The worker's side, before its thread starts: its channel, the shared generation, and the
/// count of engine processes; [`Inbox::start_engine`] starts the first engine.
pub struct Inbox {
    orders: Receiver<Order>,
    /// Given to every engine's output reader, which sends [`Order::Ended`] on it.
    ends: Sender<Order>,
    epoch: Arc<AtomicU64>,
    /// Engine processes running (the server's count).
    live: Arc<AtomicUsize>,
    /// The serial number of the next engine started.
    next: u64,
}

impl EngineHandle {
    /// A handle, and the inbox for [`spawn_worker`]; `live` counts engine processes.
    pub fn new(live: Arc<AtomicUsize>) -> (EngineHandle, Inbox) {
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
            live,
            next: 0,
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

/// This program's file as it was when the server started, held open, so that engines start
/// from it even after a rebuild has replaced or deleted the file (the path then names another
/// file, or none). Linux names an open file by a path of `/proc`; elsewhere engines start
/// from the program's path.
#[cfg(target_os = "linux")]
mod pinned {
    use std::fs::File;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;
    use std::path::PathBuf;
    use std::sync::OnceLock;

    struct Program {
        /// Where it was started from.
        path: PathBuf,
        /// The file itself, open for as long as the server runs.
        file: File,
    }

    static PROGRAM: OnceLock<Option<Program>> = OnceLock::new();

    /// Holds this program's file open; called when the server starts (later calls change
    /// nothing).
    pub fn pin_program() {
        PROGRAM.get_or_init(|| {
            let path = std::env::current_exe().ok()?;
            let file = File::open("/proc/self/exe").ok()?;
            Some(Program { path, file })
        });
    }

    /// This very binary: by its path while the path still names the file held open, else
    /// by the `/proc` path of the file held open.
    pub fn program() -> std::io::Result<PathBuf> {
        pin_program();
        let Some(Some(p)) = PROGRAM.get() else {
            return std::env::current_exe();
        };
        let held = p.file.metadata()?;
        let id = |m: &std::fs::Metadata| (m.dev(), m.ino());
        match std::fs::metadata(&p.path) {
            Ok(now) if id(&now) == id(&held) => Ok(p.path.clone()),
            _ => Ok(PathBuf::from(format!(
                "/proc/self/fd/{}",
                p.file.as_raw_fd()
            ))),
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod pinned {
    /// Nothing to hold where no path names an open file.
    pub fn pin_program() {}

    /// This very binary, by its path.
    pub fn program() -> std::io::Result<std::path::PathBuf> {
        std::env::current_exe()
    }
}

pub use pinned::pin_program;
use pinned::program;

/// What a game's engine process starts with: the game, and the folder of the endgame
/// databases it is given (`bashni serve --egdb`; absolute, since the engine is a process of
/// its own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSetup {
    /// The game.
    pub variant: Variant,
    /// The databases' folder, set as the engine's `EGDBPath`.
    pub egdb: Option<PathBuf>,
}

/// The engine program: this very binary ([`program`]), speaking the protocol, for a game of
/// `setup.variant`: its `UCI_Variant` option names the game (Bashni, the engine's default,
/// sets none), its `EGDBPath` the databases' folder when there is one.
pub fn engine_spec(setup: &EngineSetup) -> std::io::Result<EngineSpec> {
    let mut options = match setup.variant {
        Variant::Bashni => Vec::new(),
        v => vec![("UCI_Variant".to_string(), v.name().to_string())],
    };
    if let Some(dir) = &setup.egdb {
        options.push(("EGDBPath".to_string(), dir.display().to_string()));
    }
    Ok(EngineSpec {
        name: "bashni".into(),
        cmd: program()?,
        args: vec!["uci".into()],
        dir: None,
        options,
        limit: Limit::default(),
    })
}

/// A running engine: its process (killed when dropped), and its serial number, which its
/// [`Order::Ended`] names.
pub struct Engine {
    process: EngineProcess,
    serial: u64,
    _counted: Counted,
}

/// One place in the count of engine processes, given back when dropped.
struct Counted(Arc<AtomicUsize>);

impl Counted {
    fn new(live: &Arc<AtomicUsize>) -> Counted {
        live.fetch_add(1, Ordering::SeqCst);
        Counted(live.clone())
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Inbox {
    /// Starts an engine for `setup` (blocking until it is ready, [`START_TRIES`] tries): its
    /// death, whenever it comes, is an [`Order::Ended`] on this inbox.
    pub fn start_engine(&mut self, setup: &EngineSetup) -> Result<Engine, String> {
        let spec =
            engine_spec(setup).map_err(|e| format!("cannot find the bashni program: {e}"))?;
        let mut tries = 0;
        loop {
            tries += 1;
            let serial = self.next;
            self.next += 1;
            let ends = self.ends.clone();
            let ended = move || {
                let _ = ends.send(Order::Ended(serial));
            };
            match EngineProcess::start_watched(&spec, Variant::Bashni, Proto::Uci, ended) {
                Ok(process) => {
                    return Ok(Engine {
                        process,
                        serial,
                        _counted: Counted::new(&self.live),
                    });
                }
                // A program that cannot be started stays so; anything else (killed during the
                // handshake, too slow on a loaded machine) is tried again.
                Err(e @ EngineError::Spawn(..)) => return Err(e.to_string()),
                Err(e) if tries >= START_TRIES => return Err(e.to_string()),
                Err(_) => {}
            }
        }
    }
}

/// Starts the worker thread of a game whose engine was started with `setup` (`engine`, by
/// [`Inbox::start_engine`]).
pub fn spawn_worker(
    setup: EngineSetup,
    engine: Engine,
    inbox: Inbox,
    session: Weak<Mutex<Session>>,
) -> std::io::Result<()> {
    let worker = Worker {
        setup,
        engine: Some(engine),
        inbox,
        session,
        skill: None,
        multipv: 1,
    };
    std::thread::Builder::new()
        .name("serve-engine".into())
        .spawn(move || worker.run())
        .map(|_| ())
}

struct Worker {
    /// The game and databases, which a restarted engine is told again.
    setup: EngineSetup,
    /// None when no engine could be started: the next job tries again.
    engine: Option<Engine>,
    inbox: Inbox,
    session: Weak<Mutex<Session>>,
    /// Options as last set in the engine (None: not yet).
    skill: Option<u8>,
    multipv: u32,
}

impl Worker {
    /// Takes orders until the game is closed.
    fn run(mut self) {
        // The inbox holds a sender itself: the channel ends only with `Quit`.
        while let Ok(order) = self.inbox.orders.recv() {
            match order {
                Order::Job(job) => self.job(job),
                Order::Ended(serial) => self.ended(serial),
                Order::Quit => break,
            }
        }
        if let Some(Engine {
            process, _counted, ..
        }) = self.engine.take()
        {
            process.quit(); // and then its place in the count
        }
    }

    /// Engine `serial` died: if it is the current one (idle, since a job in progress sees
    /// its engine's death itself), the game is told and a new engine started.
    fn ended(&mut self, serial: u64) {
        if self.engine.as_ref().is_none_or(|e| e.serial != serial) {
            return; // an engine replaced already
        }
        if self.session.strong_count() == 0 {
            return;
        }
        let died = EngineError::Crashed("bashni".into());
        match self.restart() {
            Ok(()) => self.tell(format!("{died} while idle; the engine was restarted")),
            Err(e) => self.tell(format!(
                "{died} while idle, and could not be restarted: {e}; it is tried again with the \
                 next request"
            )),
        }
    }

    /// Runs `job`: on a new engine if the last one is gone, once more on a new engine if it
    /// fails.
    fn job(&mut self, job: Job) {
        if !self.is_current(&job) {
            return;
        }
        if self.engine.is_none()
            && let Err(e) = self.restart()
        {
            self.fail(&job, format!("the engine could not be started: {e}"));
            return;
        }
        let Err(first) = self.run_job(&job) else {
            return;
        };
        // 1. The engine crashed or hung: a new one, and the same job once more.
        if let Err(e) = self.restart() {
            self.fail(
                &job,
                format!("{first}; the engine could not be restarted: {e}"),
            );
            return;
        }
        if !self.is_current(&job) {
            return;
        }
        self.tell(format!("{first}; the engine was restarted"));
        let Err(second) = self.run_job(&job) else {
            return;
        };
        // 2. It failed again: the game says so; the person may move or retry.
        let restarted = self.restart();
        self.fail(&job, format!("{first}, then {second}"));
        if let Err(e) = restarted {
            self.tell(format!("the engine could not be restarted: {e}"));
        }
    }

    fn is_current(&self, job: &Job) -> bool {
        job.epoch == self.inbox.epoch.load(Ordering::SeqCst)
    }

    /// Kills the engine (if it still runs) and starts a new one.
    fn restart(&mut self) -> Result<(), String> {
        self.engine = None; // dropping it kills the process
        self.skill = None;
        self.multipv = 1;
        self.engine = Some(self.inbox.start_engine(&self.setup)?);
        Ok(())
    }

    /// Tells the game of an engine problem.
    fn tell(&self, what: String) {
        if let Some(s) = self.session.upgrade() {
            lock(&s).engine_trouble(what);
        }
    }

    /// Tells the game that `job` failed for good.
    fn fail(&self, job: &Job, what: String) {
        if let Some(s) = self.session.upgrade() {
            lock(&s).engine_failed(job.epoch, what);
        }
    }

    fn set_options(&mut self, job: &Job) -> Result<(), EngineError> {
        let engine = &mut self
            .engine
            .as_mut()
            .ok_or_else(|| EngineError::Crashed("bashni".into()))?
            .process;
        if self.skill != Some(job.skill) {
            engine.send(&format!("setoption name Skill Level value {}", job.skill))?;
            self.skill = Some(job.skill);
        }
        if self.multipv != job.multipv {
            engine.send(&format!("setoption name MultiPV value {}", job.multipv))?;
            self.multipv = job.multipv;
        }
        Ok(())
    }

    fn run_job(&mut self, job: &Job) -> Result<(), EngineError> {
        self.set_options(job)?;
        let mut watch = Watch {
            epoch: job.epoch,
            current: self.inbox.epoch.clone(),
            feed: match job.kind {
                JobKind::Analyse { ply, threat } => {
                    Some(Feed::new(self.session.clone(), ply, threat))
                }
                _ => None,
            },
        };
        let engine = &mut self
            .engine
            .as_mut()
            .ok_or_else(|| EngineError::Crashed("bashni".into()))?
            .process;
        let deadline = Instant::now() + job.limit;
        let (_, reply) =
            engine.go_watched(&job.position, &job.go, deadline, STOP_GRACE, &mut watch);
        if let Some(feed) = &mut watch.feed {
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
struct Watch {
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
            && feed.last_push.elapsed() >= ANALYSIS_PUSH
        {
            feed.push(self.epoch, false);
        }
        self.current.load(Ordering::SeqCst) != self.epoch
    }
}

/// The lines of an analysis, pushed to the page at most every [`ANALYSIS_PUSH`].
struct Feed {
    session: Weak<Mutex<Session>>,
    ply: usize,
    threat: bool,
    lines: Vec<PvInfo>,
    dirty: bool,
    last_push: Instant,
}

impl Feed {
    fn new(session: Weak<Mutex<Session>>, ply: usize, threat: bool) -> Feed {
        Feed {
            session,
            ply,
            threat,
            lines: Vec::new(),
            dirty: false,
            last_push: Instant::now(),
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
        self.last_push = Instant::now();
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
