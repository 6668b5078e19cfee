//! Issue 66: endgame tables as a hostile user leaves them. A table that is not a regular
//! file (a FIFO, a link to /dev/zero) is refused in one line by every entry point, never read
//! whole or waited on; a table rewritten in place under a running engine or server is no
//! longer read, and nothing dies of it; `egdb build` writes through no planted link; a FEN
//! with a man on its own last rank is refused in every game (the table lookup read past its
//! table); and the smaller things of item 8 (long option values cut, a folder without
//! tables said so, `egdb verify --variant`). Every run has a deadline: a hang fails.

use crate::common::gui::{Gui, run_to_end};
use crate::common::serve::{Server, str_of};
use crate::egdb::russian_dir;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder under the test target's temporary folder.
fn folder(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A copy of the Russian 2-3 piece tables and KKKvK (tests/egdb.rs).
fn copy_of_tables(name: &str) -> PathBuf {
    let dir = folder(name);
    for entry in std::fs::read_dir(russian_dir()).unwrap() {
        let from = entry.unwrap().path();
        std::fs::copy(&from, dir.join(from.file_name().unwrap())).unwrap();
    }
    dir
}

/// Folders of good tables but one, `russian-KvK.egdb`, which is a FIFO in the first and a
/// link to /dev/zero in the second.
fn hostile_folders() -> Vec<PathBuf> {
    let fifo = copy_of_tables("egdb-hostile-fifo");
    let table = fifo.join("russian-KvK.egdb");
    std::fs::remove_file(&table).unwrap();
    let made = Command::new("mkfifo").arg(&table).status().unwrap();
    assert!(made.success());
    let zero = copy_of_tables("egdb-hostile-zero");
    let table = zero.join("russian-KvK.egdb");
    std::fs::remove_file(&table).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &table).unwrap();
    vec![fifo, zero]
}

/// Asserts that `text` holds exactly one line saying that `russian-KvK.egdb` is refused as
/// not a regular file (among the lines that start with `prefix`).
fn refused_once(text: &str, prefix: &str, what: &str) {
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with(prefix)).collect();
    assert_eq!(lines.len(), 1, "{what}: {text}");
    assert!(
        lines[0].contains("russian-KvK.egdb: not a regular file"),
        "{what}: {text}"
    );
}

#[test]
fn a_table_that_is_not_a_regular_file_is_refused_by_every_entry_point() {
    for dir in hostile_folders() {
        let d = dir.to_str().unwrap();
        for args in [
            vec!["egdb", "verify", "--dir", d],
            vec!["egdb", "info", "--dir", d],
            vec![
                "egdb",
                "probe",
                "--variant",
                "russian",
                "--dir",
                d,
                "--fen",
                "W:WKa1:BKh8",
            ],
            vec![
                "analyse",
                "--variant",
                "russian",
                "--egdb",
                d,
                "--depth",
                "1",
            ],
            vec!["play", "--variant", "russian", "--egdb", d],
            vec!["serve", "--port", "0", "--egdb", d],
        ] {
            let (code, out, err) = run_to_end(&args, "quit\n");
            assert_eq!(code, 1, "{args:?}: {out}{err}");
            refused_once(&err, "error: ", &format!("{args:?}"));
        }
        let input = format!(
            "setoption name UCI_Variant value russian\nsetoption name EGDBPath value {d}\nisready\n"
        );
        let (_, out, _) = run_to_end(&[], &input);
        refused_once(&out, "info string error: setoption: EGDBPath: ", "EGDBPath");
        assert!(out.ends_with("readyok\n"), "{out}");
        let input = format!("hub\nset-param name=egdb-path value={d}\ninit\nquit\n");
        let (_, out, _) = run_to_end(&["hub"], &input);
        refused_once(&out, "error", "egdb-path");
        assert!(out.contains("\nready\n"), "{out}");
    }
}

/// Overwrites every table in `dir` in place (the same files, cut and written again, as `cp`
/// does): those of three kings against one (the ones the tests probe) emptied, the rest
/// holding another table's bytes (or emptied where those are as long as the table).
fn rewrite_in_place(dir: &Path) {
    let other = std::fs::read(dir.join("russian-KvK.egdb")).unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let len = std::fs::metadata(&path).unwrap().len() as usize;
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes: &[u8] = if name.contains("KKK") || len == other.len() {
            &[]
        } else {
            &other
        };
        std::fs::write(&path, bytes).unwrap();
    }
}

/// Three kings against one, won in 18 plies by the tables (docs/egdb.md).
const WON: &str = "W:WKc1,Ka3,Kg1:BKb8";

