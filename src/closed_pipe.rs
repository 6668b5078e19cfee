//! Ending quietly when standard output is closed (`bashni bench | head -3`), as Unix tools do.
//!
//! Rust ignores SIGPIPE, so a write to a closed pipe fails with `EPIPE` and the print macros
//! panic ("failed printing to stdout: Broken pipe"), from whichever thread printed. Restoring
//! SIGPIPE's default action would end the process instead, but it would also kill `bashni
//! match` when it writes to an engine that has crashed, and any server writing to a socket
//! whose client has gone: those writes must stay errors the program handles. So the one
//! mechanism is a panic hook, installed at the start of `main`: a print that failed because
//! the pipe is closed ends the process at once with status [`EXIT_CODE`] and nothing on
//! standard error; every other panic goes to the default hook as before. The protocol, which
//! writes through its own [`Output`](crate::protocol::Output), reports a closed standard
//! output the same way through [`exit_if_closed`].

use std::io;
use std::panic::PanicHookInfo;

/// Exit status after standard output was closed: 0, as ripgrep does, since the reader took
/// what it wanted (a shell reports 141 for a tool that SIGPIPE killed; scripts using
/// `set -o pipefail` would then fail on `bashni ... | head`).
pub const EXIT_CODE: i32 = 0;

/// `EPIPE`, the error of a write to a pipe nobody reads (32 on Linux, macOS and the BSDs).
#[cfg(unix)]
const EPIPE: i32 = 32;
/// `ERROR_NO_DATA`, Windows' error for a write to a closed pipe.
#[cfg(windows)]
const EPIPE: i32 = 232;
/// No pipes elsewhere (WebAssembly): an error code no write there returns.
#[cfg(not(any(unix, windows)))]
const EPIPE: i32 = 32;

/// Installs the panic hook that turns a failed print to a closed pipe into a quiet exit.
pub fn install_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if is_closed_pipe_panic(info) {
            std::process::exit(EXIT_CODE);
        }
        default(info);
    }));
}

/// Ends the process quietly if `err` says the reader of the pipe is gone.
pub fn exit_if_closed(err: &io::Error) {
    if err.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(EXIT_CODE);
    }
}

/// Whether the panic is the print macros' "failed printing to stdout|stderr: <EPIPE>".
fn is_closed_pipe_panic(info: &PanicHookInfo) -> bool {
    let payload = info.payload();
    let text = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied());
    text.is_some_and(is_closed_pipe_message)
}

/// Whether `text` is the message the print macros panic with on a closed pipe: std writes
/// `failed printing to <stream>: <the io::Error>`, and the error of `EPIPE` displays as the
/// system's text for it followed by `(os error 32)`.
fn is_closed_pipe_message(text: &str) -> bool {
    let epipe = io::Error::from_raw_os_error(EPIPE).to_string();
    ["stdout", "stderr"]
        .iter()
        .any(|stream| text == format!("failed printing to {stream}: {epipe}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_only_a_closed_pipe() {
        let epipe = io::Error::from_raw_os_error(EPIPE);
        assert!(is_closed_pipe_message(&format!(
            "failed printing to stdout: {epipe}"
        )));
        assert!(is_closed_pipe_message(&format!(
            "failed printing to stderr: {epipe}"
        )));
        // A full disk is a real error and must still be reported.
        let full = io::Error::from(io::ErrorKind::StorageFull);
        assert!(!is_closed_pipe_message(&format!(
            "failed printing to stdout: {full}"
        )));
        assert!(!is_closed_pipe_message("index out of bounds"));
    }
}
