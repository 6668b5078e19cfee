//! One game on the server, in any of the games: its line of play (checked by the game's own
//! rules, [`GameLine`]), who plays what, the clocks, how it ended, and what the engine
//! should be doing. Every move, whoever makes it, is checked here against the legal moves; a
//! refused request changes nothing.

use super::analysis::{Analysis, passed_fen};
use super::clocks::Clocks;
use super::ending::{End, Reason, capital};
use super::engine_worker::{EngineHandle, Job, JobKind};
use super::error::{ApiError, ErrorKind};
use super::events::Subscribers;
use super::line::GameLine;
use super::notes::{Note, Notes};
use super::review_report::GameReview;
use super::settings::{Human, NewGame, TimeRule};
use crate::display::plies;
use crate::games::Variant;
use crate::games::kit::color::Color;
use crate::record::game_record::EngineScore;
use crate::search::skill::MAX_LEVEL;
use std::sync::Mutex;

mod hold;
mod offer;
mod query;
mod state;
mod timing;
use crate::platform::Instant;
use std::time::Duration;

/// Most lines an analysis may show at once.
pub const MAX_MULTIPV: u32 = 5;

/// Time a hint may think, ms (less when the server's cap is lower).
pub const HINT_MS: u64 = 1000;

/// A hint: the engine's best move at full strength for the position after `ply` plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The position it is for (plies from the start).
    pub ply: usize,
    /// The move, in the game's notation.
    pub mv: String,
    /// Its score from the engine's last `info`, the mover's view (None if it sent none).
    pub score: Option<EngineScore>,
}

/// One game and its engine.
pub struct Session {
    /// The game's id in URLs.
    pub id: String,
    /// The game: its positions and moves.
    line: Box<dyn GameLine>,
    human: Human,
    level: u8,
    time: TimeRule,
    clocks: Option<Clocks>,
    over: Option<End>,
    /// An end not by the rules (resignation, time) with the line it ended: when the page
    /// shows a variation and comes back, that line gets its end back.
    decided: Option<(Vec<String>, End)>,
    /// What analysis mode searches while it is on.
    analysis: Option<Analysis>,
    hint: Option<Hint>,
    /// The last problem with the engine, shown to the person.
    notice: Option<String>,
    /// The engine's answer to the person's last draw offer (cleared by the next move).
    draw_answer: Option<String>,
    /// The engine failed its job twice (crashed or hung, restarted, failed again): the
    /// person may play the engine's move or retry. Cleared by any change.
    stalled: bool,
    /// Bumped at every change, so a page can tell states apart.
    version: u64,
    /// The longest search allowed, ms.
    max_think_ms: u64,
    /// Longest analysis, ms.
    max_analysis_ms: u64,
    /// The engine process's worker.
    pub engine: EngineHandle,
    /// Open event streams.
    pub subscribers: Subscribers,
    /// The game's review, kept with the game so that closing it stops the review and frees
    /// the report.
    pub review: GameReview,
    /// The tags of the PDN it came from and the comments and glyphs of its moves.
    notes: Notes,
    /// Whether the line held is the main line of the page's tree ([`Session::hold_line`]).
    main_line: bool,
    /// The analysis's last `analysis` event, for a page that opens its stream later (a
    /// reload, another tab): until the engine's job changes.
    pub last_analysis: Option<super::json::Value>,
}

/// The server-wide caps a session needs.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// Longest engine move or hint, ms.
    pub max_think_ms: u64,
    /// Longest analysis, ms.
    pub max_analysis_ms: u64,
}

fn conflict(what: impl Into<String>) -> ApiError {
    ApiError::new(ErrorKind::Conflict, what)
}

