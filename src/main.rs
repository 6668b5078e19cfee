//! The `bashni` command line.

fn main() {
    bashni::closed_pipe::install_hook();
    std::process::exit(bashni::cli::run());
}
