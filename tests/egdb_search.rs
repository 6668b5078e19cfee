//! Endgame databases in the search (docs/egdb.md, "In the engine"; engine-protocol.md,
//! `EGDBPath`): through the protocol, a won position scores in the database band and its best
//! move keeps the win and comes nearer the conversion, a drawn one scores 0, and without
//! `EGDBPath` nothing changes. Every search is limited by depth.

use super::common::gui::run_to_end;
use super::egdb::russian_dir;
use bashni::egdb::{Store, Value};
use bashni::games::{Rules, russian};

/// The reported centi-men of a database win at the root in 0 plies (engine-protocol.md).
const TB_WIN_CP: i32 = 20_000;

/// What one `go depth` of `fen` (Russian) prints: the last `info` line with a score and the
/// best move. `egdb` is the `EGDBPath` value, if one is set.
fn search(fen: &str, depth: u32, egdb: Option<&str>) -> (String, String) {
    let mut input = "uci\nsetoption name UCI_Variant value russian\n".to_string();
    if let Some(dir) = egdb {
        input.push_str(&format!("setoption name EGDBPath value {dir}\n"));
    }
    input.push_str(&format!("position fen {fen}\ngo depth {depth}\nisready\n"));
    let (code, out, err) = run_to_end(&["uci"], &input);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("error"), "{out}");
    let info = out
        .lines()
        .rfind(|l| l.starts_with("info depth") && l.contains(" score "))
        .unwrap_or_else(|| panic!("no info: {out}"))
        .to_string();
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove: {out}"));
    (info, best.split(' ').next().unwrap().to_string())
}

/// The value of `word` in an `info` line (`tbhits`, `cp`).
fn field(info: &str, word: &str) -> Option<i64> {
    let mut words = info.split(' ');
    words.find(|w| *w == word)?;
    words.next()?.parse().ok()
}

fn dir() -> String {
    russian_dir().to_str().unwrap().to_string()
}

#[test]
fn a_database_win_scores_in_its_band_and_the_best_move_comes_nearer() {
    let fen = "W:WKc1,Ka3,Kg1:BKb8";
    let store = Store::<russian::Position>::open(russian_dir()).unwrap();
    let mut probe = store.prober();
    let pos = russian::Position::from_fen(fen).unwrap();
    assert_eq!(
        probe.probe(&pos).unwrap(),
        Value::Win(bashni::egdb::Plies(18))
    );
    let (info, best) = search(fen, 6, Some(&dir()));
    assert!(field(&info, "tbhits").unwrap() > 0, "{info}");
    // A win 18 plies to the conversion, seen from the root: cp 20000 - 18.
    assert_eq!(
        field(&info, "cp"),
        Some(i64::from(TB_WIN_CP - 18)),
        "{info}"
    );
    let m = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.to_string() == best)
        .unwrap();
    // After the move the lone king's side is lost, nearer the conversion.
    match probe.probe(&pos.played(&m)).unwrap() {
        Value::Loss(d) => assert!(d.0 < 18, "{best}: loss {d}"),
        v => panic!("{best} leaves {v}"),
    }
}

#[test]
fn a_database_draw_scores_zero() {
    for fen in ["B:WKc1,Ka3,Kg1:BKh8", "W:WKc1,Ka3,Kg1:BKb8:H20:F1"] {
        let (info, _) = search(fen, 6, Some(&dir()));
        assert!(field(&info, "tbhits").unwrap() > 0, "{info}");
        assert_eq!(field(&info, "cp"), Some(0), "{fen}: {info}");
    }
}

#[test]
fn without_a_database_nothing_changes() {
    let fen = "W:WKc1,Ka3,Kg1:BKb8";
    let (plain, best) = search(fen, 6, None);
    assert_eq!(field(&plain, "tbhits"), None, "{plain}");
    let cp = field(&plain, "cp").unwrap();
    assert!(cp.abs() < i64::from(TB_WIN_CP - 1000), "{plain}");
    // An empty EGDBPath is no database: the same search, move for move.
    let (empty, best_empty) = search(fen, 6, Some("<empty>"));
    assert_eq!(field(&empty, "tbhits"), None, "{empty}");
    assert_eq!((field(&empty, "cp"), &best_empty), (Some(cp), &best));
    assert_eq!(
        plain.split(" pv ").nth(1),
        empty.split(" pv ").nth(1),
        "{plain}\n{empty}"
    );
}

