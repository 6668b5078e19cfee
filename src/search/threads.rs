//! Lazy SMP: every thread searches the same root with its own ordering state, sharing only
//! the transposition table; a helper skips any depth that half of the threads already
//! search, so that the threads spread over the next depths (with two, the helper keeps a
//! depth ahead) and fill the table with deeper results for the main thread, whose result is
//! the answer unless a helper completed a deeper iteration (with one line, a helper that
//! completes the depth limit first ends the search: time to depth).
//!
//! Nothing here may leave the caller without a legal move: a thread that cannot be started
//! is done without, a thread that panics is reported and its work replaced by the best
//! completed result of the others (or the first legal move).

use super::abdada::Busy;
use super::egdb::Tablebase;
use super::negamax::{Shared, Worker, static_eval};
use super::params::FORCED_REPLY_DEPTH;
use super::report::{Line, Reporter};
use super::time::TimeManager;
use super::tt::{Bound, TranspositionTable};
use super::{
    Features, MAX_PLY, Score, SearchControl, SearchInfo, SearchLimits, SearchResult, Turn,
};
use crate::egdb::{Outcome, Rated, rated_move};
use crate::games::{EvalConfig, Game};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::Duration;

/// Memory that must still be free before another helper starts, for what the running
/// threads allocate as they search (an allocation that fails aborts the process).
const MEMORY_MARGIN: usize = 32 << 20;

/// Whether `bytes` could be allocated now.
fn memory_left(bytes: usize) -> bool {
    Vec::<u8>::new().try_reserve_exact(bytes).is_ok()
}

/// Everything one search needs, as [`super::Engine::search`] hands it over.
pub(super) struct Job<'a, G: Game> {
    pub tt: &'a TranspositionTable,
    /// Threads asked for (the main one included).
    pub threads: usize,
    pub overhead_ms: u64,
    pub features: Features,
    /// What shapes the evaluation (Bashni's network).
    pub eval: &'a EvalConfig,
    /// Test hook: this thread panics after its search.
    pub fault: Option<usize>,
    pub pos: &'a G,
    pub history: &'a [u64],
    pub limits: &'a SearchLimits<G::Move>,
    pub control: &'a SearchControl,
    /// The game's endgame databases, if any.
    pub tb: Option<Arc<dyn Tablebase<G>>>,
    /// Most pieces of a probed position.
    pub tb_limit: u32,
    /// With one thread, search on the caller's thread (reports come when it is done).
    pub on_caller: bool,
}

/// What one thread brings back: its lines at its deepest completed depth and that depth, or
/// what went wrong.
type ThreadResult<M> = Result<(Vec<Line<M>>, u32), String>;

/// The answer chosen from the threads' results.
struct Choice<M> {
    score: Score,
    depth: u32,
    pv: Vec<M>,
}

/// The main search thread: started, or already done on the caller's thread.
enum Main<'scope, M> {
    Running(ScopedJoinHandle<'scope, ThreadResult<M>>),
    Done(ThreadResult<M>),
}

struct NoReport;

impl<M> Reporter<M> for NoReport {
    fn line(&mut self, _: u32, _: u32, _: usize, _: &Line<M>) -> bool {
        false
    }
    fn currmove(&mut self, _: u32, _: M, _: usize) {}
}

/// What the caller has been shown: every report goes to its `on_info` through here.
struct Shown<'f, M> {
    on_info: &'f mut (dyn FnMut(&SearchInfo<M>) + Send),
    /// The last exact first line shown.
    last: Option<SearchInfo<M>>,
    /// The deepest ply reported so far.
    seldepth: u32,
}

impl<M: Clone> Shown<'_, M> {
    fn show(&mut self, info: &SearchInfo<M>) {
        if info.multipv == 1 && info.bound == Bound::Exact {
            self.last = Some(info.clone());
        }
        self.seldepth = self.seldepth.max(info.seldepth);
        (self.on_info)(info);
    }
}

/// How reports reach the caller: through a channel that the caller's thread reads while
/// search threads run, or at once when the search runs on the caller's own thread (so that
/// its reports come while it searches, not when it is done).
enum Deliver<'a, 'f, M> {
    Channel(Sender<SearchInfo<M>>),
    Direct(&'a Mutex<Shown<'f, M>>),
}

