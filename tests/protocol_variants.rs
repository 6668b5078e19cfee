//! The protocol in every game (issue 19): `setoption name UCI_Variant value <game>` switches
//! the game the session plays, and every command then reads and writes that game's FEN and
//! moves and applies its rules. The real binary is driven as a GUI drives it, and every
//! answer is checked against the library's own rules for the game.

use crate::common;

use bashni::games::kit::Color;
use bashni::games::{Game, Outcome, Record, Rules, brazilian, russian, turkish};
use common::gui::{Gui, run_to_end};

/// The legal moves of `G`'s position after `moves` from its start, as texts.
fn legal_after<G: Game>(moves: &[&str]) -> Vec<String> {
    let game = Record::<G>::from_fen_and_moves(G::START_FEN, moves).unwrap();
    let mut texts: Vec<String> = game
        .position()
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    texts.sort();
    texts
}

/// Pipes `uci`, the switch to `variant`, `position startpos` and `go depth 8` into the
/// engine and checks that its `bestmove` is a legal move of `G`'s start position.
fn answers_a_legal_start_move<G: Game>(variant: &str) {
    let input =
        format!("uci\nsetoption name UCI_Variant value {variant}\nposition startpos\ngo depth 8\n");
    let (code, out, _) = run_to_end(&[], &input);
    assert_eq!(code, 0);
    assert!(
        out.lines().any(|l| l
            == "option name UCI_Variant type combo default bashni var bashni var turkish var russian var brazilian var lasca"),
        "{out}"
    );
    assert!(!out.contains("error"), "{out}");
    let last = out.lines().last().unwrap();
    let best = last.strip_prefix("bestmove ").expect(last);
    let best = best.split_whitespace().next().unwrap();
    assert!(legal_after::<G>(&[]).contains(&best.to_string()), "{last}");
    assert!(out.contains("info depth 8 "), "{out}");
}

#[test]
fn turkish_from_a_pipe() {
    answers_a_legal_start_move::<turkish::Position>("turkish");
}

#[test]
fn russian_from_a_pipe() {
    answers_a_legal_start_move::<russian::Position>("russian");
}

/// The `moves` answer.
fn moves(gui: &mut Gui) -> Vec<String> {
    gui.send("moves");
    let line = gui.until(|l| l.starts_with("moves")).pop().unwrap();
    line.split(' ')
        .skip(1)
        .filter(|w| *w != "(none)")
        .map(str::to_string)
        .collect()
}

/// The `state` answer.
fn state(gui: &mut Gui) -> String {
    gui.send("state");
    gui.until(|l| l.starts_with("state ")).pop().unwrap()
}

#[test]
fn switching_back_and_forth() {
    let mut gui = Gui::new();
    gui.handshake();
    // Bashni is the default game.
    assert_eq!(
        moves(&mut gui),
        legal_after::<bashni::games::bashni::Position>(&[])
    );
    gui.send("setoption name UCI_Variant value turkish");
    assert_eq!(moves(&mut gui), legal_after::<turkish::Position>(&[]));
    gui.send("position startpos moves d3-d4 e6-e5");
    assert_eq!(
        moves(&mut gui),
        legal_after::<turkish::Position>(&["d3-d4", "e6-e5"])
    );
    // A switch starts a new game of the new variant, like ucinewgame.
    gui.send("setoption name UCI_Variant value Russian");
    assert_eq!(moves(&mut gui), legal_after::<russian::Position>(&[]));
    // A Turkish move is not a Russian one: the position stays.
    gui.send("position startpos moves d3-d4");
    let e = gui.until(|l| l.starts_with("info string")).pop().unwrap();
    assert!(
        e.starts_with("info string error: position: move 1 of the moves list: "),
        "{e}"
    );
    gui.send("position startpos moves c3-d4 f6-e5 d4:f6");
    assert_eq!(
        moves(&mut gui),
        legal_after::<russian::Position>(&["c3-d4", "f6-e5", "d4:f6"])
    );
    // Russian removes the captured man where Bashni would build a tower.
    let s = state(&mut gui);
    assert!(
        s.ends_with(" fen 1b1b1b1b/b1b1b1b1/1b1b1w1b/8/8/w3w1w1/1w1w1w1w/w1w1w1w1 b 0 2"),
        "{s}"
    );
    gui.send("setoption name UCI_Variant value bashni");
    assert_eq!(
        moves(&mut gui),
        legal_after::<bashni::games::bashni::Position>(&[])
    );
    gui.send("setoption name UCI_Variant value turkish");
    gui.send("ucinewgame");
    gui.send("go depth 3");
    let (_, best) = gui.bestmove();
    assert!(
        legal_after::<turkish::Position>(&[]).contains(&best),
        "{best}"
    );
}

