//! Openings: read from a file (one FEN or one move list per line, or PDN games), or drawn at
//! random from a seed and kept only when a short search finds them balanced. An opening is text (a FEN and
//! move texts); which game it belongs to is the type parameter of whatever reads or plays it.

use crate::games::{Game, Record, Variant};
use crate::record::pdn::{PdnGame, parse_games};
use crate::search::{Engine, Score, SearchControl, SearchLimits};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use std::collections::HashSet;
use std::fmt;
use std::path::Path;
use std::sync::Mutex;

/// Largest evaluation (centi-men, either side) of a random opening that is kept.
pub const DEFAULT_MAX_SCORE: i32 = 50;
/// Depth of the search that checks random openings.
pub const DEFAULT_FILTER_DEPTH: u32 = 6;

/// Where a game starts: a position and moves to play from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position; `None` is the initial position.
    pub fen: Option<String>,
    /// Moves from there (already checked legal), in our notation.
    pub moves: Vec<String>,
}

impl Opening {
    /// The initial position with no moves.
    pub fn initial() -> Opening {
        Opening {
            fen: None,
            moves: Vec::new(),
        }
    }

    /// The start position in game `G`.
    pub fn start<G: Game>(&self) -> G {
        G::from_fen(self.fen.as_deref().unwrap_or(G::START_FEN))
            .expect("opening FEN checked when read")
    }

    /// The game `G` after the opening moves.
    pub fn game<G: Game>(&self) -> Record<G> {
        Record::from_fen_and_moves(self.fen.as_deref().unwrap_or(G::START_FEN), &self.moves)
            .expect("openings are checked when read")
    }
}

/// What is wrong with an openings file or with drawing random openings.
#[derive(Debug)]
pub enum OpeningsError {
    /// The file cannot be read (path, reason).
    Io(String, std::io::Error),
    /// A line is neither a FEN nor legal moves from the initial position (line number, why).
    BadLine(usize, String),
    /// A line whose position is already decided (line number).
    GameOver(usize),
    /// A PDN file that cannot be read as PDN (file, why).
    Pdn(String, crate::record::pdn::PdnError),
    /// A PDN game that is no opening of this game (its number in the file, why).
    BadGame(usize, String),
    /// The file has no openings.
    Empty(String),
    /// Too few balanced openings found (found, wanted).
    TooFew(usize, usize),
    /// The threads to check openings could not be started.
    Threads(String),
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Io(p, e) => write!(f, "openings file '{p}': {e}"),
            OpeningsError::BadLine(n, why) => write!(f, "openings line {n}: {why}"),
            OpeningsError::GameOver(n) => {
                write!(f, "openings line {n}: the game is already over there")
            }
            OpeningsError::Pdn(p, e) => write!(f, "openings file '{p}': {e}"),
            OpeningsError::BadGame(n, why) => write!(f, "openings game {n}: {why}"),
            OpeningsError::Empty(p) => write!(f, "openings file '{p}' has no openings"),
            OpeningsError::TooFew(found, wanted) => write!(
                f,
                "found only {found} of {wanted} balanced random openings; use fewer plies or a larger --max-score"
            ),
            OpeningsError::Threads(e) => write!(f, "cannot start threads: {e}"),
        }
    }
}

impl std::error::Error for OpeningsError {}

/// Parses one line of game `G`: a FEN, or moves from the initial position separated by
/// spaces (move numbers like `1.` are skipped). `n` is the line number for errors.
pub fn parse_line<G: Game>(line: &str, n: usize) -> Result<Opening, OpeningsError> {
    parse_line_cut::<G>(line, n, Plies::ALL)
}

/// The most moves of an opening that are played: openings longer than that are cut (as
/// cutechess-cli's and fastchess's `-openings plies=N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plies(pub usize);

impl Plies {
    /// Every move of every opening.
    pub const ALL: Plies = Plies(usize::MAX);
}

/// How an openings file is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// One FEN or one move list a line, as `bashni openings` writes (cutechess-cli's EPD).
    Lines,
    /// PDN games: each game's `FEN` tag (the initial position without one) and main line, as
    /// `bashni match --pdn` writes (cutechess-cli's PGN).
    Pdn,
}

/// How to read an openings file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// How it is written.
    pub format: FileFormat,
    /// The most moves kept of each opening.
    pub plies: Plies,
}

