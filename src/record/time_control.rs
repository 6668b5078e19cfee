//! Time controls: `[moves/]seconds[+increment]`, as `bashni match --tc` and `bashni play --tc`
//! take them and as the PDN `TimeControl` tag could carry them.

use std::fmt;
use std::time::Duration;

/// A time control that cannot be read (the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControlError(pub String);

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "time control '{}': expected [moves/]seconds[+increment], like 10+0.1, 40/60 or 1:30+1",
            self.0
        )
    }
}

impl std::error::Error for TimeControlError {}

/// A time control: `moves` per period (0 = the whole game), base time and increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period; after that many moves the base time is added again. 0: one period.
    pub moves: u32,
    /// Time per period.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
}

impl TimeControl {
    /// Parses `[moves/]seconds[+increment]`; seconds may be fractional or `m:ss`.
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let bad = || TimeControlError(text.to_string());
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (m.trim().parse::<u32>().map_err(|_| bad())?, r),
            None => (0, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let seconds = |s: &str| -> Result<Duration, TimeControlError> {
            let s = s.trim();
            let secs = match s.split_once(':') {
                Some((m, sec)) => {
                    let m: f64 = m.parse().map_err(|_| bad())?;
                    let sec: f64 = sec.parse().map_err(|_| bad())?;
                    m * 60.0 + sec
                }
                None => s.parse::<f64>().map_err(|_| bad())?,
            };
            if !secs.is_finite() || !(0.0..=1e7).contains(&secs) {
                return Err(bad());
            }
            Ok(Duration::from_secs_f64(secs))
        };
        let base = seconds(base)?;
        let increment = match inc {
            Some(i) => seconds(i)?,
            None => Duration::ZERO,
        };
        if base.is_zero() && increment.is_zero() {
            return Err(bad());
        }
        Ok(TimeControl {
            moves,
            base,
            increment,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.moves > 0 {
            write!(f, "{}/", self.moves)?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (0, Duration::from_secs(10), Duration::from_millis(100))
        );
        let tc = TimeControl::parse("40/1:30").unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (40, Duration::from_secs(90), Duration::ZERO)
        );
        assert_eq!(
            TimeControl::parse("0.5").unwrap().base,
            Duration::from_millis(500)
        );
        for bad in ["", "x", "10+", "/10", "-1", "0", "10+y", "a/10"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }
}
