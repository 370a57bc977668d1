//! The `chuhan` binary: the command line (clap) over the library. Without a
//! subcommand it is a protocol engine on stdin/stdout.

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    cli::main(std::env::args().skip(1).collect())
}
