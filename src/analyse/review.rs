//! `bashni analyse --pdn FILE`: the review of a PDN game ([`crate::review`]) from the
//! command line: one line per move as it is reviewed (ply, move, score after it for White,
//! the engine's best move and its score, the mark), a summary per side, and with `--out`
//! the game as PDN with each move's score as a comment (`{+0.35}`), the marks after the
//! moves (`c3-d4?!`) and the engine's move as a variation of each marked move.
//!
//! The moves a PDN comments `{book}` (the opening of a `bashni match` game) are the book's,
//! not the players': their lines say `book` instead of a mark, and the summaries leave them
//! out. A game the rules ended is worth its result (`1-0`), not a win in 0 moves.

use super::args::AnalyseArgs;
use crate::display::{counted, plies};
use crate::files::read_regular_text;
use crate::games::kit::Color;
use crate::games::{Game, Record, Variant};
use crate::play::save::MAX_LOAD_FILE;
use crate::record::game_record::{BOOK_COMMENT as BOOK, pdn_move};
use crate::record::pdn::{PdnGame, PdnMove, parse_games};
use crate::record::pdn_write::write_game;
use crate::record::result::Termination;
use crate::review::{
    Budget, Eval, GameToReview, MoveReview, Review, SideSummary, accuracy, review_game,
};
use crate::search::{DECISIVE_CP, Score, SearchControl};
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
                let held = counted(*count as u64, "game", "games");
                write!(f, "--game {n}: the file holds {held}")
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

/// How many of the game's first moves are from the book: the moves before the first one
/// whose comment does not start with the word [`BOOK`] (`{book}`, as `bashni match` writes
/// the opening, or `{book +0.20}`, as `--out` writes it back).
pub fn book_plies(g: &PdnGame) -> usize {
    let from_book = |m: &&PdnMove| {
        m.comment
            .as_deref()
            .and_then(|c| c.split_whitespace().next())
            .is_some_and(|w| w.eq_ignore_ascii_case(BOOK))
    };
    g.moves.iter().take_while(from_book).count()
}

/// A White-view value as a PDN comment writes it: `+0.35`, `+-` / `-+` from
/// [`DECISIVE_CP`] on (the annotators' "White / Black has a decisive advantage": a figure
/// there would not mean men), `+M3` / `-M2` (a win or loss in N moves of the side that wins
/// or loses), or the result of a finished game (`1-0`, `0-1`, `1/2-1/2`).
pub fn comment_score(eval: Eval) -> String {
    match eval {
        Eval::Over(outcome) => Termination::of_outcome(outcome).0.pdn().to_string(),
        Eval::Score(Score::Cp(c)) if c >= DECISIVE_CP => "+-".to_string(),
        Eval::Score(Score::Cp(c)) if c <= -DECISIVE_CP => "-+".to_string(),
        // Mates in moves, as the protocol's `mate N` counts them.
        Eval::Score(score) => match score.mate_moves() {
            None => score.human(),
            Some(n) if n < 0 => format!("-M{}", -n),
            Some(n) => format!("+M{n}"),
        },
    }
}

/// What the mark column says of a move: its mark, `book`, or nothing.
fn mark_text<M>(r: &MoveReview<M>) -> &'static str {
    if r.book {
        BOOK
    } else {
        r.mark.map_or("", |m| m.symbol())
    }
}

