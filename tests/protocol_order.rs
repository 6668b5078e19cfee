//! Issue 14: commands are processed strictly in the order received, every kind of work ends
//! on `stop`, `quit` or end of input, absurd limits are refused, and error messages are
//! bounded. One test per failure seen on the build before this fix; each drives the real
//! binary as a GUI would.

use crate::common;

use common::gui::{DEADLINE, Gui, run_to_end};
use std::time::{Duration, Instant};

/// How many `bestmove` lines `lines` holds.
fn bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove ")).count()
}

/// Reads until `n` `bestmove` lines have come (panics with the transcript after [`DEADLINE`]).
fn until_bestmoves(gui: &mut Gui, n: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut seen = 0;
    while seen < n {
        let more = gui.bestmove().0;
        seen += 1;
        lines.extend(more);
    }
    lines
}

/// Sends `pairs` `go infinite` + `stop` pairs in one write: each `go` must get its
/// `bestmove` while the input stays open, and nothing may run afterwards.
fn go_stop_pairs(pairs: usize) {
    let mut gui = Gui::new();
    gui.send_bytes("go infinite\nstop\n".repeat(pairs).as_bytes());
    until_bestmoves(&mut gui, pairs);
    // Nothing runs any more: `isready` comes at once and no further bestmove precedes it.
    gui.send("isready");
    let rest = gui.until_line("readyok");
    assert_eq!(bestmoves(&rest), 0, "{}", gui.dump());
}

#[test]
fn a_second_stop_stops_the_second_search() {
    go_stop_pairs(2);
}

#[test]
fn many_go_stop_pairs_in_one_write_give_as_many_bestmoves() {
    go_stop_pairs(200);
}

#[test]
fn ponderhit_for_a_queued_ponder_search_is_not_lost() {
    let mut gui = Gui::new();
    gui.send("go ponder");
    // The running ponder search is stopped; the next one is pondering when `ponderhit`
    // is read (or still queued): either way it must become a normal 100 ms search.
    gui.send_bytes(b"stop\nposition startpos moves c3-d4\ngo ponder movetime 100\nponderhit\n");
    let lines = until_bestmoves(&mut gui, 2);
    assert_eq!(bestmoves(&lines), 2, "{}", gui.dump());
}

#[test]
fn isready_waits_for_the_answers_of_queued_commands() {
    // `d` and a bad command are queued behind a search or perft; `readyok` must follow
    // their answers (it used to overtake them).
    for job in ["go depth 6", "go perft 5"] {
        let mut gui = Gui::new();
        gui.send_bytes(format!("{job}\nd\nfoo\nisready\n").as_bytes());
        let lines = gui.until_line("readyok");
        let at = |p: &str| lines.iter().position(|l| l.starts_with(p));
        let (board, error) = (at("White to move"), at("info string error: unknown"));
        assert!(board.is_some() && error.is_some(), "{job}: {lines:?}");
        assert!(board < error, "{job}: {lines:?}");
    }
}

#[test]
fn the_engine_is_idle_once_perft_has_printed_its_count() {
    // A `go infinite` + `stop` sent right after the count must get its bestmove (the
    // perft worker used to be still "busy" for a moment, and the stop went nowhere).
    let mut gui = Gui::new();
    for _ in 0..300 {
        gui.send("go perft 1");
        gui.until(|l| l.starts_with("nodes "));
        gui.send_bytes(b"go infinite\nstop\n");
        gui.bestmove();
    }
}

#[test]
fn stop_quit_and_end_of_input_end_a_perft() {
    let started = Instant::now();
    let (code, out, _) = run_to_end(&[], "go perft 16\nquit\n");
    assert_eq!(code, 0, "{out}");
    assert!(started.elapsed() < DEADLINE);
    let mut gui = Gui::new();
    gui.send("go perft 16");
    std::thread::sleep(Duration::from_millis(50));
    gui.send("stop");
    gui.until_line("info string perft stopped");
    gui.send("go perft 2");
    assert_eq!(
        gui.until(|l| l.starts_with("nodes ")).pop().unwrap(),
        "nodes 49"
    );
}

#[test]
fn absurd_limits_are_refused_with_their_range() {
    let input = "go depth 10000\ngo nodes 18446744073709551615\n\
                 go movetime 9223372036854775807\ngo depth 4294967296\n";
    let (code, out, _) = run_to_end(&[], input);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "info string error: go: depth 10000 is outside 0..120",
            "info string error: go: nodes 18446744073709551615 is outside 0..1000000000000",
            "info string error: go: movetime 9223372036854775807 is outside 0..2147483647",
            "info string error: go: depth 4294967296 is outside 0..120",
        ]
    );
    let (_, out, _) = run_to_end(&[], "setoption name Hash value 99999999999999999999999\n");
    assert!(out.contains("outside 1..65536"), "{out}");
}

/// Peak resident memory of process `pid`, KiB (Linux).
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_huge_line_gets_a_short_error_and_little_memory() {
    let mut gui = Gui::new();
    gui.send("isready");
    gui.until_line("readyok");
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..256 {
        gui.send_bytes(&chunk);
    }
    gui.send_bytes(b"\nisready\n");
    let lines = gui.until_line("readyok");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string error: line of 268435457 bytes is too long"));
    assert!(lines[0].len() < 400, "{} bytes", lines[0].len());
    if let Some(kib) = peak_kib(gui.pid()) {
        assert!(kib < 100 * 1024, "peak {kib} KiB");
    }
    // A long but acceptable line: the error quotes its first 200 characters only.
    gui.send(&format!("position fen {}", "1".repeat(50_000)));
    let line = gui.until(|_| true).remove(0);
    assert!(
        line.starts_with("info string error: position: bad FEN '111"),
        "{line}"
    );
    assert!(line.len() < 600, "{} bytes", line.len());
}

#[test]
fn lenient_inputs_are_the_documented_ones() {
    // Accepted (engine-protocol.md, "Notation"): capital squares, `W`/`B` as the side.
    let start = "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1";
    let input = format!(
        "position startpos moves C3-D4 f6-e5\nd\nposition fen {start} B\nd\n\
         position startpos moves c3-d4 f6-e5 d4-f6\nposition fen {start} w +3 1\n\
         position fen {start} w 0 70000\nd\n"
    );
    let (code, out, _) = run_to_end(&[], &input);
    assert_eq!(code, 0);
    let fens: Vec<&str> = out.lines().filter(|l| l.starts_with("FEN: ")).collect();
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(
        fens[0],
        format!(
            "FEN: {}",
            "1b1b1b1b/b1b1b1b1/1b1b3b/4b3/3w4/w3w1w1/1w1w1w1w/w1w1w1w1 w 2 2"
        )
    );
    assert_eq!(fens[1], format!("FEN: {start} b 0 1"));
    assert_eq!(fens[2], fens[1], "{out}");
    // Refused: a capture written with '-', a signed or too large counter.
    assert_eq!(errors.len(), 3, "{out}");
    assert!(
        errors[0].contains("move 3 of the moves list: illegal move d4-f6: legal moves are d4:f6")
    );
    assert!(errors[1].contains("plies since capture '+3' is not a whole number 0..65535"));
    assert!(errors[2].contains("move number '70000' is not a whole number 1..65535"));
}
