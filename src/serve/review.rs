//! Game reviews for the page: `POST /api/games/<id>/review` with `{"movetime_ms": n}` or
//! `{"depth": d}` starts a review of the game's moves ([`crate::review`]) on a thread of its
//! own (the HTTP layer never waits for it), one per game at a time and at most
//! [`MAX_RUNNING`] in the server; each position's search is capped at [`MAX_MOVETIME_MS`]
//! (a depth too), and a whole review at [`MAX_REVIEW_SECS`]. Progress goes to the game's
//! event streams as `review` events, and `GET /api/games/<id>/review` answers the latest.

use super::error::{ApiError, ErrorKind};
use super::json::{self, Value};
use super::registry::Registry;
use super::session::lock;
use crate::games::kit::Color;
use crate::games::{Game, Record};
use crate::record::result::Termination;
use crate::review::{Budget, Eval, GameToReview, MoveReview, SideSummary, review_game, summarise};
use crate::search::{Engine, Score, SearchControl};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// Most reviews running at once in the server.
pub const MAX_RUNNING: usize = 2;
/// Longest search of one position, milliseconds (a depth review is cut there too).
pub const MAX_MOVETIME_MS: u64 = 5_000;
/// Longest review, seconds: past it the review stops after the move it is on, and its
/// last report (`running` false) has fewer moves than the game.
pub const MAX_REVIEW_SECS: u64 = 300;
/// Deepest search a review may ask for.
pub const MAX_DEPTH: u32 = 20;
/// Transposition table of a review's engine, MiB.
const REVIEW_HASH_MB: usize = 16;

/// The reviews of the server's games: the latest report of each, and which run.
#[derive(Default)]
pub struct Reviews {
    games: Mutex<HashMap<String, Report>>,
}

/// The latest report of one game's review.
struct Report {
    running: bool,
    latest: Value,
}

fn locked(m: &Mutex<HashMap<String, Report>>) -> MutexGuard<'_, HashMap<String, Report>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn bad(what: &str) -> ApiError {
    ApiError::new(ErrorKind::BadRequest, what)
}