/// [`parse_line`], keeping at most `plies` of a move list.
fn parse_line_cut<G: Game>(line: &str, n: usize, plies: Plies) -> Result<Opening, OpeningsError> {
    let opening = match G::from_fen(line) {
        Ok(pos) => {
            let fen = pos.to_fen();
            Opening {
                fen: (fen != G::START_FEN).then_some(fen),
                moves: Vec::new(),
            }
        }
        Err(fen_err) => {
            let mut game = Record::new(G::startpos());
            let mut moves = Vec::new();
            let words = line.split_whitespace().filter(|w| !w.ends_with('.'));
            for word in words.take(plies.0) {
                match game.play_text(word) {
                    Ok(m) => moves.push(m.to_string()),
                    Err(e) if moves.is_empty() => {
                        return Err(OpeningsError::BadLine(
                            n,
                            format!("not a FEN ({fen_err}) nor a move list ({e})"),
                        ));
                    }
                    Err(e) => return Err(OpeningsError::BadLine(n, e.to_string())),
                }
                if game.outcome().is_some() {
                    return Err(OpeningsError::GameOver(n));
                }
            }
            Opening { fen: None, moves }
        }
    };
    if opening.game::<G>().outcome().is_some() {
        return Err(OpeningsError::GameOver(n));
    }
    Ok(opening)
}

/// Largest openings file read (the built-in book of 3,000 openings is about 100 KB).
const MAX_OPENINGS_FILE: u64 = 64 << 20;

/// Reads an openings file as `how` says. In the lines format blank lines and `#` comments
/// are skipped; in either a UTF-8 byte order mark at its start is dropped.
pub fn read_file<G: Game>(path: &Path, how: Reading) -> Result<Vec<Opening>, OpeningsError> {
    let name = path.display().to_string();
    let text = crate::files::read_text(path, MAX_OPENINGS_FILE)
        .map_err(|e| OpeningsError::Io(name.clone(), std::io::Error::other(e.to_string())))?;
    match how.format {
        FileFormat::Lines => parse_text_cut::<G>(&text, &name, how.plies),
        FileFormat::Pdn => parse_pdn::<G>(&text, &name, how.plies),
    }
}

/// Parses the text of an openings file of game `G` called `name`.
pub fn parse_text<G: Game>(text: &str, name: &str) -> Result<Vec<Opening>, OpeningsError> {
    parse_text_cut::<G>(text, name, Plies::ALL)
}

/// [`parse_text`], keeping at most `plies` of each move list.
fn parse_text_cut<G: Game>(
    text: &str,
    name: &str,
    plies: Plies,
) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if !line.is_empty() {
            out.push(parse_line_cut::<G>(line, i + 1, plies)?);
        }
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty(name.to_string()));
    }
    Ok(out)
}

/// Parses PDN games of game `G` (from the file `name`) as openings: each game's `FEN` tag, else
/// the initial position, and its first `plies` main-line moves. A `GameType` tag must name `G`.
pub fn parse_pdn<G: Game>(
    text: &str,
    name: &str,
    plies: Plies,
) -> Result<Vec<Opening>, OpeningsError> {
    let games = parse_games(text).map_err(|e| OpeningsError::Pdn(name.to_string(), e))?;
    let out = games
        .iter()
        .enumerate()
        .map(|(i, g)| pdn_opening::<G>(g, i + 1, plies))
        .collect::<Result<Vec<_>, _>>()?;
    if out.is_empty() {
        return Err(OpeningsError::Empty(name.to_string()));
    }
    Ok(out)
}

/// The opening of PDN game number `n`: its start and first `plies` moves.
fn pdn_opening<G: Game>(game: &PdnGame, n: usize, plies: Plies) -> Result<Opening, OpeningsError> {
    let bad = |why: String| OpeningsError::BadGame(n, why);
    if let Some(tag) = game.tag("GameType")
        && Variant::from_pdn_game_type(tag) != Some(G::VARIANT)
    {
        return Err(bad(format!(
            "GameType \"{tag}\" is not {} (play it with --variant)",
            G::VARIANT
        )));
    }
    let start = match game.tag("FEN") {
        Some(fen) => G::from_fen(fen).map_err(|e| bad(format!("bad FEN tag: {e}")))?,
        None => G::startpos(),
    };
    let fen = start.to_fen();
    let mut record = Record::new(start);
    let mut moves = Vec::new();
    for m in game.moves.iter().take(plies.0) {
        let played = record
            .play_text(&m.text)
            .map_err(|e| bad(format!("move {} '{}': {e}", moves.len() + 1, m.text)))?;
        moves.push(played.to_string());
    }
    if record.outcome().is_some() {
        return Err(bad(format!(
            "the game is over after its {} moves: keep fewer (plies=, --openings-plies)",
            moves.len()
        )));
    }
    Ok(Opening {
        fen: (fen != G::START_FEN).then_some(fen),
        moves,
    })
}

