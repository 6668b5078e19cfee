//! The file of one table: a header (game, material, rule, version, checksum), a block index,
//! and blocks of 4,096 slots each compressed on its own, so that a probe decodes one block.
//!
//! Layout (little-endian): `BSHNEGDB`, version (u16), the game's name (8 bytes, zero-padded),
//! the signature (4 bytes: our kings, our men, their kings, their men), the rule's limit in
//! plies (u16), slots (u64), slots a block (u32), blocks (u32), an FNV-1a checksum (u64) of
//! everything after it, the blocks' byte offsets (blocks + 1 u32), then the blocks.
//!
//! A block is runs: the value code ([`super::value::Value::encode`]) and the run's length,
//! each a LEB128 varint. A slot a file need not hold (no position, or a capture to play)
//! joins the run it falls in, so such slots cost nothing and read back as a neighbour's value.

use super::material::{Side, Signature};
use crate::games::kit::variant::Variant;
use std::fmt;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"BSHNEGDB";
/// The format's version: a file of another is refused.
pub const VERSION: u16 = 1;
/// Slots a block.
pub const BLOCK: usize = 4096;
const HEADER: usize = 48;

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

/// A table read from its file: the header's facts and the compressed blocks.
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
    offsets: Vec<u32>,
    payload: Vec<u8>,
}

/// The file name of a table: `russian-KKvK.egdb`.
pub fn file_name(variant: Variant, sig: Signature) -> String {
    format!("{variant}-{sig}.egdb")
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn read_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(v);
        }
    }
    None
}

/// One block's runs.
fn encode_block(values: &[u16], optional: &[bool], out: &mut Vec<u8>) {
    let mut run: Option<(u16, u64)> = None;
    let mut pending = 0u64;
    for (&v, &opt) in values.iter().zip(optional) {
        match (&mut run, opt) {
            (_, true) => pending += 1,
            (Some((code, len)), false) if *code == v => *len += 1 + std::mem::take(&mut pending),
            (Some((code, len)), false) => {
                varint(out, u64::from(*code));
                varint(out, *len + std::mem::take(&mut pending));
                run = Some((v, 1));
            }
            (None, false) => run = Some((v, 1 + std::mem::take(&mut pending))),
        }
    }
    let (code, len) = run.unwrap_or((0, 0));
    varint(out, u64::from(code));
    varint(out, len + pending);
}

/// Writes a table's file into `dir`; returns its path and size in bytes.
pub fn write(
    dir: &Path,
    variant: Variant,
    sig: Signature,
    limit: u16,
    values: &[u16],
    optional: &[bool],
) -> Result<(PathBuf, u64), FileError> {
    let path = dir.join(file_name(variant, sig));
    let mut payload = Vec::new();
    let mut offsets = vec![0u32];
    for (v, o) in values.chunks(BLOCK).zip(optional.chunks(BLOCK)) {
        encode_block(v, o, &mut payload);
        offsets.push(payload.len() as u32);
    }
    let mut body = Vec::with_capacity(offsets.len() * 4 + payload.len());
    offsets.iter().for_each(|o| body.extend(o.to_le_bytes()));
    body.extend(&payload);
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend(MAGIC);
    out.extend(VERSION.to_le_bytes());
    let mut name = [0u8; 8];
    name[..variant.to_string().len()].copy_from_slice(variant.to_string().as_bytes());
    out.extend(name);
    out.extend([sig.us.kings, sig.us.men, sig.them.kings, sig.them.men]);
    out.extend(limit.to_le_bytes());
    out.extend((values.len() as u64).to_le_bytes());
    out.extend((BLOCK as u32).to_le_bytes());
    out.extend(((offsets.len() - 1) as u32).to_le_bytes());
    out.extend(fnv(&body).to_le_bytes());
    out.extend(body);
    let io = |e: std::io::Error| FileError::Io(path.clone(), e.to_string());
    let tmp = path.with_extension("egdb.tmp");
    std::fs::write(&tmp, &out).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)?;
    Ok((path, out.len() as u64))
}

