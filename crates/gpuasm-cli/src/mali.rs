//! `gpuasm mali-pp as|dis`: the Mali PP assembler and disassembler.

use crate::io::{read_input, write_atomically, write_stdout, write_words, Output};
use crate::report::{self, ErrorFormat};
use anyhow::Result;
use clap::{Args, Subcommand, ValueEnum};
use gpuasm_diag::Severity;
use gpuasm_mali::hex::{from_listing, looks_like_listing, to_listing};
use gpuasm_mali::{assemble_with_warnings, disassemble, DisOptions};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum MaliCommand {
    /// Assemble gpuasm's PP syntax into program words.
    As(AsArgs),
    /// Disassemble program words into gpuasm's PP syntax.
    Dis(DisArgs),
}

/// Binary form of a program.
#[derive(Copy, Clone, ValueEnum, PartialEq, Eq)]
pub enum Format {
    /// 32-bit little-endian words, no header.
    Raw,
    /// Text: one instruction a line, `@<word offset>: <words in hex>`.
    Hex,
}

#[derive(Args)]
pub struct AsArgs {
    /// Input text; `-` or none for stdin.
    input: Option<PathBuf>,
    /// Output file; `-` or none for stdout.
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "raw")]
    format: Format,
    /// Do not print warnings.
    #[arg(long)]
    no_warnings: bool,
    /// How errors and warnings are printed: `human`, or `json`: one object a line (docs/error-format-json.md)
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "human")]
    error_format: ErrorFormat,
}

#[derive(Args)]
pub struct DisArgs {
    /// Input program; `-` or none for stdin.
    input: Option<PathBuf>,
    /// Output file; `-` or none for stdout.
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Input format (default: hex text if the input looks like it, else raw).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// A `# @offset` comment after each instruction.
    #[arg(long)]
    offsets: bool,
    /// Print every unit's field bits as `raw.<unit>` (for decoding unknown bits).
    #[arg(long)]
    raw_fields: bool,
    /// How errors are printed: `human`, or `json`: one object a line (docs/error-format-json.md)
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "human")]
    error_format: ErrorFormat,
}

pub fn run(cmd: MaliCommand) -> Result<ExitCode> {
    match cmd {
        MaliCommand::As(a) => run_as(a),
        MaliCommand::Dis(a) => run_dis(a),
    }
}

fn run_as(args: AsArgs) -> Result<ExitCode> {
    report::set_format(args.error_format);
    let (bytes, name) = read_input(args.input.as_deref())?;
    let text = String::from_utf8_lossy(&bytes);
    let output = Output::from_arg(args.output.as_deref(), None);
    match assemble_with_warnings(&text) {
        Ok((words, warnings)) => {
            if !args.no_warnings && !warnings.items.is_empty() {
                report::text_diagnostics(&name, &text, &warnings, "Assembly");
            }
            match args.format {
                Format::Raw => write_words(&output, &words)?,
                Format::Hex => {
                    let hex = to_listing(&words);
                    match &output {
                        Output::Stdout => write_stdout(hex.as_bytes())?,
                        Output::File(p) => write_atomically(p, hex.as_bytes())?,
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(d) => {
            report::text_diagnostics(&name, &text, &d, "Assembly");
            let n = d.errors().count();
            report::summary(format_args!("gpuasm: {} in {name}; nothing written", report::errors(n)));
            Ok(ExitCode::from(1))
        }
    }
}

fn run_dis(args: DisArgs) -> Result<ExitCode> {
    report::set_format(args.error_format);
    let (bytes, name) = read_input(args.input.as_deref())?;
    let format = args.format.unwrap_or(if looks_like_listing(&bytes) { Format::Hex } else { Format::Raw });
    let words = match format {
        Format::Hex => match from_listing(&String::from_utf8_lossy(&bytes)) {
            Ok(w) => w,
            Err(e) => {
                report::plain(Severity::Error, &name, "Binary", &e.to_string(), None);
                return Ok(ExitCode::from(1));
            }
        },
        Format::Raw => {
            if bytes.len() % 4 != 0 {
                let message = format!("size {} is not a multiple of 4 bytes", bytes.len());
                report::plain(Severity::Error, &name, "Binary", &message, None);
                return Ok(ExitCode::from(1));
            }
            bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
        }
    };
    let text = disassemble(&words, &DisOptions::default().offsets(args.offsets).raw_fields(args.raw_fields));
    match Output::from_arg(args.output.as_deref(), None) {
        Output::Stdout => write_stdout(text.as_bytes())?,
        Output::File(p) => write_atomically(&p, text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}
