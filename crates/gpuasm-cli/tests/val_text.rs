//! Validating a text gives the verdict of validating its binary, and the
//! first error points at a line holding the offending instruction: for
//! every invalid module of the valsuite (SPIRV-Tools' validator test
//! modules, `gpuasm-spirv/tests/corpus/valsuite/`), its disassembly (with
//! raw ids, so the text assembles to the same words but for the header's
//! generator and bound) is assembled with its spans and validated, under
//! the case's environment, with every error asked for (as `gpuasm val
//! FILE.spvasm` does), beside the binary with spirv-val's first error only.

use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::dis::{disassemble, DisOptions};
use gpuasm_spirv::text::{parse, AsmOptions};
use gpuasm_spirv::validate::{validate, validate_module, ValOptions};
use gpuasm_spirv::TargetEnv;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn corpus(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../gpuasm-spirv/tests/corpus").join(rel)
}

fn read_tar_xz(rel: &str) -> BTreeMap<String, Vec<u8>> {
    let compressed = std::fs::read(corpus(rel)).unwrap();
    let mut tar_bytes = Vec::new();
    lzma_rs::xz_decompress(&mut &compressed[..], &mut tar_bytes).unwrap();
    let mut archive = tar::Archive::new(&tar_bytes[..]);
    let mut out = BTreeMap::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let name = entry.path().unwrap().file_name().unwrap().to_string_lossy().into_owned();
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut entry, &mut bytes).unwrap();
        out.insert(name, bytes);
    }
    out
}

#[test]
fn text_validation_agrees_with_binary_and_points_at_the_instruction() {
    let files = read_tar_xz("valsuite/cases.tar.xz");
    let manifest = std::fs::read_to_string(corpus("valsuite/MANIFEST.tsv")).unwrap();
    let dis_options = DisOptions::default().friendly_names(false);
    let (mut checked, mut pointed, mut no_text, mut other_words) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for row in manifest.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (file, env, verdict) = (cols[0], cols[1], cols[2]);
        if verdict != "invalid" {
            continue;
        }
        let Ok((words, _)) = words_from_bytes(&files[file]) else { continue };
        let env: TargetEnv = env.parse().unwrap();
        let options = ValOptions::default().target_env(env);
        let binary = validate(&words, &options.clone().max_errors(1));
        // The text: modules that do not frame have none, and a few print
        // what no assembler reads back (spirv-dis's too).
        let Ok(text) = disassemble(&words, &dis_options) else {
            no_text += 1;
            continue;
        };
        let Ok(parsed) = parse(&text, &AsmOptions::default().preserve_numeric_ids(true)) else {
            no_text += 1;
            continue;
        };
        // A text that does not give back the module's words (literals
        // with stray high bits) is not this module's text. The bound is
        // the largest id + 1: modules about the bound are not compared.
        let w = parsed.words();
        let about_bound = binary.as_ref().is_err_and(|e| e.first().message.contains("bound"));
        if w.len() != words.len() || w[..2] != words[..2] || w[5..] != words[5..] || about_bound {
            other_words += 1;
            continue;
        }
        let module = parsed.module().unwrap();
        let in_text = validate_module(&module, &options.clone().max_errors(0));
        checked += 1;
        let (bin_first, text_first) = match (&binary, &in_text) {
            (Err(b), Err(t)) => (b.first(), t.first()),
            (b, t) => {
                failures.push(format!("{file}: binary valid {}, text valid {}", b.is_ok(), t.is_ok()));
                continue;
            }
        };
        if bin_first.message != text_first.message || bin_first.instruction_index != text_first.instruction_index {
            failures.push(format!("{file}: first errors differ: {:?} / {:?}", bin_first.message, text_first.message));
            continue;
        }
        let Some(i) = text_first.instruction_index else { continue };
        // The line the error is shown at holds the instruction's opcode.
        let opcode = text_first
            .instruction
            .as_deref()
            .and_then(|t| t.split_whitespace().find(|w| w.starts_with("Op")))
            .unwrap_or("?");
        let Some(span) = module.span(i) else {
            failures.push(format!("{file}: instruction {i} has no span"));
            continue;
        };
        let (line, _) = parsed.line_col(span.start);
        let shown = text.lines().nth(line as usize - 1).unwrap_or("");
        if !shown.split_whitespace().any(|w| w == opcode) {
            failures.push(format!("{file}: line {line} {shown:?} does not hold {opcode}"));
            continue;
        }
        pointed += 1;
    }
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
    // Nearly every invalid case has a text (6,718 invalid in all).
    let counts = format!(
        "{checked} texts validated, {pointed} first errors pointed at their line; \
         {no_text} modules without a text, {other_words} whose text gives other words"
    );
    assert!(checked > 6_000 && pointed > 4_000, "{counts}");
    eprintln!("{counts}");
}
