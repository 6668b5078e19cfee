//! Time in `bashni play`: a fixed time per engine move, or a chess clock for both sides.
//!
//! The clock of the side to move runs from the moment its turn begins ([`Clocks::start`]);
//! what the clocks show is always the running time ([`Clocks::now`]), and a side's flag
//! falls the moment its time is used up ([`Clocks::deadline`]), whether or not it has moved.

use super::input::TimeSetting;
use crate::games::kit::color::Color;
use crate::protocol::command::MAX_GO_TIME_MS;
use crate::record::result::Termination;
use crate::record::time_control::TimeControl;
use crate::search::SearchLimits;
use std::time::{Duration, Instant};

/// Engine thinking time per move when neither `--tc` nor `--movetime` is given, ms.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// The time rules of a game and the clocks' state.
#[derive(Clone, Debug)]
pub struct Clocks {
    setting: TimeSetting,
    /// Time left for White and Black when their turns began, ms (negative once a flag has
    /// fallen).
    left: [i64; 2],
    /// Moves each side has made under this setting.
    made: [u32; 2],
    /// The side whose clock runs and when its turn began; `None` between turns and once
    /// the game is over.
    turn: Option<(Color, Instant)>,
}

/// A fallen flag: the time the side used on its turn and the time it had, ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    /// Time used on the turn, ms.
    pub used: u64,
    /// Time it had when the turn began, ms.
    pub had: u64,
}

