//! A session's clocks: when they run (each side's first move is free, lichess' rule), the
//! time charged at every change, and a flag falling.

use super::Session;
use crate::platform::Instant;
use crate::serve::ending::{End, Reason};

/// Plies played before a clock game's clocks start: each side's first move is free.
pub const FREE_PLIES: usize = 2;

impl Session {
    /// Whether the clocks run now: a clock game, not over, not in analysis, and each side
    /// has made its first move (lichess' rule: the first move of each side is not timed, so
    /// a game never starts with a clock already running down while its players settle in).
    pub(super) fn clocks_run(&self) -> bool {
        self.over.is_none() && self.analysis.is_none() && self.line.moves().len() >= FREE_PLIES
    }

    /// Charges the time since the last change to the side to move, if its clock ran.
    pub(super) fn settle(&mut self, now: Instant) {
        let (run, side) = (self.clocks_run(), self.side());
        if let Some(c) = &mut self.clocks {
            c.settle(side, run, now);
        }
    }

    /// Ends the game on time if the side to move's clock has run out; true if it did.
    pub fn check_flag(&mut self, now: Instant) -> bool {
        let side = self.side();
        let fallen = self.clocks_run()
            && self
                .clocks
                .as_ref()
                .is_some_and(|c| c.left(side, true, now)[side.index()] < 0);
        if fallen {
            self.settle(now);
            self.decide(End::lost_by(side, Reason::Time(side)));
            self.after_change(now);
        }
        fallen
    }
}
