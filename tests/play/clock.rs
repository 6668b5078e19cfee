//! The clock of `bashni play`, driven live through its pipes: what the board and `time`
//! show, a time control set in the middle of a game, and a flag that falls while the person
//! thinks (no line typed). Waits are generous (the tests' deadline for what must come); what is
//! asserted about times holds however slow the machine: only lower bounds of elapsed time
//! are relied on (a sleep of the test is at least that long for the program too).

use crate::common::gui::Gui;
use std::time::{Duration, Instant};

/// `bashni play ARGS` at level 1 (replies in milliseconds), seed 1, through pipes.
fn start(args: &[&str]) -> Gui {
    let mut argv = vec!["play", "--level", "1", "--seed", "1"];
    argv.extend_from_slice(args);
    Gui::start(&argv)
}

/// Lines up to and including the first that satisfies `done`, and when it came; panics
/// with the transcript when none comes within the tests' deadline.
fn until(gui: &mut Gui, done: impl Fn(&str) -> bool) -> (Vec<String>, Instant) {
    gui.until_timed(done)
}

/// The next clock line (under a board, or `time`'s answer).
fn clock_line(gui: &mut Gui) -> String {
    until(gui, |l| l.starts_with("clock ")).0.pop().unwrap()
}

/// The seconds a clock line shows for `side` (`White` or `Black`): `m:ss.t`; `None` for
/// `flag fell`.
fn shown(line: &str, side: &str) -> Option<f64> {
    let at = line
        .find(&format!("({side}) "))
        .unwrap_or_else(|| panic!("no {side} in {line}"));
    let text = line[at + side.len() + 3..].split(',').next().unwrap();
    let (m, s) = text.split_once(':')?;
    Some(m.parse::<f64>().unwrap() * 60.0 + s.parse::<f64>().unwrap())
}

#[test]
fn the_board_and_time_show_the_same_running_clock() {
    let mut gui = start(&["--tc", "1:00"]);
    let first = clock_line(&mut gui);
    // White's clock runs from the start: a millisecond before the line is printed shows 59.9.
    assert!(first.starts_with("clock 60: you (White) "), "{first}");
    assert!(shown(&first, "White").is_some_and(|w| w <= 60.0), "{first}");
    assert_eq!(shown(&first, "Black"), Some(60.0), "{first}");
    std::thread::sleep(Duration::from_secs(3));
    gui.send("board");
    let board = clock_line(&mut gui);
    gui.send("time");
    let time = clock_line(&mut gui);
    let (b, t) = (
        shown(&board, "White").unwrap(),
        shown(&time, "White").unwrap(),
    );
    // The person's clock has run at least 3 s, on the board as in `time`.
    assert!(b <= 57.0, "{board}");
    assert!(t <= b && t > b - 5.0, "{board} / {time}");
    assert_eq!(shown(&board, "Black"), Some(60.0), "{board}");
    assert_eq!(shown(&time, "Black"), Some(60.0), "{time}");
    gui.close();
    until(&mut gui, |l| l == "bye");
}

#[test]
fn a_time_control_set_mid_game_starts_from_that_moment() {
    let mut gui = start(&["--tc", "1:00"]);
    clock_line(&mut gui);
    // Four seconds of thought, then a new clock: both full from now, the time already
    // spent not charged to it.
    std::thread::sleep(Duration::from_secs(4));
    gui.send("time 1:00+1");
    let set = clock_line(&mut gui);
    assert!(set.starts_with("clock 60+1: "), "{set}");
    let white = shown(&set, "White").unwrap();
    assert!(white >= 57.0, "4 s before it was set are charged: {set}");
    assert_eq!(shown(&set, "Black"), Some(60.0), "{set}");
    // It runs from then on: the move is charged what it took since, plus the increment.
    gui.send("c3 d4");
    until(&mut gui, |l| l.starts_with("bashni plays "));
    let after = clock_line(&mut gui);
    assert!(shown(&after, "White").unwrap() <= 61.0, "{after}");
    assert!(shown(&after, "White").unwrap() >= 58.0, "{after}");
    gui.close();
    until(&mut gui, |l| l == "bye");
}

#[test]
fn the_flag_falls_while_the_person_thinks() {
    let began = Instant::now();
    let mut gui = start(&["--tc", "2"]);
    // Nothing is typed: the game ends when the 2 s are up, not at the next move.
    let (lines, at) = until(&mut gui, |l| l.starts_with("game over"));
    assert!(at - began >= Duration::from_secs(2), "{lines:?}");
    assert_eq!(
        lines.last().unwrap(),
        "game over: White's time is up: bashni wins, 0-1"
    );
    assert_eq!(
        lines[lines.len() - 2],
        "clock 2: you (White) flag fell, bashni (Black) 0:02.0"
    );
    let (score, _) = until(&mut gui, |_| true);
    assert_eq!(score, ["score: you 0, bashni 1, draws 0"]);
    gui.send("c3 d4");
    let (refused, _) = until(&mut gui, |l| l.starts_with("the game is over"));
    assert_eq!(
        refused.last().unwrap(),
        "the game is over (time forfeit); type new, load or quit"
    );
    // A new game has fresh clocks: Black's full, White's running again from 2 s (it has run
    // for as long as the line took to print, a millisecond or, on a busy machine, more: the
    // display floors to tenths, so 1.9 is as fresh as 2.0), not the lost game's fallen flag.
    gui.send("new");
    let fresh = clock_line(&mut gui);
    assert!(fresh.starts_with("clock 2: you (White) "), "{fresh}");
    assert_eq!(shown(&fresh, "Black"), Some(2.0), "{fresh}");
    let white = shown(&fresh, "White").unwrap_or_else(|| panic!("no fresh clock: {fresh}"));
    assert!(white <= 2.0, "{fresh}");
    gui.close();
    until(&mut gui, |l| l == "bye");
}

#[test]
fn undo_after_a_flag_is_refused_and_the_game_stays_lost() {
    let mut gui = start(&["--tc", "1:00"]);
    clock_line(&mut gui);
    gui.send("c3 d4");
    until(&mut gui, |l| l.starts_with("bashni plays "));
    clock_line(&mut gui);
    gui.send("moves");
    let (moves, _) = until(&mut gui, |l| l.contains(" legal move"));
    let first = moves.last().unwrap().split(": ").nth(1).unwrap();
    let mv = first.split(' ').next().unwrap().to_string();
    gui.send("fen");
    let (fen, _) = until(&mut gui, |l| l.ends_with(" w 2 2"));
    let fen = fen.last().unwrap().clone();
    // A 2 s clock from now, and a move 3 s later at the earliest: the flag has fallen.
    gui.send("time 2");
    clock_line(&mut gui);
    std::thread::sleep(Duration::from_secs(3));
    gui.send(&mv);
    until(&mut gui, |l| {
        l == "game over: White's time is up: bashni wins, 0-1"
    });
    gui.send("undo");
    let (said, _) = until(&mut gui, |l| l == "> undo");
    assert!(
        said.iter().all(|l| !l.starts_with("bashni plays ")),
        "{said:?}"
    );
    let (said, _) = until(&mut gui, |_| true);
    assert_eq!(
        said,
        ["undo: the game was lost on time (White's flag fell); type new or load to play on"]
    );
    gui.send("fen");
    until(&mut gui, |l| l == "> fen");
    assert_eq!(until(&mut gui, |_| true).0, [fen]);
    gui.send("time");
    assert_eq!(
        clock_line(&mut gui),
        "clock 2: you (White) flag fell, bashni (Black) 0:02.0"
    );
    gui.close();
    until(&mut gui, |l| l == "bye");
}