#[test]
fn a_switch_waits_for_the_running_search() {
    let mut gui = Gui::new();
    gui.handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.send("setoption name UCI_Variant value turkish");
    gui.send("moves");
    gui.send("stop");
    let (_, best) = gui.bestmove();
    // The search was Bashni's; the switch and `moves` came after it.
    assert!(
        legal_after::<bashni::games::bashni::Position>(&[]).contains(&best),
        "{best}"
    );
    let line = gui.until(|l| l.starts_with("moves")).pop().unwrap();
    assert_eq!(
        line,
        format!("moves {}", legal_after::<turkish::Position>(&[]).join(" "))
    );
}

#[test]
fn a_bad_variant_is_refused_and_the_game_stays() {
    let mut gui = Gui::new();
    gui.send("setoption name UCI_Variant value turkish");
    gui.send("position startpos moves a3-a4");
    gui.send("setoption name UCI_Variant value chess");
    gui.send("setoption name UCI_Variant");
    gui.send("isready");
    let said = gui.until_line("readyok");
    assert_eq!(
        said,
        [
            "info string error: setoption: option 'UCI_Variant' needs bashni, turkish, russian, \
             brazilian or lasca, got 'chess'; not changed",
            "info string error: setoption: option 'UCI_Variant' needs 'value <x>'",
            "readyok"
        ]
    );
    assert_eq!(
        moves(&mut gui),
        legal_after::<turkish::Position>(&["a3-a4"])
    );
}

/// `go perft <depth>`'s total in the game `variant`.
fn perft(variant: &str, depth: u32) -> u64 {
    let input = format!("setoption name UCI_Variant value {variant}\ngo perft {depth}\n");
    let (_, out, _) = run_to_end(&[], &input);
    let last = out.lines().last().unwrap();
    last.strip_prefix("nodes ").expect(last).parse().unwrap()
}

#[test]
fn perft_in_each_game() {
    // docs/rules-turkish.md, docs/rules-russian.md and docs/rules-brazilian.md.
    assert_eq!(perft("turkish", 4), 7538);
    assert_eq!(perft("russian", 5), 7482);
    assert_eq!(perft("brazilian", 5), 7473);
}

/// Checks `moves` and `state` against the library along a game of `G` whose moves are
/// picked by a fixed rule (the k-th legal move at ply k), sent with `position` each time.
fn moves_and_state_along_a_game<G: Game>(variant: &str, plies: usize) {
    let mut gui = Gui::new();
    gui.send(&format!("setoption name UCI_Variant value {variant}"));
    let mut game = Record::new(G::startpos());
    let mut played: Vec<String> = Vec::new();
    for ply in 0..=plies {
        gui.send(&format!("position startpos moves {}", played.join(" ")));
        let mut legal: Vec<String> = game
            .position()
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        legal.sort();
        assert_eq!(moves(&mut gui), legal, "{variant} after {played:?}");
        let s = state(&mut gui);
        let turn = match game.position().side_to_move() {
            Color::White => "w",
            Color::Black => "b",
        };
        let want = format!(
            "state turn {turn} result none reason none plies30 {} repetitions {} fen {}",
            game.position().clock(),
            game.repetitions(),
            game.position().to_fen()
        );
        assert_eq!(s, want);
        if game.outcome().is_some() || ply == plies {
            break;
        }
        let m = legal[ply % legal.len()].clone();
        game.play_text(&m).unwrap();
        played.push(m);
    }
}

