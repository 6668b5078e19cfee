//! A finished game as a PDN record: the tags, the opening moves (commented `book`) and the
//! engines' moves with `{score/depth time}` comments from their last `info`.

use super::engine::{EngineScore, LastInfo};
use super::pdn::{PdnGame, PdnMove};
use super::runner::Finished;
use std::time::Duration;

/// A move comment: `+0.25/7 0.105s`, `+M3/12 1.200s` (mover's view), or just the time.
pub fn comment(info: Option<LastInfo>, time: Duration) -> String {
    let secs = format!("{:.3}s", time.as_secs_f64());
    let Some(info) = info else { return secs };
    let score = match info.score {
        EngineScore::Cp(c) => {
            let sign = if c < 0 { '-' } else { '+' };
            format!("{sign}{}.{:02}", c.abs() / 100, c.abs() % 100)
        }
        EngineScore::Mate(m) if m < 0 => format!("-M{}", -m),
        EngineScore::Mate(m) => format!("+M{m}"),
    };
    match info.depth {
        Some(d) => format!("{score}/{d} {secs}"),
        None => format!("{score} {secs}"),
    }
}

/// The PDN record of a finished game.
pub fn to_pdn(f: &Finished, event: &str, site: &str, date: &str) -> PdnGame {
    let r = &f.record;
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), event.into()),
        ("Site".into(), site.into()),
        ("Date".into(), date.into()),
        ("Round".into(), (f.pair + 1).to_string()),
        ("White".into(), r.names[0].clone()),
        ("Black".into(), r.names[1].clone()),
        ("Result".into(), r.result.pdn().into()),
        ("GameType".into(), "Bashni".into()),
    ];
    if let Some(fen) = &r.opening.fen {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), fen.clone()));
    }
    tags.push(("Termination".into(), r.termination.tag().into()));
    let plies = r.opening.moves.len() + r.moves.len();
    tags.push(("PlyCount".into(), plies.to_string()));
    let book = r.opening.moves.iter().map(|m| PdnMove {
        text: m.clone(),
        comment: Some("book".into()),
    });
    let played = r.moves.iter().map(|m| PdnMove {
        text: m.text.clone(),
        comment: Some(comment(m.info, m.time)),
    });
    PdnGame {
        tags,
        moves: book.chain(played).collect(),
        result: r.result.pdn().into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments() {
        let t = Duration::from_millis(105);
        let i = |depth, score| Some(LastInfo { depth, score });
        assert_eq!(
            comment(i(Some(7), EngineScore::Cp(25)), t),
            "+0.25/7 0.105s"
        );
        assert_eq!(
            comment(i(Some(7), EngineScore::Cp(-130)), t),
            "-1.30/7 0.105s"
        );
        assert_eq!(
            comment(i(Some(12), EngineScore::Mate(3)), t),
            "+M3/12 0.105s"
        );
        assert_eq!(comment(i(None, EngineScore::Mate(-2)), t), "-M2 0.105s");
        assert_eq!(comment(None, t), "0.105s");
    }
}
