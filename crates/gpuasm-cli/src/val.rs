//! `gpuasm val`: validate a SPIR-V module; silent and exit 0 when valid.

use crate::io::read_input;
use anyhow::{bail, Result};
use clap::Args;
use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::target_env::TARGET_ENV_NAMES;
use gpuasm_spirv::validate::{validate, ValidatorOptions};
use gpuasm_spirv::TargetEnv;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ValArgs {
    /// Input module; `-` or none for stdin.
    input: Option<PathBuf>,
    /// Target environment (default spv1.6, as spirv-val).
    #[arg(long, value_name = "ENV")]
    target_env: Option<String>,
    /// Stop after this many errors.
    #[arg(long, default_value_t = 100)]
    max_errors: usize,
}

pub fn run(args: ValArgs) -> Result<ExitCode> {
    let target_env = match &args.target_env {
        None => TargetEnv::Universal(6),
        Some(n) => match TargetEnv::parse(n) {
            Some(e) => e,
            None => bail!("unknown target environment '{n}'; valid values: {}", TARGET_ENV_NAMES.join(", ")),
        },
    };
    let (bytes, name) = read_input(args.input.as_deref())?;
    let words = match words_from_bytes(&bytes) {
        Ok((w, _)) => w,
        Err(e) => {
            eprintln!("error: {name}: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    match validate(&words, &ValidatorOptions { target_env, max_errors: args.max_errors }) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(errors) => {
            for e in &errors {
                eprintln!("error: {name}: word {}: {} [{:?}]", e.word_offset, e.message, e.kind);
                if let Some(i) = &e.instruction {
                    eprintln!("  {i}");
                }
            }
            Ok(ExitCode::from(1))
        }
    }
}
