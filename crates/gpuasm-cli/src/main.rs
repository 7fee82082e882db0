//! `gpuasm`: command-line front end. Each subcommand lives in its own module
//! and only turns flags into library calls.

#[macro_use]
mod io;
mod alloc;
mod asm;
mod cfg;
mod data_pages;
mod diff;
mod dis;
mod lesspipe;
mod link;
mod lsp;
mod mali;
mod reflect;
mod report;
mod val;
mod val_dir;
mod val_report;

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
    /// Compare two SPIR-V modules (output identical to spirv-diff).
    Diff(diff::DiffArgs),
    /// Disassemble a SPIR-V binary (output identical to spirv-dis).
    Dis(dis::DisArgs),
    /// Link modules into one (output identical to spirv-link).
    Link(link::LinkArgs),
    /// Describe a SPIR-V module's entry points and resources as JSON (lists agree with spirv-cross --reflect).
    Reflect(reflect::ReflectArgs),
    /// Validate a SPIR-V module (verdicts agree with spirv-val).
    Val(val::ValArgs),
    /// Disassemble a SPIR-V module for less(1): `LESSOPEN="|gpuasm lesspipe %s"`.
    Lesspipe(lesspipe::LesspipeArgs),
    /// Mali-200/400 (Utgard) PP fragment-shader assembler and disassembler.
    #[command(name = "mali-pp", subcommand)]
    MaliPp(mali::MaliCommand),
    /// Language server for SPIR-V assembly, over stdin and stdout.
    Lsp(lsp::LspArgs),
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
    // Errors are printed without a backtrace, so with `RUST_BACKTRACE=1`
    // each would capture one for nothing; in the static executable the
    // unwinder's first walk sorts every frame table (1.4 ms). Panics still
    // print theirs: they follow `RUST_BACKTRACE` alone.
    if std::env::var_os("RUST_LIB_BACKTRACE").is_none() {
        std::env::set_var("RUST_LIB_BACKTRACE", "0");
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
    if matches!(cli.command, Command::As(_) | Command::Dis(_) | Command::Val(_))
        && std::env::var_os("GPUASM_NO_PIN").is_none()
    {
        // Short runs whose threads Linux would otherwise start on one CPU.
        gpuasm_spirv::placement::enable();
    }
    let result = match cli.command {
        Command::As(args) => asm::run(args),
        Command::Cfg(args) => cfg::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Dis(args) => dis::run(args),
        Command::Link(args) => link::run(args),
        Command::MaliPp(cmd) => mali::run(cmd),
        Command::Reflect(args) => reflect::run(args),
        Command::Val(args) => val::run(args),
        Command::Lesspipe(args) => lesspipe::run(args),
        Command::Lsp(args) => lsp::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            if report::json() {
                let message = format!("{e:#}");
                report::Record::new(gpuasm_diag::Severity::Error, "Command", &message, None).emit();
            } else {
                messageln!("gpuasm: error: {e:#}");
            }
            ExitCode::from(1)
        }
    }
}
