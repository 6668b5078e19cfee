//! `bashni analyse --pdn FILE`: the review of a PDN game ([`crate::review`]) from the
//! command line: one line per move as it is reviewed (ply, move, score after it for White,
//! the engine's best move and its score, the mark), a summary per side, and with `--out`
//! the game as PDN with each move's score as a comment (`{+0.35}`), the marks after the
//! moves (`c3-d4?!`) and the engine's move as a variation of each marked move.

use crate::analyse::AnalyseArgs;
use crate::files::read_regular_text;
use crate::games::{Game, Record, Variant};
use crate::play::save::MAX_LOAD_FILE;
use crate::record::game_record::pdn_move;
use crate::record::pdn::{PdnGame, PdnMove, parse_games, write_game};
use crate::review::{Budget, MoveReview, Review, SideSummary, review_game};
use crate::search::{Score, SearchControl};
use std::fmt;
use std::path::Path;

/// Depth each position is searched to when neither `--depth` nor `--movetime` is given.
pub const REVIEW_DEPTH: u32 = 8;

/// Why a review could not be made.
#[derive(Debug)]
pub enum ReviewError {
    /// The file could not be read or parsed.
    Load(String),
    /// `--game N` names no game of the file (N, games in it).
    NoSuchGame(usize, usize),
    /// The game's FEN or a move is not one of its game (what, why).
    Game(String),
    /// `--out` could not be written.
    Write(String),
    /// An option that a review does not take.
    Usage(String),
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Load(e) | ReviewError::Game(e) | ReviewError::Usage(e) => f.write_str(e),
            ReviewError::NoSuchGame(n, count) => {
                write!(f, "--game {n}: the file holds {count} game(s)")
            }
            ReviewError::Write(e) => write!(f, "--out: {e}"),
        }
    }
}

impl std::error::Error for ReviewError {}

/// Game `n` (1-based) of the PDN file `path`.
pub fn load_pdn_game(path: &str, n: usize) -> Result<PdnGame, ReviewError> {
    let text = read_regular_text(Path::new(path), MAX_LOAD_FILE)
        .map_err(|e| ReviewError::Load(format!("cannot read {path}: {e}")))?;
    let mut games = parse_games(&text).map_err(|e| ReviewError::Load(format!("{path}: {e}")))?;
    let count = games.len();
    if n == 0 || n > count {
        return Err(ReviewError::NoSuchGame(n, count));
    }
    Ok(games.swap_remove(n - 1))
}

/// The start position and moves of a PDN game of game `G`.
pub fn game_moves<G: Game>(g: &PdnGame) -> Result<(G, Vec<G::Move>), ReviewError> {
    let fen = g.tag("FEN").unwrap_or(G::START_FEN);
    let start =
        G::from_fen(fen).map_err(|e| ReviewError::Game(format!("bad FEN tag '{fen}': {e}")))?;
    let mut record = Record::new(start.clone());
    for (i, m) in g.moves.iter().enumerate() {
        record
            .play_text(&m.text)
            .map_err(|e| ReviewError::Game(format!("ply {}: {}: {e}", i + 1, m.text)))?;
    }
    Ok((start, record.moves().to_vec()))
}

/// A White-view score as a PDN comment writes it: `+0.35`, `+M3` / `-M2` (a win or loss
/// in N moves of the side that wins or loses).
pub fn comment_score(score: Score) -> String {
    match score {
        Score::Cp(_) => score.human(),
        Score::WinIn(p) => format!("+M{}", p.div_ceil(2)),
        Score::LossIn(p) => format!("-M{}", p.div_ceil(2)),
    }
}

/// One line of the review: ply, move, score after it, best move and its score, mark.
pub fn move_line<M: fmt::Display>(r: &MoveReview<M>) -> String {
    let best = r.best.as_ref().map_or("-".to_string(), |b| b.to_string());
    let mark = r.mark.map_or("", |m| m.symbol());
    format!(
        "{:>4}  {:<16} {:>8}  best {:<16} {:>8}  loss {:>5}  {mark}",
        r.ply,
        r.played.to_string(),
        comment_score(r.after),
        best,
        comment_score(r.best_score),
        r.loss_cp,
    )
}

