//! Score adjudication (optional, as in cutechess-cli): end a game early as a draw when both
//! engines have called it level for a while, or as a loss when an engine has seen itself
//! lost for a while.
//!
//! The thresholds are compared with the `cp` the engines report. bashni reports centi-men
//! in every game (100 = one man, `Game::MAN`), so `score=300` means three men in Bashni,
//! Turkish and Russian draughts alike, as the options say. (Before scores were converted,
//! bashni's `cp` was its evaluation's own units, 44 to a man in Bashni and 570 in Russian
//! draughts, so a threshold meant a different material edge in each game.)

use super::config::ConfigError;
use crate::games::kit::color::Color;
use crate::record::game_record::{EngineScore, LastInfo};

/// `--draw movenumber=<n> movecount=<c> score=<s>`: a draw once the game has reached full
/// move `n` and each engine's last `c` scores were within `s` centi-men of zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Earliest full move number.
    pub movenumber: u16,
    /// Consecutive moves of each engine.
    pub movecount: u32,
    /// Largest score, centi-men.
    pub score: i32,
}

/// `--resign movecount=<c> score=<s> [twosided=true]`: a loss for an engine whose last `c`
/// scores were all at least `s` centi-men below zero (two-sided: and its opponent's at least
/// `s` above).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves.
    pub movecount: u32,
    /// Score threshold, centi-men.
    pub score: i32,
    /// Whether the opponent must agree.
    pub twosided: bool,
}

fn tokens<'a>(
    flag: &'static str,
    tokens: &'a [String],
) -> Result<Vec<(&'a str, &'a str)>, ConfigError> {
    tokens
        .iter()
        .map(|t| {
            t.split_once('=')
                .ok_or_else(|| ConfigError::OutOfRange(flag, format!("'{t}' is not key=value")))
        })
        .collect()
}

fn number<T: std::str::FromStr>(flag: &'static str, k: &str, v: &str) -> Result<T, ConfigError> {
    v.parse()
        .map_err(|_| ConfigError::OutOfRange(flag, format!("{k}: '{v}' is not a valid number")))
}

impl DrawRule {
    /// Parses `movenumber=<n> movecount=<c> score=<s>` (all required).
    pub fn parse(t: &[String]) -> Result<DrawRule, ConfigError> {
        const F: &str = "--draw";
        let (mut n, mut c, mut s) = (None, None, None);
        for (k, v) in tokens(F, t)? {
            match k {
                "movenumber" => n = Some(number(F, k, v)?),
                "movecount" => c = Some(number(F, k, v)?),
                "score" => s = Some(number(F, k, v)?),
                _ => return Err(ConfigError::OutOfRange(F, format!("unknown key '{k}'"))),
            }
        }
        match (n, c, s) {
            (Some(movenumber), Some(movecount), Some(score)) if movecount > 0 && score >= 0 => {
                Ok(DrawRule {
                    movenumber,
                    movecount,
                    score,
                })
            }
            _ => Err(ConfigError::OutOfRange(
                F,
                "expected movenumber=<n> movecount=<c> score=<s> with c >= 1, s >= 0".into(),
            )),
        }
    }
}

impl ResignRule {
    /// Parses `movecount=<c> score=<s> [twosided=true|false]`.
    pub fn parse(t: &[String]) -> Result<ResignRule, ConfigError> {
        const F: &str = "--resign";
        let (mut c, mut s, mut twosided) = (None, None, false);
        for (k, v) in tokens(F, t)? {
            match k {
                "movecount" => c = Some(number(F, k, v)?),
                "score" => s = Some(number(F, k, v)?),
                "twosided" => twosided = number(F, k, v)?,
                _ => return Err(ConfigError::OutOfRange(F, format!("unknown key '{k}'"))),
            }
        }
        match (c, s) {
            (Some(movecount), Some(score)) if movecount > 0 && score > 0 => Ok(ResignRule {
                movecount,
                score,
                twosided,
            }),
            _ => Err(ConfigError::OutOfRange(
                F,
                "expected movecount=<c> score=<s> [twosided=true] with c >= 1, s >= 1".into(),
            )),
        }
    }
}

/// A score as centi-men, a mate as a score beyond any evaluation.
fn centi(score: EngineScore) -> i64 {
    match score {
        EngineScore::Cp(c) => c as i64,
        EngineScore::Mate(m) if m > 0 => 1_000_000 - m as i64,
        EngineScore::Mate(m) => -1_000_000 - m as i64,
    }
}

/// What adjudication decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A draw by score.
    Draw,
    /// This colour resigns.
    Resign(Color),
}