/// The budget a request body asks for.
pub fn budget(body: &Value) -> Result<Budget, ApiError> {
    let number = |k: &'static str| body.get(k).map(|v| v.as_u64().ok_or(k));
    match (number("movetime_ms"), number("depth")) {
        (Some(Ok(ms)), None) if (1..=MAX_MOVETIME_MS).contains(&ms) => Ok(Budget {
            movetime: Some(ms),
            ..Budget::default()
        }),
        (None, Some(Ok(d))) if (1..=u64::from(MAX_DEPTH)).contains(&d) => Ok(Budget {
            depth: Some(d as u32),
            movetime: Some(MAX_MOVETIME_MS),
            nodes: None,
        }),
        _ => Err(bad(&format!(
            "give one of 'movetime_ms' (1 to {MAX_MOVETIME_MS}) or 'depth' (1 to {MAX_DEPTH})"
        ))),
    }
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

fn side_json(s: &SideSummary) -> Value {
    json::object([
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

/// One report: `{"done", "total", "running", "moves": [...], "summary": {...}}`.
pub fn report_json<M: std::fmt::Display>(
    done: usize,
    total: usize,
    running: bool,
    moves: &[MoveReview<M>],
) -> Value {
    let entries = moves
        .iter()
        .map(|r| {
            json::object([
                ("ply", Value::from(r.ply)),
                ("move", Value::from(r.played.to_string())),
                ("eval", score_json(r.after)),
                ("best", Value::from(r.best.as_ref().map(|b| b.to_string()))),
                ("best_eval", score_json(r.best_score)),
                ("loss_cp", Value::from(r.loss_cp)),
                ("mark", Value::from(r.mark.map(|m| m.symbol()))),
            ])
        })
        .collect::<Vec<_>>();
    let summary = json::object([
        ("white", side_json(&summarise(moves, Color::White))),
        ("black", side_json(&summarise(moves, Color::Black))),
    ]);
    json::object([
        ("done", Value::from(done)),
        ("total", Value::from(total)),
        ("running", Value::from(running)),
        ("moves", Value::Array(entries)),
        ("summary", summary),
    ])
}

impl Reviews {
    /// `GET /api/games/<id>/review`: the latest report of game `id`.
    pub fn latest(&self, reg: &Registry, id: &str) -> Result<Value, ApiError> {
        reg.get(id)?;
        locked(&self.games)
            .get(id)
            .map(|r| r.latest.clone())
            .ok_or_else(|| {
                ApiError::new(
                    ErrorKind::NotFound,
                    format!("game {id} has no review: POST one first"),
                )
            })
    }

    /// `POST /api/games/<id>/review`: starts the review of game `id`'s moves.
    pub fn start(
        self: &Arc<Self>,
        reg: &Registry,
        id: &str,
        body: &Value,
    ) -> Result<Value, ApiError> {
        let budget = budget(body)?;
        let session = reg.get(id)?;
        let (variant, fen, moves) = {
            let s = lock(&session);
            let g = s.game();
            (g.variant(), g.fens()[0].clone(), g.moves().to_vec())
        };
        {
            let mut games = locked(&self.games);
            if games.get(id).is_some_and(|r| r.running) {
                return Err(ApiError::new(
                    ErrorKind::Conflict,
                    format!("game {id} is being reviewed already"),
                ));
            }
            if games.values().filter(|r| r.running).count() >= MAX_RUNNING {
                return Err(ApiError::new(
                    ErrorKind::Busy,
                    format!("{MAX_RUNNING} reviews are running already; try again later"),
                ));
            }
            let first = report_json::<String>(0, moves.len(), true, &[]);
            games.insert(
                id.to_string(),
                Report {
                    running: true,
                    latest: first,
                },
            );
        }
        let first = report_json::<String>(0, moves.len(), true, &[]);
        let me = Arc::clone(self);
        let key = id.to_string();
        let push = move |v: Value, running: bool| {
            if let Some(r) = locked(&me.games).get_mut(&key) {
                r.latest = v.clone();
                r.running = running;
            }
            lock(&session).subscribers.send("review", &v);
        };
        let run =
            move || crate::for_variant!(variant, G => run_review::<G>(&fen, &moves, budget, &push));
        let spawned = std::thread::Builder::new()
            .name("bashni-review".into())
            .spawn(run);
        if let Err(e) = spawned {
            locked(&self.games).remove(id);
            return Err(ApiError::new(
                ErrorKind::Internal,
                format!("cannot start a review thread: {e}"),
            ));
        }
        Ok(first)
    }
}

/// Reviews the game of `moves` from `fen` in game `G`, pushing each report.
fn run_review<G: Game>(fen: &str, moves: &[String], budget: Budget, push: &dyn Fn(Value, bool)) {
    let parsed = G::from_fen(fen).ok().and_then(|start| {
        let mut record = Record::new(start.clone());
        for m in moves {
            record.play_text(m).ok()?;
        }
        Some((start, record.moves().to_vec()))
    });
    let Some((start, played)) = parsed else {
        push(report_json::<String>(0, moves.len(), false, &[]), false);
        return;
    };
    let mut engine = Engine::new();
    let _ = engine.set_hash_mb(REVIEW_HASH_MB);
    let control = SearchControl::new(false);
    let total = played.len();
    let started = std::time::Instant::now();
    let mut progress = |done: usize, total: usize, so_far: &[MoveReview<G::Move>]| {
        if started.elapsed().as_secs() >= MAX_REVIEW_SECS {
            control.stop(); // the review ends before the next move
        }
        if done < total {
            push(report_json(done, total, true, so_far), true);
        }
    };
    // A game of the page has no book moves: every move is the player's.
    let game = GameToReview {
        start: &start,
        moves: &played,
        book_plies: 0,
    };
    let review = review_game(&game, &mut engine, budget, &control, &mut progress);
    push(
        report_json(review.moves.len(), total, false, &review.moves),
        false,
    );
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
