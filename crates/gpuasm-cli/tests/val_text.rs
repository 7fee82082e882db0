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

/// What checking the invalid modules of one corpus found.
#[derive(Default)]
struct Tally {
    checked: usize,
    pointed: usize,
    no_text: usize,
    other_words: usize,
    failures: Vec<String>,
}

impl Tally {
    /// Validates `words` (named `file`) as a binary and as its text under
    /// `env`, and compares.
    fn check(&mut self, file: &str, words: &[u32], env: TargetEnv) {
        let dis_options = DisOptions::default().friendly_names(false);
        let options = ValOptions::default().target_env(env);
        let binary = validate(words, &options.clone().max_errors(1));
        if binary.is_ok() {
            return;
        }
        // The text: modules that do not frame have none, and a few print
        // what no assembler reads back (spirv-dis's too).
        let Ok(text) = disassemble(words, &dis_options) else {
            self.no_text += 1;
            return;
        };
        let Ok(parsed) = parse(&text, &AsmOptions::default().preserve_numeric_ids(true)) else {
            self.no_text += 1;
            return;
        };
        // A text that does not give back the module's words (literals
        // with stray high bits) is not this module's text. The bound is
        // the largest id + 1: modules about the bound are not compared.
        let w = parsed.words();
        let about_bound = binary.as_ref().is_err_and(|e| e.first().message.contains("bound"));
        if w.len() != words.len() || w[..2] != words[..2] || w[5..] != words[5..] || about_bound {
            self.other_words += 1;
            return;
        }
        let module = parsed.module().unwrap();
        let in_text = validate_module(&module, &options.clone().max_errors(0));
        self.checked += 1;
        let (bin_first, text_first) = match (&binary, &in_text) {
            (Err(b), Err(t)) => (b.first(), t.first()),
            (b, t) => {
                self.failures.push(format!("{file}: binary valid {}, text valid {}", b.is_ok(), t.is_ok()));
                return;
            }
        };
        if bin_first.message != text_first.message || bin_first.instruction_index != text_first.instruction_index {
            self.failures
                .push(format!("{file}: first errors differ: {:?} / {:?}", bin_first.message, text_first.message));
            return;
        }
        let Some(i) = text_first.instruction_index else { return };
        // The line the error is shown at holds the instruction's opcode.
        let opcode = text_first
            .instruction
            .as_deref()
            .and_then(|t| t.split_whitespace().find(|w| w.starts_with("Op")))
            .unwrap_or("?");
        let Some(span) = module.span(i) else {
            self.failures.push(format!("{file}: instruction {i} has no span"));
            return;
        };
        let (line, _) = parsed.line_col(span.start);
        let shown = text.lines().nth(line as usize - 1).unwrap_or("");
        if !shown.split_whitespace().any(|w| w == opcode) {
            self.failures.push(format!("{file}: line {line} {shown:?} does not hold {opcode}"));
            return;
        }
        self.pointed += 1;
    }

    fn report(&self, corpus: &str) -> String {
        assert!(
            self.failures.is_empty(),
            "{corpus}: {} disagreements:\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
        format!(
            "{corpus}: {} texts validated, {} first errors pointed at their line; \
             {} modules without a text, {} whose text gives other words",
            self.checked, self.pointed, self.no_text, self.other_words
        )
    }
}

#[test]
fn text_validation_agrees_with_binary_and_points_at_the_instruction() {
    let files = read_tar_xz("valsuite/cases.tar.xz");
    let manifest = std::fs::read_to_string(corpus("valsuite/MANIFEST.tsv")).unwrap();
    let mut tally = Tally::default();
    for row in manifest.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (file, env, verdict) = (cols[0], cols[1], cols[2]);
        if verdict != "invalid" {
            continue;
        }
        let Ok((words, _)) = words_from_bytes(&files[file]) else { continue };
        tally.check(file, &words, env.parse().unwrap());
    }
    let counts = tally.report("valsuite");
    // Nearly every invalid case has a text (6,718 invalid in all).
    assert!(tally.checked > 6_000 && tally.pointed > 4_000, "{counts}");
    eprintln!("{counts}");
}

/// Our mutants of the golden corpora (three seeds) and the shared negative
/// corpus, under the default environment as their verdicts were recorded.
#[test]
fn text_validation_agrees_with_binary_on_the_mutants() {
    let mut tally = Tally::default();
    for set in ["mutants", "mutants-123", "mutants-4242"] {
        let files = read_tar_xz(&format!("{set}/mutants.tar.xz"));
        let manifest = std::fs::read_to_string(corpus(&format!("{set}/VAL.tsv"))).unwrap();
        for row in manifest.lines().skip(1) {
            let file = row.split('\t').next().unwrap();
            let Ok((words, _)) = words_from_bytes(&files[file]) else { continue };
            tally.check(file, &words, TargetEnv::Universal(6));
        }
    }
    let dir = corpus("invalid");
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    for row in manifest.lines().skip(1) {
        let file = row.split('\t').next().unwrap();
        let Ok((words, _)) = words_from_bytes(&std::fs::read(dir.join(file)).unwrap()) else { continue };
        tally.check(file, &words, TargetEnv::Universal(6));
    }
    let counts = tally.report("mutants and invalid");
    assert!(tally.checked > 3_000 && tally.pointed > 2_000, "{counts}");
    eprintln!("{counts}");
}
