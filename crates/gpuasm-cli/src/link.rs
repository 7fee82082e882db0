//! `gpuasm link`: link modules into one, as `spirv-link` does (same output
//! bytes, same rejections); errors add where the ids they name come from.

use crate::io::{read_input, write_words, Output};
use anyhow::Result;
use clap::Args;
use gpuasm_spirv::binary::words_of_bytes;
use gpuasm_spirv::link::{link_variants, FnVarOptions, LinkOptions};
use gpuasm_spirv::TargetEnv;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct LinkArgs {
    /// Input modules, in link order.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Output file (default out.spv, as spirv-link; `-` for stdout).
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Allow imports without a matching export.
    #[arg(long)]
    allow_partial_linkage: bool,
    /// Allow function parameters whose pointer types differ between import and export.
    #[arg(long)]
    allow_pointer_mismatch: bool,
    /// Keep export decorations and the Linkage capability.
    #[arg(long)]
    create_library: bool,
    /// Target environment (default spv1.6, as spirv-link).
    #[arg(long, value_name = "ENV")]
    target_env: Option<String>,
    /// Give the output the highest input version instead of rejecting differing versions.
    #[arg(long)]
    use_highest_version: bool,
    /// Check the merged module's ids are unique (always true of our merge).
    #[arg(long)]
    verify_ids: bool,
    /// CSV file (module,target,features) of each input's targets: makes a
    /// multitarget module (SPV_INTEL_function_variants).
    #[arg(long, value_name = "CSV")]
    fnvar_targets: Option<PathBuf>,
    /// CSV file (module,category,family,op,architecture) of each input's
    /// architectures: makes a multitarget module.
    #[arg(long, value_name = "CSV")]
    fnvar_architectures: Option<PathBuf>,
    /// With a multitarget module, each input also requires its capabilities.
    #[arg(long)]
    fnvar_capabilities: bool,
}

/// A CSV file's text; an empty path is no file, as spirv-link takes it.
fn csv_text(path: Option<&PathBuf>) -> Result<String> {
    match path {
        Some(p) if !p.as_os_str().is_empty() => {
            let bytes = std::fs::read(p).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
            Ok(String::from_utf8_lossy(&bytes).into_owned())
        }
        _ => Ok(String::new()),
    }
}

pub fn run(args: LinkArgs) -> Result<ExitCode> {
    // Checked for spirv-link's sake; linking itself does not depend on it.
    let _target: TargetEnv = args.target_env.as_deref().map_or(Ok(TargetEnv::Universal(6)), str::parse)?;
    let mut modules = Vec::with_capacity(args.inputs.len());
    for path in &args.inputs {
        let (input, name) = read_input(Some(path))?;
        let words = words_of_bytes(&input).map_err(|e| anyhow::anyhow!("{name}: {e}"))?.0.into_owned();
        modules.push(words);
    }
    let refs: Vec<&[u32]> = modules.iter().map(Vec::as_slice).collect();
    let options = LinkOptions {
        allow_partial_linkage: args.allow_partial_linkage,
        allow_pointer_mismatch: args.allow_pointer_mismatch,
        create_library: args.create_library,
        use_highest_version: args.use_highest_version,
    };
    // The CSV files name the inputs as they are given on the command line.
    let variants = FnVarOptions {
        targets_csv: csv_text(args.fnvar_targets.as_ref())?,
        architectures_csv: csv_text(args.fnvar_architectures.as_ref())?,
        capabilities: args.fnvar_capabilities,
        names: args.inputs.iter().map(|p| p.to_string_lossy().into_owned()).collect(),
    };
    match link_variants(&refs, &options, &variants) {
        Ok(words) => {
            write_words(&Output::from_arg(args.output.as_deref(), Some("out.spv")), &words)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            messageln!("error: {}: {}", e.index, e.message);
            for note in &e.notes {
                let note = note.replace("input module ", "");
                let (k, rest) = note.rsplit_once(' ').map_or((note.as_str(), ""), |(a, b)| (a, b));
                let file = rest.parse::<usize>().ok().and_then(|n| args.inputs.get(n - 1));
                match file {
                    Some(f) => messageln!("note: {k} {}", f.display()),
                    None => messageln!("note: {note}"),
                }
            }
            Ok(ExitCode::from(1))
        }
    }
}
