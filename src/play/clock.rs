//! Time in `bashni play`: a fixed time per engine move, or a chess clock for both sides
//! (the person loses when their flag has fallen by the time they move).

use super::input::TimeSetting;
use crate::games::kit::color::Color;
use crate::protocol::command::MAX_GO_TIME_MS;
use crate::record::time_control::TimeControl;
use crate::search::SearchLimits;
use std::time::Duration;

/// Engine thinking time per move when neither `--tc` nor `--movetime` is given, ms.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// The time rules of a game and the clocks' state.
#[derive(Clone, Debug)]
pub struct Clocks {
    setting: TimeSetting,
    /// Time left for White and Black, ms (negative once a flag has fallen).
    left: [i64; 2],
    /// Moves each side has made under this setting.
    made: [u32; 2],
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Clocks {
    /// Fresh clocks.
    pub fn new(setting: TimeSetting) -> Clocks {
        let base = match setting {
            TimeSetting::Clock(tc) => ms(tc.base),
            TimeSetting::MoveTime(_) => 0,
        };
        Clocks {
            setting,
            left: [base; 2],
            made: [0; 2],
        }
    }

    /// The time setting.
    pub fn setting(&self) -> TimeSetting {
        self.setting
    }

    /// Search limits for the engine playing `side` (in a game whose moves are `M`).
    pub fn limits<M>(&self, side: Color) -> SearchLimits<M> {
        let mut l = SearchLimits::default();
        match self.setting {
            TimeSetting::MoveTime(mt) => l.movetime = Some(mt),
            TimeSetting::Clock(tc) => {
                // Increments may pile up past what the engine accepts.
                let left = |c: Color| (self.left[c.index()].max(1) as u64).min(MAX_GO_TIME_MS);
                l.wtime = Some(left(Color::White));
                l.btime = Some(left(Color::Black));
                let inc = ms(tc.increment) as u64;
                l.winc = Some(inc);
                l.binc = Some(inc);
                if tc.moves > 0 {
                    l.movestogo = Some(tc.moves - self.made[side.index()] % tc.moves);
                }
            }
        }
        l
    }

    /// Charges `side` for a move that took `used`; false if its flag fell (with a clock).
    pub fn charge(&mut self, side: Color, used: Duration) -> bool {
        let TimeSetting::Clock(tc) = self.setting else {
            return true;
        };
        let i = side.index();
        self.left[i] -= ms(used);
        if self.left[i] < 0 {
            return false;
        }
        self.left[i] += ms(tc.increment);
        self.made[i] += 1;
        if tc.moves > 0 && self.made[i].is_multiple_of(tc.moves) {
            self.left[i] += ms(tc.base);
        }
        true
    }

    /// The clocks as they stand now, `side`'s running for `used` since its turn began (not
    /// charged: no increment, and a fallen flag only shows).
    pub fn running(&self, side: Color, used: Duration) -> Clocks {
        let mut now = self.clone();
        if let TimeSetting::Clock(_) = self.setting {
            now.left[side.index()] -= ms(used);
        }
        now
    }

    /// One line: the clocks, or the engine's time per move.
    pub fn describe(&self, white: &str, black: &str) -> String {
        match self.setting {
            TimeSetting::MoveTime(mt) => {
                format!("no clock; the engine thinks up to {} s a move", seconds(mt))
            }
            TimeSetting::Clock(tc) => format!(
                "clock {tc}: {white} (White) {}, {black} (Black) {}",
                show(self.left[0]),
                show(self.left[1])
            ),
        }
    }
}

/// Milliseconds as seconds with as many decimals as they need, at least one (`1.0`,
/// `0.25`, `0.001`).
fn seconds(ms: u64) -> String {
    let decimals = match ms {
        _ if ms.is_multiple_of(100) => 1,
        _ if ms.is_multiple_of(10) => 2,
        _ => 3,
    };
    format!("{:.decimals$}", ms as f64 / 1000.0)
}

/// `m:ss.t`, or `flag fell` below zero.
fn show(ms: i64) -> String {
    if ms < 0 {
        return "flag fell".to_string();
    }
    let tenths = ms / 100;
    format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
}

/// The setting from the command line: `--tc`, else `--movetime`, else the default move time.
pub fn from_args(tc: Option<TimeControl>, movetime: Option<u64>) -> TimeSetting {
    match (tc, movetime) {
        (Some(tc), _) => TimeSetting::Clock(tc),
        (None, mt) => TimeSetting::MoveTime(mt.unwrap_or(DEFAULT_MOVETIME_MS)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_runs_and_flags() {
        let tc = TimeControl::parse("2/1+0.5").unwrap();
        let mut c = Clocks::new(TimeSetting::Clock(tc));
        assert_eq!(c.limits::<()>(Color::White).movestogo, Some(2));
        assert!(c.charge(Color::White, Duration::from_millis(300)));
        assert_eq!(c.left[0], 1200);
        assert_eq!(c.limits::<()>(Color::White).movestogo, Some(1));
        assert!(c.charge(Color::White, Duration::from_millis(200)));
        assert_eq!(c.left[0], 2500, "a new period adds the base time");
        assert!(c.describe("you", "bashni").contains("you (White) 0:02.5"));
        assert!(!c.charge(Color::Black, Duration::from_millis(1001)));
        assert!(c.describe("you", "bashni").ends_with("flag fell"));
        let now = c.running(Color::White, Duration::from_millis(400));
        assert!(now.describe("you", "bashni").contains("you (White) 0:02.1"));
        assert_eq!(c.left[0], 2500, "running does not charge");
    }

    #[test]
    fn move_times_are_shown_exactly() {
        let text = |ms| Clocks::new(TimeSetting::MoveTime(ms)).describe("you", "bashni");
        assert!(text(1000).contains(" 1.0 s "));
        assert!(text(250).contains(" 0.25 s "));
        assert!(text(1).contains(" 0.001 s "));
        assert!(text(2147483647).contains(" 2147483.647 s "));
    }

    #[test]
    fn movetime_has_no_flag() {
        let mut c = Clocks::new(from_args(None, None));
        assert_eq!(
            c.limits::<()>(Color::Black).movetime,
            Some(DEFAULT_MOVETIME_MS)
        );
        assert!(c.charge(Color::White, Duration::from_secs(3600)));
    }
}
