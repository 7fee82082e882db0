//! `gpuasm reflect`: a module's entry points, descriptor bindings, push
//! constants, specialisation constants and stage interface as JSON (schema
//! in docs/reflect-json.md).

use crate::cfg::{read_module, read_words};
use crate::io::{write_atomically, write_stdout, Output};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ReflectArgs {
    /// Input module (binary, either byte order, or spirv-dis's hex text); `-` or none for stdin.
    input: Option<PathBuf>,
    /// Output file; `-` or none for stdout.
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(args: ReflectArgs) -> Result<ExitCode> {
    let (words, name) = match read_words(args.input.as_deref())? {
        Ok(read) => read,
        Err(code) => return Ok(code),
    };
    let Some(module) = read_module(&words, &name) else { return Ok(ExitCode::from(1)) };
    let text = serde_json::to_string_pretty(&gpuasm_spirv::reflect::reflect(&module))? + "\n";
    match Output::from_arg(args.output.as_deref(), None) {
        Output::Stdout => write_stdout(text.as_bytes())?,
        Output::File(path) => write_atomically(&path, text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}
