//! The referee: plays one game between two engine processes under our rules. It checks every
//! move against the position, keeps both clocks, and ends the game by the rules (no legal
//! move, threefold repetition, the 30-ply rule), by the ply limit, or by a fault of one side
//! (illegal move, crash, stall, time forfeit), each with its own [`Termination`].

use super::adjudicate::{Adjudicator, DrawRule, ResignRule, Verdict};
use super::config::Limit;
use super::engine::{EngineProcess, GoReply, LastInfo, START_TIMEOUT};
use super::openings::Opening;
use crate::rules::color::Color;
use crate::rules::game::Outcome;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Longest wait for `bestmove` after `stop` was sent on a timeout.
pub const STOP_GRACE: Duration = Duration::from_secs(1);

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// The side to move had no legal move and lost.
    NoLegalMove,
    /// The same position for the third time.
    Repetition,
    /// 30 plies without a capture.
    ThirtyPly,
    /// The ply limit of the match was reached (a draw).
    MaxPlies,
    /// Both engines called the game level for long enough (`--draw`).
    DrawAdjudication,
    /// The loser's engine saw itself lost for long enough (`--resign`).
    ResignAdjudication,
    /// The side to move sent a move that is not legal (the text; `(none)` for no move).
    IllegalMove(String),
    /// The side to move's engine exited or closed its output.
    Crash,
    /// The side to move's engine did not answer in time without a clock.
    Stall,
    /// The side to move's engine answered after its clock (or move time) ran out: the ms it
    /// used and the ms it had.
    TimeForfeit(u64, u64),
}

impl Termination {
    /// The value of the PDN `Termination` tag.
    pub fn tag(&self) -> &'static str {
        match self {
            Termination::NoLegalMove => "no legal move",
            Termination::Repetition => "threefold repetition",
            Termination::ThirtyPly => "30-ply rule",
            Termination::MaxPlies => "max plies",
            Termination::DrawAdjudication => "draw adjudication",
            Termination::ResignAdjudication => "resign adjudication",
            Termination::IllegalMove(_) => "illegal move",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
            Termination::TimeForfeit(..) => "time forfeit",
        }
    }

    /// Whether a fault of one side ended the game (rather than the rules or the ply limit).
    pub fn is_fault(&self) -> bool {
        matches!(
            self,
            Termination::IllegalMove(_)
                | Termination::Crash
                | Termination::Stall
                | Termination::TimeForfeit(..)
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::IllegalMove(m) => write!(f, "illegal move {m}"),
            Termination::TimeForfeit(used, had) => {
                write!(f, "time forfeit ({used} ms used, {had} ms left)")
            }
            t => f.write_str(t.tag()),
        }
    }
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
}

impl GameResult {
    /// A win for `c`.
    pub fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// PDN form: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pdn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Points for `c`, in half points (0, 1, 2).
    pub fn half_points(self, c: Color) -> u32 {
        match (self, c) {
            (GameResult::Draw, _) => 1,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
            _ => 0,
        }
    }
}

/// One move an engine played, with what it said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move in our notation (canonical form).
    pub text: String,
    /// The engine's last scored `info` before it.
    pub info: Option<LastInfo>,
    /// Time from `go` to `bestmove`.
    pub time: Duration,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Names of White and Black.
    pub names: [String; 2],
    /// Where it started (the opening moves are not in `moves`).
    pub opening: Opening,
    /// The engines' moves.
    pub moves: Vec<PlayedMove>,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// The colour whose engine must be restarted (it crashed or stopped answering).
    pub broken: Option<Color>,
}

/// The fixed settings of the referee.
#[derive(Clone, Debug)]
pub struct Referee {
    /// Draw after this many plies (opening included); 0: no limit.
    pub max_plies: usize,
    /// How far past its clock an engine may answer before it forfeits.
    pub time_margin: Duration,
    /// How long an engine without a clock may think before it stalls.
    pub stall_timeout: Duration,
    /// Draw adjudication by score.
    pub draw: Option<DrawRule>,
    /// Resign adjudication by score.
    pub resign: Option<ResignRule>,
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

struct Clock {
    limit: Limit,
    left: Duration,
    moves: u32,
}

impl Clock {
    fn new(limit: Limit) -> Clock {
        Clock {
            left: limit.clock.map_or(Duration::ZERO, |tc| tc.base),
            limit,
            moves: 0,
        }
    }

