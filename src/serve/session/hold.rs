//! The line a session holds, switched whole: the page keeps a tree of lines (the main line
//! and its variations) and the server holds one of them. Switching used to take one request
//! per ply taken back or replayed, and a second tab that followed the game saw every ply in
//! between as a change of the game; now it is one change, and the state says whether the
//! line held is the tree's main line (`main_line`), so every tab of the game places it in
//! its tree the same way.

use super::{Human, Session, conflict};
use crate::platform::Instant;
use crate::serve::error::{ApiError, ErrorKind};
use crate::serve::line::check_lines;
use crate::serve::variations::MAX_START_MOVES;

impl Session {
    /// Whether the line held is the main line of the page's tree (true from the start, set
    /// by [`Session::hold_line`], kept by moves and takebacks).
    pub fn main_line(&self) -> bool {
        self.main_line
    }

    /// Holds the whole line `moves` from the start, `main` saying whether it is the tree's
    /// main line: the moves it does not share with the line held are taken back and the new
    /// ones played, in one change, or nothing changes (an illegal move anywhere, 422). Only
    /// in analysis mode or a game where the person plays both sides, unless `moves` is the
    /// line held (then only `main` changes).
    pub fn hold_line(
        &mut self,
        moves: &[String],
        main: bool,
        now: Instant,
    ) -> Result<(), ApiError> {
        if moves.len() > MAX_START_MOVES {
            return Err(ApiError::new(
                ErrorKind::BadRequest,
                format!("'moves' must hold at most {MAX_START_MOVES} moves"),
            ));
        }
        let fen = self.line.fens()[0].clone();
        let line = check_lines(self.variant(), Some(&fen), &[moves.to_vec()])
            .map_err(|(_, why)| ApiError::new(ErrorKind::Unprocessable, why))?
            .pop()
            .unwrap_or_default();
        let held = self.line.moves().len();
        let same = self
            .line
            .moves()
            .iter()
            .zip(&line)
            .take_while(|(a, b)| a == b)
            .count();
        if same == held && same == line.len() {
            if self.main_line != main {
                self.main_line = main;
                self.bump();
            }
            return Ok(());
        }
        if self.analysis.is_none() && self.human != Human::Both {
            return Err(conflict(
                "another line is held only in analysis mode (or when you play both sides)",
            ));
        }
        if self.check_flag(now) {
            return Err(conflict("your time ran out"));
        }
        if same < held {
            self.settle(now);
            self.truncate(same);
        }
        for m in &line[same..] {
            if self.over.is_some() {
                break;
            }
            self.apply(m, now)?;
        }
        self.main_line = main;
        // The analysis follows the line's end, as after a move.
        let len = self.line.moves().len();
        if let Some(a) = &mut self.analysis {
            a.ply = a.ply.min(len);
        }
        self.after_change(now);
        Ok(())
    }
}
