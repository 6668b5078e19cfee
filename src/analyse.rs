//! `bashni analyse`: readable analysis of a position from the command line. Placeholder.

/// Arguments of `bashni analyse`.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// `startpos` or a FEN.
    #[arg(default_value = "startpos")]
    pub position: String,
}

/// Runs the analysis; returns the exit code.
pub fn run(_args: AnalyseArgs) -> i32 {
    eprintln!("analyse not built yet");
    1
}
