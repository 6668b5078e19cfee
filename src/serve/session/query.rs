//! What a client may ask of a session's line without changing it: a position's legal moves
//! and its value by the endgame databases.

use super::Session;
use crate::display::plies;
use crate::search::egdb::Databases;
use crate::serve::error::{ApiError, ErrorKind};
use crate::serve::json::{self, Value};

impl Session {
    /// A position of the line held: `ply` plies from the start (default: the current one),
    /// refused beyond the line's end.
    pub fn ply_of_line(&self, ply: Option<usize>) -> Result<usize, ApiError> {
        let len = self.line.moves().len();
        let ply = ply.unwrap_or(len);
        if ply > len {
            return Err(ApiError::new(
                ErrorKind::BadRequest,
                format!("'ply' {ply} is beyond the game's {}", plies(len as u64)),
            ));
        }
        Ok(ply)
    }

    /// The position after `ply` plies (default: the current one) by the endgame databases
    /// `dbs`: `{"ply", "fen", "tablebase"}`, `tablebase` null without databases, where the
    /// game is over or where the tables do not hold it ([`super::tablebase::verdict`]).
    pub fn tablebase_at(
        &self,
        ply: Option<usize>,
        dbs: Option<&Databases>,
    ) -> Result<Value, ApiError> {
        let ply = self.ply_of_line(ply)?;
        let verdict = dbs.map_or(Value::Null, |dbs| self.line.tablebase_at(ply, dbs));
        Ok(json::object([
            ("ply", Value::from(ply)),
            ("fen", Value::from(self.line.fens()[ply].as_str())),
            ("tablebase", verdict),
        ]))
    }

    /// The legal moves of the position after `ply` plies (default: the current one).
    pub fn legal_at(&self, ply: Option<usize>) -> Result<Value, ApiError> {
        let ply = self.ply_of_line(ply)?;
        Ok(json::object([
            ("ply", Value::from(ply)),
            ("fen", Value::from(self.line.fens()[ply].as_str())),
            ("legal", Value::Array(self.line.legal_at(ply))),
        ]))
    }
}
