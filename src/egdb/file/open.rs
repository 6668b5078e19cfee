//! Opening a table's file ([`read`]): a regular file only, its header first, then exactly the
//! bytes the header declares, a buffer at a time, for the checksum and the block index; and
//! [`Stamp`], which tells a probe whether the file changed since.

use super::{
    BLOCK, CHECKED, Checksum, Expected, FileError, HEADER, Layer, MAGIC, MAX_BLOCK_BYTES,
    TableFile, VERSION, game_of_tag,
};
use crate::egdb::coder::{PRIOR, Prior};
use crate::egdb::material::{Side, Signature};
use crate::files::{ReadError, open_regular};
use std::fs::File;
use std::io::{self, ErrorKind, Read};
use std::path::Path;
use std::time::SystemTime;

/// Bytes read at a time while a file is checked.
const CHUNK: usize = 1 << 20;

/// A file's size and the time its contents last changed: a write or a cut changes them, a
/// rename or a new link does not (so a table that `egdb build` renamed a new file over is
/// still trusted: its open file is the old one, unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

impl Stamp {
    /// The stamp of the open `file` now.
    pub(super) fn of(file: &File) -> io::Result<Stamp> {
        let m = file.metadata()?;
        Ok(Stamp {
            len: m.len(),
            modified: m.modified().ok(),
        })
    }
}

