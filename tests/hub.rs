//! `bashni hub` driven as a GUI drives a Hub engine: the handshake, every command, strict
//! `key=value` answers, `error` for bad input with the engine still working, `go`/`stop`/
//! `done` order, pondering, both move numberings and scores in men.

use crate::common;

use common::gui::Gui;

mod egdb;

/// Whether a line is an answer word then strict `key=value` tokens (values may be quoted).
fn strict(line: &str) -> bool {
    let (_, mut rest) = line.split_once(' ').unwrap_or((line, ""));
    while !rest.is_empty() {
        let Some((key, after)) = rest.split_once('=') else {
            return false;
        };
        if key.is_empty() || key.contains([' ', '"']) {
            return false;
        }
        let tail = if let Some(q) = after.strip_prefix('"') {
            match q.split_once('"') {
                Some((_, t)) => t,
                None => return false,
            }
        } else {
            &after[after.find(' ').unwrap_or(after.len())..]
        };
        if !(tail.is_empty() || tail.starts_with(' ')) {
            return false;
        }
        rest = tail.trim_start();
    }
    true
}

/// The value of `key` in a line of tokens (unquoted).
fn get(line: &str, key: &str) -> Option<String> {
    let at = line.find(&format!(" {key}="))? + key.len() + 2;
    let rest = &line[at..];
    Some(match rest.strip_prefix('"') {
        Some(q) => q.split('"').next().unwrap_or("").to_string(),
        None => rest.split(' ').next().unwrap_or("").to_string(),
    })
}

/// A started Hub engine after `hub` and `init`; the handshake's lines.
fn start(args: &[&str]) -> (Gui, Vec<String>) {
    let mut all = vec!["hub"];
    all.extend_from_slice(args);
    let mut g = Gui::start(&all);
    g.send("hub");
    let lines = g.until_line("wait");
    g.send("init");
    g.until_line("ready");
    (g, lines)
}

/// `go think` answered: the info lines and the `done` line.
fn think(g: &mut Gui) -> (Vec<String>, String) {
    g.send("go think");
    let mut lines = g.until(|l| l.starts_with("done"));
    let done = lines.pop().unwrap();
    (lines, done)
}

/// Sends `ping` and checks that `pong` comes with no `error` before it.
fn no_error(g: &mut Gui) {
    g.send("ping");
    let lines = g.until_line("pong");
    assert!(
        !lines.iter().any(|l| l.starts_with("error")),
        "{}",
        g.dump()
    );
}

#[test]
fn handshake_declares_games_and_parameters() {
    let (mut g, lines) = start(&[]);
    assert!(lines[0].starts_with("id name=bashni version="), "{lines:?}");
    assert!(
        lines.contains(
            &"param name=variant value=russian type=enum values=\"russian brazilian turkish\""
                .to_string()
        )
    );
    assert!(
        lines.contains(
            &"param name=move-numbering value=top type=enum values=\"top a1\"".to_string()
        )
    );
    assert!(lines.iter().any(|l| l.starts_with("param name=threads ")));
    assert!(lines.iter().all(|l| strict(l)), "{lines:?}");
    g.send("quit");
    assert!(g.wait_exit().success());
    // Turkish first; Bashni has no Hub encoding.
    let (_, lines) = start(&["--variant", "turkish"]);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("param name=variant value=turkish "))
    );
    let mut g = Gui::start(&["hub", "--variant", "bashni"]);
    assert!(!g.wait_exit().success());
}

