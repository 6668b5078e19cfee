//! `bashni analyse` run as a user runs it: its arguments, its output, its errors.

mod common;

use common::gui::run_to_end;

/// Runs `bashni analyse ARGS` with no input; returns the exit code, stdout and stderr.
fn analyse(args: &[&str]) -> (i32, String, String) {
    let argv: Vec<&str> = std::iter::once("analyse")
        .chain(args.iter().copied())
        .collect();
    run_to_end(&argv, "")
}

#[test]
fn an_empty_position_is_refused_not_taken_for_the_start() {
    let (code, out, err) = analyse(&["", "--depth", "2"]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        err,
        "error: empty POSITION: give startpos or a FEN (or nothing for the start)\n"
    );
    assert!(out.is_empty(), "{out}");
}

#[test]
fn limits_beyond_the_protocols_ranges_are_refused() {
    for (flag, value, range) in [
        ("--movetime", "99999999999", "1..=2147483647"),
        ("--depth", "121", "1..=120"),
        ("--depth", "0", "1..=120"),
    ] {
        let (code, _, err) = analyse(&[flag, value]);
        assert_eq!(code, 2, "{flag} {value}");
        assert!(err.contains(&format!("{value} is not in {range}")), "{err}");
    }
}
