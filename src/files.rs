//! Reading and writing the user's files without losing them: a file the program writes over is
//! replaced whole or not at all ([`replace`]), a record is appended whole or not at all
//! ([`append`]), a line is read with bounded memory and a bounded scan
//! ([`read_line_limited`]), and a whole file is read only up to a size ([`read_text`];
//! [`read_regular_text`] and [`read_regular_bytes`] also refuse what is not a regular file,
//! before opening it, as opening a FIFO blocks until someone writes to it; [`open_regular`]
//! opens one so, for a reader of its own: the endgame tables).
//!
//! Every file the program writes goes through [`replace`] (`play`'s `save`, `tune --out`,
//! `openings --out`, `train --out` and its manifest, `match --result`, `match-report
//! --result`, `analyse --out`), [`replace_entry`] (`egdb build`'s tables) or [`append`]
//! (`datagen --out`, `match --pdn`), and
//! every reader of a file or a pipe line by line (`datagen --resume`, `tune`, the protocol and
//! the match runner, through [`crate::protocol::reader`]) goes through these functions.

mod write;

pub use write::{append, catch_file_size_signal, replace, replace_entry};

use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufRead, ErrorKind, Read};
use std::path::{Path, PathBuf};

/// What one bounded line read found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line: its full length in bytes, its ending included (the last line of the input may
    /// have no ending). The buffer holds at most the first `keep` bytes of it.
    Line(u64),
    /// `scan` bytes without a line ending: the read stopped there and left the rest unread,
    /// as a line that long is not what the caller reads (and may never end, as `/dev/zero`).
    Endless(u64),
    /// End of input.
    Eof,
}

/// Reads one line into `buf` (cleared first), keeping at most `keep` bytes of it and
/// dropping the rest, and reading no more than `scan` bytes in search of its end. Memory is
/// bounded by `keep` whatever the input, and time by `scan`.
pub fn read_line_limited(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    keep: usize,
    scan: u64,
) -> io::Result<LineRead> {
    buf.clear();
    let mut len: u64 = 0;
    loop {
        if len >= scan {
            return Ok(LineRead::Endless(len));
        }
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(if len > 0 {
                LineRead::Line(len)
            } else {
                LineRead::Eof
            });
        }
        let room = usize::try_from(scan - len).unwrap_or(usize::MAX);
        let chunk = &chunk[..chunk.len().min(room)];
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..=i], true),
            None => (chunk, false),
        };
        let kept = keep.saturating_sub(buf.len()).min(part.len());
        buf.extend_from_slice(&part[..kept]);
        let used = part.len();
        len += used as u64;
        input.consume(used);
        if done {
            return Ok(LineRead::Line(len));
        }
    }
}

/// Why a whole file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// It cannot be opened or read.
    Io(io::Error),
    /// It holds more than the limit, in bytes.
    TooLarge(u64),
    /// It is not UTF-8 text.
    NotText,
    /// It is not a regular file (a FIFO, a device, a folder), and only those are read.
    NotRegular,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => e.fmt(f),
            ReadError::TooLarge(limit) => write!(f, "larger than {}", size_text(*limit)),
            ReadError::NotText => f.write_str("not UTF-8 text"),
            ReadError::NotRegular => f.write_str("not a regular file (a folder, FIFO or device)"),
        }
    }
}

impl std::error::Error for ReadError {}

/// The bytes of the file at `path`, if it holds at most `limit` bytes (so that `/dev/zero` or
/// a mistaken multi-gigabyte file costs at most `limit` bytes of memory).
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_at_most(File::open(path).map_err(ReadError::Io)?, limit)
}

/// Everything `file` holds, refused once it passes `limit` bytes.
fn read_at_most(file: File, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge(limit));
    }
    Ok(bytes)
}

/// `bytes` as UTF-8 text without a leading byte order mark (as some Windows editors write).
fn text_of(bytes: Vec<u8>) -> Result<String, ReadError> {
    let text = String::from_utf8(bytes).map_err(|_| ReadError::NotText)?;
    Ok(match text.strip_prefix(BOM) {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// The text of the file at `path`, if it holds at most `limit` bytes (see [`read_bytes`]),
/// without a leading UTF-8 byte order mark (as some Windows editors write).
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    text_of(read_bytes(path, limit)?)
}

/// Like [`read_bytes`], but only for a regular file (or a link to one): anything else is
/// refused with [`ReadError::NotRegular`] before it is opened, so that a FIFO never blocks
/// the reader and a device is never read; a file larger than `limit` is refused without
/// being read.
pub fn read_regular_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path)?;
    if file.metadata().map_err(ReadError::Io)?.len() > limit {
        return Err(ReadError::TooLarge(limit));
    }
    read_at_most(file, limit)
}

/// Opens the regular file at `path` (or at the end of a link to one) for reading; anything
/// else is refused with [`ReadError::NotRegular`] and never blocks: it is refused before it
/// is opened, and the open itself does not wait (`O_NONBLOCK`), so that a FIFO put in the
/// file's place in between is opened at once and refused too. A regular file reads as usual
/// (the flag means nothing to it).
pub fn open_regular(path: &Path) -> Result<File, ReadError> {
    if !fs::metadata(path).map_err(ReadError::Io)?.is_file() {
        return Err(ReadError::NotRegular);
    }
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(ReadError::Io)?;
    // What was opened, in case the path changed in between.
    if !file.metadata().map_err(ReadError::Io)?.is_file() {
        return Err(ReadError::NotRegular);
    }
    Ok(file)
}

