//! `diff` against the pinned spirv-diff's recorded output: every case under
//! tests/diff/cases (src and dst, assembly text or binary) compared under
//! every option set of tests/diff/option-sets gives the recorded
//! `expected/<set>.txt` byte for byte.

use gpuasm_spirv::binary::ParserOptions;
use gpuasm_spirv::diff::{diff, DiffOptions};
use gpuasm_spirv::module::Module;
use gpuasm_spirv::text::{assemble, AsmOptions};
use gpuasm_spirv::TargetEnv;
use std::path::{Path, PathBuf};

/// A case's module: text assembled as spirv-diff assembles it (numeric ids
/// kept, SPIR-V 1.6, SPIRV-Tools' generator word), or a binary.
fn words(case: &Path, stem: &str) -> Vec<u32> {
    let text = case.join(format!("{stem}.spvasm"));
    if text.exists() {
        let options = AsmOptions::default()
            .preserve_numeric_ids(true)
            .target_env(Some(TargetEnv::Universal(6)))
            .generator(0x0007_0000);
        return assemble(&std::fs::read_to_string(&text).unwrap(), &options).unwrap();
    }
    let bytes = std::fs::read(case.join(format!("{stem}.spv"))).unwrap();
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn options(flags: &str) -> DiffOptions {
    let has = |f: &str| flags.split_whitespace().any(|x| x == f);
    DiffOptions::default()
        .color(has("--color") && !has("--no-color"))
        .indent(!has("--no-indent"))
        .header(!has("--no-header"))
        .id_map(has("--with-id-map"))
        .ignore_set_binding(has("--ignore-set-binding"))
        .ignore_location(has("--ignore-location"))
}

#[test]
fn diff_matches_spirv_diff() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff");
    let sets: Vec<(String, String)> = std::fs::read_to_string(root.join("option-sets"))
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(name, flags)| (name.to_string(), flags.to_string()))
        .collect();
    assert!(sets.len() >= 9, "too few option sets");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root.join("cases")).unwrap().map(|e| e.unwrap().path()).collect();
    cases.sort();
    assert!(cases.len() >= 60, "too few diff cases in {}", root.display());
    let mut failures = Vec::new();
    let mut total = 0;
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let (src, dst) = (words(case, "src"), words(case, "dst"));
        let read = |w| Module::read_with(w, ParserOptions::default().check_bound(false)).unwrap();
        let (src, dst) = (read(&src), read(&dst));
        for (set, flags) in &sets {
            total += 1;
            let want = std::fs::read(case.join("expected").join(format!("{set}.txt"))).unwrap();
            match diff(&src, &dst, &options(flags)) {
                Ok(got) if got == want => {}
                Ok(_) => failures.push(format!("{name} [{set}]: output differs from spirv-diff's")),
                Err((_, e)) => failures.push(format!("{name} [{set}]: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} of {total} diff cases fail:\n{}", failures.len(), failures.join("\n"));
}

/// A small module with the given header bound.
fn with_bound(bound: u32) -> Vec<u32> {
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpTypeVoid\n";
    let mut words = assemble(text, &AsmOptions::default()).unwrap();
    words[3] = bound;
    words
}

#[test]
fn bound_past_the_module_size() {
    // spirv-opt leaves the bound of the larger module it started from: such
    // a module is compared, its bound shown as the header has it.
    let words = with_bound(100_000);
    let m = Module::read_with(&words, ParserOptions::default().check_bound(false)).unwrap();
    let text = String::from_utf8(diff(&m, &m, &DiffOptions::default()).unwrap()).unwrap();
    assert!(text.contains("\n ; Bound: 100000\n"), "{text}");
    // A bound no module could need is refused, not allocated for.
    let words = with_bound(u32::MAX);
    let m = Module::read_with(&words, ParserOptions::default().check_bound(false)).unwrap();
    assert!(diff(&m, &m, &DiffOptions::default()).is_err());
}
