//! `gpuasm cfg`: a module's control-flow graphs, as spirv-cfg prints them
//! (GraphViz dot) or as JSON.

use crate::io::{read_input, write_atomically, write_stdout, Output};
use anyhow::Result;
use clap::{Args, ValueEnum};
use gpuasm_spirv::binary::{looks_like_hex_text, words_from_hex_text, words_of_bytes, ParserOptions, MAGIC};
use gpuasm_spirv::cfg;
use gpuasm_spirv::module::Module;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct CfgArgs {
    /// Input module (binary, either byte order, or spirv-dis's hex text); `-` or none for stdin.
    input: Option<PathBuf>,
    /// Output file; `-` or none for stdout.
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// `dot`: spirv-cfg's GraphViz text; `json`: functions, blocks and
    /// edges (branch, merge, continue) for scripts.
    #[arg(long, value_enum, default_value_t = Format::Dot)]
    format: Format,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Dot,
    Json,
}

pub fn run(args: CfgArgs) -> Result<ExitCode> {
    let (words, name) = match read_words(args.input.as_deref())? {
        Ok(read) => read,
        Err(code) => return Ok(code),
    };
    let Some(module) = read_module(&words, &name) else { return Ok(ExitCode::from(1)) };
    // SPIRV-Tools' binary parser, which spirv-cfg runs, reads versions 1.0
    // to 1.6 only, with the word's high and low bytes zero.
    let version = module.header().version;
    if version & 0xff00_00ff != 0 || !(0x0001_0000..=0x0001_0600).contains(&version) {
        messageln!("gpuasm: error: {name}: header version word {version:#010x} is not SPIR-V 1.0 to 1.6");
        return Ok(ExitCode::from(1));
    }
    let text = match args.format {
        Format::Dot => cfg::dot(&module),
        Format::Json => serde_json::to_string_pretty(&cfg::graph(&module))? + "\n",
    };
    match Output::from_arg(args.output.as_deref(), None) {
        Output::Stdout => write_stdout(text.as_bytes())?,
        Output::File(path) => write_atomically(&path, text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads a module's words from a binary (either byte order) or hex text,
/// as spirv-dis and spirv-cfg do; an input that is neither is reported and
/// gives the exit code.
/// Reads a module as spirv-cfg, spirv-diff and spirv-dis do, taking ids
/// past the header's bound; `None` (the error reported) if it does not
/// parse.
pub fn read_module<'w>(words: &'w [u32], name: &str) -> Option<Module<'w>> {
    Module::read_with(words, ParserOptions::default().check_bound(false))
        .map_err(|e| messageln!("gpuasm: error: {name}: {e}"))
        .ok()
}

pub fn read_words(path: Option<&Path>) -> Result<Result<(Vec<u32>, String), ExitCode>> {
    let (bytes, name) = read_input(path)?;
    let binary = bytes.len() >= 4 && {
        let w = [bytes[0], bytes[1], bytes[2], bytes[3]];
        u32::from_le_bytes(w) == MAGIC || u32::from_be_bytes(w) == MAGIC
    };
    let loaded = if binary || !looks_like_hex_text(&bytes) {
        words_of_bytes(&bytes).map(|(w, _)| w.into_owned())
    } else {
        words_from_hex_text(&bytes).map(|(w, _)| w)
    };
    Ok(match loaded {
        Ok(words) => Ok((words, name)),
        Err(e) => {
            messageln!("gpuasm: error: {name}: {e}");
            Err(ExitCode::from(1))
        }
    })
}
