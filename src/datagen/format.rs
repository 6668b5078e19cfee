//! The training-data format: one position a line, plain text, so that files can be
//! concatenated, appended to, inspected with `grep` and streamed by the tuner line by line.
//!
//! ```text
//! <FEN> | <score> | <result>
//! # game <index> <result> <plies>
//! ```
//!
//! `score` is the search score in centi-men from White's view; `result` is the game's result
//! from White's view: `1-0`, `1/2` or `0-1`. A line starting with `#` ends each game (the
//! marker lets `--resume` find the last complete game); blank lines and other `#` lines are
//! comments.

use crate::games::Rules;
use std::fmt;

/// A finished game's result, from White's view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// White won.
    WhiteWin,
    /// Drawn.
    Draw,
    /// Black won.
    BlackWin,
}

impl GameResult {
    /// White's share of the point: 1, 0.5 or 0.
    pub fn white_score(self) -> f64 {
        match self {
            GameResult::WhiteWin => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWin => 0.0,
        }
    }

    /// Parses `1-0`, `1/2` or `0-1`.
    pub fn parse(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWin),
            "1/2" => Some(GameResult::Draw),
            "0-1" => Some(GameResult::BlackWin),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::WhiteWin => "1-0",
            GameResult::Draw => "1/2",
            GameResult::BlackWin => "0-1",
        })
    }
}

/// One training position of game `G`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample<G> {
    /// The position.
    pub position: G,
    /// Search score, centi-men, White's view.
    pub score: i32,
    /// The game's result.
    pub result: GameResult,
}

/// Writes one sample line (without the newline).
pub fn format_sample(fen: &str, score_white: i32, result: GameResult) -> String {
    format!("{fen} | {score_white} | {result}")
}

/// The line that ends game `index`.
pub fn format_game_end(index: u64, result: GameResult, plies: usize) -> String {
    format!("# game {index} {result} {plies}")
}

/// The index of the game a `# game` marker line ends, if `line` is one.
pub fn parse_game_end(line: &str) -> Option<u64> {
    let mut words = line.strip_prefix("# game ")?.split_whitespace();
    words.next()?.parse().ok()
}

/// What is wrong with a data line (`E`: the game's FEN error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SampleError<E> {
    /// Not three fields separated by `|`.
    Fields(usize),
    /// The FEN does not parse in the game read.
    Fen(E),
    /// The score is not a whole number.
    Score(String),
    /// The result is not `1-0`, `1/2` or `0-1`.
    Result(String),
}

impl<E: fmt::Display> fmt::Display for SampleError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::Fields(n) => write!(f, "expected 3 fields separated by '|', found {n}"),
            SampleError::Fen(e) => write!(f, "bad FEN: {e}"),
            SampleError::Score(s) => write!(f, "score '{}' is not a whole number", clip(s)),
            SampleError::Result(s) => {
                write!(f, "result '{}' is not 1-0, 1/2 or 0-1", clip(s))
            }
        }
    }
}

fn clip(s: &str) -> &str {
    match s.char_indices().nth(40) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Parses one line of game `G`'s data: `Ok(None)` for a blank or comment line.
#[allow(clippy::type_complexity)] // the error is the game's FEN error, wrapped
pub fn parse_sample<G: Rules>(line: &str) -> Result<Option<Sample<G>>, SampleError<G::FenError>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    if fields.len() != 3 {
        return Err(SampleError::Fields(fields.len()));
    }
    let position = G::from_fen(fields[0]).map_err(SampleError::Fen)?;
    let score = fields[1]
        .parse()
        .map_err(|_| SampleError::Score(fields[1].to_string()))?;
    let result =
        GameResult::parse(fields[2]).ok_or_else(|| SampleError::Result(fields[2].to_string()))?;
    Ok(Some(Sample {
        position,
        score,
        result,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::Position;
    use crate::games::bashni::notation::{START_FEN, to_fen};

    #[test]
    fn round_trip() {
        let line = format_sample(START_FEN, -35, GameResult::BlackWin);
        let s = parse_sample::<Position>(&line).unwrap().unwrap();
        assert_eq!(to_fen(&s.position), START_FEN);
        assert_eq!(s.score, -35);
        assert_eq!(s.result, GameResult::BlackWin);
        assert_eq!(parse_sample::<Position>("# game 3 1-0 40"), Ok(None));
        assert_eq!(
            parse_game_end(&format_game_end(17, GameResult::Draw, 9)),
            Some(17)
        );
        assert_eq!(parse_game_end("# comment"), None);
    }

    #[test]
    fn errors_say_what() {
        assert_eq!(
            parse_sample::<Position>("a | b"),
            Err(SampleError::Fields(2))
        );
        assert!(matches!(
            parse_sample::<Position>("xx | 3 | 1-0"),
            Err(SampleError::Fen(_))
        ));
        let e = parse_sample::<Position>(&format!("{START_FEN} | 3.5 | 1-0")).unwrap_err();
        assert_eq!(e.to_string(), "score '3.5' is not a whole number");
        let e = parse_sample::<Position>(&format!("{START_FEN} | 3 | 2-0")).unwrap_err();
        assert_eq!(e.to_string(), "result '2-0' is not 1-0, 1/2 or 0-1");
    }
}
