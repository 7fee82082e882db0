//! Arbitrary words → disassemble → assemble must give the same words back
//! (the disassembler falls back to `raw`/`words` for anything odd).
#![no_main]
use gpuasm_mali::{assemble, disassemble, DisOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let words: Vec<u32> = data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    for raw_fields in [false, true] {
        let text = disassemble(&words, &DisOptions::default().offsets(raw_fields).raw_fields(raw_fields));
        let back = assemble(&text).unwrap_or_else(|d| panic!("{d}\n{text}"));
        assert_eq!(back, words, "{text}");
    }
});