/// The summary line of one side.
pub fn summary_line(side: &str, s: &SideSummary) -> String {
    format!(
        "{side}: {} moves, {} inaccuracies (?!), {} mistakes (?), {} blunders (??), \
         average loss {:.0} centi-men",
        s.moves, s.inaccuracies, s.mistakes, s.blunders, s.average_loss_cp
    )
}

/// The reviewed game as PDN: the original tags, each move with its score (White's view) as
/// its comment and its mark, and the engine's move as a variation of each marked move.
pub fn annotated<M: fmt::Display>(original: &PdnGame, variant: Variant, r: &Review<M>) -> PdnGame {
    let mut game = original.clone();
    let mut tags: Vec<(String, String)> = game
        .tags
        .drain(..)
        .filter(|(n, _)| n != "Annotator")
        .collect();
    tags.push(("Annotator".into(), "bashni analyse --pdn".into()));
    game.tags = tags;
    for (m, rv) in game.moves.iter_mut().zip(&r.moves) {
        m.comment = Some(comment_score(rv.after));
        m.mark = rv.mark.map_or(String::new(), |k| k.symbol().to_string());
        m.variations.clear();
        if let (Some(_), Some(best)) = (rv.mark, &rv.best) {
            m.variations.push(vec![PdnMove {
                comment: Some(comment_score(rv.best_score)),
                ..PdnMove::new(pdn_move(variant, &best.to_string()))
            }]);
        }
    }
    game
}

/// Runs the review of `bashni analyse --pdn`; returns the exit code.
pub fn run(args: &AnalyseArgs, path: &str) -> i32 {
    match review(args, path) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            match e {
                ReviewError::Write(_) => 1,
                _ => 2,
            }
        }
    }
}

fn review(args: &AnalyseArgs, path: &str) -> Result<(), ReviewError> {
    if args.infinite || args.multipv > 1 || !args.position.is_empty() || !args.moves.is_empty() {
        return Err(ReviewError::Usage(
            "--pdn reviews a whole game: give --depth or --movetime, not POSITION, --moves, \
             --multipv or --infinite"
                .into(),
        ));
    }
    let game = load_pdn_game(path, args.game)?;
    // The game's GameType tag names its game; without one, --variant does.
    let variant = game
        .tag("GameType")
        .and_then(Variant::from_pdn_game_type)
        .unwrap_or(args.variant);
    crate::for_variant!(variant, G => review_in::<G>(args, &game))
}

fn review_in<G: Game>(args: &AnalyseArgs, game: &PdnGame) -> Result<(), ReviewError> {
    let (start, moves) = game_moves::<G>(game)?;
    let mut engine = args.engine.engine().map_err(ReviewError::Usage)?;
    let budget = Budget {
        depth: args
            .depth
            .or((args.movetime.is_none()).then_some(REVIEW_DEPTH)),
        movetime: args.movetime,
        nodes: None,
    };
    println!(
        "Reviewing {} plies of {}; scores for White in men (100 centi-men = one man).",
        moves.len(),
        G::VARIANT
    );
    println!(
        "{:>4}  {:<16} {:>8}  {:<21} {:>8}  {:>10}  mark",
        "ply", "move", "after", "best", "score", "loss (cm)"
    );
    let control = SearchControl::new(false);
    let mut show = |_: usize, _: usize, done: &[MoveReview<G::Move>]| {
        if let Some(r) = done.last() {
            println!("{}", move_line(r));
        }
    };
    let review = review_game(&start, &moves, &mut engine, budget, &control, &mut show);
    println!("{}", summary_line("White", &review.white));
    println!("{}", summary_line("Black", &review.black));
    if let Some(out) = &args.out {
        let text = write_game(&annotated(game, G::VARIANT, &review));
        crate::play::save::may_write(out).map_err(ReviewError::Write)?;
        crate::files::replace(std::path::Path::new(out), text.as_bytes())
            .map_err(|e| ReviewError::Write(format!("{out}: {e}")))?;
        println!("Annotated game written to {out}");
    }
    Ok(())
}
