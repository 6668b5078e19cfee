//! The file of one table: a header (game, material, rule, version, checksum), then two
//! layers, each in blocks of [`BLOCK`] slots coded on their own ([`super::coder`]): the value
//! layer (win, cursed win, draw, blessed loss or loss: what a search needs) and the distance
//! layer (the plies to the next capture or man move, read only where a distance is needed).
//!
//! A file is opened only if it is a regular file, and read through once, within the sizes
//! its header declares, to check its checksum ([`open`]); its block index stays in memory,
//! and a probe reads each block it decodes from the file into a buffer of its own
//! ([`TableFile::read_block`]). Nothing is mapped: a file rewritten or cut while an engine
//! has it open can never fault the engine, and a block read after such a change is refused
//! ([`Changed`]) instead of decoded.
//!
//! Layout (little-endian): `BSHNEGDB`, version (u16), the game's name (its first 8 bytes,
//! zero-padded: [`game_tag`]),
//! the signature (4 bytes: our kings, our men, their kings, their men), the rule's limit in
//! plies (u16), slots (u64), slots a block (u32), blocks (u32), a checksum (u64) of
//! everything after it, the value layer's bytes (u64) and the distance layer's (u64); then
//! the value layer model's starting probabilities ([`Prior`], 95 bytes), the value layer's
//! block offsets (blocks + 1 u32), the distance layer's (blocks + 1 u32), the value layer's
//! blocks and the distance layer's blocks.
//!
//! A slot a file need not hold (no position, or a capture to play) is coded as whatever costs
//! least (the previous slot's class, the last distance of its class), so such slots cost
//! almost nothing and read back as that.

use super::coder::{
    Counts, DistanceCursor, PRIOR, Prior, WdlCursor, count_wdl, decode_distance, decode_wdl,
    encode_distance, encode_wdl,
};
use super::material::Signature;
use super::value::{Plies, Value};
use crate::games::kit::variant::Variant;
use open::Stamp;
use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

mod open;

const MAGIC: &[u8; 8] = b"BSHNEGDB";
/// The format's version: a file of another is refused.
pub const VERSION: u16 = 2;
/// Slots a block.
pub const BLOCK: usize = 4096;
/// Bytes of the header; the checksum covers the rest of the file from [`CHECKED`] on.
const HEADER: usize = 64;
const CHECKED: usize = 48;
/// The most bytes a block of either layer may take, 64 a slot: the coder spends at most
/// about 30 bits on a slot's value and distance together (21 binary decisions, none
/// cheaper than 1/1000), so a block larger than this is damage, refused when the file is
/// opened, and no probe ever reads more than this at once.
const MAX_BLOCK_BYTES: usize = 64 * BLOCK;

/// The value layer (a slot's class): the first of [`TableFile`]'s two layers.
pub const VALUES: usize = 0;
/// The distance layer: the second.
pub const DISTANCES: usize = 1;

/// Why a table file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// It could not be read or written.
    Io(PathBuf, String),
    /// It is not a table file (no `BSHNEGDB` at its start).
    NotATable(PathBuf),
    /// It is not a regular file (a folder, a FIFO, a device, or a link to one): never
    /// opened, as a FIFO would block its reader and a device never end.
    NotRegular(PathBuf),
    /// A table of another version of the format.
    Version(PathBuf, u16),
    /// Its checksum or its structure does not hold: damaged.
    Damaged(PathBuf, &'static str),
    /// A table of another game, material or rule than the name says.
    Foreign(PathBuf, String),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FileError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            FileError::NotATable(p) => write!(
                f,
                "{}: not an endgame table (no BSHNEGDB header)",
                p.display()
            ),
            FileError::NotRegular(p) => write!(
                f,
                "{}: not a regular file (a folder, FIFO or device); a table is a regular file",
                p.display()
            ),
            FileError::Version(p, v) => {
                write!(
                    f,
                    "{}: table format version {v}, this build reads version {VERSION}",
                    p.display()
                )
            }
            FileError::Damaged(p, why) => write!(f, "{}: damaged table ({why})", p.display()),
            FileError::Foreign(p, why) => write!(f, "{}: {why}", p.display()),
        }
    }
}

impl std::error::Error for FileError {}

