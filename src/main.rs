//! The `chuhan` binary: a thin front end over the library.

use std::process::ExitCode;

fn main() -> ExitCode {
    chuhan::cli::main(std::env::args().skip(1).collect())
}
