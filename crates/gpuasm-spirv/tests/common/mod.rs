//! Helpers shared by the corpus tests.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;

/// `tests/corpus/<rel>`.
pub fn corpus(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(rel)
}

/// Every file of a `.tar.xz`, by path.
pub fn read_tar_xz(rel: &str) -> BTreeMap<String, Vec<u8>> {
    let compressed = std::fs::read(corpus(rel)).unwrap();
    let mut tar_bytes = Vec::new();
    lzma_rs::xz_decompress(&mut &compressed[..], &mut tar_bytes).unwrap();
    let mut archive = tar::Archive::new(&tar_bytes[..]);
    let mut out = BTreeMap::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = entry.path().unwrap().to_string_lossy().into_owned();
        let mut data = Vec::new();
        entry.read_to_end(&mut data).unwrap();
        out.insert(path, data);
    }
    out
}

pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Assembler options from a golden manifest's flags column (spirv-as's
/// flags), on `base`.
pub fn asm_options(flags: &str, base: gpuasm_spirv::text::AsmOptions) -> gpuasm_spirv::text::AsmOptions {
    let mut o = base;
    let mut it = flags.split_whitespace();
    while let Some(f) = it.next() {
        match f {
            "--preserve-numeric-ids" => o.preserve_numeric_ids = true,
            "--target-env" => o.target_env = Some(gpuasm_spirv::TargetEnv::parse(it.next().unwrap()).unwrap()),
            other => panic!("unknown flag {other}"),
        }
    }
    o
}
