//! `bashni tune` run as a user runs it: on data from `bashni datagen`, with damaged lines.

use crate::common::deadline::Bounded;
use std::path::PathBuf;
use std::process::Command;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("bashni-tune-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn tune_lowers_the_loss_and_skips_bad_lines() {
    let d = dir();
    let data = d.join("data.txt");
    let _ = std::fs::remove_file(&data);
    let made = Command::new(BASHNI)
        .args([
            "datagen",
            "--games",
            "24",
            "--nodes",
            "800",
            "--threads",
            "2",
            "--out",
        ])
        .arg(&data)
        .output_bounded()
        .unwrap();
    assert!(made.status.success());
    // Damage the file: a broken line in the middle and a line cut off at the end.
    let mut text = std::fs::read_to_string(&data).unwrap();
    let good_lines = text.lines().count();
    text.insert_str(text.find('\n').unwrap() + 1, "this is not a position\n");
    text.push_str("1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1 | 1");
    std::fs::write(&data, text).unwrap();
    let out = d.join("weights.txt");
    let run = Command::new(BASHNI)
        .args(["tune", "--epochs", "40", "--learning-rate", "2", "--out"])
        .arg(&out)
        .arg(&data)
        .output_bounded()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}\n{stderr}");
    let name = data.display().to_string();
    assert!(
        stderr.contains(&format!("{name}:2: expected 3 fields")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{name}:{}: expected 3 fields", good_lines + 2)),
        "{stderr}"
    );
    assert!(stdout.contains("2 bad lines skipped"), "{stdout}");
    // "validation loss A -> B" with B below A.
    let last = stdout.lines().last().unwrap();
    let (a, b) = last.rsplit_once(" -> ").unwrap();
    let a: f64 = a.rsplit(' ').next().unwrap().parse().unwrap();
    let b: f64 = b.trim().parse().unwrap();
    assert!(b < a, "{last}");
    let weights = std::fs::read_to_string(&out).unwrap();
    assert!(weights.contains("\n# Opening and endgame weight of each feature"));
    assert!(weights.contains(&format!("# Made from: {name}")));
}

#[test]
fn tune_refuses_what_it_cannot_use() {
    let d = dir();
    let run = Command::new(BASHNI)
        .args(["tune", "--out"])
        .arg(d.join("w.txt"))
        .arg(d.join("missing.txt"))
        .output_bounded()
        .unwrap();
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("cannot read") && err.contains("missing.txt"),
        "{err}"
    );
}

/// `bashni tune --variant turkish` fits Turkish draughts' own features on a shipped sample
/// of Turkish self-play positions, and writes a Turkish weights file that it reads back.
#[test]
fn tune_fits_turkish_weights() {
    let d = dir();
    let sample = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/turkish-sample.txt");
    let out = d.join("turkish-weights.txt");
    let tune = |epochs: &str, extra: &[&str]| {
        let run = Command::new(BASHNI)
            .args(["tune", "--variant", "turkish", "--epochs", epochs])
            .args(["--learning-rate", "2", "--valid-every", "5", "--out"])
            .arg(&out)
            .args(extra)
            .arg(&sample)
            .output_bounded()
            .unwrap();
        let stdout = String::from_utf8_lossy(&run.stdout).to_string();
        assert!(
            run.status.success(),
            "{stdout}\n{}",
            String::from_utf8_lossy(&run.stderr)
        );
        stdout
    };
    let stdout = tune("60", &[]);
    assert!(stdout.contains("0 bad lines skipped"), "{stdout}");
    let last = stdout.lines().last().unwrap();
    let (a, b) = last.rsplit_once(" -> ").unwrap();
    let a: f64 = a.rsplit(' ').next().unwrap().parse().unwrap();
    let b: f64 = b.trim().parse().unwrap();
    assert!(b < a, "{last}");
    let weights = std::fs::read_to_string(&out).unwrap();
    assert!(weights.contains("# Game: turkish"), "{weights}");
    // Turkish features, not Bashni's.
    assert!(weights.contains(" hanging 1\n"), "{weights}");
    assert!(!weights.contains("prisoner"), "{weights}");
    // The file reads back as a starting point for Turkish, and not for Bashni.
    let again = tune("2", &["--from", out.to_str().unwrap()]);
    assert!(again.contains("validation loss"), "{again}");
    let bashni = Command::new(BASHNI)
        .args(["tune", "--from"])
        .arg(&out)
        .arg("--out")
        .arg(d.join("never.txt"))
        .arg(&sample)
        .output_bounded()
        .unwrap();
    assert!(!bashni.status.success());
    let err = String::from_utf8_lossy(&bashni.stderr);
    assert!(err.contains("weight lines, expected"), "{err}");
}

/// `tune` reads only data of the game it fits: a `# game` line naming another game (or
/// none, which is Bashni's, for another game) stops it with one line and no weights, without
/// a report for each line that does not read as its game's.
#[test]
fn tune_refuses_data_of_another_game() {
    let d = dir();
    let sample = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/turkish-sample.txt");
    let unnamed = d.join("unnamed-turkish.txt");
    let text = std::fs::read_to_string(&sample).unwrap();
    std::fs::write(&unnamed, text.replace(" turkish\n", "\n")).unwrap();
    let name = sample.display().to_string();
    for (variant, data, expected) in [
        (
            "bashni",
            &sample,
            format!(
                "error: {name}:92: data of Turkish draughts (its '# game' lines end with \
                 'turkish'), not of Bashni"
            ),
        ),
        (
            "russian",
            &sample,
            format!(
                "error: {name}:92: data of Turkish draughts (its '# game' lines end with \
                 'turkish'), not of Russian draughts"
            ),
        ),
        (
            "turkish",
            &unnamed,
            format!(
                "error: {}:92: data of Bashni (a '# game' line without a game's name, as \
                 written before data named its game), not of Turkish draughts; if it is \
                 Turkish draughts data, name it: sed -i '/^# game /s/$/ turkish/' FILE",
                unnamed.display()
            ),
        ),
    ] {
        let out = d.join(format!("refused-{variant}.txt"));
        let run = Command::new(BASHNI)
            .args(["tune", "--variant", variant, "--out"])
            .arg(&out)
            .arg(data)
            .output_bounded()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{err}");
        assert_eq!(err.trim_end(), expected);
        assert!(!out.exists());
    }
}

/// A learning rate that is not a number, infinite or absurd is refused when the arguments
/// are read (exit 2), and `--out` may not be one of the data files.
#[test]
fn tune_refuses_bad_learning_rates_and_writing_over_its_data() {
    let d = dir();
    let data = d.join("own-data.txt");
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/turkish-sample.txt"),
    )
    .unwrap();
    std::fs::write(&data, &text).unwrap();
    for rate in ["nan", "inf", "1e30", "0", "101", "fast"] {
        let run = Command::new(BASHNI)
            .args([
                "tune",
                "--variant",
                "turkish",
                "--learning-rate",
                rate,
                "--out",
            ])
            .arg(d.join("w.txt"))
            .arg(&data)
            .output_bounded()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{rate}: {err}");
        assert!(
            err.starts_with(&format!(
                "error: invalid value '{rate}' for '--learning-rate"
            )),
            "{err}"
        );
    }
    let same = d.join(".").join("own-data.txt");
    let run = Command::new(BASHNI)
        .args(["tune", "--variant", "turkish", "--epochs", "1", "--out"])
        .arg(&same)
        .arg(&data)
        .output_bounded()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("writing it would destroy the data"), "{err}");
    assert_eq!(std::fs::read_to_string(&data).unwrap(), text);
}