impl<M: Clone> Deliver<'_, '_, M> {
    fn send(&self, info: SearchInfo<M>) {
        match self {
            Deliver::Channel(tx) => {
                let _ = tx.send(info);
            }
            Deliver::Direct(shown) => shown.lock().unwrap_or_else(|p| p.into_inner()).show(&info),
        }
    }
}

/// Sends reports to the caller. Depths are shown once each and in order, by the
/// thread that completes the next one first: with one line (MultiPV 1) helpers report too,
/// so that a depth a helper completes ahead of the main thread is shown as well.
struct ChannelReporter<'a, 'f, G: Game> {
    tx: Deliver<'a, 'f, G::Move>,
    shared: &'a Shared<'a, G>,
    /// Deepest depth whose first line was sent. Held while a line is decided on and sent,
    /// so that two threads completing consecutive depths at once send them in order.
    reported: &'a Mutex<u32>,
}

impl<G: Game> Reporter<G::Move> for ChannelReporter<'_, '_, G> {
    fn line(&mut self, depth: u32, seldepth: u32, index: usize, line: &Line<G::Move>) -> bool {
        let mut reported = self.reported.lock().unwrap_or_else(|p| p.into_inner());
        let show = if index == 1 && line.bound == Bound::Exact {
            let next = *reported == depth.saturating_sub(1);
            if next {
                *reported = depth;
            }
            next
        } else {
            // Other lines of the depth just shown, or a bound of the depth being searched.
            *reported + 1 >= depth
        };
        if show {
            self.tx
                .send(make_info(self.shared, depth, seldepth, index, line));
        }
        show
    }

    fn currmove(&mut self, depth: u32, m: G::Move, number: usize) {
        let line = Line {
            score: 0,
            bound: Bound::Exact,
            pv: Vec::new(),
        };
        let mut info = make_info(self.shared, depth, depth, 1, &line);
        info.currmove = Some((m, number));
        self.tx.send(info);
    }
}

fn make_info<G: Game>(
    shared: &Shared<G>,
    depth: u32,
    seldepth: u32,
    index: usize,
    line: &Line<G::Move>,
) -> SearchInfo<G::Move> {
    let time_ms = shared.time.elapsed_ms();
    let nodes = shared.total_nodes();
    SearchInfo {
        depth,
        seldepth: seldepth.max(depth),
        multipv: index,
        score: Score::from_internal(line.score, G::MAN),
        bound: line.bound,
        nodes,
        nps: nodes * 1000 / time_ms.max(1),
        hashfull: shared.tt.hashfull(),
        time_ms,
        pv: line.pv.clone(),
        tbhits: shared
            .tb
            .is_some()
            .then(|| shared.tbhits.load(Ordering::Relaxed)),
        currmove: None,
    }
}

