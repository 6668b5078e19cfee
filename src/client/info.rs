//! Reading an engine's `info` lines: the last score of a search, and its principal variations.

use crate::record::game_record::{EngineScore, LastInfo};

/// Parses an `info` line: its depth and score (None without a score or for a multipv line
/// other than the first).
pub fn parse_info(line: &str) -> Option<LastInfo> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let (mut depth, mut score) = (None, None);
    while let Some(w) = words.next() {
        match w {
            "depth" => depth = words.next().and_then(|d| d.parse().ok()),
            "multipv" if words.next() != Some("1") => return None,
            "score" => {
                score = match (words.next(), words.next().and_then(|v| v.parse().ok())) {
                    (Some("cp"), Some(v)) => Some(EngineScore::Cp(v)),
                    (Some("mate"), Some(v)) => Some(EngineScore::Mate(v)),
                    _ => None,
                }
            }
            // The rest of the line is the principal variation or free text.
            "pv" | "string" => break,
            _ => {}
        }
    }
    score.map(|score| LastInfo { depth, score })
}

/// One `info` line of a search with its principal variation: which line of a MultiPV
/// search, depth, score and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvInfo {
    /// 1 = the best line.
    pub multipv: u32,
    /// Depth reached.
    pub depth: u32,
    /// Score from the mover's view.
    pub score: EngineScore,
    /// The moves, first the one to play now.
    pub pv: Vec<String>,
}

/// Parses an `info` line that carries a depth, a score and a principal variation (a line
/// without `multipv` is line 1); None for any other line.
pub fn parse_pv_info(line: &str) -> Option<PvInfo> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let (mut multipv, mut depth, mut score) = (1, None, None);
    while let Some(w) = words.next() {
        match w {
            "depth" => depth = words.next().and_then(|d| d.parse().ok()),
            "multipv" => multipv = words.next().and_then(|d| d.parse().ok())?,
            "score" => {
                score = match (words.next(), words.next().and_then(|v| v.parse().ok())) {
                    (Some("cp"), Some(v)) => Some(EngineScore::Cp(v)),
                    (Some("mate"), Some(v)) => Some(EngineScore::Mate(v)),
                    _ => None,
                }
            }
            "pv" => {
                let pv: Vec<String> = words.map(str::to_string).collect();
                return Some(PvInfo {
                    multipv,
                    depth: depth?,
                    score: score?,
                    pv,
                })
                .filter(|p| !p.pv.is_empty());
            }
            "string" => return None,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let i =
            parse_info("info depth 7 seldepth 9 multipv 1 score cp -35 nodes 10 pv c3-d4 f6-e5")
                .unwrap();
        assert_eq!(
            i,
            LastInfo {
                depth: Some(7),
                score: EngineScore::Cp(-35)
            }
        );
        let i = parse_info("info depth 12 score mate -3 lowerbound time 5").unwrap();
        assert_eq!(i.score, EngineScore::Mate(-3));
        assert_eq!(parse_info("info depth 3 multipv 2 score cp 1"), None);
        assert_eq!(parse_info("info string score cp 5"), None);
        assert_eq!(parse_info("info nodes 100"), None);
        assert_eq!(parse_info("bestmove c3-d4"), None);
    }

    #[test]
    fn pv_info_lines() {
        let p = parse_pv_info(
            "info depth 7 seldepth 9 multipv 2 score mate -3 nodes 10 time 4 pv c3-d4 f6-e5",
        )
        .unwrap();
        assert_eq!(p.multipv, 2);
        assert_eq!(p.depth, 7);
        assert_eq!(p.score, EngineScore::Mate(-3));
        assert_eq!(p.pv, ["c3-d4", "f6-e5"]);
        let p = parse_pv_info("info depth 1 score cp 5 pv a3-b4").unwrap();
        assert_eq!((p.multipv, p.score), (1, EngineScore::Cp(5)));
        assert_eq!(parse_pv_info("info depth 3 score cp 1 nodes 5"), None);
        assert_eq!(parse_pv_info("info depth 3 score cp 1 pv"), None);
        assert_eq!(
            parse_pv_info("info string depth 3 score cp 1 pv a3-b4"),
            None
        );
        assert_eq!(parse_pv_info("info currmove c3-d4 currmovenumber 1"), None);
        assert_eq!(parse_pv_info("info depth x score cp 1 pv a3-b4"), None);
    }
}
