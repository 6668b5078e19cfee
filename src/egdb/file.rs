//! The file of one table: a header (game, material, rule, version, checksum), then two
//! layers, each in blocks of [`BLOCK`] slots coded on their own ([`super::coder`]): the value
//! layer (win, cursed win, draw, blessed loss or loss: what a search needs) and the distance
//! layer (the plies to the next capture or man move, read only where a distance is needed).
//! The file is memory-mapped, so a probe reads only the pages of the blocks it decodes.
//!
//! Layout (little-endian): `BSHNEGDB`, version (u16), the game's name (8 bytes, zero-padded),
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
use super::material::{Side, Signature};
use super::value::{Plies, Value};
use crate::games::kit::variant::Variant;
use memmap2::Mmap;
use std::fmt;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"BSHNEGDB";
/// The format's version: a file of another is refused.
pub const VERSION: u16 = 2;
/// Slots a block.
pub const BLOCK: usize = 4096;
/// Bytes of the header; the checksum covers the rest of the file from [`CHECKED`] on.
const HEADER: usize = 64;
const CHECKED: usize = 48;

/// Why a table file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// It could not be read or written.
    Io(PathBuf, String),
    /// It is not a table file (no `BSHNEGDB` at its start).
    NotATable(PathBuf),
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

/// A table's file, mapped: the header's facts and the two layers' blocks.
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
    /// The value layer's bytes and the distance layer's.
    layers: [Layer; 2],
    prior: Prior,
    map: Mmap,
}

/// Where a layer lies in the file: its block offsets and its blocks.
#[derive(Clone, Copy, Debug)]
struct Layer {
    index: usize,
    payload: usize,
    bytes: usize,
}

/// The file name of a table: `russian-KKvK.egdb`.
pub fn file_name(variant: Variant, sig: Signature) -> String {
    format!("{variant}-{sig}.egdb")
}

/// FNV-1a over 8-byte words (then the last bytes one by one): fast enough to check a whole
/// file when it is opened.
fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0100_0000_01b3;
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    let h = words.fold(0xcbf2_9ce4_8422_2325, |h, w| {
        (h ^ u64::from_le_bytes(w.try_into().expect("8 bytes"))).wrapping_mul(PRIME)
    });
    tail.iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
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
    let mut name = [0u8; 8];
    name[..variant.to_string().len()].copy_from_slice(variant.to_string().as_bytes());
    out.extend(name);
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
    let io = |e: std::io::Error| FileError::Io(path.clone(), e.to_string());
    // A new file replaces the old by a rename, so an engine that has the old one mapped keeps
    // reading the old one (its inode) unchanged.
    let tmp = path.with_extension("egdb.tmp");
    std::fs::write(&tmp, &out).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)?;
    let wdl_bytes = PRIOR + wdl.payload.len() + 4 * (blocks + 1);
    Ok((path, out.len() as u64, wdl_bytes as u64))
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"))
}

impl TableFile {
    /// Maps and checks the file at `path`.
    pub fn read(path: &Path) -> Result<TableFile, FileError> {
        let io = |e: std::io::Error| FileError::Io(path.to_path_buf(), e.to_string());
        let file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len < HEADER as u64 {
            // Too short to map usefully (an empty file does not map at all): read it to say
            // whether it is a table cut short or not a table.
            let bytes = std::fs::read(path).map_err(io)?;
            return Err(if bytes.starts_with(MAGIC) {
                FileError::Damaged(path.to_path_buf(), "truncated")
            } else {
                FileError::NotATable(path.to_path_buf())
            });
        }
        // SAFETY: the map is read-only (the file is opened for reading), and nothing in this
        // program writes a table in place: `write` writes a new file and renames it over the
        // old, which leaves this mapping on the old inode. Another process that truncated or
        // rewrote the file in place while it is mapped would make reads fault or change under
        // us; docs/egdb.md ("Files") says tables must not be modified while an engine uses
        // them, as with any memory-mapped database. Every byte is checked against the
        // checksum below before any of it is trusted, and every read is bounds-checked.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        TableFile::parse(path, map)
    }