impl Flag {
    /// The game's termination.
    pub fn termination(self) -> Termination {
        Termination::TimeForfeit(self.used, self.had)
    }
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Clocks {
    /// Fresh clocks, neither running.
    pub fn new(setting: TimeSetting) -> Clocks {
        let base = match setting {
            TimeSetting::Clock(tc) => ms(tc.base),
            TimeSetting::MoveTime(_) => 0,
        };
        Clocks {
            setting,
            left: [base; 2],
            made: [0; 2],
            turn: None,
        }
    }

    /// A new setting from now on: both clocks full at this moment, the side whose clock ran
    /// (if one did) running again from now.
    pub fn reset(&mut self, setting: TimeSetting) {
        let running = self.running();
        *self = Clocks::new(setting);
        if let Some(side) = running {
            self.start(side);
        }
    }

    /// The time setting.
    pub fn setting(&self) -> TimeSetting {
        self.setting
    }

    /// Whether there is a clock (not a fixed move time).
    pub fn is_clock(&self) -> bool {
        matches!(self.setting, TimeSetting::Clock(_))
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.turn.map(|(side, _)| side)
    }

    /// `side`'s turn begins now (whatever ran before is not charged).
    pub fn start(&mut self, side: Color) {
        self.turn = Some((side, Instant::now()));
    }

    /// `side`'s turn goes on if its clock runs already, else it begins now.
    pub fn resume(&mut self, side: Color) {
        if self.running() != Some(side) {
            self.start(side);
        }
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

    /// When the running side's flag falls (with a clock): the first moment it has used more
    /// than the time it had.
    pub fn deadline(&self) -> Option<Instant> {
        let (side, since) = self.turn?;
        let left = self.left[side.index()];
        (self.is_clock() && left >= 0).then(|| since + Duration::from_millis(left as u64 + 1))
    }

    /// Ends `side`'s turn with its move: the time it took, or its fallen flag (then the move
    /// does not count). The clock gains its increment, and the base time again after the
    /// last move of a period.
    pub fn end_turn(&mut self, side: Color) -> Result<Duration, Flag> {
        self.end_turn_at(side, Instant::now())
    }

    fn end_turn_at(&mut self, side: Color, now: Instant) -> Result<Duration, Flag> {
        let used = self.used_at(side, now);
        self.turn = None;
        let TimeSetting::Clock(tc) = self.setting else {
            return Ok(used);
        };
        let i = side.index();
        let had = self.left[i];
        self.left[i] -= ms(used);
        if self.left[i] < 0 {
            return Err(Flag {
                used: ms(used) as u64,
                had: had.max(0) as u64,
            });
        }
        self.left[i] += ms(tc.increment);
        self.made[i] += 1;
        if tc.moves > 0 && self.made[i].is_multiple_of(tc.moves) {
            self.left[i] += ms(tc.base);
        }
        Ok(used)
    }

    /// The running side's fallen flag, if its time is up now (the clock then stops).
    pub fn flag_fallen(&mut self) -> Option<Flag> {
        self.flag_fallen_at(Instant::now())
    }

    fn flag_fallen_at(&mut self, now: Instant) -> Option<Flag> {
        let side = self.running()?;
        let at = self.deadline()?;
        if now < at {
            return None;
        }
        self.end_turn_at(side, now).err()
    }

    /// Stops the running clock where it stands (the game ended otherwise than by a move):
    /// the time used is charged, without increment, and never past zero.
    pub fn stop(&mut self) {
        let now = self.now();
        self.left = now.left;
        self.turn = None;
    }

    /// Time `side` has used on its turn by `now` (zero when its clock does not run).
    fn used_at(&self, side: Color, now: Instant) -> Duration {
        match self.turn {
            Some((s, since)) if s == side => now.saturating_duration_since(since),
            _ => Duration::ZERO,
        }
    }

    /// The clocks as they stand now, the running side's time counted down (to zero at
    /// most: its flag is shown fallen only once it has fallen).
    pub fn now(&self) -> Clocks {
        self.now_at(Instant::now())
    }

    fn now_at(&self, now: Instant) -> Clocks {
        let mut view = self.clone();
        if let (Some(side), true) = (self.running(), self.is_clock()) {
            let left = &mut view.left[side.index()];
            if *left >= 0 {
                *left = (*left - ms(self.used_at(side, now))).max(0);
            }
        }
        view
    }

    /// One line: the clocks as charged (see [`Clocks::now`] for the running time), or the
    /// engine's time per move.
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

    fn clocks(tc: &str) -> Clocks {
        Clocks::new(TimeSetting::Clock(TimeControl::parse(tc).unwrap()))
    }

    /// Starts `side`'s turn and ends it `used_ms` later.
    fn turn(c: &mut Clocks, side: Color, used_ms: u64) -> Result<Duration, Flag> {
        c.start(side);
        let (_, since) = c.turn.unwrap();
        c.end_turn_at(side, since + Duration::from_millis(used_ms))
    }

    #[test]
    fn clock_runs_and_flags() {
        let mut c = clocks("2/1+0.5");
        assert_eq!(c.limits::<()>(Color::White).movestogo, Some(2));
        assert!(turn(&mut c, Color::White, 300).is_ok());
        assert_eq!(c.left[0], 1200);
        assert_eq!(c.limits::<()>(Color::White).movestogo, Some(1));
        assert!(turn(&mut c, Color::White, 200).is_ok());
        assert_eq!(c.left[0], 2500, "a new period adds the base time");
        assert!(c.describe("you", "bashni").contains("you (White) 0:02.5"));
        assert_eq!(
            turn(&mut c, Color::Black, 1001),
            Err(Flag {
                used: 1001,
                had: 1000
            })
        );
        assert!(c.describe("you", "bashni").ends_with("flag fell"));
        assert_eq!(c.running(), None, "a fallen flag stops the clock");
    }

    #[test]
    fn the_running_clock_shows_its_time_and_falls_on_time() {
        let mut c = clocks("1+0.5");
        c.start(Color::White);
        let (_, since) = c.turn.unwrap();
        let at = |ms| since + Duration::from_millis(ms);
        let shown = c.now_at(at(400)).describe("you", "bashni");
        assert!(shown.contains("you (White) 0:00.6, bashni (Black) 0:01.0"));
        assert_eq!(c.left[0], 1000, "showing charges nothing");
        assert_eq!(c.deadline(), Some(at(1001)));
        assert!(
            c.now_at(at(5000)).describe("w", "b").contains("0:00.0"),
            "never below zero while running"
        );
        assert_eq!(c.flag_fallen_at(at(1000)), None, "all of it may be used");
        assert_eq!(c.running(), Some(Color::White));
        assert_eq!(
            c.flag_fallen_at(at(1001)),
            Some(Flag {
                used: 1001,
                had: 1000
            })
        );
        assert_eq!(c.running(), None);
        assert_eq!(c.deadline(), None);
        assert!(c.describe("w", "b").contains("(White) flag fell"));
    }

    #[test]
    fn a_new_setting_fills_both_clocks_from_now() {
        let mut c = clocks("10");
        assert!(turn(&mut c, Color::White, 4000).is_ok());
        c.start(Color::Black);
        let (_, before) = c.turn.unwrap();
        c.reset(TimeSetting::Clock(TimeControl::parse("60+1").unwrap()));
        let (side, since) = c.turn.unwrap();
        assert_eq!(side, Color::Black, "the same side's clock runs");
        assert!(since >= before, "from the moment it is set");
        assert_eq!(c.left, [60_000, 60_000]);
        c.stop();
        assert_eq!(c.running(), None);
        assert!(c.left[1] <= 60_000 && c.left[1] >= 0);
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
        c.start(Color::White);
        assert_eq!(c.deadline(), None);
        assert_eq!(
            turn(&mut c, Color::White, 3_600_000),
            Ok(Duration::from_secs(3600))
        );
    }
}
