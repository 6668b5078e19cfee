//! A draw offered to the engine, answered by the rule `bashni play` uses
//! ([`crate::record::draw_offer`]); and a closed game's clocks taken over by the game opened
//! in its place (a reload or a reopened tab goes on with the time it had).

use super::{Session, conflict};
use crate::platform::Instant;
use crate::record::draw_offer;
use crate::record::game_record::EngineScore;
use crate::search::Score;
use crate::serve::clocks::Retired;
use crate::serve::ending::End;
use crate::serve::engine_worker::JobKind;
use crate::serve::error::ApiError;
use crate::serve::settings::Human;

/// An engine's reported score as the draw rule reads it: a mate in `n` of the mover's moves
/// is a win in `2n - 1` plies, being mated in `n` a loss in `2n` plies.
fn score_of(e: EngineScore) -> Score {
    match e {
        EngineScore::Cp(c) => Score::Cp(c),
        EngineScore::Mate(n) if n > 0 => Score::WinIn(n.unsigned_abs() * 2 - 1),
        EngineScore::Mate(n) => Score::LossIn(n.unsigned_abs() * 2),
    }
}

/// What the page says before the engine's reason.
const DECLINES: &str = "The engine declines the draw";

impl Session {
    /// The person offers the engine a draw, on their turn in a game against it: declined at
    /// once when the position is not dead, else the engine's full-strength search decides
    /// ([`Session::answer_offer`]).
    pub fn offer_draw(&mut self, now: Instant) -> Result<(), ApiError> {
        if self.check_flag(now) {
            return Err(conflict("your time ran out"));
        }
        if let Some(end) = self.over {
            return Err(conflict(format!("the game is over: {}", end.describe())));
        }
        if self.human == Human::Both {
            return Err(conflict(
                "there is no engine to offer a draw to (you play both sides)",
            ));
        }
        if self.analysis.is_some() {
            return Err(conflict("a draw is offered in play, not in analysis mode"));
        }
        if !self.human.plays(self.side()) {
            return Err(conflict("a draw is offered on your turn"));
        }
        if let Err(why) = self.line.dead() {
            self.draw_answer = Some(format!("{DECLINES}: {why}"));
            self.bump();
            return Ok(());
        }
        let ply = self.line.moves().len();
        self.draw_answer = None;
        let job = self.full_strength_job(JobKind::Offer { ply }, ply);
        self.engine.replace(Some(job));
        self.bump();
        Ok(())
    }

    /// The engine's search for the draw offer of generation `epoch` scored the position
    /// after `ply` plies `score` (the person's view: they are to move).
    pub fn answer_offer(
        &mut self,
        epoch: u64,
        ply: usize,
        score: Option<EngineScore>,
        now: Instant,
    ) {
        if !self.engine.is_current(epoch) {
            return;
        }
        self.engine.idle();
        if ply != self.line.moves().len() || self.over.is_some() {
            self.bump();
            return;
        }
        let answer = match score {
            Some(s) => {
                draw_offer::answer(draw_offer::negated(score_of(s))).map_err(|e| e.to_string())
            }
            None => Err("it found no score".to_string()),
        };
        match answer {
            Ok(()) => {
                self.settle(now);
                self.decide(End::agreed());
                self.draw_answer = Some("The engine accepts the draw".into());
                self.after_change(now);
            }
            Err(why) => {
                self.draw_answer = Some(format!("{DECLINES}: {why}"));
                self.bump();
            }
        }
    }

    /// The clocks to keep when this game is closed (none without a clock).
    pub fn retire(&self, now: Instant) -> Option<Retired> {
        let c = self.clocks.as_ref()?;
        let run = self.clocks_run();
        Some(Retired {
            // Below 0 where a flag has fallen: the game opened in its place ends on time too.
            left: c.left(self.side(), run, now),
            running: run.then(|| self.side()),
            start_fen: self.line.fens()[0].clone(),
            moves: self.line.moves().to_vec(),
            at: now,
        })
    }

    /// Goes on with a closed game's clocks (this game was opened in its place); a clock that
    /// ran out meanwhile ends the game on time at once.
    pub fn resume(&mut self, r: &Retired, now: Instant) {
        let Some(c) = &self.clocks else {
            return;
        };
        let left = r.left_at(&self.line.fens()[0], self.line.moves(), now);
        self.clocks = Some(c.resumed(left, now));
        if !self.check_flag(now) {
            self.after_change(now);
        }
    }
}
