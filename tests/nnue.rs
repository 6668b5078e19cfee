//! The network evaluation as users meet it: `bashni train` on a shipped data sample, and the
//! protocol's `EvalFile` and `Use NNUE` options, damaged files and other games' networks
//! included, in every game that has a network.

use crate::common;
use crate::common::deadline::Bounded;

use common::gui::Gui;
use std::path::{Path, PathBuf};
use std::process::Command;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bashni-nnue-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/nnue-sample.txt")
}

fn embedded_net_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/bashni-nnue-5.nnue")
}

/// Runs `bashni train` on the sample; returns stdout.
fn train(out: &Path, threads: &str) -> String {
    let run = Command::new(BASHNI)
        .arg("train")
        .arg(sample())
        .args([
            "--epochs",
            "4",
            "--batch",
            "256",
            "--learning-rate",
            "0.003",
        ])
        .args([
            "--valid-every",
            "5",
            "--seed",
            "3",
            "--threads",
            threads,
            "--out",
        ])
        .arg(out)
        .output_bounded()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    stdout
}

/// The number after `word` on the first line that starts with `start`.
fn number_after(text: &str, start: &str, word: &str) -> f64 {
    let line = text.lines().find(|l| l.starts_with(start)).unwrap();
    let mut words = line.split_whitespace();
    words.find(|w| *w == word).unwrap();
    words.next().unwrap().parse().unwrap()
}

#[test]
fn training_lowers_the_loss_is_deterministic_and_writes_a_manifest() {
    let d = dir("train");
    let out = train(&d.join("a.nnue"), "2");
    let before = number_after(&out, "start:", "validation");
    let first = number_after(&out, "epoch   1", "train");
    let last = number_after(&out, "epoch   4", "train");
    let best = out.lines().last().unwrap();
    let after: f64 = best.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(after < before * 0.8, "{out}");
    assert!(last < first, "{out}");
    let manifest = std::fs::read_to_string(d.join("a.nnue.md")).unwrap();
    assert!(manifest.contains("--seed 3 --threads 2"), "{manifest}");
    assert!(manifest.contains("| 4 |"), "{manifest}");
    // Same data, seed and threads: the same bytes.
    train(&d.join("b.nnue"), "2");
    let a = std::fs::read(d.join("a.nnue")).unwrap();
    assert_eq!(a, std::fs::read(d.join("b.nnue")).unwrap());
    // And the engine plays with what it wrote.
    let mut gui = Gui::start(&[]);
    gui.handshake();
    gui.send(&format!(
        "setoption name EvalFile value {}",
        d.join("a.nnue").display()
    ));
    gui.send("position startpos");
    gui.send("go depth 4");
    let (lines, best) = gui.bestmove();
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    assert!(!best.is_empty() && best != "(none)", "{best}");
}

#[test]
fn the_options_are_declared_and_switch_the_evaluation() {
    let mut gui = Gui::start(&[]);
    let decl = gui.handshake();
    assert!(decl.contains(&"option name Use NNUE type check default true".to_string()));
    assert!(decl.contains(&"option name EvalFile type string default <embedded>".to_string()));
    gui.send("position fen 8/8/8/8/3(bw)4/8/8/w7 w");
    gui.send("eval");
    let on = gui.until(|l| l.starts_with("Network evaluation"));
    assert!(
        on.last()
            .unwrap()
            .contains("the search uses 5/8 of the network and 3/8 of the linear evaluation"),
        "{on:?}"
    );
    gui.send("setoption name Use NNUE value false");
    gui.send("eval");
    let off = gui.until(|l| l.starts_with("Network evaluation"));
    assert!(off.last().unwrap().contains("linear evaluation"), "{off:?}");
    // Both evaluations search.
    for use_nnue in ["false", "true"] {
        gui.send(&format!("setoption name Use NNUE value {use_nnue}"));
        gui.send("position startpos");
        gui.send("go depth 5");
        let (lines, best) = gui.bestmove();
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        assert!(!best.is_empty() && best != "(none)", "{best}");
    }
}