/// Reads `buf.len()` bytes of `file` from `offset` (on Unix and Windows without moving its
/// position, so threads may read one file at once; elsewhere, as on WebAssembly, which has no
/// threads, by moving it); an error if the file ends before.
pub(super) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(buf, offset)
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::FileExt;
        let mut done = 0;
        while done < buf.len() {
            match file.seek_read(&mut buf[done..], offset + done as u64) {
                Ok(0) => return Err(ErrorKind::UnexpectedEof.into()),
                Ok(n) => done += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
    #[cfg(not(any(unix, windows)))]
    {
        use std::io::{Seek, SeekFrom};
        let mut file = file;
        file.seek(SeekFrom::Start(offset))?;
        file.read_exact(buf)
    }
}

/// Reads from `file`'s position into `buf` until it is full or the file ends; the bytes read.
fn read_full(mut file: &File, buf: &mut [u8]) -> io::Result<usize> {
    let mut done = 0;
    while done < buf.len() {
        match file.read(&mut buf[done..]) {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// What a header declares.
struct Header {
    game: [u8; 8],
    sig: Signature,
    limit: u16,
    slots: u64,
    block: u32,
    blocks: u32,
    sum: u64,
    wdl_bytes: u64,
    dist_bytes: u64,
}

impl Header {
    /// The header of a file that starts with `b` (past the magic and the version).
    fn parse(b: &[u8; HEADER]) -> Header {
        let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let side = |k: u8, m: u8| Side { kings: k, men: m };
        Header {
            game: b[10..18].try_into().expect("8 bytes"),
            sig: Signature {
                us: side(b[18], b[19]),
                them: side(b[20], b[21]),
            },
            limit: u16_at(22),
            slots: u64_at(24),
            block: u32_at(32),
            blocks: u32_at(36),
            sum: u64_at(40),
            wdl_bytes: u64_at(48),
            dist_bytes: u64_at(56),
        }
    }

    /// Bytes of the prior and the two block indexes, which follow the header.
    fn index_bytes(&self) -> u64 {
        PRIOR as u64 + 2 * 4 * (u64::from(self.blocks) + 1)
    }

    /// The file's size as the header declares it, if it does not overflow.
    fn file_bytes(&self) -> Option<u64> {
        (HEADER as u64 + self.index_bytes())
            .checked_add(self.wdl_bytes)?
            .checked_add(self.dist_bytes)
    }
}

/// Opens the table file at `path`, which must hold the table `expected` names, and checks
/// it: a regular file (anything else is refused before it is opened, and the open never
/// blocks), a header of this format, of the game, material, rule and size expected, whose
/// sizes add up to the file's, a checksum that holds over every byte, and a block index in
/// order with no block over [`MAX_BLOCK_BYTES`]. Nothing is read beyond what the header
/// declares, and of that only the block index stays in memory.
pub(super) fn read(path: &Path, expected: &Expected) -> Result<TableFile, FileError> {
    let io = |e: io::Error| FileError::Io(path.to_path_buf(), e.to_string());
    let damaged = |why| FileError::Damaged(path.to_path_buf(), why);
    // 1. A regular file only, opened without waiting.
    let file = open_regular(path).map_err(|e| match e {
        ReadError::NotRegular => FileError::NotRegular(path.to_path_buf()),
        e => FileError::Io(path.to_path_buf(), e.to_string()),
    })?;
    let stamp = Stamp::of(&file).map_err(io)?;
    // 2. The header: a table of this format?
    let mut head = [0u8; HEADER];
    let got = read_full(&file, &mut head).map_err(io)?;
    if !head[..got].starts_with(MAGIC) {
        return Err(FileError::NotATable(path.to_path_buf()));
    }
    if got < HEADER {
        return Err(damaged("truncated"));
    }
    let version = u16::from_le_bytes([head[8], head[9]]);
    if version != VERSION {
        return Err(FileError::Version(path.to_path_buf(), version));
    }
    let h = Header::parse(&head);
    // 3. The table its name says, of the size the header declares: that bounds every read.
    let variant = game_of_tag(&h.game).ok_or_else(|| damaged("unknown game"))?;
    if (variant, h.sig, h.limit) != (expected.variant, expected.sig, expected.limit) {
        return Err(FileError::Foreign(
            path.to_path_buf(),
            format!(
                "holds {variant} {} under a {}-ply rule, expected {} {} under a {}-ply rule",
                h.sig, h.limit, expected.variant, expected.sig, expected.limit
            ),
        ));
    }
    if h.slots != expected.slots {
        return Err(damaged("wrong number of slots"));
    }
    if h.block as usize != BLOCK || h.slots.div_ceil(BLOCK as u64) != u64::from(h.blocks) {
        return Err(damaged("bad block index"));
    }
    if h.file_bytes() != Some(stamp.len) {
        return Err(damaged("its size is not what its header says"));
    }
    // 4. Every byte after the header, a buffer at a time: the checksum, and the index kept.
    let index = read_checked(&file, &h, stamp.len, &head).map_err(|e| match e {
        Checked::Io(e) => io(e),
        Checked::Short => damaged("truncated while it was read"),
        Checked::Sum => damaged("checksum mismatch"),
    })?;
    if Stamp::of(&file).map_err(io)? != stamp {
        return Err(damaged("changed while it was read"));
    }
    // 5. The block index.
    let prior = Prior(index[..PRIOR].try_into().expect("the prior's bytes"));
    let blocks = h.blocks as usize;
    let offsets = |layer: usize| -> Vec<u32> {
        let at = PRIOR + layer * 4 * (blocks + 1);
        index[at..at + 4 * (blocks + 1)]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect()
    };
    let payload = HEADER as u64 + h.index_bytes();
    let layers = [
        Layer {
            start: payload,
            offsets: offsets(0),
        },
        Layer {
            start: payload + h.wdl_bytes,
            offsets: offsets(1),
        },
    ];
    for (l, bytes) in layers.iter().zip([h.wdl_bytes, h.dist_bytes]) {
        let in_order = l.offsets[0] == 0
            && l.offsets
                .windows(2)
                .all(|w| w[0] <= w[1] && (w[1] - w[0]) as usize <= MAX_BLOCK_BYTES);
        if !in_order || u64::from(l.offsets[blocks]) != bytes {
            return Err(damaged("bad block index"));
        }
    }
    Ok(TableFile {
        variant,
        sig: h.sig,
        limit: h.limit,
        slots: h.slots,
        blocks,
        layers,
        prior,
        file,
        stamp,
    })
}

/// Why [`read_checked`] failed.
enum Checked {
    Io(io::Error),
    /// The file ended before the size it had when opened.
    Short,
    Sum,
}

/// Reads the `len - HEADER` bytes after the header `head` from `file` (at its position,
/// just past the header), a [`CHUNK`] at a time; checks the checksum the header `h` holds
/// over them, and returns the first [`Header::index_bytes`] of them (the prior and the block
/// indexes).
fn read_checked(file: &File, h: &Header, len: u64, head: &[u8]) -> Result<Vec<u8>, Checked> {
    let keep = h.index_bytes() as usize;
    let mut index = Vec::with_capacity(keep);
    let mut sum = Checksum::new();
    sum.update(&head[CHECKED..]);
    let mut left = len - HEADER as u64;
    let mut buf = vec![0u8; CHUNK.min(left as usize)];
    while left > 0 {
        let want = (left as usize).min(CHUNK);
        let got = read_full(file, &mut buf[..want]).map_err(Checked::Io)?;
        if got < want {
            return Err(Checked::Short);
        }
        let chunk = &buf[..got];
        let room = keep - index.len();
        index.extend_from_slice(&chunk[..room.min(got)]);
        sum.update(chunk);
        left -= got as u64;
    }
    if sum.finish() != h.sum {
        return Err(Checked::Sum);
    }
    Ok(index)
}
