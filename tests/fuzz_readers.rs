//! A bounded, seeded fuzz of the readers of hostile text: the PDN reader (its writer on
//! what it read, and the server's new game from it) and the FEN reader of every game (Bashni, Turkish, Russian and Lasca,
//! their own FEN and the standard draughts FEN `W:W...:B...`). Valid inputs are mutated
//! (bytes changed, brackets and numbers put in, pieces cut, doubled and spliced) and random
//! bytes are tried; each must give `Ok` or a typed error, never a panic, and a position read
//! must write a FEN that reads back the same and give its legal moves.
//!
//! Every input that ever crashed a reader is kept in `tests/data/fuzz/` and is fed to every
//! reader on each run. When the fuzz finds one, it writes it to a file and says where: add
//! it there. Each case runs on a thread with a small stack ([`STACK`]), far below the
//! 2 MiB of a tokio worker or a test thread, so recursion that input can drive shows here.

use bashni::games::kit::std_fen::{self, Layout};
use bashni::games::{Game, bashni as bashni_game, lasca, russian, turkish};
use bashni::record::pdn::parse_games;
use bashni::record::pdn_write::write_game;
use bashni::serve::json::{self, Value};
use bashni::serve::settings::parse_new_game;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

/// The stack each case runs on.
const STACK: usize = 512 << 10;
/// Cases of each reader per run; `BASHNI_FUZZ_CASES` asks for more (a longer hunt by hand),
/// `BASHNI_FUZZ_SEED` for other ones.
const CASES: usize = 3000;
/// Largest input tried (a mutation that doubles text stops here).
const MAX_INPUT: usize = 128 << 10;

/// xorshift64*: the same cases on every machine, from one seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Tokens that mean something to one of the readers, and some that break numbers or UTF-8.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    " ",
    "\n",
    "\r\n",
    ".",
    "...",
    "*",
    "1-0",
    "0-1",
    "1/2-1/2",
    "$4",
    "!?",
    "x",
    ":",
    "-",
    "/",
    ",",
    "(w",
    "b)",
    "(wbWB)",
    "W:",
    ":B",
    ":W",
    "K",
    "H0",
    "F1",
    "a1",
    "h8",
    "c3-d4",
    "1.",
    "12...",
    "[FEN \"",
    "[GameType \"",
    "\u{feff}",
    "é",
    "\u{10ffff}",
    "0",
    "9",
    "99",
    "4294967296",
    "18446744073709551616",
    "-1",
    "8",
    "w",
    "b",
];

const PDN_SEEDS: &[&str] = &[
    "[Event \"v\"]\n[Result \"1-0\"]\n\n1. c3-d4?! {+0.35} (1. c3-b4 f6-g5 (1... f6-e5!? 2. \
     b4-a5) 2. g3-h4) 1... f6-e5?? $4 2.d4xf6 (2. a3-b4) g7:e5 1-0\n",
    "[Event \"a \\\"quoted\\\" \\\\ one\"]\n[FEN \"8/8/8/8/8/8/8/W6b b 0 12\"]\n\n12... h1-g2 \
     {a comment\nover two lines} 13. a1:f6:h4 *\n\n[White \"x\"]\n\n1. c3-d4 1/2-1/2\n",
    "[GameType \"25,W,8,8,A0,0\"]\n[FEN \"W:Wa1,c3,e3,Kg3:Bb6,d6,Kh8\"]\n\n1. c3-d4 b6-a5 \
     2. d4-e5 d6xf4 3. e3xg5 *\n",
    "[GameType \"30,W,8,8,A0,0\"]\n[FEN \"W:Wa2,b2,Kd4:Ba7,b7,Kh8\"]\n\n1. d3-d4 d6-d5 2-0\n",
    "\u{feff}1. c3-d4 (1. c3-b4 (1. a3-b4 (1. e3-f4))) f6-e5 2. d4xf6 g7xe5 0-2\n",
];

/// FENs of every game, their own and the standard, and every game's bench positions.
fn fen_seeds() -> Vec<String> {
    let mut seeds: Vec<String> = [
        "W:W1-12:B21-32",
        "B:WKa1,c3:Bb8",
        "b:WKc3,a1:Bb8.",
        "B:W1,K10:B29:H0:F1",
        "W:Wa2,b2,c2,d2:Ba7,b7,Kh8:H3:F7",
        "8/8/8/8/8/8/1b6/(wbb)7 w",
        "8/8/8/8/8/8/8/W6b b 0 12",
        "8/b5b1/1(bw)6/(Bbwwwww)1(bw)5/8/(bBww)7/5(Bbww)1(Wbb)/8 b 0 43",
    ]
    .map(String::from)
    .to_vec();
    fn of<G: Game>(seeds: &mut Vec<String>) {
        seeds.push(G::START_FEN.to_string());
        seeds.extend(G::BENCH_POSITIONS.iter().map(|f| f.to_string()));
    }
    of::<bashni_game::Position>(&mut seeds);
    of::<turkish::Position>(&mut seeds);
    of::<russian::Position>(&mut seeds);
    of::<lasca::Position>(&mut seeds);
    seeds
}

