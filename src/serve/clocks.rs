//! The two clocks of a game with a time control: time left per side, counted down while
//! that side is to move and the game runs, with an increment after each move.

use crate::games::kit::color::Color;
use crate::platform::Instant;

/// Time left for both sides.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Time left for White and Black, ms, as of `since` (negative once a flag has fallen).
    left: [i64; 2],
    /// Increment per move, ms.
    inc: i64,
    /// When `left` was last brought up to date.
    since: Instant,
}

fn ms_between(from: Instant, to: Instant) -> i64 {
    i64::try_from(to.saturating_duration_since(from).as_millis()).unwrap_or(i64::MAX)
}

impl Clocks {
    /// Both clocks at `base_ms`, increment `inc_ms`.
    pub fn new(base_ms: u64, inc_ms: u64, now: Instant) -> Clocks {
        let base = i64::try_from(base_ms).unwrap_or(i64::MAX);
        Clocks {
            left: [base; 2],
            inc: i64::try_from(inc_ms).unwrap_or(i64::MAX),
            since: now,
        }
    }

    /// Time left for White and Black at `now`, `side` to move and its clock running or not.
    pub fn left(&self, side: Color, running: bool, now: Instant) -> [i64; 2] {
        let mut left = self.left;
        if running {
            left[side.index()] = left[side.index()].saturating_sub(ms_between(self.since, now));
        }
        left
    }

    /// Charges the time since the last update to `side` if its clock was running; call it
    /// before anything that starts or stops a clock.
    pub fn settle(&mut self, side: Color, running: bool, now: Instant) {
        self.left = self.left(side, running, now);
        self.since = now;
    }

    /// Whether `side` has run out of time (as of the last [`Clocks::settle`]).
    pub fn fallen(&self, side: Color) -> bool {
        self.left[side.index()] < 0
    }

    /// The same clocks with `left` (White's and Black's ms, as of `now`) instead: a game
    /// opened again in place of a closed one goes on with the closed one's time.
    pub fn resumed(&self, left: [i64; 2], now: Instant) -> Clocks {
        Clocks {
            left,
            inc: self.inc,
            since: now,
        }
    }

    /// Adds the increment after a move by `side`.
    pub fn add_increment(&mut self, side: Color) {
        let i = side.index();
        self.left[i] = self.left[i].saturating_add(self.inc);
    }
}

/// The clocks of a closed game, kept by the registry so that the game a reloaded or reopened
/// page opens in its place goes on with them (a reload must not refill a clock).
#[derive(Clone, Debug)]
pub struct Retired {
    /// Time left for White and Black when the game was closed, ms (below 0 for a side whose
    /// flag had fallen).
    pub left: [i64; 2],
    /// The side whose clock was running then, if any.
    pub running: Option<Color>,
    /// The game's start position and moves then.
    pub start_fen: String,
    /// The moves of the line held then.
    pub moves: Vec<String>,
    /// When it was closed.
    pub at: Instant,
}

impl Retired {
    /// Time left for White and Black at `now` for a game that starts from `start_fen` with
    /// `moves`: the running side is charged the time since the close when it is the same
    /// game (its clock ran on while no page showed it); another line gets the times alone.
    pub fn left_at(&self, start_fen: &str, moves: &[String], now: Instant) -> [i64; 2] {
        let mut left = self.left;
        if let Some(side) = self
            .running
            .filter(|_| start_fen == self.start_fen && moves == self.moves)
        {
            left[side.index()] = left[side.index()].saturating_sub(ms_between(self.at, now));
        }
        left
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn only_the_running_side_is_charged() {
        let t0 = Instant::now();
        let mut c = Clocks::new(1000, 200, t0);
        let t1 = t0 + Duration::from_millis(300);
        assert_eq!(c.left(Color::White, true, t1), [700, 1000]);
        assert_eq!(c.left(Color::White, false, t1), [1000, 1000]);
        c.settle(Color::White, true, t1);
        c.add_increment(Color::White);
        assert_eq!(c.left(Color::Black, false, t1), [900, 1000]);
        // Paused for a while: nothing charged; then Black runs out.
        let t2 = t1 + Duration::from_millis(5000);
        c.settle(Color::Black, false, t2);
        assert!(!c.fallen(Color::Black));
        c.settle(Color::Black, true, t2 + Duration::from_millis(1001));
        assert!(c.fallen(Color::Black));
        assert!(!c.fallen(Color::White));
    }

    #[test]
    fn a_retired_clock_runs_on_for_the_same_game_only() {
        let t0 = Instant::now();
        let r = Retired {
            left: [5000, 7000],
            running: Some(Color::Black),
            start_fen: "start".into(),
            moves: vec!["c3-d4".into()],
            at: t0,
        };
        let t1 = t0 + Duration::from_millis(1500);
        assert_eq!(r.left_at("start", &r.moves.clone(), t1), [5000, 5500]);
        assert_eq!(r.left_at("start", &[], t1), [5000, 7000]);
        assert_eq!(r.left_at("other", &r.moves.clone(), t1), [5000, 7000]);
    }
}
