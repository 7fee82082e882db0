//! `gpuasm as`: SPIR-V assembly text to a binary, with spirv-as's options.

use crate::io::{read_input, write_atomically_file, write_words, Output};
use crate::report::{self, ErrorFormat};
use crate::val::ValChecks;
use anyhow::Result;
use clap::Args;
use gpuasm_spirv::text::{
    assemble_to_writer, assemble_with_warnings, text_from_bytes, AsmOptions, Diagnostics, StreamError,
};
use gpuasm_spirv::TargetEnv;
use std::io::Write;
use std::path::{Path, PathBuf};
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
    /// Threads to assemble large texts with (default: one per CPU, up to
    /// 8); the output is the same whatever the number.
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    threads: Option<usize>,
    /// Validate the module too (as `gpuasm val`, for the --target-env
    /// given, with the validator options below), its errors shown in the
    /// text; the output is written only if the module is valid.
    #[arg(long)]
    validate: bool,
    /// How errors and warnings are printed: `human`, or `json`: one object a line (docs/error-format-json.md)
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "human")]
    error_format: ErrorFormat,
    #[command(flatten, next_help_heading = "Validator options (with --validate)")]
    checks: ValChecks,
}

fn parse_u32(s: &str) -> Result<u32, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|e| e.to_string())
}

pub fn run(args: AsArgs) -> Result<ExitCode> {
    report::set_format(args.error_format);
    crate::alloc::reuse_freed_blocks();
    let target_env = args.target_env.as_deref().map(str::parse::<TargetEnv>).transpose()?;
    let (bytes, name) = read_input(args.input.as_deref())?;
    // Bytes that are not UTF-8 get stand-ins the assembler turns back into
    // the bytes in string literals (spirv-as reads bytes).
    let (text, raw_bytes) = text_from_bytes(&bytes);
    let options = AsmOptions::default()
        .raw_bytes(raw_bytes)
        .target_env(target_env)
        .preserve_numeric_ids(args.preserve_numeric_ids)
        .generator(args.generator.unwrap_or(0))
        .threads(args.threads.unwrap_or(0));
    let output = Output::from_arg(args.output.as_deref(), Some("out.spv"));
    if args.validate {
        let val_options = args.checks.options(target_env.unwrap_or(TargetEnv::Universal(6)));
        let write = |words: &[u32]| write_words(&output, words);
        let warnings = !args.no_warnings;
        return Ok(crate::val::validate_text(&name, &text, &options, &val_options, warnings, Some(&write)));
    }
    // A file is written as the text is assembled (the binary is never
    // whole in memory) and kept only if the text has no errors.
    let streamed = match &output {
        Output::File(path) => stream_to_file(path, &text, &options)?,
        Output::Stdout => None,
    };
    let outcome = match streamed {
        Some(outcome) => outcome,
        None => match assemble_with_warnings(&text, &options) {
            Ok(assembled) => {
                write_words(&output, &assembled.words)?;
                Written::Done(assembled.warnings)
            }
            Err(diags) => Written::Rejected(diags),
        },
    };
    match outcome {
        Written::Done(warnings) => {
            if !args.no_warnings && !warnings.items.is_empty() {
                report::text_diagnostics(&name, &text, &warnings, "Assembly");
            }
            Ok(ExitCode::SUCCESS)
        }
        Written::Rejected(diags) => {
            report::text_diagnostics(&name, &text, &diags, "Assembly");
            let n = diags.errors().count();
            report::summary(format_args!("gpuasm: {} in {name}; nothing written", report::errors(n)));
            Ok(ExitCode::from(1))
        }
    }
}

/// How assembling into the output ended.
enum Written {
    /// The module was written; the text's warnings.
    Done(Diagnostics),
    /// The text has errors; nothing was written.
    Rejected(Diagnostics),
}

/// Assembles straight into a temporary file beside `path`, then renames it.
/// `None` when no temporary file could be made: the caller assembles in
/// memory instead, so the text's own errors still come first. A failure to
/// write, once the file was made, is the error.
fn stream_to_file(path: &Path, text: &str, options: &AsmOptions) -> Result<Option<Written>> {
    let mut outcome = None;
    let mut tried = false;
    // Binary output is about a third of the text's size; half is ample.
    let written = write_atomically_file(path, text.len() as u64 / 2, |file| {
        tried = true;
        let mut buf = std::io::BufWriter::with_capacity(1 << 16, &mut *file);
        match assemble_to_writer(text, options, &mut buf) {
            Ok(done) => {
                buf.flush()?;
                outcome = Some(done.warnings);
                Ok(true)
            }
            Err(StreamError::Io(e)) => Err(e),
            Err(StreamError::Assembly(diags)) => {
                outcome = Some(diags);
                Ok(false)
            }
        }
    });
    match (written, outcome) {
        (Ok(true), Some(warnings)) => Ok(Some(Written::Done(warnings))),
        (Ok(false), Some(diags)) => Ok(Some(Written::Rejected(diags))),
        (Err(e), _) if tried => Err(e),
        _ => Ok(None),
    }
}
