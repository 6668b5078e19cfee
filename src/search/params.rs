//! Every tunable constant of the search, in one place (the evaluation's weights live in
//! `eval::WEIGHTS`). Changing one of these changes the bench fingerprint.

/// Half-width of the first aspiration window around the previous iteration's score.
pub const ASPIRATION_DELTA: i32 = 40;
/// Aspiration windows start at this depth (shallower iterations use a full window).
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// Factor the window grows by after each fail.
pub const ASPIRATION_GROWTH: i32 = 3;
/// Past this half-width the window opens fully.
pub const ASPIRATION_MAX_DELTA: i32 = 1000;
/// Fail-high/low reports are shown once the search has run this long (ms).
pub const ASPIRATION_REPORT_MS: u64 = 1000;
/// `info currmove` lines are shown once the search has run this long (ms).
pub const CURRMOVE_REPORT_MS: u64 = 1000;

/// Late-move reductions apply from this remaining depth...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ... to moves from this index on (0-based; the first moves are searched in full).
pub const LMR_MIN_INDEX: usize = 3;
/// Reduction = `LMR_BASE + ln(depth) * ln(index) / LMR_DIVISOR`, at most `depth - 2`.
pub const LMR_BASE: f64 = 0.4;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.6;

/// With several threads, a move whose position another thread is searching is left for later
/// at this remaining depth and above (shallower nodes cost less than the bookkeeping)...
pub const DEFER_MIN_DEPTH: i32 = 3;
/// ... at most this many moves of a node.
pub const DEFER_MAX: usize = 32;

/// Reverse futility pruning applies at this remaining depth and below...
pub const RFP_MAX_DEPTH: i32 = 3;
/// ... when the static evaluation beats beta by this much per ply of depth...
pub const RFP_MARGIN: i32 = 90;
/// ... and the side to move commands at least this many towers (with fewer it can be left
/// without a move within the skipped plies, which the evaluation cannot see).
pub const RFP_MIN_COMMANDERS: u32 = 3;

/// Ordering score of the transposition-table move (above everything else).
pub const ORDER_TT_MOVE: i32 = 1 << 30;
/// Ordering score of a capture, before what it takes is added.
pub const ORDER_CAPTURE: i32 = 1 << 24;
/// Ordering score of the first killer (the second scores one less).
pub const ORDER_KILLER: i32 = 1 << 22;
/// History scores stay within +- this (well below the killers).
pub const HISTORY_MAX: i32 = 16384;
/// Largest history bonus for one cutoff (the bonus is depth squared).
pub const HISTORY_MAX_BONUS: i32 = 400;

/// Depth of the search that scores a single forced root move under a clock.
pub const FORCED_REPLY_DEPTH: u32 = 4;

/// Time management: a `movestogo` (or the game's [`crate::games::Game::MOVES_TO_GO`])
/// counts as at most this many moves.
pub const TIME_MAX_MOVES_TO_GO: u32 = 50;
/// Share of the increment added to a move's base time (numerator, denominator).
pub const TIME_INC_USED: (u64, u64) = (3, 4);
/// The hard limit (stop at once) is this many times the base time...
pub const TIME_HARD_PER_BASE: u64 = 4;
/// ... but at most this share of the time left (numerator, denominator).
pub const TIME_HARD_OF_LEFT: (u64, u64) = (2, 5);
/// No new iteration starts after this share of the base time (numerator, denominator).
pub const TIME_SOFT_OF_BASE: (u64, u64) = (6, 10);

/// The time trend ([`super::time::Trend`]): the soft limit's factor for a settled search...
pub const TIME_SETTLED: f64 = 0.75;
/// ... plus this for each recent change of the best move (the count halves every
/// iteration)...
pub const TIME_PER_CHANGE: f64 = 0.9;
/// ... times one plus the score's fall since the last iteration in men over this, within
/// [`TIME_FALL_RANGE`].
pub const TIME_FALL_MEN: f64 = 2.0;
/// The fall's factor stays within these.
pub const TIME_FALL_RANGE: (f64, f64) = (0.8, 1.5);
/// The trend is read from this depth on (the first iterations change their mind cheaply).
pub const TIME_TREND_MIN_DEPTH: i32 = 5;
