//! The protocol commands a GUI that does not know the rules relies on: `moves` (the legal
//! moves of the current position) and `state` (turn, result and why, the 30-ply counter,
//! the repetition count, the FEN). The real binary is driven as such a GUI drives it, and
//! every answer is checked against the library's own rules.

use crate::common;

use bashni::games::bashni::game::{Game, Outcome};
use bashni::games::bashni::movegen::legal_moves;
use bashni::games::bashni::notation::{START_FEN, to_fen};
use bashni::games::kit::color::Color;
use common::gui::Gui;
use std::collections::HashMap;
use std::time::Duration;

/// The fields of a `state` line: every `key value` pair, and the FEN (the rest after `fen`).
fn parse_state(line: &str) -> (HashMap<String, String>, String) {
    let body = line.strip_prefix("state ").expect(line);
    let (pairs, fen) = body.split_once(" fen ").expect(line);
    let words: Vec<&str> = pairs.split(' ').collect();
    assert_eq!(words.len() % 2, 0, "{line}");
    let map = words
        .chunks(2)
        .map(|kv| (kv[0].to_string(), kv[1].to_string()))
        .collect();
    (map, fen.to_string())
}

/// Asks for `moves` and `state` and checks both against `game`; returns the moves.
fn check_against(gui: &mut Gui, game: &Game) -> Vec<String> {
    gui.send("moves");
    let moves_line = gui.until(|l| l.starts_with("moves")).pop().unwrap();
    let mut expected: Vec<String> = legal_moves(game.position())
        .iter()
        .map(|m| m.to_string())
        .collect();
    expected.sort();
    let listed: Vec<String> = moves_line
        .split(' ')
        .skip(1)
        .filter(|w| *w != "(none)")
        .map(str::to_string)
        .collect();
    assert_eq!(listed, expected, "{moves_line}");
    if expected.is_empty() {
        assert_eq!(moves_line, "moves (none)");
    }

    gui.send("state");
    let state = gui.until(|l| l.starts_with("state ")).pop().unwrap();
    let (f, fen) = parse_state(&state);
    let pos = game.position();
    assert_eq!(fen, to_fen(pos), "{state}");
    let turn = if pos.side() == Color::White { "w" } else { "b" };
    assert_eq!(f["turn"], turn, "{state}");
    assert_eq!(f["plies30"], pos.clock().to_string(), "{state}");
    assert_eq!(f["repetitions"], game.repetitions().to_string(), "{state}");
    let (result, reason) = match game.outcome() {
        None => ("none", "none"),
        Some(Outcome::NoLegalMove(Color::White)) => ("1-0", "no-legal-move"),
        Some(Outcome::NoLegalMove(Color::Black)) => ("0-1", "no-legal-move"),
        Some(Outcome::Repetition) => ("1/2-1/2", "threefold-repetition"),
        Some(Outcome::ClockRule) => ("1/2-1/2", "30-ply-rule"),
        Some(Outcome::KingAgainstMan(_)) => unreachable!("a Turkish rule, not Bashni's"),
    };
    assert_eq!(
        (f["result"].as_str(), f["reason"].as_str()),
        (result, reason)
    );
    assert_eq!(f.len(), 5, "{state}");
    listed
}

#[test]
fn a_gui_plays_a_whole_game_from_moves_and_state_alone() {
    let mut gui = Gui::new();
    let mut game = Game::from_fen_and_moves(START_FEN, &[] as &[&str]).unwrap();
    let mut played: Vec<String> = Vec::new();
    // Each ply: the GUI picks from the engine's list (the last move, so that captures and
    // kings come up), sends the whole game, and asks again.
    for ply in 0..400 {
        let listed = check_against(&mut gui, &game);
        if game.outcome().is_some() {
            assert!(ply > 10, "ended too soon: {played:?}");
            return;
        }
        let pick = listed[(ply * 7) % listed.len()].clone();
        game.play_text(&pick).unwrap();
        played.push(pick);
        gui.send(&format!("position startpos moves {}", played.join(" ")));
    }
    panic!("no end of game in 400 plies: {played:?}");
}

#[test]
fn state_reports_each_way_a_game_ends() {
    let mut gui = Gui::new();
    let cases: [(&str, &[&str], &str); 4] = [
        // No legal move: White's only man is blocked, Black has won.
        (
            "8/8/8/8/8/2b5/1b6/w7 w",
            &[],
            "result 0-1 reason no-legal-move",
        ),
        // Threefold repetition: two kings walk back and forth twice.
        (
            "8/8/8/8/8/8/7B/W7 w",
            &[
                "a1-b2", "h2-g1", "b2-a1", "g1-h2", "a1-b2", "h2-g1", "b2-a1", "g1-h2",
            ],
            "result 1/2-1/2 reason threefold-repetition plies30 8 repetitions 3",
        ),
        // The 30-ply rule: the 30th ply without a capture.
        (
            "8/8/8/8/8/8/7B/W7 b 29 40",
            &["h2-g1"],
            "result 1/2-1/2 reason 30-ply-rule plies30 30 repetitions 1",
        ),
        // A game that goes on, after a capture.
        (
            START_FEN,
            &["c3-d4", "f6-e5", "d4:f6", "g7:e5"],
            "turn w result none reason none plies30 0 repetitions 1",
        ),
    ];
    for (fen, moves, expected) in cases {
        let game = Game::from_fen_and_moves(fen, moves).unwrap();
        let moves_part = if moves.is_empty() {
            String::new()
        } else {
            format!(" moves {}", moves.join(" "))
        };
        gui.send(&format!("position fen {fen}{moves_part}"));
        check_against(&mut gui, &game);
        let state = gui.transcript.last().unwrap().clone();
        assert!(state.contains(expected), "{fen}: {state}");
    }
}

#[test]
fn moves_and_state_wait_for_the_search_and_refuse_arguments() {
    let mut gui = Gui::new();
    gui.send("position startpos moves c3-d4");
    gui.send("go infinite");
    gui.send("moves");
    gui.send("state");
    // Queued behind the search like `d`: nothing but search output until `stop`.
    let said = gui.non_info_within(Duration::from_millis(300));
    assert!(said.is_empty(), "{said:?}");
    gui.send("stop");
    gui.bestmove();
    let next = gui.until(|l| l.starts_with("state "));
    assert!(next[0].starts_with("moves "), "{next:?}");
    assert!(next[1].starts_with("state turn b "), "{next:?}");
    gui.send("moves c3-d4");
    gui.send("state now");
    gui.send("isready");
    let lines = gui.until_line("readyok");
    assert_eq!(
        lines,
        [
            "info string error: moves: takes no arguments, got 'c3-d4'",
            "info string error: state: takes no arguments, got 'now'",
            "readyok"
        ]
    );
    // An illegal `position` leaves the game, and so its state, as it was.
    gui.send("position startpos moves c3-d4 c3-d4");
    gui.until(|l| l.starts_with("info string error: position: move 2"));
    let game = Game::from_fen_and_moves(START_FEN, &["c3-d4"]).unwrap();
    check_against(&mut gui, &game);
}