/// What a table's file must hold, as its name says: anything else is refused
/// ([`FileError::Foreign`]) before more than its header is read.
#[derive(Clone, Copy, Debug)]
pub struct Expected {
    /// The game.
    pub variant: Variant,
    /// The material.
    pub sig: Signature,
    /// The no-progress rule's limit.
    pub limit: u16,
    /// Slots (the material's index's size).
    pub slots: u64,
}

/// A table's file, open and checked: the header's facts, the two layers' block indexes,
/// and the file their blocks are read from.
#[derive(Debug)]
pub struct TableFile {
    /// The game.
    pub variant: Variant,
    /// The material.
    pub sig: Signature,
    /// The no-progress rule's limit the values were solved under.
    pub limit: u16,
    /// Slots.
    pub slots: u64,
    blocks: usize,
    /// The value layer and the distance layer ([`VALUES`], [`DISTANCES`]).
    layers: [Layer; 2],
    prior: Prior,
    file: File,
    /// The file's size and time of change when it was checked: a block is trusted only
    /// while they are the same.
    stamp: Stamp,
}

/// A layer of a file: where its blocks start in the file, and each block's offset from
/// there (`blocks + 1` of them, the last the layer's bytes).
#[derive(Debug)]
struct Layer {
    start: u64,
    offsets: Vec<u32>,
}

/// A block could not be read as the file was when it was checked: the file was rewritten,
/// cut or grown since (a copy over it, say). Its bytes are never decoded; the table answers
/// nothing more until it is opened again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Changed;

/// The file name of a table: `russian-KKvK.egdb`.
pub fn file_name(variant: Variant, sig: Signature) -> String {
    format!("{variant}-{sig}.egdb")
}

/// The game's name as a header holds it: its first 8 bytes, zero-padded (`russian`,
/// `turkish`; `brazilia` for Brazilian draughts, whose name is 9 bytes long). Every game's
/// tag is its own ([`game_of_tag`]; a test checks it).
pub fn game_tag(variant: Variant) -> [u8; 8] {
    let mut tag = [0u8; 8];
    let name = variant.name().as_bytes();
    let n = name.len().min(8);
    tag[..n].copy_from_slice(&name[..n]);
    tag
}

/// The game whose [`game_tag`] is `tag`, if any.
pub fn game_of_tag(tag: &[u8]) -> Option<Variant> {
    Variant::ALL.into_iter().find(|&v| game_tag(v) == tag)
}

/// FNV-1a over 8-byte words (then the last bytes one by one): fast enough to check a whole
/// file when it is opened. Fed in parts of any length (a file read a buffer at a time), it
/// gives what it gives the bytes whole.
struct Checksum {
    hash: u64,
    /// Bytes of a word not yet whole.
    part: Vec<u8>,
}

impl Checksum {
    const PRIME: u64 = 0x0100_0000_01b3;

    fn new() -> Checksum {
        Checksum {
            hash: 0xcbf2_9ce4_8422_2325,
            part: Vec::with_capacity(8),
        }
    }

    fn word(&mut self, w: &[u8]) {
        let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        self.hash = (self.hash ^ w).wrapping_mul(Self::PRIME);
    }

    fn update(&mut self, mut bytes: &[u8]) {
        if !self.part.is_empty() {
            let take = (8 - self.part.len()).min(bytes.len());
            self.part.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.part.len() < 8 {
                return;
            }
            let part = std::mem::take(&mut self.part);
            self.word(&part);
        }
        let words = bytes.chunks_exact(8);
        self.part.extend_from_slice(words.remainder());
        words.for_each(|w| self.word(w));
    }

    fn finish(self) -> u64 {
        self.part.iter().fold(self.hash, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(Self::PRIME)
        })
    }
}

/// [`Checksum`] of `bytes` whole.
fn checksum(bytes: &[u8]) -> u64 {
    let mut sum = Checksum::new();
    sum.update(bytes);
    sum.finish()
}

/// One layer coded: its block offsets and its blocks.
#[derive(Default)]
struct Coded {
    offsets: Vec<u32>,
    payload: Vec<u8>,
}

impl Coded {
    fn push(&mut self, block: &[u8]) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.payload.extend(block);
        self.offsets.push(self.payload.len() as u32);
    }
}

