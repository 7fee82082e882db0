//! `gpuasm`: command-line front end. Each subcommand lives in its own module
//! and only turns flags into library calls.

#[macro_use]
mod io;
mod alloc;
mod asm;
mod cfg;
mod dis;
mod mali;
mod reflect;
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
    /// Control-flow graphs of a SPIR-V module (dot identical to spirv-cfg, or JSON).
    Cfg(cfg::CfgArgs),
    /// Disassemble a SPIR-V binary (output identical to spirv-dis).
    Dis(dis::DisArgs),
    /// Describe a SPIR-V module's entry points and resources as JSON (lists agree with spirv-cross --reflect).
    Reflect(reflect::ReflectArgs),
    /// Validate a SPIR-V module (verdicts agree with spirv-val).
    Val(val::ValArgs),
    /// Mali-200/400 (Utgard) PP fragment-shader assembler and disassembler.
    #[command(name = "mali-pp", subcommand)]
    MaliPp(mali::MaliCommand),
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
        Command::Cfg(args) => cfg::run(args),
        Command::Dis(args) => dis::run(args),
        Command::MaliPp(cmd) => mali::run(cmd),
        Command::Reflect(args) => reflect::run(args),
        Command::Val(args) => val::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            messageln!("gpuasm: error: {e:#}");
            ExitCode::from(1)
        }
    }
}