/// One line of the review: ply, move, score after it, best move and its score, mark.
pub fn move_line<M: fmt::Display>(r: &MoveReview<M>) -> String {
    let best = r.best.as_ref().map_or("-".to_string(), |b| b.to_string());
    let mark = mark_text(r);
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

/// The summary line of one side: its moves (and its book moves, not judged, if any), its
/// marks, its average loss and its accuracy (as the page's review shows it; none before its
/// first judged move).
pub fn summary_line(side: &str, s: &SideSummary, accuracy: Option<f64>) -> String {
    let count = |n: usize, one, many| counted(n as u64, one, many);
    let book = if s.book > 0 {
        format!(" (after {})", count(s.book, "book move", "book moves"))
    } else {
        String::new()
    };
    let accuracy = accuracy.map_or(String::new(), |a| format!(", accuracy {a:.1} %"));
    format!(
        "{side}: {}{book}, {} (?!), {} (?), {} (??), average loss {:.0} centi-men{accuracy}",
        count(s.moves, "move", "moves"),
        count(s.inaccuracies, "inaccuracy", "inaccuracies"),
        count(s.mistakes, "mistake", "mistakes"),
        count(s.blunders, "blunder", "blunders"),
        s.average_loss_cp
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
        let score = comment_score(rv.after);
        m.comment = Some(if rv.book {
            format!("{BOOK} {score}")
        } else {
            score
        });
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
    let game = load_pdn_game(path, args.game_number())?;
    // The game's GameType tag names its game; without one, --variant does.
    let variant = game
        .tag("GameType")
        .and_then(Variant::from_pdn_game_type)
        .unwrap_or(args.variant);
    crate::for_variant!(variant, G => review_in::<G>(args, &game))
}

fn review_in<G: Game>(args: &AnalyseArgs, game: &PdnGame) -> Result<(), ReviewError> {
    let (start, moves) = game_moves::<G>(game)?;
    let to_review = GameToReview {
        start: &start,
        moves: &moves,
        book_plies: book_plies(game),
    };
    let mut engine = args.engine.engine().map_err(ReviewError::Usage)?;
    let budget = Budget {
        depth: args
            .depth
            .or((args.movetime.is_none()).then_some(REVIEW_DEPTH)),
        movetime: args.movetime,
        nodes: None,
    };
    println!(
        "Reviewing {} of {}; scores for White in men (100 centi-men = one man).",
        plies(moves.len() as u64),
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
    let review = review_game(&to_review, &mut engine, budget, &control, &mut show);
    for (name, side, summary) in [
        ("White", Color::White, &review.white),
        ("Black", Color::Black, &review.black),
    ] {
        println!(
            "{}",
            summary_line(name, summary, accuracy(&review.moves, side))
        );
    }
    if let Some(out) = &args.out {
        let text = write_game(&annotated(game, G::VARIANT, &review));
        crate::play::save::may_write(out).map_err(ReviewError::Write)?;
        crate::files::replace(std::path::Path::new(out), text.as_bytes())
            .map_err(|e| ReviewError::Write(format!("{out}: {e}")))?;
        println!("Annotated game written to {out}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Outcome;
    use crate::record::pdn::parse_games;
    use crate::search::Score;

    #[test]
    fn a_finished_game_is_written_as_its_result() {
        let over = |o| comment_score(Eval::Over(o));
        assert_eq!(over(Outcome::NoLegalMove(Color::White)), "1-0");
        assert_eq!(over(Outcome::KingAgainstMan(Color::Black)), "0-1");
        assert_eq!(over(Outcome::Repetition), "1/2-1/2");
        assert_eq!(over(Outcome::ClockRule), "1/2-1/2");
        assert_eq!(comment_score(Eval::Score(Score::WinIn(5))), "+M3");
        assert_eq!(comment_score(Eval::Score(Score::LossIn(2))), "-M1");
        assert_eq!(comment_score(Eval::Score(Score::Cp(-35))), "-0.35");
    }

    #[test]
    fn the_book_is_the_moves_commented_book_from_the_start() {
        let g = |text: &str| parse_games(text).unwrap().remove(0);
        let played = g("1. c3-d4 {book} f6-e5 {book} 2. d4:f6 {+0.10/1 0.1s} g7:e5 {book} *");
        assert_eq!(book_plies(&played), 2);
        let reviewed = g("1. c3-d4 {book +0.20} f6-e5 {-0.05} *");
        assert_eq!(book_plies(&reviewed), 1);
        assert_eq!(book_plies(&g("1. c3-d4 {not book} *")), 0);
        assert_eq!(book_plies(&g("1. c3-d4 f6-e5 {book} *")), 0);
    }

    #[test]
    fn summaries_count_in_their_number() {
        let s = SideSummary {
            moves: 1,
            book: 0,
            inaccuracies: 1,
            mistakes: 2,
            blunders: 0,
            average_loss_cp: 12.4,
        };
        assert_eq!(
            summary_line("White", &s, Some(87.26)),
            "White: 1 move, 1 inaccuracy (?!), 2 mistakes (?), 0 blunders (??), average loss \
             12 centi-men, accuracy 87.3 %"
        );
        let s = SideSummary {
            moves: 2,
            book: 1,
            blunders: 1,
            ..s
        };
        assert_eq!(
            summary_line("Black", &s, None),
            "Black: 2 moves (after 1 book move), 1 inaccuracy (?!), 2 mistakes (?), 1 blunder \
             (??), average loss 12 centi-men"
        );
    }
}
