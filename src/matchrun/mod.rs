//! `bashni match` and `bashni openings`. Placeholder: being written.

/// Arguments of `bashni match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {}

/// Arguments of `bashni openings`.
#[derive(clap::Args, Debug)]
pub struct OpeningsArgs {}

/// Runs a match; returns the exit code.
pub fn run_match(_args: MatchArgs) -> i32 {
    eprintln!("match not built yet");
    1
}

/// Writes an openings file; returns the exit code.
pub fn run_openings(_args: OpeningsArgs) -> i32 {
    eprintln!("openings not built yet");
    1
}
