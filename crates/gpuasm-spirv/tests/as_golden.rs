//! Golden tests for the assembler: every case of the in-repo corpora
//! (SPIRV-Tools' unit snippets, real assembly files, and rejections), with
//! spirv-as 2025.5's binary or verdict stored beside each input. One trial
//! per input file, named `<part>/FILE`, checks every flag set of its
//! manifest rows.

mod common;

use common::{ensure, Failed, Trial};
use gpuasm_spirv::text::{assemble, AsmOptions};
use std::collections::BTreeMap;
use std::sync::Arc;

fn options(flags: &str) -> AsmOptions {
    common::asm_options(flags, AsmOptions::default())
}

/// One input under each of its rows (file, flags, status, expected).
fn check_case(part: &str, files: &BTreeMap<String, Vec<u8>>, rows: &[Vec<String>]) -> Result<(), Failed> {
    let mut failures = Vec::new();
    for cols in rows {
        let (file, flags, status, expected) = (&cols[0], &cols[1], &cols[2], &cols[3]);
        let text = String::from_utf8_lossy(&files[file]).into_owned();
        let result = assemble(&text, &options(flags));
        // The shortcut for common instructions must change nothing:
        // the same words, or the same diagnostics.
        let general = assemble(&text, &options(flags).general_only(true));
        if format!("{result:?}") != format!("{general:?}") {
            failures.push(format!("{part}/{file} [{flags}]: the shortcut and the general path differ"));
        }
        if status == "rejected" {
            if result.is_ok() {
                failures.push(format!("{part}/{file} [{flags}]: spirv-as rejects, we accept"));
            }
            continue;
        }
        let want = common::words(&files[expected]);
        match result {
            // Everything but the generator word (ours is 0).
            Ok(got) if got.len() == want.len() && got[..2] == want[..2] && got[3..] == want[3..] => {}
            Ok(got) => {
                let at = (0..got.len().max(want.len())).find(|&i| i != 2 && got.get(i) != want.get(i));
                failures.push(format!(
                    "{part}/{file} [{flags}]: binary differs from {expected}: {} words, spirv-as {}; first at word {at:?}",
                    got.len(),
                    want.len()
                ));
            }
            Err(d) => failures.push(format!("{part}/{file} [{flags}]: we reject: {d}")),
        }
    }
    common::all_of(failures)
}

fn trials(rel: &'static str, out: &mut Vec<Trial>) {
    let part = rel.rsplit('/').next().unwrap();
    let files = Arc::new(common::part(rel));
    let cases = common::manifest_by_file(&files);
    let accepted = cases.iter().flat_map(|(_, rows)| rows).filter(|r| r[2] != "rejected").count();
    if part != "asm-rejected" {
        out.push(Trial::test(format!("{part}: has accepted cases"), move || {
            ensure(accepted > 0, || format!("{rel}: no accepted cases"))
        }));
    }
    for (file, rows) in cases {
        let files = Arc::clone(&files);
        out.push(Trial::test(format!("{part}/{file}"), move || check_case(part, &files, &rows)));
    }
}

fn main() {
    let mut all = Vec::new();
    for rel in ["asm/unit", "asm/asm", "asm/asm-rejected", "asm-own/cases", "asm-own/disasm"] {
        trials(rel, &mut all);
    }
    common::run(all)
}