/// The two layers of a table whose slots hold `values` (codes of [`Value::encode`]), any
/// value where `optional`, and the value layer's prior.
fn code_layers(values: &[u16], optional: &[bool]) -> ([Coded; 2], Prior) {
    let (classes, distances): (Vec<u8>, Vec<u16>) = values
        .iter()
        .zip(optional)
        .map(|(&code, &opt)| {
            let value = Value::decode(code).filter(|_| !opt).unwrap_or(Value::Draw);
            (value.class(), value.distance().map_or(0, |d| d.0))
        })
        .unzip();
    let mut counts = Counts::default();
    for (c, o) in classes.chunks(BLOCK).zip(optional.chunks(BLOCK)) {
        count_wdl(c, o, &mut counts);
    }
    let prior = counts.prior();
    let (mut wdl, mut dist) = (Coded::default(), Coded::default());
    let blocks = classes
        .chunks(BLOCK)
        .zip(distances.chunks(BLOCK))
        .zip(optional.chunks(BLOCK));
    for ((c, d), o) in blocks {
        let (bytes, filled) = encode_wdl(c, o, &prior);
        wdl.push(&bytes);
        dist.push(&encode_distance(&filled, d, o));
    }
    ([wdl, dist], prior)
}

/// Writes a table's file into `dir`; returns its path and its size in bytes, and the value
/// layer's bytes (its prior, its blocks and their offsets).
pub fn write(
    dir: &Path,
    variant: Variant,
    sig: Signature,
    limit: u16,
    values: &[u16],
    optional: &[bool],
) -> Result<(PathBuf, u64, u64), FileError> {
    let path = dir.join(file_name(variant, sig));
    let ([wdl, dist], prior) = code_layers(values, optional);
    let blocks = values.len().div_ceil(BLOCK);
    let mut out = Vec::with_capacity(HEADER + wdl.payload.len() + dist.payload.len());
    out.extend(MAGIC);
    out.extend(VERSION.to_le_bytes());
    out.extend(game_tag(variant));
    out.extend([sig.us.kings, sig.us.men, sig.them.kings, sig.them.men]);
    out.extend(limit.to_le_bytes());
    out.extend((values.len() as u64).to_le_bytes());
    out.extend((BLOCK as u32).to_le_bytes());
    out.extend((blocks as u32).to_le_bytes());
    out.extend(0u64.to_le_bytes());
    out.extend((wdl.payload.len() as u64).to_le_bytes());
    out.extend((dist.payload.len() as u64).to_le_bytes());
    out.extend(prior.0);
    let empty = vec![0u32; usize::from(blocks == 0)];
    for offsets in [&wdl.offsets, &dist.offsets] {
        let offsets = if blocks == 0 { &empty } else { offsets };
        offsets.iter().for_each(|o| out.extend(o.to_le_bytes()));
    }
    out.extend(&wdl.payload);
    out.extend(&dist.payload);
    let sum = checksum(&out[CHECKED..]);
    out[40..48].copy_from_slice(&sum.to_le_bytes());
    // A new file (a hidden temporary name of its own, made with O_EXCL and O_NOFOLLOW)
    // replaces whatever is at `path` by a rename, never written through: a link planted
    // there or at any name beside it leads nowhere, and an engine that has the old table
    // open goes on reading the old one (its inode) unchanged.
    crate::files::replace_entry(&path, &out)
        .map_err(|e| FileError::Io(path.clone(), e.to_string()))?;
    let wdl_bytes = PRIOR + wdl.payload.len() + 4 * (blocks + 1);
    Ok((path, out.len() as u64, wdl_bytes as u64))
}

impl TableFile {
    /// Opens and checks the file at `path`, which must hold the table `expected` names: see
    /// [`open`].
    pub fn read(path: &Path, expected: &Expected) -> Result<TableFile, FileError> {
        open::read(path, expected)
    }

    /// Blocks (of each layer).
    pub fn blocks(&self) -> usize {
        self.blocks
    }

    /// Bytes of the value layer (its prior, its blocks and their offsets).
    pub fn wdl_bytes(&self) -> usize {
        PRIOR + self.layer_bytes(VALUES) + 4 * (self.blocks + 1)
    }

    /// Bytes of the distance layer (its blocks and their offsets).
    pub fn distance_bytes(&self) -> usize {
        self.layer_bytes(DISTANCES) + 4 * (self.blocks + 1)
    }

    fn layer_bytes(&self, layer: usize) -> usize {
        self.layers[layer].offsets[self.blocks] as usize
    }

    /// Slots of block `b`.
    fn block_slots(&self, b: usize) -> usize {
        (self.slots as usize - b * BLOCK).min(BLOCK)
    }

