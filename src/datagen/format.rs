//! The training-data format: one position a line, plain text, so that files can be
//! concatenated, appended to, inspected with `grep` and streamed by the tuner line by line.
//!
//! ```text
//! <FEN> | <score> | <result>
//! # game <index> <result> <plies> <game>
//! ```
//!
//! `score` is the search score from White's view in the evaluation's internal units (not
//! the centi-men engines report: `Game::MAN` of them make a man; the trainer fits them); `result` is the game's result
//! from White's view: `1-0`, `1/2` or `0-1`. A `# game` line ends each game (the marker lets
//! `--resume` find the last complete game) and names its game (`bashni`, `turkish`,
//! `russian`), so that data is never read as another game's: the name is on every game's
//! line rather than in a header so that files still concatenate (shards, appended runs)
//! and a concatenation of two games' data is caught. A `# game` line without a name, as
//! written before data named its game, is Bashni's. Blank lines and other `#` lines are
//! comments.

use crate::game_text::game_name;
use crate::games::{Rules, Variant};
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
    /// Search score, the evaluation's internal units, White's view.
    pub score: i32,
    /// The game's result.
    pub result: GameResult,
}

/// Writes one sample line (without the newline).
pub fn format_sample(fen: &str, score_white: i32, result: GameResult) -> String {
    format!("{fen} | {score_white} | {result}")
}

/// The line that ends game `index` of `game`.
pub fn format_game_end(index: u64, result: GameResult, plies: usize, game: Variant) -> String {
    format!("# game {index} {result} {plies} {game}")
}

/// What a `# game` line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The index of the game in its run.
    pub index: u64,
    /// The game it names: Bashni when it names none (written before data named its game),
    /// or the word that is no game's name.
    pub game: Result<Variant, String>,
}

/// The game a `# game` marker line ends, if `line` is one.
pub fn parse_game_end(line: &str) -> Option<GameEnd> {
    let mut words = line.strip_prefix("# game ")?.split_whitespace();
    let index = words.next()?.parse().ok()?;
    let game = match words.nth(2) {
        None => Ok(Variant::Bashni),
        Some(name) => Variant::ALL
            .into_iter()
            .find(|v| v.name() == name)
            .ok_or_else(|| name.to_string()),
    };
    Some(GameEnd { index, game })
}

impl GameEnd {
    /// Checks that this game is `want`; otherwise says, in one line, whose data it is.
    pub fn check(&self, want: Variant) -> Result<(), String> {
        match &self.game {
            Ok(v) if *v == want => Ok(()),
            Ok(Variant::Bashni) => Err(format!(
                "data of Bashni (a '# game' line without a game's name, as written before data \
                 named its game), not of {}; if it is {} data, name it: \
                 sed -i '/^# game /s/$/ {want}/' FILE",
                game_name(want),
                game_name(want)
            )),
            Ok(v) => Err(format!(
                "data of {} (its '# game' lines end with '{v}'), not of {}",
                game_name(*v),
                game_name(want)
            )),
            Err(name) => Err(format!(
                "'# game' line of an unknown game '{}', not of {}",
                clip(name),
                game_name(want)
            )),
        }
    }
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
            parse_game_end(&format_game_end(17, GameResult::Draw, 9, Variant::Turkish)),
            Some(GameEnd {
                index: 17,
                game: Ok(Variant::Turkish)
            })
        );
        assert_eq!(parse_game_end("# comment"), None);
    }

    #[test]
    fn game_lines_name_their_game() {
        let end = |line: &str| parse_game_end(line).unwrap();
        assert_eq!(
            format_game_end(3, GameResult::WhiteWin, 40, Variant::Russian),
            "# game 3 1-0 40 russian"
        );
        assert!(
            end("# game 3 1-0 40 russian")
                .check(Variant::Russian)
                .is_ok()
        );
        assert_eq!(
            end("# game 3 1-0 40 russian").check(Variant::Turkish),
            Err(
                "data of Russian draughts (its '# game' lines end with 'russian'), not of \
                 Turkish draughts"
                    .to_string()
            )
        );
        // Without a name (as written before): Bashni's.
        assert_eq!(end("# game 3 1-0 40").game, Ok(Variant::Bashni));
        assert!(end("# game 3 1-0 40").check(Variant::Bashni).is_ok());
        let e = end("# game 3 1-0 40").check(Variant::Turkish).unwrap_err();
        assert!(
            e.starts_with("data of Bashni (a '# game' line without a game's name")
                && e.ends_with("sed -i '/^# game /s/$/ turkish/' FILE"),
            "{e}"
        );
        let e = end("# game 3 1-0 40 checkers").check(Variant::Bashni);
        assert_eq!(
            e,
            Err("'# game' line of an unknown game 'checkers', not of Bashni".to_string())
        );
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