/// Draws random openings: `plies` uniformly random legal moves from the initial position,
/// kept when the game is not over, the position is new, and a search to `depth` scores it
/// within `max_score` centi-men.
pub struct RandomOpenings<G: Game> {
    _game: std::marker::PhantomData<G>,
    rng: StdRng,
    plies: u32,
    depth: u32,
    max_score: i32,
    engine: Engine,
    seen: HashSet<u64>,
}

impl<G: Game> RandomOpenings<G> {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64, plies: u32, depth: u32, max_score: i32) -> RandomOpenings<G> {
        let mut engine = Engine::new();
        // A small table is plenty for shallow searches; if even that cannot be had, the
        // default one stays.
        let _ = engine.set_hash_mb(4);
        RandomOpenings {
            _game: std::marker::PhantomData,
            rng: StdRng::seed_from_u64(seed),
            plies,
            depth: depth.max(1),
            max_score,
            engine,
            seen: HashSet::new(),
        }
    }

    /// The next balanced opening, or `None` after many tries without one (when the plies or
    /// the score bound make them too rare, or all of them have been drawn).
    pub fn next_opening(&mut self) -> Option<Opening> {
        const TRIES: usize = 2000;
        for _ in 0..TRIES {
            if let Some(o) = self.try_one() {
                return Some(o);
            }
        }
        None
    }

    fn try_one(&mut self) -> Option<Opening> {
        let (game, moves) = random_playout::<G, _>(&mut self.rng, self.plies)?;
        if !self.seen.insert(game.position().hash()) {
            return None;
        }
        is_balanced(&mut self.engine, &game, self.depth, self.max_score)
            .then_some(Opening { fen: None, moves })
    }
}

/// `plies` uniformly random legal moves from the initial position, drawn from `rng`: the game
/// and the moves in our notation, or `None` when the game ended on the way.
pub fn random_playout<G: Game, R: rand::Rng>(
    rng: &mut R,
    plies: u32,
) -> Option<(Record<G>, Vec<String>)> {
    random_playout_from(rng, Record::new(G::startpos()), plies)
}

/// `plies` uniformly random legal moves from `game` on: the game and the moves added, or
/// `None` when the game ended on the way.
pub fn random_playout_from<G: Game, R: rand::Rng>(
    rng: &mut R,
    mut game: Record<G>,
    plies: u32,
) -> Option<(Record<G>, Vec<String>)> {
    let mut moves = Vec::with_capacity(plies as usize);
    for _ in 0..plies {
        let legal = game.position().legal_moves();
        if legal.is_empty() {
            return None;
        }
        let m = legal[rng.random_range(0..legal.len())];
        moves.push(m.to_string());
        game.play(m);
        if game.outcome().is_some() {
            return None;
        }
    }
    Some((game, moves))
}

/// Whether a fresh search of `game`'s position to `depth` scores it within `max_score`
/// centi-men (a proven win or loss is never balanced).
pub fn is_balanced<G: Game>(
    engine: &mut Engine,
    game: &Record<G>,
    depth: u32,
    max_score: i32,
) -> bool {
    let limits = SearchLimits {
        depth: Some(depth.max(1)),
        ..Default::default()
    };
    engine.new_game();
    let result = engine.search(
        game.position(),
        game.history(),
        &limits,
        &SearchControl::new(false),
        &mut |_| {},
    );
    matches!(result.score, Score::Cp(cp) if cp.abs() <= max_score)
}

/// What `bashni openings` draws: `count` openings of `plies` random plies, each kept when a
/// search to `depth` scores it within `max_score` centi-men.
#[derive(Clone, Copy, Debug)]
pub struct Draw {
    /// Seed of the random plies.
    pub seed: u64,
    /// Random plies from the initial position.
    pub plies: u32,
    /// Openings wanted.
    pub count: usize,
    /// Depth of the balance check.
    pub depth: u32,
    /// Largest score kept, centi-men.
    pub max_score: i32,
}