#[test]
fn a_damaged_or_missing_network_file_is_refused_and_the_engine_keeps_its_network() {
    let d = dir("damaged");
    let good = std::fs::read(embedded_net_file()).unwrap();
    let mut flipped = good.clone();
    flipped[5000] ^= 1;
    let cases: [(&str, Vec<u8>, &str); 4] = [
        (
            "flipped.nnue",
            flipped,
            "damaged network file: the checksum does not match",
        ),
        (
            "short.nnue",
            good[..good.len() / 2].to_vec(),
            "not a network file",
        ),
        (
            "text.nnue",
            b"hello, this is not a network\n".to_vec(),
            "does not start with BSHNNUE3",
        ),
        (
            "long.nnue",
            [good.clone(), vec![0; 10]].concat(),
            "not a network file",
        ),
    ];
    let mut gui = Gui::start(&[]);
    gui.handshake();
    gui.send("position fen 8/8/8/8/3(bw)4/8/8/w7 w");
    gui.send("eval");
    let before = gui.until(|l| l.starts_with("Network evaluation"));
    for (name, bytes, message) in cases {
        let path = d.join(name);
        std::fs::write(&path, bytes).unwrap();
        gui.send(&format!("setoption name EvalFile value {}", path.display()));
        gui.send("isready");
        let lines = gui.until_line("readyok");
        let error = lines
            .iter()
            .find(|l| l.starts_with("info string error"))
            .unwrap();
        assert!(error.contains(message), "{name}: {error}");
        assert!(error.ends_with("network not changed"), "{error}");
    }
    gui.send("setoption name EvalFile value /nonexistent/net.nnue");
    gui.send("isready");
    let lines = gui.until_line("readyok");
    assert!(
        lines.iter().any(|l| l.contains("cannot read network file")),
        "{lines:?}"
    );
    // Still the same network, still searching.
    gui.send("eval");
    let after = gui.until(|l| l.starts_with("Network evaluation"));
    assert_eq!(before.last(), after.last());
    gui.send("position startpos");
    gui.send("go depth 4");
    let best = gui.bestmove().1;
    assert!(!best.is_empty() && best != "(none)", "{best}");
}

/// `EvalFile` naming a FIFO, a device or a folder is refused at once (opening a FIFO for
/// reading would block the engine until someone writes to it, and it would then ignore
/// `isready`, `quit` and the end of its input): one error line, the network kept, and the
/// engine still answers `isready`.
#[cfg(unix)]
#[test]
fn eval_file_refuses_a_fifo_a_device_and_a_folder_and_keeps_answering() {
    let d = dir("fifo");
    let fifo = d.join("net.nnue");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status_bounded()
        .expect("mkfifo");
    assert!(made.success());
    let mut gui = Gui::start(&[]);
    gui.handshake();
    gui.send("position fen 8/8/8/8/3(bw)4/8/8/w7 w");
    gui.send("eval");
    let before = gui.until(|l| l.starts_with("Network evaluation"));
    for path in [fifo.as_path(), Path::new("/dev/zero"), d.as_path()] {
        gui.send(&format!("setoption name EvalFile value {}", path.display()));
        // A blocking open (FIFO) or an endless read (/dev/zero) never answers: `until_line`
        // fails after DEADLINE. How soon `readyok` comes is not a verdict.
        gui.send("isready");
        let lines = gui.until_line("readyok");
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .collect();
        assert_eq!(errors.len(), 1, "{lines:?}");
        assert!(
            errors[0].contains(&format!(
                "cannot read network file '{}': not a regular file",
                path.display()
            )) && errors[0].ends_with("network not changed"),
            "{}",
            errors[0]
        );
    }
    gui.send("eval");
    let after = gui.until(|l| l.starts_with("Network evaluation"));
    assert_eq!(before.last(), after.last());
    gui.send("position startpos");
    gui.send("go depth 4");
    let best = gui.bestmove().1;
    assert!(!best.is_empty() && best != "(none)", "{best}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `train` refuses what would train nothing or destroy its data: a learning rate or decay
/// that is not a finite number in (0, 1] (exit 2, when the arguments are read), an --out
/// (or its manifest, <out>.md) that is one of the data files, under any name (exit 2), and
/// data of another game (exit 1). Nothing is written.
#[test]
fn train_refuses_bad_rates_its_own_data_as_out_and_another_games_data() {
    let d = dir("refuse");
    let data = d.join("data.txt");
    std::fs::copy(sample(), &data).unwrap();
    let text = std::fs::read(&data).unwrap();
    let out = d.join("net.nnue");
    let train = |args: &[&str], out: &Path, data: &Path| {
        let run = Command::new(BASHNI)
            .arg("train")
            .args(args)
            .args(["--epochs", "1", "--out"])
            .arg(out)
            .arg(data)
            .output_bounded()
            .unwrap();
        (
            run.status.code(),
            String::from_utf8_lossy(&run.stderr).to_string(),
        )
    };
    for (option, value) in [
        ("--learning-rate", "nan"),
        ("--learning-rate", "inf"),
        ("--learning-rate", "1e30"),
        ("--learning-rate", "0"),
        ("--decay", "nan"),
        ("--decay", "0"),
        ("--decay", "2"),
    ] {
        let (code, err) = train(&[option, value], &out, &data);
        assert_eq!(code, Some(2), "{option} {value}: {err}");
        assert!(
            err.starts_with(&format!("error: invalid value '{value}' for '{option}")),
            "{err}"
        );
        assert!(err.contains("more than 0 and at most 1"), "{err}");
    }
    // The data file itself, by another path, by a hard link, and as the manifest.
    std::fs::hard_link(&data, d.join("hard.txt")).unwrap();
    let md = d.join("net.nnue.md");
    std::fs::hard_link(&data, &md).unwrap();
    for target in [d.join("sub/../data.txt"), d.join("hard.txt"), out.clone()] {
        std::fs::create_dir_all(d.join("sub")).unwrap();
        let (code, err) = train(&[], &target, &data);
        assert_eq!(code, Some(2), "{}: {err}", target.display());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("writing it would destroy the data"), "{err}");
    }
    assert_eq!(std::fs::read(&data).unwrap(), text);
    assert!(!out.exists());
    // Turkish data for the Bashni network.
    let turkish = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/turkish-sample.txt");
    let (code, err) = train(&[], &d.join("t.nnue"), &turkish);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.ends_with(
            "data of Turkish draughts (its '# game' lines end with 'turkish'), not of Bashni\n"
        ),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!d.join("t.nnue").exists());
}

