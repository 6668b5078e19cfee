//! `bashni analyse` run as a user runs it: its arguments, its output, its errors.

use crate::common;

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

/// The score column of the lines of line 1 (or of every line), and their depth labels.
fn rows(out: &str) -> Vec<(String, String)> {
    let start = out.lines().position(|l| l.starts_with("depth")).unwrap() + 1;
    out.lines()
        .skip(start)
        .take_while(|l| !l.starts_with("Best move") && !l.starts_with("No legal move"))
        .map(|l| {
            let label = l[..5].trim().to_string();
            (label, l[5..].trim_start().to_string())
        })
        .collect()
}

#[test]
fn scores_say_whose_view_and_count_mates_in_moves_as_the_protocol_does() {
    // Black to move wins in 4 of its own moves (7 plies): the example of engine-protocol.md.
    let fen = "8/b5b1/1(bw)6/(Bbwwwww)1(bw)5/8/(bBww)7/5(Bbww)1(Wbb)/8 b 0 43";
    let (code, out, err) = analyse(&[fen, "--depth", "7"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "\nScores are for Black, the side to move (as UCI gives them): men (+1.25), or a \
             win or loss in N moves of Black's.\n"
        ),
        "{out}"
    );
    let last = rows(&out).pop().unwrap();
    assert_eq!(last.0, "7");
    assert!(last.1.starts_with("win in 4 moves "), "{out}");
    assert!(
        out.contains("(score win in 4 moves for Black at depth 7, "),
        "{out}"
    );
    // The protocol says the same: mate 4 (on every line of depth 7 that has a score; a search
    // that runs over a second, on a slow machine, also says `info depth 7 currmove ...`).
    let (code, proto, _) = run_to_end(&[], &format!("position fen {fen}\ngo depth 7\n"));
    assert_eq!(code, 0);
    assert!(proto.contains("info depth 7 seldepth "), "{proto}");
    assert!(
        proto
            .lines()
            .filter(|l| l.starts_with("info depth 7 ") && l.contains(" score "))
            .all(|l| l.contains(" score mate 4 ")),
        "{proto}"
    );
    // White to move wins with one capture: 1 move, singular.
    let (_, out, _) = analyse(&["8/8/8/6B1/1b1b4/6b1/8/W7 w", "--depth", "3"]);
    assert!(
        out.contains("(score win in 1 move for White at depth 3"),
        "{out}"
    );
    assert!(
        out.contains("Scores are for White, the side to move"),
        "{out}"
    );
}

#[test]
fn a_timed_search_shows_each_depth_once_and_ends_on_the_best_move() {
    // Two threads under a clock: a helper may show a depth first and the answer comes
    // after; whatever happens, no depth is shown twice and the last line is the answer.
    for movetime in ["150", "400"] {
        let (code, out, err) = analyse(&[
            "startpos",
            "--moves",
            "c3-d4",
            "f6-g5",
            "g3-f4",
            "--movetime",
            movetime,
            "--threads",
            "2",
        ]);
        assert_eq!(code, 0, "{err}");
        let rows = rows(&out);
        let depths: Vec<u32> = rows.iter().filter_map(|(l, _)| l.parse().ok()).collect();
        assert!(depths.windows(2).all(|w| w[0] < w[1]), "{out}");
        let finals = rows.iter().filter(|(l, _)| l == "final").count();
        assert!(finals <= 1, "{out}");
        if finals == 1 {
            assert_eq!(rows.last().unwrap().0, "final", "{out}");
        }
        let best = out.lines().last().unwrap();
        let mv = best["Best move: ".len()..]
            .split([',', ' '])
            .next()
            .unwrap();
        // The principal variation follows the time (`0.15s`).
        let words: Vec<&str> = rows.last().unwrap().1.split_whitespace().collect();
        let time = words
            .iter()
            .position(|w| w.ends_with('s') && w[..w.len() - 1].parse::<f64>().is_ok())
            .unwrap();
        let pv_first = words[time + 1];
        assert_eq!(mv, pv_first, "{out}");
    }
}

#[test]
fn each_game_is_analysed_in_its_own_notation() {
    // Turkish: all 64 squares; a king against a man after White's capture wins.
    let (code, out, err) = analyse(&[
        "--variant",
        "turkish",
        "8/8/8/8/8/8/b6b/W7",
        "w",
        "--depth",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("FEN: 8/8/8/8/8/8/b6b/W7 w 0 1"), "{out}");
    assert!(
        out.contains("Best move: a1:a3 (score win in 1 move for White at depth 3,"),
        "{out}"
    );
    // Russian: the captured man leaves the board.
    let (code, out, err) = analyse(&[
        "--variant",
        "russian",
        "--moves",
        "c3-d4",
        "f6-e5",
        "--depth",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Best move: d4:f6"), "{out}");
    // Brazilian: the capture that takes the most pieces is the only move, whatever it costs.
    let (code, out, err) = analyse(&[
        "--variant",
        "brazilian",
        "8/8/5b2/8/1b1b4/2w5/8/8",
        "w",
        "--depth",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Best move: c3:e5:g7"), "{out}");
    // Lasca: a 7x7 board; Black's reply to c3-d4 is forced, and White takes back on d4,
    // freeing the soldier under Black's commander on c3.
    let (code, out, err) = analyse(&[
        "--variant",
        "lasca",
        "--moves",
        "c3-d4",
        "e5xc3",
        "--depth",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("FEN: b1b1b1b/1b1b1b1/b1b3b/7/w1(bw)1w1w/1w1w1w1/w1w1w1w w 0 2"),
        "{out}"
    );
    assert!(out.contains("Best move: b2:d4"), "{out}");
    // A move of another game is refused in this one.
    let (code, _, err) = analyse(&["--variant", "turkish", "--moves", "c3-d4"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: move 1 of --moves: "), "{err}");
}
