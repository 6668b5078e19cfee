//! Protocol stress test (issue 14): random and mutated command lines (bad FENs, illegal
//! moves, absurd limits and options, junk bytes, long lines) mixed with fast
//! `go`/`stop`/`position`/`ponderhit`/`isready` sequences, sent in bursts to the real binary.
//! After each burst it checks that the engine is alive and answers `readyok`, that every
//! accepted `go` got exactly one legal `bestmove` (and every `go perft` one count), and, by
//! `d`, that the position is what the accepted commands made it (an error leaves it as it
//! was). The game switches between the variants (`setoption name UCI_Variant`) on the way,
//! so that every game is stressed and a switch is checked to take effect in its turn.
//!
//! Deterministic by seed. Run it longer or with another seed:
//! `BASHNI_STRESS_LINES=200000 BASHNI_STRESS_SEED=7 cargo test --profile suite -- protocol_stress::`
//! (`BASHNI_STRESS_LOG=<file>` also writes every line sent to that file).

use crate::common;

use bashni::games::bashni::notation::START_FEN;
use bashni::games::{Game, Record, Rules, Variant, brazilian, lasca, russian, turkish};
use bashni::protocol::MAX_LINE_BYTES;
use bashni::protocol::command::{Command, parse_line};
use bashni::protocol::game::AnyGame;
use bashni::protocol::options::{OptionChange, parse_change};
use common::gui::Gui;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Lines sent in the default run.
const DEFAULT_LINES: usize = 10_000;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Bashni FENs the generator starts from or mutates (towers, kings, a side with no move).
const FENS: [&str; 5] = [
    START_FEN,
    "8/8/3(bb)1(bb)2/8/1W1(bb)1(bb)2/8/8/8 w",
    "8/8/8/6B1/1b1b4/6b1/8/W7 w 0 1",
    "8/8/8/8/8/2b5/1b6/w7 w",
    "1b1b4/8/8/8/8/8/5w2/4(wbw)3 b 3 40",
];

/// Turkish draughts FENs (the start, kings, one king against two men).
const TURKISH_FENS: [&str; 3] = [
    "8/bbbbbbbb/bbbbbbbb/8/8/wwwwwwww/wwwwwwww/8 w 0 1",
    "8/8/8/3B4/8/8/8/W6W w 40 30",
    "8/8/8/8/8/8/b6b/W7 w",
];

/// Russian draughts FENs (the start, kings, a side with no move).
const RUSSIAN_FENS: [&str; 3] = [
    START_FEN,
    "8/8/8/6B1/1b1b4/6b1/8/W7 w 0 1",
    "8/8/8/8/8/2b5/1b6/w7 w",
];

/// Lasca positions the stress test plays from.
const LASCA_FENS: [&str; 3] = [
    lasca::START_FEN,
    "7/1b1b3/7/1b1b3/2W4/7/7 w 0 1",
    "7/3b1b1/2(wB)4/7/7/7/7 w",
];

/// Runs `$body` with `$g` bound to the record inside an `AnyGame`, whichever game it is.
macro_rules! on_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            AnyGame::Bashni($g) => $body,
            AnyGame::Turkish($g) => $body,
            AnyGame::Russian($g) => $body,
            AnyGame::Brazilian($g) => $body,
            AnyGame::Lasca($g) => $body,
        }
    };
}

/// Words the generator builds lines from, valid and not.
const WORDS: [&str; 24] = [
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "position",
    "startpos",
    "fen",
    "moves",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "MultiPV",
    "isready",
];

/// Numbers, sensible and absurd.
const NUMBERS: [&str; 12] = [
    "0",
    "1",
    "2",
    "3",
    "-1",
    "+3",
    "65536",
    "4294967296",
    "18446744073709551615",
    "9223372036854775807",
    "99999999999999999999999",
    "x",
];

/// What the engine is expected to answer, by the model.
#[derive(Default)]
struct Expect {
    /// The game of each accepted `go`, in order.
    searches: Vec<AnyGame>,
    /// Accepted `go perft` commands.
    perfts: usize,
    /// `isready` commands.
    readyoks: usize,
}

/// The generator and the model of the engine's state.
struct Stress {
    rng: StdRng,
    /// The game the accepted `position`s and `UCI_Variant`s made.
    game: AnyGame,
    expect: Expect,
}

