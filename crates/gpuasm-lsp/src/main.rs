//! `gpuasm-lsp`: the language server on its own, for editors set up with a
//! bare command (it is also `gpuasm lsp`). Takes `--target-env ENV`, and
//! ignores `--stdio`, which some clients pass.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut options = gpuasm_lsp::Options::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let env = match arg.as_str() {
            "--stdio" => continue,
            "--target-env" => args.next(),
            other => other.strip_prefix("--target-env=").map(str::to_string),
        };
        match env.as_deref().map(str::parse) {
            Some(Ok(env)) => options.target_env = Some(env),
            _ => {
                eprintln!("usage: gpuasm-lsp [--target-env ENV] [--stdio]");
                return ExitCode::from(2);
            }
        }
    }
    match gpuasm_lsp::run_stdio(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gpuasm-lsp: {e}");
            ExitCode::FAILURE
        }
    }
}