#[test]
fn egdb_options_are_declared_once_and_a_bad_folder_is_one_line() {
    let input = "uci\nsetoption name EGDBPath value /nonexistent/egdb\nsetoption name \
                 EGDBProbeLimit value 99\nisready\n";
    let (code, out, _) = run_to_end(&["uci"], input);
    assert_eq!(code, 0);
    let declared = |name: &str| {
        out.lines()
            .filter(|l| l.starts_with(&format!("option name {name} ")))
            .count()
    };
    assert_eq!(declared("EGDBPath"), 1, "{out}");
    assert_eq!(declared("EGDBProbeLimit"), 1, "{out}");
    assert!(out.contains("option name EGDBPath type string default <default>"));
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 2, "{out}");
    assert!(errors[0].contains("EGDBPath") && errors[0].contains("not changed"));
    assert!(errors[1].contains("EGDBProbeLimit 99 is outside 0..32"));
    assert!(out.contains("readyok"));
}

#[test]
fn bashni_accepts_a_database_folder_and_probes_nothing() {
    let input = format!(
        "uci\nsetoption name EGDBPath value {}\nposition startpos\ngo depth 3\nisready\n",
        dir()
    );
    let (code, out, _) = run_to_end(&["uci"], &input);
    assert_eq!(code, 0);
    assert!(!out.contains("error"), "{out}");
    assert!(!out.contains("tbhits"), "{out}");
    assert!(out.contains("bestmove"));
}

#[test]
fn eval_and_analyse_name_the_database_value() {
    let input = format!(
        "setoption name UCI_Variant value russian\nsetoption name EGDBPath value {}\n\
         position fen W:WKc1,Ka3,Kg1:BKb8\neval\nposition fen W:WKc1,Ka3,Kg1:BKb8:H20:F1\neval\n",
        dir()
    );
    let (code, out, _) = run_to_end(&["uci"], &input);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Endgame database: "))
        .collect();
    assert_eq!(
        lines,
        [
            "Endgame database: win, 18 plies to the next capture or man move",
            "Endgame database: win, 18 plies to the next capture or man move; a draw with the \
             clock at 20 of 30"
        ],
        "{out}"
    );
    let fen = "W:WKc1,Ka3,Kg1:BKb8";
    let d = dir();
    let args = [
        "analyse",
        "--variant",
        "russian",
        "--depth",
        "4",
        "--egdb",
        &d,
        fen,
    ];
    let (code, out, err) = run_to_end(&args, "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\nEndgame database: win, 18 plies to the next capture or man move\n"),
        "{out}"
    );
    // Without --egdb, or a position of a game without tables: no such line.
    let (_, out, _) = run_to_end(&args[..6], "");
    assert!(!out.contains("Endgame database"), "{out}");
    let (code, _, err) = run_to_end(
        &["analyse", "--depth", "2", "--egdb", "/nonexistent/egdb"],
        "",
    );
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: --egdb: /nonexistent/egdb"), "{err}");
}

#[test]
fn a_probe_limit_of_zero_probes_nothing() {
    let input = format!(
        "setoption name UCI_Variant value russian\nsetoption name EGDBPath value {}\n\
         setoption name EGDBProbeLimit value 0\nposition fen W:WKc1,Ka3,Kg1:BKb8\ngo depth 4\n\
         isready\n",
        dir()
    );
    let (code, out, _) = run_to_end(&["uci"], &input);
    assert_eq!(code, 0);
    let info = out
        .lines()
        .rfind(|l| l.starts_with("info depth 4 "))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(field(info, "tbhits"), Some(0), "{info}");
    let cp = field(info, "cp").unwrap();
    assert!(cp.abs() < i64::from(TB_WIN_CP - 1000), "{info}");
}
