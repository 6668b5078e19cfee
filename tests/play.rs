//! `bashni play` driven the way a person would, through its standard input and output (not a
//! terminal, so the output is plain text and every typed line is echoed after `> `).
//!
//! The engine plays at a low level so that each reply takes milliseconds, and where a test
//! types several moves the engine's replies are forced (it has one legal move), so the
//! tests do not depend on what the search prefers.

mod common;

use common::gui::{run_bytes_to_end, run_to_end};
use std::path::PathBuf;

const START_FEN: &str = "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1";

/// Runs `bashni play ARGS` with `lines` typed (then the end of input); returns stdout,
/// stderr and the exit code.
fn play(args: &[&str], lines: &[&str]) -> (String, String, i32) {
    let argv: Vec<&str> = std::iter::once("play")
        .chain(args.iter().copied())
        .collect();
    let mut input = lines.join("\n");
    input.push('\n');
    let (code, out, err) = run_to_end(&argv, &input);
    (out, err, code)
}

/// [`play`] with raw bytes typed.
fn play_bytes(args: &[&str], input: &[u8]) -> (String, String, i32) {
    let argv: Vec<&str> = std::iter::once("play")
        .chain(args.iter().copied())
        .collect();
    let (code, out, err) = run_bytes_to_end(&argv, input);
    (out, err, code)
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-play-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The line printed right after the `n`-th echo (from 0) of `typed`: its answer.
fn answer<'a>(out: &'a str, typed: &str, n: usize) -> &'a str {
    let echo = format!("> {typed}");
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| **l == echo)
        .nth(n)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("'{typed}' not typed {} times:\n{out}", n + 1));
    lines.get(at + 1).copied().unwrap_or("")
}

