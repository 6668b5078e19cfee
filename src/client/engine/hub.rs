//! Speaking Hub to an outside engine (`--engine proto=hub cmd=...` in `bashni match`), so
//! that Russian and Turkish matches can meet Scan-family engines. The match runner asks in
//! its own terms (`position ... moves ...`, `go wtime ...`); here they become Hub's `pos`,
//! `level` and `go think`, and Hub's `info` and `done` come back as ours: scores from men to
//! centi-men, moves from square numbers (counted from the top, as Scan counts) to our
//! notation. Handshake: `hub` up to `wait`, `set-param` for the game (when the engine
//! declares a `variant` parameter) and each `option.<name>=`, then `init` up to `ready`;
//! `ping`/`pong` stands in for `isready`/`readyok`.

use super::{EngineError, EngineProcess, GoReply, GoWatcher, START_TIMEOUT};
use crate::client::reply::read_search_line;
use crate::client::spec::EngineSpec;
use crate::games::kit::std_fen::Numbering;
use crate::games::{Game, Record, Variant};
use crate::hub::HUB_VARIANTS;
use crate::hub::command::tokens;
use crate::hub::notation::{line_text, parse_move, position_text};
use crate::hub::output::value;
use crate::record::game_record::{EngineScore, LastInfo};
use std::time::{Duration, Instant};

impl EngineProcess {
    /// The Hub handshake for games of `variant`.
    pub(super) fn hub_handshake(
        &mut self,
        spec: &EngineSpec,
        variant: Variant,
    ) -> Result<(), EngineError> {
        if !HUB_VARIANTS.contains(&variant) {
            let offered = HUB_VARIANTS.iter().map(|v| v.name().to_string()).collect();
            return Err(EngineError::NoVariant(
                self.name.clone(),
                variant,
                Some(offered),
            ));
        }
        self.send("hub")?;
        let deadline = Instant::now() + START_TIMEOUT;
        let (mut params, mut variants) = (Vec::new(), None);
        loop {
            let (_, line) = self.next_line(deadline, "hub")?;
            if line == "wait" {
                break;
            }
            let Some(rest) = line.strip_prefix("param ") else {
                continue;
            };
            let tokens = tokens(rest).unwrap_or_default();
            let get = |k: &str| tokens.iter().find(|t| t.0 == k).and_then(|t| t.1.clone());
            let name = get("name").unwrap_or_default().to_ascii_lowercase();
            if name == "variant" {
                let values = get("values").unwrap_or_default();
                variants = Some(
                    values
                        .split_whitespace()
                        .map(str::to_string)
                        .collect::<Vec<_>>(),
                );
            }
            params.push(name);
        }
        // An engine without a `variant` parameter plays one game: it is taken at its word.
        if let Some(offered) = variants {
            if !offered
                .iter()
                .any(|v| v.eq_ignore_ascii_case(variant.name()))
            {
                return Err(EngineError::NoVariant(
                    self.name.clone(),
                    variant,
                    Some(offered),
                ));
            }
            self.hub_param("variant", variant.name())?;
        }
        for (name, value) in &spec.options {
            if !params.contains(&name.to_ascii_lowercase()) {
                return Err(EngineError::UnknownOption(self.name.clone(), name.clone()));
            }
            self.hub_param(name, value)?;
        }
        self.send("init")?;
        let deadline = Instant::now() + START_TIMEOUT;
        while self.next_line(deadline, "init")?.1 != "ready" {}
        Ok(())
    }

    /// `set-param`, refused when the engine answers `error` before `pong`.
    fn hub_param(&mut self, name: &str, v: &str) -> Result<(), EngineError> {
        self.send(&format!(
            "set-param name={} value={}",
            value(name),
            value(v)
        ))?;
        match self.hub_sync(START_TIMEOUT)? {
            None => Ok(()),
            Some(said) => Err(EngineError::RejectedOption(
                self.name.clone(),
                name.to_string(),
                v.to_string(),
                said,
            )),
        }
    }

    /// `ping` until `pong`; the first `error` line said before it.
    pub(super) fn hub_sync(&mut self, timeout: Duration) -> Result<Option<String>, EngineError> {
        self.send("ping")?;
        let deadline = Instant::now() + timeout;
        let mut error = None;
        loop {
            let (_, line) = self.next_line(deadline, "ping")?;
            if line == "pong" {
                return Ok(error);
            }
            if line.starts_with("error") && error.is_none() {
                error = Some(line);
            }
        }
    }
}

/// The game of a `position startpos|fen <FEN> [moves ...]` line.
fn record_of<G: Game>(position: &str) -> Result<Record<G>, String> {
    let rest = position
        .trim()
        .strip_prefix("position")
        .unwrap_or(position)
        .trim();
    let (head, moves) = match rest.split_once(" moves") {
        Some((h, m)) => (h.trim(), m.split_whitespace().collect::<Vec<_>>()),
        None => (rest, Vec::new()),
    };
    let fen = match head.strip_prefix("fen") {
        Some(f) => f.trim(),
        None => G::START_FEN,
    };
    Record::from_fen_and_moves(fen, &moves).map_err(|e| e.to_string())
}

/// The Hub lines for our `position` and `go` lines: `pos`, `level`, `go think`. A clock
/// is sent as pydraughts sends it: the time before this move's increment (Hub engines add
/// it), and the increment.
pub(super) fn hub_go(variant: Variant, position: &str, go: &str) -> Result<String, String> {
    crate::for_variant!(variant, G => hub_go_in::<G>(position, go))
}