    /// Reads the bytes of block `b` of layer `layer` ([`VALUES`] or [`DISTANCES`]) into
    /// `out` (at most [`MAX_BLOCK_BYTES`]); [`Changed`] if the file is not what it was when
    /// it was checked, before or after the read (then `out` holds nothing to decode).
    pub fn read_block(&self, layer: usize, b: usize, out: &mut Vec<u8>) -> Result<(), Changed> {
        let l = &self.layers[layer];
        let (from, to) = (l.offsets[b], l.offsets[b + 1]);
        out.clear();
        out.resize((to - from) as usize, 0);
        let read = open::read_at(&self.file, out, l.start + u64::from(from));
        // After the read: bytes read while a copy went over the file are never trusted.
        if read.is_err() || Stamp::of(&self.file).ok() != Some(self.stamp) {
            out.clear();
            return Err(Changed);
        }
        Ok(())
    }

    /// A cursor at the start of a block of the value layer, whose bytes are `bytes`.
    pub fn wdl_cursor(&self, bytes: &[u8]) -> WdlCursor {
        WdlCursor::new(bytes, &self.prior)
    }

    /// Decodes block `b`'s classes ([`Value::class`]) into `out` until it holds those of its
    /// first `n` slots (at most the block's), going on from `cursor` (of this block, whose
    /// bytes are `bytes`; `out` holds what it decoded before).
    pub fn decode_wdl_to(
        &self,
        b: usize,
        bytes: &[u8],
        cursor: &mut WdlCursor,
        n: usize,
        out: &mut Vec<u8>,
    ) {
        cursor.decode_to(bytes, n.min(self.block_slots(b)), out);
    }

    /// A cursor at the start of a block of the distance layer, whose bytes are `bytes`.
    pub fn distance_cursor(&self, bytes: &[u8]) -> DistanceCursor {
        DistanceCursor::new(bytes)
    }

    /// Decodes a block's distances into `out` until it holds one for each of `classes` (the
    /// block's first classes, as decoded; a draw's distance is 0), going on from `cursor` as
    /// [`TableFile::decode_wdl_to`].
    pub fn decode_distance_to(
        &self,
        bytes: &[u8],
        cursor: &mut DistanceCursor,
        classes: &[u8],
        out: &mut Vec<u16>,
    ) {
        cursor.decode_to(bytes, classes, out);
    }