#[test]
fn an_engine_survives_its_tables_rewritten_in_place() {
    let dir = copy_of_tables("egdb-rewritten-engine");
    let mut g = Gui::start(&[]);
    g.send("setoption name UCI_Variant value russian");
    g.send(&format!("setoption name EGDBPath value {}", dir.display()));
    g.send(&format!("position fen {WON}"));
    g.send("go depth 6");
    let (lines, _) = g.bestmove();
    assert!(
        lines.iter().any(|l| l.contains("score cp 199")),
        "{lines:?}"
    );
    rewrite_in_place(&dir);
    // Positions the engine has not probed yet, in the rewritten tables.
    for fen in [WON, "W:WKd2,Kb4,Kh2:BKa7", "B:WKc1,Ka3,Kg1:BKb8"] {
        g.send(&format!("position fen {fen}"));
        g.send("go depth 6");
        g.bestmove();
    }
    g.send("isready");
    g.until_line("readyok");
    assert!(!g.exited(), "{}", g.dump());
}

#[test]
fn the_server_survives_its_tables_rewritten_in_place() {
    let dir = copy_of_tables("egdb-rewritten-serve");
    let server = Server::start(&["--egdb", dir.to_str().unwrap()]);
    let game = |fen: &str| {
        let body = format!(r#"{{"variant":"russian","human":"both","fen":"{fen}"}}"#);
        server.new_game(&body).0
    };
    let (id, id2) = (game(WON), game("W:WKd2,Kb4,Kh2:BKa7"));
    let tb = server.ok("GET", &format!("/api/games/{id}/tablebase"), "");
    assert_eq!(str_of(&tb["tablebase"]["value"], "class"), "win", "{tb}");
    rewrite_in_place(&dir);
    // Both games go on: their tablebase calls answer (nothing, from tables no longer
    // trusted), and a move is played.
    for game in [&id, &id2] {
        let (status, tb) = server.call("GET", &format!("/api/games/{game}/tablebase"), "");
        assert_eq!(status, 200, "{tb}");
    }
    server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"c1-b2"}"#,
    );
    let tb = server.ok("GET", &format!("/api/games/{id}/tablebase"), "");
    assert_eq!(tb["tablebase"], bashni::serve::json::Value::Null, "{tb}");
    let info = server.ok("GET", "/api/info", "");
    assert!(info["egdb"]["tables"].as_u64().unwrap() > 0, "{info}");
}

#[test]
fn build_writes_through_no_planted_link() {
    let out = folder("egdb-planted");
    let outside = folder("egdb-planted-outside");
    let victim = outside.join("victim.txt");
    let other = outside.join("other.txt");
    std::fs::write(&victim, "precious").unwrap();
    std::fs::write(&other, "precious too").unwrap();
    // At the temporary name the build used, and at a table's own name.
    std::os::unix::fs::symlink(&victim, out.join("russian-KvK.egdb.tmp")).unwrap();
    std::os::unix::fs::symlink(&other, out.join("russian-KvM.egdb")).unwrap();
    let o = out.to_str().unwrap();
    let (code, text, err) = run_to_end(
        &[
            "egdb",
            "build",
            "--variant",
            "russian",
            "--pieces",
            "2",
            "--out",
            o,
        ],
        "",
    );
    assert_eq!(code, 0, "{text}{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "precious too");
    let table = std::fs::symlink_metadata(out.join("russian-KvM.egdb")).unwrap();
    assert!(
        table.file_type().is_file(),
        "the link is replaced by the table"
    );
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "russian-KvK.egdb",
            "russian-KvK.egdb.tmp",
            "russian-KvM.egdb",
            "russian-MvK.egdb",
            "russian-MvM.egdb"
        ],
        "no temporary file is left"
    );
    let (code, text, _) = run_to_end(&["egdb", "verify", "--dir", o], "");
    assert_eq!(code, 0, "{text}");
}

/// FENs with a man on its own last rank (White's on rank 8, Black's on rank 1), in the game's
/// own FEN and the standard draughts FEN, of the games with endgame tables. (Lasca refuses its
/// own; Bashni's reader takes one, and its rules tests define what such a man does.)
const MAN_ON_LAST_RANK: &[(&str, &str, &str)] = &[
    ("russian", "W:Wh8:BKa1", "h8"),
    ("russian", "W:Wh8,Kc3:BKa1", "h8"),
    ("russian", "B:WKc3:Ba1", "a1"),
    ("russian", "7w/8/8/8/8/8/8/B7 w", "h8"),
    ("turkish", "W:Wa8:BKa1", "a8"),
    ("turkish", "8/8/8/8/8/8/8/b6W w", "a1"),
];

