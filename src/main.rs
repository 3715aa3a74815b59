//! `oomlab`: parse, dispatch, map errors to an exit code and a message.

use std::process::ExitCode;

use clap::Parser;

// Counts host heap bytes for the memory probe and the CPU's --memory-budget.
#[global_allocator]
static ALLOC: oomlab::probe::host::CountingAlloc = oomlab::probe::host::CountingAlloc;

fn main() -> ExitCode {
    // Before any thread starts: it may set a variable cuBLAS reads.
    oomlab::device::CublasWorkspace::apply();
    let cli = oomlab::cli::Cli::parse();
    let code = match oomlab::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprint!(
                "{}",
                oomlab::text::hang("oomlab: error: ", &err.to_string())
            );
            err.exit_code()
        }
    };
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
