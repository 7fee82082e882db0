//! The first byte picks disassembler options, the rest is a module. Must
//! never panic; an error must leave the text of the instructions before it.
//! The friendly-names pass, which stops early where it may, must name every
//! id as walking the whole module does; a parser that skips part of the
//! module (as `dis` on two threads does) must read on as one that read it.
#![no_main]
use gpuasm_spirv::binary::{words_from_bytes, InstructionParser, ParserOptions};
use gpuasm_spirv::dis::{disassemble_into, DisOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else { return };
    let Ok((words, _)) = words_from_bytes(rest) else { return };
    let options = DisOptions::default()
        .indent(flags & 1 == 0)
        .header(flags & 2 == 0)
        .friendly_names(flags & 4 == 0)
        .offsets(flags & 8 != 0)
        .comment(flags & 16 != 0)
        .nested_indent(flags & 32 != 0)
        .reorder_blocks(flags & 64 != 0)
        .color(flags & 128 != 0)
        .check_bound(flags & 3 == 3)
        .all_ext_inst_names(flags & 5 == 5);
    let mut out = Vec::new();
    let _ = disassemble_into(&words, &options, &mut out);
    if let Err(id) = gpuasm_spirv::module::names::IdNames::check_early_stop(&words) {
        panic!("the names pass stopping early names id {id} otherwise");
    }
    let parser_options = ParserOptions::default().check_bound(flags & 8 != 0).raw_unknown(flags & 16 == 0);
    let len = words.len();
    if let Err(why) = InstructionParser::check_skip(&words, parser_options, &[len / 3, len / 2, len * 2 / 3]) {
        panic!("skipping differs from reading: {why}");
    }
});