impl Session {
    /// A session for a new game, its engine already started; the engine moves first if it
    /// is its turn (see [`Session::reschedule`]).
    pub fn new(id: String, new: NewGame, caps: Caps, engine: EngineHandle, now: Instant) -> Self {
        let line = new.game;
        let clocks = match new.time {
            TimeRule::Clock { base_ms, inc_ms } => Some(Clocks::new(base_ms, inc_ms, now)),
            TimeRule::MoveTime(_) => None,
        };
        let mut s = Session {
            id,
            over: line.outcome().map(|o| End::from_outcome(line.variant(), o)),
            // A PDN's resignation or loss on time, unless the rules ended the line already.
            decided: new
                .recorded
                .filter(|_| line.outcome().is_none())
                .map(|e| (line.moves().to_vec(), e)),
            line,
            human: new.human,
            level: new.level,
            time: new.time,
            clocks,
            analysis: None,
            hint: None,
            notice: None,
            draw_answer: None,
            stalled: false,
            version: 0,
            max_think_ms: caps.max_think_ms,
            max_analysis_ms: caps.max_analysis_ms,
            engine,
            subscribers: Subscribers::new(now),
            review: GameReview::default(),
            notes: new.notes,
            main_line: true,
            last_analysis: None,
        };
        s.over = s.end_here();
        s.reschedule(now);
        s
    }

    /// The game as played so far.
    pub fn game(&self) -> &dyn GameLine {
        self.line.as_ref()
    }

    /// Which game it is.
    pub fn variant(&self) -> Variant {
        self.line.variant()
    }

    /// The end by the rules now, if any.
    fn rules_end(&self) -> Option<End> {
        self.line
            .outcome()
            .map(|o| End::from_outcome(self.variant(), o))
    }

    /// The end of the line held now: by the rules, or the resignation or time loss that
    /// ended this very line before the page switched lines.
    fn end_here(&self) -> Option<End> {
        self.rules_end().or_else(|| {
            self.decided
                .as_ref()
                .filter(|(moves, _)| moves.as_slice() == self.line.moves())
                .map(|&(_, end)| end)
        })
    }

    /// Ends the game otherwise than by the rules, and remembers which line it ended.
    fn decide(&mut self, end: End) {
        self.over = Some(end);
        self.decided = Some((self.line.moves().to_vec(), end));
    }

    /// A change to the line of a game that goes on against the engine (not in analysis mode)
    /// is a new game from there: an earlier resignation no longer belongs to it.
    fn forget_decided_if_playing(&mut self) {
        if self.analysis.is_none() && self.human != Human::Both {
            self.decided = None;
        }
    }

    /// How it ended, if it has.
    pub fn end(&self) -> Option<End> {
        self.over
    }

    /// Who the person plays.
    pub fn human(&self) -> Human {
        self.human
    }

    /// The game's tags and the notes of its moves (of any line of the page's tree).
    pub fn notes(&self) -> &Notes {
        &self.notes
    }

    /// Sets (or with an empty note removes) the note of the move that ends `moves`, a line
    /// from the start, checked by the rules; any line of the tree, not only the one held.
    /// Every tab of the game gets the notes as they now are (a `notes` event).
    pub fn annotate(&mut self, moves: &[String], note: Note) -> Result<(), ApiError> {
        let fen = self.line.fens()[0].clone();
        self.notes.annotate(self.variant(), &fen, moves, note)?;
        let notes = super::json::object([
            ("tags", self.notes.tags_json()),
            ("notes", self.notes.notes_json()),
        ]);
        self.subscribers.send("notes", &notes);
        Ok(())
    }

    /// The game's version: it grows with every change.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Engine level.
    pub fn level(&self) -> u8 {
        self.level
    }

    fn side(&self) -> Color {
        self.line.side()
    }

    /// Whether the engine plays the side to move now.
    fn engine_to_move(&self) -> bool {
        self.over.is_none() && self.analysis.is_none() && !self.human.plays(self.side())
    }

    /// Whether the person may move the side to move at the end of the game: their own side,
    /// or the engine's when the engine has failed.
    fn person_may_move(&self) -> bool {
        self.human.plays(self.side()) || self.stalled
    }

