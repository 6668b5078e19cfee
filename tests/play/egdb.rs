//! `bashni play --egdb DIR`: the engine converts a won ending the databases hold within the
//! no-progress rule. The person's side is played by the tables' longest defence (the move
//! whose loss is furthest off, a draw if there were one), chosen here through the library
//! and typed into the real binary; the engine plays at a depth-capped level.

use crate::common::gui::Gui;
use crate::egdb::russian_dir;
use bashni::egdb::{Store, move_values};
use bashni::games::{Rules, russian::Position};

/// Three kings against one off the long diagonal, White (the engine) to move: won in 18
/// plies (docs/egdb.md), a draw by the fifteen-king-move rule if the kings dawdle.
const WON: &str = "W:WKc1,Ka3,Kg1:BKb8";

/// The most plies the test lets the game run: the rule alone ends a game by 30 plies
/// without a capture, and the ending has one capture left to make.
const MOST_PLIES: usize = 80;

#[test]
fn the_engine_converts_a_won_ending_within_the_rule() {
    let dir = russian_dir();
    let store = Store::<Position>::open(dir).unwrap();
    let mut probe = store.prober();
    let dir_arg = dir.to_str().unwrap();
    let args = [
        "play",
        "--variant",
        "russian",
        "--fen",
        WON,
        "--color",
        "black",
        "--level",
        "5",
        "--seed",
        "1",
        "--egdb",
        dir_arg,
    ];
    let mut gui = Gui::start(&args);
    let mut pos = Position::from_fen(WON).unwrap();
    let mut over = None;
    for _ in 0..MOST_PLIES {
        // The engine's move, or the end of the game.
        let lines = gui.until(|l| l.starts_with("bashni plays ") || l.starts_with("game over: "));
        let last = lines.last().unwrap().clone();
        if last.starts_with("game over: ") {
            over = Some(last);
            break;
        }
        let text = last["bashni plays ".len()..].split(' ').next().unwrap();
        let m = pos.parse_move(text).unwrap();
        pos = pos.played(&m);
        // Black's longest defence by the tables.
        let verdict = move_values(&pos, 30, |p| probe.probe(p).ok()).unwrap();
        let Some(defence) = verdict.moves.first() else {
            over = Some(gui.until(|l| l.starts_with("game over: ")).pop().unwrap());
            break;
        };
        let typed = defence.mv.to_string();
        gui.send(&typed);
        gui.until_line(&format!("you play {typed}"));
        pos = pos.played(&defence.mv);
    }
    let over = over.unwrap_or_else(|| panic!("no end in {MOST_PLIES} plies:\n{}", gui.dump()));
    assert!(over.ends_with(", 1-0"), "{over}\n{}", gui.dump());
    assert!(!over.contains("rule"), "{over}");
    gui.send("quit");
    gui.wait_exit();
}

#[test]
fn a_folder_that_does_not_read_is_refused() {
    let mut gui = Gui::start(&["play", "--egdb", "/nonexistent/egdb", "--level", "1"]);
    assert!(!gui.wait_exit().success());
}
