//! `bashni hub` with endgame databases: the `egdb-path` parameter, declared at `hub`, set
//! with `set-param`, and a database win reported as Hub allows it: `score=` between 80 and
//! 90 men (`90 - n/100`, `n` the plies from the root to the next capture or man move that
//! keeps it won; above 90 is a mate to pydraughts), with a pv that goes on with the tables'
//! line to that capture or man move.

use super::{get, no_error, start, think};
use crate::egdb::russian_dir;

/// Three kings (c1, a3, g1) against one (b8), White to move, squares numbered from the top
/// (1 = b8 ... 32 = g1): won in 18 plies by the tables (docs/egdb.md).
fn three_kings() -> String {
    let mut squares = vec!['e'; 32];
    for (number, piece) in [(30, 'W'), (21, 'W'), (32, 'W'), (1, 'B')] {
        squares[number - 1] = piece;
    }
    format!("pos pos=W{}", squares.into_iter().collect::<String>())
}

#[test]
fn the_database_path_is_a_parameter_and_its_wins_score_below_mates() {
    let (mut g, handshake) = start(&[]);
    assert!(
        handshake.contains(&"param name=egdb-path value=\"\" type=string".to_string()),
        "{handshake:?}"
    );
    g.send("set-param name=egdb-path value=/nonexistent/egdb");
    let refused = g.until(|l| l.starts_with("error"));
    assert!(
        refused.last().unwrap().contains("egdb-path: "),
        "{refused:?}"
    );
    let dir = russian_dir().to_str().unwrap().to_string();
    g.send(&format!("set-param name=egdb-path value={}", dir));
    no_error(&mut g);
    g.send("hub");
    let declared = g.until_line("wait");
    let param = declared
        .iter()
        .find(|l| l.contains("name=egdb-path"))
        .unwrap();
    assert_eq!(
        get(param, "value").as_deref(),
        Some(dir.as_str()),
        "{param}"
    );
    g.send("init");
    g.until_line("ready");
    g.send(&three_kings());
    g.send("level depth=6");
    let (infos, done) = think(&mut g);
    let last = infos.last().unwrap();
    let score: f64 = get(last, "score").unwrap().parse().unwrap();
    assert!(score > 80.0 && score <= 90.0, "{infos:?}");
    // The tables' quickest conversions: c1-b2 or a3-b2 (30-25, 21-25); the pv goes on with
    // the tables' line to the conversion, 18 plies from here, its last move a capture.
    let best = get(&done, "move").unwrap();
    assert!(["30-25", "21-25"].contains(&best.as_str()), "{done}");
    let pv = get(last, "pv").unwrap();
    let pv: Vec<&str> = pv.split(' ').collect();
    assert_eq!(pv.len(), 18, "{last}");
    assert_eq!(pv[0], best, "{last}");
    assert!(pv[17].contains('x'), "{last}");
    // An empty path: no tables, an evaluation again.
    g.send("set-param name=egdb-path value=\"\"");
    no_error(&mut g);
    g.send(&three_kings());
    let (infos, _) = think(&mut g);
    let score: f64 = get(infos.last().unwrap(), "score")
        .unwrap()
        .parse()
        .unwrap();
    assert!(score.abs() < 80.0, "{infos:?}");
}
