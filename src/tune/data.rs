//! Training data for the tuner: streamed from `bashni datagen` files line by line, each
//! position reduced at once to its feature counts, so memory holds a few dozen numbers per
//! position and never the text.

use crate::datagen::format::{parse_game_end, parse_sample};
use crate::files::{LineRead, read_line_limited, size_text};
use crate::games::kit::color::Color;
use crate::games::kit::linear::{LinearEval, Sink};
use crate::games::{Game, Rules};
use std::collections::HashSet;
use std::fs::File;
use std::io::BufReader;
use std::marker::PhantomData;
use std::path::Path;

/// Longest line read; a longer one is reported and skipped.
const MAX_LINE: usize = 4096;
/// Longest stretch read in search of a line's end: past it the input is not data at all.
const MAX_SCAN: u64 = 1 << 20;
/// Reports of bad lines held back until their game's `# game` line says whose data they are
/// (data of another game is refused, and its lines, which do not read as this game's, are
/// not worth a report each); past this many they are reported at once.
const MAX_HELD: usize = 1000;

/// One position: its nonzero feature counts (White's minus Black's), phase and target.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    start: u32,
    len: u16,
    /// The position's phase (see [`LinearEval::phase`]).
    pub phase: u8,
    /// The game's result for White: 1, 0.5 or 0.
    pub result: f32,
    /// The search score, centi-men, White's view.
    pub score: i32,
}

/// Positions of game `G` and their features, in one flat array.
#[derive(Debug)]
pub struct Dataset<G> {
    entries: Vec<Entry>,
    features: Vec<(u16, i16)>,
    game: PhantomData<G>,
}

impl<G> Default for Dataset<G> {
    fn default() -> Self {
        Dataset {
            entries: Vec::new(),
            features: Vec::new(),
            game: PhantomData,
        }
    }
}

/// White-minus-Black counts of one position.
struct Net(Vec<i32>);

impl Sink for Net {
    fn add(&mut self, c: Color, f: usize, count: i32) {
        self.0[f] += if c == Color::White { count } else { -count };
    }
}

/// A set of training positions as a trainer keeps them (the tuner's feature counts, the
/// network trainer's inputs): [`load`] fills one.
pub trait Samples: Default {
    /// The game whose positions these are (how the data files' FENs are read).
    type Game: Game;

    /// Adds a position with its game result (White's share) and search score (White's view).
    fn push(&mut self, pos: &Self::Game, result: f32, score: i32);

    /// Number of positions.
    fn len(&self) -> usize;

    /// Whether there is no position.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<G: LinearEval> Samples for Dataset<G> {
    type Game = G;

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn push(&mut self, pos: &G, result: f32, score: i32) {
        let mut net = Net(vec![0; G::NUM_FEATURES]);
        pos.extract(&mut net);
        let start = self.features.len() as u32;
        for (f, &c) in net.0.iter().enumerate() {
            if c != 0 {
                self.features
                    .push((f as u16, c.clamp(-32768, 32767) as i16));
            }
        }
        self.entries.push(Entry {
            start,
            len: (self.features.len() as u32 - start) as u16,
            phase: pos.phase() as u8,
            result,
            score,
        });
    }
}

impl<G> Dataset<G> {
    /// The positions.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The nonzero (feature, count) pairs of `e`.
    #[inline]
    pub fn features(&self, e: &Entry) -> &[(u16, i16)] {
        &self.features[e.start as usize..e.start as usize + e.len as usize]
    }
}

/// What loading found: the training and validation sets and what was skipped.
#[derive(Default, Debug)]
pub struct Loaded<D> {
    /// Positions to fit.
    pub train: D,
    /// Held-out positions (about one in `valid_every`, chosen by position hash).
    pub valid: D,
    /// Positions seen before (same hash), skipped.
    pub duplicates: u64,
    /// Lines that could not be read, skipped (each reported).
    pub bad_lines: u64,
}

