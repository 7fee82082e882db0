//! `gpuasm lesspipe FILE`: the input filter less(1) runs through
//! `LESSOPEN="|gpuasm lesspipe %s"`, as spirv-lesspipe.sh does for
//! spirv-dis. A SPIR-V module (named `*.spv`, or starting with the magic
//! number in either byte order) prints as `gpuasm dis` prints it; for any
//! other file, or a module that does not disassemble, it prints nothing and
//! exits 1, and less shows the file as it is.

use anyhow::Result;
use clap::Args;
use gpuasm_spirv::binary::{words_of_bytes, MAGIC};
use gpuasm_spirv::dis::{disassemble, DisOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct LesspipeArgs {
    /// The file less is about to show.
    file: PathBuf,
}

/// Whether less should see `path` as disassembly.
fn is_module(path: &Path, bytes: &[u8]) -> bool {
    let named = path.extension().is_some_and(|e| e == "spv");
    let magic = bytes.get(..4).is_some_and(|b| {
        let b: [u8; 4] = b.try_into().expect("four bytes");
        u32::from_le_bytes(b) == MAGIC || u32::from_be_bytes(b) == MAGIC
    });
    named || magic
}

pub fn run(args: LesspipeArgs) -> Result<ExitCode> {
    // Whatever goes wrong, less shows the file itself: no message, exit 1.
    let Ok(bytes) = std::fs::read(&args.file) else { return Ok(ExitCode::from(1)) };
    if !is_module(&args.file, &bytes) {
        return Ok(ExitCode::from(1));
    }
    let Ok((words, _)) = words_of_bytes(&bytes) else { return Ok(ExitCode::from(1)) };
    let Ok(text) = disassemble(&words, &DisOptions::default()) else { return Ok(ExitCode::from(1)) };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
