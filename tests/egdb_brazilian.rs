//! Brazilian draughts' endgame databases (docs/egdb.md, "Brazilian draughts"): every value of
//! the 2-3 piece tables against the simple solver (tests/egdb/simple.rs) at every clock of the
//! 40-ply rule; positions where the majority rule or the crowning decides the value, their
//! values reasoned out by hand; a position whose Brazilian value is not its Russian one; each
//! game's tables read as that game's only; the search, Hub and the page's tablebase using them.

use super::common::gui::run_to_end;
use super::egdb::{bashni, check_every_value, russian_dir, tables};
use crate::common::serve::{Server, str_of};
use bashni::egdb::moves::mover_value;
use bashni::egdb::{Plies, Store, Value};
use bashni::games::{Game, Rules, brazilian, russian};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Brazilian tables of 2-3 pieces, and KKKvK (three kings against one) from them.
fn brazilian_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    tables(&DIR, "egdb-brazilian", "brazilian", 3, "KKKvK")
}

fn br(fen: &str) -> brazilian::Position {
    brazilian::Position::from_fen(fen).expect("fen")
}

fn ru(fen: &str) -> russian::Position {
    russian::Position::from_fen(fen).expect("fen")
}

/// The positions after each legal move of `pos`, as standard FENs, sorted.
fn after_each<G: Game>(pos: &G) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| pos.played(m).to_pdn_fen())
        .collect();
    v.sort();
    v
}

#[test]
fn brazilian_two_and_three_pieces_agree_with_the_simple_solver_at_every_clock() {
    let mut sets = super::egdb::TWO.to_vec();
    sets.extend(super::egdb::THREE);
    assert_eq!(brazilian::CLOCK_LIMIT, 40);
    let n = check_every_value::<brazilian::Position>(brazilian_dir(), &sets, true);
    assert!(n > 390_000, "{n} positions");
}

/// White's king on c3 against men on b2, d4 and g7, White to move. Russian draughts lets the
/// king take b2 alone (c3:a1); Brazilian draughts' majority rule makes it take d4 and g7,
/// which leaves it on h8, the one square beyond g7. Then Black crowns b2-a1 on the long
/// diagonal, and White's king, in the corner, can only move along that diagonal into the
/// capture: White loses. In Russian draughts c3:a1 draws: the king threatens d4 (and then g7
/// behind it); Black's one safe move is d4-e3, the king takes g7 (landing on h8), and the man
/// crowns in two moves on a square the king cannot reach in time: a king against a king.
#[test]
fn the_majority_rule_makes_a_king_take_two_men_and_lose() {
    let store = Store::<brazilian::Position>::open(brazilian_dir()).expect("tables");
    let mut probe = store.prober();
    let fen = "W:WKc3:Bb2,d4,g7";
    // The only Brazilian move takes two men and ends on h8.
    assert_eq!(after_each(&br(fen)), [br("B:WKh8:Bb2").to_pdn_fen()]);
    // Black crowns, a man's move that resets the clock: won in 1 for Black.
    assert_eq!(probe.probe(&br("B:WKh8:Bb2")), Ok(Value::Win(Plies(1))));
    assert_eq!(after_each(&br("B:WKh8:Bb2")).len(), 2, "b2-a1, b2-c1");
    // Then every move of White's king is taken: lost in 2 (its move, Black's capture).
    assert_eq!(probe.probe(&br("W:WKh8:BKa1")), Ok(Value::Loss(Plies(2))));
    // The capture resets the clock, and Black wins after it: White loses in 1.
    let after = probe.probe(&br("B:WKh8:Bb2")).unwrap();
    assert_eq!(mover_value(after, true), Value::Loss(Plies(1)));

    // Russian draughts: either capture; the best, c3:a1, draws.
    let russian = Store::<russian::Position>::open(russian_dir()).expect("tables");
    let mut rp = russian.prober();
    let mut after = after_each(&ru(fen));
    after.sort();
    let mut expected = vec![
        ru("B:WKa1:Bd4,g7").to_pdn_fen(),
        ru("B:WKh8:Bb2").to_pdn_fen(),
    ];
    expected.sort();
    assert_eq!(after, expected);
    assert_eq!(rp.probe(&ru("B:WKa1:Bd4,g7")), Ok(Value::Draw));
    assert_eq!(rp.probe(&ru("B:WKh8:Bb2")), Ok(Value::Win(Plies(1))));
    // Brazilian draughts from the same position after c3:a1 (not a move it allows): a
    // draw too, so only the rule of capture makes the difference.
    assert_eq!(probe.probe(&br("B:WKa1:Bd4,g7")), Ok(Value::Draw));
}

/// White's man on b6 takes c7 and lands on d8, its far rank. In Russian draughts it is
/// crowned there and goes on as a king over g5 to h4: Black has nothing left, White has won
/// (the capture is the winning reset: win 1). In Brazilian draughts a man is crowned only
/// where its move ends; on d8 it cannot take g5 as a man, so the move ends there and it is
/// crowned: a king against a king with Black to move, no capture for either, drawn. The
/// same position, read from each game's 3-piece table (MvKM), differs.
#[test]
fn a_brazilian_table_values_a_position_as_brazilian_draughts_plays_it() {
    let fen = "W:Wb6:Bc7,Kg5";
    assert_eq!(after_each(&ru(fen)), [ru("B:WKh4:B").to_pdn_fen()]);
    assert_eq!(after_each(&br(fen)), [br("B:WKd8:BKg5").to_pdn_fen()]);
    let russian = Store::<russian::Position>::open(russian_dir()).expect("tables");
    let brazilian = Store::<brazilian::Position>::open(brazilian_dir()).expect("tables");
    assert_eq!(russian.prober().probe(&ru(fen)), Ok(Value::Win(Plies(1))));
    assert_eq!(brazilian.prober().probe(&br(fen)), Ok(Value::Draw));
    assert_eq!(
        brazilian.prober().probe(&br("B:WKd8:BKg5")),
        Ok(Value::Draw)
    );
    // Through the command line as well.
    let probe = |variant: &str, dir: &Path| probe_cli(variant, dir, fen);
    assert_eq!(probe("russian", russian_dir()), (0, "win 1\n".to_string()));
    assert_eq!(
        probe("brazilian", brazilian_dir()),
        (0, "draw\n".to_string())
    );
}

