//! The search: iterative deepening, PVS with aspiration windows, quiescence over captures, a
//! shared transposition table and Lazy SMP threads.
//!
//! [`Engine`] is what the protocol and the command line drive: it owns the transposition
//! table and the options, and each call to [`Engine::search`] runs one search.

mod abdada;
mod deepen;
pub mod egdb;
mod negamax;
pub mod ordering;
mod params;
pub mod pool;
mod report;
mod score;
pub mod skill;
mod threads;
pub mod time;
pub mod tt;

use crate::games::kit::moves::Move;
use crate::games::kit::nnue::stack::network_for;
use crate::games::kit::nnue::{Accumulator, FeatureSet, Network};
use crate::games::{EvalConfig, Game};
use crate::platform::Instant;
use rand::SeedableRng;
use rand::rngs::StdRng;
pub use score::{Score, centi_men, internal_units};
pub(crate) use score::{from_tt, to_tt};
pub use skill::Strength;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
pub use tt::{Bound, TableError, TranspositionTable};

pub use crate::games::kit::game::MAX_PLY;
/// Deepest iteration a search runs (room is left below [`MAX_PLY`] for extensions and
/// quiescence); `go depth` accepts up to this.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 8;

/// Score of a won position at the root; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this (in absolute value) are wins or losses.
pub const WIN_BOUND: i32 = WIN - 1000;
/// Scores are never outside +-INFINITY.
pub const INFINITY: i32 = WIN + 1;
/// From this many centi-men on (ten men, either way) a score shown to a person is a
/// decisive-win form (`winning`, `losing`) instead of a figure: ten men up is won in every
/// game, and the evaluation's scores there (a won Bashni position can read +38 with 12 men a
/// side) mean "won", not "38 men up". The protocol's `cp` keeps the
/// full range.
pub const DECISIVE_CP: i32 = 1000;

/// What limits a search of a game whose moves are `M` (Bashni's by default). The default
/// (all `None`/`false`, one line) searches until stopped or until the deepest depth the
/// search allows ([`MAX_DEPTH`]).
#[derive(Clone, Debug)]
pub struct SearchLimits<M = Move> {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Exact time to think, ms.
    pub movetime: Option<u64>,
    /// White's clock, ms.
    pub wtime: Option<u64>,
    /// Black's clock, ms.
    pub btime: Option<u64>,
    /// White's increment, ms.
    pub winc: Option<u64>,
    /// Black's increment, ms.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Restrict the root to these moves (empty = all).
    pub searchmoves: Vec<M>,
    /// Number of principal variations to report (1 = normal).
    pub multipv: usize,
    /// Stop once a win in at most this many own moves is proven (`go mate N`).
    pub mate: Option<u32>,
}

impl<M> Default for SearchLimits<M> {
    fn default() -> Self {
        SearchLimits {
            depth: None,
            nodes: None,
            movetime: None,
            wtime: None,
            btime: None,
            winc: None,
            binc: None,
            movestogo: None,
            infinite: false,
            searchmoves: Vec::new(),
            multipv: 1,
            mate: None,
        }
    }
}

/// What a search is doing when it gives its host a turn ([`Poll`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Searching: called every few hundred nodes; the host decides how often it really
    /// hands control to its event loop.
    Working,
    /// Done, holding its answer until `stop` or `ponderhit` (`go infinite`, pondering): the
    /// host may wait for its next input.
    Waiting,
}

/// The host's turn while a search runs on the host's only thread (WebAssembly in a Web
/// Worker): it reads the input that came meanwhile and acts on it (`stop` stops the search
/// through its [`SearchControl`], `isready` is answered), as the protocol's reader thread does
/// natively. A plain function, so that the control stays shareable between threads.
pub type Poll = fn(Turn);

/// Shared between the searcher and whoever controls it (the protocol's reader thread).
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When the search was asked for: the one clock of the search ([`time::TimeManager`]
    /// counts from it, and `ponderhit` is recorded as an offset from it).
    started: Instant,
    ponderhit_ms: AtomicU64,
    /// The host's turn, where the search runs on the host's thread; `None` natively.
    poll: Option<Poll>,
}

