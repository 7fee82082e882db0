//! Throughput of the reader (walking with full operand decoding), of the
//! disassembler and of the assembler, on a large module.
//!
//! The module comes from `GPUASM_BENCH_MODULE`, else
//! `target/bench/big-150x200.spv` (made by `scripts/bench-vs-spirv-tools`),
//! else the largest module of the in-repo corpus.  `benches/shapes.rs`
//! measures every module shape.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
mod common;

use common::walk;
use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::dis::{disassemble_to, DisOptions};
use gpuasm_spirv::text::{assemble, AsmOptions};
use std::path::PathBuf;

fn bench_module() -> (String, Vec<u32>) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = std::env::var_os("GPUASM_BENCH_MODULE")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/bench/big-150x200.spv"));
    let path = if path.exists() {
        path
    } else {
        let dir = root.join("crates/gpuasm-spirv/tests/corpus/spv");
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "spv"))
            .max_by_key(|p| p.metadata().unwrap().len())
            .unwrap()
    };
    let bytes = std::fs::read(&path).unwrap();
    (path.display().to_string(), words_from_bytes(&bytes).unwrap().0)
}

fn benches(c: &mut Criterion) {
    let (name, words) = bench_module();
    let bytes = words.len() as u64 * 4;
    eprintln!("bench module: {name} ({bytes} bytes)");
    let mut g = c.benchmark_group("reader");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("walk_with_operands", |b| b.iter(|| walk(&words)));
    g.finish();

    let mut text = Vec::new();
    disassemble_to(&words, &DisOptions::default(), &mut text).unwrap();
    let mut g = c.benchmark_group("disassemble");
    g.throughput(Throughput::Bytes(text.len() as u64));
    for (label, opts) in [
        ("friendly", DisOptions::default()),
        ("raw_id", DisOptions::default().friendly_names(false)),
        ("nested_reorder_comment", DisOptions::default().nested_indent(true).reorder_blocks(true).comment(true)),
    ] {
        g.bench_function(label, |b| {
            b.iter(|| {
                text.clear();
                disassemble_to(&words, &opts, &mut text).unwrap();
                text.len()
            })
        });
    }
    g.finish();

    // The assembler, on the disassembly of the same module (throughput in
    // bytes of text consumed).
    let mut g = c.benchmark_group("assemble");
    for (label, friendly) in [("friendly", true), ("raw_id", false)] {
        let mut text = Vec::new();
        disassemble_to(&words, &DisOptions::default().friendly_names(friendly), &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        g.throughput(Throughput::Bytes(text.len() as u64));
        // Large texts are split between threads by default.
        g.bench_function(label, |b| b.iter(|| assemble(&text, &AsmOptions::default()).unwrap().len()));
        let one = AsmOptions::default().threads(1);
        g.bench_function(format!("{label}_one_thread"), |b| b.iter(|| assemble(&text, &one).unwrap().len()));
    }
    g.finish();
}

criterion_group! {
    name = dis;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = benches
}
criterion_main!(dis);
