//! `gpuasm lsp`: the language server (`gpuasm-lsp`) over stdin and stdout.

use anyhow::Result;
use clap::Args;
use std::process::ExitCode;

#[derive(Args)]
pub struct LspArgs {
    /// Assemble and validate for this environment (default: the version of a
    /// `; Version:` comment, else spv1.6).
    #[arg(long, value_name = "ENV")]
    target_env: Option<String>,
}

pub fn run(args: LspArgs) -> Result<ExitCode> {
    let target_env = args.target_env.as_deref().map(str::parse).transpose()?;
    gpuasm_lsp::run_stdio(gpuasm_lsp::Options { target_env }).map_err(|e| anyhow::anyhow!(e))?;
    Ok(ExitCode::SUCCESS)
}
