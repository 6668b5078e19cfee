//! Protocol tests: the real binary driven as a GUI drives it (handshake, every kind of `go`,
//! stop, isready and ponderhit during a search, MultiPV, bad input of every kind, end of
//! input, perft, `d`, `eval`) and `bashni analyse`. Every read has a timeout
//! (`common::gui::DEADLINE`, a hang guard). No verdict depends on the machine's speed: a limit is
//! checked by what a slower machine cannot make happen (an answer before the move time, a
//! search that ends by itself where the wrong clock would think for many minutes), never by
//! how soon an answer comes.

use crate::common;

use bashni::games::bashni::game::Game;
use bashni::games::bashni::notation::{START_FEN, parse_fen, parse_move};
use common::gui::{Gui, run_to_end};
use std::time::Duration;

/// The game after `moves` from the start.
fn game(moves: &[&str]) -> Game {
    let mut g = Game::new(parse_fen(START_FEN).unwrap());
    for m in moves {
        g.play_text(m).unwrap();
    }
    g
}

/// Whether `mv` is legal (and written exactly as the engine writes it) in `g`.
fn legal(g: &Game, mv: &str) -> bool {
    parse_move(g.position(), mv).is_ok_and(|m| m.to_string() == mv)
}

/// The word after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .iter()
        .position(|w| *w == key)
        .and_then(|i| words.get(i + 1).copied())
}

/// The `pv` moves of an `info` line.
fn pv(line: &str) -> Vec<&str> {
    line.split_whitespace()
        .skip_while(|w| *w != "pv")
        .skip(1)
        .collect()
}

/// The `info depth` lines that report a line (with its `pv`): a search that runs over a
/// second (a slow machine's `go depth 6`) also says `info depth D currmove M`, which is not one.
fn depth_infos(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth ") && l.contains(" pv "))
        .collect()
}

#[test]
fn handshake_lists_options() {
    let mut gui = Gui::new();
    let lines = gui.handshake();
    assert_eq!(
        lines[0],
        format!("id name bashni {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "));
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Move Overhead",
        "Clear Hash",
    ] {
        let decl = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&decl)),
            "{name} missing: {lines:?}"
        );
    }
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 65536".into()));
    assert_eq!(lines.last().unwrap(), "uciok");
    // `bashni uci` is the same protocol.
    let (code, out, _) = run_to_end(&["uci"], "uci\n");
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l == "uciok"), "{out}");
}

#[test]
fn go_depth_after_moves() {
    let mut gui = Gui::new();
    gui.send("position startpos moves c3-d4 f6-e5");
    gui.send("go depth 5");
    let (lines, best) = gui.bestmove();
    let g = game(&["c3-d4", "f6-e5"]);
    assert!(legal(&g, &best), "{best} not legal: {lines:?}");
    let infos = depth_infos(&lines);
    let depths: Vec<u32> = infos
        .iter()
        .map(|l| field(l, "depth").unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths.last(), Some(&5), "{lines:?}");
    let last = infos.last().unwrap();
    for key in [
        "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
    ] {
        assert!(
            last.split_whitespace().any(|w| w == key),
            "{key} missing in {last}"
        );
    }
    assert_eq!(pv(last)[0], best);
    // White must capture here (d4:f6): the only legal move.
    assert_eq!(best, "d4:f6");
}

#[test]
fn go_nodes_and_movetime() {
    let mut gui = Gui::new();
    gui.send("go nodes 20000");
    let (lines, best) = gui.bestmove();
    assert!(legal(&game(&[]), &best));
    for l in depth_infos(&lines) {
        let n: u64 = field(l, "nodes").unwrap().parse().unwrap();
        assert!(n <= 20000 + 4096, "node limit overrun: {l}");
    }
    // A busy machine answers later, never earlier: only the lower bound is a check. The
    // upper one is that it answers at all (within DEADLINE): a move time that is ignored from the
    // start position searches on for hours.
    let sent = gui.send("go movetime 300");
    let (lines, t) = gui.until_timed(|l| l.starts_with("bestmove"));
    let took = t - sent;
    assert!(
        took >= Duration::from_millis(150),
        "answered too early: {took:?}"
    );
    assert!(legal(
        &game(&[]),
        lines.last().unwrap().split_whitespace().nth(1).unwrap()
    ));
}

