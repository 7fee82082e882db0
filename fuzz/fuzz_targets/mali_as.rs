//! Arbitrary bytes → assembler, read as the CLI reads them (invalid UTF-8
//! replaced): never panics; what it accepts disassembles and reassembles to
//! the same words.
#![no_main]
use gpuasm_mali::{assemble, disassemble, DisOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(words) = assemble(&text) {
        let again = disassemble(&words, &DisOptions::default());
        assert_eq!(assemble(&again).unwrap(), words, "{again}");
    }
});
