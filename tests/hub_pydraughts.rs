//! pydraughts drives `bashni hub` as lidraughts-bot does (tests/hub/drive.py): complete
//! Russian, Brazilian and Turkish games against a random mover, every move of bashni checked
//! by pydraughts' rules, no line of the engine that pydraughts' HubEngine does not understand,
//! and bashni wins. Both pydraughts 0.5.7 (lidraughts-bot's pin; moves numbered from the
//! top) and 0.6.7 (moves numbered from a1) are tested, each in its own virtual environment
//! under the target directory (made once, then reused), installed from PyPI with pip.
//! pydraughts' own move generator also counts Brazilian draughts' perft (tests/hub/perft.py)
//! from the start, from the positions of docs/rules-brazilian.md built to trap a wrong
//! implementation, and from random positions, and must agree with bashni's.
//!
//! An install that fails fails the test, loudly: set `BASHNI_SKIP_PYDRAUGHTS=1` to skip it
//! where PyPI cannot be reached (it then says so on standard error).

use crate::common::deadline::{Bounded, DEADLINE};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

/// An installation (a virtual environment made, pydraughts downloaded): on a loaded machine
/// with a slow network, more than one wait (`python3 -m venv` alone took over 120 s at a load
/// average of 20 on two cores).
const INSTALL: Duration = Duration::from_secs(DEADLINE.as_secs() * 5);

/// The Python of a virtual environment with `pydraughts==version`, made if missing; `None`
/// when it cannot be made and `BASHNI_SKIP_PYDRAUGHTS=1` allows skipping.
fn venv(version: &str) -> Option<PathBuf> {
    // One test at a time makes an environment (two tests use 0.6.7's).
    static MAKING: Mutex<()> = Mutex::new(());
    let _making = MAKING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pydraughts-{version}"));
    let python = dir.join("bin").join("python");
    let check = format!("import draughts, sys; sys.exit(draughts.__version__ != '{version}')");
    let ready = |p: &Path| {
        Command::new(p)
            .args(["-c", &check])
            .status_bounded()
            .is_ok_and(|s| s.success())
    };
    if ready(&python) {
        return Some(python);
    }
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&dir)
        .status_within(INSTALL)
        .is_ok_and(|s| s.success())
        && Command::new(dir.join("bin").join("pip"))
            .args(["install", "-q", &format!("pydraughts=={version}")])
            .status_within(INSTALL)
            .is_ok_and(|s| s.success());
    if made && ready(&python) {
        return Some(python);
    }
    let skip = std::env::var("BASHNI_SKIP_PYDRAUGHTS").is_ok_and(|v| v == "1");
    assert!(
        skip,
        "could not install pydraughts=={version} in {} (python3 -m venv, pip install from \
         PyPI); set BASHNI_SKIP_PYDRAUGHTS=1 to skip this test",
        dir.display()
    );
    eprintln!(
        "!!! SKIPPED: pydraughts {version} could not be installed (BASHNI_SKIP_PYDRAUGHTS=1)"
    );
    None
}

/// Plays `games` games of `variant` with pydraughts `version`.
fn drive(version: &str, variant: &str, games: u32, seed: u32) {
    let Some(python) = venv(version) else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hub/drive.py");
    let out = Command::new(python)
        .arg(script)
        .args([BASHNI, variant, &games.to_string(), &seed.to_string()])
        // Whole games, in each of which bashni may use ten times its clock (drive.py's rule
        // for a busy machine), and pydraughts' own moves: more than one wait.
        .output_within(DEADLINE * 5)
        .expect("python runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}\n{err}");
    assert!(text.contains(&format!("pydraughts {version}")), "{text}");
    assert!(text.contains(&format!("ok {games} games")), "{text}");
    eprint!("{text}");
}

#[test]
fn pydraughts_0_5_7_plays_russian_and_turkish() {
    drive("0.5.7", "russian", 2, 1);
    drive("0.5.7", "turkish", 2, 2);
}

#[test]
fn pydraughts_0_6_7_plays_russian_and_turkish() {
    drive("0.6.7", "russian", 2, 3);
    drive("0.6.7", "turkish", 2, 4);
}

#[test]
fn pydraughts_plays_brazilian() {
    drive("0.5.7", "brazilian", 2, 5);
    drive("0.6.7", "brazilian", 2, 6);
}

/// pydraughts 0.6.7's perft of each `(standard FEN, depth)` in `variant`, depths 1 to depth.
fn pydraughts_perft(python: &Path, variant: &str, cases: &[(String, u32)]) -> Vec<Vec<u64>> {
    use std::io::Write;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hub/perft.py");
    let mut child = Command::new(python)
        .arg(script)
        .arg(variant)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python runs");
    let mut input = child.stdin.take().unwrap();
    for (fen, depth) in cases {
        writeln!(input, "{fen} {depth}").unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "perft.py: {text}");
    text.lines()
        .map(|l| l.split_whitespace().map(|n| n.parse().unwrap()).collect())
        .collect()
}

