//! The line-reader thread used wherever bashni reads lines from another program: the
//! protocol reads its commands with it, the match runner its engines' answers.
//!
//! A line is held to at most a fixed number of bytes: the rest of an overlong line is read
//! and dropped, so a 256 MB line costs no more memory than a short one. Bytes that are not
//! UTF-8 are replaced, and the line ending (`\n` or `\r\n`) is removed.

use crate::files::{LineRead, read_line_limited};
use crate::platform::Instant;
use std::io::{BufRead, BufReader, Read};

/// What the reader thread hands over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// One line, without its ending, and when it was read.
    Line(Instant, Line),
    /// End of input, or a read error (the other side is gone either way).
    Eof,
}

/// A line as read: its text, cut to the reader's limit if it was longer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The text (the first `limit` bytes when the line was longer).
    pub text: String,
    /// The line's full length in bytes when it was longer than the limit.
    pub cut_from: Option<u64>,
}

/// Starts a thread named `name` that reads `input` line by line, each held to `limit` bytes,
/// and hands every line, then [`Input::Eof`], to `deliver`; it ends early when `deliver`
/// returns false (nobody listens any more).
pub fn spawn_line_reader(
    name: &str,
    input: impl Read + Send + 'static,
    limit: usize,
    mut deliver: impl FnMut(Input) -> bool + Send + 'static,
) -> std::io::Result<()> {
    let read = move || {
        let mut input = BufReader::new(input);
        let mut buf = Vec::new();
        while let Ok(Some(line)) = read_line_lossy(&mut input, &mut buf, limit) {
            if !deliver(Input::Line(Instant::now(), line)) {
                return;
            }
        }
        deliver(Input::Eof);
    };
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(read)
        .map(|_| ())
}

/// Reads one line as text (through `buf`, a reusable buffer): at most `limit` bytes of it
/// kept, bytes that are not UTF-8 replaced, the line ending removed. `None` at end of input.
/// `bashni play` reads what a person types with it too.
pub fn read_line_lossy(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Option<Line>> {
    let Some(len) = read_line_bounded(input, buf, limit)? else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(buf)
        .trim_end_matches(['\n', '\r'])
        .to_string();
    let cut_from = (len > buf.len() as u64).then_some(len);
    Ok(Some(Line { text, cut_from }))
}

/// Reads one line into `buf` (cleared first), keeping at most `limit` bytes of it and
/// dropping the rest. Returns the line's full length in bytes, ending included, or `None`
/// at end of input. A line is read to its end however long it is (the other program decides
/// when it ends); [`crate::files::read_line_limited`] does the reading.
pub fn read_line_bounded(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Option<u64>> {
    Ok(match read_line_limited(input, buf, limit, u64::MAX)? {
        LineRead::Line(len) | LineRead::Endless(len) => Some(len),
        LineRead::Eof => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;
    use std::sync::mpsc::channel;

    #[test]
    fn bounded_lines_keep_the_start_and_the_length() {
        let mut input = Cursor::new(b"abcdefgh\r\nxy\nlast".to_vec());
        let mut buf = Vec::new();
        assert_eq!(
            read_line_bounded(&mut input, &mut buf, 4).unwrap(),
            Some(10)
        );
        assert_eq!(buf, b"abcd");
        assert_eq!(read_line_bounded(&mut input, &mut buf, 4).unwrap(), Some(3));
        assert_eq!(buf, b"xy\n");
        assert_eq!(read_line_bounded(&mut input, &mut buf, 4).unwrap(), Some(4));
        assert_eq!(buf, b"last");
        assert_eq!(read_line_bounded(&mut input, &mut buf, 4).unwrap(), None);
    }

    #[test]
    fn reader_thread_delivers_lines_then_eof() {
        let (tx, rx) = channel();
        let input = Cursor::new(b"go\r\n\xff\xfe long line\n".to_vec());
        spawn_line_reader("test-reader", input, 6, move |i| tx.send(i).is_ok()).unwrap();
        let got: Vec<Input> = rx.iter().collect();
        let texts: Vec<(String, Option<u64>)> = got
            .iter()
            .filter_map(|i| match i {
                Input::Line(_, l) => Some((l.text.clone(), l.cut_from)),
                Input::Eof => None,
            })
            .collect();
        assert_eq!(
            texts,
            [
                ("go".into(), None),
                ("\u{fffd}\u{fffd} lon".into(), Some(13))
            ]
        );
        assert_eq!(got.last(), Some(&Input::Eof));
    }
}
