//! Saving a game as PDN exactly as `bashni match` writes it (its record and writer), and
//! loading a game or a position back: a PDN file, a file holding a FEN, or a FEN.

use crate::record::game_record::{EngineScore, LastInfo};
use crate::record::game_record::{Event, to_pdn};
use crate::record::game_record::{GameRecord, PlayedMove};
use crate::record::openings::Opening;
use crate::record::pdn::today;
use crate::record::pdn::{PdnError, parse_games, write_game};
use crate::record::result::{GameResult, Termination};
use crate::rules::game::Game;
use crate::rules::notation::{FenError, MoveError, START_FEN, parse_fen, to_fen};
use crate::search::{Score, SearchInfo};
use std::fmt;
use std::path::Path;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result.
    pub result: GameResult,
    /// Why.
    pub termination: Termination,
}

/// A game with what was said about its moves, ready to be written.
pub struct Record<'a> {
    /// The game.
    pub game: &'a Game,
    /// One entry per move of `game`.
    pub moves: &'a [PlayedMove],
    /// Names of White and Black.
    pub names: [String; 2],
    /// How it ended; `None` while it goes on (result `*`).
    pub ending: Option<&'a Ending>,
}

/// The engine's view of its move, as the match PDN comments it.
pub fn last_info(info: Option<&SearchInfo>) -> Option<LastInfo> {
    let info = info?;
    let score = match (info.score, info.score.mate_moves()) {
        (Score::Cp(c), _) => EngineScore::Cp(c),
        (_, moves) => EngineScore::Mate(moves.unwrap_or_default()),
    };
    Some(LastInfo {
        depth: Some(info.depth),
        score,
    })
}

/// The PDN text of a game.
pub fn pdn_text(r: &Record) -> String {
    let start = to_fen(r.game.start());
    let (result, termination) = match r.ending {
        Some(e) => (e.result, e.termination.clone()),
        None => (GameResult::Draw, Termination::MaxPlies),
    };
    let record = GameRecord {
        names: r.names.clone(),
        opening: Opening {
            fen: (start != START_FEN).then_some(start),
            moves: Vec::new(),
        },
        moves: r.moves.to_vec(),
        result,
        termination,
        broken: None,
    };
    let event = Event {
        name: "bashni play".into(),
        site: "?".into(),
        date: today(),
        round: 1,
    };
    let mut pdn = to_pdn(&record, &event);
    if r.ending.is_none() {
        pdn.result = "*".into();
        pdn.tags.retain(|(name, _)| name != "Termination");
        for (name, value) in &mut pdn.tags {
            if name == "Result" {
                *value = "*".into();
            }
        }
    }
    write_game(&pdn)
}

/// Checks that `file` may be written over: it does not exist yet, or it is a regular file
/// (or a link to one). A FIFO would block the writer until someone reads it, and a device
/// or a folder is no place for a game.
pub fn may_write(file: &str) -> Result<(), String> {
    match std::fs::metadata(file) {
        Ok(m) if !m.is_file() => Err(format!(
            "cannot write {file}: not a regular file (a folder, FIFO or device)"
        )),
        _ => Ok(()),
    }
}

