//! Time management: how long to think, from the clock or a fixed limit.

use super::params::{
    TIME_HARD_OF_LEFT, TIME_HARD_PER_BASE, TIME_INC_USED, TIME_MAX_MOVES_TO_GO, TIME_MOVES_TO_GO,
    TIME_SOFT_OF_BASE,
};
use super::{SearchControl, SearchLimits};
use crate::games::kit::color::Color;
use std::time::{Duration, Instant};

/// Limits of one search, resolved to durations.
#[derive(Clone, Debug)]
pub struct TimeManager {
    /// The search's one clock: [`SearchControl::started`].
    start: Instant,
    /// Do not start a new iteration after this.
    soft: Option<Duration>,
    /// Stop at once after this.
    hard: Option<Duration>,
}

impl TimeManager {
    /// Resolves `limits` for the side `us` with `overhead_ms` kept in reserve; time counts
    /// from when `control`'s search was asked for.
    pub fn new<M>(
        limits: &SearchLimits<M>,
        control: &SearchControl,
        us: Color,
        overhead_ms: u64,
    ) -> TimeManager {
        let start = control.started();
        if limits.infinite {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms.min(mt / 2)).max(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
            };
        }
        let (time, inc) = match us {
            Color::White => (limits.wtime, limits.winc.unwrap_or(0)),
            Color::Black => (limits.btime, limits.binc.unwrap_or(0)),
        };
        let Some(time) = time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        // Keep the overhead in reserve, then spread what is left over the moves to come.
        let left = time.saturating_sub(overhead_ms).max(1);
        let moves_to_go = limits
            .movestogo
            .unwrap_or(TIME_MOVES_TO_GO)
            .clamp(1, TIME_MAX_MOVES_TO_GO) as u64;
        let base = left / moves_to_go + inc * TIME_INC_USED.0 / TIME_INC_USED.1;
        let hard = (base * TIME_HARD_PER_BASE)
            .min(left * TIME_HARD_OF_LEFT.0 / TIME_HARD_OF_LEFT.1)
            .max(1);
        let soft = base.min(hard).max(1) * TIME_SOFT_OF_BASE.0 / TIME_SOFT_OF_BASE.1;
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft.max(1))),
            hard: Some(Duration::from_millis(hard)),
        }
    }

    /// Milliseconds since the search was asked for (pondering included: this is the time
    /// `info` lines report, not the time charged to the clock).
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Time charged to our clock: counted from `ponderhit` after pondering, `None` while
    /// still pondering (no limit applies then).
    fn clock_elapsed(&self, control: &SearchControl) -> Option<Duration> {
        if control.is_pondering() {
            return None;
        }
        let since = control.ponderhit_offset();
        Some(self.start.elapsed().saturating_sub(since))
    }

    /// Whether the hard limit has passed (checked inside the search).
    pub fn hard_expired(&self, control: &SearchControl) -> bool {
        match (self.hard, self.clock_elapsed(control)) {
            (Some(h), Some(e)) => e >= h,
            _ => false,
        }
    }

    /// Whether a new iteration should not be started.
    pub fn soft_expired(&self, control: &SearchControl) -> bool {
        match (self.soft, self.clock_elapsed(control)) {
            (Some(s), Some(e)) => e >= s,
            _ => false,
        }
    }
}