/// A clock of ten hours: a search that spends it as its own thinks for minutes (a 25th of it
/// is the base time), so an answer within `DEADLINE` shows the other, half-second clock was used.
const TEN_HOURS_MS: u64 = 36_000_000;

#[test]
fn go_with_clocks_uses_the_movers_clock() {
    // Each side to move with half a second against the other's ten hours: the answer comes
    // (within DEADLINE, even ten times slower than usual) only if the mover's own clock is used.
    let mut gui = Gui::new();
    let sent = gui.send(&format!(
        "go wtime 500 btime {TEN_HOURS_MS} winc 10 binc 10"
    ));
    let (lines, t) = gui.until_timed(|l| l.starts_with("bestmove"));
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(legal(&game(&[]), best), "{best}");
    eprintln!("white on a 0.5 s clock answered after {:?}", t - sent);
    // Black to move: the huge white clock must not matter.
    gui.send("position startpos moves c3-d4");
    let sent = gui.send(&format!("go wtime {TEN_HOURS_MS} btime 500 winc 0 binc 0"));
    let (lines, t) = gui.until_timed(|l| l.starts_with("bestmove"));
    eprintln!("black on a 0.5 s clock answered after {:?}", t - sent);
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(legal(&game(&["c3-d4"]), &best));
}

#[test]
fn a_clock_for_the_other_side_only_still_ends_the_search() {
    // Black to move with only White's clock: the search uses it and ends by itself (before
    // the fix it searched until `stop`).
    let mut gui = Gui::new();
    gui.send("position startpos moves c3-d4");
    gui.send("go wtime 1000 winc 10");
    let (lines, best) = gui.bestmove();
    assert_eq!(
        lines[0], "info string no clock for black: using white's for both sides",
        "{lines:?}"
    );
    assert!(legal(&game(&["c3-d4"]), &best), "{best}");
    // The same for White with only Black's clock.
    gui.send("position startpos");
    gui.send("go btime 1000");
    let (lines, best) = gui.bestmove();
    assert!(
        lines[0].starts_with("info string no clock for white"),
        "{lines:?}"
    );
    assert!(legal(&game(&[]), &best), "{best}");
}

#[test]
fn movestogo_spends_more_of_the_clock() {
    let mut gui = Gui::new();
    // One move to the control: about half a second of a 2 s clock, not 1/25 of it. A busy
    // machine makes the answer later, never earlier, so the lower bound is the check; that
    // the search still ends by itself is the answer within DEADLINE. (How much of the clock is
    // left over is a speed figure: the latency benchmark's game at 1 s + 10 ms measures it.)
    let sent = gui.send("go wtime 2000 btime 2000 movestogo 1");
    let (_, t) = gui.until_timed(|l| l.starts_with("bestmove"));
    let took = t - sent;
    assert!(
        took >= Duration::from_millis(250),
        "movestogo ignored: {took:?}"
    );
}

#[test]
fn infinite_until_stop_and_isready_meanwhile() {
    let mut gui = Gui::new();
    gui.send("go infinite");
    assert!(
        gui.non_info_within(Duration::from_millis(400)).is_empty(),
        "{}",
        gui.dump()
    );
    gui.send("isready");
    let lines = gui.until(|l| !l.starts_with("info"));
    assert_eq!(lines.last().unwrap(), "readyok");
    assert!(
        gui.non_info_within(Duration::from_millis(200)).is_empty(),
        "search disturbed"
    );
    // An infinite search answers only because of `stop` (within DEADLINE; how soon is the
    // latency benchmark's figure).
    gui.send("stop");
    let (lines, _) = gui.bestmove();
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(legal(&game(&[]), best), "{best}");
    // A stop with nothing running is ignored; the session goes on.
    gui.send("stop");
    gui.send("isready");
    assert_eq!(gui.until(|_| true), ["readyok"]);
}

#[test]
fn ponder_then_ponderhit() {
    let mut gui = Gui::new();
    gui.send("setoption name Ponder value true");
    gui.send("position startpos moves c3-d4 f6-e5 d4:f6");
    // While pondering no bestmove, even long after the clock's share has passed.
    gui.send("go ponder wtime 1000 btime 1000 winc 0 binc 0");
    assert!(
        gui.non_info_within(Duration::from_millis(800)).is_empty(),
        "{}",
        gui.dump()
    );
    // After `ponderhit` the clock applies and the search ends by itself (within DEADLINE; a lost
    // `ponderhit` would ponder on until `stop`).
    gui.send("ponderhit");
    let (lines, _) = gui.bestmove();
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(legal(&game(&["c3-d4", "f6-e5", "d4:f6"]), best), "{best}");
    // Pondering ended by stop (the opponent played something else).
    gui.send("go ponder");
    assert!(gui.non_info_within(Duration::from_millis(300)).is_empty());
    gui.send("stop");
    gui.bestmove();
}

