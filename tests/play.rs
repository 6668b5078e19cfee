//! `bashni play` driven the way a person would, through its standard input and output (not a
//! terminal, so the output is plain text and every typed line is echoed after `> `).
//!
//! The engine plays at a low level so that each reply takes milliseconds, and where a test
//! types several moves the engine's replies are forced (it has one legal move), so the
//! tests do not depend on what the search prefers.

mod clock;
mod egdb;

use crate::common;
use crate::common::deadline::Bounded;

use bashni::search::skill::LADDER;
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
    // Level 3 looks 2 plies ahead, and says so: its forced reply is searched 2 plies too,
    // and the loss it sees is counted in its own moves, as in the PDN comment.
    assert!(
        out.contains(&format!(
            "Level 3 (Elo {}: looks 2 plies ahead, then follows the captures;",
            LADDER[3]
        )),
        "{out}"
    );
    assert!(
        out.contains("\nbashni plays h6-g5 (depth 2, score loss in 1 move for bashni), "),
        "{out}"
    );
    assert_eq!(answer(&out, "h4 f6", 0), "you play h4:f6");
    assert!(
        out.contains(
            "\ngame over: Black has no towers left: you win, 1-0\nscore: you 1, bashni 0, draws 0\n"
        ),
        "{out}"
    );
    assert!(answer(&out, "h4 g5", 0).starts_with("the game is over (no legal move)"));
    // The final board: the white man on f6 now commands the captured black man; the grid
    // keeps its width, and the tower is written in full below it.
    assert!(
        out.contains(
            "\n 6      .       .      [w2]     .   6\n 5  .       .       .       .       5\n"
        ),
        "{out}"
    );
    assert!(out.contains("\ntowers, top first: f6 (wb)\n"), "{out}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(
        text.contains("[FEN \"8/8/7b/8/8/6w1/8/8 w 0 1\"]"),
        "{text}"
    );
    assert!(text.contains("[Result \"1-0\"]") && text.contains("[Termination \"no legal move\"]"));
    assert!(text.contains("1. g3-h4 {"), "{text}");
    assert!(text.contains("h6-g5 {-M1/2 "), "{text}");
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
            // A quiet move after the engine's reply (b6-a5 at level 2, seed 1: the seed makes
            // it the same every run; a new evaluation may change it, and then this line).
            "g3 h4",
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

const WHITE_AT_THE_BOTTOM: &str = "    a   b   c   d   e   f   g   h";
const BLACK_AT_THE_BOTTOM: &str = "    h   g   f   e   d   c   b   a";

#[test]
fn playing_black_the_engine_opens_and_flip_alone_turns_the_board() {
    let (out, err, code) = play(
        &["--color", "black", "--level", "1", "--seed", "1"],
        &["flip", "swap", "flip", "help"],
    );
    assert_eq!(code, 0, "{err}");
    let first = out.find("bashni plays ").expect("the engine opens");
    // Black at the bottom for the person playing Black (as on the page), until flipped.
    let board = out.find(BLACK_AT_THE_BOTTOM).unwrap();
    assert!(first < board);
    assert!(!out[..out.find("> flip").unwrap()].contains(WHITE_AT_THE_BOTTOM));
    let flipped = &out[out.find("> flip").unwrap()..out.find("> swap").unwrap()];
    assert!(flipped.contains(WHITE_AT_THE_BOTTOM), "{flipped}");
    let swapped = &out[out.find("> swap").unwrap()..out.rfind("> flip").unwrap()];
    assert!(
        swapped.contains(WHITE_AT_THE_BOTTOM) && !swapped.contains(BLACK_AT_THE_BOTTOM),
        "swap keeps the board as it was: {swapped}"
    );
    let back = &out[out.rfind("> flip").unwrap()..];
    assert!(back.contains(BLACK_AT_THE_BOTTOM), "{back}");
    assert!(out.contains("level N          playing level 0 to 20"));
    assert!(out.contains("redo             play again what undo took back"));
}

