//! The two clocks of a game with a time control: time left per side, counted down while
//! that side is to move and the game runs, with an increment after each move.

use crate::games::kit::color::Color;
use std::time::Instant;

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

    /// Adds the increment after a move by `side`.
    pub fn add_increment(&mut self, side: Color) {
        let i = side.index();
        self.left[i] = self.left[i].saturating_add(self.inc);
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
}