/// Trains a small network of `variant` on `data`; the path of the network.
fn train_game(variant: &str, data: &Path, out: &Path) {
    let run = Command::new(BASHNI)
        .args(["train", "--variant", variant])
        .arg(data)
        .args(["--epochs", "2", "--batch", "256", "--threads", "1", "--out"])
        .arg(out)
        .output_bounded()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let manifest = std::fs::read_to_string(format!("{}.md", out.display())).unwrap();
    assert!(
        manifest.starts_with(&format!("# Network manifest: {variant}")),
        "{manifest}"
    );
    assert!(
        manifest.contains(&format!("bashni train --variant {variant} ")),
        "{manifest}"
    );
}

/// Turkish draughts, Russian draughts and Lasca have networks too: `train --variant` makes one from the
/// game's data, the game's session loads it with `EvalFile` and evaluates and searches with
/// it, another game's network is refused by name (the current one stays), and switching the
/// game drops a network of the old game with one line.
#[test]
fn every_game_with_a_network_trains_loads_and_refuses_another_games() {
    let d = dir("games");
    let data = |name: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name)
    };
    let turkish = d.join("turkish.nnue");
    let russian = d.join("russian.nnue");
    let brazilian = d.join("brazilian.nnue");
    let lasca = d.join("lasca.nnue");
    train_game("turkish", &data("turkish-sample.txt"), &turkish);
    train_game("russian", &data("russian-sample.txt"), &russian);
    train_game("brazilian", &data("brazilian-sample.txt"), &brazilian);
    train_game("lasca", &data("lasca-sample.txt"), &lasca);
    let mut gui = Gui::start(&[]);
    gui.handshake();
    // Bashni refuses them, by name.
    for (path, game) in [
        (&turkish, "turkish"),
        (&russian, "russian"),
        (&brazilian, "brazilian"),
        (&lasca, "lasca"),
    ] {
        gui.send(&format!("setoption name EvalFile value {}", path.display()));
        gui.send("isready");
        let lines = gui.until_line("readyok");
        let error = lines.iter().find(|l| l.contains("error")).unwrap();
        assert!(
            error.ends_with(&format!(
                "EvalFile: a network of {game}, not of bashni; network not changed"
            )),
            "{error}"
        );
    }
    for (variant, own, other) in [
        ("turkish", &turkish, &russian),
        ("russian", &russian, &brazilian),
        ("brazilian", &brazilian, &russian),
        ("lasca", &lasca, &turkish),
    ] {
        gui.send(&format!("setoption name UCI_Variant value {variant}"));
        gui.send("eval");
        let embedded = gui.until(|l| l.starts_with("Network evaluation"));
        assert!(
            embedded.last().unwrap().contains("the search uses"),
            "{embedded:?}"
        );
        gui.send(&format!("setoption name EvalFile value {}", own.display()));
        gui.send("isready");
        let lines = gui.until_line("readyok");
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        gui.send("eval");
        let loaded = gui.until(|l| l.starts_with("Network evaluation"));
        assert_ne!(
            embedded.last(),
            loaded.last(),
            "the loaded network evaluates"
        );
        gui.send(&format!(
            "setoption name EvalFile value {}",
            other.display()
        ));
        gui.send("isready");
        let lines = gui.until_line("readyok");
        assert!(
            lines.iter().any(|l| l.contains("error")
                && l.contains(&format!("not of {variant}; network not changed"))),
            "{lines:?}"
        );
        gui.send("go depth 5");
        let (lines, best) = gui.bestmove();
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        assert!(!best.is_empty() && best != "(none)", "{best}");
        // Another game: the network of this one is dropped, with one line.
        gui.send("setoption name UCI_Variant value bashni");
        gui.send("isready");
        let lines = gui.until_line("readyok");
        assert!(
            lines.iter().any(|l| l.starts_with("info string EvalFile")
                && l.ends_with("EvalFile is <embedded> again")),
            "{lines:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// `train --init` goes on from a shipped network: its first validation loss is already the
/// network's own (far below a random start's), the manifest records the flag, and another
/// game's network or a missing file is refused with one line before any data is read. A
/// network of a game with the same inputs (Russian draughts' for Brazilian draughts') is
/// taken, and said so: Brazilian draughts' training started from Russian's network.
#[test]
fn training_goes_on_from_a_shipped_network_and_refuses_another_games() {
    let d = dir("init");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/russian-sample.txt");
    let net = |name: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("nets")
            .join(name)
    };
    let train = |variant: &str, data: &Path, init: Option<&Path>, out: &Path| {
        let mut cmd = Command::new(BASHNI);
        cmd.args(["train", "--variant", variant]).arg(data);
        cmd.args(["--epochs", "1", "--batch", "256", "--threads", "1", "--out"])
            .arg(out);
        if let Some(init) = init {
            cmd.arg("--init").arg(init);
        }
        cmd.output_bounded().unwrap()
    };
    let run = |init: Option<&Path>, out: &Path| train("russian", &data, init, out);
    let start_loss =
        |stdout: &[u8]| number_after(&String::from_utf8_lossy(stdout), "start:", "validation");
    let random = run(None, &d.join("random.nnue"));
    assert!(random.status.success());
    let shipped = net("russian-nnue-3.nnue");
    let from = run(Some(&shipped), &d.join("from.nnue"));
    assert!(
        from.status.success(),
        "{}",
        String::from_utf8_lossy(&from.stderr)
    );
    let (r, f) = (start_loss(&random.stdout), start_loss(&from.stdout));
    assert!(
        f < 0.8 * r,
        "start from the network {f}, from random weights {r}"
    );
    let manifest = std::fs::read_to_string(d.join("from.nnue.md")).unwrap();
    assert!(
        manifest.contains(&format!("--init {}", shipped.display())),
        "{manifest}"
    );
    for (init, says) in [
        (
            net("bashni-nnue-4.nnue"),
            "a network of bashni, not of russian",
        ),
        (d.join("missing.nnue"), "cannot read --init"),
    ] {
        let out = d.join("refused.nnue");
        let refused = run(Some(&init), &out);
        let err = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(refused.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
        assert!(!out.exists());
    }
    // Brazilian draughts from Russian's network (the same inputs): taken, said so, its first
    // loss far below a random start's, and what it writes is a Brazilian network.
    let brazilian = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/brazilian-sample.txt");
    let random = train("brazilian", &brazilian, None, &d.join("b-random.nnue"));
    let out = d.join("b-from.nnue");
    let from = train(
        "brazilian",
        &brazilian,
        Some(&net("russian-nnue-4.nnue")),
        &out,
    );
    let said = String::from_utf8_lossy(&from.stdout);
    assert!(from.status.success(), "{said}");
    assert!(
        said.contains("--init: a network of russian, whose inputs are brazilian's"),
        "{said}"
    );
    let (r, f) = (start_loss(&random.stdout), start_loss(&from.stdout));
    assert!(
        f < 0.8 * r,
        "start from Russian's network {f}, from random weights {r}"
    );
    let written = std::fs::read(&out).unwrap();
    assert_eq!(&written[8..18], b"brazilian\0");
    let _ = std::fs::remove_dir_all(&d);
}
