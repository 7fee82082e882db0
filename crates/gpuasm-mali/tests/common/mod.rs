//! The Mesa-compiled programs the tests walk: `tests/corpus/` (the first
//! 31, from the shared `lima/` corpus) and `tests/corpus/lima2/` (107 more,
//! with spills to temporary memory), each as `.ppbin`, `.hex` and `.dis`.

#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};

#[allow(unused_imports)] // properties.rs runs under the default harness
pub use libtest_mimic::{Failed, Trial};

/// Runs `trials` (libtest-mimic, one per case: `cargo test --test NAME --
/// CASE` runs one) with libtest's command line, and exits with its verdict.
pub fn run(trials: Vec<Trial>) -> ! {
    libtest_mimic::run(&libtest_mimic::Arguments::from_args(), trials).exit()
}

/// A trial of a test written as a plain function that panics on failure.
pub fn plain(name: &str, test: fn()) -> Trial {
    Trial::test(name, move || {
        test();
        Ok(())
    })
}

/// A path's name relative to the corpus folder, for naming a trial.
pub fn case_name(path: &Path) -> String {
    path.strip_prefix(corpus()).unwrap_or(path).with_extension("").to_string_lossy().into_owned()
}

pub fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// Paths of every Mesa program's `.ppbin`, sorted, over both corpora.
pub fn mesa_programs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [corpus(), corpus().join("lima2")] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "ppbin") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A `.ppbin` file's little-endian words.
pub fn read_words(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap();
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// The words of a `.hex` listing (`@<offset>: <words>` per instruction).
pub fn hex_words(listing: &str) -> Vec<u32> {
    listing
        .lines()
        .filter_map(|l| l.split_once(':'))
        .flat_map(|(_, w)| w.split_whitespace().map(|x| u32::from_str_radix(x, 16).unwrap()))
        .collect()
}

/// A temporary store as Mesa 22.3.6's encoder writes it (codegen of
/// `store_temp`): `components` 1-4 of vec4 register `reg` to vec4 slot
/// `slot`. Alignment 0/1/2 for 1/2/3-4 components; index = slot shifted
/// left to the alignment's units (always the slot's first component);
/// source = 4 × reg; `offset_reg` = slot >> 2 in 6 bits, `offset_en` 0.
/// Built from the spec's field table, independently of the crate.
pub fn mesa_store_words(slot: i64, components: u32, reg: u32) -> [u32; 3] {
    let alignment: u32 = if components >= 3 { 2 } else { components - 1 };
    field_words(slot << (2 - alignment), alignment, 4 * reg, ((slot >> 2) & 63) as u32)
}

/// One store instruction's words from the unit 8 fields (spec 3.9).
pub fn field_words(index: i64, alignment: u32, source: u32, offset_reg: u32) -> [u32; 3] {
    let field: u64 = 3
        | (source as u64) << 4
        | (alignment as u64) << 10
        | (offset_reg as u64) << 18
        | ((index as u64) & 0xffff) << 25;
    // Control: count 3 words, unit 8 present (bit 7 + 8).
    [3 | 1 << (7 + 8), field as u32, (field >> 32) as u32]
}
