//! In-process throughput on every module shape of the performance work:
//! the reader walk (full operand decoding), the validator, the disassembler
//! (default options) and the assembler (on the default disassembly).
//!
//! The modules are those `scripts/bench-vs-spirv-tools` makes in
//! `target/bench/` (this bench never runs external tools); a missing one is
//! skipped with a note, so that `cargo bench` works on a fresh clone.  The
//! 19 MB module is measured only with `GPUASM_BENCH_LARGE=1`.
//!
//! Groups are named by operation, functions by shape (`val/1mb-ssa`...):
//! `cargo bench -p gpuasm-spirv --bench shapes -- val/` runs the validator
//! on every shape.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
mod common;

use common::walk;
use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::dis::{disassemble_to, DisOptions};
use gpuasm_spirv::text::{assemble, AsmOptions};
use gpuasm_spirv::validate::{validate, ValOptions};
use std::path::Path;

/// The shapes: name, file under `target/bench/`, large (needs the env var).
const SHAPES: &[(&str, &str, bool)] = &[
    ("1mb", "big-40x200.spv", false),
    ("1mb-ssa", "big-40x200-ssa.spv", false),
    ("5mb-g", "big-64x400-g.spv", false),
    ("5mb", "big-150x200.spv", false),
    ("19mb", "big-700x200.spv", true),
];

struct Shape {
    name: &'static str,
    words: Vec<u32>,
    text: String,
}

fn load_shapes() -> Vec<Shape> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).unwrap().join("target/bench");
    let large = std::env::var_os("GPUASM_BENCH_LARGE").is_some_and(|v| v == "1");
    let mut shapes = Vec::new();
    for &(name, file, is_large) in SHAPES {
        let path = dir.join(file);
        if is_large && !large {
            eprintln!("shapes: {name} skipped (set GPUASM_BENCH_LARGE=1 to measure it)");
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("shapes: {name} skipped: {} is missing (scripts/bench-vs-spirv-tools makes it)", path.display());
            continue;
        };
        let words = words_from_bytes(&bytes).unwrap().0;
        let mut text = Vec::new();
        disassemble_to(&words, &DisOptions::default(), &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        eprintln!("shapes: {name}: {} bytes of SPIR-V, {} bytes of text", bytes.len(), text.len());
        shapes.push(Shape { name, words, text });
    }
    shapes
}

fn benches(c: &mut Criterion) {
    let shapes = load_shapes();
    if shapes.is_empty() {
        eprintln!("shapes: no module in target/bench/: run scripts/bench-vs-spirv-tools (or --quick) first");
        return;
    }
    let binary_bytes = |s: &Shape| Throughput::Bytes(s.words.len() as u64 * 4);

    let mut g = c.benchmark_group("walk");
    for s in &shapes {
        g.throughput(binary_bytes(s));
        g.bench_with_input(BenchmarkId::from_parameter(s.name), &s.words, |b, w| b.iter(|| walk(w)));
    }
    g.finish();

    let mut g = c.benchmark_group("val");
    let options = ValOptions::default();
    for s in &shapes {
        validate(&s.words, &options).unwrap_or_else(|e| panic!("{}: not valid: {:?}", s.name, e.first()));
        g.throughput(binary_bytes(s));
        g.bench_with_input(BenchmarkId::from_parameter(s.name), &s.words, |b, w| {
            b.iter(|| validate(w, &options).is_ok())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("dis");
    let options = DisOptions::default();
    let mut out = Vec::new();
    for s in &shapes {
        g.throughput(binary_bytes(s));
        g.bench_with_input(BenchmarkId::from_parameter(s.name), &s.words, |b, w| {
            b.iter(|| {
                out.clear();
                disassemble_to(w, &options, &mut out).unwrap();
                out.len()
            })
        });
    }
    g.finish();

    // Throughput in bytes of text consumed; large texts are split between
    // threads by default, as in the CLI.
    let mut g = c.benchmark_group("as");
    let options = AsmOptions::default();
    for s in &shapes {
        g.throughput(Throughput::Bytes(s.text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(s.name), &s.text, |b, t| {
            b.iter(|| assemble(t, &options).unwrap().len())
        });
    }
    g.finish();
}

criterion_group! {
    name = shapes;
    // Small samples: the large shapes take a fraction of a second an iteration.
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = benches
}
criterion_main!(shapes);
