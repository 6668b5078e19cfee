//! `bashni datagen` driven as a user (or a batch system) runs it: determinism whatever the
//! thread count, shards that add up to the whole run, and resuming a stopped run.

use std::path::PathBuf;
use std::process::Command;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// Runs datagen with `extra` arguments on a small run; returns the output file's text.
fn datagen(out: &PathBuf, extra: &[&str]) -> String {
    let status = Command::new(BASHNI)
        .args(["datagen", "--games", "6", "--nodes", "600", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn same_seed_same_output_whatever_the_threads() {
    let one = datagen(&temp("t1"), &["--threads", "1"]);
    let two = datagen(&temp("t2"), &["--threads", "2"]);
    assert_eq!(one, two);
    assert_eq!(one.lines().filter(|l| l.starts_with("# game")).count(), 6);
    let samples = one.lines().filter(|l| !l.starts_with('#')).count();
    assert!(samples > 30, "only {samples} positions");
    // Another seed gives other games.
    assert_ne!(datagen(&temp("t3"), &["--seed", "10"]), one);
}

#[test]
fn shards_concatenated_are_the_whole_run() {
    let whole = datagen(&temp("whole"), &[]);
    let mut joined = String::new();
    for i in 1..=4 {
        joined += &datagen(&temp(&format!("part{i}")), &["--shard", &format!("{i}/4")]);
    }
    assert_eq!(joined, whole);
}

#[test]
fn a_stopped_run_resumes_to_the_same_file() {
    let whole = datagen(&temp("full"), &[]);
    let cut = temp("cut");
    // A run stopped in the middle of a line of its third game or so.
    std::fs::write(&cut, &whole.as_bytes()[..whole.len() / 2]).unwrap();
    let resumed = datagen(&cut, &["--resume"]);
    assert_eq!(resumed, whole);
}

#[test]
fn bad_arguments_are_clear_errors() {
    let out = Command::new(BASHNI)
        .args(["datagen", "--games", "2", "--shard", "5/4", "--out"])
        .arg(temp("bad"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'5/4' is not a shard"), "{err}");
}

/// A Lasca run writes Lasca positions, each read back as it was written, quiet, with a move.
#[test]
fn lasca_data_reads_back() {
    use bashni::games::{Game, Rules, lasca};
    let out = temp("lasca");
    let text = datagen(&out, &["--variant", "lasca", "--opening-plies", "8"]);
    let ends = text.lines().filter(|l| l.starts_with("# game")).count();
    assert_eq!(ends, 6);
    assert!(
        text.lines()
            .filter(|l| l.starts_with("# game"))
            .all(|l| l.ends_with(" lasca"))
    );
    let mut samples = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fen = line.split(" | ").next().unwrap();
        let pos = lasca::Position::from_fen(fen).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(pos.to_fen(), fen);
        assert!(pos.has_legal_move() && !pos.can_capture(), "{line}");
        samples += 1;
    }
    assert!(samples > 30, "only {samples} positions");
}

/// A Turkish run writes Turkish positions: every line reads back as a Turkish FEN that
/// writes out the same, with a legal move and no capture (quiet), and a stopped run resumes
/// to the same file.
#[test]
fn turkish_data_reads_back_and_resumes() {
    use bashni::games::{Game, Rules, turkish};
    let out = temp("turkish");
    let args = ["--variant", "turkish", "--opening-plies", "8"];
    let text = datagen(&out, &args);
    assert_eq!(text.lines().filter(|l| l.starts_with("# game")).count(), 6);
    let mut samples = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fen = line.split(" | ").next().unwrap();
        let pos = turkish::Position::from_fen(fen).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(pos.to_fen(), fen);
        assert!(pos.has_legal_move() && !pos.can_capture(), "{line}");
        samples += 1;
    }
    assert!(samples > 30, "only {samples} positions");
    assert!(text.lines().next().unwrap().starts_with("8/"), "{text}");
    let cut = temp("turkish-cut");
    std::fs::write(&cut, &text.as_bytes()[..text.len() * 2 / 3]).unwrap();
    assert_eq!(datagen(&cut, &[&args[..], &["--resume"]].concat()), text);
    // Resuming a Turkish file as Bashni data is refused and leaves it as it is.
    std::fs::write(&cut, &text.as_bytes()[..text.len() * 2 / 3]).unwrap();
    let refused = Command::new(BASHNI)
        .args([
            "datagen", "--games", "6", "--nodes", "600", "--resume", "--out",
        ])
        .arg(&cut)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert_eq!(
        std::fs::read(&cut).unwrap(),
        &text.as_bytes()[..text.len() * 2 / 3]
    );
}

/// Every `# game` line names its game, and data of one game is never continued or appended
/// to by a run of another: one error line, a non-zero exit, the file left as it is.
#[test]
fn data_names_its_game_and_another_game_is_not_added_to_it() {
    let bashni = datagen(&temp("named-bashni"), &[]);
    let ends: Vec<&str> = bashni.lines().filter(|l| l.starts_with("# game")).collect();
    assert_eq!(ends.len(), 6);
    assert!(ends.iter().all(|l| l.ends_with(" bashni")), "{ends:?}");
    let russian_file = temp("named-russian");
    let russian = datagen(&russian_file, &["--variant", "russian"]);
    assert!(
        russian
            .lines()
            .filter(|l| l.starts_with("# game"))
            .all(|l| l.ends_with(" russian")),
        "{russian}"
    );
    for (variant, resume) in [("turkish", true), ("turkish", false), ("bashni", true)] {
        let mut args = vec![
            "datagen",
            "--variant",
            variant,
            "--games",
            "4",
            "--nodes",
            "300",
        ];
        if resume {
            args.push("--resume");
        }
        let out = Command::new(BASHNI)
            .args(&args)
            .arg("--out")
            .arg(&russian_file)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(
                "data of Russian draughts (its '# game' lines end with 'russian'), not of"
            ),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&russian_file).unwrap(), russian);
    }
    // Its own game goes on: resuming a finished run adds nothing.
    let same = datagen(&russian_file, &["--variant", "russian", "--resume"]);
    assert_eq!(same, russian);
}