/// `bashni egdb probe --variant VARIANT --dir DIR --fen FEN`: its exit status and output.
fn probe_cli(variant: &str, dir: &Path, fen: &str) -> (i32, String) {
    let dir = dir.to_str().unwrap();
    bashni(&[
        "egdb",
        "probe",
        "--variant",
        variant,
        "--dir",
        dir,
        "--fen",
        fen,
    ])
}

#[test]
fn each_game_reads_its_own_tables_only() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("egdb-brazilian-foreign");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let probe = |variant: &str| probe_cli(variant, &dir, "W:WKa1:BKh8");
    let refused = |(code, out): (i32, String), what: &str| {
        assert_eq!((code, out.lines().count()), (1, 1), "{out}");
        assert!(out.starts_with("error: ") && out.contains(what), "{out}");
    };
    // A Russian table under a Brazilian name, and the reverse: refused, never misread.
    let russian_kvk = std::fs::read(russian_dir().join("russian-KvK.egdb")).unwrap();
    let brazilian_kvk = std::fs::read(brazilian_dir().join("brazilian-KvK.egdb")).unwrap();
    std::fs::write(dir.join("brazilian-KvK.egdb"), &russian_kvk).unwrap();
    refused(
        probe("brazilian"),
        "holds russian KvK under a 30-ply rule, expected brazilian KvK under a 40-ply rule",
    );
    std::fs::remove_file(dir.join("brazilian-KvK.egdb")).unwrap();
    std::fs::write(dir.join("russian-KvK.egdb"), &brazilian_kvk).unwrap();
    refused(
        probe("russian"),
        "holds brazilian KvK under a 40-ply rule, expected russian KvK under a 30-ply rule",
    );
    // Both games' own tables side by side: each read by its game.
    std::fs::write(dir.join("russian-KvK.egdb"), &russian_kvk).unwrap();
    std::fs::write(dir.join("brazilian-KvK.egdb"), &brazilian_kvk).unwrap();
    assert_eq!(probe("russian"), (0, "loss 2\n".to_string()));
    assert_eq!(probe("brazilian"), (0, "loss 2\n".to_string()));
    let (code, out) = bashni(&["egdb", "info", "--dir", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("russian KvK: ") && lines[0].ends_with("(a 30-ply rule)"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("brazilian KvK: ") && lines[1].ends_with("(a 40-ply rule)"),
        "{out}"
    );
    let (code, out) = bashni(&["egdb", "verify", "--dir", brazilian_dir().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("brazilian: 18 tables") && out.contains("each agrees with its moves"),
        "{out}"
    );
}

/// Three kings against one: a win for the three within Brazilian draughts' 40-ply rule, the
/// search reads the Brazilian tables (its score in the database band, `tbhits`), and says
/// how many of them it read.
#[test]
fn the_search_of_brazilian_draughts_probes_its_tables() {
    let fen = "W:WKc1,Ka3,Kg1:BKb8";
    let store = Store::<brazilian::Position>::open(brazilian_dir()).expect("tables");
    let v = store.prober().probe(&br(fen)).unwrap();
    let Value::Win(d) = v else {
        panic!("{fen}: {v}")
    };
    let dir = brazilian_dir().to_str().unwrap();
    let input = format!(
        "uci\nsetoption name UCI_Variant value brazilian\nsetoption name EGDBPath value {dir}\n\
         position fen {fen}\ngo depth 4\nisready\n"
    );
    let (code, out, err) = run_to_end(&["uci"], &input);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("endgame tables read from") && out.contains("(brazilian 18)"),
        "{out}"
    );
    assert!(!out.contains("warning"), "{out}");
    let info = out
        .lines()
        .rfind(|l| l.starts_with("info depth") && l.contains(" score "))
        .unwrap_or_else(|| panic!("no info: {out}"));
    assert!(
        info.contains(&format!("score cp {}", 20_000 - i32::from(d.0))),
        "{info}"
    );
    assert!(!info.contains("tbhits 0"), "{info}");
}

/// The page's tablebase panel answers a Brazilian position with the Brazilian value.
#[test]
fn the_page_s_tablebase_answers_brazilian_positions() {
    let dir = brazilian_dir().to_str().unwrap().to_string();
    let server = Server::start(&["--egdb", &dir]);
    let body = r#"{"variant":"brazilian","human":"both","fen":"W:Wb6:Bc7,Kg5"}"#;
    let (id, _) = server.new_game(body);
    let tb = server.ok("GET", &format!("/api/games/{id}/tablebase"), "");
    assert_eq!(str_of(&tb["tablebase"]["value"], "class"), "draw", "{tb}");
    assert_eq!(
        str_of(&tb["tablebase"]["moves"][0], "move"),
        "b6:d8",
        "{tb}"
    );
}