#[test]
fn a_whole_game_with_typos_to_its_end() {
    // White man g3 against a black man h6: after g3-h4 Black must play h6-g5, and h4:f6
    // takes Black's last piece.
    let dir = scratch("won");
    let pdn = dir.join("won.pdn");
    let save = format!("save {}", pdn.display());
    let (out, err, code) = play(
        &[
            "--fen",
            "8/8/7b/8/8/6w1/8/8 w",
            "--level",
            "3",
            "--seed",
            "1",
        ],
        &[
            "g3 h9", "g3-e5", "xyzzy", "h6 g5", "g3", "g3 h4", "h4 f6", "h4 g5", &save,
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        !out.contains('\x1b'),
        "no colour when output is not a terminal"
    );
    let answers = [
        ("g3 h9", "'h9' is not a square: files a-h, ranks 1-8"),
        (
            "g3-e5",
            "illegal move g3-e5: that piece cannot move that way; moves of g3: g3-f4 g3-h4",
        ),
        (
            "xyzzy",
            "'xyzzy' is neither a move nor a command (type help)",
        ),
        (
            "h6 g5",
            "illegal move h6 g5: the tower on h6 belongs to the other side; legal moves: g3-f4 g3-h4",
        ),
        ("g3", "moves of g3: g3-f4 g3-h4"),
        ("g3 h4", "you play g3-h4"),
    ];
    for (typed, expected) in answers {
        assert_eq!(answer(&out, typed, 0), expected);
    }
    assert!(out.contains("\nbashni plays h6-g5 "), "{out}");
    assert_eq!(answer(&out, "h4 f6", 0), "you play h4:f6");
    assert!(
        out.contains(
            "\ngame over: Black has no legal move: you win, 1-0\nscore: you 1, bashni 0, draws 0\n"
        ),
        "{out}"
    );
    assert!(answer(&out, "h4 g5", 0).starts_with("the game is over (no legal move)"));
    // The final board: the white man on f6 now commands the captured black man.
    assert!(out.contains(" 6     .     .    [(wb)]    .  6"), "{out}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(
        text.contains("[FEN \"8/8/7b/8/8/6w1/8/8 w 0 1\"]"),
        "{text}"
    );
    assert!(text.contains("[Result \"1-0\"]") && text.contains("[Termination \"no legal move\"]"));
    assert!(text.contains("1. g3-h4 {"), "{text}");
    assert!(
        text.contains("h6-g5 {+") || text.contains("h6-g5 {-"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("1-0"));
    assert!(out.ends_with("bye\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_ambiguous_capture_is_resolved_by_choosing() {
    // d6 b4 is either d6:b4 (over c5) or d6:f8:b4 (over e7, crowned on f8, back over c5).
    let (out, err, code) = play(
        &[
            "--fen",
            "3b4/w3b3/3w4/2b5/8/6b1/8/8 w",
            "--level",
            "2",
            "--seed",
            "1",
        ],
        &["d6 b4", "3", "2", "quit", "fen"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("> d6 b4\nd6 b4 could be:\n  1. d6:b4\n  2. d6:f8:b4\ntype the number of the move you mean\n"),
        "{out}"
    );
    assert_eq!(answer(&out, "3", 0), "choose 1 to 2");
    assert_eq!(answer(&out, "2", 0), "you play d6:f8:b4");
    assert!(out.contains("\nbashni plays "), "{out}");
    // quit leaves at once: the fen typed after it is never read.
    assert!(out.ends_with("> quit\nbye\n"), "{out}");
}

#[test]
fn undo_takes_back_the_move_pair_and_quit_leaves_mid_game() {
    let (out, err, code) = play(
        &["--level", "2", "--seed", "1"],
        &["moves", "c3 d4", "undo", "fen", "c3-d4", "quit", "fen"],
    );
    assert_eq!(code, 0, "{err}");
    let took = answer(&out, "undo", 0);
    assert!(took.starts_with("took back c3-d4 "), "{took}");
    assert_eq!(answer(&out, "fen", 0), START_FEN);
    assert_eq!(out.matches("\nbashni plays ").count(), 2, "{out}");
    assert_eq!(
        answer(&out, "moves", 0),
        "7 legal moves: a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4"
    );
    assert!(out.ends_with("> quit\nbye\n"), "{out}");
}

#[test]
fn save_and_load_restore_the_exact_position() {
    let dir = scratch("load");
    let pdn = dir.join("game.pdn");
    let save = format!("save {}", pdn.display());
    let load = format!("load {}", pdn.display());
    let fen = "8/8/8/8/8/2b5/8/(Wbb)7 w 5 20";
    let load_fen = format!("load {fen}");
    let (out, err, code) = play(
        &["--level", "2", "--seed", "1"],
        &[
            "c3 d4",
            "b2 c3",
            "fen",
            &save,
            "new",
            "fen",
            &load,
            "fen",
            &load_fen,
            "fen",
            "load nonsense",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let before = answer(&out, "fen", 0);
    assert_ne!(before, START_FEN);
    assert_eq!(answer(&out, "fen", 1), START_FEN, "new starts again");
    assert_eq!(
        answer(&out, &load, 0),
        "loaded 4 plies; you are White, to move"
    );
    assert_eq!(answer(&out, "fen", 2), before, "load restores the position");
    assert_eq!(
        answer(&out, "fen", 3),
        fen,
        "load FEN keeps clock and move number"
    );
    assert!(answer(&out, "load nonsense", 0).starts_with("'nonsense' is no file, and not a FEN"));
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.starts_with("[Event \"bashni play\"]"), "{text}");
    assert!(text.contains("[White \"you\"]") && text.contains("[Black \"bashni level 2\"]"));
    assert!(
        text.contains("[Result \"*\"]") && text.contains("1. c3-d4 {"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn playing_black_the_engine_opens_and_the_board_turns() {
    let (out, err, code) = play(
        &["--color", "black", "--level", "1", "--seed", "1"],
        &["flip", "help"],
    );
    assert_eq!(code, 0, "{err}");
    let first = out.find("bashni plays ").expect("the engine opens");
    let board = out
        .find("    h  g  f  e  d  c  b  a")
        .expect("Black at the bottom");
    assert!(first < board);
    let flipped = out.find("> flip").unwrap();
    assert!(out[flipped..].contains("    a  b  c  d  e  f  g  h"));
    assert!(out.contains("level N          playing level 0 to 20"));
}

#[test]
fn bad_options_are_refused() {
    let (_, err, code) = play(&["--fen", "8/8/8 w"], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad --fen: board has 3 ranks, expected 8"),
        "{err}"
    );
    let (_, err, code) = play(&["--level", "21", "--seed", "1"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("21 is above the highest level, 20"), "{err}");
    let (_, _, code) = play(&["--tc", "5+1", "--movetime", "100"], &[]);
    assert_eq!(code, 2);
}

#[test]
fn the_thirtieth_ply_without_a_capture_draws() {
    let (out, err, code) = play(
        &[
            "--fen",
            "7B/8/8/8/8/8/8/W7 w 29 40",
            "--level",
            "1",
            "--seed",
            "1",
        ],
        &["a1 b2"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "\ngame over: 30 plies without a capture: a draw, 1/2-1/2\nscore: you 0, bashni 0, draws 1\n"
        ),
        "{out}"
    );
    assert!(!out.contains("\nbashni plays "), "{out}");
}

#[test]
fn an_overlong_line_is_refused_without_being_kept_or_echoed() {
    // 20 MB on one line: refused in one line, echoed cut, and the game goes on.
    let mut input = b"c3 d4\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 20_000_000));
    input.extend_from_slice(b"\nfen\nquit\n");
    let (out, err, code) = play_bytes(&["--level", "1", "--seed", "1"], &input);
    assert_eq!(code, 0, "{err}");
    assert!(out.len() < 20_000, "output of {} bytes", out.len());
    assert!(
        out.contains("a line of 20000001 bytes is too long (at most 8192): ignored\n> fen\n"),
        "{}",
        &out[..out.len().min(4000)]
    );
    assert_ne!(
        answer(&out, "fen", 0),
        START_FEN,
        "the moves before are kept"
    );
    assert!(out.ends_with("> quit\nbye\n"));
}

#[test]
fn a_line_that_is_not_utf8_is_read_lossily_not_as_the_end() {
    let (out, err, code) = play_bytes(
        &["--level", "1", "--seed", "1"],
        b"c3 d4\n\xff\nfen\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        answer(&out, "\u{fffd}", 0),
        "'\u{fffd}' is neither a move nor a command (type help)"
    );
    assert!(answer(&out, "fen", 0).ends_with(" w 2 2"), "{out}");
    assert!(out.ends_with("> quit\nbye\n"), "{out}");
}

#[cfg(unix)]
#[test]
fn save_refuses_a_fifo_instead_of_blocking_on_it() {
    let dir = scratch("fifo");
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let save = format!("save {}", fifo.display());
    let (out, err, code) = play(&["--level", "1", "--seed", "1"], &["c3 d4", &save, "fen"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        answer(&out, &save, 0),
        format!(
            "cannot write {}: not a regular file (a folder, FIFO or device)",
            fifo.display()
        )
    );
    assert!(answer(&out, "fen", 0).ends_with(" w 2 2"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn times_beyond_the_protocols_ranges_are_refused() {
    let (out, err, code) = play(
        &["--level", "1", "--seed", "1"],
        &[
            "time movetime 99999999999999",
            "time 9000000+1",
            "time movetime 250",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        answer(&out, "time movetime 99999999999999", 0),
        "time: movetime 99999999999999 is out of range: 1 to 2147483647 ms"
    );
    assert!(
        answer(&out, "time 9000000+1", 0).starts_with("time: '9000000+1' is out of range"),
        "{out}"
    );
    assert_eq!(
        answer(&out, "time movetime 250", 0),
        "no clock; the engine thinks up to 0.25 s a move"
    );
    let (_, err, code) = play(&["--movetime", "99999999999999"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("not in 1..=2147483647"), "{err}");
    let (_, err, code) = play(&["--tc", "9000000"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("is out of range"), "{err}");
}
