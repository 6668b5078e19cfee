//! `bashni bench` for every game: one line per position and the fingerprint line, the same
//! on every run; Bashni's fingerprint is the one the README gives.

use std::process::Command;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

/// Runs `bashni bench` with `args`; returns its output.
fn bench(args: &[&str]) -> String {
    let out = Command::new(BASHNI)
        .arg("bench")
        .args(args)
        .output()
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
    for variant in ["turkish", "russian", "lasca"] {
        let args = ["--variant", variant, "--depth", "6"];
        let first = bench(&args);
        let positions = first.lines().filter(|l| l.starts_with("position")).count();
        assert!(positions >= 24, "{variant}: {positions} positions");
        let n = fingerprint(&first);
        assert!(n > 0);
        assert_eq!(fingerprint(&bench(&args)), n, "{variant}");
    }
}

#[test]
fn bashni_keeps_its_fingerprint() {
    assert_eq!(fingerprint(&bench(&[])), 1160833);
    assert_eq!(fingerprint(&bench(&["--variant", "bashni"])), 1160833);
}

#[test]
fn an_unknown_game_is_a_clear_error() {
    let out = Command::new(BASHNI)
        .args(["bench", "--variant", "chess"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown variant 'chess'"), "{err}");
}