/// Candidates drawn at once and checked in parallel.
const BATCH: usize = 64;

/// Draws the openings of `draw`, checking candidates on up to `threads` threads: the same
/// openings in the same order whatever `threads` is (candidates are drawn in order from the
/// seed, checked in parallel, and kept in order).
pub fn draw_openings<G: Game>(draw: Draw, threads: usize) -> Result<Vec<Opening>, OpeningsError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| OpeningsError::Threads(e.to_string()))?;
    // One engine (with its default 16 MiB table) per pool thread, made once: rayon splits a
    // batch into many jobs, and a fresh table per job would cost more than small searches.
    let engines: Vec<Mutex<Engine>> = (0..pool.current_num_threads())
        .map(|_| Mutex::new(Engine::new()))
        .collect();
    let mut rng = StdRng::seed_from_u64(draw.seed);
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(draw.count);
    let mut fruitless = 0;
    while out.len() < draw.count {
        // 1. New candidates, in the seed's order.
        let batch: Vec<(Record<G>, Vec<String>)> = (0..BATCH)
            .filter_map(|_| random_playout::<G, _>(&mut rng, draw.plies))
            .filter(|(g, _)| seen.insert(g.position().hash()))
            .collect();
        // 2. Their balance checks, in parallel, each on its thread's engine (the table is
        //    cleared before each check, so which engine checks what changes nothing).
        let balanced: Vec<bool> = pool.install(|| {
            batch
                .par_iter()
                .map(|(g, _)| {
                    let slot = rayon::current_thread_index().unwrap_or(0) % engines.len();
                    let mut e = engines[slot].lock().unwrap_or_else(|p| p.into_inner());
                    is_balanced(&mut e, g, draw.depth, draw.max_score)
                })
                .collect()
        });
        // 3. The balanced ones, in order.
        let before = out.len();
        for ((_, moves), ok) in batch.into_iter().zip(balanced) {
            if ok && out.len() < draw.count {
                out.push(Opening { fen: None, moves });
            }
        }
        fruitless = if out.len() == before {
            fruitless + BATCH
        } else {
            0
        };
        if fruitless >= 2000 {
            return Err(OpeningsError::TooFew(out.len(), draw.count));
        }
    }
    Ok(out)
}

/// The text of game `G`'s shipped book, if it has one ([`Game::BOOK`], every game has one
/// now: `openings/balanced.txt` for Bashni, made by `bashni openings`, what `bashni match`
/// plays by default and `bashni datagen` starts its games from; `openings/turkish.txt` and
/// `openings/russian.txt`, `openings/brazilian.txt` and `openings/lasca.txt`, made by the
/// `bashni openings --variant ...` command in their first line).
pub fn book_text<G: Game>() -> Option<&'static str> {
    G::BOOK
}

