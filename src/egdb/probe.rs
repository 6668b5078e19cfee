//! The tables of one game, in memory or read from their files, and [`Probe`]: the value of a
//! position ([`Probe::probe`]) or only its class ([`Probe::probe_wdl`], which reads the value
//! layer alone), with a cache of decoded blocks of each layer so that a repeated probe costs
//! an index and a lookup. A block is read from its file into the cache's own buffer and
//! decoded only up to the slot a probe reads (on average half of it), and a later probe of a
//! slot further on goes on from there.

use super::coder::{DistanceCursor, WdlCursor};
use super::file::{BLOCK, Changed, DISTANCES, Expected, FileError, TableFile, VALUES, file_name};
use super::game::EgdbGame;
use super::material::{Indexer, Signature, indexer};
use super::value::{Plies, Value, Wdl, after_resets, wdl_after_resets};
use crate::games::kit::Color;
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::path::Path;

/// Why a probe has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// The position's material has no table here.
    NotInDatabase(Signature),
    /// A table's block does not decode (the file was checked when read, so this is a bug or
    /// memory corruption).
    Damaged(Signature),
    /// A table's file changed since it was opened (rewritten or cut in place): it answers
    /// nothing until it is opened again.
    Changed(Signature),
    /// A position no game reaches, which no table holds: a man on its own last rank.
    Impossible,
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ProbeError::NotInDatabase(sig) => write!(f, "no table for {sig} (side to move first)"),
            ProbeError::Damaged(sig) => write!(f, "the table of {sig} does not decode"),
            ProbeError::Changed(sig) => write!(
                f,
                "the file of the table of {sig} changed since it was opened; open the tables again"
            ),
            ProbeError::Impossible => {
                write!(
                    f,
                    "a man on its own last rank: no game reaches such a position"
                )
            }
        }
    }
}

impl std::error::Error for ProbeError {}

enum Table {
    /// Every slot's code, as the solver left them.
    Memory(Vec<u16>),
    /// A file's layers; `id` names it in probes' caches.
    File(TableFile, u32),
}

/// The tables of game `G`.
pub struct Store<G> {
    tables: HashMap<Signature, (Indexer, Table)>,
    files: u32,
    game: PhantomData<fn() -> G>,
}

impl<G: EgdbGame> Default for Store<G> {
    fn default() -> Self {
        Store {
            tables: HashMap::new(),
            files: 0,
            game: PhantomData,
        }
    }
}

impl<G: EgdbGame> Store<G> {
    /// Every table of `G` in `dir` (files named as [`file_name`] names them); an empty store
    /// if there is none. A damaged or foreign file is refused.
    pub fn open(dir: &Path) -> Result<Store<G>, FileError> {
        Store::open_except(dir, &[])
    }

    /// Every table of `G` in `dir` but those of `skip` (tables about to be solved again,
    /// whose files may be of an older version).
    pub fn open_except(dir: &Path, skip: &[Signature]) -> Result<Store<G>, FileError> {
        let mut store = Store::default();
        let prefix = format!("{}-", G::VARIANT);
        let entries =
            std::fs::read_dir(dir).map_err(|e| FileError::Io(dir.to_path_buf(), e.to_string()))?;
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.starts_with(&prefix) && n.ends_with(".egdb"))
            .collect();
        names.sort();
        for name in names {
            let sig = name[prefix.len()..name.len() - 5]
                .parse::<SigText>()
                .map(|s| s.0);
            let path = dir.join(&name);
            let sig = sig
                .map_err(|_| FileError::Foreign(path.clone(), "not a table's file name".into()))?;
            if !skip.contains(&sig) {
                store.load(&path, sig)?;
            }
        }
        Ok(store)
    }

    /// Reads the table of `sig` from `path`.
    pub fn load(&mut self, path: &Path, sig: Signature) -> Result<(), FileError> {
        let ix = indexer::<G>(sig);
        let expected = Expected {
            variant: G::VARIANT,
            sig,
            limit: G::CLOCK_LIMIT,
            slots: ix.size(),
        };
        let file = TableFile::read(path, &expected)?;
        self.files += 1;
        self.tables.insert(sig, (ix, Table::File(file, self.files)));
        Ok(())
    }

    /// Whether the file of `sig` is in `dir` and reads (then it is loaded).
    pub fn load_if_present(&mut self, dir: &Path, sig: Signature) -> bool {
        let path = dir.join(file_name(G::VARIANT, sig));
        path.exists() && self.load(&path, sig).is_ok()
    }

    /// Adds a table the solver has just solved: each slot's value code.
    pub fn insert(&mut self, sig: Signature, values: Vec<u16>) {
        self.tables
            .insert(sig, (indexer::<G>(sig), Table::Memory(values)));
    }

    /// Whether the store has the table of `sig`.
    pub fn has(&self, sig: Signature) -> bool {
        self.tables.contains_key(&sig)
    }

    /// The signatures of the tables read from files, sorted.
    pub fn file_tables(&self) -> Vec<(Signature, &TableFile)> {
        let mut v: Vec<_> = self
            .tables
            .iter()
            .filter_map(|(&s, (_, t))| match t {
                Table::File(f, _) => Some((s, f)),
                Table::Memory(_) => None,
            })
            .collect();
        v.sort_by_key(|(s, _)| (s.pieces(), s.men(), *s));
        v
    }

    /// A probe of these tables (one per thread: it keeps its own cache).
    pub fn prober(&self) -> Probe<'_, G> {
        Probe {
            store: self,
            classes: (0..CACHE_LINES).map(|_| Line::default()).collect(),
            distances: (0..CACHE_LINES).map(|_| Line::default()).collect(),
        }
    }
}