/// `seed` changed one to four times.
fn mutate(rng: &mut Rng, seed: &[u8], seeds: &[&[u8]]) -> Vec<u8> {
    let mut t = seed.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(t.len() + 1);
        let end = (at + 1 + rng.below(16)).min(t.len());
        match rng.below(8) {
            0 if !t.is_empty() => {
                let last = t.len() - 1;
                t[at.min(last)] = rng.next() as u8;
            }
            1 | 2 => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                t.splice(at..at, token.iter().copied());
            }
            3 if at < end => {
                t.drain(at..end);
            }
            4 if at < end => {
                let piece = t[at..end].to_vec();
                // Now and then thousands of times: nesting, long numbers, long lines.
                let most = if rng.below(4) == 0 { 8192 } else { 64 };
                let times = 1 + rng.below(most);
                let more: Vec<u8> = piece
                    .iter()
                    .copied()
                    .cycle()
                    .take(piece.len() * times)
                    .collect();
                t.splice(at..at, more);
            }
            5 => {
                // A variation inside the last, thousands of times over, and all closed (a
                // bracket with a token after it: what the PDN reader nests on).
                let token = TOKENS[rng.below(TOKENS.len())];
                let levels = 1 + rng.below(16_384);
                let nest = format!("({token} ").repeat(levels) + &")".repeat(levels);
                t.splice(at..at, nest.bytes());
            }
            6 => {
                let other = seeds[rng.below(seeds.len())];
                let from = rng.below(other.len() + 1);
                t.truncate(at);
                t.extend_from_slice(&other[from..]);
            }
            _ => t.truncate(at),
        }
        t.truncate(MAX_INPUT);
    }
    t
}

/// Random bytes: any byte, or the readers' own tokens.
fn noise(rng: &mut Rng) -> Vec<u8> {
    let mut t = Vec::new();
    for _ in 0..rng.below(200) {
        if rng.below(2) == 0 {
            t.push(rng.next() as u8);
        } else {
            t.extend_from_slice(TOKENS[rng.below(TOKENS.len())].as_bytes());
        }
    }
    t
}

/// The cases of one run: mutated seeds, one in eight random bytes.
fn cases(seed: u64, seeds: &[&[u8]]) -> Vec<String> {
    let from_env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let count = from_env("BASHNI_FUZZ_CASES").map_or(CASES, |n| n as usize);
    let mut rng = Rng(seed ^ from_env("BASHNI_FUZZ_SEED").unwrap_or(0));
    (0..count)
        .map(|_| {
            let bytes = if rng.below(8) == 0 {
                noise(&mut rng)
            } else {
                let from = seeds[rng.below(seeds.len())];
                mutate(&mut rng, from, seeds)
            };
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .collect()
}

/// The PDN reader on `text`; what it read is written and read back, and the server opens
/// it as a new game would be (its lines replayed, its variations collected).
fn read_pdn(text: &str) {
    let body = json::object([("pdn", Value::from(text))]);
    let _ = parse_new_game(&body, 1000);
    if let Ok(games) = parse_games(text) {
        for g in &games {
            let written = write_game(g);
            let _ = parse_games(&written);
        }
    }
}

/// Game `G`'s FEN reader on `text`; a position read is written and read back the same.
fn read_fen<G: Game>(text: &str) {
    if let Ok(p) = G::from_fen(text) {
        let fen = p.to_fen();
        let back = G::from_fen(&fen).unwrap_or_else(|e| panic!("{fen} does not read back: {e}"));
        assert_eq!(back.to_fen(), fen);
        let _ = p.legal_moves();
        let _ = p.to_pdn_fen();
    }
}

/// Every FEN reader on `text`: each game's, and the standard FEN's in both layouts.
fn read_fens(text: &str) {
    read_fen::<bashni_game::Position>(text);
    read_fen::<turkish::Position>(text);
    read_fen::<russian::Position>(text);
    read_fen::<lasca::Position>(text);
    let _ = std_fen::parse(text, Layout::Diagonal);
    let _ = std_fen::parse(text, Layout::Full);
}

/// Runs `read` on every input, each on a small stack; the inputs that panicked are written
/// to files, and the test fails naming them.
fn survive(what: &str, inputs: &[String], read: fn(&str)) {
    let inputs = inputs.to_vec();
    let crashed = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            inputs
                .into_iter()
                .filter(|t| catch_unwind(AssertUnwindSafe(|| read(t))).is_err())
                .collect::<Vec<_>>()
        })
        .unwrap()
        .join()
        .expect("a reader overflowed the stack or aborted");
    let files: Vec<String> = crashed
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let f = std::env::temp_dir().join(format!("bashni-fuzz-{what}-{i}.txt"));
            std::fs::write(&f, t).unwrap();
            f.display().to_string()
        })
        .collect();
    assert!(
        files.is_empty(),
        "{} inputs crashed the {what} reader; add them to tests/data/fuzz/: {files:?}",
        files.len()
    );
}

#[test]
fn the_pdn_reader_survives_mutated_and_random_text() {
    let seeds: Vec<&[u8]> = PDN_SEEDS.iter().map(|s| s.as_bytes()).collect();
    survive("pdn", &cases(0x5eed_0001, &seeds), read_pdn);
}

#[test]
fn every_fen_reader_survives_mutated_and_random_text() {
    let fens = fen_seeds();
    let seeds: Vec<&[u8]> = fens.iter().map(|s| s.as_bytes()).collect();
    survive("fen", &cases(0x5eed_0002, &seeds), read_fens);
}

/// The kept crash corpus.
fn corpus() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}", dir.display());
    files
        .iter()
        .map(|f| String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned())
        .collect()
}

#[test]
fn every_input_that_ever_crashed_a_reader_is_read_by_all_of_them() {
    let inputs = corpus();
    survive("corpus-pdn", &inputs, read_pdn);
    survive("corpus-fen", &inputs, read_fens);
}
