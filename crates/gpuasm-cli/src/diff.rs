//! `gpuasm diff`: compare two modules, as `spirv-diff` does (same text,
//! byte for byte). Each input is a binary or assembly text, told by its
//! content; text is assembled keeping its numeric ids, as spirv-diff does.

use crate::cfg::read_module;
use crate::io::{read_input, write_stdout};
use crate::report;
use anyhow::Result;
use clap::Args;
use gpuasm_diag::Severity;
use gpuasm_spirv::binary::words_of_bytes;
use gpuasm_spirv::diff::{diff, DiffOptions, Input};
use gpuasm_spirv::text::{parse, text_from_bytes, AsmOptions};
use gpuasm_spirv::TargetEnv;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// The generator word SPIRV-Tools' assembler writes, which spirv-diff shows
/// for a text input.
const SPIRV_TOOLS_ASSEMBLER: u32 = 0x0007_0000;

#[derive(Args)]
pub struct DiffArgs {
    /// The module compared from (its ids are the ones shown).
    src: PathBuf,
    /// The module compared to.
    dst: PathBuf,
    /// Colour the changed lines (the default on a terminal).
    #[arg(long)]
    color: bool,
    /// Don't colour; wins over --color.
    #[arg(long)]
    no_color: bool,
    /// Don't indent instructions.
    #[arg(long)]
    no_indent: bool,
    /// Don't print the header as leading comments.
    #[arg(long)]
    no_header: bool,
    /// Also print the pairing of src ids to dst ids.
    #[arg(long)]
    with_id_map: bool,
    /// Don't pair variables by DescriptorSet/Binding decorations.
    #[arg(long)]
    ignore_set_binding: bool,
    /// Don't pair variables by Location decorations.
    #[arg(long)]
    ignore_location: bool,
}

pub fn run(args: DiffArgs) -> Result<ExitCode> {
    let Some((src_words, src_name)) = load(&args.src)? else { return Ok(ExitCode::from(1)) };
    let Some((dst_words, dst_name)) = load(&args.dst)? else { return Ok(ExitCode::from(1)) };
    let (Some(src), Some(dst)) = (read_module(&src_words, &src_name), read_module(&dst_words, &dst_name)) else {
        return Ok(ExitCode::from(1));
    };
    let options = DiffOptions::default()
        .color((std::io::stdout().is_terminal() || args.color) && !args.no_color)
        .indent(!args.no_indent)
        .header(!args.no_header)
        .id_map(args.with_id_map)
        .ignore_set_binding(args.ignore_set_binding)
        .ignore_location(args.ignore_location);
    match diff(&src, &dst, &options) {
        Ok(text) => {
            write_stdout(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Err((input, e)) => {
            match input {
                Input::Src => messageln!("gpuasm: error: {src_name}: {e}"),
                Input::Dst => messageln!("gpuasm: error: {dst_name}: {e}"),
                Input::Both => messageln!("gpuasm: error: {src_name} and {dst_name}: {e}"),
            }
            Ok(ExitCode::from(1))
        }
    }
}

/// A module's words, assembled first if it is text; `None` once its errors
/// are reported.
fn load(path: &std::path::Path) -> Result<Option<(Vec<u32>, String)>> {
    let (bytes, name) = read_input(Some(path))?;
    if crate::val::is_text(&bytes) {
        let (text, raw_bytes) = text_from_bytes(&bytes);
        let options = AsmOptions::default()
            .raw_bytes(raw_bytes)
            .target_env(Some(TargetEnv::Universal(6)))
            .preserve_numeric_ids(true)
            .generator(SPIRV_TOOLS_ASSEMBLER);
        return Ok(match parse(&text, &options) {
            Ok(parsed) => Some((parsed.words().to_vec(), name)),
            Err(diags) => {
                report::text_diagnostics(&name, &text, &diags, "Assembly");
                None
            }
        });
    }
    Ok(match words_of_bytes(&bytes) {
        Ok((words, _)) => Some((words.into_owned(), name)),
        Err(e) => {
            report::plain(Severity::Error, &name, "Binary", &e.to_string(), Some(e.word_offset()));
            None
        }
    })
}
