//! Game review: every position of a game searched at one budget, each move scored against
//! the engine's best move, and marked `?!`, `?` or `??` by how much it lowered the mover's
//! winning chances.
//!
//! Scores are centi-men (100 = one man in every game, [`crate::games::Game::MAN`]). A score
//! becomes winning chances with lichess' logistic curve, `wc(cp) = 2 / (1 + exp(-0.00368208
//! * cp)) - 1` (from -1, lost, to +1, won; a win or loss in N moves is ±10 000 cp, so ±1),
//! and a move is marked by the drop of its mover's winning chances from the best move's
//! score to the score after it: at least [`INACCURACY`] (0.10) `?!`, [`MISTAKE`] (0.20) `?`,
//! [`BLUNDER`] (0.30) `??` — lichess' thresholds. The mover's loss in expected score
//! (`(1 + wc) / 2`, from 0 to 1) is half that drop. The engine's own move is never marked,
//! nor is a move from an opening book (not the player's choice: [`GameToReview::book_plies`]),
//! which is not counted in its side's summary either. A position the game's rules have ended
//! is worth its result ([`Eval::Over`]), not a distance to a win.
//! Generic over [`Game`]: it works for every game.

use crate::games::kit::Color;
use crate::games::{Game, Outcome, Record};
use crate::search::{Engine, Score, SearchControl, SearchLimits};
use std::fmt;

/// Drop in winning chances (-1..1) that marks an inaccuracy `?!`.
pub const INACCURACY: f64 = 0.10;
/// Drop in winning chances that marks a mistake `?`.
pub const MISTAKE: f64 = 0.20;
/// Drop in winning chances that marks a blunder `??`.
pub const BLUNDER: f64 = 0.30;
/// Slope of lichess' winning-chances curve, per centi-man (a centipawn there).
pub const SLOPE: f64 = 0.003_682_08;
/// Centi-men a win or loss in N moves counts as.
pub const DECISIVE_CP: i32 = 10_000;
/// Largest loss of one move counted in the average (as lichess' average centipawn loss).
pub const LOSS_CAP_CP: i32 = 1_000;
/// Lichess' accuracy of one move from its drop in win percent `d` (0 to 100):
/// `ACCURACY_SCALE * exp(-ACCURACY_DECAY * d) - ACCURACY_OFFSET`, kept within 0 to 100.
pub const ACCURACY_SCALE: f64 = 103.1668;
/// See [`ACCURACY_SCALE`].
pub const ACCURACY_DECAY: f64 = 0.04354;
/// See [`ACCURACY_SCALE`].
pub const ACCURACY_OFFSET: f64 = 3.1669;

/// How long each position is searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Search to this depth.
    pub depth: Option<u32>,
    /// Think this many milliseconds.
    pub movetime: Option<u64>,
    /// Search this many nodes.
    pub nodes: Option<u64>,
}

impl Budget {
    /// The search limits of this budget (depth 8 when it sets nothing).
    pub fn limits<M>(&self) -> SearchLimits<M> {
        let none = self.depth.is_none() && self.movetime.is_none() && self.nodes.is_none();
        SearchLimits {
            depth: if none { Some(8) } else { self.depth },
            movetime: self.movetime,
            nodes: self.nodes,
            ..Default::default()
        }
    }
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// `?!`: lowered the mover's winning chances by at least [`INACCURACY`].
    Inaccuracy,
    /// `?`: by at least [`MISTAKE`].
    Mistake,
    /// `??`: by at least [`BLUNDER`].
    Blunder,
}