    /// The position command for the position after `ply` plies.
    fn position_command(&self, ply: usize) -> String {
        let mut cmd = format!("position fen {}", self.line.fens()[0]);
        if ply > 0 {
            cmd.push_str(" moves");
            for m in &self.line.moves()[..ply] {
                cmd.push(' ');
                cmd.push_str(m);
            }
        }
        cmd
    }

    /// The position command of an analysis: its position, or for a threat that board with
    /// the other side to move (see [`super::analysis`]).
    fn analysis_position(&self, a: Analysis) -> String {
        if a.threat
            && let Ok(fen) = passed_fen(self.line.variant(), &self.line.fens()[a.ply])
        {
            return format!("position fen {fen}");
        }
        self.position_command(a.ply)
    }

    /// The job for the engine's own move.
    fn play_job(&self, now: Instant) -> Job {
        let (go, limit) = match (self.time, &self.clocks) {
            (TimeRule::Clock { inc_ms, .. }, Some(c)) => {
                let [w, b] = c.left(self.side(), true, now).map(|t| t.max(1));
                let mine = c.left(self.side(), true, now)[self.side().index()].max(1) as u64;
                (
                    format!("go wtime {w} btime {b} winc {inc_ms} binc {inc_ms}"),
                    mine.min(self.max_think_ms),
                )
            }
            (TimeRule::MoveTime(ms), _) => (format!("go movetime {ms}"), ms),
            (TimeRule::Clock { .. }, None) => (format!("go movetime {HINT_MS}"), HINT_MS),
        };
        Job {
            kind: JobKind::Play,
            position: self.position_command(self.line.moves().len()),
            go,
            limit: Duration::from_millis(limit.min(self.max_think_ms)),
            skill: self.level,
            multipv: 1,
            epoch: 0,
        }
    }

    /// Stops whatever the engine does for this game and starts what it should do now: the
    /// analysis when on, else its own move when it is its turn. Called after every change.
    pub fn reschedule(&mut self, now: Instant) {
        self.last_analysis = None;
        let job = if let Some(a) = self.analysis {
            Some(Job {
                kind: JobKind::Analyse {
                    ply: a.ply,
                    threat: a.threat,
                },
                position: self.analysis_position(a),
                go: a.go(),
                limit: Duration::from_millis(self.max_analysis_ms),
                skill: MAX_LEVEL,
                multipv: a.multipv,
                epoch: 0,
            })
        } else if self.engine_to_move() {
            Some(self.play_job(now))
        } else {
            None
        };
        self.engine.replace(job);
    }

    /// Plays `m`, a move [`GameLine::check`] has passed, unless the mover's time ran out.
    fn apply(&mut self, m: &str, now: Instant) -> Result<(), ApiError> {
        let mover = self.side();
        // (a move made before the clocks start costs no time and earns no increment)
        let timed = self.clocks_run();
        self.settle(now);
        if let Some(c) = &mut self.clocks {
            if c.fallen(mover) {
                self.decide(End::lost_by(mover, Reason::Time(mover)));
                return Ok(());
            }
            if timed {
                c.add_increment(mover);
            }
        }
        self.line.push(m)?;
        self.over = self.end_here();
        self.hint = None;
        self.draw_answer = None;
        Ok(())
    }

    /// Cuts the game back to its first `ply` plies.
    fn truncate(&mut self, ply: usize) {
        self.line.truncate(ply);
        self.over = self.end_here();
        self.hint = None;
        self.draw_answer = None;
        if let Some(a) = &mut self.analysis {
            a.ply = a.ply.min(ply);
        }
    }