/// [`load`] as `tune` and `train` do it: bad lines reported on stderr, the counts printed,
/// and no training position an error.
pub fn load_reported<D: Samples>(
    paths: &[std::path::PathBuf],
    valid_every: u64,
) -> Result<Loaded<D>, String> {
    let clock = std::time::Instant::now();
    let paths: Vec<&Path> = paths.iter().map(std::path::PathBuf::as_path).collect();
    let loaded = load::<D>(&paths, valid_every, &mut |m| eprintln!("{m}"))?;
    println!(
        "data: {} training, {} validation positions; {} duplicates and {} bad lines skipped ({:.1} s)",
        loaded.train.len(),
        loaded.valid.len(),
        loaded.duplicates,
        loaded.bad_lines,
        clock.elapsed().as_secs_f64()
    );
    if loaded.train.is_empty() {
        return Err("no training positions".into());
    }
    Ok(loaded)
}

/// Reads data files. Each bad line is reported through `report` with its file and line
/// number and skipped; a file that cannot be opened, and data of another game than `D`'s (a
/// `# game` line that names another game, or none for a game other than Bashni: see
/// [`crate::datagen::format`]), is an error. A position whose hash ends in 0 modulo
/// `valid_every` goes to the validation set.
pub fn load<D: Samples>(
    paths: &[&Path],
    valid_every: u64,
    report: &mut dyn FnMut(String),
) -> Result<Loaded<D>, String> {
    let mut out = Loaded::<D>::default();
    let mut seen = HashSet::new();
    for path in paths {
        let name = path.display();
        let file = File::open(path).map_err(|e| format!("cannot read '{name}': {e}"))?;
        let mut reader = BufReader::new(file);
        let mut buf = Vec::new();
        let mut number = 0u64;
        let mut held = Held::default();
        loop {
            let read = read_line_limited(&mut reader, &mut buf, MAX_LINE, MAX_SCAN)
                .map_err(|e| format!("cannot read '{name}': {e}"))?;
            number += 1;
            match read {
                LineRead::Eof => break,
                LineRead::Endless(_) => {
                    // Not data (`tune /dev/zero`): the rest of the file is not read at all.
                    held.add(report, format!(
                        "{name}:{number}: no line ending within {}: not a data file, the rest of it skipped",
                        size_text(MAX_SCAN)
                    ));
                    out.bad_lines += 1;
                    break;
                }
                LineRead::Line(len) if len > MAX_LINE as u64 => {
                    held.add(
                        report,
                        format!("{name}:{number}: line longer than {MAX_LINE} bytes, skipped"),
                    );
                    out.bad_lines += 1;
                    continue;
                }
                LineRead::Line(_) => {}
            }
            let Ok(line) = std::str::from_utf8(&buf) else {
                held.add(report, format!("{name}:{number}: not UTF-8, skipped"));
                out.bad_lines += 1;
                continue;
            };
            if let Some(end) = parse_game_end(line.trim_end()) {
                end.check(<D::Game as Rules>::VARIANT)
                    .map_err(|why| format!("{name}:{number}: {why}"))?;
                held.flush(report);
                continue;
            }
            match parse_sample::<D::Game>(line) {
                Ok(None) => {}
                Ok(Some(s)) => {
                    let hash = s.position.hash();
                    if !seen.insert(hash) {
                        out.duplicates += 1;
                        continue;
                    }
                    let set = if valid_every > 0 && hash % valid_every == 0 {
                        &mut out.valid
                    } else {
                        &mut out.train
                    };
                    set.push(&s.position, s.result.white_score() as f32, s.score);
                }
                Err(e) => {
                    held.add(report, format!("{name}:{number}: {e}, skipped"));
                    out.bad_lines += 1;
                }
            }
        }
        held.flush(report);
    }
    Ok(out)
}

/// Reports of bad lines not yet made (see [`MAX_HELD`]).
#[derive(Default)]
struct Held(Vec<String>);

impl Held {
    /// Holds `msg` back, or reports everything held and it when too many are held.
    fn add(&mut self, report: &mut dyn FnMut(String), msg: String) {
        if self.0.len() < MAX_HELD {
            self.0.push(msg);
        } else {
            self.flush(report);
            report(msg);
        }
    }

    /// Reports everything held.
    fn flush(&mut self, report: &mut dyn FnMut(String)) {
        self.0.drain(..).for_each(report);
    }
}
