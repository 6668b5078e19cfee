//! One unit for scores in every game: 100 centi-men = one man. The start position with one
//! of Black's men removed (h6) reads between +0.70 and +1.50 (`cp 70` to `cp 150`) for White
//! at depth 8 in Turkish, Russian and Brazilian draughts, and in Lasca with Black's b6 soldier removed;
//! in Bashni, where a back-rank man is worth about twice a front one, the median over each
//! of Black's 12 men removed in turn (how docs/rules.md measures `MAN`). Driven over the
//! protocol.

use crate::common;
use crate::common::deadline::Bounded;

use common::gui::Gui;

/// The depth-8 `cp` of `fen` in `variant`, from the last `info` before `bestmove`.
fn depth8_cp(variant: &str, fen: &str) -> i32 {
    let mut gui = Gui::new();
    gui.handshake();
    gui.send(&format!("setoption name UCI_Variant value {variant}"));
    gui.send(&format!("position fen {fen}"));
    gui.send("go depth 8");
    let (lines, best) = gui.bestmove();
    assert!(!best.is_empty(), "no best move: {lines:?}");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score cp "))
        .unwrap_or_else(|| panic!("no score in {lines:?}"));
    let after = last.split(" score cp ").nth(1).unwrap();
    after.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn one_man_up_reads_about_one_man_in_every_game() {
    for (variant, fen) in [
        (
            "russian",
            "1b1b1b1b/b1b1b1b1/1b1b1b2/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w",
        ),
        (
            "brazilian",
            "1b1b1b1b/b1b1b1b1/1b1b1b2/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w",
        ),
        (
            "turkish",
            "8/bbbbbbbb/bbbbbbb1/8/8/wwwwwwww/wwwwwwww/8 w 0 1",
        ),
        ("lasca", "b1b1b1b/3b1b1/b1b1b1b/7/w1w1w1w/1w1w1w1/w1w1w1w w"),
    ] {
        let cp = depth8_cp(variant, fen);
        assert!(
            (70..=150).contains(&cp),
            "{variant}: a man up reads cp {cp}"
        );
    }
}

#[test]
fn one_man_up_reads_about_one_man_in_bashni_as_a_median() {
    let start = "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1";
    let mut scores: Vec<i32> = (0..start.len())
        .filter(|&i| start.as_bytes()[i] == b'b')
        .map(|i| {
            // Black's man at i removed; the board is re-encoded with runs of empty squares.
            let board = format!("{}1{}", &start[..i], &start[i + 1..]);
            depth8_cp("bashni", &format!("{} w", compact(&board)))
        })
        .collect();
    assert_eq!(scores.len(), 12);
    scores.sort();
    let median = (scores[5] + scores[6]) / 2;
    eprintln!("bashni, one man up: median cp {median} of {scores:?}");
    assert!(
        (70..=150).contains(&median),
        "bashni: a man up reads a median cp {median} ({scores:?})"
    );
}

/// A FEN board with each run of empty-square digits summed (`b11b` is `b2b`).
fn compact(board: &str) -> String {
    let mut out = String::new();
    let mut run = 0;
    for c in board.chars() {
        match c.to_digit(10) {
            Some(d) => run += d,
            None => {
                if run > 0 {
                    out += &run.to_string();
                    run = 0;
                }
                out.push(c);
            }
        }
    }
    if run > 0 {
        out += &run.to_string();
    }
    out
}

/// Twelve men against three: the network reads it as far more than nine men up, a figure
/// no person would believe. People see the decisive-win form ("winning", from ten men on);
/// the protocol's `cp` keeps the full range.
#[test]
fn a_won_position_reads_winning_not_a_figure() {
    let fen = "1b1b1b2/8/8/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w";
    let cp = {
        let mut gui = Gui::new();
        gui.handshake();
        gui.send(&format!("position fen {fen}"));
        gui.send("go depth 4");
        let (lines, _) = gui.bestmove();
        let last = lines
            .iter()
            .rev()
            .find(|l| l.contains(" score cp "))
            .unwrap_or_else(|| panic!("no score in {lines:?}"));
        let after = last.split(" score cp ").nth(1).unwrap();
        after
            .split_whitespace()
            .next()
            .unwrap()
            .parse::<i32>()
            .unwrap()
    };
    assert!(
        cp >= 1000,
        "cp {cp}: pick a position the engine reads as decisive"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bashni"))
        .args(["analyse", "--depth", "4", fen])
        .output_bounded()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("score winning for White at depth 4"),
        "{text}"
    );
    let shown = format!("+{}.{:02}", cp / 100, cp % 100);
    assert!(!text.contains(&shown), "{text}");
}
