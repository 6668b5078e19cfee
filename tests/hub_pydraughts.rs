//! pydraughts drives `bashni hub` as lidraughts-bot does (tests/hub/drive.py): complete
//! Russian and Turkish games against a random mover, every move of bashni checked by
//! pydraughts' rules, no line of the engine that pydraughts' HubEngine does not understand,
//! and bashni wins. Both pydraughts 0.5.7 (lidraughts-bot's pin; moves numbered from the
//! top) and 0.6.7 (moves numbered from a1) are tested, each in its own virtual environment
//! under the target directory (made once, then reused), installed from PyPI with pip.
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
/// file), from its `FEN:` line.
fn analysed(what: &str) -> String {
    let out = bashni(&["analyse", "--variant", "russian", what, "--depth", "1"]);
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

/// Russian PDN both ways with pydraughts 0.6.7: its PDN (a set-up [FEN] with kings, then
/// random moves) and its FEN load in `bashni analyse` at the same position; the PDN of a
/// `bashni match` from a standard FEN replays in pydraughts' PDN reader to the position
/// bashni reaches.
#[test]
fn russian_pdn_and_fen_both_ways_with_pydraughts() {
    let Some(python) = venv("0.6.7") else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hub_pdn");
    std::fs::create_dir_all(&dir).unwrap();
    for seed in ["1", "2", "3"] {
        let theirs = dir.join(format!("pydraughts-{seed}.pdn"));
        let theirs = theirs.to_str().unwrap();
        let fen = pdn_py(&python, &["write", theirs, seed]);
        assert!(fen.contains(":W"), "{fen}");
        assert_eq!(analysed(theirs), analysed(&fen), "seed {seed}");
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
        "russian",
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
    let movetext = text.split("\n\n").nth(1).unwrap_or("");
    assert!(movetext.contains('x') && !movetext.contains(':'), "{text}");
    let fen = pdn_py(&python, &["read", ours_s]);
    assert_eq!(analysed(ours_s), analysed(&fen), "{text}");
}