/// A signature read from a file name.
struct SigText(Signature);

impl std::str::FromStr for SigText {
    type Err = super::material::SignatureError;
    fn from_str(s: &str) -> Result<SigText, Self::Err> {
        Signature::parse(s).map(SigText)
    }
}

/// Bits of a line's number: a line is the top bits of a multiplicative hash of its key.
const CACHE_BITS: u32 = 10;
/// Decoded blocks a probe keeps (each at most 4 KiB of classes and 8 KiB of distances).
const CACHE_LINES: usize = 1 << CACHE_BITS;

/// One block of a layer as far as it was decoded, its bytes, and where its decoder stopped.
struct Line<C, T> {
    /// 0 for an empty line, else `id << 32 | block + 1`.
    key: u64,
    /// The block's bytes, as read from its file.
    bytes: Vec<u8>,
    cursor: Option<C>,
    /// The block's slots from its first, as far as decoded.
    slots: Vec<T>,
}

impl<C, T> Default for Line<C, T> {
    fn default() -> Self {
        Line {
            key: 0,
            bytes: Vec::new(),
            cursor: None,
            slots: Vec::new(),
        }
    }
}

/// Probes positions of game `G`: [`Probe::probe`], [`Probe::probe_wdl`]. Keeps the blocks
/// it decoded last, each decoded only as far as a probe read it.
pub struct Probe<'a, G> {
    store: &'a Store<G>,
    /// The value layer's blocks.
    classes: Vec<Line<WdlCursor, u8>>,
    /// The distance layer's blocks, keyed alike.
    distances: Vec<Line<DistanceCursor, u16>>,
}

/// Where a position's slot lies: a table in memory and its slot, or a file, its cache key,
/// block and slot in the block.
enum Slot<'s> {
    Memory(u16),
    File(&'s TableFile, u64, usize, usize),
}

/// What a probe found before reading a table: the value already, or the slot to read.
enum Found<'s> {
    Known(Value),
    Search,
    Slot(Signature, Slot<'s>),
}

/// The cache line of `key`.
fn line(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CACHE_BITS)) as usize
}

impl<'a, G: EgdbGame> Probe<'a, G> {
    /// The value of `pos` for its side to move with the no-progress clock at 0 (the clock in
    /// `pos` is not read: [`Value::at_clock`] gives the outcome at a clock). A position with
    /// a capture to play is resolved by probing the positions after its captures.
    pub fn probe(&mut self, pos: &G) -> Result<Value, ProbeError> {
        let (sig, slot) = match self.find(pos)? {
            Found::Known(v) => return Ok(v),
            Found::Search => return self.search(pos),
            Found::Slot(sig, slot) => (sig, slot),
        };
        match slot {
            Slot::Memory(code) => Value::decode(code).ok_or(ProbeError::Damaged(sig)),
            Slot::File(file, key, block, at) => {
                let changed = |_| ProbeError::Changed(sig);
                let class = self.class(file, key, block, at).map_err(changed)?;
                let d = if class == Wdl::Draw as u8 {
                    0
                } else {
                    self.distance(file, key, block, at).map_err(changed)?
                };
                Value::with_class(class, Plies(d)).ok_or(ProbeError::Damaged(sig))
            }
        }
    }

