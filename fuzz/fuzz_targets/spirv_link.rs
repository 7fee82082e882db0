//! Bytes → two modules and a CSV text (the first byte picks the options and
//! whether the text is `--fnvar-targets` or `--fnvar-architectures`, the
//! next two bytes its length, the two after where the modules split) →
//! `link_variants`. Must never panic; an error is a fine answer.
#![no_main]
use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::link::{link_variants, FnVarOptions, LinkOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 5 {
        return;
    }
    let flags = data[0];
    let csv_len = u16::from_le_bytes([data[1], data[2]]) as usize % (data.len() - 5 + 1);
    let csv = String::from_utf8_lossy(&data[5..5 + csv_len]).into_owned();
    let rest = &data[5 + csv_len..];
    let split = (u16::from_le_bytes([data[3], data[4]]) as usize % (rest.len() + 1)) & !3;
    let (Ok((a, _)), Ok((b, _))) = (words_from_bytes(&rest[..split]), words_from_bytes(&rest[split..])) else {
        return;
    };
    let (targets_csv, architectures_csv) = if flags & 1 != 0 { (csv, String::new()) } else { (String::new(), csv) };
    let variants = FnVarOptions {
        targets_csv,
        architectures_csv,
        capabilities: flags & 2 != 0,
        names: vec!["1.spv".into(), "2.spv".into()],
    };
    let options = LinkOptions {
        create_library: flags & 4 != 0,
        allow_partial_linkage: flags & 8 != 0,
        allow_pointer_mismatch: flags & 16 != 0,
        use_highest_version: flags & 32 != 0,
    };
    let _ = link_variants(&[&a, &b], &options, &variants);
});