impl Mark {
    /// The PDN annotation: `?!`, `?` or `??`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The mark of a drop in winning chances, if it earns one.
    pub fn of_drop(drop: f64) -> Option<Mark> {
        if drop >= BLUNDER {
            Some(Mark::Blunder)
        } else if drop >= MISTAKE {
            Some(Mark::Mistake)
        } else if drop >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// A score as centi-men for the curve: a win or loss as ±[`DECISIVE_CP`].
pub fn centi(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c.clamp(-DECISIVE_CP, DECISIVE_CP),
        Score::WinIn(_) => DECISIVE_CP,
        Score::LossIn(_) => -DECISIVE_CP,
    }
}

/// Lichess' winning chances of a score (-1 lost .. +1 won).
pub fn winning_chances(score: Score) -> f64 {
    2.0 / (1.0 + (-SLOPE * f64::from(centi(score))).exp()) - 1.0
}

/// A score from the other side's view.
pub fn negated(score: Score) -> Score {
    match score {
        Score::Cp(c) => Score::Cp(-c),
        Score::WinIn(p) => Score::LossIn(p),
        Score::LossIn(p) => Score::WinIn(p),
    }
}

/// A score of `side` to move as White's.
pub fn white_view(score: Score, side: Color) -> Score {
    if side == Color::White {
        score
    } else {
        negated(score)
    }
}

/// What a position is worth in a review, White's view: the search's score, or, for a game
/// its rules have ended, how it ended (won, lost or drawn: no win is any moves away).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// The search's score.
    Score(Score),
    /// The game is over.
    Over(Outcome),
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview<M> {
    /// Its ply in the game, 1 for the first move.
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The move.
    pub played: M,
    /// What the position after it is worth.
    pub after: Eval,
    /// The engine's best move in the position before it (`None`: no search was possible).
    pub best: Option<M>,
    /// What that position (its best move) is worth.
    pub best_score: Eval,
    /// What the move cost its mover, centi-men (0 or more; decisive scores as
    /// ±[`DECISIVE_CP`]).
    pub loss_cp: i32,
    /// What it cost its mover in expected score (0 to 1).
    pub expected_loss: f64,
    /// Its mark, if it earned one (never for a book move).
    pub mark: Option<Mark>,
    /// Whether it came from the opening book: not the player's choice, so never marked and
    /// left out of its side's summary.
    pub book: bool,
}

/// One side's totals (of its own moves: book moves are only counted in `book`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves judged (not from the book).
    pub moves: usize,
    /// Moves from the opening book, not judged.
    pub book: usize,
    /// `?!` marks.
    pub inaccuracies: usize,
    /// `?` marks.
    pub mistakes: usize,
    /// `??` marks.
    pub blunders: usize,
    /// Average loss per move, centi-men (each loss capped at [`LOSS_CAP_CP`]).
    pub average_loss_cp: f64,
}

/// The review of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review<M> {
    /// One entry per move, in order.
    pub moves: Vec<MoveReview<M>>,
    /// White's totals.
    pub white: SideSummary,
    /// Black's totals.
    pub black: SideSummary,
    /// Whether the review stopped before the end (its `control` was stopped).
    pub stopped: bool,
}

/// Totals of `side`'s moves in `moves`.
pub fn summarise<M>(moves: &[MoveReview<M>], side: Color) -> SideSummary {
    let mut s = SideSummary::default();
    let mut loss = 0i64;
    for m in moves.iter().filter(|m| m.mover == side) {
        if m.book {
            s.book += 1;
            continue;
        }
        s.moves += 1;
        loss += i64::from(m.loss_cp.min(LOSS_CAP_CP));
        match m.mark {
            Some(Mark::Inaccuracy) => s.inaccuracies += 1,
            Some(Mark::Mistake) => s.mistakes += 1,
            Some(Mark::Blunder) => s.blunders += 1,
            None => {}
        }
    }
    if s.moves > 0 {
        s.average_loss_cp = loss as f64 / s.moves as f64;
    }
    s
}

/// The accuracy of a move (0 to 100) that cost its mover `expected_loss` (0 to 1, half the
/// drop in winning chances): lichess' formula on the drop in win percent, where win% =
/// 50 + 50 * [`winning_chances`], so the drop is `100 * expected_loss`. A move that loses
/// nothing (the engine's own) scores 99.9999, as lichess' constants give.
pub fn move_accuracy(expected_loss: f64) -> f64 {
    let drop = 100.0 * expected_loss.clamp(0.0, 1.0);
    (ACCURACY_SCALE * (-ACCURACY_DECAY * drop).exp() - ACCURACY_OFFSET).clamp(0.0, 100.0)
}

/// `side`'s accuracy in `moves`: the mean of [`move_accuracy`] over its judged moves (book
/// moves left out); None when it has none.
pub fn accuracy<M>(moves: &[MoveReview<M>], side: Color) -> Option<f64> {
    let judged: Vec<f64> = moves
        .iter()
        .filter(|m| m.mover == side && !m.book)
        .map(|m| move_accuracy(m.expected_loss))
        .collect();
    (!judged.is_empty()).then(|| judged.iter().sum::<f64>() / judged.len() as f64)
}

/// What one position's search found, from the side to move's view.
struct Found<M> {
    best: Option<M>,
    score: Score,
    /// How the game ended, if its rules have ended it (`score` is then the result's).
    over: Option<Outcome>,
}

impl<M> Found<M> {
    /// What the position is worth, White's view, `side` to move.
    fn eval(&self, score: Score, side: Color) -> Eval {
        match self.over {
            Some(outcome) => Eval::Over(outcome),
            None => Eval::Score(white_view(score, side)),
        }
    }
}

