//! `link_variants` on what a user can hand `spirv-link --fnvar-*`: CSV
//! texts edited at random (cells, rows, separators, numbers past 32 bits)
//! and the function-variant cases' modules with words changed. It must
//! answer with a module or an error, never a panic; and a module it gives
//! must be readable.

use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::link::{link_variants, FnVarOptions, LinkOptions};
use gpuasm_spirv::module::Module;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

/// Each function-variant case: its modules and CSV texts.
fn cases() -> Vec<(Vec<Vec<u32>>, String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/link/cases");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    let mut out = Vec::new();
    for dir in dirs {
        let options = std::fs::read_to_string(dir.join("options")).unwrap_or_default();
        if !options.contains("--fnvar") {
            continue;
        }
        let mut modules = Vec::new();
        for k in 1.. {
            let Ok(bytes) = std::fs::read(dir.join(format!("{k}.spv"))) else { break };
            modules.push(words_from_bytes(&bytes).unwrap().0);
        }
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        out.push((modules, read("targets.csv"), read("architectures.csv")));
    }
    assert!(out.len() >= 5, "too few function-variant cases in {}", root.display());
    out
}

/// `text` with edit `e` applied at `at` (a byte position, taken modulo the
/// length): a character removed, a separator or line break inserted, a long
/// number or a quote inserted, or the text cut there.
fn edit(text: &str, e: u8, at: usize) -> String {
    let mut s: Vec<u8> = text.as_bytes().to_vec();
    let at = if s.is_empty() { 0 } else { at % s.len() };
    let insert = |s: &mut Vec<u8>, what: &[u8]| drop(s.splice(at..at, what.iter().copied()));
    match e % 6 {
        0 if !s.is_empty() => drop(s.remove(at)),
        1 => insert(&mut s, b","),
        2 => insert(&mut s, b"\r\n"),
        3 => insert(&mut s, b"99999999999999999999"),
        4 => insert(&mut s, b"\"-1 x"),
        _ => s.truncate(at),
    }
    String::from_utf8_lossy(&s).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn link_variants_never_panics(
        case in any::<usize>(),
        edits in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<bool>()), 0..4),
        words in proptest::collection::vec((any::<usize>(), any::<usize>(), any::<u32>()), 0..3),
        flags in any::<u8>(),
    ) {
        let all = cases();
        let (mut modules, mut targets, mut architectures) = all[case % all.len()].clone();
        for (e, at, which) in edits {
            if which {
                targets = edit(&targets, e, at);
            } else {
                architectures = edit(&architectures, e, at);
            }
        }
        for (m, at, w) in words {
            let module = &mut modules[m % all[case % all.len()].0.len()];
            // The header stays (its errors are the reader's, tested elsewhere).
            if module.len() > 5 {
                let at = 5 + at % (module.len() - 5);
                module[at] = w;
            }
        }
        let names = (1..=modules.len()).map(|k| format!("{k}.spv")).collect();
        let variants = FnVarOptions {
            targets_csv: targets,
            architectures_csv: architectures,
            capabilities: flags & 1 != 0,
            names,
        };
        let options = LinkOptions {
            create_library: flags & 2 != 0,
            allow_partial_linkage: flags & 4 != 0,
            ..LinkOptions::default()
        };
        let inputs: Vec<&[u32]> = modules.iter().map(Vec::as_slice).collect();
        if let Ok(linked) = link_variants(&inputs, &options, &variants) {
            // What comes out frames as a module (its words are counted
            // right), whatever went in.
            prop_assert!(linked.len() >= 5);
            let _ = Module::read(&linked);
        }
    }
}
