//! `gpuasm as`: SPIR-V assembly text to a binary, with spirv-as's options.

use crate::io::{read_input, write_words, Output};
use anyhow::{bail, Result};
use clap::Args;
use gpuasm_spirv::target_env::TARGET_ENV_NAMES;
use gpuasm_spirv::text::{assemble_with_warnings, AsmOptions};
use gpuasm_spirv::TargetEnv;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct AsArgs {
    /// Input assembly; `-` or none for stdin.
    input: Option<PathBuf>,
    /// Output file (default out.spv, as spirv-as); `-` for stdout.
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Target environment: sets the header's SPIR-V version (default: a
    /// leading `; Version: 1.N` comment, else 1.6).
    #[arg(long, value_name = "ENV")]
    target_env: Option<String>,
    /// Numeric ids keep their number; other names fill the gaps.
    #[arg(long)]
    preserve_numeric_ids: bool,
    /// The header's generator word (default 0).
    #[arg(long, value_name = "WORD", value_parser = parse_u32)]
    generator: Option<u32>,
    /// Do not print warnings.
    #[arg(long)]
    no_warnings: bool,
}

fn parse_u32(s: &str) -> Result<u32, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|e| e.to_string())
}

pub fn run(args: AsArgs) -> Result<ExitCode> {
    let target_env = match &args.target_env {
        None => None,
        Some(name) => match TargetEnv::parse(name) {
            Some(env) => Some(env),
            None => bail!("unknown target environment '{name}'; valid values: {}", TARGET_ENV_NAMES.join(", ")),
        },
    };
    let (bytes, name) = read_input(args.input.as_deref())?;
    let text = match std::str::from_utf8(&bytes) {
        Ok(t) => std::borrow::Cow::Borrowed(t),
        // spirv-as reads bytes; keep going with replacement characters so
        // that positions still point at the right lines.
        Err(_) => String::from_utf8_lossy(&bytes),
    };
    let options = AsmOptions {
        target_env,
        preserve_numeric_ids: args.preserve_numeric_ids,
        generator: args.generator.unwrap_or(0),
        ..AsmOptions::default()
    };
    let output = Output::from_arg(args.output.as_deref(), Some("out.spv"));
    match assemble_with_warnings(&text, &options) {
        Ok(assembled) => {
            if !args.no_warnings && !assembled.warnings.items.is_empty() {
                eprint!("{}", assembled.warnings.render(&name, &text));
            }
            write_words(&output, &assembled.words)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(diags) => {
            eprint!("{}", diags.render(&name, &text));
            let n = diags.errors().count();
            eprintln!("gpuasm: {n} error{} in {name}; nothing written", if n == 1 { "" } else { "s" });
            Ok(ExitCode::from(1))
        }
    }
}
