//! Arbitrary text → assembler: never panics; what it accepts disassembles
//! and reassembles to the same words.
#![no_main]
use gpuasm_mali::{assemble, disassemble, DisOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(words) = assemble(text) {
        let again = disassemble(&words, &DisOptions::default());
        assert_eq!(assemble(&again).unwrap(), words, "{again}");
    }
});
