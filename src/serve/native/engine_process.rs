//! The engines of the games natively: each a `bashni` child process spoken to through
//! engine-protocol.md by a worker thread of its own, which runs the game's jobs one at a time
//! ([`JobRunner`]).
//!
//! A child process rather than a search in the server's own process: the page is then a
//! real client of the protocol, a runaway or crashed search is killed without harming the
//! server or other games, and a closed tab frees exactly its process.
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
//!
//! [`Session::engine_failed`]: crate::serve::session::Session::engine_failed
//! [`EngineHandle::shutdown`]: crate::serve::engine_worker::EngineHandle::shutdown

use crate::client::engine::{EngineError, EngineProcess, GoReply};
use crate::client::spec::{EngineSpec, Limit, Proto};
use crate::games::Variant;
use crate::search::Poll;
use crate::serve::engine_worker::{
    Backend, EngineLink, EngineSetup, EngineStart, Job, JobRunner, Order, STOP_GRACE, SearchOrder,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Starts tried in a row before an engine is given up for the job at hand (an engine killed
/// during its handshake, or one too slow to answer it on a loaded machine, is tried again).
pub const START_TRIES: usize = 3;

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

/// The native back end: an engine process and a worker thread per game, a thread per review.
#[derive(Default)]
pub struct Processes {
    /// Engine processes running (each counted while it runs).
    live: Arc<AtomicUsize>,
}

impl Backend for Processes {
    fn start_engine(&self, start: EngineStart) -> Result<(), String> {
        let mut starter = Starter {
            ends: start.ends,
            live: self.live.clone(),
            next: 0,
        };
        let engine = starter
            .start(&start.setup)
            .map_err(|e| format!("cannot start the engine: {e}"))?;
        let worker = Worker {
            setup: start.setup,
            engine: Some(engine),
            starter,
            orders: start.orders,
            runner: start.runner,
        };
        std::thread::Builder::new()
            .name("serve-engine".into())
            .spawn(move || worker.run())
            .map(|_| ())
            .map_err(|e| format!("cannot start the engine's thread: {e}"))
    }

    fn engines(&self) -> usize {
        self.live.load(Ordering::SeqCst)
    }

    fn start_review(&self, work: Box<dyn FnOnce() + Send>) -> Result<(), String> {
        std::thread::Builder::new()
            .name("bashni-review".into())
            .spawn(work)
            .map(|_| ())
            .map_err(|e| format!("cannot start a review thread: {e}"))
    }

    fn poll(&self) -> Option<Poll> {
        None
    }
}

/// A process speaks the protocol over its pipes; `stop` is given [`STOP_GRACE`] to answer.
impl EngineLink for EngineProcess {
    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        EngineProcess::send(self, line)
    }

    fn go(&mut self, order: &SearchOrder<'_>) -> GoReply {
        let mut watch = order.watch.borrow_mut();
        let (position, go) = (order.position, order.go);
        self.go_watched(position, go, order.deadline, STOP_GRACE, &mut *watch)
            .1
    }
}

/// A running engine: its process (killed when dropped), and its serial number, which its
/// [`Order::Ended`] names.
struct Engine {
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

/// What starts a game's engines: the sender their deaths are told on, the server's count of
/// engine processes, and the serial number of the next one.
struct Starter {
    ends: std::sync::mpsc::Sender<Order>,
    live: Arc<AtomicUsize>,
    next: u64,
}

impl Starter {
    /// Starts an engine for `setup` (blocking until it is ready, [`START_TRIES`] tries): its
    /// death, whenever it comes, is an [`Order::Ended`] on the worker's channel.
    fn start(&mut self, setup: &EngineSetup) -> Result<Engine, String> {
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

struct Worker {
    /// The game and databases, which a restarted engine is told again.
    setup: EngineSetup,
    /// None when no engine could be started: the next job tries again.
    engine: Option<Engine>,
    starter: Starter,
    orders: std::sync::mpsc::Receiver<Order>,
    runner: JobRunner,
}

impl Worker {
    /// Takes orders until the game is closed.
    fn run(mut self) {
        // The starter holds a sender itself: the channel ends only with `Quit`.
        while let Ok(order) = self.orders.recv() {
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
        if self.runner.game_gone() {
            return;
        }
        let died = EngineError::Crashed("bashni".into());
        match self.restart() {
            Ok(()) => self
                .runner
                .tell(format!("{died} while idle; the engine was restarted")),
            Err(e) => self.runner.tell(format!(
                "{died} while idle, and could not be restarted: {e}; it is tried again with the \
                 next request"
            )),
        }
    }

    /// Runs `job`: on a new engine if the last one is gone, once more on a new engine if it
    /// fails.
    fn job(&mut self, job: Job) {
        if !self.runner.is_current(&job) {
            return;
        }
        if self.engine.is_none()
            && let Err(e) = self.restart()
        {
            self.runner
                .fail(&job, format!("the engine could not be started: {e}"));
            return;
        }
        let Err(first) = self.run_job(&job) else {
            return;
        };
        // 1. The engine crashed or hung: a new one, and the same job once more.
        if let Err(e) = self.restart() {
            self.runner.fail(
                &job,
                format!("{first}; the engine could not be restarted: {e}"),
            );
            return;
        }
        if !self.runner.is_current(&job) {
            return;
        }
        self.runner
            .tell(format!("{first}; the engine was restarted"));
        let Err(second) = self.run_job(&job) else {
            return;
        };
        // 2. It failed again: the game says so; the person may move or retry.
        let restarted = self.restart();
        self.runner.fail(&job, format!("{first}, then {second}"));
        if let Err(e) = restarted {
            self.runner
                .tell(format!("the engine could not be restarted: {e}"));
        }
    }

    /// Kills the engine (if it still runs) and starts a new one.
    fn restart(&mut self) -> Result<(), String> {
        self.engine = None; // dropping it kills the process
        self.runner.engine_replaced();
        self.engine = Some(self.starter.start(&self.setup)?);
        Ok(())
    }

    fn run_job(&mut self, job: &Job) -> Result<(), EngineError> {
        let engine = self
            .engine
            .as_mut()
            .ok_or_else(|| EngineError::Crashed("bashni".into()))?;
        self.runner.run_job(&mut engine.process, job)
    }
}
