//! `gpuasm dis`: SPIR-V binary to text, with spirv-dis's options.

use crate::io::{read_input, write_atomically_file, Output};
use crate::report::{self, ErrorFormat};
use anyhow::Result;
use clap::Args;
use gpuasm_diag::Severity;
use gpuasm_spirv::binary::{words_from_hex_text, words_of_bytes, MAGIC};
use gpuasm_spirv::dis::{self, DisError, DisOptions};
use is_terminal::IsTerminal;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct DisArgs {
    /// Input module (binary, either byte order, or spirv-dis's hex text); `-` or none for stdin.
    input: Option<PathBuf>,
    /// Output file; `-` or none for stdout.
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Force colour output (default: only on a terminal).
    #[arg(long)]
    color: bool,
    /// Never colour the output (wins over `--color`, as in spirv-dis).
    #[arg(long)]
    no_color: bool,
    /// Do not indent instructions.
    #[arg(long)]
    no_indent: bool,
    /// Do not print the header comment.
    #[arg(long)]
    no_header: bool,
    /// Show raw id numbers instead of friendly names.
    #[arg(long)]
    raw_id: bool,
    /// Indent blocks by structured control-flow nesting.
    #[arg(long)]
    nested_indent: bool,
    /// Print blocks in structured order.
    #[arg(long)]
    reorder_blocks: bool,
    /// Show the byte offset of each instruction.
    #[arg(long)]
    offsets: bool,
    /// Add section banners and explanatory comments.
    #[arg(long)]
    comment: bool,
    /// Reject ids at or above the header's bound (by default they are
    /// printed, as spirv-dis does, with a warning).
    #[arg(long)]
    check_bound: bool,
    /// The default since ids past the bound are printed; kept for scripts.
    #[arg(long, hide = true)]
    allow_ids_past_bound: bool,
    /// Name the instructions of every vendored extended set, including those
    /// spirv-dis prints as numbers (NonSemantic.DebugPrintf, DebugBreak, VkspReflection).
    #[arg(long)]
    all_ext_inst_names: bool,
    /// How errors and warnings are printed: `human`, or `json`: one object a line (docs/error-format-json.md)
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "human")]
    error_format: ErrorFormat,
    /// Reject instructions the grammar cannot decode (unknown opcodes,
    /// enumerants, extended instructions), as spirv-dis does by default; by
    /// default they are printed as `OpUnknown(opcode, word count)` and their
    /// words, which `gpuasm as` reads back, with a warning.
    #[arg(long, conflicts_with = "handle_unknown_opcodes")]
    reject_unknown: bool,
    /// Print undecodable instructions as `OpUnknown` without a warning
    /// (newer spirv-dis's flag for that output).
    #[arg(long)]
    handle_unknown_opcodes: bool,
}

pub fn run(args: DisArgs) -> Result<ExitCode> {
    report::set_format(args.error_format);
    crate::alloc::use_huge_pages();
    crate::data_pages::populate();
    let (bytes, name) = read_input(args.input.as_deref())?;
    let output = Output::from_arg(args.output.as_deref(), None);
    let loaded = if is_binary(&bytes) {
        words_of_bytes(&bytes)
    } else {
        words_from_hex_text(&bytes).map(|(w, e)| (w.into(), e))
    };
    let words = match loaded {
        Ok((w, _)) => w,
        Err(e) => {
            report::plain(Severity::Error, &name, "Binary", &e.to_string(), Some(e.word_offset()));
            return Ok(ExitCode::from(1));
        }
    };
    let color = output.is_stdout()
        && if args.no_color {
            false
        } else if args.color {
            true
        } else {
            std::io::stdout().is_terminal()
        };
    let options = DisOptions::default()
        .indent(!args.no_indent)
        .header(!args.no_header)
        .friendly_names(!args.raw_id)
        .offsets(args.offsets)
        .comment(args.comment)
        .nested_indent(args.nested_indent)
        .reorder_blocks(args.reorder_blocks)
        .color(color)
        .check_bound(args.check_bound)
        .all_ext_inst_names(args.all_ext_inst_names)
        .handle_unknown_opcodes(!args.reject_unknown);
    let result = match &output {
        Output::Stdout => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            let r = dis::disassemble_to(&words, &options, &mut lock);
            lock.flush().ok();
            r
        }
        Output::File(path) => {
            // Straight into a temporary file, kept only if the whole module
            // reads (the text is never whole in memory).
            let mut outcome = None;
            let mut listed = None;
            // The listing is about three times the module's size.
            let hint = 3 * 4 * words.len() as u64;
            let written = write_atomically_file(path, hint, |file| match dis::disassemble_to(&words, &options, file) {
                Ok(l) => {
                    listed = Some(l);
                    Ok(true)
                }
                Err(DisError::Io(e)) => Err(e),
                Err(e @ (DisError::Binary(_) | DisError::NamesTooLarge { .. })) => {
                    outcome = Some(e);
                    Ok(false)
                }
            });
            match outcome {
                Some(e) => Err(e),
                None => {
                    written?;
                    Ok(listed.unwrap_or_default())
                }
            }
        }
    };
    match result {
        Ok(listed) => {
            if let Some((id, word)) = listed.first_id_past_bound {
                let bound = words.get(3).copied().unwrap_or(0);
                let message = format!(
                    "id {id} is not less than the bound {bound} (at word {word}): \
                     the module is invalid; --check-bound rejects it"
                );
                report::plain(Severity::Warning, &name, "IdPastBound", &message, Some(word));
            }
            if let Some(version) = listed.unsupported_version {
                let message = format!(
                    "version word 0x{version:08x} is not SPIR-V 1.0 to 1.6 (spirv-dis rejects it); printed anyway"
                );
                report::plain(Severity::Warning, &name, "UnsupportedVersion", &message, Some(0));
            }
            if let (count, Some((why, word))) = &listed.undecoded {
                if !args.handle_unknown_opcodes {
                    let s = if *count == 1 { "" } else { "s" };
                    let message = format!(
                        "{count} instruction{s} printed as OpUnknown, the first at word {word}: {why}; \
                         spirv-dis rejects the module (so does --reject-unknown)"
                    );
                    report::plain(Severity::Warning, &name, "Undecoded", &message, Some(*word));
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(DisError::Binary(e)) => {
            report::plain(Severity::Error, &name, "Binary", &e.to_string(), Some(e.word_offset()));
            Ok(ExitCode::from(1))
        }
        Err(e @ DisError::NamesTooLarge { .. }) => {
            report::plain(Severity::Error, &name, "NamesTooLarge", &e.to_string(), None);
            Ok(ExitCode::from(1))
        }
        Err(DisError::Io(e)) if output.is_stdout() => {
            Err(anyhow::Error::new(e).context("cannot write standard output"))
        }
        Err(e) => Err(e.into()),
    }
}

/// A binary module starts with the magic number in either byte order; an
/// input that does not is read as hex text when it looks like it.
fn is_binary(bytes: &[u8]) -> bool {
    if bytes.len() >= 4 {
        let w = [bytes[0], bytes[1], bytes[2], bytes[3]];
        if u32::from_le_bytes(w) == MAGIC || u32::from_be_bytes(w) == MAGIC {
            return true;
        }
    }
    !gpuasm_spirv::binary::looks_like_hex_text(bytes)
}