/// Game `G`'s shipped openings, parsed; the initial position alone for a game without a
/// book.
pub fn book<G: Game>() -> Vec<Opening> {
    match book_text::<G>() {
        Some(text) => parse_text::<G>(text, "the built-in book")
            .expect("the shipped book is checked by its tests"),
        None => vec![Opening::initial()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Variant;
    use crate::games::bashni::Position;
    use crate::games::bashni::notation::START_FEN;

    #[test]
    fn lines() {
        assert_eq!(
            parse_line::<Position>(START_FEN, 1).unwrap(),
            Opening::initial()
        );
        let o = parse_line::<Position>("1. c3-d4 f6-e5 2. d4:f6", 1).unwrap();
        assert_eq!(o.moves, ["c3-d4", "f6-e5", "d4:f6"]);
        let o = parse_line::<Position>("8/8/8/6B1/1b1b4/6b1/8/W7 w", 1).unwrap();
        assert!(o.fen.is_some() && o.moves.is_empty());
        assert!(matches!(
            parse_line::<Position>("c3-d4 c3-d4", 3),
            Err(OpeningsError::BadLine(3, _))
        ));
        assert!(matches!(
            parse_line::<Position>("hello", 2),
            Err(OpeningsError::BadLine(2, _))
        ));
        assert!(matches!(
            parse_line::<Position>("8/8/8/8/8/8/8/W7 b", 4),
            Err(OpeningsError::GameOver(4))
        ));
    }

    #[test]
    fn pdn_games_and_cut_lines() {
        let pdn = "[GameType \"Bashni\"]\n\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n\n\
                   [FEN \"8/8/8/6B1/1b1b4/6b1/8/W7 w\"]\n\n*\n";
        let cut = parse_pdn::<Position>(pdn, "t.pdn", Plies(3)).unwrap();
        assert_eq!(cut[0].moves, ["c3-d4", "f6-e5", "d4:f6"]);
        assert_eq!(cut[0].fen, None);
        assert!(cut[1].fen.is_some() && cut[1].moves.is_empty());
        assert_eq!(
            parse_pdn::<Position>(pdn, "t.pdn", Plies::ALL).unwrap()[0]
                .moves
                .len(),
            4
        );
        let turkish = "[GameType \"30,W,8,8,A0,0\"]\n\n*\n";
        let e = parse_pdn::<Position>(turkish, "t.pdn", Plies::ALL).unwrap_err();
        assert!(
            e.to_string().starts_with("openings game 1: GameType"),
            "{e}"
        );
        let bad = "\n1. c3-d4 c3-d4 *\n";
        let e = parse_pdn::<Position>(bad, "t.pdn", Plies::ALL).unwrap_err();
        assert!(e.to_string().contains("move 2 'c3-d4'"), "{e}");
        let over = "[FEN \"8/8/8/8/8/8/8/W7 b\"]\n\n*\n";
        assert!(matches!(
            parse_pdn::<Position>(over, "t.pdn", Plies::ALL),
            Err(OpeningsError::BadGame(1, _))
        ));
        assert!(matches!(
            parse_pdn::<Position>("", "t.pdn", Plies::ALL),
            Err(OpeningsError::Empty(_))
        ));
        let lines = parse_text_cut::<Position>("c3-d4 f6-e5 d4:f6\n", "t", Plies(1)).unwrap();
        assert_eq!(lines[0].moves, ["c3-d4"]);
    }

    #[test]
    fn random_openings_are_reproducible_and_balanced() {
        let draw = Draw {
            seed: 7,
            plies: 6,
            count: 70,
            depth: 3,
            max_score: DEFAULT_MAX_SCORE,
        };
        let a = draw_openings::<Position>(draw, 1).unwrap();
        let b = draw_openings::<Position>(draw, 3).unwrap();
        assert_eq!(a, b);
        let unique: HashSet<u64> = a
            .iter()
            .map(|o| o.game::<Position>().position().hash())
            .collect();
        assert_eq!(unique.len(), 70);
        for o in &a {
            assert_eq!(o.moves.len(), 6);
            assert_eq!(o.game::<Position>().position().fullmove(), 4);
        }
    }

    /// Game `G`'s book: at least `min` openings, each of `plies` moves from the start, each
    /// a different position, and a sample still level with a quick search (they were kept at
    /// a deep one); its first line is the command that made it.
    fn check_book<G: Game>(min: usize, plies: usize) {
        let book = book::<G>();
        assert!(book.len() >= min, "{}", book.len());
        let header = book_text::<G>().unwrap().lines().next().unwrap();
        assert!(header.starts_with("# bashni openings "), "{header}");
        assert_eq!(
            header.contains(&format!(" --variant {} ", G::VARIANT)),
            G::VARIANT != Variant::Bashni,
            "{header}"
        );
        let unique: HashSet<u64> = book
            .iter()
            .map(|o| o.game::<G>().position().hash())
            .collect();
        assert_eq!(unique.len(), book.len());
        assert!(
            book.iter()
                .all(|o| o.fen.is_none() && o.moves.len() == plies)
        );
        let mut e = Engine::new();
        let level = book
            .iter()
            .step_by(book.len() / 20)
            .take(20)
            .filter(|o| is_balanced(&mut e, &o.game::<G>(), 4, 150))
            .count();
        assert!(level >= 18, "{level} of 20");
    }

    #[test]
    fn the_book_is_large_balanced_and_distinct() {
        check_book::<Position>(2000, 8);
    }

    #[test]
    fn the_turkish_book_is_large_balanced_and_distinct() {
        check_book::<crate::games::turkish::Position>(500, 8);
    }

    #[test]
    fn the_russian_book_is_large_balanced_and_distinct() {
        check_book::<crate::games::russian::Position>(1500, 8);
    }

    #[test]
    fn the_brazilian_book_is_large_balanced_and_distinct() {
        check_book::<crate::games::brazilian::Position>(900, 8);
    }
}