#[test]
fn multipv_gives_distinct_lines() {
    let mut gui = Gui::new();
    gui.send("setoption name MultiPV value 3");
    gui.send("go depth 6");
    let (lines, best) = gui.bestmove();
    let last: Vec<&String> = depth_infos(&lines)
        .into_iter()
        .filter(|l| field(l, "depth") == Some("6"))
        .collect();
    assert_eq!(last.len(), 3, "{lines:?}");
    let ks: Vec<&str> = last.iter().map(|l| field(l, "multipv").unwrap()).collect();
    assert_eq!(ks, ["1", "2", "3"]);
    let firsts: std::collections::HashSet<&str> = last.iter().map(|l| pv(l)[0]).collect();
    assert_eq!(firsts.len(), 3, "first moves not distinct: {last:?}");
    assert_eq!(pv(last[0])[0], best);
}

#[test]
fn no_legal_move_answers_none() {
    let mut gui = Gui::new();
    // White's only man is blocked; then White has no piece at all.
    for fen in ["8/8/8/8/8/2b5/1b6/w7 w", "8/8/8/8/8/8/8/b7 w"] {
        gui.send(&format!("position fen {fen}"));
        gui.send("go depth 4");
        assert_eq!(gui.bestmove().1, "(none)");
    }
    gui.send("go infinite");
    assert!(
        gui.non_info_within(Duration::from_millis(200)).is_empty(),
        "must wait for stop"
    );
    gui.send("stop");
    assert_eq!(gui.bestmove().1, "(none)");
}

#[test]
fn bad_input_keeps_the_session_and_position() {
    let mut gui = Gui::new();
    gui.send("position startpos moves c3-d4");
    let expect_error = |gui: &mut Gui, cmd: &str, text: &str| {
        gui.send(cmd);
        let line = gui.until(|_| true).remove(0);
        assert!(line.starts_with("info string error: "), "{cmd}: {line}");
        assert!(line.contains(text), "{cmd}: '{line}' lacks '{text}'");
    };
    expect_error(
        &mut gui,
        "position fen 8/8/8/8/8/8/8/x7 w",
        "unknown character 'x'",
    );
    expect_error(&mut gui, "position fen 8/8 w", "board has 2 ranks");
    expect_error(
        &mut gui,
        "position startpos moves c3-d4 f6-e5 c3-d4",
        "move 3 of the moves list",
    );
    expect_error(&mut gui, "position startpos moves c3-d5", "move 1");
    expect_error(
        &mut gui,
        "position sideways",
        "expected 'startpos' or 'fen <FEN>'",
    );
    expect_error(&mut gui, "flip", "unknown command 'flip'");
    expect_error(&mut gui, "go depth x", "'depth' needs");
    expect_error(&mut gui, "go sideways", "unknown argument 'sideways'");
    expect_error(&mut gui, "go movetime", "'movetime' needs a value");
    expect_error(&mut gui, "go searchmoves a1-a2", "searchmoves");
    expect_error(&mut gui, "setoption name Hash value 0", "outside 1..65536");
    expect_error(
        &mut gui,
        "setoption name Threads value many",
        "needs a whole number",
    );
    expect_error(
        &mut gui,
        "setoption name Contempt value 3",
        "unknown option 'Contempt'",
    );
    expect_error(&mut gui, "setoption value 3", "setoption name <id>");
    gui.send("\u{1}\u{ff}garbage \t ( )");
    assert!(gui.until(|_| true)[0].starts_with("info string error: unknown command"));
    // No search was started by the bad `go`s, and the position is still the one after c3-d4.
    gui.send("d");
    let board = gui.until(|l| l.starts_with("FEN: "));
    let fen = board.last().unwrap();
    assert_eq!(
        fen,
        "FEN: 1b1b1b1b/b1b1b1b1/1b1b1b1b/8/3w4/w3w1w1/1w1w1w1w/w1w1w1w1 b 1 1"
    );
    gui.send("go depth 3");
    let (_, best) = gui.bestmove();
    assert!(legal(&game(&["c3-d4"]), &best), "{best}");
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut gui = Gui::new();
    gui.send("go depth 4 searchmoves a3-b4 g3-h4");
    let (lines, best) = gui.bestmove();
    assert!(best == "a3-b4" || best == "g3-h4", "{best}");
    assert!(
        depth_infos(&lines)
            .iter()
            .all(|l| ["a3-b4", "g3-h4"].contains(&pv(l)[0]))
    );
}