impl TableFile {
    /// Reads and checks the file at `path`.
    pub fn read(path: &Path) -> Result<TableFile, FileError> {
        let bytes =
            std::fs::read(path).map_err(|e| FileError::Io(path.to_path_buf(), e.to_string()))?;
        TableFile::parse(path, bytes)
    }

    fn parse(path: &Path, bytes: Vec<u8>) -> Result<TableFile, FileError> {
        let damaged = |why| FileError::Damaged(path.to_path_buf(), why);
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(FileError::NotATable(path.to_path_buf()));
        }
        if bytes.len() < HEADER {
            return Err(damaged("truncated"));
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let version = u16_at(8);
        if version != VERSION {
            return Err(FileError::Version(path.to_path_buf(), version));
        }
        if fnv(&bytes[HEADER..]) != u64_at(40) {
            return Err(damaged("checksum mismatch"));
        }
        let name: String = bytes[10..18]
            .iter()
            .take_while(|&&b| b != 0)
            .map(|&b| b as char)
            .collect();
        let variant: Variant = name.parse().map_err(|_| damaged("unknown game"))?;
        let side = |k: u8, m: u8| Side { kings: k, men: m };
        let sig = Signature {
            us: side(bytes[18], bytes[19]),
            them: side(bytes[20], bytes[21]),
        };
        let (limit, slots, block, blocks) = (
            u16_at(22),
            u64_at(24),
            u32_at(32) as usize,
            u32_at(36) as usize,
        );
        if block != BLOCK
            || (slots as usize).div_ceil(BLOCK) != blocks
            || HEADER + 4 * (blocks + 1) > bytes.len()
        {
            return Err(damaged("bad block index"));
        }
        let offsets: Vec<u32> = (0..=blocks).map(|i| u32_at(HEADER + 4 * i)).collect();
        let payload = bytes[HEADER + 4 * (blocks + 1)..].to_vec();
        if offsets.windows(2).any(|w| w[0] > w[1])
            || *offsets.last().unwrap() as usize != payload.len()
        {
            return Err(damaged("bad block index"));
        }
        Ok(TableFile {
            variant,
            sig,
            limit,
            slots,
            offsets,
            payload,
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

    /// Blocks.
    pub fn blocks(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Bytes of the compressed blocks.
    pub fn payload_bytes(&self) -> usize {
        self.payload.len()
    }

    /// Decodes block `b` into `out` (its slots' codes); `None` if the block is damaged.
    pub fn decode(&self, b: usize, out: &mut Vec<u16>) -> Option<()> {
        out.clear();
        let want = (self.slots as usize - b * BLOCK).min(BLOCK);
        let bytes = &self.payload[self.offsets[b] as usize..self.offsets[b + 1] as usize];
        let mut at = 0;
        while at < bytes.len() {
            let code = u16::try_from(read_varint(bytes, &mut at)?).ok()?;
            let len = read_varint(bytes, &mut at)? as usize;
            if out.len() + len > want {
                return None;
            }
            out.extend(std::iter::repeat_n(code, len));
        }
        (out.len() == want).then_some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_trip_and_optional_slots_cost_nothing() {
        let values: Vec<u16> = (0..10_000u32).map(|i| (i / 700) as u16).collect();
        let optional: Vec<bool> = (0..10_000).map(|i| i % 3 == 0).collect();
        let dir = std::env::temp_dir().join(format!("bashni-egdb-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let sig = Signature::parse("KKvK").unwrap();
        let (path, _) = write(&dir, Variant::Russian, sig, 30, &values, &optional).unwrap();
        let t = TableFile::read(&path)
            .unwrap()
            .expect(&path, Variant::Russian, sig, 30)
            .unwrap();
        let mut out = Vec::new();
        for b in 0..t.blocks() {
            t.decode(b, &mut out).unwrap();
            for (i, &v) in out.iter().enumerate() {
                let slot = b * BLOCK + i;
                if !optional[slot] {
                    assert_eq!(v, values[slot]);
                }
            }
        }
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            TableFile::read(&path),
            Err(FileError::Damaged(..))
        ));
        std::fs::write(&path, b"hello").unwrap();
        assert!(matches!(
            TableFile::read(&path),
            Err(FileError::NotATable(..))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
