//! The default folder of the endgame databases (docs/egdb.md, "The default folder";
//! issue 67): `bashni egdb build` with no `--out` writes there, and every front end finds the
//! tables there with no option: the protocol (`EGDBPath` is `<default>`), `egdb info` and
//! `probe` with no `--dir`. A missing folder is never an error; a damaged table there is a
//! warning and the engine plays on without tables. `$BASHNI_EGDB_DIR` names the folder (the
//! suite points it at a folder that does not exist: .cargo/config.toml).

use crate::common::deadline::Bounded;
use crate::common::gui::run_with_env;
use std::path::{Path, PathBuf};
use std::process::Command;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

/// `bashni ARGS` with `input` and the default folder `dir`: exit code, stdout, stderr.
fn run(dir: &Path, args: &[&str], input: &str) -> (i32, String, String) {
    run_with_env(args, input.as_bytes(), &[("BASHNI_EGDB_DIR", dir)])
}

fn fresh(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A Russian search of a won three-kings ending, through the protocol: its last info line.
fn search(dir: &Path, extra: &str) -> String {
    let input = format!(
        "uci\nsetoption name UCI_Variant value russian\n{extra}\
         position fen W:WKc1,Ka3,Kg1:BKb8\ngo depth 4\nisready\n"
    );
    let (code, out, err) = run(dir, &["uci"], &input);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("error"), "{out}");
    out.lines()
        .rfind(|l| l.starts_with("info depth") && l.contains(" score "))
        .unwrap_or_else(|| panic!("no info: {out}"))
        .to_string()
}

#[test]
fn tables_built_without_a_folder_are_found_by_every_front_end() {
    let root = fresh("egdb-default");
    // The folder does not exist yet: no tables, no error, the option's default said.
    let dir = root.join("tables");
    let (code, out, err) = run(&dir, &["uci"], "uci\nisready\n");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("option name EGDBPath type string default <default>"),
        "{out}"
    );
    assert!(out.contains("readyok") && err.is_empty(), "{out}{err}");
    assert!(!search(&dir, "").contains("tbhits"));

    let (code, out, err) = run(
        &dir,
        &["egdb", "build", "--variant", "russian", "--pieces", "3"],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(dir.join("russian-KKvK.egdb").is_file(), "{out}{err}");
    let (code, out, _) = run(&dir, &["egdb", "info"], "");
    assert_eq!(code, 0);
    assert!(out.contains("KKvK"), "{out}");
    let (code, out, _) = run(
        &dir,
        &[
            "egdb",
            "probe",
            "--variant",
            "russian",
            "--fen",
            "W:WKc1,Kg1:BKb8",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert!(out.starts_with("draw"), "{out}");

    // The engine probes them with no option; `<empty>` turns them off.
    let with = search(&dir, "");
    assert!(with.contains("tbhits"), "{with}");
    let without = search(&dir, "setoption name EGDBPath value <empty>\n");
    assert!(!without.contains("tbhits"), "{without}");
    let again = search(&dir, "setoption name EGDBPath value <default>\n");
    assert!(again.contains("tbhits"), "{again}");
}

#[test]
fn a_damaged_default_table_is_a_warning_and_the_engine_plays_on() {
    let dir = fresh("egdb-default-damaged");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("russian-KvK.egdb"), b"not a table").unwrap();
    let (code, out, err) = run(
        &dir,
        &["uci"],
        "uci\nsetoption name UCI_Variant value russian\nposition startpos\ngo depth 2\nisready\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("bestmove") && out.contains("readyok"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("warning: EGDBPath <default>:"), "{err}");
    // Told to use it, the protocol refuses it with its usual error line.
    let (_, out, _) = run(
        &dir,
        &["uci"],
        "setoption name EGDBPath value <default>\nisready\n",
    );
    assert!(out.contains("error: setoption: EGDBPath"), "{out}");
    // `egdb build` with no `--out` and no folder to go to says how to give one.
    let out = Command::new(BASHNI)
        .args(["egdb", "build", "--variant", "russian", "--pieces", "2"])
        .env("BASHNI_EGDB_DIR", "")
        .output_bounded()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("give --out DIR"), "{err}");
}

/// The suite's own programs see no default folder (.cargo/config.toml sets
/// `$BASHNI_EGDB_DIR` for everything `cargo test` runs): tables a developer built for
/// themselves change no test's verdict.
#[test]
fn the_suite_runs_with_no_default_tables() {
    let dir = std::env::var_os("BASHNI_EGDB_DIR")
        .expect("BASHNI_EGDB_DIR is set by .cargo/config.toml for cargo test");
    assert!(
        !Path::new(&dir).join("russian-KvK.egdb").exists(),
        "{dir:?}"
    );
}