/// The score of a position the game's rules have ended, side to move's view.
fn ended(outcome: Outcome, side: Color) -> Score {
    match outcome.winner() {
        None => Score::Cp(0),
        Some(w) if w == side => Score::WinIn(0),
        Some(_) => Score::LossIn(0),
    }
}

/// Searches `record`'s position (or reads its end).
fn search_position<G: Game>(
    record: &Record<G>,
    engine: &mut Engine,
    limits: &SearchLimits<G::Move>,
    control: &SearchControl,
) -> Found<G::Move> {
    let side = record.position().side_to_move();
    if let Some(outcome) = record.outcome() {
        return Found {
            best: None,
            score: ended(outcome, side),
            over: Some(outcome),
        };
    }
    // A search's clock starts with its control (`SearchControl::started`), and one control
    // serves the whole review (stopping it stops the review): each position's think time is
    // counted from now, not from the review's start.
    let mut limits = limits.clone();
    if let Some(ms) = limits.movetime {
        let now = control.started().elapsed().as_millis() as u64;
        limits.movetime = Some(now.saturating_add(ms));
    }
    let r = engine.search(
        record.position(),
        record.history(),
        &limits,
        control,
        &mut |_| {},
    );
    Found {
        best: r.best,
        score: r.score,
        over: None,
    }
}

/// The review of move `ply` (1-based), from the searches of the positions before and after.
fn judge<M: Copy + PartialEq>(
    ply: usize,
    mover: Color,
    played: M,
    before: &Found<M>,
    after: &Found<M>,
) -> MoveReview<M> {
    // Both from the mover's view.
    let best = before.score;
    let got = negated(after.score);
    let engine_move = before.best == Some(played);
    let (loss_cp, drop) = if engine_move {
        (0, 0.0)
    } else {
        (
            (centi(best) - centi(got)).max(0),
            (winning_chances(best) - winning_chances(got)).max(0.0),
        )
    };
    MoveReview {
        ply,
        mover,
        played,
        after: after.eval(got, mover),
        best: before.best,
        best_score: before.eval(best, mover),
        loss_cp,
        expected_loss: drop / 2.0,
        mark: Mark::of_drop(drop),
        book: false,
    }
}

impl<M> MoveReview<M> {
    /// The same move played from the opening book: unmarked.
    fn played_from_book(self) -> Self {
        MoveReview {
            mark: None,
            book: true,
            ..self
        }
    }
}

/// A game to review.
#[derive(Clone, Copy, Debug)]
pub struct GameToReview<'a, G: Game> {
    /// Where it starts.
    pub start: &'a G,
    /// Its moves.
    pub moves: &'a [G::Move],
    /// How many of its first moves came from an opening book (a PDN of `bashni match`
    /// comments them `{book}`).
    pub book_plies: usize,
}

/// The progress callback of [`review_game`]: (moves done, moves in all, the reviews so far).
pub type Progress<'a, M> = dyn FnMut(usize, usize, &[MoveReview<M>]) + 'a;

/// Reviews `game`: each of its `moves.len() + 1` positions is searched with `budget` (a
/// fresh table for the game), and `progress(done, total, reviewed)` is called after each
/// move's review (`done` of `total` moves). A stopped `control` ends the review early with
/// the moves reviewed so far.
pub fn review_game<G: Game>(
    game: &GameToReview<'_, G>,
    engine: &mut Engine,
    budget: Budget,
    control: &SearchControl,
    progress: &mut Progress<'_, G::Move>,
) -> Review<G::Move> {
    let limits = budget.limits::<G::Move>();
    engine.new_game();
    let moves = game.moves;
    let mut record = Record::new(game.start.clone());
    let mut reviewed = Vec::with_capacity(moves.len());
    let mut before = search_position(&record, engine, &limits, control);
    let mut stopped = false;
    for (i, &m) in moves.iter().enumerate() {
        if control.is_stopped() {
            stopped = true;
            break;
        }
        let mover = record.position().side_to_move();
        record.play(m);
        let after = search_position(&record, engine, &limits, control);
        let review = judge(i + 1, mover, m, &before, &after);
        reviewed.push(if i < game.book_plies {
            review.played_from_book()
        } else {
            review
        });
        progress(i + 1, moves.len(), &reviewed);
        before = after;
    }
    Review {
        white: summarise(&reviewed, Color::White),
        black: summarise(&reviewed, Color::Black),
        moves: reviewed,
        stopped,
    }
}

