//! What the page reads of a session: its state (`GET /api/games/<id>`, the `state` events)
//! and the one line of its status.

use super::Session;
use super::{JobKind, TimeRule, capital};
use crate::games::kit::color::Color;
use crate::platform::Instant;
use crate::search::skill::LADDER;
use crate::serve::json::{self, Value};

impl Session {
    /// The game state as the page reads it.
    pub fn state(&self, now: Instant) -> Value {
        let line = &self.line;
        let legal: Vec<Value> = if self.over.is_some() {
            Vec::new()
        } else {
            line.legal_at(line.moves().len())
        };
        let result = self.over.map(|e| {
            json::object([
                ("result", Value::from(e.result.pdn())),
                ("winner", Value::from(e.winner().map(Color::name))),
                ("reason", Value::from(e.reason.tag())),
                ("text", Value::from(e.describe())),
            ])
        });
        let thinking = self.engine.busy().map(JobKind::name);
        json::object([
            ("id", Value::from(self.id.as_str())),
            ("version", Value::from(self.version)),
            ("variant", Value::from(line.variant().name())),
            ("start_fen", Value::from(line.fens()[0].as_str())),
            ("fens", Value::from(line.fens().to_vec())),
            ("moves", Value::from(line.moves().to_vec())),
            ("main_line", Value::from(self.main_line)),
            ("turn", Value::from(self.side().name())),
            ("human", Value::from(self.human.name())),
            (
                "your_turn",
                Value::from(self.over.is_none() && self.person_may_move()),
            ),
            ("engine_failed", Value::from(self.stalled)),
            ("level", Value::from(self.level)),
            ("elo", Value::from(LADDER[self.level as usize])),
            ("time", self.time_json(now)),
            ("legal", Value::Array(legal)),
            ("result", result.into()),
            ("status", Value::from(self.status())),
            ("thinking", thinking.into()),
            ("plies_since_capture", Value::from(line.clock())),
            ("repetitions", Value::from(line.repetitions())),
            ("analysis", self.analysis.map(|a| a.to_json()).into()),
            ("opening", self.opening_json()),
            (
                "hint",
                self.hint
                    .as_ref()
                    .map(|h| {
                        json::object([
                            ("ply", Value::from(h.ply)),
                            ("move", Value::from(h.mv.as_str())),
                            ("score", h.score.map_or(Value::Null, json::score)),
                        ])
                    })
                    .into(),
            ),
            ("notice", self.notice.clone().into()),
            ("draw_answer", self.draw_answer.clone().into()),
        ])
    }

    /// The state with the game's `tags` and `notes` (as `GET /api/games/<id>` and the
    /// answers of `POST /api/games` and `.../note` give it; the `state` events leave them
    /// out, so that a move does not send every comment again).
    pub fn state_with_notes(&self, now: Instant) -> Value {
        let mut state = self.state(now);
        if let Value::Object(m) = &mut state {
            m.insert("tags".into(), self.notes.tags_json());
            m.insert("notes".into(), self.notes.notes_json());
        }
        state
    }

    /// The ballot the line held begins with, if a drawing table knows one (a game from the
    /// initial position only): `{"table", "code", "plies"}`, else null.
    fn opening_json(&self) -> Value {
        self.opening().map_or(Value::Null, |b| {
            json::object([
                ("table", Value::from(b.table)),
                ("code", Value::from(b.code.as_str())),
                ("plies", Value::from(b.moves.len())),
            ])
        })
    }

    /// The ballot the line held begins with ([`crate::record::ballots`]).
    pub fn opening(&self) -> Option<crate::record::ballots::Ballot> {
        let line = &self.line;
        let initial =
            crate::for_variant!(line.variant(), G => <G as crate::games::Rules>::START_FEN);
        (line.fens()[0] == initial)
            .then(|| crate::record::ballots::ballot(line.variant(), line.moves()))
            .flatten()
    }

    fn time_json(&self, now: Instant) -> Value {
        match (self.time, &self.clocks) {
            (TimeRule::Clock { base_ms, inc_ms }, Some(c)) => {
                // A flag falls at the reaper's next look: the time shown never goes below 0.
                let [w, b] = c
                    .left(self.side(), self.clocks_run(), now)
                    .map(|t| t.max(0));
                json::object([
                    ("kind", Value::from("clock")),
                    ("base_ms", Value::from(base_ms)),
                    ("inc_ms", Value::from(inc_ms)),
                    ("white_ms", Value::from(w)),
                    ("black_ms", Value::from(b)),
                    (
                        "running",
                        self.clocks_run().then(|| self.side().name()).into(),
                    ),
                ])
            }
            (TimeRule::MoveTime(ms), _) | (TimeRule::Clock { base_ms: ms, .. }, None) => {
                json::object([("kind", Value::from("movetime")), ("ms", Value::from(ms))])
            }
        }
    }

    /// One line for the page's status element: whose turn, or the result.
    pub fn status(&self) -> String {
        if let Some(end) = self.over {
            return format!("{} {}", end.result.pdn(), end.describe());
        }
        let side = capital(self.side());
        let who = if self.analysis.is_some() {
            "analysis"
        } else if self.human.plays(self.side()) {
            "your move"
        } else if self.stalled {
            "the engine failed: play its move or retry"
        } else {
            "engine thinking"
        };
        format!("{side} to move ({who})")
    }
}
