//! pydraughts drives `bashni hub` as lidraughts-bot does (tests/hub/drive.py): complete
//! Russian and Turkish games against a random mover, every move of bashni checked by
//! pydraughts' rules, no line of the engine that pydraughts' HubEngine does not understand,
//! and bashni wins. Both pydraughts 0.5.7 (lidraughts-bot's pin; moves numbered from the
//! top) and 0.6.7 (moves numbered from a1) are tested, each in its own virtual environment
//! under the target directory (made once, then reused), installed from PyPI with pip.
//!
//! An install that fails fails the test, loudly: set `BASHNI_SKIP_PYDRAUGHTS=1` to skip it
//! where PyPI cannot be reached (it then says so on standard error).

use std::path::{Path, PathBuf};
use std::process::Command;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

/// The Python of a virtual environment with `pydraughts==version`, made if missing; `None`
/// when it cannot be made and `BASHNI_SKIP_PYDRAUGHTS=1` allows skipping.
fn venv(version: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pydraughts-{version}"));
    let python = dir.join("bin").join("python");
    let check = format!("import draughts, sys; sys.exit(draughts.__version__ != '{version}')");
    let ready = |p: &Path| {
        Command::new(p)
            .args(["-c", &check])
            .status()
            .is_ok_and(|s| s.success())
    };
    if ready(&python) {
        return Some(python);
    }
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&dir)
        .status()
        .is_ok_and(|s| s.success())
        && Command::new(dir.join("bin").join("pip"))
            .args(["install", "-q", &format!("pydraughts=={version}")])
            .status()
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
    eprintln!("!!! SKIPPED: pydraughts {version} could not be installed (BASHNI_SKIP_PYDRAUGHTS=1)");
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
        .output()
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
