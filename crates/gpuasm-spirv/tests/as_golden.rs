//! Golden tests for the assembler: every case of the in-repo corpora
//! (SPIRV-Tools' unit snippets, real assembly files, and rejections), with
//! spirv-as 2025.5's binary or verdict stored beside each input.

mod common;

use gpuasm_spirv::text::{assemble, AsmOptions};

fn options(flags: &str) -> AsmOptions {
    common::asm_options(flags, AsmOptions::default())
}

fn check_archive(archive: &str, dirs: &[&str]) {
    let files = common::read_tar_xz(archive);
    let mut accepted = (0, 0);
    let mut rejected = (0, 0);
    let mut failures = Vec::new();
    for dir in dirs {
        let manifest = String::from_utf8(files[&format!("{dir}/MANIFEST.tsv")].clone()).unwrap();
        for row in manifest.lines().skip(1) {
            let cols: Vec<&str> = row.split('\t').collect();
            let (file, flags, status, expected) = (cols[0], cols[1], cols[2], cols[3]);
            let text = String::from_utf8_lossy(&files[&format!("{dir}/{file}")]).into_owned();
            let result = assemble(&text, &options(flags));
            // The shortcut for common instructions must change nothing:
            // the same words, or the same diagnostics.
            let general = assemble(&text, &AsmOptions { general_only: true, ..options(flags) });
            if format!("{result:?}") != format!("{general:?}") {
                failures.push(format!("{dir}/{file} [{flags}]: the shortcut and the general path differ"));
            }
            if status == "rejected" {
                rejected.1 += 1;
                match result {
                    Err(_) => rejected.0 += 1,
                    Ok(_) => failures.push(format!("{dir}/{file} [{flags}]: spirv-as rejects, we accept")),
                }
                continue;
            }
            accepted.1 += 1;
            let want = common::words(&files[&format!("{dir}/{expected}")]);
            match result {
                Ok(got) => {
                    // Everything but the generator word (ours is 0).
                    if got.len() == want.len() && got[..2] == want[..2] && got[3..] == want[3..] {
                        accepted.0 += 1;
                    } else {
                        failures.push(format!("{dir}/{file} [{flags}]: binary differs"));
                    }
                }
                Err(d) => failures.push(format!("{dir}/{file} [{flags}]: we reject: {d}")),
            }
        }
    }
    println!("{archive}: {}/{} identical, {}/{} rejections agree", accepted.0, accepted.1, rejected.0, rejected.1);
    assert!(accepted.1 > 0);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
}

#[test]
fn unit_snippets_match_spirv_as() {
    check_archive("asm/unit.tar.xz", &["unit"]);
}

#[test]
fn assembly_files_match_spirv_as() {
    check_archive("asm/asm.tar.xz", &["asm", "asm-rejected"]);
}

#[test]
fn own_tricky_cases_match_spirv_as() {
    check_archive("asm-own/cases.tar.xz", &["cases"]);
}

#[test]
fn disassembled_corpus_matches_spirv_as() {
    check_archive("asm-own/disasm.tar.xz", &["disasm"]);
}
