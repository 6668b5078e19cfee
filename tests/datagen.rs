//! `bashni datagen` driven as a user (or a batch system) runs it: determinism whatever the
//! thread count, shards that add up to the whole run, and resuming a stopped run.

use crate::common::deadline::Bounded;
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
        .output_bounded()
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
        .output_bounded()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'5/4' is not a shard"), "{err}");
}

/// A Brazilian run writes Brazilian positions, each read back as it was written, quiet, with
/// a move; its games start from Brazilian draughts' book.
#[test]
fn brazilian_data_reads_back() {
    use bashni::games::{Game, Rules, brazilian};
    let out = temp("brazilian");
    let text = datagen(&out, &["--variant", "brazilian"]);
    let ends: Vec<&str> = text.lines().filter(|l| l.starts_with("# game")).collect();
    assert_eq!(ends.len(), 6);
    assert!(ends.iter().all(|l| l.ends_with(" brazilian")), "{ends:?}");
    let mut samples = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fen = line.split(" | ").next().unwrap();
        let pos = brazilian::Position::from_fen(fen).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(pos.to_fen(), fen);
        assert!(pos.has_legal_move() && !pos.can_capture(), "{line}");
        samples += 1;
    }
    assert!(samples > 30, "only {samples} positions");
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
        .output_bounded()
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
            .output_bounded()
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

/// Runs `datagen --resume` on `file` with `extra` arguments, expects it refused with one
/// line of error and the file byte for byte as it was; returns the line.
fn refused_resume(file: &PathBuf, extra: &[&str]) -> String {
    let before = std::fs::read(file).unwrap();
    let out = Command::new(BASHNI)
        .args([
            "datagen", "--games", "6", "--nodes", "600", "--resume", "--out",
        ])
        .arg(file)
        .args(extra)
        .output_bounded()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(std::fs::read(file).unwrap(), before, "the file was changed");
    err
}

/// Positions whose `# game` lines were taken out are not one unfinished game: resuming
/// them would remove them all.
#[test]
fn resume_refuses_positions_without_game_lines() {
    let whole = datagen(&temp("with-markers"), &[]);
    let stripped: String = whole
        .lines()
        .filter(|l| !l.starts_with("# game"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(stripped.lines().count() > 30);
    let file = temp("stripped");
    std::fs::write(&file, &stripped).unwrap();
    let err = refused_resume(&file, &[]);
    assert!(
        err.contains("holds no complete game (no '# game' line)"),
        "{err}"
    );
}

/// After the last complete game, more positions than one game of the run can write are not
/// its unfinished game.
#[test]
fn resume_refuses_a_tail_longer_than_one_game() {
    let whole = datagen(&temp("long-tail-src"), &[]);
    let lines: Vec<&str> = whole.lines().collect();
    let first_end = lines.iter().position(|l| l.starts_with("# game")).unwrap();
    let second_end = first_end
        + 1
        + lines[first_end + 1..]
            .iter()
            .position(|l| l.starts_with("# game"))
            .unwrap();
    // The first game whole, then the second game's positions without its end: a run cut
    // just before the second game's `# game` line.
    let text: String = lines[..second_end]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    let tail = second_end - first_end - 1;
    assert!(tail >= 2, "the second game has {tail} positions");
    let file = temp("long-tail");
    std::fs::write(&file, &text).unwrap();
    // A run whose games are one ply shorter than that cannot have written them.
    let max = (tail - 1).to_string();
    let err = refused_resume(&file, &["--max-plies", &max, "--skip-plies", "0"]);
    assert!(
        err.contains(&format!(
            "the {tail} positions after its last complete game are more than one game of this run writes (at most {max}"
        )),
        "{err}"
    );
    // With the settings that wrote it, the same file is an unfinished game and resumes.
    assert_eq!(datagen(&file, &["--resume"]), whole);
}

/// `--egdb`: the searches probe the tables, the output is still the same whatever the
/// threads, no position is written with a database score (a game the tables decide ends
/// there); a folder that does not read, or holds no table of the game, is refused in one
/// line before anything is written.
#[test]
fn endgame_databases_label_and_a_useless_folder_is_refused() {
    let dir = crate::egdb::russian_dir().to_str().unwrap().to_owned();
    let args = ["--variant", "russian", "--egdb", &dir, "--max-plies", "200"];
    let one = datagen(&temp("egdb-1"), &[&args[..], &["--threads", "1"]].concat());
    let two = datagen(&temp("egdb-2"), &[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    // The tables are probed: the same run without them plays (and scores) otherwise.
    let without = datagen(
        &temp("egdb-0"),
        &args[..2]
            .iter()
            .chain(&args[4..])
            .copied()
            .collect::<Vec<_>>(),
    );
    assert_ne!(one, without, "--egdb changed nothing");
    let scores: Vec<i64> = one
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(" | ").nth(1).unwrap().trim().parse().unwrap())
        .collect();
    assert!(!scores.is_empty());
    let tb_bound = i64::from(bashni::search::egdb::TB_BOUND);
    assert!(scores.iter().all(|s| s.abs() <= tb_bound), "{scores:?}");
    let empty = temp("egdb-empty-dir");
    std::fs::create_dir_all(&empty).unwrap();
    for (folder, why) in [
        (empty.to_str().unwrap(), "no table of russian in"),
        ("/nonexistent/egdb", "--egdb: /nonexistent/egdb"),
    ] {
        let out = temp("egdb-refused");
        let run = Command::new(BASHNI)
            .args([
                "datagen",
                "--variant",
                "russian",
                "--games",
                "1",
                "--egdb",
                folder,
            ])
            .arg("--out")
            .arg(&out)
            .output_bounded()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{folder}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("error: --egdb: ") && err.contains(why),
            "{err}"
        );
        assert!(!out.exists(), "{folder}: an output file was made");
    }
}