    fn parse(path: &Path, map: Mmap) -> Result<TableFile, FileError> {
        let damaged = |why| FileError::Damaged(path.to_path_buf(), why);
        let b: &[u8] = &map;
        if &b[..MAGIC.len()] != MAGIC {
            return Err(FileError::NotATable(path.to_path_buf()));
        }
        let version = u16_at(b, 8);
        if version != VERSION {
            return Err(FileError::Version(path.to_path_buf(), version));
        }
        if checksum(&b[CHECKED..]) != u64_at(b, 40) {
            return Err(damaged("checksum mismatch"));
        }
        let name: String = b[10..18]
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as char)
            .collect();
        let variant: Variant = name.parse().map_err(|_| damaged("unknown game"))?;
        let side = |k: u8, m: u8| Side { kings: k, men: m };
        let sig = Signature {
            us: side(b[18], b[19]),
            them: side(b[20], b[21]),
        };
        let (limit, slots, block, blocks) = (
            u16_at(b, 22),
            u64_at(b, 24),
            u32_at(b, 32) as usize,
            u32_at(b, 36) as usize,
        );
        let (wdl_bytes, dist_bytes) = (u64_at(b, 48) as usize, u64_at(b, 56) as usize);
        let index = 4 * (blocks + 1);
        let start = HEADER + PRIOR;
        if block != BLOCK
            || (slots as usize).div_ceil(BLOCK) != blocks
            || start
                .checked_add(2 * index)
                .and_then(|n| n.checked_add(wdl_bytes))
                .and_then(|n| n.checked_add(dist_bytes))
                != Some(b.len())
        {
            return Err(damaged("bad block index"));
        }
        let layers = [
            Layer {
                index: start,
                payload: start + 2 * index,
                bytes: wdl_bytes,
            },
            Layer {
                index: start + index,
                payload: start + 2 * index + wdl_bytes,
                bytes: dist_bytes,
            },
        ];
        for l in layers {
            let offsets: Vec<u32> = (0..=blocks).map(|i| u32_at(b, l.index + 4 * i)).collect();
            if offsets[0] != 0
                || offsets.windows(2).any(|w| w[0] > w[1])
                || offsets[blocks] as usize != l.bytes
            {
                return Err(damaged("bad block index"));
            }
        }
        let prior = Prior(b[HEADER..start].try_into().expect("the prior's bytes"));
        Ok(TableFile {
            variant,
            sig,
            limit,
            slots,
            blocks,
            layers,
            prior,
            map,
        })
    }

    /// Checks that the table is of `variant`, `sig` and `limit`.
    pub fn expect(
        self,
        path: &Path,
        variant: Variant,
        sig: Signature,
        limit: u16,
    ) -> Result<TableFile, FileError> {
        if (self.variant, self.sig, self.limit) != (variant, sig, limit) {
            return Err(FileError::Foreign(
                path.to_path_buf(),
                format!(
                    "holds {} {} under a {}-ply rule, expected {variant} {sig} under a {limit}-ply rule",
                    self.variant, self.sig, self.limit
                ),
            ));
        }
        Ok(self)
    }

    /// Blocks (of each layer).
    pub fn blocks(&self) -> usize {
        self.blocks
    }

    /// Bytes of the value layer (its prior, its blocks and their offsets).
    pub fn wdl_bytes(&self) -> usize {
        PRIOR + self.layers[0].bytes + 4 * (self.blocks + 1)
    }

    /// Bytes of the distance layer (its blocks and their offsets).
    pub fn distance_bytes(&self) -> usize {
        self.layers[1].bytes + 4 * (self.blocks + 1)
    }

    /// Slots of block `b`.
    fn block_slots(&self, b: usize) -> usize {
        (self.slots as usize - b * BLOCK).min(BLOCK)
    }

    /// The bytes of block `b` of layer `layer`.
    fn block(&self, layer: usize, b: usize) -> &[u8] {
        let l = self.layers[layer];
        let at = |i: usize| u32_at(&self.map, l.index + 4 * i) as usize;
        &self.map[l.payload + at(b)..l.payload + at(b + 1)]
    }

    /// Decodes the classes ([`Value::class`]) of block `b`'s slots into `out`.
    pub fn decode_wdl(&self, b: usize, out: &mut Vec<u8>) {
        decode_wdl(self.block(0, b), self.block_slots(b), &self.prior, out);
    }

    /// Decodes the distances of block `b`'s slots into `out`, given the block's classes
    /// (from [`TableFile::decode_wdl`]); a draw's is 0.
    pub fn decode_distance(&self, b: usize, classes: &[u8], out: &mut Vec<u16>) {
        decode_distance(self.block(1, b), classes, out);
    }

    /// A cursor at the start of block `b` of the value layer.
    pub fn wdl_cursor(&self, b: usize) -> WdlCursor {
        WdlCursor::new(self.block(0, b), &self.prior)
    }

    /// Decodes block `b`'s classes into `out` until it holds those of its first `n` slots
    /// (at most the block's), going on from `cursor` (of this block; `out` holds what it
    /// decoded before).
    pub fn decode_wdl_to(&self, b: usize, cursor: &mut WdlCursor, n: usize, out: &mut Vec<u8>) {
        cursor.decode_to(self.block(0, b), n.min(self.block_slots(b)), out);
    }

    /// A cursor at the start of block `b` of the distance layer.
    pub fn distance_cursor(&self, b: usize) -> DistanceCursor {
        DistanceCursor::new(self.block(1, b))
    }

    /// Decodes block `b`'s distances into `out` until it holds one for each of `classes`
    /// (the block's first classes, as decoded), going on from `cursor` as
    /// [`TableFile::decode_wdl_to`].
    pub fn decode_distance_to(
        &self,
        b: usize,
        cursor: &mut DistanceCursor,
        classes: &[u8],
        out: &mut Vec<u16>,
    ) {
        cursor.decode_to(self.block(1, b), classes, out);
    }

    /// Decodes block `b` whole into `out`: each slot's value.
    pub fn decode(&self, b: usize, out: &mut Vec<Value>) {
        let (mut classes, mut distances) = (Vec::new(), Vec::new());
        self.decode_wdl(b, &mut classes);
        self.decode_distance(b, &classes, &mut distances);
        out.clear();
        out.extend(classes.iter().zip(&distances).map(|(&c, &d)| {
            Value::with_class(c, Plies(d)).expect("the decoder yields classes 0 to 4")
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let t = TableFile::read(&path)
            .unwrap()
            .expect(&path, Variant::Russian, sig, 30)
            .unwrap();
        assert_eq!(t.wdl_bytes() as u64, wdl);
        let mut out = Vec::new();
        for b in 0..t.blocks() {
            t.decode(b, &mut out);
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
                TableFile::read(&path),
                Err(FileError::Damaged(..))
            ));
        }
        std::fs::write(&path, &good[..HEADER + 10]).unwrap();
        assert!(matches!(
            TableFile::read(&path),
            Err(FileError::Damaged(..))
        ));
        std::fs::write(&path, &good[..20]).unwrap();
        assert!(matches!(
            TableFile::read(&path),
            Err(FileError::Damaged(..))
        ));
        for bytes in [&b"hello"[..], &[], &[7u8; 100]] {
            std::fs::write(&path, bytes).unwrap();
            assert!(matches!(
                TableFile::read(&path),
                Err(FileError::NotATable(..))
            ));
        }
        let mut old = good.clone();
        old[8] = 1;
        std::fs::write(&path, &old).unwrap();
        assert!(matches!(
            TableFile::read(&path),
            Err(FileError::Version(_, 1))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
