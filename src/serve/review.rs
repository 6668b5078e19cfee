//! Game reviews for the page: `POST /api/games/<id>/review` with `{"nodes": n}`,
//! `{"depth": d}` or `{"movetime_ms": n}` starts a review of the game's moves
//! ([`crate::review`]) apart from the request (on a thread of its own natively, as the
//! browser's host's next work there: [`Backend::start_review`]), one per game at a time and
//! at most [`MAX_RUNNING`] in the server. A node budget (the page's) is
//! reproducible: the same game gets the same report on any machine; a depth is capped at
//! [`MAX_MOVETIME_MS`] a position, and a whole review at [`MAX_REVIEW_SECS`]. The report is the
//! game's own ([`super::review_report::GameReview`]) and names its budget: each move reviewed
//! goes to the game's event streams as a `review` event carrying that move, `GET
//! /api/games/<id>/review` answers the whole report, and closing the game stops the review at
//! once and frees its report (the thread holds the game only weakly). `POST
//! /api/games/<id>/review/try` judges one move of the person's as a review would ("learn from
//! your mistakes").

use super::engine_worker::Backend;
use super::error::{ApiError, ErrorKind, quote};
use super::json::{self, Value};
use super::registry::{Registry, SharedSession};
use super::session::{Session, lock};
use crate::games::kit::Color;
use crate::games::{Game, Record};
use crate::platform::Instant;
use crate::record::result::Termination;
use crate::review::{
    Budget, Eval, GameToReview, MoveReview, SideSummary, accuracy, judge_move, review_game,
    summarise,
};
use crate::search::{Engine, Poll, Score, SearchControl};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// A request for a review or a tried move: the game asked about and the budget asked for
/// (read in one place for both), with the request's body.
pub struct Asked<'a> {
    /// The game's id.
    pub id: &'a str,
    /// The game.
    pub session: SharedSession,
    /// The budget of each position's search ([`budget`]).
    pub budget: Budget,
    /// The request's body, for what else it asks.
    pub body: &'a Value,
}

impl<'a> Asked<'a> {
    /// Reads the budget of `body` and finds game `id`.
    pub fn read(reg: &Registry, id: &'a str, body: &'a Value) -> Result<Asked<'a>, ApiError> {
        let budget = budget(body)?;
        let session = reg.get(id)?;
        Ok(Asked {
            id,
            session,
            budget,
            body,
        })
    }
}

/// Most reviews running at once in the server.
pub const MAX_RUNNING: usize = 2;
/// Longest search of one position, milliseconds (a depth review is cut there too).
pub const MAX_MOVETIME_MS: u64 = 5_000;
/// Longest review, seconds: past it the review stops after the move it is on, and its
/// last report (`running` false) has fewer moves than the game.
pub const MAX_REVIEW_SECS: u64 = 300;
/// Deepest search a review may ask for.
pub const MAX_DEPTH: u32 = 20;
/// Most nodes a review may search in one position. A node budget is the reproducible one:
/// the same game reviewed twice gets the same marks on any machine, however busy, and
/// its time is bounded (no time cap cuts it short, as one may cut a depth).
pub const MAX_NODES: u64 = 5_000_000;
/// Transposition table of a review's engine, MiB.
const REVIEW_HASH_MB: usize = 16;

/// The server's reviews (each game keeps its own report).
pub struct Reviews {
    /// Reviews running now.
    running: AtomicUsize,
    /// Where they run.
    backend: Arc<dyn Backend>,
}

