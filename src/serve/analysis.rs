//! Analysis mode's request: which position the engine searches (the one shown, or its
//! threat), how many lines, and how deep.
//!
//! **The threat** of a position is the best move of the side *not* to move, as if the side to
//! move passed: the engine searches the same board with the other side to move (the
//! no-progress count kept). Capture is compulsory there as always: when the passing side's
//! opponent would have a capture, the threat is its best capture; when it would have no
//! legal move at all, there is no threat. The side to move's own compulsory capture plays no
//! part (it passes).

use super::error::{ApiError, ErrorKind};
use super::json::{self, Value};
use super::line::new_line;
use crate::games::Variant;

/// The deepest depth an analysis may be asked to stop at.
pub const MAX_ANALYSIS_DEPTH: u32 = 64;

/// Analysis mode while it is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The position analysed: plies from the game's start.
    pub ply: usize,
    /// How many lines.
    pub multipv: u32,
    /// The threat of that position rather than its best moves.
    pub threat: bool,
    /// Stop at this depth (None: search until the server's time cap or a change).
    pub depth: Option<u32>,
}

impl Analysis {
    /// The `go` command.
    pub fn go(&self) -> String {
        match self.depth {
            Some(d) => format!("go depth {d}"),
            None => "go infinite".into(),
        }
    }

    /// As the state's `analysis` field shows it.
    pub fn to_json(self) -> Value {
        json::object([
            ("ply", Value::from(self.ply)),
            ("multipv", Value::from(self.multipv)),
            ("threat", Value::from(self.threat)),
            ("depth", self.depth.map(Value::from).into()),
        ])
    }
}

/// The FEN of `fen` with the other side to move (every FEN this server writes has the side
/// as its second field), checked by `variant`'s rules.
pub fn passed_fen(variant: Variant, fen: &str) -> Result<String, ApiError> {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    let other = match fields.get(1) {
        Some(&"b") => "w",
        _ => "b",
    };
    if fields.len() < 2 {
        fields.push(other);
    } else {
        fields[1] = other;
    }
    let passed = fields.join(" ");
    new_line(variant, Some(&passed), &[]).map_err(|e| {
        ApiError::new(
            ErrorKind::Unprocessable,
            format!("no threat in this position: {e}"),
        )
    })?;
    Ok(passed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_threat_position_has_the_other_side_to_move() {
        let start = "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1";
        let passed = passed_fen(Variant::Bashni, start).unwrap();
        assert_eq!(
            passed,
            "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 b 0 1"
        );
        let back = passed_fen(Variant::Bashni, &passed).unwrap();
        assert_eq!(back, start);
    }

    #[test]
    fn a_depth_limit_is_a_depth_search() {
        let mut a = Analysis {
            ply: 0,
            multipv: 1,
            threat: false,
            depth: None,
        };
        assert_eq!(a.go(), "go infinite");
        a.depth = Some(6);
        assert_eq!(a.go(), "go depth 6");
        assert_eq!(a.to_json().get("threat"), Some(&Value::from(false)));
    }
}
