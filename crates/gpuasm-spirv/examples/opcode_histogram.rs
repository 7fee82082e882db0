//! Walks a module with the zero-copy reader and prints how often each opcode
//! appears. Usage: `cargo run --example opcode_histogram -- module.spv`
use gpuasm_spirv::binary::{words_from_bytes, InstructionParser, ParserOptions};
use std::collections::BTreeMap;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: opcode_histogram FILE.spv")?;
    let (words, _) = words_from_bytes(&std::fs::read(path)?)?;
    let mut parser = InstructionParser::new(&words, ParserOptions::default())?;
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut operands = 0;
    while let Some(inst) = parser.next() {
        let inst = inst?;
        operands += inst.operands.len();
        *counts.entry(inst.info.name).or_default() += 1;
    }
    let mut by_count: Vec<_> = counts.into_iter().collect();
    by_count.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    for (name, n) in by_count {
        println!("{n:8} {name}");
    }
    println!("{operands:8} operands decoded");
    Ok(())
}