#[test]
fn moves_and_state_in_each_game() {
    moves_and_state_along_a_game::<turkish::Position>("turkish", 12);
    moves_and_state_along_a_game::<russian::Position>("russian", 12);
    moves_and_state_along_a_game::<brazilian::Position>("brazilian", 12);
    moves_and_state_along_a_game::<bashni::games::bashni::Position>("bashni", 12);
}

#[test]
fn each_game_ends_by_its_own_rules_in_state() {
    let mut gui = Gui::new();
    gui.send("setoption name UCI_Variant value turkish");
    // White's king takes the second black man: one king against one man wins for White,
    // though Black could still move.
    gui.send("position fen 8/8/8/8/8/8/b6b/W7 w moves a1:a3");
    assert_eq!(
        state(&mut gui),
        "state turn b result 1-0 reason king-against-man plies30 0 repetitions 1 fen \
         8/8/8/8/8/W7/7b/8 b 0 1"
    );
    let game = Record::<turkish::Position>::from_fen_and_moves("8/8/8/8/8/8/b6b/W7 w", &["a1:a3"])
        .unwrap();
    assert_eq!(game.outcome(), Some(Outcome::KingAgainstMan(Color::White)));
    // The search sees that capture as the win it is.
    gui.send("position fen 8/8/8/8/8/8/b6b/W7 w");
    gui.send("go depth 3");
    let (lines, best) = gui.bestmove();
    assert_eq!(best, "a1:a3");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    // Turkish kings shuffling: 50 plies without a capture or a man's move.
    gui.send("position fen 8/8/8/3B4/8/8/8/W6W w 49 30 moves a1-a2");
    let s = state(&mut gui);
    assert!(
        s.starts_with("state turn b result 1/2-1/2 reason 50-ply-rule plies30 50 "),
        "{s}"
    );
    // Russian: 30 plies of kings' moves without a capture (15 moves each).
    gui.send("setoption name UCI_Variant value russian");
    gui.send("position fen 8/8/8/8/8/8/7B/W7 w 29 40 moves a1-b2");
    let s = state(&mut gui);
    assert!(
        s.starts_with("state turn b result 1/2-1/2 reason 15-move-king-rule plies30 30 "),
        "{s}"
    );
    // Brazilian: 40 plies of kings' moves without a capture (20 moves each); 30 are not
    // enough.
    gui.send("setoption name UCI_Variant value brazilian");
    gui.send("position fen 8/8/8/8/8/8/7B/W7 w 29 40 moves a1-b2");
    let s = state(&mut gui);
    assert!(s.starts_with("state turn b result none "), "{s}");
    gui.send("position fen 8/8/8/8/8/8/7B/W7 w 39 40 moves a1-b2");
    let s = state(&mut gui);
    assert!(
        s.starts_with("state turn b result 1/2-1/2 reason 20-move-king-rule plies30 40 "),
        "{s}"
    );
}

/// The move after `bestmove`, checked legal in `G`'s position `fen`.
fn legal_best<G: Game>(gui: &mut Gui, fen: &str) -> Vec<String> {
    let (lines, best) = gui.bestmove();
    let pos = G::from_fen(fen).unwrap();
    let m = pos
        .parse_move(&best)
        .unwrap_or_else(|e| panic!("bestmove {best}: {e}\n{}", gui.dump()));
    assert_eq!(m.to_string(), best);
    lines
}