#[test]
fn commands_during_a_search_wait_their_turn() {
    let mut gui = Gui::new();
    gui.send("go infinite");
    gui.send("position startpos moves g3-h4");
    gui.send("d");
    gui.send("go depth 2");
    assert!(
        gui.non_info_within(Duration::from_millis(300)).is_empty(),
        "{}",
        gui.dump()
    );
    gui.send("stop");
    let (_, first) = gui.bestmove();
    assert!(legal(&game(&[]), &first));
    let fen = gui.until(|l| l.starts_with("FEN: ")).pop().unwrap();
    assert!(
        fen.contains("/w1w1w3/"),
        "queued position not applied: {fen}"
    );
    let (_, second) = gui.bestmove();
    assert!(legal(&game(&["g3-h4"]), &second), "{second}");
}

#[test]
fn end_of_input_finishes_the_search() {
    // A running infinite search is stopped, its bestmove printed, exit code 0.
    let mut gui = Gui::new();
    gui.send("go infinite");
    gui.non_info_within(Duration::from_millis(200));
    gui.close();
    let (_, best) = gui.bestmove();
    assert!(legal(&game(&[]), &best));
    assert!(gui.wait_exit().success());
    // A limited search runs to its end first; queued commands still run.
    let (code, out, _) = run_to_end(&[], "position startpos\ngo depth 4\nd\n");
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.starts_with("info depth 4 ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("White to move"),
        "{out}"
    );
    // `quit` during a search: bestmove, then exit.
    let mut gui = Gui::new();
    gui.send("go infinite");
    gui.send("quit");
    gui.bestmove();
    assert!(gui.wait_exit().success());
    // A bare `go` runs until stopped, so end of input stops it too.
    let (code, out, _) = run_to_end(&[], "go\n");
    assert_eq!(code, 0);
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );
}

#[test]
fn end_of_input_stops_a_mate_search_without_a_short_enough_win() {
    // No win in 2 from the start: only `stop` (or end of input) can end this search. Before
    // the fix it ran on after end of input (run_to_end gives up after DEADLINE).
    let (code, out, _) = run_to_end(&[], "position startpos\ngo mate 2\n");
    assert_eq!(code, 0);
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );
    // Queued behind another command, it is stopped as soon as it starts.
    let (code, out, _) = run_to_end(&[], "go depth 2\ngo mate 1\n");
    assert_eq!(code, 0);
    let answers = out.lines().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(answers, 2, "{out}");
}

#[test]
fn perft_counts_the_reference() {
    let mut gui = Gui::new();
    gui.send("go perft 3");
    let lines = gui.until(|l| l.starts_with("nodes "));
    assert_eq!(lines.last().unwrap(), "nodes 302");
    assert_eq!(lines.len(), 8, "{lines:?}");
    let sum: u64 = lines[..7]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 302);
    // Worked example 2 of the rules: three captures by the king.
    gui.send("position fen 8/8/3(bb)1(bb)2/8/1W1(bb)1(bb)2/8/8/8 w");
    gui.send("go perft 1");
    let lines = gui.until(|l| l.starts_with("nodes "));
    assert_eq!(lines.last().unwrap(), "nodes 3");
    assert!(
        lines.contains(&"b4:e7:g5:e3:c5:e7:g5:e3:a7 1".to_string()),
        "{lines:?}"
    );
}