fn hub_go_in<G: Game>(position: &str, go: &str) -> Result<String, String> {
    let record = record_of::<G>(position)?;
    let start = record.start();
    let moves = line_text(start, record.moves(), Numbering::Top);
    let mut pos = format!("pos pos={}", position_text(start));
    if !moves.is_empty() {
        pos.push_str(&format!(" moves=\"{}\"", moves.join(" ")));
    }
    let words: Vec<&str> = go.split_whitespace().collect();
    let get = |k: &str| -> Option<u64> {
        let i = words.iter().position(|w| *w == k)?;
        words.get(i + 1)?.parse().ok()
    };
    let white = record.position().side_to_move() == crate::games::kit::Color::White;
    let (time, inc) = if white {
        ("wtime", "winc")
    } else {
        ("btime", "binc")
    };
    let secs = |ms: u64| format!("{:.3}", ms as f64 / 1000.0);
    let mut level = String::from("level");
    if let Some(t) = get(time) {
        let i = get(inc).unwrap_or(0);
        level += &format!(" time={} inc={}", secs(t.saturating_sub(i)), secs(i));
        if let Some(n) = get("movestogo") {
            level += &format!(" moves={n}");
        }
    }
    if let Some(ms) = get("movetime") {
        level += &format!(" move-time={}", secs(ms));
    }
    if let Some(d) = get("depth") {
        level += &format!(" depth={d}");
    }
    if let Some(n) = get("nodes") {
        level += &format!(" nodes={n}");
    }
    if level == "level" {
        level += " infinite";
    }
    Ok(format!("{pos}\n{level}\ngo think"))
}

/// One line of a Hub engine's search: an `info` line goes to `watch` and its score to
/// `info`; `done` is the reply.
pub(super) fn reply(
    variant: Variant,
    position: &str,
    line: &str,
    at: Instant,
    info: &mut Option<LastInfo>,
    watch: &mut dyn GoWatcher,
) -> Option<GoReply> {
    let done = |l: &str| hub_done(variant, position, l);
    read_search_line(line, at, info, watch, hub_info, done)
}

/// The depth and score of a Hub `info` line (score in men; above 90 a win, whose distance
/// in plies is `100 * (100 - score)`).
pub(super) fn hub_info(line: &str) -> Option<LastInfo> {
    let tokens = tokens(line.strip_prefix("info")?).ok()?;
    let get = |k: &str| tokens.iter().find(|t| t.0 == k).and_then(|t| t.1.clone());
    let men: f64 = get("score")?.parse().ok().filter(|s: &f64| s.is_finite())?;
    let score = if men.abs() > 90.0 {
        let plies = ((100.0 - men.abs()) * 100.0).round().max(1.0) as i32;
        let moves = (plies + 1) / 2;
        EngineScore::Mate(if men > 0.0 { moves } else { -moves })
    } else {
        EngineScore::Cp((men * 100.0).round() as i32)
    };
    let depth = get("depth").and_then(|d| d.parse().ok());
    Some(LastInfo { depth, score })
}

/// For a `done` line: `Some(None)` without a move, `Some(Some(text))` with the move in our
/// notation (or as sent, when it is no legal move: the referee then calls it illegal).
pub(super) fn hub_done(variant: Variant, position: &str, line: &str) -> Option<Option<String>> {
    let rest = line.strip_prefix("done")?;
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let tokens = tokens(rest).unwrap_or_default();
    let Some(text) = tokens
        .iter()
        .find(|t| t.0 == "move")
        .and_then(|t| t.1.clone())
    else {
        return Some(None);
    };
    let ours = crate::for_variant!(variant, G => {
        record_of::<G>(position).ok().and_then(|r| {
            parse_move(r.position(), &text, Numbering::Top).ok().map(|m| m.to_string())
        })
    });
    Some(Some(ours.unwrap_or(text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translates_both_ways() {
        let v = Variant::Russian;
        let lines = hub_go(
            v,
            "position startpos moves c3-d4",
            "go btime 5000 binc 100 wtime 1 winc 2",
        )
        .unwrap();
        assert_eq!(
            lines,
            "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"22-18\"\n\
             level time=4.900 inc=0.100\ngo think"
        );
        let l = hub_go(v, "position startpos", "go depth 4").unwrap();
        assert!(l.ends_with("level depth=4\ngo think"), "{l}");
        assert_eq!(
            hub_done(
                v,
                "position startpos moves c3-d4",
                "done move=9-13 ponder=22-17"
            ),
            Some(Some("b6-a5".into()))
        );
        assert_eq!(hub_done(v, "position startpos", "done"), Some(None));
        assert_eq!(hub_done(v, "position startpos", "doner"), None);
        let i = hub_info("info depth=7 score=-1.30 nodes=5 pv=\"1-5 28-24\"").unwrap();
        assert_eq!((i.depth, i.score), (Some(7), EngineScore::Cp(-130)));
        assert_eq!(
            hub_info("info score=99.97").unwrap().score,
            EngineScore::Mate(2)
        );
        assert_eq!(
            hub_info("info score=-99.98").unwrap().score,
            EngineScore::Mate(-1)
        );
        assert!(hub_info("info depth=3").is_none());
    }
}