/// A review thread's place in [`Reviews::running`], given back when the thread ends.
struct Running(Arc<Reviews>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

fn bad(what: &str) -> ApiError {
    ApiError::new(ErrorKind::BadRequest, what)
}

/// The budget a request body asks for: one of `nodes`, `depth` or `movetime_ms`.
pub fn budget(body: &Value) -> Result<Budget, ApiError> {
    let number = |k: &'static str| body.get(k).map(|v| v.as_u64().ok_or(k));
    match (number("nodes"), number("depth"), number("movetime_ms")) {
        (Some(Ok(n)), None, None) if (1..=MAX_NODES).contains(&n) => Ok(Budget {
            nodes: Some(n),
            ..Budget::default()
        }),
        (None, Some(Ok(d)), None) if (1..=u64::from(MAX_DEPTH)).contains(&d) => Ok(Budget {
            depth: Some(d as u32),
            movetime: Some(MAX_MOVETIME_MS),
            nodes: None,
        }),
        (None, None, Some(Ok(ms))) if (1..=MAX_MOVETIME_MS).contains(&ms) => Ok(Budget {
            movetime: Some(ms),
            ..Budget::default()
        }),
        _ => Err(bad(&format!(
            "give one of 'nodes' (1 to {MAX_NODES}), 'depth' (1 to {MAX_DEPTH}) or \
             'movetime_ms' (1 to {MAX_MOVETIME_MS})"
        ))),
    }
}

/// A budget as the report names it: `{"nodes": n}`, `{"depth": d}` or `{"movetime_ms": ms}`
/// (a depth's cap in time left out).
pub fn budget_json(b: &Budget) -> Value {
    let (key, n) = match (b.nodes, b.depth, b.movetime) {
        (Some(n), _, _) => ("nodes", n),
        (None, Some(d), _) => ("depth", u64::from(d)),
        (None, None, ms) => ("movetime_ms", ms.unwrap_or(0)),
    };
    json::object([(key, Value::from(n))])
}

/// A White-view value as the page reads it: [`json::cp`] (centi-men), `{"mate": n}` (White
/// wins in n moves, or loses in -n), or `{"result": "1-0"}` for a game the rules ended
/// (`0-1`, `1/2-1/2`): over, not a win in 0 moves.
fn score_json(e: Eval) -> Value {
    match e {
        Eval::Over(o) => {
            json::object([("result", Value::from(Termination::of_outcome(o).0.pdn()))])
        }
        Eval::Score(Score::Cp(c)) => json::cp(c),
        Eval::Score(other) => {
            json::object([("mate", Value::from(other.mate_moves().unwrap_or(0)))])
        }
    }
}

/// One side's summary, with its accuracy (0 to 100, one decimal; null before its first move).
fn side_json(s: &SideSummary, accuracy: Option<f64>) -> Value {
    let accuracy = accuracy.map(|a| (a * 10.0).round() / 10.0);
    json::object([
        ("accuracy", Value::from(accuracy)),
        ("moves", Value::from(s.moves)),
        ("inaccuracies", Value::from(s.inaccuracies)),
        ("mistakes", Value::from(s.mistakes)),
        ("blunders", Value::from(s.blunders)),
        (
            "average_loss_cp",
            Value::from(s.average_loss_cp.round() as i64),
        ),
    ])
}

/// One move's entry in a report.
fn entry_json<M: std::fmt::Display>(r: &MoveReview<M>) -> Value {
    json::object([
        ("ply", Value::from(r.ply)),
        ("move", Value::from(r.played.to_string())),
        ("eval", score_json(r.after)),
        ("best", Value::from(r.best.as_ref().map(|b| b.to_string()))),
        ("best_eval", score_json(r.best_score)),
        ("loss_cp", Value::from(r.loss_cp)),
        ("mark", Value::from(r.mark.map(|m| m.symbol()))),
    ])
}

/// The summary of the moves reviewed so far: `{"white": {...}, "black": {...}}`.
fn summary_json<M>(moves: &[MoveReview<M>]) -> Value {
    json::object([
        (
            "white",
            side_json(
                &summarise(moves, Color::White),
                accuracy(moves, Color::White),
            ),
        ),
        (
            "black",
            side_json(
                &summarise(moves, Color::Black),
                accuracy(moves, Color::Black),
            ),
        ),
    ])
}

impl Reviews {
    /// No review yet; they run on `backend`.
    pub fn new(backend: Arc<dyn Backend>) -> Reviews {
        Reviews {
            running: AtomicUsize::new(0),
            backend,
        }
    }

    /// Reviews running now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// `GET /api/games/<id>/review`: the whole report of game `id`.
    pub fn whole(&self, reg: &Registry, id: &str) -> Result<Value, ApiError> {
        let session = reg.get(id)?;
        let report = lock(&session).review.whole();
        report.ok_or_else(|| {
            ApiError::new(
                ErrorKind::NotFound,
                format!("game {id} has no review: POST one first"),
            )
        })
    }

    /// Takes a place for one more review thread, if fewer than [`MAX_RUNNING`] run.
    fn take_place(self: &Arc<Self>) -> Result<Running, ApiError> {
        self.running
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < MAX_RUNNING).then_some(n + 1)
            })
            .map_err(|_| {
                ApiError::new(
                    ErrorKind::Busy,
                    format!("{MAX_RUNNING} reviews are running already; try again later"),
                )
            })?;
        Ok(Running(Arc::clone(self)))
    }

    /// `POST /api/games/<id>/review/try`: `{"ply": p, "move": m}` and a budget (as a review
    /// takes one): what move `m`, played after the first `p` plies of the game's line, costs
    /// its mover, judged as a review at that budget judges ([`judge_move`]): a report entry
    /// (its `ply` is p + 1) with `accepted` true when it earns no mark. "Learn from your
    /// mistakes" asks it; it runs on the HTTP layer's blocking pool, in one of the
    /// [`MAX_RUNNING`] places of the reviews.
    pub fn try_move(self: &Arc<Self>, asked: Asked<'_>) -> Result<Value, ApiError> {
        let Asked {
            session,
            budget,
            body,
            ..
        } = asked;
        let text = body
            .get("move")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("give 'move', the move to try"))?
            .to_string();
        let (variant, fen, moves) = {
            let s = lock(&session);
            let g = s.game();
            let held = g.moves().len();
            let ply = body
                .get("ply")
                .and_then(Value::as_u64)
                .filter(|&p| p <= held as u64)
                .ok_or_else(|| {
                    bad(&format!(
                        "give 'ply', the plies before the move (0 to {held})"
                    ))
                })?;
            (
                g.variant(),
                g.fens()[0].clone(),
                g.moves()[..ply as usize].to_vec(),
            )
        };
        let _place = self.take_place()?;
        let poll = self.backend.poll();
        crate::for_variant!(variant, G => try_in::<G>(&fen, &moves, &text, budget, poll))
    }

    /// `POST /api/games/<id>/review`: starts the review of game `id`'s moves; answers its
    /// first report, which every stream of the game gets too.
    pub fn start(self: &Arc<Self>, asked: Asked<'_>) -> Result<Value, ApiError> {
        let Asked {
            id,
            session,
            budget,
            ..
        } = asked;
        let mut s = lock(&session);
        if s.review.is_running() {
            return Err(ApiError::new(
                ErrorKind::Conflict,
                format!("game {id} is being reviewed already"),
            ));
        }
        let place = self.take_place()?;
        let g = s.game();
        let (variant, fen, moves) = (g.variant(), g.fens()[0].clone(), g.moves().to_vec());
        let poll = self.backend.poll();
        let control = SearchControl::polled(false, poll);
        let empty = summary_json::<String>(&[]);
        let first = s
            .review
            .begin(moves.len(), control.clone(), empty, budget_json(&budget));
        s.subscribers.send("review", &first);
        let to = Reporter {
            session: Arc::downgrade(&session),
            run: s.review.run(),
        };
        drop(s);
        let on_host = poll.is_some();
        let run = move || {
            let _place = place;
            crate::for_variant!(variant, G => run_review::<G>(&fen, &moves, budget, &control, &to, on_host));
        };
        if let Err(e) = self.backend.start_review(Box::new(run)) {
            let mut s = lock(&session);
            let run = s.review.run();
            s.review
                .record(run, None, summary_json::<String>(&[]), false);
            return Err(ApiError::new(ErrorKind::Internal, e));
        }
        Ok(first)
    }
}

