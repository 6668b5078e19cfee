//! Saving a game as PDN exactly as `bashni match` writes it (its record and writer), and
//! loading a game or a position back: a PDN file, a file holding a FEN, or a FEN.
//!
//! A saved game names its game in the `GameType` tag ([`Variant::pdn_game_type`]: `Bashni`,
//! FMJD's `30,...` for Turkish and `25,...` for Russian draughts). [`load`] refuses a PDN
//! game of another game than `G` with [`LoadError::OtherGame`], which says which game it is
//! (`bashni play`'s `load` then switches to that game; `analyse` says how to run it); one
//! without the tag is read as the game being played.
//!
//! A file is loaded only if it is a regular file of at most [`MAX_LOAD_FILE`] bytes, read
//! with bounded memory ([`crate::files::read_regular_text`]): a FIFO, a device or a larger
//! file is refused with one line, before anything of the game in progress changes.

use crate::display::counted;
use crate::files::{ReadError, read_regular_text};
use crate::game_text::game_name;
use crate::games::{Game, Record as GameOf, Rules, Variant};
use crate::record::game_record::{EngineScore, LastInfo};
use crate::record::game_record::{Event, to_pdn_in};
use crate::record::game_record::{GameRecord, PlayedMove};
use crate::record::openings::Opening;
use crate::record::pdn::{PdnError, parse_games};
use crate::record::pdn_write::{today, write_game};
use crate::record::result::{GameResult, Termination};
use crate::search::{Score, SearchInfo};
use std::fmt;
use std::path::Path;

/// Largest file `load` reads: thousands of PDN games, far more than a saved game.
pub const MAX_LOAD_FILE: u64 = 4 << 20;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result.
    pub result: GameResult,
    /// Why.
    pub termination: Termination,
}

/// A game with what was said about its moves, ready to be written.
pub struct Record<'a, G: Game> {
    /// The game.
    pub game: &'a GameOf<G>,
    /// One entry per move of `game`.
    pub moves: &'a [PlayedMove],
    /// Names of White and Black.
    pub names: [String; 2],
    /// How it ended; `None` while it goes on (result `*`).
    pub ending: Option<&'a Ending>,
}