#[test]
fn load_puts_the_side_the_person_plays_at_the_bottom() {
    let black_to_move = "load 8/8/8/8/8/2b5/8/(Wbb)7 b 5 20";
    let white_to_move = format!("load {START_FEN}");
    // Playing Black (Black at the bottom), then a position with White to move: the person
    // plays White, at the bottom; flip still turns it; a later load sets it again.
    let (out, err, code) = play(
        &["--color", "black", "--level", "1", "--seed", "1"],
        &[&white_to_move, "flip", black_to_move, &white_to_move],
    );
    assert_eq!(code, 0, "{err}");
    let parts: Vec<&str> = out.split("\n> ").collect();
    let bottom = |part: &str| match (
        part.contains(WHITE_AT_THE_BOTTOM),
        part.contains(BLACK_AT_THE_BOTTOM),
    ) {
        (true, false) => "White",
        (false, true) => "Black",
        _ => panic!("one board expected: {part}"),
    };
    let answers: Vec<&str> = parts[parts.len() - 4..].iter().map(|p| bottom(p)).collect();
    assert_eq!(answers, ["White", "Black", "Black", "White"], "{out}");
    // --flip stands: the board is turned from the person's side after a load too.
    let (out, err, code) = play(
        &["--color", "black", "--flip", "--level", "1", "--seed", "1"],
        &[&white_to_move],
    );
    assert_eq!(code, 0, "{err}");
    let loaded = &out[out.find("> load").unwrap()..];
    assert_eq!(bottom(loaded), "Black", "{out}");
}