impl Stress {
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.rng.random_range(0..from.len())]
    }

    /// A `position` line: a random playout from a known FEN of the game being played (now
    /// and then of another game), sometimes with an illegal or malformed move at the end.
    fn position_line(&mut self) -> String {
        let variant = if self.rng.random_bool(0.9) {
            self.game.variant()
        } else {
            Variant::ALL[self.rng.random_range(0..Variant::ALL.len())]
        };
        let (fen, mut moves, start) = match variant {
            Variant::Bashni => self.playout::<bashni::games::bashni::Position>(&FENS),
            Variant::Turkish => self.playout::<turkish::Position>(&TURKISH_FENS),
            Variant::Russian => self.playout::<russian::Position>(&RUSSIAN_FENS),
            // The same positions: a majority capture and a man with no move.
            Variant::Brazilian => self.playout::<brazilian::Position>(&RUSSIAN_FENS),
            Variant::Lasca => self.playout::<lasca::Position>(&LASCA_FENS),
        };
        if self.rng.random_bool(0.2) {
            let bad = self.pick(&["c3-c4", "a1-h8", "c3d4", "z9-a1", "c3:e5:g7:", ""]);
            moves.push(bad.to_string());
        }
        let head = if start && self.rng.random_bool(0.5) {
            "position startpos".to_string()
        } else {
            format!("position fen {fen}")
        };
        if moves.is_empty() {
            head
        } else {
            format!("{head} moves {}", moves.join(" "))
        }
    }

    /// Up to 11 random legal moves of game `G` from one of `fens`: the FEN, the moves, and
    /// whether the FEN is the game's start.
    fn playout<G: Game>(&mut self, fens: &[&'static str]) -> (&'static str, Vec<String>, bool) {
        let fen = self.pick(fens);
        let mut game = Record::new(G::from_fen(fen).unwrap());
        let mut moves = Vec::new();
        for _ in 0..self.rng.random_range(0..12) {
            let legal = game.position().legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[self.rng.random_range(0..legal.len())];
            moves.push(m.to_string());
            game.play(m);
        }
        (fen, moves, fen == G::START_FEN)
    }

    /// A `go` that ends by itself soon, or one that only `stop` ends.
    fn go_line(&mut self) -> String {
        let limit = match self.rng.random_range(0..6) {
            0 => format!("depth {}", self.rng.random_range(0..4)),
            1 => format!("nodes {}", self.rng.random_range(0..3000)),
            2 => format!("movetime {}", self.rng.random_range(0..6)),
            3 => format!(
                "wtime {0} btime {0} winc 0 binc 0",
                self.rng.random_range(0..200)
            ),
            4 => "infinite".to_string(),
            _ => String::new(),
        };
        let ponder = if self.rng.random_bool(0.2) {
            " ponder"
        } else {
            ""
        };
        let search = match self.rng.random_bool(0.1) {
            true => " searchmoves c3-d4 a3-b4",
            false => "",
        };
        format!("go {limit}{ponder}{search}")
    }

    /// A line of random words and numbers, or junk bytes, or a long line.
    fn junk_line(&mut self) -> Vec<u8> {
        match self.rng.random_range(0..10) {
            0..=4 => {
                let n = self.rng.random_range(1..8);
                let words: Vec<&str> = (0..n)
                    .map(|_| {
                        if self.rng.random_bool(0.3) {
                            self.pick(&NUMBERS)
                        } else {
                            self.pick(&WORDS)
                        }
                    })
                    .collect();
                words.join(" ").into_bytes()
            }
            5..=7 => (0..self.rng.random_range(1..60))
                .map(|_| self.rng.random::<u8>())
                .filter(|b| *b != b'\n')
                .collect(),
            8 => {
                let word = self.pick(&["position fen ", "go depth ", "setoption name ", ""]);
                let len = self.rng.random_range(300..20_000);
                let mut line = word.as_bytes().to_vec();
                line.extend((0..len).map(|i| b"1b/w( )"[i % 7]));
                line
            }
            _ => {
                let setting = self.pick(&["Hash", "Threads", "MultiPV", "Move Overhead", "Ponder"]);
                let value = self.pick(&["1", "2", "3", "0", "true", "65537", "-5", "abc"]);
                format!("setoption name {setting} value {value}").into_bytes()
            }
        }
    }

    /// A valid line with one random edit: a byte deleted, replaced or inserted.
    fn mutate(&mut self, mut line: Vec<u8>) -> Vec<u8> {
        if line.is_empty() {
            return line;
        }
        let at = self.rng.random_range(0..line.len());
        let byte = *b" -:x0123456789wbWB()/"
            .get(self.rng.random_range(0..21))
            .unwrap();
        match self.rng.random_range(0..3) {
            0 => {
                line.remove(at);
            }
            1 => line[at] = byte,
            _ => line.insert(at, byte),
        }
        line
    }

    /// One generated line (without its end).
    fn line(&mut self) -> Vec<u8> {
        match self.rng.random_range(0..100) {
            0..=14 => self.position_line().into_bytes(),
            15..=34 => self.go_line().into_bytes(),
            35..=44 => b"stop".to_vec(),
            45..=49 => b"ponderhit".to_vec(),
            50..=54 => b"isready".to_vec(),
            55..=57 => format!("go perft {}", self.rng.random_range(0..4)).into_bytes(),
            58..=59 => self
                .pick(&["d", "eval", "ucinewgame", "uci", "debug on"])
                .into(),
            60..=61 => {
                let v = self.pick(&[
                    "bashni",
                    "turkish",
                    "russian",
                    "brazilian",
                    "Turkish",
                    "chess",
                    "",
                ]);
                format!("setoption name UCI_Variant value {v}").into_bytes()
            }
            62..=79 => self.junk_line(),
            _ => {
                let base = if self.rng.random_bool(0.5) {
                    self.position_line()
                } else {
                    self.go_line()
                };
                self.mutate(base.into_bytes())
            }
        }
    }

    /// Updates the model for one line as the engine reads it; false for a line the test
    /// must not send (one that parses as `quit`).
    fn model(&mut self, bytes: &[u8]) -> bool {
        if bytes.len() > MAX_LINE_BYTES {
            return true; // refused whole
        }
        let text = String::from_utf8_lossy(bytes);
        let text = text.trim_end_matches(['\n', '\r']);
        match parse_line(text) {
            Ok(Some(Command::Quit)) => return false,
            Ok(Some(Command::Position(args))) => on_game!(&mut self.game, g => {
                if let Ok(game) = args.to_game() {
                    *g = game;
                }
            }),
            Ok(Some(Command::NewGame)) => self.game = AnyGame::start(self.game.variant()),
            // Only this option changes the game (and the others may read files or memory).
            Ok(Some(Command::SetOption { name, value }))
                if name.eq_ignore_ascii_case("UCI_Variant") =>
            {
                if let Ok(OptionChange::Variant(v)) = parse_change(&name, value.as_deref()) {
                    self.game = AnyGame::start(v);
                }
            }
            Ok(Some(Command::Go(args))) if on_game!(&self.game, g => args.to_limits(g, 1).is_ok()) =>
            {
                self.expect.searches.push(self.game.clone());
            }
            Ok(Some(Command::Perft(_))) => self.expect.perfts += 1,
            Ok(Some(Command::IsReady)) => self.expect.readyoks += 1,
            _ => {}
        }
        true
    }
}

