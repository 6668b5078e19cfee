//! The user's files are never lost and a bad input never runs away, driven through the real
//! binary: `datagen --resume` refuses a file that is not its data, a file written over is
//! replaced whole or not at all (even when the write is cut by a file size limit), reads are
//! bounded (`/dev/zero`, `/dev/full`), and numeric limits keep the protocol's ranges.

use std::path::PathBuf;
use std::process::{Command, Output};

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn bashni(args: &[&str]) -> Output {
    Command::new(BASHNI)
        .args(args)
        .output()
        .expect("run bashni")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn resume_refuses_a_file_that_is_not_datagen_output() {
    // The reproducer of the issue: a copy of README.md lost its tail.
    let copy = temp("readme.md");
    std::fs::copy(format!("{ROOT}/README.md"), &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let out = bashni(&[
        "datagen",
        "--games",
        "2",
        "--depth",
        "1",
        "--resume",
        "--out",
        copy.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("is not datagen data"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        before,
        "the file was changed"
    );
}

#[test]
fn resume_on_a_device_ends_with_an_error() {
    let out = bashni(&[
        "datagen",
        "--games",
        "2",
        "--depth",
        "1",
        "--resume",
        "--out",
        "/dev/full",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a regular file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn tune_reads_an_endless_input_with_bounded_memory() {
    // 256 MiB of address space is far below what reading /dev/zero into memory would take.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 262144; exec {BASHNI} tune /dev/zero --out /dev/null"
        ))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("no line ending within 1 MiB"), "{err}");
    assert!(err.contains("no training positions"), "{err}");
}

#[test]
fn a_cut_write_leaves_the_old_file_whole() {
    // A file size limit of 4 KiB (ulimit -f counts 1 KiB blocks in dash and bash) stops the
    // write of 300 openings; the file written over keeps its old contents.
    let out_file = temp("openings.txt");
    std::fs::write(&out_file, "c3-d4 f6-e5\n").unwrap();
    let run = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 4; exec {BASHNI} openings --plies 4 --count 300 --depth 1 --max-score 100 --seed 3 --out {}",
            out_file.display()
        ))
        .output()
        .unwrap();
    assert!(!run.status.success(), "the write was expected to fail");
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), "c3-d4 f6-e5\n");
    // Without the limit the same command replaces it.
    let ok = bashni(&[
        "openings",
        "--plies",
        "4",
        "--count",
        "300",
        "--depth",
        "1",
        "--max-score",
        "100",
        "--seed",
        "3",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(std::fs::read_to_string(&out_file).unwrap().lines().count() > 300);
}

#[test]
fn numeric_limits_keep_the_protocols_ranges() {
    for args in [
        &["bench", "--depth", "121"][..],
        &["datagen", "--depth", "121", "--out", "/dev/null"][..],
        &["openings", "--plies", "2", "--count", "1", "--depth", "500"][..],
    ] {
        let out = bashni(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("is not in 1..=120"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn a_missing_engine_directory_is_named() {
    let engine = format!("cmd={BASHNI}");
    let out = bashni(&[
        "match",
        "--engine",
        &engine,
        "dir=/nonexistent",
        "--engine",
        &engine,
        "--depth",
        "1",
        "--games",
        "2",
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("the directory '/nonexistent' (dir=) does not exist"),
        "{err}"
    );
}

#[test]
fn openings_and_weights_files_from_windows_editors_are_read() {
    // A byte order mark before an openings file, CRLF line endings in a weights file.
    let openings = temp("bom.txt");
    std::fs::write(&openings, "\u{feff}c3-d4 f6-e5\r\nc3-b4 b6-a5\r\n").unwrap();
    let engine = format!("cmd={BASHNI}");
    let out = bashni(&[
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--depth",
        "1",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let weights = temp("weights.txt");
    let text =
        std::fs::read_to_string(format!("{ROOT}/src/games/bashni/eval/weights.txt")).unwrap();
    std::fs::write(&weights, text.replace('\n', "\r\n")).unwrap();
    let data = temp("data.txt");
    let made = bashni(&[
        "datagen",
        "--games",
        "2",
        "--depth",
        "1",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(made.status.success(), "{}", stderr(&made));
    let out_w = temp("out.txt");
    let tune = bashni(&[
        "tune",
        data.to_str().unwrap(),
        "--from",
        weights.to_str().unwrap(),
        "--epochs",
        "1",
        "--out",
        out_w.to_str().unwrap(),
    ]);
    assert!(tune.status.success(), "{}", stderr(&tune));
}

#[test]
fn tune_says_when_no_position_is_held_out_and_needs_an_epoch() {
    let data = temp("small.txt");
    let made = bashni(&[
        "datagen",
        "--games",
        "1",
        "--depth",
        "1",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(made.status.success(), "{}", stderr(&made));
    let out_w = temp("small.rs");
    let tune = bashni(&[
        "tune",
        data.to_str().unwrap(),
        "--valid-every",
        "1000000000",
        "--epochs",
        "2",
        "--out",
        out_w.to_str().unwrap(),
    ]);
    assert!(tune.status.success(), "{}", stderr(&tune));
    let said = String::from_utf8_lossy(&tune.stdout);
    assert!(said.contains("no validation positions"), "{said}");
    assert!(!said.contains("inf"), "{said}");
    let zero = bashni(&[
        "tune",
        data.to_str().unwrap(),
        "--epochs",
        "0",
        "--out",
        "/dev/null",
    ]);
    assert_eq!(zero.status.code(), Some(2));
    assert!(stderr(&zero).contains("at least 1"), "{}", stderr(&zero));
}