/// Why a game or position could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// A file that exists but cannot be read.
    Io(String, std::io::Error),
    /// A PDN file that does not parse.
    Pdn(String, PdnError),
    /// A PDN game whose FEN tag is bad.
    PdnFen(String, FenError),
    /// A PDN game with a move that is not legal (file, move number from 1, error).
    PdnMove(String, usize, MoveError),
    /// A file with neither a game nor a FEN in it.
    NoGame(String),
    /// Neither a file nor a FEN.
    NotFound(String, FenError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(p, e) => write!(f, "cannot read {p}: {e}"),
            LoadError::Pdn(p, e) => write!(f, "{p}: {e}"),
            LoadError::PdnFen(p, e) => write!(f, "{p}: bad FEN tag: {e}"),
            LoadError::PdnMove(p, n, e) => write!(f, "{p}: ply {n}: {e}"),
            LoadError::NoGame(p) => write!(f, "{p} holds neither a PDN game nor a FEN"),
            LoadError::NotFound(a, e) => {
                write!(f, "'{a}' is no file, and not a FEN either ({e})")
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// The last game of a PDN text (or a FEN alone) replayed move by move, so that the
/// position, its clocks and its repetition history are exactly those of the saved game.
fn from_text(name: &str, text: &str) -> Result<Game, LoadError> {
    if let Ok(pos) = parse_fen(text) {
        return Ok(Game::new(pos));
    }
    let games = parse_games(text).map_err(|e| LoadError::Pdn(name.into(), e))?;
    let Some(g) = games.last() else {
        return Err(LoadError::NoGame(name.into()));
    };
    let start = parse_fen(g.tag("FEN").unwrap_or(START_FEN))
        .map_err(|e| LoadError::PdnFen(name.into(), e))?;
    let mut game = Game::new(start);
    for (i, m) in g.moves.iter().enumerate() {
        game.play_text(&m.text)
            .map_err(|e| LoadError::PdnMove(name.into(), i + 1, e))?;
    }
    Ok(game)
}

/// Loads `arg`: a PDN file (its last game), a file holding a FEN, or a FEN.
pub fn load(arg: &str) -> Result<Game, LoadError> {
    let path = Path::new(arg);
    if path.is_file() {
        let text = std::fs::read_to_string(path).map_err(|e| LoadError::Io(arg.into(), e))?;
        return from_text(arg, &text);
    }
    parse_fen(arg)
        .map(Game::new)
        .map_err(|e| LoadError::NotFound(arg.into(), e))
}

/// The moves of a loaded game as records without comments.
pub fn bare_moves(game: &Game) -> Vec<PlayedMove> {
    game.moves()
        .iter()
        .map(|m| PlayedMove {
            text: m.to_string(),
            info: None,
            time: std::time::Duration::ZERO,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_move;
    use std::time::Duration;

    fn game_from(fen: &str, moves: &[&str]) -> Game {
        let mut g = Game::new(parse_fen(fen).unwrap());
        for m in moves {
            let mv = parse_move(g.position(), m).unwrap();
            g.play(mv);
        }
        g
    }

    #[test]
    fn saved_game_loads_to_the_same_position() {
        let g = game_from(START_FEN, &["c3-d4", "f6-g5", "b2-c3"]);
        let mut moves = bare_moves(&g);
        moves[1].time = Duration::from_millis(250);
        let text = pdn_text(&Record {
            game: &g,
            moves: &moves,
            names: ["You".into(), "bashni".into()],
            ending: None,
        });
        assert!(text.contains("[Event \"bashni play\"]"), "{text}");
        assert!(text.contains("[Result \"*\"]") && !text.contains("Termination"));
        assert!(text.contains("1. c3-d4 {0.000s} f6-g5 {0.250s} 2. b2-c3 {0.000s} *"));
        let back = from_text("x", &text).unwrap();
        assert_eq!(to_fen(back.position()), to_fen(g.position()));
        assert_eq!(back.history(), g.history());
    }

    #[test]
    fn finished_game_from_a_fen_keeps_both() {
        let fen = "8/8/8/8/8/8/5b2/4W3 w 7 30";
        let g = game_from(fen, &["e1:g3"]);
        let text = pdn_text(&Record {
            game: &g,
            moves: &bare_moves(&g),
            names: ["You".into(), "bashni".into()],
            ending: Some(&Ending {
                result: GameResult::WhiteWins,
                termination: Termination::NoLegalMove,
            }),
        });
        assert!(text.contains(&format!("[FEN \"{fen}\"]")), "{text}");
        assert!(text.contains("[Termination \"no legal move\"]"));
        assert!(text.trim_end().ends_with("1-0"));
        let back = from_text("x", &text).unwrap();
        assert_eq!(to_fen(back.position()), "8/8/8/8/8/6(Wb)1/8/8 b 0 30");
    }

    #[test]
    fn only_regular_files_are_written_over() {
        assert!(may_write("no such file here.pdn").is_ok());
        assert!(may_write("Cargo.toml").is_ok());
        let e = may_write("src").unwrap_err();
        assert_eq!(
            e,
            "cannot write src: not a regular file (a folder, FIFO or device)"
        );
        #[cfg(unix)]
        assert!(may_write("/dev/null").is_err());
    }

    #[test]
    fn load_errors_are_told() {
        assert!(matches!(
            load("no such thing"),
            Err(LoadError::NotFound(..))
        ));
        let bad = "[FEN \"8/8/8/8/8/8/5b2/4W3 w\"]\n\n1. e1-f2 *\n";
        let e = from_text("g.pdn", bad).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("g.pdn: ply 1: illegal move e1-f2"),
            "{e}"
        );
        assert!(from_text("f", "8/8/8/8/8/8/8/W7 w 3 4").is_ok());
    }
}
