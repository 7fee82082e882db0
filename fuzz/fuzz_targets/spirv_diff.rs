//! Bytes → two modules (the first byte picks the options, the next two
//! where the input splits) → `diff`. Must never panic, whatever the
//! modules' layout; an error is a fine answer.
#![no_main]
use gpuasm_spirv::binary::{words_from_bytes, ParserOptions};
use gpuasm_spirv::diff::{diff, DiffOptions};
use gpuasm_spirv::module::Module;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let flags = data[0];
    let rest = &data[3..];
    let split = (u16::from_le_bytes([data[1], data[2]]) as usize % (rest.len() + 1)) & !3;
    let (Ok((a, _)), Ok((b, _))) = (words_from_bytes(&rest[..split]), words_from_bytes(&rest[split..])) else {
        return;
    };
    let read = |w| Module::read_with(w, ParserOptions::default().check_bound(false));
    let (Ok(src), Ok(dst)) = (read(&a), read(&b)) else { return };
    let options = DiffOptions::default()
        .color(flags & 1 != 0)
        .indent(flags & 2 != 0)
        .header(flags & 4 != 0)
        .id_map(flags & 8 != 0)
        .ignore_set_binding(flags & 16 != 0)
        .ignore_location(flags & 32 != 0);
    let _ = diff(&src, &dst, &options);
});
