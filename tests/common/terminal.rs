//! `bashni` on a terminal: a pseudo-terminal for its standard input, output and error, so it
//! behaves as it does for a person (prompts, the offer to save before leaving).

use super::deadline::{join, wait_child};
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};

/// Runs `bashni args` on a fresh pseudo-terminal, typing `typed` (lines, each ended by a
/// newline) at once: the terminal holds them until the program reads each. Returns the exit
/// code and everything the terminal showed (the typed lines echoed, `\r\n` line ends).
pub fn run_on_terminal(args: &[&str], typed: &str) -> (i32, String) {
    let (mut master, slave) = open_pty();
    let mut child = Command::new(env!("CARGO_BIN_EXE_bashni"))
        .args(args)
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave))
        .spawn()
        .expect("cannot start bashni");
    // The parent's copies of the terminal's far end are closed now (moved into the child's
    // Stdio, dropped by spawn): reading ends when the child's are.
    master.write_all(typed.as_bytes()).unwrap();
    let mut reader = master.try_clone().unwrap();
    let shown = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let mut buf = [0u8; 4096];
        // A pseudo-terminal whose far end is closed reads as an error (EIO), not an end.
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    });
    // No verdict is about time: the deadline only ends a hung run.
    let status = wait_child(&mut child, format!("bashni {args:?} on a terminal"));
    let shown = join(shown, format!("the terminal of bashni {args:?} to close"));
    drop(master);
    (status.code().unwrap_or(-1), shown)
}

/// A new pseudo-terminal: its near end (what a person types into and reads) and its far end
/// (the program's standard streams).
fn open_pty() -> (File, OwnedFd) {
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two descriptors into the integers given and reads nothing else
    // (null name, termios and window size); on success both are open and owned by nobody
    // else, so each is wrapped exactly once.
    unsafe {
        let rc = libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        );
        assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
        (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave))
    }
}
