//! `gpuasm cfg` against spirv-cfg's recorded output: one trial per module
//! of the sample under `tests/cfg-golden/` (recorded from SPIRV-Tools 2025.5
//! by `scripts/diff-spirv-cfg --record`), named by its corpus path
//! (`cargo test -p gpuasm --test cfg_golden -- spv/NAME.spv`).
//!
//! `<path>.dot` is spirv-cfg's output, which ours must equal byte for byte;
//! `<path>.rejected` marks a module spirv-cfg cannot read, which ours must
//! refuse too. Where every block ends in a terminator spirv-cfg prints and
//! the module is valid, the `--format json` edges must be the dot's.

use libtest_mimic::{Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;

fn gpuasm(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gpuasm")).args(args).output().expect("run gpuasm")
}

/// The edges of spirv-cfg's text, in order: (from, to, kind).
fn dot_edges(dot: &str) -> Vec<(u64, u64, String)> {
    dot.lines()
        .filter_map(|line| {
            let (from, rest) = line.split_once(" -> ")?;
            let (to, style) = rest.trim_end_matches(';').split_once(' ').unwrap_or((rest.trim_end_matches(';'), ""));
            let kind = match style {
                "" => "branch",
                "[style=dashed]" => "merge",
                "[style=dotted]" => "continue",
                _ => return None,
            };
            Some((from.parse().ok()?, to.parse().ok()?, kind.to_owned()))
        })
        .collect()
}

/// Terminators spirv-cfg prints a block for.
const PRINTED: &[&str] =
    &["OpBranch", "OpBranchConditional", "OpSwitch", "OpKill", "OpReturn", "OpReturnValue", "OpUnreachable"];

fn check(module: &Path, expected: &Path) -> Result<(), Failed> {
    let m = module.to_str().unwrap();
    let out = gpuasm(&["cfg", m]);
    if expected.extension().is_some_and(|e| e == "rejected") {
        if out.status.success() || !out.stdout.is_empty() {
            return Err("spirv-cfg rejects this module; gpuasm cfg printed a graph".into());
        }
        return Ok(());
    }
    let want = std::fs::read_to_string(expected).unwrap();
    if !out.status.success() {
        return Err(format!("gpuasm cfg failed: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    let got = String::from_utf8_lossy(&out.stdout);
    if got != want {
        let line = want.lines().zip(got.lines()).position(|(a, b)| a != b).map_or(0, |i| i + 1);
        return Err(format!("differs from spirv-cfg at line {line}").into());
    }
    let json = gpuasm(&["cfg", "--format", "json", m]);
    let graph: serde_json::Value = serde_json::from_slice(&json.stdout).map_err(|e| format!("--format json: {e}"))?;
    let functions = graph["functions"].as_array().ok_or("--format json: no functions")?;
    let printed = functions
        .iter()
        .flat_map(|f| f["blocks"].as_array().unwrap())
        .all(|b| b["terminator"].as_str().is_some_and(|t| PRINTED.contains(&t)));
    let edges: Vec<(u64, u64, String)> = functions
        .iter()
        .flat_map(|f| f["edges"].as_array().unwrap())
        .map(|e| (e["from"].as_u64().unwrap(), e["to"].as_u64().unwrap(), e["kind"].as_str().unwrap().to_owned()))
        .collect();
    if printed && edges != dot_edges(&want) && gpuasm(&["val", m]).status.success() {
        return Err("--format json edges differ from spirv-cfg's".into());
    }
    Ok(())
}

fn expected_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            expected_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let golden = root.join("tests/cfg-golden");
    let corpus = root.join("../gpuasm-spirv/tests/corpus");
    let mut files = Vec::new();
    expected_files(&golden, &mut files);
    files.sort();
    let trials = files
        .into_iter()
        .map(|expected| {
            let rel = expected.strip_prefix(&golden).unwrap().with_extension("");
            let name = rel.to_string_lossy().into_owned();
            let module = corpus.join(&rel);
            Trial::test(name, move || check(&module, &expected))
        })
        .collect();
    libtest_mimic::run(&libtest_mimic::Arguments::from_args(), trials).exit();
}