    /// Charges a move; false when it took longer than the clock (plus `margin`) allowed.
    fn charge(&mut self, used: Duration, margin: Duration) -> bool {
        let Some(tc) = self.limit.clock else {
            return true;
        };
        if used > self.left + margin {
            return false;
        }
        self.left = self.left.saturating_sub(used) + tc.increment;
        self.moves += 1;
        if tc.moves > 0 && self.moves.is_multiple_of(tc.moves) {
            self.left += tc.base;
        }
        true
    }

    fn moves_to_go(&self) -> Option<u32> {
        self.limit
            .clock
            .filter(|tc| tc.moves > 0)
            .map(|tc| tc.moves - self.moves % tc.moves)
    }
}

impl Referee {
    /// Plays a game between `engines` (White's first) from `opening`, each under its limit
    /// (White's first). Returns `None` when `stop` was raised before the end.
    pub fn play(
        &self,
        engines: [&mut EngineProcess; 2],
        limits: [Limit; 2],
        opening: &Opening,
        stop: &AtomicBool,
    ) -> Option<GameRecord> {
        let names = [engines[0].name().to_string(), engines[1].name().to_string()];
        let mut game = opening.game();
        let mut moves = Vec::new();
        let mut clocks = [Clock::new(limits[0]), Clock::new(limits[1])];
        let finish = |moves, result, termination, broken| {
            Some(GameRecord {
                names: names.clone(),
                opening: opening.clone(),
                moves,
                result,
                termination,
                broken,
            })
        };
        let fault = |moves, c: Color, termination: Termination, broken: bool| {
            finish(
                moves,
                GameResult::win_for(c.opponent()),
                termination,
                broken.then_some(c),
            )
        };

        for c in [Color::White, Color::Black] {
            match engines[idx(c)].new_game(START_TIMEOUT) {
                Ok(()) => {}
                Err(super::engine::EngineError::Timeout(..)) => {
                    return fault(moves, c, Termination::Stall, true);
                }
                Err(_) => return fault(moves, c, Termination::Crash, true),
            }
        }
        let base = match &opening.fen {
            None => "position startpos".to_string(),
            Some(f) => format!("position fen {f}"),
        };
        let mut played: Vec<String> = opening.moves.clone();
        let mut adjudicator = Adjudicator::new(self.draw, self.resign);
        loop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(o) = game.outcome() {
                let (result, t) = match o {
                    Outcome::NoLegalMove(w) => (GameResult::win_for(w), Termination::NoLegalMove),
                    Outcome::Repetition => (GameResult::Draw, Termination::Repetition),
                    Outcome::ClockRule => (GameResult::Draw, Termination::ThirtyPly),
                };
                return finish(moves, result, t, None);
            }
            if self.max_plies > 0 && played.len() >= self.max_plies {
                return finish(moves, GameResult::Draw, Termination::MaxPlies, None);
            }
            let side = game.position().side();
            let position = if played.is_empty() {
                base.clone()
            } else {
                format!("{base} moves {}", played.join(" "))
            };
            let go = self.go_command(&clocks, side);
            let clock = &clocks[idx(side)];
            let clocked = clock.limit.clock.is_some();
            let allowed = match (clock.limit.clock, clock.limit.movetime) {
                (Some(_), _) => clock.left + self.time_margin,
                (None, Some(mt)) => Duration::from_millis(mt) + self.time_margin,
                (None, None) => self.stall_timeout,
            };
            let timed = clocked || clock.limit.movetime.is_some();
            let grace = if timed {
                STOP_GRACE
            } else {
                STOP_GRACE.min(self.stall_timeout)
            };
            let (sent, reply) =
                engines[idx(side)].go(&position, &go, Instant::now() + allowed, grace);
            match reply {
                GoReply::Crashed => return fault(moves, side, Termination::Crash, true),
                GoReply::Timeout => return fault(moves, side, Termination::Stall, true),
                GoReply::NoMove { .. } => {
                    return fault(
                        moves,
                        side,
                        Termination::IllegalMove("(none)".into()),
                        false,
                    );
                }
                GoReply::Move { text, at, info } => {
                    let used = at.saturating_duration_since(sent);
                    let had = if clocked {
                        clocks[idx(side)].left
                    } else {
                        allowed.saturating_sub(self.time_margin)
                    };
                    let in_time = if clocked {
                        clocks[idx(side)].charge(used, self.time_margin)
                    } else {
                        used <= allowed
                    };
                    if !in_time {
                        let t = if timed {
                            Termination::TimeForfeit(
                                used.as_millis() as u64,
                                had.as_millis() as u64,
                            )
                        } else {
                            Termination::Stall
                        };
                        return fault(moves, side, t, false);
                    }
                    match game.play_text(&text) {
                        Ok(m) => {
                            let text = m.to_string();
                            played.push(text.clone());
                            moves.push(PlayedMove {
                                text,
                                info,
                                time: used,
                            });
                            let fullmove = game.position().fullmove();
                            match adjudicator.after_move(side, info, fullmove) {
                                None => {}
                                Some(Verdict::Draw) => {
                                    let t = Termination::DrawAdjudication;
                                    return finish(moves, GameResult::Draw, t, None);
                                }
                                Some(Verdict::Resign(c)) => {
                                    let result = GameResult::win_for(c.opponent());
                                    return finish(
                                        moves,
                                        result,
                                        Termination::ResignAdjudication,
                                        None,
                                    );
                                }
                            }
                        }
                        Err(_) => return fault(moves, side, Termination::IllegalMove(text), false),
                    }
                }
            }
        }
    }