/// Holds the answer back while `go infinite` or pondering goes on: the host's turn where it
/// has one (its input is what ends the wait), else a short sleep between looks.
fn wait_for_release<M>(limits: &SearchLimits<M>, control: &SearchControl) {
    while (limits.infinite && !control.is_stopped()) || control.is_pondering() {
        if !control.poll(Turn::Waiting) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// Runs one search on up to `job.threads` threads; see [`super::Engine::search`].
pub(super) fn run<G: Game>(
    job: &Job<G>,
    on_info: &mut (dyn FnMut(&SearchInfo<G::Move>) + Send),
) -> SearchResult<G::Move> {
    job.tt.new_search();
    let mut root_moves: Vec<G::Move> = job.pos.legal_moves().to_vec();
    if !job.limits.searchmoves.is_empty() {
        root_moves.retain(|m| job.limits.searchmoves.contains(m));
    }
    if let Some(tb) = &job.tb {
        keep_database_best(tb.as_ref(), job.tb_limit, job.pos, &mut root_moves);
    }
    // A single forced move under a clock is answered at once, after a search shallow enough
    // to cost nothing but deep enough that its score is real (a forced capture may win); a
    // shallower depth asked for (a weaker level's cap, `go depth`) still holds.
    let forced_limits;
    let limits = if root_moves.len() == 1 && job.timed_and_released() {
        let depth = job.limits.depth.unwrap_or(FORCED_REPLY_DEPTH);
        forced_limits = SearchLimits {
            depth: Some(depth.min(FORCED_REPLY_DEPTH)),
            ..job.limits.clone()
        };
        &forced_limits
    } else {
        job.limits
    };
    let shared = Shared {
        tt: job.tt,
        control: job.control,
        limits,
        time: TimeManager::new(
            limits,
            job.control,
            job.pos.side_to_move(),
            job.overhead_ms,
            G::MOVES_TO_GO,
        ),
        features: job.features,
        eval: job.eval,
        abort: AtomicBool::new(false),
        nodes: (0..job.threads).map(|_| AtomicU64::new(0)).collect(),
        searching: (0..MAX_PLY).map(|_| AtomicU32::new(0)).collect(),
        busy: (job.threads > 1).then(Busy::new),
        unshown: Mutex::new(None),
        tb: job.tb.as_deref(),
        tb_limit: job.tb_limit,
        tbhits: AtomicU64::new(0),
    };
    if let Some(result) = answer_without_search(job, &root_moves) {
        return result;
    }
    let mut notes = Vec::new();
    let choice = search_on_threads(job, &shared, &root_moves, &mut notes, on_info);
    let choice = choice.unwrap_or_else(|| Choice {
        score: Score::from_internal(static_eval(job.eval, job.pos), G::MAN),
        depth: 0,
        pv: vec![root_moves[0]],
    });
    SearchResult {
        best: choice.pv.first().copied(),
        ponder: choice.pv.get(1).copied(),
        score: choice.score,
        depth: choice.depth,
        nodes: shared.total_nodes(),
        pv: choice.pv,
        notes,
    }
}

impl<G: Game> Job<'_, G> {
    /// Whether a clock limits this search and nothing holds its answer back.
    fn timed_and_released(&self) -> bool {
        let l = self.limits;
        let timed = l.movetime.is_some() || l.wtime.is_some() || l.btime.is_some();
        timed && !l.infinite && !self.control.is_pondering()
    }
}

/// A root position the databases hold: only the moves that keep its value stay, and of
/// wins only those that reach the next capture or man move soonest (so that the rule's clock
/// never runs out on a won game). Moves whose position has no table leave the list as it is.
fn keep_database_best<G: Game>(
    tb: &dyn Tablebase<G>,
    limit: u32,
    pos: &G,
    moves: &mut Vec<G::Move>,
) {
    let mut probe = tb.prober();
    let mut rated: Vec<Rated> = Vec::with_capacity(moves.len());
    for m in moves.iter() {
        let child = pos.played(m);
        match probe.probe(&child, limit) {
            Some(v) => rated.push(rated_move(pos, &child, v, tb.clock_limit())),
            None => return,
        }
    }
    let Some(best) = rated.iter().min_by_key(|r| r.best_first()).copied() else {
        return;
    };
    // A win keeps only the soonest conversions; a draw or a loss every move that keeps it,
    // for the search to choose among.
    let keep = |r: &Rated| match best.outcome {
        Outcome::Win => r.best_first() == best.best_first(),
        o => r.outcome == o,
    };
    let mut i = 0;
    moves.retain(|_| {
        i += 1;
        keep(&rated[i - 1])
    });
}

/// No legal move: nothing to think about, the side to move has lost.
fn answer_without_search<G: Game>(
    job: &Job<G>,
    root_moves: &[G::Move],
) -> Option<SearchResult<G::Move>> {
    if !root_moves.is_empty() {
        return None;
    }
    wait_for_release(job.limits, job.control);
    Some(SearchResult {
        best: None,
        ponder: None,
        score: Score::from_internal(-super::WIN, G::MAN),
        depth: 0,
        nodes: 0,
        pv: Vec::new(),
        notes: Vec::new(),
    })
}

/// Starts search thread `id`, its state built here (where a failed allocation is easier to
/// foresee) and moved in, to run [`run_worker`]. An error says why the thread could not
/// start.
fn spawn_worker<'scope, 'env, G: Game>(
    s: &'scope Scope<'scope, 'env>,
    id: usize,
    job: &'env Job<'env, G>,
    shared: &'env Shared<'env, G>,
    root: &'env [G::Move],
    reporter: Box<dyn Reporter<G::Move> + Send + 'scope>,
) -> Result<ScopedJoinHandle<'scope, ThreadResult<G::Move>>, String> {
    if id > 0 && !memory_left(MEMORY_MARGIN) {
        return Err("not enough memory".to_string());
    }
    let worker = Worker::new(id, shared, job.history, root.to_vec(), reporter);
    std::thread::Builder::new()
        .name(format!("bashni-search-{id}"))
        .stack_size(super::Engine::STACK_BYTES)
        .spawn_scoped(s, move || run_worker(job, shared, worker))
        .map_err(|e| e.to_string())
}

