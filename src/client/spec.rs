//! How to start and limit one engine process: the program, its arguments and options, and
//! the limit of its searches.

use crate::record::time_control::TimeControl;
use std::fmt;
use std::path::PathBuf;

/// How an engine's searches are limited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// A chess clock.
    pub clock: Option<TimeControl>,
    /// A fixed time per move, ms.
    pub movetime: Option<u64>,
    /// A fixed depth.
    pub depth: Option<u32>,
    /// A fixed node count.
    pub nodes: Option<u64>,
}

impl Limit {
    /// Whether no limit is set.
    pub fn is_empty(&self) -> bool {
        self.clock.is_none()
            && self.movetime.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.clock {
            parts.push(format!("tc {tc}"));
        }
        if let Some(mt) = self.movetime {
            parts.push(format!("movetime {mt} ms"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        write!(f, "{}", parts.join(", "))
    }
}

/// How to start and set up one engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// Name in the results and the PDN (default: the command's file name).
    pub name: String,
    /// The program.
    pub cmd: PathBuf,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// Working directory (default: the match runner's).
    pub dir: Option<PathBuf>,
    /// `setoption` values, in order.
    pub options: Vec<(String, String)>,
    /// The engine's own limit, replacing the match's when set.
    pub limit: Limit,
}

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Proto {
    /// Ours, shaped like UCI (engine-protocol.md).
    #[default]
    Uci,
    /// Hub (Scan's protocol v2, docs/hub.md): Russian, Brazilian and Turkish draughts.
    Hub,
}

impl std::str::FromStr for Proto {
    type Err = String;

    /// `uci` or `hub`, ignoring ASCII case.
    fn from_str(s: &str) -> Result<Proto, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "uci" => Ok(Proto::Uci),
            "hub" => Ok(Proto::Hub),
            _ => Err(format!("protocol '{s}' is not uci or hub")),
        }
    }
}