/// The engine's view of its move, as the match PDN comments it.
pub fn last_info<M>(info: Option<&SearchInfo<M>>) -> Option<LastInfo> {
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

/// The PDN text of a game, its `GameType` tag naming its game.
pub fn pdn_text<G: Game>(r: &Record<G>) -> String {
    let start = r.game.start().to_fen();
    let (result, termination) = match r.ending {
        Some(e) => (e.result, e.termination.clone()),
        None => (GameResult::Draw, Termination::MaxPlies),
    };
    let record = GameRecord {
        names: r.names.clone(),
        opening: Opening {
            fen: (start != G::START_FEN).then_some(start),
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
    let mut pdn = to_pdn_in(&record, &event, G::VARIANT);
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

/// Why a game or position of game `G` could not be loaded.
#[derive(Debug)]
pub enum LoadError<G: Rules> {
    /// A file that exists but cannot be read, is not a regular file, is larger than
    /// [`MAX_LOAD_FILE`] or is not text.
    Read(String, ReadError),
    /// A PDN file that does not parse.
    Pdn(String, PdnError),
    /// A PDN game of another game than `G` (file, its game).
    OtherGame(String, Variant),
    /// A PDN game whose `GameType` names no game this engine plays (file, the tag).
    UnknownGameType(String, String),
    /// A PDN game whose FEN tag is bad.
    PdnFen(String, G::FenError),
    /// A PDN game with a move that is not legal (file, move number from 1, error).
    PdnMove(String, usize, G::MoveError),
    /// A file with neither a game nor a FEN in it.
    NoGame(String),
    /// A file without the game asked for (file, its number from 1, games in the file).
    NoSuchGame(String, usize, usize),
    /// Neither a file nor a FEN.
    NotFound(String, G::FenError),
}

impl<G: Game> fmt::Display for LoadError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Read(p, e) => write!(f, "cannot load {p}: {e}"),
            LoadError::Pdn(p, e) => write!(f, "{p}: {e}"),
            LoadError::OtherGame(p, v) => write!(
                f,
                "{p} is a game of {} (GameType \"{}\"), not of {}: play it with \
                 bashni play --variant {v}",
                game_name(*v),
                v.pdn_game_type(),
                game_name(G::VARIANT)
            ),
            LoadError::UnknownGameType(p, t) => write!(
                f,
                "{p}: GameType \"{t}\" is none of the games played here ({})",
                Variant::ALL
                    .iter()
                    .map(|v| format!("{v} \"{}\"", v.pdn_game_type()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            LoadError::PdnFen(p, e) => write!(f, "{p}: bad FEN tag: {e}"),
            LoadError::PdnMove(p, n, e) => write!(f, "{p}: ply {n}: {e}"),
            LoadError::NoGame(p) => write!(f, "{p} holds neither a PDN game nor a FEN"),
            LoadError::NoSuchGame(p, n, count) => {
                let held = counted(*count as u64, "game", "games");
                write!(f, "{p} has no game {n}: it holds {held}")
            }
            LoadError::NotFound(a, e) => {
                write!(f, "'{a}' is no file, and not a FEN either ({e})")
            }
        }
    }
}

impl<G: Game> std::error::Error for LoadError<G> {}

/// Which game of a PDN file [`load_game`] reads, from 1: the one rule of every reader of a
/// game file (`play`'s `load`, `analyse FILE` and `--pdn`, the page) is the first unless a
/// number is given (`analyse --game N`); a file holding a FEN holds one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameNumber(pub usize);

impl GameNumber {
    /// The first game of a file.
    pub const FIRST: GameNumber = GameNumber(1);
}

/// Game `which` of a PDN text (or a FEN alone) replayed move by move, so that the
/// position, its clocks and its repetition history are exactly those of the saved game.
fn from_text<G: Game>(
    name: &str,
    text: &str,
    which: GameNumber,
) -> Result<GameOf<G>, LoadError<G>> {
    if let Ok(pos) = G::from_fen(text) {
        return match which {
            GameNumber(n) if n != 1 => Err(LoadError::NoSuchGame(name.into(), n, 1)),
            _ => Ok(GameOf::new(pos)),
        };
    }
    let games = parse_games(text).map_err(|e| LoadError::Pdn(name.into(), e))?;
    let GameNumber(n) = which;
    let Some(g) = n.checked_sub(1).and_then(|i| games.get(i)) else {
        return Err(if games.is_empty() {
            LoadError::NoGame(name.into())
        } else {
            LoadError::NoSuchGame(name.into(), n, games.len())
        });
    };
    if let Some(tag) = g.tag("GameType") {
        match Variant::from_pdn_game_type(tag) {
            Some(v) if v == G::VARIANT => {}
            Some(v) => return Err(LoadError::OtherGame(name.into(), v)),
            None => return Err(LoadError::UnknownGameType(name.into(), tag.into())),
        }
    }
    let start = G::from_fen(g.tag("FEN").unwrap_or(G::START_FEN))
        .map_err(|e| LoadError::PdnFen(name.into(), e))?;
    let mut game = GameOf::new(start);
    for (i, m) in g.moves.iter().enumerate() {
        game.play_text(&m.text)
            .map_err(|e| LoadError::PdnMove(name.into(), i + 1, e))?;
    }
    Ok(game)
}

/// Loads `arg`: a PDN file (its first game), a file holding a FEN, or a FEN, of game `G`.
pub fn load<G: Game>(arg: &str) -> Result<GameOf<G>, LoadError<G>> {
    load_game(arg, GameNumber::FIRST)
}

/// Loads `arg`: game `which` of a PDN file, a file holding a FEN, or a FEN, of game `G`.
pub fn load_game<G: Game>(arg: &str, which: GameNumber) -> Result<GameOf<G>, LoadError<G>> {
    let path = Path::new(arg);
    // Whatever exists at that path is a file to load (a FEN never names one): what is not a
    // regular file is refused before it is opened, a large one before it is read.
    if std::fs::metadata(path).is_ok() {
        let text =
            read_regular_text(path, MAX_LOAD_FILE).map_err(|e| LoadError::Read(arg.into(), e))?;
        return from_text(arg, &text, which);
    }
    G::from_fen(arg)
        .map(GameOf::new)
        .map_err(|e| LoadError::NotFound(arg.into(), e))
}

/// The moves of a loaded game as records without comments.
pub fn bare_moves<G: Game>(game: &GameOf<G>) -> Vec<PlayedMove> {
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
    use crate::games::bashni::Position;
    use crate::games::bashni::game::Game;
    use crate::games::bashni::notation::{START_FEN, to_fen};
    use crate::games::turkish;
    use std::time::Duration;

    fn game_from(fen: &str, moves: &[&str]) -> Game {
        GameOf::from_fen_and_moves(fen, moves).unwrap()
    }

    /// Bashni's [`from_text`].
    fn from_text(name: &str, text: &str) -> Result<Game, LoadError<Position>> {
        super::from_text::<Position>(name, text, GameNumber::FIRST)
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
            load::<Position>("no such thing"),
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

    #[test]
    fn a_game_is_picked_by_its_number_the_first_by_default() {
        let two = "[Round \"1\"]\n\n1. c3-d4 *\n\n[Round \"2\"]\n\n1. c3-b4 f6-g5 *\n";
        let pick = |which| super::from_text::<Position>("two.pdn", two, which);
        assert_eq!(pick(GameNumber(1)).unwrap().moves().len(), 1);
        assert_eq!(pick(GameNumber(2)).unwrap().moves().len(), 2);
        assert_eq!(pick(GameNumber::FIRST).unwrap().moves().len(), 1);
        let e = pick(GameNumber(3)).unwrap_err();
        assert_eq!(e.to_string(), "two.pdn has no game 3: it holds 2 games");
        let fen = "8/8/8/8/8/8/8/W7 w 3 4";
        let one = |which| super::from_text::<Position>("f", fen, which);
        assert!(one(GameNumber(1)).is_ok());
        let e = one(GameNumber(2)).unwrap_err();
        assert_eq!(e.to_string(), "f has no game 2: it holds 1 game");
    }

    /// The PDN of a game of `You` against `bashni` that ended so.
    fn ended_text<G: crate::games::Game>(
        g: &GameOf<G>,
        result: GameResult,
        termination: Termination,
    ) -> String {
        pdn_text(&Record {
            game: g,
            moves: &bare_moves(g),
            names: ["You".into(), "bashni".into()],
            ending: Some(&Ending {
                result,
                termination,
            }),
        })
    }

    #[test]
    fn the_game_type_names_the_game_and_is_checked_on_loading() {
        let g = GameOf::<turkish::Position>::from_fen_and_moves("8/8/8/8/8/8/b6b/W7 w", &["a1:a3"])
            .unwrap();
        let text = ended_text(&g, GameResult::WhiteWins, Termination::KingAgainstMan);
        assert!(text.contains("[GameType \"30,W,8,8,A0,0\"]"), "{text}");
        assert!(text.contains("[Termination \"one king against one man\"]"));
        let back =
            super::from_text::<turkish::Position>("t.pdn", &text, GameNumber::FIRST).unwrap();
        assert_eq!(back.position().to_fen(), g.position().to_fen());
        let e = from_text("t.pdn", &text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.pdn is a game of Turkish draughts (GameType \"30,W,8,8,A0,0\"), not of Bashni: \
             play it with bashni play --variant turkish"
        );
        let other = "[GameType \"20,W,10,10,N2,0\"]\n\n1. 32-28 *\n";
        let e = from_text("i.pdn", other).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("i.pdn: GameType \"20,W,10,10,N2,0\" is none of the games"),
            "{e}"
        );
        // A drawn Turkish game names its own no-progress rule.
        let text = ended_text(&g, GameResult::Draw, Termination::ThirtyPly);
        assert!(text.contains("[Termination \"50-ply rule\"]"), "{text}");
    }
}