#[test]
fn plays_a_russian_game_as_pydraughts_sends_it() {
    let (mut g, _) = start(&[]);
    g.send("set-param name=variant value=russian");
    g.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"22-17\"");
    g.send("level depth=5");
    let (infos, done) = think(&mut g);
    assert!(
        !infos.is_empty() && infos.iter().all(|l| strict(l)),
        "{infos:?}"
    );
    let last = infos.last().unwrap();
    for key in ["depth", "score", "nodes", "time", "pv"] {
        assert!(get(last, key).is_some(), "{key} in {last}");
    }
    assert!(strict(&done), "{done}");
    let best = get(&done, "move").unwrap();
    // The move is legal: the next `pos` with it is accepted.
    g.send(&format!("pos moves=\"22-17 {best}\""));
    no_error(&mut g);
    // A clock, as pydraughts sends it; then a move time and a node count.
    g.send("level time=0.95 inc=0.05");
    assert!(think(&mut g).1.starts_with("done move="));
    g.send("level move-time=0.05");
    assert!(think(&mut g).1.starts_with("done move="));
    g.send("level nodes=2000");
    assert!(think(&mut g).1.starts_with("done move="));
    g.send("new-game");
    g.send("quit");
    assert!(g.wait_exit().success());
}

#[test]
fn bad_input_gets_error_and_the_engine_goes_on() {
    let (mut g, _) = start(&[]);
    for bad in [
        "uci",
        "level depth=x",
        "level speed=3",
        "go",
        "pos pos=Wbbb",
        "pos moves=\"22-19\"",
        "pos moves=\"22-17",
        "set-param name=variant value=bashni",
        "set-param name=move-numbering value=middle",
        "set-param name=colour value=red",
    ] {
        g.send(bad);
        g.send("ping");
        let lines = g.until_line("pong");
        assert_eq!(lines.len(), 2, "{bad}: {lines:?}");
        assert!(
            lines[0].starts_with("error message=") && strict(&lines[0]),
            "{lines:?}"
        );
    }
    g.send("set-param name=threads value=1");
    g.send("set-param name=initial-time value=180.0"); // lidraughts-bot sends it
    g.send("set-param name=hash value=8");
    no_error(&mut g);
    g.send("pos");
    g.send("level depth=3");
    assert!(think(&mut g).1.starts_with("done move="));
}

/// An `error` line is one line of at most 1,000 characters of message, quoting at most 200
/// characters of the input, whatever the input (a bad value of a megabyte was echoed whole).
#[test]
fn error_lines_are_bounded_whatever_the_input() {
    let (mut g, _) = start(&[]);
    let big = "x".repeat(900_000);
    for bad in [
        big.clone(),
        format!("pos pos={big}"),
        format!("pos moves=\"{big}\""),
        format!("level depth={big}"),
        format!("set-param name=variant value={big}"),
        format!("set-param name=colour value={big}"),
        format!("set-param name={big} value=1"),
        format!("set-param name=move-numbering value={big}"),
    ] {
        g.send(&bad);
        g.send("ping");
        let lines = g.until_line("pong");
        assert_eq!(lines.len(), 2, "{}", &bad[..40]);
        let e = &lines[0];
        assert!(e.starts_with("error message=") && strict(e), "{e}");
        let message = get(e, "message").unwrap();
        assert!(message.chars().count() <= 1000, "{}: {e}", &bad[..40]);
        assert!(!e.contains(&"x".repeat(201)), "{}: {e}", &bad[..40]);
    }
    no_error(&mut g);
}

#[test]
fn stop_ends_analysis_and_every_go_gets_one_done_in_order() {
    let (mut g, _) = start(&[]);
    g.send("pos");
    g.send("level depth=3");
    g.send("go analyze");
    g.until(|l| l.starts_with("info"));
    g.send("stop");
    g.send("go think");
    let lines = g.until(|l| l.starts_with("done"));
    assert!(lines.last().unwrap().starts_with("done move="));
    let second = g.until(|l| l.starts_with("done"));
    assert!(
        second.last().unwrap().starts_with("done move="),
        "{}",
        g.dump()
    );
    // `stop` also ends a `go` still queued behind a running one.
    g.send("level infinite");
    g.send("go think");
    g.send("go think");
    g.send("stop");
    g.until(|l| l.starts_with("done"));
    g.until(|l| l.starts_with("done"));
    no_error(&mut g);
    // Pondering: no answer before `ponder-hit`, then the level's move time.
    g.send("level move-time=0.2");
    g.send("go ponder");
    assert_eq!(
        g.non_info_within(std::time::Duration::from_millis(400)),
        Vec::<String>::new()
    );
    g.send("ponder-hit");
    assert!(
        g.until(|l| l.starts_with("done"))
            .last()
            .unwrap()
            .starts_with("done move=")
    );
    // End of input stops a search only `stop` would end; its `done` still comes.
    g.send("go analyze");
    g.close();
    g.until(|l| l.starts_with("done"));
    assert!(g.wait_exit().success());
}

