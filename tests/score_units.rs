//! One unit for scores in every game: 100 centi-men = one man. The start position with one
//! of Black's men removed (h6) reads between +0.70 and +1.50 (`cp 70` to `cp 150`) for White
//! at depth 8 in Bashni, Turkish and Russian draughts, and in Lasca with Black's b6 soldier
//! removed, driven over the protocol.

mod common;

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
            "bashni",
            "1b1b1b1b/b1b1b1b1/1b1b1b2/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w",
        ),
        (
            "russian",
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