/// `POST .../review/try` in game `G`: move `text` after `moves` from `fen`, judged at `budget`.
fn try_in<G: Game>(
    fen: &str,
    moves: &[String],
    text: &str,
    budget: Budget,
    poll: Option<Poll>,
) -> Result<Value, ApiError> {
    let record = Record::<G>::from_fen_and_moves(fen, moves)
        .map_err(|e| ApiError::new(ErrorKind::Internal, format!("the game's own line: {e}")))?;
    if record.outcome().is_some() {
        return Err(ApiError::new(
            ErrorKind::Conflict,
            format!("the game is over after ply {}: no move to try", moves.len()),
        ));
    }
    let mut probe = record.clone();
    let played = probe.play_text(text).map_err(|e| {
        ApiError::new(
            ErrorKind::Unprocessable,
            format!("{} after ply {}: {e}", quote(text), moves.len()),
        )
    })?;
    let mut engine = Engine::new();
    engine.search_on_calling_thread(poll.is_some());
    let r = judge_move(
        &record,
        played,
        &mut engine,
        budget,
        &SearchControl::polled(false, poll),
    );
    let mut v = entry_json(&r);
    if let Value::Object(m) = &mut v {
        m.insert("accepted".into(), Value::Bool(r.mark.is_none()));
    }
    Ok(v)
}

