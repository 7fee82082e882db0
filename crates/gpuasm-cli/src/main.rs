//! `gpuasm`: command-line front end. Each subcommand lives in its own module
//! and only turns flags into library calls.

#[macro_use]
mod io;
mod alloc;
mod asm;
mod dis;
mod mali;
mod val;
mod val_dir;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: alloc::Allocator = alloc::Allocator;

/// GPU shader assembly tools.
#[derive(Parser)]
#[command(name = "gpuasm", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Assemble SPIR-V text into a binary (output identical to spirv-as).
    #[command(name = "as")]
    As(asm::AsArgs),
    /// Disassemble a SPIR-V binary (output identical to spirv-dis).
    Dis(dis::DisArgs),
    /// Validate a SPIR-V module (verdicts agree with spirv-val).
    Val(val::ValArgs),
    /// Mali-200/400 (Utgard) PP fragment-shader assembler and disassembler.
    #[command(name = "mali-pp", subcommand)]
    MaliPp(mali::MaliCommand),
    /// Language server for SPIR-V assembly, over stdin and stdout.
    Lsp(LspArgs),
}

#[derive(clap::Args)]
struct LspArgs {
    /// Assemble and validate for this environment (default: the version of a
    /// `; Version:` comment, else spv1.6).
    #[arg(long, value_name = "ENV")]
    target_env: Option<String>,
}

fn main() -> ExitCode {
    // A closed pipe (`gpuasm dis a.spv | head`) ends the program quietly
    // with the conventional status, as it does other Unix tools; Rust's
    // runtime ignores SIGPIPE, which would turn it into a write error.
    #[cfg(unix)]
    // SAFETY: restores the default action before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // Bad usage exits 1, as spirv-as, spirv-dis and spirv-val do;
            // `--help` and `--version` exit 0.
            return ExitCode::from(u8::from(e.use_stderr()));
        }
    };
    let result = match cli.command {
        Command::As(args) => asm::run(args),
        Command::Dis(args) => dis::run(args),
        Command::MaliPp(cmd) => mali::run(cmd),
        Command::Val(args) => val::run(args),
        Command::Lsp(args) => (|| {
            let target_env = args.target_env.as_deref().map(str::parse).transpose()?;
            gpuasm_lsp::run_stdio(gpuasm_lsp::Options { target_env }).map_err(|e| anyhow::anyhow!(e))?;
            Ok(ExitCode::SUCCESS)
        })(),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            messageln!("gpuasm: error: {e:#}");
            ExitCode::from(1)
        }
    }
}