    /// The class of `pos`'s value (as [`Probe::probe`]'s), read from the value layer alone.
    pub fn probe_wdl(&mut self, pos: &G) -> Result<Wdl, ProbeError> {
        let (sig, slot) = match self.find(pos)? {
            Found::Known(v) => return Ok(Wdl::of(v)),
            Found::Search => {
                let mut classes = Vec::new();
                for m in pos.legal_moves().iter() {
                    classes.push(self.probe_wdl(&pos.played(m))?);
                }
                return Ok(wdl_after_resets(classes));
            }
            Found::Slot(sig, slot) => (sig, slot),
        };
        let class = match slot {
            Slot::Memory(code) => Value::decode(code).map(Value::class),
            Slot::File(file, key, block, at) => Some(
                self.class(file, key, block, at)
                    .map_err(|_| ProbeError::Changed(sig))?,
            ),
        };
        class
            .and_then(Wdl::from_class)
            .ok_or(ProbeError::Damaged(sig))
    }

    /// The class of slot `at` of block `block` of `file`, reading the block and decoding it
    /// up to the slot unless cached that far.
    fn class(
        &mut self,
        file: &TableFile,
        key: u64,
        block: usize,
        at: usize,
    ) -> Result<u8, Changed> {
        let l = &mut self.classes[line(key)];
        if l.key != key {
            // The distances cached on this line were decoded with the block's classes.
            self.distances[line(key)].key = 0;
            l.key = 0;
            l.slots.clear();
            file.read_block(VALUES, block, &mut l.bytes)?;
            l.cursor = Some(file.wdl_cursor(&l.bytes));
            l.key = key;
        }
        if l.slots.len() <= at
            && let Some(cursor) = l.cursor.as_mut()
        {
            file.decode_wdl_to(block, &l.bytes, cursor, at + 1, &mut l.slots);
        }
        Ok(l.slots[at])
    }

    /// The distance of slot `at` of block `block` of `file`, whose class was just read
    /// ([`Probe::class`]: the line of `key` holds the classes up to `at`).
    fn distance(
        &mut self,
        file: &TableFile,
        key: u64,
        block: usize,
        at: usize,
    ) -> Result<u16, Changed> {
        let classes = &self.classes[line(key)].slots[..=at];
        let l = &mut self.distances[line(key)];
        if l.key != key {
            l.key = 0;
            l.slots.clear();
            file.read_block(DISTANCES, block, &mut l.bytes)?;
            l.cursor = Some(file.distance_cursor(&l.bytes));
            l.key = key;
        }
        if l.slots.len() <= at
            && let Some(cursor) = l.cursor.as_mut()
        {
            file.decode_distance_to(&l.bytes, cursor, classes, &mut l.slots);
        }
        Ok(l.slots[at])
    }

    /// Where `pos` is answered: at once (decided, no piece left), by a search of its moves
    /// (a capture to play, or the opponent has no piece), or by a slot of a table.
    fn find(&self, pos: &G) -> Result<Found<'a>, ProbeError> {
        if let Some(w) = pos.decided() {
            return Ok(Found::Known(if w == pos.side_to_move() {
                Value::Win(Plies(0))
            } else {
                Value::Loss(Plies(0))
            }));
        }
        let layout = pos.layout();
        if layout.pieces(layout.side) == 0 {
            return Ok(Found::Known(Value::Loss(Plies(0))));
        }
        if layout.pieces(layout.side.opponent()) == 0 {
            return Ok(Found::Search);
        }
        // A man on its own last rank (a position no game reaches, and whose index would fall
        // outside its table): refused, never looked up.
        if [Color::White, Color::Black]
            .into_iter()
            .any(|c| layout.men[c.index()] & !G::man_squares(c) != 0)
        {
            return Err(ProbeError::Impossible);
        }
        // White to move, and in Turkish draughts the one of a position and its mirror that
        // the table holds.
        let canon = super::game::stored::<G>(&layout);
        let sig = Signature::of(&canon);
        let store: &'a Store<G> = self.store;
        let (ix, table) = store
            .tables
            .get(&sig)
            .ok_or(ProbeError::NotInDatabase(sig))?;
        Ok(match table {
            Table::Memory(values) => {
                Found::Slot(sig, Slot::Memory(values[ix.index(&canon) as usize]))
            }
            Table::File(..) if pos.can_capture() => Found::Search,
            Table::File(file, id) => {
                let slot = ix.index(&canon) as usize;
                let (block, at) = (slot / BLOCK, slot % BLOCK);
                let key = (u64::from(*id) << 32) | (block as u64 + 1);
                Found::Slot(sig, Slot::File(file, key, block, at))
            }
        })
    }

    /// The value from the positions after each legal move, every one of which resets the
    /// clock (captures; or the opponent has no piece left to move after any move).
    fn search(&mut self, pos: &G) -> Result<Value, ProbeError> {
        let mut values = Vec::new();
        for m in pos.legal_moves().iter() {
            values.push(self.probe(&pos.played(m))?);
        }
        Ok(after_resets(values))
    }
}