impl SearchControl {
    /// A fresh control; `ponder` starts the search in pondering mode (no time limit until
    /// [`SearchControl::ponderhit`]).
    pub fn new(ponder: bool) -> Arc<SearchControl> {
        Self::polled(ponder, None)
    }

    /// A fresh control whose search gives `poll` a turn every few hundred nodes and while it
    /// holds its answer (see [`Poll`]).
    pub fn polled(ponder: bool, poll: Option<Poll>) -> Arc<SearchControl> {
        Arc::new(SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
            started: Instant::now(),
            ponderhit_ms: AtomicU64::new(0),
            poll,
        })
    }

    /// Gives the host its turn, if it has one; whether it has.
    pub fn poll(&self, turn: Turn) -> bool {
        match self.poll {
            Some(poll) => {
                poll(turn);
                true
            }
            None => false,
        }
    }

    /// Asks the search to finish now (it returns within milliseconds).
    pub fn stop(&self) {
        self.pondering.store(false, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the expected move: the clock now runs.
    pub fn ponderhit(&self) {
        let ms = self.started.elapsed().as_millis() as u64;
        self.ponderhit_ms.store(ms, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether a stop was requested.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the search is still pondering.
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// When the search was asked for.
    pub fn started(&self) -> Instant {
        self.started
    }

    fn ponderhit_offset(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.ponderhit_ms.load(Ordering::Relaxed))
    }
}

/// One `info` report: a completed (or fail-high/low) iteration of one PV line.
#[derive(Clone, Debug)]
pub struct SearchInfo<M = Move> {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Index of this line (1-based).
    pub multipv: usize,
    /// Score of the line.
    pub score: Score,
    /// Whether the score is exact or a bound (aspiration fail).
    pub bound: Bound,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// TT use, per mille.
    pub hashfull: u32,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Principal variation.
    pub pv: Vec<M>,
    /// Positions the endgame databases answered so far (all threads); `None` when the
    /// search has no database for its game.
    pub tbhits: Option<u64>,
    /// Set on a progress report instead of a line: the root move being searched now and its
    /// 1-based number in the search order (`info currmove M currmovenumber K`).
    pub currmove: Option<(M, usize)>,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M = Move> {
    /// Best move (`None` when there is no legal move).
    pub best: Option<M>,
    /// Expected reply.
    pub ponder: Option<M>,
    /// Score of the best move.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Full principal variation.
    pub pv: Vec<M>,
    /// What went wrong on the way and was worked around (a search thread that could not
    /// start or panicked), one line each; front ends show them (`info string <note>`).
    pub notes: Vec<String>,
}

/// Search features that can be switched off, so that self-play can show what each is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Reverse futility pruning at depth <= 3.
    pub rfp: bool,
    /// Extend by a ply when only one move is legal (forced captures).
    pub single_reply_extension: bool,
    /// Under a clock, stretch the time of a move whose best move keeps changing or whose
    /// score falls, and shorten it when both are settled ([`time::Trend`]).
    pub time_trend: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            aspiration: true,
            lmr: true,
            rfp: true,
            single_reply_extension: true,
            time_trend: true,
        }
    }
}

impl Features {
    /// Option names, as the protocol shows them (`setoption name <name> value true|false`).
    pub const NAMES: [&'static str; 5] = [
        "Aspiration",
        "LMR",
        "RFP",
        "SingleReplyExtension",
        "TimeTrend",
    ];

    /// Switches the feature called `name`; false if there is none.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        let slot = match name.to_ascii_lowercase().as_str() {
            "aspiration" => &mut self.aspiration,
            "lmr" => &mut self.lmr,
            "rfp" => &mut self.rfp,
            "singlereplyextension" => &mut self.single_reply_extension,
            "timetrend" => &mut self.time_trend,
            _ => return false,
        };
        *slot = on;
        true
    }
}