#[test]
fn a_man_on_its_last_rank_is_refused_in_every_game_and_no_probe_panics() {
    let dir = russian_dir().to_str().unwrap();
    for &(game, fen, sq) in MAN_ON_LAST_RANK {
        let why = format!("a man on {sq}, its own last rank (it would be a king)");
        if game == "russian" {
            let (code, out, err) = run_to_end(
                &[
                    "egdb",
                    "probe",
                    "--variant",
                    game,
                    "--dir",
                    dir,
                    "--fen",
                    fen,
                ],
                "",
            );
            assert_eq!((code, out.as_str()), (1, ""), "{fen}: {err}");
            assert_eq!(err, format!("error: bad FEN: {why}\n"), "{fen}");
        }
        let (code, _, err) = run_to_end(
            &[
                "analyse",
                "--variant",
                game,
                "--egdb",
                dir,
                "--depth",
                "2",
                fen,
            ],
            "",
        );
        assert_eq!(code, 2, "{fen}: {err}");
        assert!(
            err.contains(&why) && !err.contains("panicked"),
            "{fen}: {err}"
        );
        let input = format!(
            "setoption name UCI_Variant value {game}\nsetoption name EGDBPath value {dir}\n\
             position fen {fen}\ngo depth 3\nisready\n"
        );
        let (_, out, err) = run_to_end(&[], &input);
        assert!(out.contains(&why), "{fen}: {out}");
        assert!(!out.contains("internal error"), "{fen}: {out}");
        assert!(!err.contains("panicked"), "{fen}: {err}");
    }
    // The page: the game is refused with the reason, and the server goes on.
    let server = Server::start(&["--egdb", dir]);
    for &(game, fen, sq) in MAN_ON_LAST_RANK {
        let body = format!(r#"{{"variant":"{game}","human":"both","fen":"{fen}"}}"#);
        let (status, v) = server.call("POST", "/api/games", &body);
        assert_eq!(status, 400, "{fen}: {v}");
        assert!(
            v.to_string().contains(&format!("a man on {sq}")),
            "{fen}: {v}"
        );
    }
    server.ok("GET", "/api/info", "");
}

#[test]
fn long_option_values_are_cut_in_their_errors() {
    let long = "x".repeat(1_000_000);
    let input = format!(
        "setoption name EGDBPath value {long}\nsetoption name EvalFile value {long}\nisready\n"
    );
    let (_, out, _) = run_to_end(&[], &input);
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 2, "{}", &out[..out.len().min(2000)]);
    for e in errors {
        assert!(e.chars().count() < 600, "{} characters", e.chars().count());
        assert!(e.contains("(1000000 characters in all)"), "{e}");
    }
}

#[test]
fn a_folder_without_tables_for_the_game_is_said_so() {
    let empty = folder("egdb-empty");
    let e = empty.to_str().unwrap();
    let tables = russian_dir().to_str().unwrap();
    let input = format!(
        "setoption name UCI_Variant value russian\nsetoption name EGDBPath value {tables}\n\
         setoption name UCI_Variant value turkish\nsetoption name EGDBPath value {e}\nisready\n"
    );
    let (_, out, _) = run_to_end(&[], &input);
    let said: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(said.len(), 3, "{out}");
    assert!(
        said[0].starts_with("info string EGDBPath: 18 endgame tables read from "),
        "{out}"
    );
    assert!(said[0].ends_with("(russian 18)"), "{out}");
    assert!(
        said[1].starts_with("info string warning: EGDBPath: no table of turkish in "),
        "{out}"
    );
    assert!(
        said[2].starts_with("info string warning: EGDBPath: no endgame table in "),
        "{out}"
    );
    for args in [
        vec![
            "analyse",
            "--variant",
            "russian",
            "--egdb",
            e,
            "--depth",
            "1",
        ],
        vec!["play", "--variant", "russian", "--egdb", e],
    ] {
        let (code, _, err) = run_to_end(&args, "quit\n");
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            err.starts_with("warning: --egdb: no endgame table in "),
            "{args:?}: {err}"
        );
    }
    let (code, _, err) = run_to_end(
        &[
            "analyse",
            "--variant",
            "turkish",
            "--egdb",
            tables,
            "--depth",
            "1",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--egdb: 18 endgame tables read from "),
        "{err}"
    );
    assert!(
        err.contains("warning: --egdb: no table of turkish in "),
        "{err}"
    );
}

#[test]
fn verify_and_info_take_a_variant() {
    let d = russian_dir().to_str().unwrap();
    let (code, out, err) = run_to_end(&["egdb", "verify", "--variant", "russian", "--dir", d], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("russian: 18 tables"), "{out}");
    let (code, _, err) = run_to_end(&["egdb", "verify", "--variant", "turkish", "--dir", d], "");
    assert_eq!((code, err.lines().count()), (1, 1), "{err}");
    assert!(err.ends_with(": no tables of turkish\n"), "{err}");
    let (code, _, err) = run_to_end(&["egdb", "info", "--variant", "bashni", "--dir", d], "");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("bashni has no endgame databases"), "{err}");
}