/// Judges `played`, a legal move in `record`'s position (a game not over), as a review at
/// `budget` would: that position and the one after `played` searched with a fresh table, and
/// the drop marked by the same thresholds. "Learn from your mistakes" asks this of each move
/// the person tries; at a node or depth budget the answer is the same every time.
pub fn judge_move<G: Game>(
    record: &Record<G>,
    played: G::Move,
    engine: &mut Engine,
    budget: Budget,
    control: &SearchControl,
) -> MoveReview<G::Move> {
    let limits = budget.limits::<G::Move>();
    engine.new_game();
    let mover = record.position().side_to_move();
    let before = search_position(record, engine, &limits, control);
    let mut next = record.clone();
    next.play(played);
    let after = search_position(&next, engine, &limits, control);
    judge(record.moves().len() + 1, mover, played, &before, &after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curve_and_marks() {
        assert!(winning_chances(Score::Cp(0)).abs() < 1e-9);
        assert!((winning_chances(Score::WinIn(3)) - 1.0).abs() < 1e-9);
        assert!((winning_chances(Score::Cp(100)) - 0.1820).abs() < 1e-3);
        assert_eq!(Mark::of_drop(0.05), None);
        assert_eq!(Mark::of_drop(0.1), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of_drop(0.25), Some(Mark::Mistake));
        assert_eq!(Mark::of_drop(0.9), Some(Mark::Blunder));
        let before = Found {
            best: Some(1u8),
            score: Score::Cp(50),
            over: None,
        };
        // The mover drops a man: the opponent reads +0.50 after it.
        let after = Found {
            best: Some(2u8),
            score: Score::Cp(50),
            over: None,
        };
        let r = judge(3, Color::White, 7u8, &before, &after);
        assert_eq!(r.loss_cp, 100);
        assert_eq!(r.after, Eval::Score(Score::Cp(-50)));
        assert_eq!(r.mark, Some(Mark::Inaccuracy));
        let engine_move = judge(3, Color::Black, 1u8, &before, &after);
        assert_eq!((engine_move.loss_cp, engine_move.mark), (0, None));
        assert_eq!(engine_move.after, Eval::Score(Score::Cp(50)));
        let s = summarise(&[r.clone(), engine_move], Color::White);
        assert_eq!((s.moves, s.inaccuracies), (1, 1));
        assert!((s.average_loss_cp - 100.0).abs() < 1e-9);
        // The same move from the book: unmarked, and out of the summary.
        let book = r.played_from_book();
        assert_eq!((book.mark, book.book, book.loss_cp), (None, true, 100));
        let s = summarise(&[book], Color::White);
        assert_eq!((s.moves, s.book, s.inaccuracies), (0, 1, 0));
        assert_eq!(s.average_loss_cp, 0.0);
    }

    #[test]
    fn accuracy_is_lichess_formula_on_the_win_percent_drop() {
        assert!((move_accuracy(0.0) - 99.9999).abs() < 1e-9);
        // A drop of 10 win-percent points (winning chances 0.2, expected score 0.1).
        let ten = ACCURACY_SCALE * (-ACCURACY_DECAY * 10.0).exp() - ACCURACY_OFFSET;
        assert!((move_accuracy(0.1) - ten).abs() < 1e-9 && (ten - 63.58).abs() < 0.01);
        assert_eq!(move_accuracy(1.0), 0.0, "a thrown win is 0, not below");
        let m = |mover, expected_loss, book| MoveReview {
            ply: 1,
            mover,
            played: 0u8,
            after: Eval::Score(Score::Cp(0)),
            best: None,
            best_score: Eval::Score(Score::Cp(0)),
            loss_cp: 0,
            expected_loss,
            mark: None,
            book,
        };
        let moves = [
            m(Color::White, 0.0, false),
            m(Color::White, 0.1, false),
            m(Color::White, 0.5, true),
            m(Color::Black, 0.0, true),
        ];
        let white = accuracy(&moves, Color::White).unwrap();
        assert!((white - (99.9999 + ten) / 2.0).abs() < 1e-9, "{white}");
        assert_eq!(accuracy(&moves, Color::Black), None, "book moves only");
    }

    #[test]
    fn a_finished_game_is_worth_its_result_not_a_win_in_zero_moves() {
        let before = Found {
            best: Some(1u8),
            score: Score::WinIn(1),
            over: None,
        };
        // White's move leaves Black without a legal move.
        let outcome = Outcome::NoLegalMove(Color::White);
        let after = Found {
            best: None,
            score: ended(outcome, Color::Black),
            over: Some(outcome),
        };
        let r = judge(9, Color::White, 1u8, &before, &after);
        assert_eq!(r.after, Eval::Over(outcome));
        assert_eq!(r.best_score, Eval::Score(Score::WinIn(1)));
        assert_eq!((r.loss_cp, r.mark), (0, None));
    }
}