/// Like [`read_text`], but only for a regular file (see [`read_regular_bytes`]).
pub fn read_regular_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    text_of(read_regular_bytes(path, limit)?)
}

/// Whether `a` and `b` name the same file: the same path once links and `..` are resolved,
/// or, both existing, the same device and inode (a hard link). A path that does not exist
/// yet is compared by its folder's real path and its name.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(m), Ok(n)) = (fs::metadata(a), fs::metadata(b))
            && (m.dev(), m.ino()) == (n.dev(), n.ino())
        {
            return true;
        }
    }
    match (real_path(a), real_path(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// The real path of `p`, or for a file that does not exist, its folder's real path joined
/// with its name.
fn real_path(p: &Path) -> Option<PathBuf> {
    if let Ok(real) = fs::canonicalize(p) {
        return Some(real);
    }
    let name = p.file_name()?;
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    fs::canonicalize(dir).ok().map(|d| d.join(name))
}

/// The UTF-8 byte order mark, which a text file may start with and which means nothing.
pub const BOM: char = '\u{feff}';

/// A byte count for messages: `4 KiB`, `1 MiB` or bytes.
pub fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("bashni-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn bounded_lines_keep_the_start_and_the_length() {
        let mut input = Cursor::new(b"abcdefgh\r\nxy\nlast".to_vec());
        let mut buf = Vec::new();
        let read = |i: &mut Cursor<Vec<u8>>, b: &mut Vec<u8>| read_line_limited(i, b, 4, 100);
        assert_eq!(read(&mut input, &mut buf).unwrap(), LineRead::Line(10));
        assert_eq!(buf, b"abcd");
        assert_eq!(read(&mut input, &mut buf).unwrap(), LineRead::Line(3));
        assert_eq!(buf, b"xy\n");
        assert_eq!(read(&mut input, &mut buf).unwrap(), LineRead::Line(4));
        assert_eq!(buf, b"last");
        assert_eq!(read(&mut input, &mut buf).unwrap(), LineRead::Eof);
    }

    #[test]
    fn an_endless_line_stops_the_scan() {
        // Like /dev/zero: bytes without end and without a line ending.
        let mut input = io::BufReader::with_capacity(7, io::repeat(0));
        let mut buf = Vec::new();
        let got = read_line_limited(&mut input, &mut buf, 16, 1000).unwrap();
        assert_eq!(got, LineRead::Endless(1000));
        assert_eq!(buf.len(), 16);
        // A line of exactly `scan` bytes with its ending is still a line.
        let mut input = Cursor::new(b"abc\nd".to_vec());
        assert_eq!(
            read_line_limited(&mut input, &mut buf, 16, 4).unwrap(),
            LineRead::Line(4)
        );
        assert_eq!(
            read_line_limited(&mut input, &mut buf, 16, 4).unwrap(),
            LineRead::Line(1)
        );
    }

    #[test]
    fn read_text_is_bounded_and_drops_a_byte_order_mark() {
        let d = temp_dir("read");
        let p = d.join("bom.txt");
        fs::write(&p, "\u{feff}hello\r\n").unwrap();
        assert_eq!(read_text(&p, 100).unwrap(), "hello\r\n");
        assert!(matches!(read_text(&p, 5), Err(ReadError::TooLarge(5))));
        let e = read_text(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(e.to_string(), "larger than 1 MiB");
        fs::write(&p, b"\xff\xfe").unwrap();
        assert!(matches!(read_text(&p, 100), Err(ReadError::NotText)));
    }

    #[test]
    fn regular_reads_refuse_devices_folders_and_fifos_without_opening_them() {
        let d = temp_dir("regular");
        let p = d.join("a.txt");
        fs::write(&p, "\u{feff}text").unwrap();
        assert_eq!(read_regular_text(&p, 100).unwrap(), "text");
        // Too large: refused from its size, not read.
        assert!(matches!(
            read_regular_bytes(&p, 3),
            Err(ReadError::TooLarge(3))
        ));
        for other in [Path::new("/dev/zero"), d.as_path()] {
            let e = read_regular_bytes(other, 1 << 20).unwrap_err();
            assert_eq!(
                e.to_string(),
                "not a regular file (a folder, FIFO or device)"
            );
        }
        #[cfg(unix)]
        {
            let fifo = d.join("fifo");
            let made = std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap();
            assert!(made.success());
            // Opening it for reading would block this test for good.
            assert!(matches!(
                read_regular_text(&fifo, 100),
                Err(ReadError::NotRegular)
            ));
        }
        assert!(matches!(
            read_regular_bytes(&d.join("missing"), 100),
            Err(ReadError::Io(_))
        ));
    }

    #[test]
    fn same_file_sees_through_paths_links_and_hard_links() {
        let d = temp_dir("same");
        let a = d.join("a.txt");
        fs::write(&a, "x").unwrap();
        assert!(same_file(&a, &d.join(".").join("a.txt")));
        fs::create_dir(d.join("sub")).unwrap();
        assert!(same_file(&a, &d.join("sub/../a.txt")));
        fs::hard_link(&a, d.join("hard.txt")).unwrap();
        assert!(same_file(&a, &d.join("hard.txt")));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&a, d.join("soft.txt")).unwrap();
            assert!(same_file(&d.join("soft.txt"), &a));
        }
        // Not yet written: the same name in the same folder.
        let new = d.join("new.txt");
        assert!(same_file(&new, &d.join(".").join("new.txt")));
        assert!(!same_file(&new, &a));
        fs::write(d.join("b.txt"), "x").unwrap();
        assert!(!same_file(&a, &d.join("b.txt")));
    }
}