    /// The `go` line for `side` to move.
    fn go_command(&self, clocks: &[Clock; 2], side: Color) -> String {
        let own = &clocks[idx(side)].limit;
        let mut go = String::from("go");
        if own.clock.is_some() {
            for (c, t, i) in [
                (Color::White, "wtime", "winc"),
                (Color::Black, "btime", "binc"),
            ] {
                let clock = &clocks[idx(c)];
                if let Some(tc) = clock.limit.clock {
                    go += &format!(
                        " {t} {} {i} {}",
                        clock.left.as_millis(),
                        tc.increment.as_millis()
                    );
                }
            }
            if let Some(n) = clocks[idx(side)].moves_to_go() {
                go += &format!(" movestogo {n}");
            }
        } else if let Some(mt) = own.movetime {
            go += &format!(" movetime {mt}");
        }
        if let Some(d) = own.depth {
            go += &format!(" depth {d}");
        }
        if let Some(n) = own.nodes {
            go += &format!(" nodes {n}");
        }
        go
    }
}

#[cfg(test)]
mod tests {
    use super::super::config::TimeControl;
    use super::*;

    #[test]
    fn clocks() {
        let tc = TimeControl::parse("2/1+0.1").unwrap();
        let limit = Limit {
            clock: Some(tc),
            ..Default::default()
        };
        let mut c = Clock::new(limit);
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(Duration::from_millis(400), Duration::ZERO));
        assert_eq!(c.left, Duration::from_millis(700));
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(Duration::from_millis(700), Duration::ZERO));
        // 0 + 100 ms increment + 1 s for the next two moves.
        assert_eq!(c.left, Duration::from_millis(1100));
        assert!(!c.charge(Duration::from_millis(1106), Duration::from_millis(5)));
        assert!(c.charge(Duration::from_millis(1104), Duration::from_millis(5)));
        assert_eq!(c.left, Duration::from_millis(100));
    }

    #[test]
    fn go_lines() {
        let r = Referee {
            max_plies: 0,
            time_margin: Duration::ZERO,
            stall_timeout: Duration::from_secs(1),
            draw: None,
            resign: None,
        };
        let tc = Limit {
            clock: Some(TimeControl::parse("10+0.1").unwrap()),
            ..Default::default()
        };
        let depth = Limit {
            depth: Some(5),
            nodes: Some(1000),
            ..Default::default()
        };
        let clocks = [Clock::new(tc), Clock::new(depth)];
        assert_eq!(
            r.go_command(&clocks, Color::White),
            "go wtime 10000 winc 100"
        );
        assert_eq!(r.go_command(&clocks, Color::Black), "go depth 5 nodes 1000");
        let both = [Clock::new(tc), Clock::new(tc)];
        assert_eq!(
            r.go_command(&both, Color::Black),
            "go wtime 10000 winc 100 btime 10000 binc 100"
        );
        let mt = [
            Clock::new(Limit {
                movetime: Some(50),
                ..Default::default()
            }),
            Clock::new(tc),
        ];
        assert_eq!(r.go_command(&mt, Color::White), "go movetime 50");
    }
}
