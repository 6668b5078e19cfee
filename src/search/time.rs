//! Time management: how long to think, from the clock or a fixed limit.

use super::params::{
    TIME_FALL_MEN, TIME_FALL_RANGE, TIME_HARD_OF_LEFT, TIME_HARD_PER_BASE, TIME_INC_USED,
    TIME_MAX_MOVES_TO_GO, TIME_PER_CHANGE, TIME_SETTLED, TIME_SOFT_OF_BASE,
};
use super::{SearchControl, SearchLimits, WIN_BOUND};
use crate::games::kit::color::Color;
use crate::platform::Instant;
use std::time::Duration;

/// Limits of one search, resolved to durations.
#[derive(Clone, Debug)]
pub struct TimeManager {
    /// The search's one clock: [`SearchControl::started`].
    start: Instant,
    /// Do not start a new iteration after this.
    soft: Option<Duration>,
    /// Stop at once after this.
    hard: Option<Duration>,
    /// Whether the soft limit may be stretched ([`Trend`]): under a clock, not for a fixed
    /// time a move (`movetime` asks for that time, and gets it).
    stretch: bool,
}

impl TimeManager {
    /// Resolves `limits` for the side `us` with `overhead_ms` kept in reserve, a clock's time
    /// spread over `moves_to_go` moves unless `limits` say how many; time counts from when
    /// `control`'s search was asked for.
    pub fn new<M>(
        limits: &SearchLimits<M>,
        control: &SearchControl,
        us: Color,
        overhead_ms: u64,
        moves_to_go: u32,
    ) -> TimeManager {
        let start = control.started();
        if limits.infinite {
            return TimeManager {
                start,
                soft: None,
                hard: None,
                stretch: false,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms.min(mt / 2)).max(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
                stretch: false,
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
                stretch: false,
            };
        };
        // Keep the overhead in reserve, then spread what is left over the moves to come.
        let left = time.saturating_sub(overhead_ms).max(1);
        let moves_to_go = limits
            .movestogo
            .unwrap_or(moves_to_go)
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
            stretch: true,
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
        self.soft_expired_by(control, 1.0)
    }

    /// Whether a new iteration should not be started, the soft limit of a clock stretched by
    /// `factor` (never past the hard limit; a fixed time a move is not stretched).
    pub fn soft_expired_by(&self, control: &SearchControl, factor: f64) -> bool {
        let factor = if self.stretch { factor } else { 1.0 };
        match (self.soft, self.clock_elapsed(control)) {
            (Some(s), Some(e)) => {
                let soft = s.mul_f64(factor.max(0.0));
                e >= self.hard.map_or(soft, |h| soft.min(h))
            }
            _ => false,
        }
    }
}

/// How the main thread's answer moved over its iterations, as Stockfish's time manager
/// reads it: a best move that keeps changing, or a falling score, is worth more of the time
/// kept for this move; a move that has stood for several iterations with a steady score is
/// played sooner.
#[derive(Debug)]
pub struct Trend<M> {
    /// Recent changes of the best move, each halved at every iteration.
    changes: f64,
    best: Option<M>,
    score: Option<i32>,
}

impl<M: PartialEq + Copy> Trend<M> {
    /// No iteration seen yet.
    pub fn new() -> Self {
        Trend {
            changes: 0.0,
            best: None,
            score: None,
        }
    }

    /// Records an iteration's best move and score (internal units, of which `man` is one
    /// man) and returns the factor for the soft limit.
    pub fn update(&mut self, best: Option<M>, score: i32, man: i32) -> f64 {
        self.changes /= 2.0;
        if self.best.is_some() && best != self.best {
            self.changes += 1.0;
        }
        let fall = match self.score {
            Some(prev) if prev.abs() < WIN_BOUND && score.abs() < WIN_BOUND => {
                let men = f64::from(prev - score) / f64::from(man.max(1));
                (1.0 + men / TIME_FALL_MEN).clamp(TIME_FALL_RANGE.0, TIME_FALL_RANGE.1)
            }
            _ => 1.0,
        };
        self.best = best;
        self.score = Some(score);
        (TIME_SETTLED + TIME_PER_CHANGE * self.changes) * fall
    }
}

impl<M: PartialEq + Copy> Default for Trend<M> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAN: i32 = 100;

    #[test]
    fn a_settled_search_plays_sooner_and_a_changing_one_thinks_longer() {
        let mut t = Trend::new();
        assert_eq!(t.update(Some(1), 20, MAN), TIME_SETTLED);
        assert_eq!(t.update(Some(1), 20, MAN), TIME_SETTLED);
        // A new best move: one change, halved at each later iteration.
        assert_eq!(t.update(Some(2), 20, MAN), TIME_SETTLED + TIME_PER_CHANGE);
        assert_eq!(
            t.update(Some(2), 20, MAN),
            TIME_SETTLED + TIME_PER_CHANGE / 2.0
        );
        assert_eq!(
            t.update(Some(3), 20, MAN),
            TIME_SETTLED + TIME_PER_CHANGE * 1.25
        );
    }

    #[test]
    fn a_falling_score_stretches_the_time_within_its_range() {
        let mut t = Trend::new();
        t.update(Some(1), 100, MAN);
        // Half a man down: 1 + 0.5 / TIME_FALL_MEN.
        let f = t.update(Some(1), 50, MAN);
        assert!(
            (f - TIME_SETTLED * (1.0 + 0.5 / TIME_FALL_MEN)).abs() < 1e-9,
            "{f}"
        );
        // Far down or far up: the range's ends.
        assert_eq!(
            t.update(Some(1), -900, MAN),
            TIME_SETTLED * TIME_FALL_RANGE.1
        );
        assert_eq!(
            t.update(Some(1), 900, MAN),
            TIME_SETTLED * TIME_FALL_RANGE.0
        );
        // A win found is no fall.
        assert_eq!(t.update(Some(1), WIN_BOUND + 5, MAN), TIME_SETTLED);
    }

    #[test]
    fn fewer_moves_to_go_spend_more_and_movestogo_overrides_the_game() {
        let control = SearchControl::new(false);
        let mut limits = SearchLimits::<u32> {
            wtime: Some(10_000),
            winc: Some(100),
            ..SearchLimits::default()
        };
        let soft = |l: &SearchLimits<u32>, mtg| {
            TimeManager::new(l, &control, Color::White, 0, mtg)
                .soft
                .unwrap()
        };
        assert!(soft(&limits, 15) > soft(&limits, 25));
        limits.movestogo = Some(40);
        assert_eq!(soft(&limits, 15), soft(&limits, 25));
    }

    #[test]
    fn the_stretched_soft_limit_stays_within_the_hard_one() {
        // 10 ms left: both limits are 1 ms.
        let limits = SearchLimits::<u32> {
            wtime: Some(10),
            ..SearchLimits::default()
        };
        let control = SearchControl::new(false);
        let tm = TimeManager::new(&limits, &control, Color::White, 0, 25);
        std::thread::sleep(Duration::from_millis(5));
        assert!(tm.soft_expired_by(&control, 100.0));
        // A fixed time a move is used in full, whatever the factor.
        let fixed = SearchLimits::<u32> {
            movetime: Some(60_000),
            ..SearchLimits::default()
        };
        let tm = TimeManager::new(&fixed, &control, Color::White, 0, 25);
        assert!(!tm.soft_expired_by(&control, 0.0));
        // No clock: nothing expires, whatever the factor.
        let free = TimeManager::new(
            &SearchLimits::<u32>::default(),
            &control,
            Color::White,
            0,
            25,
        );
        assert!(!free.soft_expired_by(&control, 0.0));
    }
}
