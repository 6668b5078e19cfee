//! The review of one game as its session keeps it: the report so far, and the control that
//! stops the review's search. It lives in the game's [`super::session::Session`], so closing
//! the game stops the review at once and frees the report with the game.
//!
//! A report and the events that build it have one shape: `{"run", "from", "done", "total",
//! "running", "budget", "moves": [...], "summary"}`, where `moves` holds the entries of plies
//! `from + 1` to `done`. The whole report (`GET .../review`, and the first `review` event of a
//! stream opened while the game has one) has `from` 0; each later event carries only what
//! changed (the move just reviewed), so a review's events grow with its length, not its square.
//! `run` counts the reviews of the game: a new review starts again at `from` 0.

use super::json::{self, Value};
use crate::search::SearchControl;
use std::sync::Arc;

/// One game's review (none before the first).
#[derive(Default)]
pub struct GameReview {
    /// Reviews started on this game (0: none yet).
    run: u64,
    /// Whether the review of run `run` still runs.
    running: bool,
    /// Moves to review.
    total: usize,
    /// What each position is searched with (`{"nodes": n}`, ...).
    budget: Value,
    /// The entries of the moves reviewed so far, ply 1 first.
    moves: Vec<Value>,
    /// Per side: marks and average loss.
    summary: Value,
    /// Stops the running review's search.
    control: Option<Arc<SearchControl>>,
}

impl GameReview {
    /// Whether a review runs.
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// Starts review number [`GameReview::run`] of `total` moves at `budget`, stopped by
    /// `control`; returns its first report (`from` 0, nothing reviewed).
    pub fn begin(
        &mut self,
        total: usize,
        control: Arc<SearchControl>,
        summary: Value,
        budget: Value,
    ) -> Value {
        self.run += 1;
        self.budget = budget;
        self.running = true;
        self.total = total;
        self.moves = Vec::new();
        self.summary = summary;
        self.control = Some(control);
        self.report(0)
    }

    /// The number of the latest review.
    pub fn run(&self) -> u64 {
        self.run
    }

    /// Review `run` reviewed one more move (`entry`), or ended (`running` false): the event
    /// that says so, or None when that review is no longer this game's (a newer one began,
    /// or the game was closed).
    pub fn record(
        &mut self,
        run: u64,
        entry: Option<Value>,
        summary: Value,
        running: bool,
    ) -> Option<Value> {
        if run != self.run || !self.running {
            return None;
        }
        let from = self.moves.len();
        self.moves.extend(entry);
        self.summary = summary;
        self.running = running;
        if !running {
            self.control = None;
        }
        Some(self.report(from))
    }

    /// The whole report, if the game has been reviewed.
    pub fn whole(&self) -> Option<Value> {
        (self.run > 0).then(|| self.report(0))
    }

    /// The game is closed: the review's search stops now, later reports of it are dropped,
    /// and the report is freed.
    pub fn close(&mut self) {
        if let Some(c) = self.control.take() {
            c.stop();
        }
        self.running = false;
        self.moves = Vec::new();
        self.summary = Value::Null;
    }

    /// The report with the entries from ply `from + 1` on.
    fn report(&self, from: usize) -> Value {
        json::object([
            ("run", Value::from(self.run)),
            ("from", Value::from(from)),
            ("done", Value::from(self.moves.len())),
            ("total", Value::from(self.total)),
            ("running", Value::from(self.running)),
            ("budget", self.budget.clone()),
            ("moves", Value::Array(self.moves[from..].to_vec())),
            ("summary", self.summary.clone()),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(v: &Value, k: &str) -> u64 {
        v.get(k).and_then(Value::as_u64).unwrap()
    }

    #[test]
    fn events_carry_what_changed_and_the_whole_report_adds_up() {
        let mut r = GameReview::default();
        assert!(r.whole().is_none());
        let first = r.begin(3, SearchControl::new(false), Value::Null, Value::Null);
        assert_eq!((num(&first, "run"), num(&first, "done")), (1, 0));
        for ply in 1..=3u64 {
            let ev = r
                .record(1, Some(Value::from(ply)), Value::Null, true)
                .unwrap();
            assert_eq!((num(&ev, "from"), num(&ev, "done")), (ply - 1, ply));
            assert_eq!(ev.get("moves"), Some(&Value::Array(vec![Value::from(ply)])));
        }
        let end = r.record(1, None, Value::Null, false).unwrap();
        assert_eq!(end.get("running"), Some(&Value::Bool(false)));
        assert_eq!(end.get("moves"), Some(&Value::Array(vec![])));
        let whole = r.whole().unwrap();
        assert_eq!((num(&whole, "from"), num(&whole, "done")), (0, 3));
        assert!(r.record(1, None, Value::Null, false).is_none(), "it ended");
    }

    #[test]
    fn a_new_review_or_a_closed_game_drops_the_old_reports() {
        let mut r = GameReview::default();
        r.begin(5, SearchControl::new(false), Value::Null, Value::Null);
        let control = SearchControl::new(false);
        r.begin(5, control.clone(), Value::Null, Value::Null);
        assert!(
            r.record(1, Some(Value::from(1)), Value::Null, true)
                .is_none()
        );
        assert!(
            r.record(2, Some(Value::from(1)), Value::Null, true)
                .is_some()
        );
        r.close();
        assert!(control.is_stopped(), "closing stops the search");
        assert!(!r.is_running());
        assert!(
            r.record(2, Some(Value::from(2)), Value::Null, true)
                .is_none()
        );
        assert_eq!(num(&r.whole().unwrap(), "done"), 0, "the report is freed");
    }
}