/// One rule for every reader of a game file: the first game (analyse reads it too, and the
/// page): a file of two games loads the first, whose one move leaves Black to move.
#[test]
fn load_reads_the_first_game_of_a_file() {
    let file = scratch("two-games").join("two.pdn");
    std::fs::write(
        &file,
        "[Round \"1\"]\n\n1. c3-d4 *\n\n[Round \"2\"]\n\n1. c3-b4 f6-g5 *\n",
    )
    .unwrap();
    let load = format!("load {}", file.display());
    let (out, err, code) = play(&["--level", "1", "--seed", "1"], &[&load, "fen"]);
    assert_eq!(code, 0, "{err}");
    let fen = answer(&out, "fen", 0);
    assert!(
        fen.contains(" b "),
        "the first game leaves Black to move: {fen}\n{out}"
    );
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
        .status_bounded()
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

/// `load` reads only a regular file of at most 4 MiB: a FIFO is refused without being opened
/// (opening it would block until someone writes to it), a larger file without being read,
/// each with one line, and the game in progress goes on as it was.
#[cfg(unix)]
#[test]
fn load_refuses_a_fifo_and_a_file_too_large_and_keeps_the_game() {
    let dir = scratch("load-limits");
    let fifo = dir.join("pipe.pdn");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status_bounded()
        .expect("mkfifo");
    assert!(made.success());
    // 5 MiB without a byte on disk (a sparse file).
    let big = dir.join("big.pdn");
    std::fs::File::create(&big)
        .and_then(|f| f.set_len(5 << 20))
        .unwrap();
    let (load_fifo, load_big) = (
        format!("load {}", fifo.display()),
        format!("load {}", big.display()),
    );
    let (out, err, code) = play(
        &["--level", "1", "--seed", "1"],
        &[
            "c3 d4",
            &load_fifo,
            &load_big,
            &format!("load {}", dir.display()),
            "fen",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        answer(&out, &load_fifo, 0),
        format!(
            "cannot load {}: not a regular file (a folder, FIFO or device)",
            fifo.display()
        )
    );
    assert_eq!(
        answer(&out, &load_big, 0),
        format!("cannot load {}: larger than 4 MiB", big.display())
    );
    assert!(
        answer(&out, &format!("load {}", dir.display()), 0)
            .ends_with("not a regular file (a folder, FIFO or device)"),
        "{out}"
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

/// The depth in `(depth N, ...` of a line.
fn depth_of(line: &str) -> u32 {
    let at = line
        .find("(depth ")
        .unwrap_or_else(|| panic!("no depth in {line}"))
        + 7;
    line[at..].split(',').next().unwrap().parse().unwrap()
}

#[test]
fn hint_and_analyse_are_full_strength_advice_at_any_level() {
    // Level 0 looks 1 ply ahead; its advice does not. White's one move (the capture c3:e5)
    // is answered, under a clock, by a search of a few plies: a hint capped at the level's
    // depth would say depth 1. That search takes microseconds, so the depth does not depend
    // on the machine's speed (from the start position it would: a hint gets only the move
    // time, and a slow machine reaches fewer plies in it). Black then has two moves, and
    // the level plays one at its own depth.
    let (out, err, code) = play(
        &[
            "--fen",
            "7b/b7/8/8/3b4/2w5/8/8 w",
            "--level",
            "0",
            "--seed",
            "1",
            "--movetime",
            "300",
        ],
        &["hint", "analyse", "c3 e5"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(depth_of(answer(&out, "hint", 0)) > 1, "{out}");
    let best = answer(&out, "analyse", 0);
    assert!(
        best.starts_with("bashni's view, scores for White (to move):"),
        "{out}"
    );
    let own: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("bashni plays "))
        .collect();
    assert!(!own.is_empty(), "{out}");
    for line in own {
        assert_eq!(depth_of(line), 1, "the level's own moves: {line}");
    }
}

#[test]
fn pdn_names_follow_who_played_each_side() {
    let dir = scratch("names");
    let pdn = dir.join("swapped.pdn");
    let save = format!("save {}", pdn.display());
    let (out, err, code) = play(&["--level", "2", "--seed", "1"], &["c3 d4", "swap", &save]);
    assert_eq!(code, 0, "{err}");
    assert!(answer(&out, &save, 0).starts_with("saved the game (3 plies) to "));
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(
        text.contains("[White \"you, then bashni level 2\"]"),
        "{text}"
    );
    assert!(text.contains("[Black \"bashni level 2\"]"), "{text}");
    // The engine's move after the swap is its own.
    assert!(out.contains("; move 2, Black to move (you)"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn counts_are_singular_for_one() {
    // The man on a1 has one move; a level-0 engine looks one ply ahead.
    let (out, err, code) = play(
        &[
            "--fen",
            "1b6/8/8/8/8/8/8/w7 w",
            "--level",
            "0",
            "--seed",
            "1",
        ],
        &["moves", "level 1"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(answer(&out, "moves", 0), "1 legal move: a1-b2");
    assert_eq!(
        answer(&out, "level 1", 0),
        format!(
            "level 1 (Elo {}: looks 1 ply ahead, then follows the captures; picks among its \
             best moves)",
            LADDER[1]
        )
    );
}

#[test]
fn resign_ends_and_counts_the_game() {
    let dir = scratch("resign");
    let pdn = dir.join("resigned.pdn");
    let save = format!("save {}", pdn.display());
    let (out, err, code) = play(
        &["--level", "1", "--seed", "1"],
        &["c3 d4", "resign", "resign", &save],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "\ngame over: you resign: bashni wins, 0-1\nscore: you 0, bashni 1, draws 0\n"
        ),
        "{out}"
    );
    assert!(answer(&out, "resign", 1).starts_with("the game is over (resignation)"));
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.contains("[Termination \"resignation\"]") && text.contains("[Result \"0-1\"]"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_draw_is_accepted_only_when_dead_and_even() {
    // The start: too much on the board.
    let (out, _, _) = play(&["--level", "1", "--seed", "1"], &["draw", "fen"]);
    assert_eq!(
        answer(&out, "draw", 0),
        "bashni declines the draw: the position is not dead (White commands 12 towers, Black \
         12; a draw is agreed with at most 3 each)"
    );
    assert_eq!(answer(&out, "fen", 0), START_FEN, "the game goes on");
    // Dead, but White (the person) is two men up: the engine is worse and says so (by more
    // than eight men at every depth, so on any machine).
    let (out, _, _) = play(
        &["--fen", "1B6/8/8/8/8/8/5w2/W1w5 w", "--movetime", "200"],
        &["draw"],
    );
    assert!(
        answer(&out, "draw", 0).starts_with("bashni declines the draw: its score is -"),
        "{out}"
    );
    // A king each: dead and even. The 29th ply without a capture: no capture is in reach, so
    // every line draws by the 30-ply rule and the score is 0 at every depth (a king each
    // with the count at 0 scores -0.77 at the depths a slow machine reaches in 0.2 s, and 0
    // only from depth 10 on: the verdict would depend on the machine's speed).
    let (out, _, _) = play(
        &["--fen", "1B6/8/8/8/8/8/8/W7 w 29 40", "--movetime", "200"],
        &["draw", "c3 d4"],
    );
    assert_eq!(answer(&out, "draw", 0), "bashni accepts the draw");
    assert!(
        out.contains(
            "\ngame over: draw agreed: a draw, 1/2-1/2\nscore: you 0, bashni 0, draws 1\n"
        ),
        "{out}"
    );
    assert!(answer(&out, "c3 d4", 0).starts_with("the game is over (draw agreement)"));
}

#[test]
fn redo_plays_again_what_undo_took_back() {
    let (out, err, code) = play(
        &["--level", "2", "--seed", "1"],
        &[
            "c3 d4", "fen", "undo", "redo", "fen", "redo", "undo", "e3 f4", "redo",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let took = answer(&out, "undo", 0)
        .strip_prefix("took back ")
        .unwrap()
        .to_string();
    assert_eq!(answer(&out, "redo", 0), format!("played again {took}"));
    assert_eq!(answer(&out, "fen", 1), answer(&out, "fen", 0));
    assert_eq!(answer(&out, "redo", 1), "nothing to redo");
    // A new move forgets what could have been played again.
    assert_eq!(answer(&out, "redo", 2), "nothing to redo");
}

#[test]
fn a_turkish_game_through_a_pipe() {
    // White's man d3 goes to d4 and Black's man d5 must take it (d5:d3, its one legal
    // move); the white king on d1 takes that man along the file, leaving one king against
    // one man: a win for the king.
    let (out, err, code) = play(
        &[
            "--variant",
            "turkish",
            "--fen",
            "8/7b/8/3b4/8/3w4/8/3W4 w",
            "--level",
            "3",
            "--seed",
            "1",
        ],
        &["d3 e4", "d4", "d3 d4", "d1 d4", "fen"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("bashni play (Turkish draughts): you are White, bashni plays Black.\n"),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "Elo {} measured in Bashni: looks 2 plies ahead",
            LADDER[3]
        )),
        "{out}"
    );
    assert!(out.contains("Type a move like d3-d4 (or d3 d4)"), "{out}");
    // All 64 squares are on the board.
    assert!(
        out.contains("\n 3  .   .   .   w   .   .   .   .   3\n"),
        "{out}"
    );
    assert_eq!(
        answer(&out, "d3 e4", 0),
        "illegal move d3 e4: that piece cannot move that way; moves of d3: d3-c3 d3-d4 d3-e3"
    );
    assert_eq!(answer(&out, "d4", 0), "no legal move starts on d4");
    assert_eq!(answer(&out, "d3 d4", 0), "you play d3-d4");
    assert!(out.contains("\nbashni plays d5:d3 (depth "), "{out}");
    assert_eq!(answer(&out, "d1 d4", 0), "you play d1:d4");
    assert!(
        out.contains("\ngame over: one king against one man: you win, 1-0\n"),
        "{out}"
    );
    assert_eq!(answer(&out, "fen", 0), "8/7b/8/8/3W4/8/8/8 b 0 2");
}

#[test]
fn turkish_kings_shuffling_draw_by_the_fifty_ply_rule() {
    let (out, err, code) = play(
        &[
            "--variant",
            "turkish",
            "--fen",
            "8/8/8/3B4/8/8/8/W6W w 49 30",
            "--level",
            "1",
            "--seed",
            "1",
        ],
        &["a1 a2", "new"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\ngame over: 50 plies without a capture or a man's move: a draw, 1/2-1/2\n"),
        "{out}"
    );
    assert!(!out.contains("\nbashni plays "), "{out}");
}

#[test]
fn a_russian_game_through_a_pipe() {
    // As in Bashni, g3-h4 leaves Black one move, h6-g5, and h4:f6 takes Black's last man;
    // in Russian draughts the taken man leaves the board (no tower).
    let (out, err, code) = play(
        &[
            "--variant",
            "russian",
            "--fen",
            "8/8/7b/8/8/6w1/8/8 w",
            "--level",
            "3",
            "--seed",
            "1",
        ],
        &["g3 g4", "g3 h4", "h4 f6", "fen"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("bashni play (Russian draughts): "), "{out}");
    assert_eq!(
        answer(&out, "g3 g4", 0),
        "g4 is a light square: pieces stand on dark squares only"
    );
    assert_eq!(answer(&out, "g3 h4", 0), "you play g3-h4");
    assert!(out.contains("\nbashni plays h6-g5 (depth 2, "), "{out}");
    assert_eq!(answer(&out, "h4 f6", 0), "you play h4:f6");
    assert!(
        out.contains("\ngame over: Black has no pieces left: you win, 1-0\n"),
        "{out}"
    );
    assert!(!out.contains("towers, top first"), "{out}");
    assert_eq!(answer(&out, "fen", 0), "8/8/5w2/8/8/8/8/8 b 0 2");
}

#[test]
fn a_turkish_game_saves_with_its_game_type_and_load_switches_to_its_game() {
    let dir = scratch("turkish");
    let pdn = dir.join("turkish.pdn");
    let bashni_pdn = dir.join("bashni.pdn");
    let bad = dir.join("bad.pdn");
    std::fs::write(&bad, "[GameType \"30,W,8,8,A0,0\"]\n\n1. d3-d4 d6-d9 *\n").unwrap();
    let save = format!("save {}", pdn.display());
    let load = format!("load {}", pdn.display());
    let (out, err, code) = play(
        &["--variant", "turkish", "--level", "1", "--seed", "1"],
        &[
            "d3 d4",
            "fen",
            &save,
            "new",
            &load,
            "fen",
            "load 8/8/8/8/8/8/b6b/W7 w",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let before = answer(&out, "fen", 0);
    assert_eq!(
        answer(&out, &load, 0),
        "loaded 2 plies; you are White, to move"
    );
    assert_eq!(answer(&out, "fen", 1), before);
    assert_eq!(
        answer(&out, "load 8/8/8/8/8/8/b6b/W7 w", 0),
        "loaded 0 plies; you are White, to move"
    );
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.contains("[GameType \"30,W,8,8,A0,0\"]"), "{text}");
    assert!(text.contains("1. d3-d4 {"), "{text}");
    // The same file in a Bashni session: the session goes on in Turkish draughts, with that
    // game loaded; a FEN stays in the game played; a Bashni PDN switches back. A file of
    // another game that does not load there is refused, and the game stays as it was.
    let load_bad = format!("load {}", bad.display());
    let save_bashni = format!("save {}", bashni_pdn.display());
    let load_bashni = format!("load {}", bashni_pdn.display());
    let (out, err, code) = play(
        &["--level", "1", "--seed", "1"],
        &[
            "c3 d4",
            "fen",
            &save_bashni,
            &load_bad,
            "fen",
            &load,
            "fen",
            "h3 h4",
            "load 8/8/8/8/8/8/b6b/W7 w",
            "fen",
            &load_bashni,
            "fen",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let bashni_fen = answer(&out, "fen", 0);
    assert!(
        answer(&out, &load_bad, 0).ends_with("ply 2: bad move 'd6-d9': 'd9' is not a square"),
        "{out}"
    );
    assert_eq!(answer(&out, "fen", 1), bashni_fen, "the game stays");
    assert_eq!(
        answer(&out, &load, 0),
        format!(
            "switching to Turkish draughts: {} is a game of it (as bashni play --variant turkish)",
            pdn.display()
        )
    );
    let after_load = out.split(&format!("> {load}\n")).nth(1).unwrap();
    assert!(
        after_load.lines().nth(1) == Some("loaded 2 plies; you are White, to move"),
        "{out}"
    );
    assert_eq!(answer(&out, "fen", 2), before, "the Turkish game, loaded");
    // Turkish men move straight ahead: h3-h4 is a move here, not in Bashni.
    assert_eq!(answer(&out, "h3 h4", 0), "you play h3-h4");
    assert_eq!(
        answer(&out, "load 8/8/8/8/8/8/b6b/W7 w", 0),
        "loaded 0 plies; you are White, to move"
    );
    assert_eq!(answer(&out, "fen", 3), "8/8/8/8/8/8/b6b/W7 w 0 1");
    assert_eq!(
        answer(&out, &load_bashni, 0),
        format!(
            "switching to Bashni: {} is a game of it (as bashni play --variant bashni)",
            bashni_pdn.display()
        )
    );
    assert_eq!(answer(&out, "fen", 4), bashni_fen, "back in Bashni");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_lasca_game_through_a_pipe() {
    // White steps c3-d4; Black's e5 must take it and goes on over b2 to a1 (the capture
    // continues, and promotion on rank 1 ends it): Black's officer column holds both white
    // soldiers, and White, commanding no column, loses.
    let (out, err, code) = play(
        &[
            "--variant",
            "lasca",
            "--fen",
            "7/7/4b2/7/2w4/1w5/7 w",
            "--level",
            "3",
            "--seed",
            "1",
        ],
        &["c3 d4", "fen"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("bashni play (Lasca): "), "{out}");
    // Seven files and ranks.
    assert!(out.contains("\n    a   b   c   d   e   f   g\n"), "{out}");
    assert!(
        out.contains("\n 5  .       .       b       .   5\n"),
        "{out}"
    );
    assert_eq!(answer(&out, "c3 d4", 0), "you play c3-d4");
    assert!(out.contains("\nbashni plays e5:c3:a1 (depth "), "{out}");
    assert!(out.contains("\ncolumns, top first: a1 (Bww)\n"), "{out}");
    assert!(
        out.contains("\ngame over: White has no columns left: bashni wins, 0-1\n"),
        "{out}"
    );
    assert_eq!(answer(&out, "fen", 0), "7/7/7/7/7/7/(Bww)6 w 0 2");
}

#[test]
fn a_brazilian_game_through_a_pipe_takes_the_most_pieces_and_saves_as_brazilian() {
    // White's c3 may take b4 alone or d4 and f6: only the longer capture is a move.
    let dir = scratch("brazilian");
    let pdn = dir.join("brazilian.pdn");
    let save = format!("save {}", pdn.display());
    let load = format!("load {}", pdn.display());
    let (out, err, code) = play(
        &[
            "--variant",
            "brazilian",
            "--fen",
            "8/8/5b2/8/1b1b4/2w5/8/8 w",
            "--level",
            "3",
            "--seed",
            "1",
        ],
        &["c3 a5", "c3 g7", "fen", &save],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("bashni play (Brazilian draughts): "),
        "{out}"
    );
    assert!(
        answer(&out, "c3 a5", 0).starts_with("illegal move c3 a5"),
        "{out}"
    );
    assert_eq!(answer(&out, "c3 g7", 0), "you play c3:e5:g7");
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.contains("[GameType \"26,W,8,8,A0,0\"]"), "{text}");
    assert!(text.contains("c3xe5xg7"), "{text}");
    // Loaded in a Bashni session, the game switches to Brazilian draughts.
    let (out, err, code) = play(&["--level", "1", "--seed", "1"], &[&load]);
    assert_eq!(code, 0, "{err}");
    assert!(
        answer(&out, &load, 0).starts_with("switching to Brazilian draughts: "),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_lasca_game_saves_with_its_game_type_and_loads_back_as_lasca() {
    let dir = scratch("lasca");
    let pdn = dir.join("lasca.pdn");
    let save = format!("save {}", pdn.display());
    let load = format!("load {}", pdn.display());
    let (out, err, code) = play(
        &["--variant", "lasca", "--level", "1", "--seed", "1"],
        &["c3 d4", "fen", &save, "new", &load, "fen"],
    );
    assert_eq!(code, 0, "{err}");
    let before = answer(&out, "fen", 0);
    assert_eq!(
        answer(&out, &load, 0),
        "loaded 2 plies; you are White, to move"
    );
    assert_eq!(answer(&out, "fen", 1), before);
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.contains("[GameType \"Lasca\"]"), "{text}");
    // Black's forced answer is a capture, written with `x` in PDN.
    assert!(
        text.contains("1. c3-d4 {") && text.contains("e5xc3"),
        "{text}"
    );
    // Loaded in a Bashni session, the game switches to Lasca and reads the same position.
    let (out, err, code) = play(&["--level", "1", "--seed", "1"], &[&load, "fen"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        answer(&out, &load, 0).starts_with("switching to Lasca: "),
        "{out}"
    );
    assert_eq!(answer(&out, "fen", 0), before);
    let _ = std::fs::remove_dir_all(&dir);
}