/// Runs `worker`'s search under `catch_unwind` (a panic comes back as an error message).
/// The main thread (0), once done, holds its answer while the search must not end yet, then
/// stops the helpers.
fn run_worker<G: Game>(
    job: &Job<G>,
    shared: &Shared<G>,
    mut worker: Worker<G>,
) -> ThreadResult<G::Move> {
    let id = worker.id;
    let work = AssertUnwindSafe(|| {
        let result = worker.iterate(job.pos);
        if job.fault == Some(id) {
            panic!("fault injected into search thread {id}");
        }
        result
    });
    let result = catch_unwind(work).map_err(|p| {
        let what = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".to_string());
        format!("search thread {id} panicked: {what}")
    });
    drop(worker); // and its reporter: the last report is sent
    if id == 0 {
        wait_for_release(job.limits, job.control);
    }
    // Whoever ends (the main thread, or a thread that failed) stops the helpers.
    if id == 0 || result.is_err() {
        shared.abort.store(true, Ordering::SeqCst);
    }
    result
}

/// The main search thread started, or (alone, and asked to) run on this thread, its reports
/// waiting in the channel until it is done. `None`, with a note, when it cannot start.
fn start_main<'scope, 'env, G: Game>(
    s: &'scope Scope<'scope, 'env>,
    job: &'env Job<'env, G>,
    shared: &'env Shared<'env, G>,
    root: &'env [G::Move],
    reporter: Box<dyn Reporter<G::Move> + Send + 'scope>,
    notes: &mut Vec<String>,
) -> Option<Main<'scope, G::Move>> {
    if job.on_caller && job.threads == 1 {
        let worker = Worker::new(0, shared, job.history, root.to_vec(), reporter);
        return Some(Main::Done(run_worker(job, shared, worker)));
    }
    match spawn_worker(s, 0, job, shared, root, reporter) {
        Ok(h) => Some(Main::Running(h)),
        Err(e) => {
            notes.push(format!("error: cannot start the search thread: {e}"));
            wait_for_release(job.limits, job.control);
            None
        }
    }
}