    /// Decodes block `b` whole into `out`: each slot's value.
    pub fn decode(&self, b: usize, out: &mut Vec<Value>) -> Result<(), Changed> {
        let (mut bytes, mut classes, mut distances) = (Vec::new(), Vec::new(), Vec::new());
        self.read_block(VALUES, b, &mut bytes)?;
        decode_wdl(&bytes, self.block_slots(b), &self.prior, &mut classes);
        self.read_block(DISTANCES, b, &mut bytes)?;
        decode_distance(&bytes, &classes, &mut distances);
        out.clear();
        out.extend(classes.iter().zip(&distances).map(|(&c, &d)| {
            Value::with_class(c, Plies(d)).expect("the decoder yields classes 0 to 4")
        }));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_a_header_tag_of_its_own() {
        for v in Variant::ALL {
            assert_eq!(game_of_tag(&game_tag(v)), Some(v), "{v}");
        }
        // Names of 8 bytes or fewer are written whole, as tables always had them.
        assert_eq!(&game_tag(Variant::Russian), b"russian\0");
        assert_eq!(&game_tag(Variant::Brazilian), b"brazilia");
        assert_eq!(game_of_tag(b"brazil\0\0"), None);
    }

    #[test]
    fn layers_round_trip_and_damage_is_refused() {
        let values: Vec<u16> = (0..10_000u32)
            .map(|i| {
                match i / 700 % 4 {
                    0 => Value::Draw,
                    1 => Value::Win(Plies((i % 7) as u16 * 2 + 1)),
                    2 => Value::Loss(Plies((i % 5) as u16 * 2)),
                    _ => Value::CursedWin(Plies(300 + (i % 3000) as u16)),
                }
                .encode()
            })
            .collect();
        let optional: Vec<bool> = (0..10_000).map(|i| i % 3 == 0).collect();
        let dir = std::env::temp_dir().join(format!("bashni-egdb-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let sig = Signature::parse("KKvK").unwrap();
        let (path, size, wdl) = write(&dir, Variant::Russian, sig, 30, &values, &optional).unwrap();
        assert!(wdl < size);
        let expected = Expected {
            variant: Variant::Russian,
            sig,
            limit: 30,
            slots: values.len() as u64,
        };
        let t = TableFile::read(&path, &expected).unwrap();
        assert_eq!(t.wdl_bytes() as u64, wdl);
        let mut out = Vec::new();
        for b in 0..t.blocks() {
            t.decode(b, &mut out).unwrap();
            for (i, &v) in out.iter().enumerate() {
                let slot = b * BLOCK + i;
                if !optional[slot] {
                    assert_eq!(v, Value::decode(values[slot]).unwrap(), "slot {slot}");
                }
            }
        }
        let good = std::fs::read(&path).unwrap();
        for at in [50, HEADER + 3, good.len() / 2, good.len() - 1] {
            let mut bytes = good.clone();
            bytes[at] ^= 1;
            std::fs::write(&path, &bytes).unwrap();
            assert!(matches!(
                TableFile::read(&path, &expected),
                Err(FileError::Damaged(..))
            ));
        }
        std::fs::write(&path, &good[..HEADER + 10]).unwrap();
        assert!(matches!(
            TableFile::read(&path, &expected),
            Err(FileError::Damaged(..))
        ));
        std::fs::write(&path, &good[..20]).unwrap();
        assert!(matches!(
            TableFile::read(&path, &expected),
            Err(FileError::Damaged(..))
        ));
        for bytes in [&b"hello"[..], &[], &[7u8; 100]] {
            std::fs::write(&path, bytes).unwrap();
            assert!(matches!(
                TableFile::read(&path, &expected),
                Err(FileError::NotATable(..))
            ));
        }
        let mut old = good.clone();
        old[8] = 1;
        std::fs::write(&path, &old).unwrap();
        assert!(matches!(
            TableFile::read(&path, &expected),
            Err(FileError::Version(_, 1))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A table file's name says what it must hold; anything but a regular file is never
    /// read; and a block of a file changed after it was checked is never decoded.
    #[test]
    fn foreign_strange_and_changed_files_are_refused() {
        let values: Vec<u16> = (0..10_000u32)
            .map(|i| Value::Win(Plies((i % 9) as u16)).encode())
            .collect();
        let optional = vec![false; values.len()];
        let dir = std::env::temp_dir().join(format!("bashni-egdb-changed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let sig = Signature::parse("KKvK").unwrap();
        let (path, ..) = write(&dir, Variant::Russian, sig, 30, &values, &optional).unwrap();
        let good = std::fs::read(&path).unwrap();
        let expected = Expected {
            variant: Variant::Russian,
            sig,
            limit: 30,
            slots: values.len() as u64,
        };
        let mut out = Vec::new();
        // Another table's file, or a good one whose name says another size.
        let foreign = Expected {
            sig: Signature::parse("KvK").unwrap(),
            ..expected
        };
        assert!(matches!(
            TableFile::read(&path, &foreign),
            Err(FileError::Foreign(..))
        ));
        let bigger = Expected {
            slots: expected.slots * 1000,
            ..expected
        };
        assert!(matches!(
            TableFile::read(&path, &bigger),
            Err(FileError::Damaged(_, "wrong number of slots"))
        ));
        // Not a regular file: refused before it is read.
        assert!(matches!(
            TableFile::read(&dir, &expected),
            Err(FileError::NotRegular(..))
        ));
        // A file changed after it was opened: its blocks are refused, never decoded.
        let t = TableFile::read(&path, &expected).unwrap();
        let mut bytes = Vec::new();
        assert_eq!(t.read_block(VALUES, 1, &mut bytes), Ok(()));
        std::fs::write(&path, &good[..good.len() / 2]).unwrap();
        assert_eq!(t.read_block(VALUES, 1, &mut bytes), Err(Changed));
        assert!(bytes.is_empty());
        assert_eq!(t.decode(0, &mut out), Err(Changed));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_checksum_fed_in_parts_is_the_checksum_of_the_whole() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        let whole = checksum(&bytes);
        for cut in [1, 3, 7, 8, 9, 500, 999] {
            let mut sum = Checksum::new();
            for part in bytes.chunks(cut) {
                sum.update(part);
            }
            assert_eq!(sum.finish(), whole, "parts of {cut}");
        }
    }
}
