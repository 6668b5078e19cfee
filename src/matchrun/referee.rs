//! The referee: plays one game between two engine processes under the rules of the game
//! played (any [`Game`]). It checks every move against the position, keeps both clocks, and
//! ends the game by the rules (no legal move, the game's own decision rule, threefold
//! repetition, the game's no-progress rule), by the ply limit, or by a fault of one side
//! (illegal move, crash, stall, time forfeit), each with its own [`Termination`].

use super::adjudicate::{Adjudicator, DrawRule, ResignRule, Verdict};
use super::config::Limit;
use crate::client::engine::{EngineError, EngineProcess, GoReply, START_TIMEOUT};
use crate::games::kit::color::Color;
use crate::games::{Game, Record};
use crate::record::game_record::{GameRecord, PlayedMove};
use crate::record::openings::Opening;
use crate::record::result::{GameResult, Termination};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Longest wait for `bestmove` after `stop` was sent on a timeout.
pub const STOP_GRACE: Duration = Duration::from_secs(1);

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

/// How a game ended, as its record needs it.
struct Ending {
    result: GameResult,
    termination: Termination,
    /// The colour whose engine must be restarted.
    broken: Option<Color>,
}

impl Ending {
    /// An ending by the rules, the ply limit or adjudication.
    fn by(result: GameResult, termination: Termination) -> Ending {
        Ending {
            result,
            termination,
            broken: None,
        }
    }

    /// `c` loses by a fault; `broken`: its engine crashed or stopped answering.
    fn fault(c: Color, termination: Termination, broken: bool) -> Ending {
        Ending {
            result: GameResult::win_for(c.opponent()),
            termination,
            broken: broken.then_some(c),
        }
    }
}

/// A game being played: the position, the moves so far, the clocks and the adjudicator.
struct Table<'a, G: Game> {
    referee: &'a Referee,
    game: Record<G>,
    /// The `position` command without its moves.
    base: String,
    /// Every move from the start position (opening included), in our notation.
    played: Vec<String>,
    /// The engines' moves.
    moves: Vec<PlayedMove>,
    clocks: [Clock; 2],
    adjudicator: Adjudicator,
}

impl Referee {
    /// Plays a game of `G` between `engines` (White's first) from `opening`, each under its
    /// limit (White's first). Returns `None` when `stop` was raised before the end.
    pub fn play<G: Game>(
        &self,
        mut engines: [&mut EngineProcess; 2],
        limits: [Limit; 2],
        opening: &Opening,
        stop: &AtomicBool,
    ) -> Option<GameRecord> {
        let names = [engines[0].name().to_string(), engines[1].name().to_string()];
        let mut table = Table {
            referee: self,
            game: opening.game::<G>(),
            base: match &opening.fen {
                None => "position startpos".to_string(),
                Some(f) => format!("position fen {f}"),
            },
            played: opening.moves.clone(),
            moves: Vec::new(),
            clocks: [Clock::new(limits[0]), Clock::new(limits[1])],
            adjudicator: Adjudicator::new(self.draw, self.resign),
        };
        let ending = table.run(&mut engines, stop)?;
        Some(GameRecord {
            names,
            opening: opening.clone(),
            moves: table.moves,
            result: ending.result,
            termination: ending.termination,
            broken: ending.broken,
        })
    }
}

impl<G: Game> Table<'_, G> {
    /// Plays to the end; `None` when `stop` was raised first.
    fn run(&mut self, engines: &mut [&mut EngineProcess; 2], stop: &AtomicBool) -> Option<Ending> {
        // 1. Both engines start a new game; one that cannot loses it.
        for c in [Color::White, Color::Black] {
            match engines[idx(c)].new_game(START_TIMEOUT) {
                Ok(()) => {}
                Err(EngineError::Timeout(..)) => {
                    return Some(Ending::fault(c, Termination::Stall, true));
                }
                Err(_) => return Some(Ending::fault(c, Termination::Crash, true)),
            }
        }
        loop {
            // 2. The match is being stopped.
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            // 3. The game is over by the rules or the ply limit.
            if let Some(ending) = self.over() {
                return Some(ending);
            }
            // 4. The side to move thinks, answers in time with a legal move, and the
            //    adjudicator has its say.
            let side = self.game.position().side_to_move();
            if let Err(ending) = self.one_move(engines[idx(side)], side) {
                return Some(ending);
            }
        }
    }

    fn over(&self) -> Option<Ending> {
        if let Some(o) = self.game.outcome() {
            let (result, t) = Termination::of_outcome(o);
            return Some(Ending::by(result, t));
        }
        let max = self.referee.max_plies;
        (max > 0 && self.played.len() >= max)
            .then(|| Ending::by(GameResult::Draw, Termination::MaxPlies))
    }

    /// One move of `side`: asks its engine, checks the time and the move, records it.
    fn one_move(&mut self, engine: &mut EngineProcess, side: Color) -> Result<(), Ending> {
        let position = if self.played.is_empty() {
            self.base.clone()
        } else {
            format!("{} moves {}", self.base, self.played.join(" "))
        };
        let go = self.referee.go_command(&self.clocks, side);
        let margin = self.referee.time_margin;
        let clock = &self.clocks[idx(side)];
        let clocked = clock.limit.clock.is_some();
        let timed = clocked || clock.limit.movetime.is_some();
        // How long it may take: its clock, its move time, or the stall limit.
        let allowed = match (clock.limit.clock, clock.limit.movetime) {
            (Some(_), _) => clock.left + margin,
            (None, Some(mt)) => Duration::from_millis(mt) + margin,
            (None, None) => self.referee.stall_timeout,
        };
        let grace = if timed {
            STOP_GRACE
        } else {
            STOP_GRACE.min(self.referee.stall_timeout)
        };
        let (sent, reply) = engine.go(&position, &go, Instant::now() + allowed, grace);
        let (text, at, info) = match reply {
            GoReply::Crashed => return Err(Ending::fault(side, Termination::Crash, true)),
            GoReply::Timeout => return Err(Ending::fault(side, Termination::Stall, true)),
            GoReply::NoMove { .. } => {
                let t = Termination::IllegalMove("(none)".into());
                return Err(Ending::fault(side, t, false));
            }
            GoReply::Move { text, at, info } => (text, at, info),
        };
        let used = at.saturating_duration_since(sent);
        let clock = &mut self.clocks[idx(side)];
        let had = if clocked {
            clock.left
        } else {
            allowed.saturating_sub(margin)
        };
        let in_time = if clocked {
            clock.charge(used, margin)
        } else {
            used <= allowed
        };
        if !in_time {
            let t = if timed {
                Termination::TimeForfeit(used.as_millis() as u64, had.as_millis() as u64)
            } else {
                Termination::Stall
            };
            return Err(Ending::fault(side, t, false));
        }
        let Ok(m) = self.game.play_text(&text) else {
            return Err(Ending::fault(side, Termination::IllegalMove(text), false));
        };
        let text = m.to_string();
        self.played.push(text.clone());
        self.moves.push(PlayedMove {
            text,
            info,
            time: used,
        });
        let fullmove = self.game.position().fullmove();
        match self.adjudicator.after_move(side, info, fullmove) {
            None => Ok(()),
            Some(Verdict::Draw) => Err(Ending::by(GameResult::Draw, Termination::DrawAdjudication)),
            Some(Verdict::Resign(c)) => Err(Ending::by(
                GameResult::win_for(c.opponent()),
                Termination::ResignAdjudication,
            )),
        }
    }
}

impl Referee {
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