/// Where a review thread sends its progress: the game (held weakly, so a closed game is
/// freed at once) and which of its reviews this is.
struct Reporter {
    session: Weak<Mutex<Session>>,
    run: u64,
}

impl Reporter {
    /// One more move reviewed (`entry`), or the end (`running` false): recorded in the game's
    /// report and sent to its streams. False when the game is gone or has moved on to
    /// another review, and this one should stop.
    fn send(&self, entry: Option<Value>, summary: Value, running: bool) -> bool {
        let Some(session) = self.session.upgrade() else {
            return false;
        };
        let mut s = lock(&session);
        match s.review.record(self.run, entry, summary, running) {
            Some(event) => {
                s.subscribers.send("review", &event);
                true
            }
            None => false,
        }
    }
}

/// Reviews the game of `moves` from `fen` in game `G`, reporting each move to `to`; stops
/// when `control` is stopped (the game was closed) or `to` says the game is gone. `on_host`:
/// the searches run on this very thread (the browser's host).
fn run_review<G: Game>(
    fen: &str,
    moves: &[String],
    budget: Budget,
    control: &SearchControl,
    to: &Reporter,
    on_host: bool,
) {
    let parsed = G::from_fen(fen).ok().and_then(|start| {
        let mut record = Record::new(start.clone());
        for m in moves {
            record.play_text(m).ok()?;
        }
        Some((start, record.moves().to_vec()))
    });
    let Some((start, played)) = parsed else {
        to.send(None, summary_json::<String>(&[]), false);
        return;
    };
    let mut engine = Engine::new();
    engine.search_on_calling_thread(on_host);
    let _ = engine.set_hash_mb(REVIEW_HASH_MB);
    let started = Instant::now();
    let mut progress = |_done: usize, _total: usize, so_far: &[MoveReview<G::Move>]| {
        let entry = so_far.last().map(entry_json);
        if !to.send(entry, summary_json(so_far), true)
            || started.elapsed().as_secs() >= MAX_REVIEW_SECS
        {
            control.stop(); // the review ends before the next move
        }
    };
    // A game of the page has no book moves: every move is the player's.
    let game = GameToReview {
        start: &start,
        moves: &played,
        book_plies: 0,
    };
    let review = review_game(&game, &mut engine, budget, control, &mut progress);
    to.send(None, summary_json(&review.moves), false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_game_is_its_result_and_a_mate_keeps_its_side() {
        use crate::games::Outcome;
        let text = |e| score_json(e).to_string();
        let won = Eval::Over(Outcome::NoLegalMove(Color::White));
        assert_eq!(text(won), r#"{"result":"1-0"}"#);
        assert_eq!(
            text(Eval::Over(Outcome::Repetition)),
            r#"{"result":"1/2-1/2"}"#
        );
        assert_eq!(text(Eval::Score(Score::LossIn(3))), r#"{"mate":-2}"#);
        assert_eq!(text(Eval::Score(Score::Cp(40))), r#"{"cp":40}"#);
    }

    #[test]
    fn budgets() {
        let b = budget(&json::parse(r#"{"depth": 4}"#).unwrap()).unwrap();
        assert_eq!((b.depth, b.movetime), (Some(4), Some(MAX_MOVETIME_MS)));
        let b = budget(&json::parse(r#"{"movetime_ms": 50}"#).unwrap()).unwrap();
        assert_eq!((b.depth, b.movetime), (None, Some(50)));
        for bad in [
            r#"{}"#,
            r#"{"depth": 0}"#,
            r#"{"depth": 3, "movetime_ms": 9}"#,
            r#"{"movetime_ms": 999999}"#,
        ] {
            assert!(budget(&json::parse(bad).unwrap()).is_err(), "{bad}");
        }
    }
}
