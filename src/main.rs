//! The `bashni` command line.

fn main() {
    std::process::exit(bashni::cli::run());
}