/// Every form of `go` in the game `variant`, after `moves` from its start.
fn every_go<G: Game>(variant: &str, moves: &[&str]) {
    let game = Record::<G>::from_fen_and_moves(G::START_FEN, moves).unwrap();
    let fen = &game.position().to_fen();
    let mut gui = Gui::new();
    gui.send(&format!("setoption name UCI_Variant value {variant}"));
    gui.send(&format!("position startpos moves {}", moves.join(" ")));
    for go in [
        "go depth 4",
        "go nodes 3000",
        "go movetime 30",
        "go wtime 2000 btime 2000 winc 20 binc 20",
        "go btime 500",
    ] {
        gui.send(go);
        legal_best::<G>(&mut gui, fen);
    }
    gui.send("go infinite");
    gui.send("stop");
    legal_best::<G>(&mut gui, fen);
    gui.send("go ponder depth 3");
    gui.send("ponderhit");
    legal_best::<G>(&mut gui, fen);
    let legal: Vec<String> = G::from_fen(fen)
        .unwrap()
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    let chosen = &legal[legal.len() - 2..];
    gui.send(&format!("go depth 4 searchmoves {}", chosen.join(" ")));
    let (_, best) = gui.bestmove();
    assert!(chosen.contains(&best), "{best} not in {chosen:?}");
    gui.send("setoption name MultiPV value 2");
    gui.send("go depth 3");
    let lines = legal_best::<G>(&mut gui, fen);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 3 ") && l.contains(" multipv 2 ")),
        "{lines:?}"
    );
    gui.send("setoption name MultiPV value 1");
    gui.send("go mate 1 depth 2");
    legal_best::<G>(&mut gui, fen);
    gui.send("go perft 2");
    let count = gui.until(|l| l.starts_with("nodes ")).pop().unwrap();
    assert_eq!(
        count,
        format!("nodes {}", G::from_fen(fen).unwrap().perft(2))
    );
    gui.send("go searchmoves a1-a1");
    let e = gui.until(|l| l.starts_with("info string")).pop().unwrap();
    assert!(e.starts_with("info string error: go: searchmoves: "), "{e}");
}

#[test]
fn every_go_in_turkish() {
    every_go::<turkish::Position>("turkish", &["d3-d4", "e6-e5"]);
}

#[test]
fn every_go_in_russian() {
    every_go::<russian::Position>("russian", &["c3-d4", "f6-g5", "g3-f4"]);
}

#[test]
fn d_and_eval_in_each_game() {
    let mut gui = Gui::new();
    gui.send("setoption name UCI_Variant value turkish");
    gui.send("position startpos moves d3-d4");
    gui.send("d");
    let lines = gui.until(|l| l.starts_with("Black to move"));
    let fen =
        Record::<turkish::Position>::from_fen_and_moves(turkish::Position::START_FEN, &["d3-d4"])
            .unwrap()
            .position()
            .to_fen();
    assert!(lines.contains(&format!("FEN: {fen}")), "{lines:?}");
    // All 64 squares are played on: rank 1 is eight empty squares.
    assert!(
        lines.contains(&" 1  . . . . . . . .".to_string()),
        "{lines:?}"
    );
    // Each game's linear evaluation term by term (its total), then its network's line.
    gui.send("eval");
    let lines = gui.until(|l| l.starts_with("Evaluation: "));
    assert!(lines[0].starts_with("term "), "{lines:?}");
    assert!(
        lines
            .last()
            .unwrap()
            .contains(" for black, the side to move; net = black minus white"),
        "{lines:?}"
    );
    let total = lines.iter().find(|l| l.starts_with("total")).unwrap();
    let played =
        Record::<turkish::Position>::from_fen_and_moves(turkish::Position::START_FEN, &["d3-d4"])
            .unwrap();
    let cp = played.position().evaluate();
    assert!(total.ends_with(&format!(" {cp}")), "{total}");
    assert!(lines.last().unwrap().contains(&format!("(internal {cp})")));
    let network = gui.until(|l| l.starts_with("Network evaluation: "));
    assert_eq!(network.len(), 1, "{network:?}");
    gui.send("setoption name UCI_Variant value russian");
    gui.send("eval");
    let lines = gui.until(|l| l.starts_with("Evaluation: "));
    assert!(lines[0].starts_with("term "), "{lines:?}");
    assert!(
        lines
            .last()
            .unwrap()
            .contains(" for white, the side to move")
    );
    // Then the network's line: Russian draughts has a network.
    let network = gui.until(|l| l.starts_with("Network evaluation: "));
    assert_eq!(network.len(), 1, "{network:?}");
    // Lasca has a network too, blended with its linear evaluation.
    gui.send("setoption name UCI_Variant value lasca");
    gui.send("eval");
    gui.until(|l| l.starts_with("Evaluation: "));
    gui.send("isready");
    let network = gui.until_line("readyok");
    assert_eq!(network.len(), 2, "{network:?}");
    assert!(
        network[0].starts_with("Network evaluation: ")
            && network[0].contains("the search uses 6/8 of the network and 2/8 of the linear"),
        "{network:?}"
    );
}