#[test]
fn d_shows_towers_and_eval_shows_terms() {
    let mut gui = Gui::new();
    gui.send("position fen 8/8/8/6B1/1b1b4/6b1/8/W7 w moves a1:f6:h4:e1:a5");
    gui.send("d");
    let board = gui.until(|l| l == "Black to move; 0 plies since the last capture; move 1");
    let rank5 = board.iter().find(|l| l.starts_with(" 5 ")).unwrap();
    assert!(rank5.contains("(WbBbb)"), "{board:?}");
    assert!(
        board.contains(&"FEN: 8/8/8/(WbBbb)7/8/8/8/8 b 0 1".to_string()),
        "{board:?}"
    );
    gui.send("eval");
    let report = gui.until(|l| l.starts_with("Evaluation: "));
    for term in ["material", "prisoners", "mobility", "tempo", "total"] {
        assert!(
            report.iter().any(|l| l.starts_with(term)),
            "{term} missing: {report:?}"
        );
    }
    // Black has no commander: the prisoners still count for Black.
    let prisoners = report.iter().find(|l| l.starts_with("prisoners")).unwrap();
    assert!(
        prisoners
            .split_whitespace()
            .nth(2)
            .unwrap()
            .parse::<i32>()
            .unwrap()
            > 0
    );
}

#[test]
fn analyse_prints_board_depths_and_best_move() {
    let (code, out, _) = run_to_end(&["analyse", "--depth", "6", "--moves", "c3-d4"], "");
    assert_eq!(code, 0);
    assert!(out.contains("FEN: 1b1b1b1b/b1b1b1b1/1b1b1b1b/8/3w4/w3w1w1/1w1w1w1w/w1w1w1w1 b 1 1"));
    let depths: Vec<&str> = out
        .lines()
        .filter(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .filter(|l| l.trim_end().ends_with(|c: char| c.is_ascii_alphanumeric()) && l.contains('s'))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert!(depths.ends_with(&["6"]), "{out}");
    let best = out.lines().last().unwrap();
    assert!(best.starts_with("Best move: "), "{out}");
    let mv = best["Best move: ".len()..]
        .split([',', ' '])
        .next()
        .unwrap();
    assert!(legal(&game(&["c3-d4"]), mv), "{mv}");
}

#[test]
fn analyse_limits_multipv_and_errors() {
    // FEN as separate words, movetime, two lines per depth.
    let args = [
        "analyse",
        "8/8/8/6B1/1b1b4/6b1/8/W7",
        "w",
        "--multipv",
        "2",
        "--movetime",
        "300",
    ];
    let (code, out, _) = run_to_end(&args, "");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("depth line"), "{out}");
    let best = out.lines().last().unwrap();
    assert!(best.starts_with("Best move: a1:"), "{out}");
    // --infinite stops when input ends.
    let (code, out, _) = run_to_end(&["analyse", "--infinite"], "");
    assert_eq!(code, 0);
    assert!(
        out.lines().last().unwrap().starts_with("Best move: "),
        "{out}"
    );
    // Bad FEN, bad move, conflicting limits.
    let (code, _, err) = run_to_end(&["analyse", "8/8/8 w"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("bad FEN '8/8/8 w': board has 3 ranks"),
        "{err}"
    );
    let (code, _, err) = run_to_end(&["analyse", "--moves", "c3-c4"], "");
    assert_eq!(code, 2);
    assert!(err.contains("move 1 of --moves"), "{err}");
    let (code, _, _) = run_to_end(&["analyse", "--depth", "3", "--infinite"], "");
    assert_ne!(code, 0);
    // No legal move.
    let (code, out, _) = run_to_end(&["analyse", "8/8/8/8/8/8/8/b7 w", "--depth", "3"], "");
    assert_eq!(code, 0);
    assert!(
        out.lines().last().unwrap().starts_with("No legal move"),
        "{out}"
    );
}

#[test]
fn help_explains_with_examples() {
    let (code, out, _) = run_to_end(&["analyse", "--help"], "");
    assert_eq!(code, 0);
    assert!(
        out.contains("Examples:") && out.contains("bashni analyse startpos --moves"),
        "{out}"
    );
    for flag in [
        "--moves",
        "--depth",
        "--movetime",
        "--infinite",
        "--multipv",
        "--threads",
        "--hash",
    ] {
        assert!(out.contains(flag), "{flag} missing from help");
    }
    let (code, out, _) = run_to_end(&["--help"], "");
    assert_eq!(code, 0);
    assert!(out.contains("analyse"), "{out}");
}

/// Not a test: measures the latency targets of engine-protocol.md and prints them.
/// Run with `cargo test --profile suite -- --ignored --nocapture protocol::latency`.
#[test]
#[ignore]
fn latency_figures() {
    common::latency::report();
}
