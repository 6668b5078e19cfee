//! The lines the engine writes in Hub mode: `id`, `param`, `info`, `done`, `error`. Every
//! line is the answer word then strict `key=value` tokens, a value with spaces or `=` in
//! double quotes (pydraughts splits on spaces outside quotes, then on `=`).

use super::notation::{line_text, move_text};
use crate::games::kit::std_fen::Numbering;
use crate::games::{Game, Variant};
use crate::protocol::quote::bounded_line;
use crate::search::egdb::{TB_BOUND_CP, TB_WIN_CP};
use crate::search::{Score, SearchInfo, SearchResult};

/// Score of a win in 0 plies, in men: a won position reads `100 - plies/100` (above 90, a
/// win to pydraughts and to Scan-style GUIs), a lost one `-(100 - plies/100)`.
pub const WIN_MEN: f64 = 100.0;

/// Centi-men per man in `variant`: 100 in every game, since the search already reports
/// [`Score::Cp`] in centi-men (`internal * 100 / Game::MAN`, each game's own value of a man).
pub fn centi_men_per_man(_variant: Variant) -> f64 {
    100.0
}

/// Score of an endgame database win at distance 0, in men: a database win whose next
/// capture or man move that keeps it won is `n` plies from the root reads `90 - n/100`
/// (80.01 to 90.00: above every evaluation, and not above 90, so that pydraughts does not
/// take it for a mate in so many plies), a database loss its negative.
pub const TB_WIN_MEN: f64 = 90.0;

/// A score as Hub gives it, in men from the side to move's view, two decimals: `0.25`,
/// `-1.30`; a win in `p` plies `100 - p/100` (so pydraughts, which reads
/// `10000 - 100 * score` as the plies, finds the distance), a loss its negative; an endgame
/// database win or loss as [`TB_WIN_MEN`] says.
pub fn score_men(variant: Variant, score: Score) -> String {
    let mate = |plies: u32| WIN_MEN - f64::from(plies.min(999)) / 100.0;
    let men = match score {
        Score::Cp(cp) if cp.abs() > TB_BOUND_CP => {
            f64::from(cp.signum()) * (TB_WIN_MEN - f64::from(TB_WIN_CP - cp.abs()) / 100.0)
        }
        Score::Cp(cp) => f64::from(cp) / centi_men_per_man(variant),
        Score::WinIn(p) => mate(p),
        Score::LossIn(p) => -mate(p),
    };
    format!("{men:.2}")
}

/// A value as a token: as it is, or in double quotes when it holds a space or `=` (a
/// double quote inside becomes a single one).
pub fn value(text: &str) -> String {
    if text.is_empty() || text.contains([' ', '=', '"', '\t']) {
        format!("\"{}\"", text.replace('"', "'"))
    } else {
        text.to_string()
    }
}

/// `info depth=D score=S nodes=N time=T nps=X pv="..."` for one report of the first line
/// (other MultiPV lines and progress reports give `None`).
pub fn info_line<G: Game>(pos: &G, info: &SearchInfo<G::Move>, n: Numbering) -> Option<String> {
    if info.currmove.is_some() || info.multipv != 1 {
        return None;
    }
    let mut s = format!(
        "info depth={} mean-depth={} score={} nodes={} time={:.3} nps={}",
        info.depth,
        info.seldepth,
        score_men(G::VARIANT, info.score),
        info.nodes,
        info.time_ms as f64 / 1000.0,
        info.nps
    );
    if !info.pv.is_empty() {
        s.push_str(&format!(
            " pv={}",
            value(&line_text(pos, &info.pv, n).join(" "))
        ));
    }
    Some(s)
}

/// `done move=M [ponder=P]`, or `done` alone when there is no legal move.
pub fn done_line<G: Game>(pos: &G, result: &SearchResult<G::Move>, n: Numbering) -> String {
    let Some(best) = result.best else {
        return "done".to_string();
    };
    let mut s = format!("done move={}", move_text(pos, &best, n));
    if let Some(p) = result.ponder {
        s.push_str(&format!(" ponder={}", move_text(&pos.played(&best), &p, n)));
    }
    s
}

/// The longest message of an `error` line, in characters, an ellipsis included: input
/// quoted in it is cut to [`crate::protocol::quote::QUOTE_CHARS`] characters.
pub const MAX_ERROR_CHARS: usize = 1000;

/// `error message="..."`: one line, the message at most [`MAX_ERROR_CHARS`] characters.
pub fn error_line(what: &dyn std::fmt::Display) -> String {
    let message = bounded_line(&what.to_string(), MAX_ERROR_CHARS);
    format!("error message={}", value(&message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_men() {
        let v = Variant::Russian;
        assert_eq!(score_men(v, Score::Cp(25)), "0.25");
        assert_eq!(score_men(v, Score::Cp(-130)), "-1.30");
        assert_eq!(score_men(v, Score::WinIn(3)), "99.97");
        assert_eq!(score_men(v, Score::LossIn(2)), "-99.98");
        // Database wins and losses: 18 plies to the conversion.
        assert_eq!(score_men(v, Score::Cp(TB_WIN_CP - 18)), "89.82");
        assert_eq!(score_men(v, Score::Cp(-(TB_WIN_CP - 18))), "-89.82");
        assert_eq!(score_men(v, Score::Cp(TB_BOUND_CP + 1)), "80.01");
        assert_eq!(value("a b"), "\"a b\"");
        assert_eq!(value("12-16"), "12-16");
        assert_eq!(error_line(&"bad \"x\""), "error message=\"bad 'x'\"");
        let long = error_line(&format!("unknown command '{}'", "x".repeat(1 << 20)));
        assert!(long.len() < 300, "{long}");
        let long = error_line(&"y".repeat(1 << 20));
        assert_eq!(long.len(), "error message=".len() + MAX_ERROR_CHARS);
    }
}