/// The engine: options, the shared transposition table, and the search entry point.
pub struct Engine {
    tt: Arc<TranspositionTable>,
    threads: usize,
    move_overhead_ms: u64,
    /// Switchable search features (all on by default).
    pub features: Features,
    /// Test hook: the search thread with this index panics after its search.
    fault: Option<usize>,
    /// Playing strength (full unless a level or an Elo was asked for).
    strength: Strength,
    /// Randomness of the weaker levels' choices.
    rng: StdRng,
    /// A network loaded in place of its game's compiled-in one (`EvalFile`).
    network: Option<Arc<Network>>,
    /// Whether the network evaluates (otherwise the linear evaluation does).
    use_network: bool,
    /// Endgame databases (`EGDBPath`), if any.
    egdb: Option<egdb::Databases>,
    /// Most pieces of a position the databases are probed for (`EGDBProbeLimit`).
    egdb_limit: u32,
    /// A one-thread search runs on the caller's thread (see
    /// [`Engine::search_on_calling_thread`]).
    on_caller: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// Default hash size, MiB.
    pub const DEFAULT_HASH_MB: usize = 16;
    /// Default move overhead, ms.
    pub const DEFAULT_MOVE_OVERHEAD: u64 = 30;
    /// Most search threads the library runs (more are cut to this).
    pub const MAX_THREADS: usize = 256;
    /// Stack of each search thread: deep recursion with move lists on the stack.
    pub const STACK_BYTES: usize = 64 << 20;

