//! `gpuasm reflect` against recorded outputs: one trial per module of the
//! sample under `tests/reflect-golden/`, named by its corpus path
//! (`cargo test -p gpuasm --test reflect_golden -- spv/NAME.spv`).
//!
//! `<path>.json` is our output as `scripts/diff-spirv-cross-reflect
//! --record` kept it, only after checking that its resource lists agree
//! with SPIRV-Cross's `--reflect` (kept beside it as `<path>.cross.json`);
//! ours must still equal it byte for byte.

use libtest_mimic::{Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;

fn check(module: &Path, expected: &Path) -> Result<(), Failed> {
    let out = Command::new(env!("CARGO_BIN_EXE_gpuasm")).arg("reflect").arg(module).output().expect("run gpuasm");
    if !out.status.success() {
        return Err(format!("gpuasm reflect failed: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    let want = std::fs::read_to_string(expected).unwrap();
    let got = String::from_utf8_lossy(&out.stdout);
    if got != want {
        let line = want.lines().zip(got.lines()).position(|(a, b)| a != b).map_or(0, |i| i + 1);
        return Err(format!("differs from the recorded output at line {line}").into());
    }
    Ok(())
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let golden = root.join("tests/reflect-golden");
    let corpus = root.join("../gpuasm-spirv/tests/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(golden.join("spv"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".json") && !p.to_string_lossy().ends_with(".cross.json"))
        .collect();
    files.sort();
    let trials = files
        .into_iter()
        .map(|expected| {
            let rel = expected.strip_prefix(&golden).unwrap().with_extension("");
            let module = corpus.join(&rel);
            Trial::test(rel.to_string_lossy().into_owned(), move || check(&module, &expected))
        })
        .collect();
    libtest_mimic::run(&libtest_mimic::Arguments::from_args(), trials).exit();
}