/// Checks a `bestmove` line against the position its `go` searched.
fn check_bestmove<G: Game>(line: &str, pos: &G, transcript: &dyn Fn() -> String) {
    let best = line.split_whitespace().nth(1).unwrap_or("");
    let legal = pos.legal_moves();
    if legal.is_empty() {
        assert_eq!(best, "(none)", "{line}\n{}", transcript());
    } else {
        let ok = pos.parse_move(best).is_ok_and(|m| m.to_string() == best);
        assert!(ok, "illegal {line} in {}\n{}", pos.to_fen(), transcript());
    }
}

/// What the engine said since the last check, counted against the model.
#[derive(Default)]
struct Seen {
    bestmoves: usize,
    perfts: usize,
    readyoks: usize,
}

impl Seen {
    /// Takes one answer line; panics on a `bestmove` or count that no command asked for.
    fn take(&mut self, line: &str, expect: &Expect, gui: &Gui) {
        if line.starts_with("bestmove") {
            let pos = expect.searches.get(self.bestmoves);
            let game = pos.unwrap_or_else(|| panic!("a bestmove too many\n{}", tail(gui)));
            on_game!(game, g => check_bestmove(line, g.position(), &|| tail(gui)));
            self.bestmoves += 1;
        } else if line.starts_with("nodes ") || line == "info string perft stopped" {
            self.perfts += 1;
            assert!(
                self.perfts <= expect.perfts,
                "a perft count too many\n{}",
                tail(gui)
            );
        } else if line == "readyok" {
            self.readyoks += 1;
            assert!(
                self.readyoks <= expect.readyoks,
                "a readyok too many\n{}",
                tail(gui)
            );
        }
    }

