//! `bashni match` with an engine speaking Hub (`--engine proto=hub cmd=...`): bashni in Hub
//! mode against bashni in our protocol, in Russian and Turkish draughts, to the end with no
//! fault and every move replayed by the rules from the PDN; a Hub engine's illegal move is
//! its fault; bad settings are refused.

use crate::common::deadline::Bounded;
use bashni::games::{Game, Record, russian, turkish};
use bashni::record::pdn::parse_games;
use std::path::PathBuf;
use std::process::{Command, Output};

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("match_hub");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn run(args: &[&str]) -> Output {
    Command::new(BASHNI)
        .arg("match")
        .args(args)
        .output_bounded()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Every game of the PDN replays by the rules of `G` from its start.
fn replays<G: Game>(pdn: &str) -> usize {
    let games = parse_games(pdn).unwrap();
    for g in &games {
        let moves: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
        let fen = g.tag("FEN").unwrap_or(G::START_FEN);
        Record::<G>::from_fen_and_moves(fen, &moves).unwrap();
    }
    games.len()
}

fn hub_against_uci(variant: &str, limit: &[&str]) -> String {
    let pdn = temp(&format!("{variant}.pdn"));
    let hub = format!("cmd={BASHNI}");
    let mut args = vec![
        "--variant",
        variant,
        "--engine",
        "proto=hub",
        &hub,
        "arg=hub",
    ];
    args.extend(["name=hub", "--engine", &hub, "name=uci", "--games", "4"]);
    args.extend(limit);
    args.extend(["--pdn", pdn.to_str().unwrap()]);
    let out = run(&args);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("Faults: none"), "{said}");
    assert!(said.contains("Games: 4,"), "{said}");
    std::fs::read_to_string(&pdn).unwrap()
}

/// Under a clock, so that Hub's `level time= inc=` is sent and understood; the searches end
/// at depth 4 (milliseconds a move), far inside the clock's second a move even on a machine
/// ten times slower, so no game is lost on time: the verdict does not depend on speed.
#[test]
fn bashni_in_hub_mode_plays_bashni_in_russian() {
    let pdn = hub_against_uci("russian", &["--tc", "60+1", "--depth", "4"]);
    assert_eq!(replays::<russian::Position>(&pdn), 4);
    assert!(pdn.contains("[White \"hub\"]") && pdn.contains("[Black \"hub\"]"));
}

#[test]
fn bashni_in_hub_mode_plays_bashni_in_turkish() {
    let pdn = hub_against_uci("turkish", &["--depth", "4"]);
    assert_eq!(replays::<turkish::Position>(&pdn), 4);
}

#[test]
fn an_illegal_hub_move_is_the_engines_fault() {
    let fake = format!(
        "cmd={}/tests/fake_engines/hub_illegal.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    let uci = format!("cmd={BASHNI}");
    let args = [
        "--variant",
        "russian",
        "--engine",
        "proto=hub",
        &fake,
        "--engine",
        &uci,
        "--games",
        "2",
        "--depth",
        "2",
        "--initial",
    ];
    let out = run(&args);
    let said = text(&out);
    assert!(said.contains("Games: 2, Wins: 0, Losses: 2"), "{said}");
    assert!(said.contains("illegal move"), "{said}");
}

#[test]
fn bad_hub_settings_are_refused() {
    let hub = format!("cmd={BASHNI}");
    let out = run(&[
        "--engine",
        "proto=dxp",
        &hub,
        "--engine",
        &hub,
        "--depth",
        "2",
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("proto=dxp: expected proto=uci or proto=hub"),
        "{}",
        text(&out)
    );
    // Hub has no Bashni.
    let args = [
        "--engine",
        "proto=hub",
        &hub,
        "arg=hub",
        "--engine",
        &hub,
        "--depth",
        "2",
    ];
    let out = run(&args);
    assert!(text(&out).contains("cannot play bashni"), "{}", text(&out));
}
