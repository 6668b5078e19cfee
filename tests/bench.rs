//! `bashni bench` for every game: one line per position and the fingerprint line, the same
//! on every run (the fingerprints themselves: docs/measurements.md, checked by `doc_facts`).

use crate::common::deadline::Bounded;
use std::process::Command;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

/// Runs `bashni bench` with `args`; returns its output.
fn bench(args: &[&str]) -> String {
    let out = Command::new(BASHNI)
        .arg("bench")
        .args(args)
        .output_bounded()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The node count of the fingerprint line `nodes <N> time <ms> nps <nps>`.
fn fingerprint(text: &str) -> u64 {
    let last = text.lines().last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(
        (words[0], words[2], words[4]),
        ("nodes", "time", "nps"),
        "{last}"
    );
    words[1].parse().unwrap()
}

#[test]
fn every_game_has_a_fingerprint_the_same_on_every_run() {
    for variant in ["turkish", "russian", "brazilian", "lasca"] {
        let args = ["--variant", variant, "--depth", "6"];
        let first = bench(&args);
        let positions = first.lines().filter(|l| l.starts_with("position")).count();
        assert!(positions >= 24, "{variant}: {positions} positions");
        let n = fingerprint(&first);
        assert!(n > 0);
        assert_eq!(fingerprint(&bench(&args)), n, "{variant}");
    }
}

/// Each game's fingerprint is checked against docs/measurements.md by `doc_facts`; here only
/// that Bashni is the default game.
#[test]
fn bashni_is_the_default_game() {
    let depth = ["--depth", "6"];
    let named = bench(&["--variant", "bashni", "--depth", "6"]);
    assert_eq!(fingerprint(&bench(&depth)), fingerprint(&named));
}

#[test]
fn an_unknown_game_is_a_clear_error() {
    let out = Command::new(BASHNI)
        .args(["bench", "--variant", "chess"])
        .output_bounded()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown variant 'chess'"), "{err}");
}