    fn complete(&self, expect: &Expect) -> bool {
        self.bestmoves == expect.searches.len()
            && self.perfts == expect.perfts
            && self.readyoks == expect.readyoks
    }
}

fn tail(gui: &Gui) -> String {
    let t = &gui.transcript;
    t[t.len().saturating_sub(40)..].join("\n")
}

/// Appends `burst` to the file `BASHNI_STRESS_LOG` names, if any: the exact input, to
/// replay a failure with `bashni < file`.
fn log(burst: &[u8]) {
    use std::io::Write;
    let Ok(path) = std::env::var("BASHNI_STRESS_LOG") else {
        return;
    };
    let file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path);
    let _ = file.and_then(|mut f| {
        f.write_all(burst)
            .and_then(|_| f.write_all(b"stop\nisready\n"))
    });
}

/// Ends a burst: `stop`, `isready`, then waits for `readyok` and every answer still due.
fn settle(gui: &mut Gui, stress: &mut Stress, seen: &mut Seen) {
    gui.send_bytes(b"stop\nisready\n");
    stress.expect.readyoks += 1;
    while !seen.complete(&stress.expect) {
        let Some((_, line)) = gui.next_timed(common::gui::DEADLINE) else {
            panic!("no answer (alive: {})\n{}", !gui.exited(), tail(gui));
        };
        seen.take(&line, &stress.expect, gui);
    }
}

/// Asks `d` and checks the FEN against the model.
fn check_position(gui: &mut Gui, stress: &Stress, seen: &mut Seen) {
    gui.send("d");
    loop {
        let Some((_, line)) = gui.next_timed(common::gui::DEADLINE) else {
            panic!("no answer to d\n{}", tail(gui));
        };
        seen.take(&line, &stress.expect, gui);
        if let Some(fen) = line.strip_prefix("FEN: ") {
            let want = on_game!(&stress.game, g => g.position().to_fen());
            assert_eq!(fen, want, "position differs from the model\n{}", tail(gui));
            return;
        }
    }
}

#[test]
fn random_and_mutated_lines_keep_the_engine_correct() {
    let lines = env_number("BASHNI_STRESS_LINES", DEFAULT_LINES as u64) as usize;
    let seed = env_number("BASHNI_STRESS_SEED", 14);
    let mut stress = Stress {
        rng: StdRng::seed_from_u64(seed),
        game: AnyGame::start(Variant::Bashni),
        expect: Expect::default(),
    };
    let mut gui = Gui::new();
    let mut seen = Seen::default();
    let mut sent = 0;
    let mut bursts = 0;
    while sent < lines {
        let mut burst = Vec::new();
        for _ in 0..stress.rng.random_range(1..16) {
            let line = stress.line();
            if stress.model(&line) {
                burst.extend_from_slice(&line);
                burst.push(b'\n');
                sent += 1;
            }
        }
        if bursts % 500 == 7 {
            // Once in a while a line longer than the reader keeps.
            burst.extend(std::iter::repeat_n(b'g', MAX_LINE_BYTES + 10));
            burst.push(b'\n');
            sent += 1;
        }
        log(&burst);
        gui.send_bytes(&burst);
        // The closing `stop` is part of the protocol traffic too: it stops what is queued.
        sent += 2;
        settle(&mut gui, &mut stress, &mut seen);
        if bursts % 10 == 0 {
            check_position(&mut gui, &stress, &mut seen);
        }
        bursts += 1;
    }
    check_position(&mut gui, &stress, &mut seen);
    gui.send("quit");
    assert!(gui.wait_exit().success());
    eprintln!(
        "stress: seed {seed}, {sent} lines in {bursts} bursts, {} searches, {} perfts",
        stress.expect.searches.len(),
        stress.expect.perfts
    );
}
