//! `link` against the pinned spirv-link's recorded results: every case
//! under tests/link/cases links to the recorded `expected.spv` bytes, or
//! fails with the recorded `expected.err` first line. Inputs are named
//! N.spv, as they were linked (the function-variant CSV files name them).

use gpuasm_spirv::link::{link_variants, FnVarOptions, LinkOptions};
use std::path::{Path, PathBuf};

fn words(path: &Path) -> Vec<u32> {
    std::fs::read(path).unwrap().chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn inputs(case: &Path) -> Vec<PathBuf> {
    let mut v: Vec<(u32, PathBuf)> = std::fs::read_dir(case)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .filter_map(|p| Some((p.file_stem()?.to_str()?.parse().ok()?, p.clone())))
        .collect();
    v.sort();
    v.into_iter().map(|(_, p)| p).collect()
}

fn options(case: &Path, count: usize) -> (LinkOptions, FnVarOptions) {
    let text = std::fs::read_to_string(case.join("options")).unwrap();
    let mut o = LinkOptions::default();
    let mut v = FnVarOptions { names: (1..=count).map(|n| format!("{n}.spv")).collect(), ..Default::default() };
    let mut flags = text.split_whitespace();
    while let Some(flag) = flags.next() {
        match flag {
            "--fnvar-targets" => v.targets_csv = std::fs::read_to_string(case.join(flags.next().unwrap())).unwrap(),
            "--fnvar-architectures" => {
                v.architectures_csv = std::fs::read_to_string(case.join(flags.next().unwrap())).unwrap()
            }
            "--fnvar-capabilities" => v.capabilities = true,
            "--allow-partial-linkage" => o.allow_partial_linkage = true,
            "--allow-pointer-mismatch" => o.allow_pointer_mismatch = true,
            "--create-library" => o.create_library = true,
            "--use-highest-version" => o.use_highest_version = true,
            "--verify-ids" => {}
            _ => panic!("{}: unknown option {flag}", case.display()),
        }
    }
    (o, v)
}

#[test]
fn link_matches_spirv_link() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/link/cases");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    cases.sort();
    assert!(cases.len() >= 30, "too few link cases in {}", root.display());
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let modules: Vec<Vec<u32>> = inputs(case).iter().map(|p| words(p)).collect();
        let refs: Vec<&[u32]> = modules.iter().map(Vec::as_slice).collect();
        let (o, v) = options(case, refs.len());
        let got = link_variants(&refs, &o, &v);
        let expected_spv = case.join("expected.spv");
        match got {
            Ok(w) if expected_spv.exists() => {
                if w != words(&expected_spv) {
                    failures.push(format!("{name}: output differs from spirv-link's"));
                }
            }
            Ok(_) => failures.push(format!("{name}: linked, spirv-link rejects")),
            Err(e) if expected_spv.exists() => failures.push(format!("{name}: rejected ({e}), spirv-link links")),
            Err(e) => {
                let want = std::fs::read_to_string(case.join("expected.err")).unwrap();
                let line = format!("error: {}: {}", e.index, e.message);
                if want.lines().next() != line.lines().next() {
                    failures.push(format!("{name}: message {line:?}, spirv-link {want:?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} link cases fail:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