    /// Most search threads worth running here: one per hardware thread (at most
    /// [`Engine::MAX_THREADS`]). Lazy SMP gains nothing from more, and on an oversubscribed
    /// machine the threads delay the clock checks, `stop` and the protocol's answers, so the
    /// protocol's `Threads` option goes no higher.
    pub fn max_useful_threads() -> usize {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, Self::MAX_THREADS)
    }

    /// One thread, a 16 MiB table (the smallest table if even that cannot be had).
    pub fn new() -> Engine {
        let tt = TranspositionTable::new(Self::DEFAULT_HASH_MB)
            .unwrap_or_else(|_| TranspositionTable::smallest());
        Engine {
            tt: Arc::new(tt),
            threads: 1,
            move_overhead_ms: Self::DEFAULT_MOVE_OVERHEAD,
            features: Features::default(),
            fault: None,
            strength: Strength::FULL,
            rng: StdRng::seed_from_u64(crate::platform::fresh_seed()),
            network: None,
            use_network: true,
            egdb: None,
            egdb_limit: egdb::DEFAULT_PROBE_LIMIT,
            on_caller: false,
        }
    }

    /// Evaluates `net`'s game with `net` from now on (when the network is in use); `None`:
    /// every game with its compiled-in network.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.network = net;
    }

    /// Evaluates with the network (`true`, the default) or the linear evaluation.
    pub fn use_network(&mut self, on: bool) {
        self.use_network = on;
    }

    /// The network's evaluation of `pos`, side to move's view (whether in use or not).
    pub fn network_eval<P: FeatureSet>(&self, pos: &P) -> i32 {
        let config = EvalConfig {
            use_network: true,
            network: self.network.clone(),
        };
        let net = network_for::<P>(&config).expect("the network is asked for");
        Accumulator::new(&net, pos).evaluate(&net, pos.side_to_move())
    }

    /// The static evaluation of `pos`, side to move's view, as the search sees it.
    pub fn static_eval<G: Game>(&self, pos: &G) -> i32 {
        negamax::static_eval(&self.eval_config(), pos)
    }

    /// What shapes the evaluation now: the network, if in use.
    fn eval_config(&self) -> EvalConfig {
        EvalConfig {
            use_network: self.use_network,
            network: self.network.clone(),
        }
    }

    /// Sets the playing strength ([`Strength::FULL`] unless weakened on purpose).
    pub fn set_strength(&mut self, strength: Strength) {
        self.strength = strength;
    }

    /// The playing strength.
    pub fn strength(&self) -> Strength {
        self.strength
    }

    /// Seeds the weaker levels' choices, so that their games can be replayed.
    pub fn seed_choices(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }

    /// Replaces the transposition table by an empty one of `mb` MiB. When the memory cannot
    /// be had the error says so and the current table (with its contents) stays.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), TableError> {
        self.tt = Arc::new(TranspositionTable::new(mb)?);
        Ok(())
    }

    /// Size of the transposition table, MiB.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mib()
    }

    /// Number of search threads, at least 1 and at most [`Engine::MAX_THREADS`].
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, Self::MAX_THREADS);
    }

    /// With one thread, searches on the calling thread instead of a thread started for each
    /// search, and hands the reports to `on_info` only when the search is done: for callers
    /// that search many short positions and read no report while it runs (data generation),
    /// to whom starting a thread with its stack is a cost. The caller's thread must have a
    /// stack of at least [`Engine::STACK_BYTES`]; [`Engine::spawn_with_search_stack`] starts
    /// one.
    pub fn search_on_calling_thread(&mut self, yes: bool) {
        self.on_caller = yes;
    }

    /// Starts a thread with a stack deep enough for a search on it (see
    /// [`Engine::search_on_calling_thread`]).
    pub fn spawn_with_search_stack<'scope, 'env, T: Send + 'scope>(
        s: &'scope std::thread::Scope<'scope, 'env>,
        f: impl FnOnce() -> T + Send + 'scope,
    ) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, T>> {
        std::thread::Builder::new()
            .stack_size(Self::STACK_BYTES)
            .spawn_scoped(s, f)
    }

    /// Time kept in reserve for communication, ms.
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.move_overhead_ms = ms;
    }

    /// Probes these endgame databases from now on (`None`: none). The table is cleared:
    /// its scores were found with other knowledge.
    pub fn set_egdb(&mut self, dbs: Option<egdb::Databases>) {
        self.egdb = dbs;
        self.tt.clear();
    }

    /// The endgame databases probed, if any.
    pub fn egdb(&self) -> Option<&egdb::Databases> {
        self.egdb.as_ref()
    }

    /// Probes the databases only for positions of at most `pieces` pieces.
    pub fn set_egdb_limit(&mut self, pieces: u32) {
        self.egdb_limit = pieces;
    }

    /// Empties the transposition table.
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Forgets everything learnt (new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// TT use, per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Test hook: makes search thread `thread` (0 = the main one) panic once its search is
    /// done, so that tests can check that a panic is reported and a legal move still comes.
    #[doc(hidden)]
    pub fn inject_search_panic(&mut self, thread: Option<usize>) {
        self.fault = thread;
    }

    /// Searches `pos`. `history` holds the hashes of the game's earlier positions (oldest
    /// first) for repetition detection. `on_info` is called on this thread for each report.
    /// Returns when a limit is reached or `control` is stopped; with `infinite` or while
    /// pondering it does not return before `stop` (or `ponderhit`).
    ///
    /// Below full strength the search is weakened (see [`skill`]): capped in depth, it
    /// reports at least [`skill::CANDIDATES`] lines and answers one of them, chosen at random
    /// with a preference for the better ones.
    pub fn search<G: Game>(
        &mut self,
        pos: &G,
        history: &[u64],
        limits: &SearchLimits<G::Move>,
        control: &SearchControl,
        on_info: &mut (dyn FnMut(&SearchInfo<G::Move>) + Send),
    ) -> SearchResult<G::Move> {
        let level = self.strength.draw_level(&mut self.rng);
        let Some(cap) = skill::depth_cap(level) else {
            let eval = self.eval_config();
            return self.search_full(pos, history, limits, control, &eval, on_info);
        };
        let weak = SearchLimits {
            depth: Some(limits.depth.map_or(cap, |d| d.min(cap))),
            multipv: limits.multipv.max(skill::CANDIDATES),
            ..limits.clone()
        };
        let expected = pos
            .legal_moves()
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .count()
            .min(weak.multipv);
        let mut lines = skill::Lines::new(expected);
        let mut eval = self.eval_config();
        eval.use_network &= !skill::linear_eval(level);
        let mut result = self.search_full(pos, history, &weak, control, &eval, &mut |info| {
            lines.see(info);
            on_info(info)
        });
        let candidates = lines.finish();
        if !candidates.is_empty() {
            let scores: Vec<Score> = candidates.iter().map(|l| l.score).collect();
            let pick = &candidates[skill::choose(level, &scores, &mut self.rng)];
            result.best = pick.pv.first().copied();
            result.ponder = pick.pv.get(1).copied();
            result.score = pick.score;
            result.pv = pick.pv.clone();
        }
        result
    }

    /// The search at full strength, evaluating with `eval`.
    fn search_full<G: Game>(
        &mut self,
        pos: &G,
        history: &[u64],
        limits: &SearchLimits<G::Move>,
        control: &SearchControl,
        eval: &EvalConfig,
        on_info: &mut (dyn FnMut(&SearchInfo<G::Move>) + Send),
    ) -> SearchResult<G::Move> {
        let job = threads::Job {
            tt: &self.tt,
            threads: self.threads,
            overhead_ms: self.move_overhead_ms,
            features: self.features,
            eval,
            fault: self.fault,
            pos,
            history,
            limits,
            control,
            tb: self.egdb.as_ref().and_then(egdb::Databases::of::<G>),
            tb_limit: self.egdb_limit,
            on_caller: self.on_caller,
        };
        threads::run(&job, on_info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{russian, turkish};

    /// Searches `fen` of game `G` to `depth` and returns the best move's text and the score.
    fn best<G: Game>(fen: &str, depth: u32) -> (Option<String>, Score) {
        let pos = G::from_fen(fen).unwrap();
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let control = SearchControl::new(false);
        let r = Engine::new().search(&pos, &[], &limits, &control, &mut |_| {});
        if let Some(m) = &r.best {
            assert!(pos.legal_moves().contains(m));
        }
        (r.best.map(|m| m.to_string()), r.score)
    }

    #[test]
    fn every_game_is_searched() {
        let (m, _) =
            best::<crate::games::bashni::Position>(crate::games::bashni::notation::START_FEN, 6);
        assert!(m.is_some());
        let (m, _) = best::<turkish::Position>(turkish::START_FEN, 6);
        assert!(m.is_some());
        let (m, _) = best::<russian::Position>(russian::START_FEN, 6);
        assert!(m.is_some());
    }

    #[test]
    fn a_turkish_king_against_a_man_is_a_win_the_search_sees() {
        // White's king takes the man on a2, leaving one king against the man on h2: a win
        // by that rule at once (Black still has a legal move).
        let (m, score) = best::<turkish::Position>("8/8/8/8/8/8/b6b/W7 w", 3);
        assert!(m.unwrap().starts_with("a1:a"));
        assert_eq!(score, Score::WinIn(1));
    }

    #[test]
    fn mate_distances_are_own_moves_everywhere() {
        let cases = [
            (Score::WinIn(1), Some(1), "mate 1", "win in 1 move"),
            (Score::WinIn(7), Some(4), "mate 4", "win in 4 moves"),
            (Score::LossIn(2), Some(-1), "mate -1", "loss in 1 move"),
            (Score::LossIn(6), Some(-3), "mate -3", "loss in 3 moves"),
            (Score::LossIn(0), Some(0), "mate -0", "lost"),
            (Score::Cp(-125), None, "cp -125", "-1.25"),
            (Score::Cp(7), None, "cp 7", "+0.07"),
            (Score::Cp(999), None, "cp 999", "+9.99"),
            (Score::Cp(1000), None, "cp 1000", "winning"),
            (Score::Cp(-3809), None, "cp -3809", "losing"),
        ];
        for (score, moves, protocol, human) in cases {
            assert_eq!(score.mate_moves(), moves, "{score:?}");
            assert_eq!(score.protocol(), protocol);
            assert_eq!(score.human(), human);
        }
    }
}