/// Runs the main thread and as many helpers as start, forwards their reports to `on_info`,
/// and chooses the answer. `None` when no thread produced a line (the caller falls back to
/// the first legal move). What went wrong goes to `notes`.
fn search_on_threads<G: Game>(
    job: &Job<G>,
    shared: &Shared<G>,
    root: &[G::Move],
    notes: &mut Vec<String>,
    on_info: &mut (dyn FnMut(&SearchInfo<G::Move>) + Send),
) -> Option<Choice<G::Move>> {
    let one_line = job.limits.multipv <= 1;
    let reported = Mutex::new(0);
    let (tx, rx) = channel::<SearchInfo<G::Move>>();
    let shown = Mutex::new(Shown {
        on_info,
        last: None,
        seldepth: 0,
    });
    let direct = job.on_caller && job.threads == 1;
    let reporter = |tx: &Sender<SearchInfo<G::Move>>| ChannelReporter {
        tx: if direct {
            Deliver::Direct(&shown)
        } else {
            Deliver::Channel(tx.clone())
        },
        shared,
        reported: &reported,
    };
    std::thread::scope(|s| {
        // 1. The main thread first: without it there is no search.
        let main = start_main(s, job, shared, root, Box::new(reporter(&tx)), notes)?;
        // 2. Helpers: a thread that cannot be started (no memory for its stack) leaves the
        //    search to those that did.
        let mut helpers = Vec::new();
        for id in 1..job.threads {
            let rep: Box<dyn Reporter<G::Move> + Send> = if one_line {
                Box::new(reporter(&tx))
            } else {
                Box::new(NoReport)
            };
            match spawn_worker(s, id, job, shared, root, rep) {
                Ok(h) => helpers.push(h),
                Err(e) => {
                    notes.push(format!(
                        "error: only {id} of {} search threads could be started ({e}); \
                         searching with {id}",
                        job.threads
                    ));
                    break;
                }
            }
        }
        drop(tx);
        // 3. Reports, as they come, until every thread is done.
        let mut shown = shown.lock().unwrap_or_else(|p| p.into_inner());
        for info in rx {
            shown.show(&info);
        }
        let last = shown.last.take();
        // 4. The answer: the main thread's, unless a helper completed a deeper iteration
        //    (with several lines only the main thread has them all).
        let joined = |h: ScopedJoinHandle<'_, ThreadResult<G::Move>>| {
            h.join()
                .unwrap_or_else(|_| Err("a search thread panicked".to_string()))
        };
        let main = match main {
            Main::Running(h) => joined(h),
            Main::Done(r) => r,
        };
        let main_ok = main.is_ok();
        let mut best =
            take_result(main, notes, G::MAN).or_else(|| last.as_ref().map(choice_of_info));
        for h in helpers {
            if let Some(c) = take_result(joined(h), notes, G::MAN)
                && (one_line || !main_ok)
                && best.as_ref().is_none_or(|b| c.depth > b.depth)
            {
                best = Some(c);
            }
        }
        // 5. The last line shown is the answer's: a helper may have shown a depth first
        //    that the main thread then completed with another line, or the answer may come
        //    from a deeper helper iteration that was not shown.
        if let Some(c) = &best
            && last
                .as_ref()
                .is_none_or(|l| l.depth != c.depth || l.pv != c.pv)
        {
            let line = Line {
                score: c.score.to_internal(G::MAN),
                bound: Bound::Exact,
                pv: c.pv.clone(),
            };
            // Its seldepth is the deepest ply reported so far (make_info keeps it at least
            // the depth).
            let info = make_info(shared, c.depth, shown.seldepth, 1, &line);
            (shown.on_info)(&info);
        }
        best
    })
}

/// A thread's first line as an answer; a failure becomes a note.
fn take_result<M>(r: ThreadResult<M>, notes: &mut Vec<String>, man: i32) -> Option<Choice<M>> {
    match r {
        Ok((lines, depth)) => lines
            .into_iter()
            .next()
            .filter(|l| !l.pv.is_empty())
            .map(|l| Choice {
                score: Score::from_internal(l.score, man),
                depth,
                pv: l.pv,
            }),
        Err(e) => {
            notes.push(format!("error: {e}"));
            None
        }
    }
}

fn choice_of_info<M: Clone>(info: &SearchInfo<M>) -> Choice<M> {
    Choice {
        score: info.score,
        depth: info.depth,
        pv: info.pv.clone(),
    }
}

#[cfg(test)]
mod tests {
    use crate::games::bashni::Position;
    use crate::games::kit::rules::Rules;
    use crate::search::{Engine, SearchControl, SearchInfo, SearchLimits};

    /// A search on the caller's thread is the same search as on a thread of its own (same
    /// move, score and node count) and still reports every depth, once it is done.
    #[test]
    fn a_search_on_the_calling_thread_is_the_same_search() {
        let start = Position::startpos();
        let pos = start.played(&start.legal_moves()[2]);
        let limits = SearchLimits {
            nodes: Some(20_000),
            ..SearchLimits::default()
        };
        let run = |on_caller: bool| {
            let mut engine = Engine::new();
            engine.search_on_calling_thread(on_caller);
            let mut depths = Vec::new();
            let r = std::thread::scope(|s| {
                let search = || {
                    let control = SearchControl::new(false);
                    let mut seen = |i: &SearchInfo<_>| depths.push(i.depth);
                    engine.search(&pos, &[], &limits, &control, &mut seen)
                };
                let thread = Engine::spawn_with_search_stack(s, search).unwrap();
                thread.join().unwrap()
            });
            (r.best, r.score, r.nodes, r.pv, depths)
        };
        let (threaded, here) = (run(false), run(true));
        assert_eq!(threaded, here);
        assert!(here.4.len() >= 3, "reports: {:?}", here.4);
    }
}