/// Brazilian draughts' perft agrees with pydraughts' move generator (merged as bashni merges
/// moves): from the start to depth 4, from the trap positions of docs/rules-brazilian.md to
/// depth 4, and from 40 positions of seeded random games (every other move the longest
/// capture, so that kings and long captures come) to depth 3.
#[test]
fn brazilian_perft_agrees_with_pydraughts() {
    use bashni::games::{Rules, brazilian};
    use rand::{RngExt, SeedableRng};
    let Some(python) = venv("0.6.7") else {
        return;
    };
    let mut cases: Vec<(String, u32)> = vec![(brazilian::Position::startpos().to_pdn_fen(), 4)];
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules-brazilian.md"),
    )
    .unwrap();
    let table = &doc[doc
        .find("| position (standard FEN) |")
        .expect("the trap table")..];
    for line in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let fen = line.split('|').nth(1).unwrap().trim().trim_matches('`');
        cases.push((fen.to_string(), 4));
    }
    assert!(cases.len() >= 7, "{cases:?}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(63);
    while cases.len() < 47 {
        let mut p = brazilian::Position::startpos();
        for ply in 0..rng.random_range(10..80) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = if ply % 2 == 0 {
                *moves.iter().max_by_key(|m| m.jumped().len()).unwrap()
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            p.play(&m);
        }
        if p.has_legal_move() {
            cases.push((p.to_pdn_fen(), 3));
        }
    }
    let theirs = pydraughts_perft(&python, "brazilian", &cases);
    assert_eq!(theirs.len(), cases.len());
    for ((fen, depth), counts) in cases.iter().zip(&theirs) {
        let p = brazilian::Position::from_fen(fen).unwrap();
        let ours: Vec<u64> = (1..=*depth).map(|d| p.perft(d)).collect();
        assert_eq!(&ours, counts, "{fen}: bashni against pydraughts");
    }
}

/// Runs bashni with `args`; its standard output (it must succeed).
fn bashni(args: &[&str]) -> String {
    let out = Command::new(BASHNI)
        .args(args)
        .output_bounded()
        .expect("bashni runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "bashni {args:?}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// Board and side to move of the position `bashni analyse` loads from `what` (a FEN or a
/// file) in `variant`, from its `FEN:` line.
fn analysed(variant: &str, what: &str) -> String {
    let out = bashni(&["analyse", "--variant", variant, what, "--depth", "1"]);
    let fen = out
        .lines()
        .find_map(|l| l.strip_prefix("FEN: "))
        .unwrap_or_else(|| panic!("no FEN line: {out}"));
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// Runs tests/hub/pdn.py with `args`; the FEN it prints last.
fn pdn_py(python: &Path, args: &[&str]) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hub/pdn.py");
    let out = Command::new(python)
        .arg(script)
        .args(args)
        .output_bounded()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "pdn.py {args:?}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fen = text.lines().find_map(|l| l.strip_prefix("fen "));
    fen.unwrap_or_else(|| panic!("{text}")).to_string()
}

/// PDN both ways with pydraughts 0.6.7 in Russian and Brazilian draughts: its PDN (a set-up
/// [FEN] with kings, then random moves) and its FEN load in `bashni analyse` at the same
/// position; the PDN of a `bashni match` from a standard FEN replays in pydraughts' PDN reader
/// (by pydraughts' rules of the game) to the position bashni reaches.
#[test]
fn russian_pdn_and_fen_both_ways_with_pydraughts() {
    pdn_and_fen_both_ways("russian", "25,W,8,8,A0,0");
}

#[test]
fn brazilian_pdn_and_fen_both_ways_with_pydraughts() {
    pdn_and_fen_both_ways("brazilian", "26,W,8,8,A0,0");
}

fn pdn_and_fen_both_ways(variant: &str, game_type: &str) {
    let Some(python) = venv("0.6.7") else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hub_pdn_{variant}"));
    std::fs::create_dir_all(&dir).unwrap();
    for seed in ["1", "2", "3"] {
        let theirs = dir.join(format!("pydraughts-{seed}.pdn"));
        let theirs = theirs.to_str().unwrap();
        let fen = pdn_py(&python, &["write", theirs, seed, variant]);
        assert!(fen.contains(":W"), "{fen}");
        let text = std::fs::read_to_string(theirs).unwrap();
        assert!(
            text.contains(&format!("[GameType \"{game_type}\"]")),
            "{text}"
        );
        assert_eq!(
            analysed(variant, theirs),
            analysed(variant, &fen),
            "seed {seed}"
        );
    }
    let openings = dir.join("openings.txt");
    let start = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,Kg3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,Kh8";
    std::fs::write(&openings, format!("{start}\n")).unwrap();
    let ours = dir.join("bashni.pdn");
    let _ = std::fs::remove_file(&ours);
    let ours_s = ours.to_str().unwrap();
    bashni(&[
        "match",
        "--variant",
        variant,
        "--engine",
        &format!("cmd={BASHNI}"),
        "--engine",
        &format!("cmd={BASHNI}"),
        "--games",
        "1",
        "--depth",
        "3",
        "--openings",
        openings.to_str().unwrap(),
        "--pdn",
        ours_s,
    ]);
    let text = std::fs::read_to_string(&ours).unwrap();
    assert!(text.contains(&format!("[FEN \"{start}\"]")), "{text}");
    assert!(
        text.contains(&format!("[GameType \"{game_type}\"]")),
        "{text}"
    );
    let movetext = text.split("\n\n").nth(1).unwrap_or("");
    assert!(movetext.contains('x') && !movetext.contains(':'), "{text}");
    let fen = pdn_py(&python, &["read", ours_s, variant]);
    assert_eq!(analysed(variant, ours_s), analysed(variant, &fen), "{text}");
}
