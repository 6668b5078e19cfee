//! The engine protocol over stdin/stdout (see engine-protocol.md). Placeholder: being written.

/// Runs the protocol loop until `quit` or end of input; returns the exit code.
pub fn run() -> i32 {
    eprintln!("protocol mode not built yet");
    1
}
