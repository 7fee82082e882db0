//! Bytes → if the reader accepts them as a module the round trip keeps
//! (see below), `dis --raw-id` then `as --preserve-numeric-ids` must give
//! back the same words (generator and bound aside: the bound becomes the
//! largest id + 1).
//!
//! What the round trip promises to keep (README, "Round trip"): every
//! module the reader accepts, except what the text form cannot carry, for
//! spirv-dis and spirv-as alike:
//! - a version other than 1.0–1.6, or a schema word other than 0 (spirv-as
//!   writes 0);
//! - bytes after the NUL that ends a literal string (the text stops there);
//! - numbers the text cannot spell: integers wider than 64 bits, floats of
//!   widths other than 8, 16, 32 and 64 (spirv-dis prints nothing for them),
//!   and integers of other widths below 64 (and floats below 32) whose words
//!   have high-order bits other than the zero or sign extension the
//!   specification requires (the text shows the whole value, which no
//!   longer fits the type: a 56-bit constant with bits above its 56th), and
//!   encoded floats (bfloat16, fp8) with bits above their encoding's width
//!   or in a type wider than 32 bits (their text is the encoding's value);
//! - a header with no instruction (spirv-as has nothing to assemble).
//!
//! An instruction newer than the header's version (OpModuleProcessed in a
//! 1.0 module) is refused under that version, by spirv-as as by us, so such
//! a module is assembled for the newest version and compared past the
//! version word.
#![no_main]
use gpuasm_spirv::binary::{words_from_bytes, InstructionParser, NumberKind, ParserOptions};
use gpuasm_spirv::dis::{disassemble_to, DisOptions};
use gpuasm_spirv::grammar::{fp_encoding, Category, OperandKind};
use gpuasm_spirv::text::{assemble, text_from_bytes, AsmOptions};
use gpuasm_spirv::TargetEnv;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok((words, _)) = words_from_bytes(data) else { return };
    let Ok(mut parser) = InstructionParser::new(&words, ParserOptions::default()) else { return };
    let mut max_id = 0;
    let mut instructions = 0;
    loop {
        match parser.next() {
            None => break,
            Some(Err(_)) => return,
            Some(Ok(inst)) => {
                instructions += 1;
                for (i, o) in inst.operands.iter().enumerate() {
                    if o.kind.info().category == Category::Id {
                        max_id = max_id.max(inst.word(i));
                    }
                    if o.kind == OperandKind::LiteralString && !zero_after_nul(inst.operand_words(i)) {
                        return;
                    }
                    if !spelled_in_text(o.number, inst.operand_words(i)) {
                        return;
                    }
                }
            }
        }
    }
    // Version 1.minor: the major byte is 1, the bytes around are 0.
    let minor = ((words[1] >> 8) & 0xff) as u8;
    if words[1] & 0xffff_00ff != 0x0001_0000 || minor > 6 || words[4] != 0 || instructions == 0 {
        return;
    }
    // The exact bytes (strings need not be UTF-8), as the CLI writes them.
    let mut listing = Vec::new();
    disassemble_to(&words, &DisOptions::default().friendly_names(false).color(false), &mut listing)
        .unwrap();
    let (text, raw_bytes) = text_from_bytes(&listing);
    let options = AsmOptions::default().target_env(Some(TargetEnv::Universal(minor))).preserve_numeric_ids(true).generator(words[2]).raw_bytes(raw_bytes);
    let (back, version) = match assemble(&text, &options) {
        Ok(back) => (back, words[1]),
        Err(_) => {
            let newest = options.target_env(Some(TargetEnv::Universal(6)));
            (assemble(&text, &newest).unwrap_or_else(|e| panic!("{e}\n{text}")), 0x0001_0600)
        }
    };
    assert_eq!([back[0], back[1], back[2]], [words[0], version, words[2]]);
    assert_eq!(back[3], max_id + 1);
    assert_eq!(back[4..], words[4..], "{text}");
});

/// Whether a literal string's bytes after its terminating NUL are all zero.
fn zero_after_nul(words: &[u32]) -> bool {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    match bytes.iter().position(|&b| b == 0) {
        Some(nul) => bytes[nul..].iter().all(|&b| b == 0),
        None => false,
    }
}

/// Whether a number operand of `words` has a spelling in the text that
/// assembles back to the same words.
fn spelled_in_text(number: NumberKind, words: &[u32]) -> bool {
    let word = words.first().copied().unwrap_or(0);
    // The value an integer of `width` bits holds in its words.
    let value = |width: u32| {
        let high = if width > 32 { words.get(1).copied().unwrap_or(0) } else { 0 };
        u64::from(word) | u64::from(high) << 32
    };
    match number {
        NumberKind::None => true,
        NumberKind::Unsigned(w) | NumberKind::Signed(w) if w > 64 => false,
        NumberKind::Unsigned(w) if w < 64 => value(w) >> w == 0,
        NumberKind::Signed(w) if w < 64 => {
            let shift = 64 - w;
            ((value(w) << shift) as i64 >> shift) as u64 == value(w)
        }
        NumberKind::Unsigned(_) | NumberKind::Signed(_) => true,
        // An encoded float (bfloat16, fp8) prints and assembles as its
        // encoding's bits in one word, whatever the type's width says.
        NumberKind::Float(f) if f.encoding.is_some() => {
            let bits = match f.encoding {
                Some(fp_encoding::BFloat16KHR) => 16,
                Some(fp_encoding::Float8E4M3EXT | fp_encoding::Float8E5M2EXT) => 8,
                _ => return false,
            };
            f.width <= 32 && word >> bits == 0
        }
        NumberKind::Float(f) if f.width < 32 => matches!(f.width, 8 | 16) && word >> f.width == 0,
        NumberKind::Float(f) => matches!(f.width, 32 | 64),
    }
}