/// Brazilian draughts through Hub, as lidraughts-bot sets it (`variant` `brazilian`): the
/// capture that takes the most pieces is the one answered, and a shorter one sent is refused.
#[test]
fn brazilian_through_hub_takes_the_most_pieces() {
    let (mut g, _) = start(&[]);
    g.send("set-param name=variant value=brazilian");
    // White c3 (22) may take b4 (17) alone or d4 (18) and f6 (11): 8/8/5b2/8/1b1b4/2w5/8/8 w.
    let mut squares = vec!['e'; 32];
    for (n, c) in [(11, 'b'), (17, 'b'), (18, 'b'), (22, 'w')] {
        squares[n - 1] = c;
    }
    let pos: String = squares.into_iter().collect();
    g.send(&format!("pos pos=W{pos}"));
    g.send("level depth=2");
    let m = get(&think(&mut g).1, "move").unwrap();
    assert!(m == "22x8x11x18" || m == "22x8x18x11", "{m}");
    g.send(&format!("pos pos=W{pos} moves=\"22x13x17\""));
    g.send("ping");
    let lines = g.until_line("pong");
    assert!(lines[0].starts_with("error message="), "{lines:?}");
    g.close();
    assert!(g.wait_exit().success());
}

#[test]
fn both_numberings_in_turkish() {
    let (mut g, _) = start(&[]);
    g.send("set-param name=variant value=turkish");
    // a3-a4: 41-33 from the top, 17-25 from a1.
    g.send("pos moves=\"41-33\"");
    g.send("level depth=3");
    let top = get(&think(&mut g).1, "move").unwrap();
    g.send(&format!("pos moves=\"41-33 {top}\""));
    no_error(&mut g);
    g.send("set-param name=move-numbering value=a1");
    g.send("pos moves=\"17-25\"");
    let a1 = get(&think(&mut g).1, "move").unwrap();
    g.send(&format!("pos moves=\"17-25 {a1}\""));
    no_error(&mut g);
    // The same move in both numberings: square n from the top is 65 - n ... mirrored by rank.
    let mirror = |m: &str| -> String {
        let flip = |n: u32| {
            let (row, col) = ((n - 1) / 8, (n - 1) % 8);
            (7 - row) * 8 + col + 1
        };
        let sep = if m.contains('x') { 'x' } else { '-' };
        let parts: Vec<String> = m
            .split(sep)
            .map(|s| flip(s.parse().unwrap()).to_string())
            .collect();
        parts.join(&sep.to_string())
    };
    assert_eq!(mirror(&top), a1, "{}", g.dump());
    g.send("pos moves=\"41-33\"");
    g.send("ping");
    let lines = g.until_line("pong");
    assert!(lines[0].starts_with("error message="), "{lines:?}");
}

#[test]
fn a_won_position_scores_above_ninety_men() {
    let (mut g, _) = start(&[]);
    // Russian, White to move: a man on c3 (22 from the top) takes Black's last man on d4 (18).
    let mut squares = vec!['e'; 32];
    squares[21] = 'w';
    squares[17] = 'b';
    let pos: String = squares.into_iter().collect();
    g.send(&format!("pos pos=W{pos}"));
    g.send("level depth=4");
    let (infos, done) = think(&mut g);
    assert_eq!(get(&done, "move").as_deref(), Some("22x15x18"), "{done}");
    let score: f64 = get(infos.last().unwrap(), "score")
        .unwrap()
        .parse()
        .unwrap();
    assert!(score > 90.0, "{infos:?}");
    // Lost: White has no piece, so no move; `done` alone.
    let lost: String = (0..32).map(|i| if i == 17 { 'b' } else { 'e' }).collect();
    g.send(&format!("pos pos=W{lost}"));
    assert_eq!(think(&mut g).1, "done");
}