    /// The person's move `text`, at the end of the game or, in analysis mode or when the
    /// person plays both sides, after `at_ply` plies (the rest of the game is replaced).
    pub fn play_person(
        &mut self,
        text: &str,
        at_ply: Option<usize>,
        now: Instant,
    ) -> Result<(), ApiError> {
        if self.check_flag(now) {
            return Err(conflict("your time ran out"));
        }
        let len = self.line.moves().len();
        let ply = at_ply.unwrap_or(len);
        if ply > len {
            return Err(ApiError::new(
                ErrorKind::BadRequest,
                format!("'ply' {ply} is beyond the game's {}", plies(len as u64)),
            ));
        }
        let free = self.analysis.is_some() || self.human == Human::Both;
        if ply < len && !free {
            return Err(conflict(
                "moves go at the end of the game (earlier only in analysis mode)",
            ));
        }
        if ply == len {
            if let Some(end) = self.over {
                return Err(conflict(format!("the game is over: {}", end.describe())));
            }
            if !free && !self.person_may_move() {
                return Err(conflict("it is the engine's turn"));
            }
        } else if let Some(o) = self.line.outcome_at(ply) {
            return Err(conflict(format!(
                "the game is over there: {}",
                End::from_outcome(self.variant(), o).describe()
            )));
        }
        let m = self.line.check(ply, text)?;
        self.forget_decided_if_playing();
        if ply < len {
            self.truncate(ply);
        }
        self.apply(&m, now)?;
        // The analysis follows the move just played.
        let len = self.line.moves().len();
        if let Some(a) = &mut self.analysis {
            a.ply = len;
        }
        self.after_change(now);
        Ok(())
    }

    /// The engine's move from the job of generation `epoch`, checked like any other.
    pub fn play_engine(&mut self, epoch: u64, text: &str, now: Instant) {
        if !self.engine.is_current(epoch) || !self.engine_to_move() {
            return;
        }
        let len = self.line.moves().len();
        match self.line.check(len, text).and_then(|m| self.apply(&m, now)) {
            Ok(()) => self.notice = None,
            Err(e) => self.notice = Some(format!("the engine's move was refused: {}", e.message)),
        }
        self.after_change(now);
    }

    /// The engine's hint from the job of generation `epoch`, with its score.
    pub fn set_hint(&mut self, epoch: u64, ply: usize, text: &str, score: Option<EngineScore>) {
        if !self.engine.is_current(epoch) || ply != self.line.moves().len() {
            return;
        }
        if let Ok(m) = self.line.check(ply, text) {
            self.hint = Some(Hint { ply, mv: m, score });
            self.engine.idle();
            self.bump();
        }
    }

    /// Reports an engine problem to the page.
    pub fn engine_trouble(&mut self, what: String) {
        self.notice = Some(what);
        self.bump();
    }

    /// The job of generation `epoch` failed on a restarted engine too: the engine is idle,
    /// and the person may play the engine's move or [`Session::retry`].
    pub fn engine_failed(&mut self, epoch: u64, what: String) {
        if !self.engine.is_current(epoch) {
            return;
        }
        self.engine.idle();
        self.stalled = true;
        self.notice = Some(format!(
            "the engine failed twice ({what}); play its move yourself or retry"
        ));
        self.bump();
    }

    /// Runs again what the engine should be doing now (after it failed).
    pub fn retry(&mut self, now: Instant) -> Result<(), ApiError> {
        if self.engine.busy().is_some() {
            return Err(conflict("the engine is working already"));
        }
        self.notice = None;
        self.after_change(now);
        Ok(())
    }

    /// The game is closed: the engine quits, a review stops and its report is freed, and
    /// every event stream ends with `gone` (naming the game `replaced_by` that took its
    /// place, if one did).
    pub fn close(&mut self, replaced_by: Option<&str>) {
        self.engine.shutdown();
        self.review.close();
        let gone = match replaced_by {
            Some(id) => super::json::object([("replaced_by", super::json::Value::from(id))]),
            None => super::json::Value::Object(Default::default()),
        };
        self.subscribers.close(&gone);
    }