/// Follows the scores of a game (White's counters first).
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    level: [u32; 2],
    losing: [u32; 2],
    winning: [u32; 2],
}

impl Adjudicator {
    /// An adjudicator with the given rules (none: it never decides).
    pub fn new(draw: Option<DrawRule>, resign: Option<ResignRule>) -> Adjudicator {
        Adjudicator {
            draw,
            resign,
            ..Default::default()
        }
    }

    /// Counts the move `side` just played with its last `info`; `fullmove` is the move
    /// number of the position after it.
    pub fn after_move(
        &mut self,
        side: Color,
        info: Option<LastInfo>,
        fullmove: u16,
    ) -> Option<Verdict> {
        let i = side as usize;
        let score = info.map(|i| centi(i.score));
        let bump = |counter: &mut u32, hit: bool| *counter = if hit { *counter + 1 } else { 0 };
        if let Some(d) = self.draw {
            bump(
                &mut self.level[i],
                score.is_some_and(|s| s.abs() <= d.score as i64),
            );
            if fullmove >= d.movenumber && self.level.iter().all(|&n| n >= d.movecount) {
                return Some(Verdict::Draw);
            }
        }
        if let Some(r) = self.resign {
            let s = r.score as i64;
            bump(&mut self.losing[i], score.is_some_and(|x| x <= -s));
            bump(&mut self.winning[i], score.is_some_and(|x| x >= s));
            for c in [Color::White, Color::Black] {
                let (me, them) = (c as usize, c.opponent() as usize);
                if self.losing[me] >= r.movecount
                    && (!r.twosided || self.winning[them] >= r.movecount)
                {
                    return Some(Verdict::Resign(c));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn cp(c: i32) -> Option<LastInfo> {
        Some(LastInfo {
            depth: Some(1),
            score: EngineScore::Cp(c),
        })
    }

    #[test]
    fn parse() {
        let d = DrawRule::parse(&toks("movenumber=20 movecount=4 score=10")).unwrap();
        assert_eq!(
            d,
            DrawRule {
                movenumber: 20,
                movecount: 4,
                score: 10
            }
        );
        assert!(DrawRule::parse(&toks("movenumber=20 score=10")).is_err());
        let r = ResignRule::parse(&toks("movecount=3 score=500 twosided=true")).unwrap();
        assert_eq!(
            r,
            ResignRule {
                movecount: 3,
                score: 500,
                twosided: true
            }
        );
        assert!(ResignRule::parse(&toks("movecount=3 score=x")).is_err());
        assert!(ResignRule::parse(&toks("movecount=3 score=5 foo=1")).is_err());
    }

    #[test]
    fn draws_and_resigns() {
        let d = DrawRule {
            movenumber: 3,
            movecount: 2,
            score: 10,
        };
        let mut a = Adjudicator::new(Some(d), None);
        assert_eq!(a.after_move(Color::White, cp(5), 1), None);
        assert_eq!(a.after_move(Color::Black, cp(-5), 2), None);
        assert_eq!(a.after_move(Color::White, cp(0), 2), None);
        // Both have two level scores, but move 3 is not reached yet.
        assert_eq!(a.after_move(Color::Black, cp(10), 2), None);
        assert_eq!(a.after_move(Color::White, cp(50), 3), None);
        assert_eq!(a.after_move(Color::Black, cp(0), 3), None);
        assert_eq!(a.after_move(Color::White, cp(1), 4), None);
        assert_eq!(a.after_move(Color::Black, cp(1), 4), None);
        assert_eq!(a.after_move(Color::White, cp(1), 5), Some(Verdict::Draw));

        let r = ResignRule {
            movecount: 2,
            score: 300,
            twosided: false,
        };
        let mut a = Adjudicator::new(None, Some(r));
        assert_eq!(a.after_move(Color::White, cp(-400), 1), None);
        assert_eq!(a.after_move(Color::Black, None, 2), None);
        let mate = Some(LastInfo {
            depth: None,
            score: EngineScore::Mate(-2),
        });
        assert_eq!(
            a.after_move(Color::White, mate, 2),
            Some(Verdict::Resign(Color::White))
        );

        let r = ResignRule {
            movecount: 1,
            score: 300,
            twosided: true,
        };
        let mut a = Adjudicator::new(None, Some(r));
        assert_eq!(a.after_move(Color::White, cp(-400), 1), None);
        assert_eq!(a.after_move(Color::Black, cp(200), 2), None);
        assert_eq!(a.after_move(Color::White, cp(-400), 2), None);
        assert_eq!(
            a.after_move(Color::Black, cp(300), 3),
            Some(Verdict::Resign(Color::White))
        );
    }
}
