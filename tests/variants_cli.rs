//! `bashni perft --variant` driven as a user types it: each game's counts, divide lines, its
//! own FEN, and clear one-line errors for an unknown variant or a FEN of the wrong game.

use crate::common;
use crate::common::deadline::Bounded;

use std::process::{Command, Output};

fn bashni(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bashni"))
        .args(args)
        .output_bounded()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn lasca_perft_goes_deeper_than_the_other_games() {
    let out = bashni(&["perft", "23", "--variant", "lasca"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("perft depth 23 is too large (the maximum is 22)"),
        "{err}"
    );
    let out = bashni(&["perft", "17", "--variant", "russian"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn each_variant_counts_its_own_game() {
    for (args, nodes) in [
        (vec!["perft", "4"], "nodes 1469 "),
        (vec!["perft", "4", "--variant", "bashni"], "nodes 1469 "),
        (vec!["perft", "4", "--variant", "turkish"], "nodes 7538 "),
        (vec!["perft", "6", "--variant", "russian"], "nodes 37986 "),
        (
            vec!["perft", "6", "--variant", "russian", "--threads", "2"],
            "nodes 37986 ",
        ),
        (vec!["perft", "6", "--variant", "brazilian"], "nodes 37628 "),
        (vec!["perft", "6"], "nodes 37908 "),
        (vec!["perft", "12", "--variant", "lasca"], "nodes 97440 "),
        (
            vec!["perft", "12", "--variant", "lasca", "--threads", "2"],
            "nodes 97440 ",
        ),
    ] {
        let out = bashni(&args);
        assert!(out.status.success(), "{args:?}");
        assert!(
            stdout(&out).starts_with(nodes),
            "{args:?}: {}",
            stdout(&out)
        );
    }
}

#[test]
fn divide_and_fen_work_for_every_variant() {
    let out = bashni(&["perft", "2", "--variant", "turkish", "--divide"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    assert_eq!(lines[0], "a3-a4 8");
    assert!(lines[8].starts_with("nodes 64 "), "{text}");
    let out = bashni(&[
        "perft",
        "1",
        "--divide",
        "--variant",
        "turkish",
        "--fen",
        "8/8/1b6/b7/3b1b2/8/3W4/8 w",
    ]);
    assert_eq!(
        stdout(&out).lines().take(2).collect::<Vec<_>>(),
        ["d2:d6:a6:a4:g4 1", "d2:d6:a6:a4:h4 1"]
    );
    let out = bashni(&[
        "perft",
        "1",
        "--divide",
        "--variant",
        "russian",
        "--fen",
        "8/8/8/2b1b3/1W6/2b1b3/8/8 w",
    ]);
    assert_eq!(
        stdout(&out).lines().collect::<Vec<_>>()[..3],
        ["b4:d2:f4:d6:a3 1", "b4:d6:f4:d2:a5 1", "b4:d6:f4:d2:b4 1"]
    );
}

#[test]
fn an_unknown_variant_or_a_foreign_fen_is_a_clear_error() {
    let out = bashni(&["perft", "2", "--variant", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "unknown variant 'chess' (expected one of: bashni, turkish, russian, brazilian, lasca)"
        ),
        "{err}"
    );
    // A Bashni FEN with a tower is not a Russian position.
    let out = bashni(&[
        "perft",
        "1",
        "--variant",
        "russian",
        "--fen",
        "8/8/8/8/3(wb)4/8/8/8 w",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        "error: bad FEN: a tower on d4: Russian draughts has one piece per square"
    );
    // The Turkish start is not a Bashni position (men on light squares).
    let out = bashni(&[
        "perft",
        "1",
        "--fen",
        "8/bbbbbbbb/bbbbbbbb/8/8/wwwwwwww/wwwwwwww/8 w",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: bad FEN: piece on light square"),
        "{err}"
    );
}

/// Runs `bashni ARGS` with `input` on its standard input; its standard output.
fn piped(args: &[&str], input: &str) -> String {
    let (code, out, err) = common::gui::run_to_end(args, input);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

/// The first line of `text` that starts with `prefix`.
fn line<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' line in {text}"))
}

#[test]
fn the_protocol_starts_in_the_game_named_on_the_command_line() {
    let declared = |text: &str| line(text, "option name UCI_Variant ").to_string();
    let moves = |text: &str| line(text, "moves ").to_string();
    let plain = piped(&[], "uci\nmoves\n");
    assert!(declared(&plain).contains(" default bashni "), "{plain}");
    assert_eq!(moves(&plain).split(' ').count(), 1 + 7, "{plain}");
    for (args, game, count) in [
        (vec!["uci", "--variant", "turkish"], "turkish", 8),
        (vec!["--variant", "turkish"], "turkish", 8),
        (vec!["uci", "--variant", "russian"], "russian", 7),
    ] {
        let text = piped(&args, "uci\nmoves\nucinewgame\nstate\n");
        assert!(
            declared(&text).contains(&format!(" default {game} ")),
            "{args:?}: {text}"
        );
        assert_eq!(
            moves(&text).split(' ').count(),
            1 + count,
            "{args:?}: {text}"
        );
        // ucinewgame keeps the game.
        let state = line(&text, "state ");
        assert!(state.contains("reason none"), "{state}");
        if game == "turkish" {
            assert!(
                state.ends_with("8/bbbbbbbb/bbbbbbbb/8/8/wwwwwwww/wwwwwwww/8 w 0 1"),
                "{state}"
            );
        }
    }
    // A GUI still switches.
    let text = piped(
        &["uci", "--variant", "turkish"],
        "setoption name UCI_Variant value bashni\nmoves\n",
    );
    assert_eq!(moves(&text).split(' ').count(), 1 + 7, "{text}");
    let bad = bashni(&["uci", "--variant", "chess"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown variant 'chess'"));
}

/// `go perft` over the protocol allows each game its own deepest perft: 16 in Bashni, 22 in
/// Lasca (where perft 17 is quick); a depth beyond every game's is a parse error.
#[test]
fn go_perft_takes_each_games_own_limit() {
    let out = piped(&[], "go perft 17\nisready\n");
    assert!(
        out.contains("info string error: perft depth 17 is too large (the maximum is 16)"),
        "{out}"
    );
    let lasca = "setoption name UCI_Variant value lasca\ngo perft 17\nisready\n";
    let out = piped(&[], lasca);
    assert_eq!(line(&out, "nodes "), "nodes 17263752", "{out}");
    let out = piped(
        &[],
        "setoption name UCI_Variant value lasca\ngo perft 23\nisready\n",
    );
    assert!(line(&out, "info string error:").contains("perft"), "{out}");
}