    /// Takes back the person's last move (and the engine's reply after it) while a game
    /// against the engine is on, never after its end (a resignation, a loss on time, an end
    /// by the rules or a draw agreed stands); in analysis mode or when the person plays both
    /// sides, the last ply.
    pub fn takeback(&mut self, now: Instant) -> Result<(), ApiError> {
        let len = self.line.moves().len();
        let free = self.analysis.is_some() || self.human == Human::Both;
        if let Some(end) = self.over.filter(|_| !free) {
            return Err(conflict(format!(
                "the game is over ({}): a finished game's moves are not taken back \
                 (analysis mode explores other moves)",
                end.describe()
            )));
        }
        let target = if free {
            len.checked_sub(1)
        } else {
            // The last position where it was the person's turn.
            (0..len)
                .rev()
                .find(|&i| self.human.plays(color_at(&self.line.fens()[i])))
        };
        let Some(ply) = target else {
            return Err(conflict("there is no move of yours to take back"));
        };
        self.settle(now);
        self.forget_decided_if_playing();
        self.truncate(ply);
        self.after_change(now);
        Ok(())
    }

    /// The person resigns (for the side to move when they play both).
    pub fn resign(&mut self, now: Instant) -> Result<(), ApiError> {
        if let Some(end) = self.over {
            return Err(conflict(format!("the game is over: {}", end.describe())));
        }
        let loser = match self.human {
            Human::Side(c) => c,
            Human::Both => self.side(),
        };
        self.settle(now);
        self.decide(End::lost_by(loser, Reason::Resignation(loser)));
        self.after_change(now);
        Ok(())
    }

    /// Asks for a hint for the current position.
    pub fn request_hint(&mut self) -> Result<(), ApiError> {
        if let Some(end) = self.over {
            return Err(conflict(format!("the game is over: {}", end.describe())));
        }
        if self.analysis.is_some() {
            return Err(conflict("analysis mode shows the best moves already"));
        }
        if self.engine_to_move() {
            return Err(conflict("it is the engine's turn"));
        }
        let ply = self.line.moves().len();
        let job = self.full_strength_job(JobKind::Hint { ply }, ply);
        self.engine.replace(Some(job));
        self.bump();
        Ok(())
    }

    /// A search of the position after `ply` plies at full strength for at most a hint's
    /// time (a hint, the weighing of a draw offer).
    pub(crate) fn full_strength_job(&self, kind: JobKind, ply: usize) -> Job {
        let ms = HINT_MS.min(self.max_think_ms);
        Job {
            kind,
            position: self.position_command(ply),
            go: format!("go movetime {ms}"),
            limit: Duration::from_millis(ms),
            skill: MAX_LEVEL,
            multipv: 1,
            epoch: 0,
        }
    }

    /// Turns analysis mode on (of the position after `a.ply` plies, or its threat) or off.
    pub fn set_analysis(&mut self, on: Option<Analysis>, now: Instant) -> Result<(), ApiError> {
        if let Some(Analysis {
            ply,
            multipv,
            threat,
            ..
        }) = on
        {
            let len = self.line.moves().len();
            if ply > len {
                return Err(ApiError::new(
                    ErrorKind::BadRequest,
                    format!("'ply' {ply} is beyond the game's {}", plies(len as u64)),
                ));
            }
            if !(1..=MAX_MULTIPV).contains(&multipv) {
                return Err(ApiError::new(
                    ErrorKind::BadRequest,
                    format!("'multipv' must be from 1 to {MAX_MULTIPV}"),
                ));
            }
            if threat {
                passed_fen(self.line.variant(), &self.line.fens()[ply])?;
            }
        }
        self.settle(now);
        self.analysis = on;
        self.after_change(now);
        Ok(())
    }

    fn bump(&mut self) {
        self.version += 1;
        let state = self.state(Instant::now());
        self.subscribers.send("state", &state);
    }

    fn after_change(&mut self, now: Instant) {
        self.stalled = false;
        self.reschedule(now);
        self.bump();
    }
}

/// Locks a session; a panic elsewhere while it was held leaves the data usable (every
/// change is complete before the lock is released, or not made).
pub fn lock(s: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    s.lock().unwrap_or_else(|p| p.into_inner())
}

/// The side to move in a FEN this server wrote.
fn color_at(fen: &str) -> Color {
    if fen.split_whitespace().nth(1) == Some("b") {
        Color::Black
    } else {
        Color::White
    }
}
