//! The `bashni` command line.

fn main() {
    bashni::closed_pipe::install_hook();
    // First, before any file is written: a file size limit must be an error a write returns,
    // not a signal that ends the process with a file half-written (see the function).
    bashni::files::catch_file_size_signal();
    std::process::exit(bashni::cli::run());
}
