//! Malformed input: every case gets a clear error naming the word offset, and
//! nothing panics or allocates from a size field in the input.

use gpuasm_spirv::binary::{words_from_bytes, words_from_hex_text, BinaryErrorKind as K, Endian};
use gpuasm_spirv::dis::{disassemble, disassemble_to, DisError, DisOptions};
use proptest::prelude::*;

const MAGIC: u32 = 0x0723_0203;

fn module(bound: u32, body: &[u32]) -> Vec<u32> {
    let mut w = vec![MAGIC, 0x0001_0000, 0, bound, 0];
    w.extend_from_slice(body);
    w
}

fn inst(opcode: u32, operands: &[u32]) -> Vec<u32> {
    let mut w = vec![((operands.len() as u32 + 1) << 16) | opcode];
    w.extend_from_slice(operands);
    w
}

/// Disassembles and returns the error kind and word offset, plus the text
/// written before the error.
fn fail(words: &[u32]) -> (K, usize, String) {
    let mut out = Vec::new();
    match disassemble_to(words, &DisOptions::default(), &mut out) {
        Err(DisError::Binary(e)) => (e.kind().clone(), e.word_offset(), String::from_utf8(out).unwrap()),
        other => panic!("expected a binary error, got {other:?}"),
    }
}

const OP_CAPABILITY: u32 = 17;
const OP_MEMORY_MODEL: u32 = 14;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_VOID: u32 = 19;
const OP_CONSTANT: u32 = 43;
const OP_NAME: u32 = 5;
const OP_TYPE_OPAQUE: u32 = 31;
const OP_DECORATE: u32 = 71;
const OP_TYPE_FLOAT: u32 = 22;
const OP_TYPE_FUNCTION: u32 = 33;
const OP_FUNCTION: u32 = 54;
const OP_LABEL: u32 = 248;
const OP_UNDEF: u32 = 1;
const OP_SWITCH: u32 = 251;

#[test]
fn truncated_header() {
    let (k, at, out) = fail(&[MAGIC, 0x10000, 0]);
    assert_eq!(k, K::IncompleteHeader { words: 3 });
    assert_eq!(at, 3);
    assert!(out.is_empty());
}

#[test]
fn bad_magic() {
    let mut w = module(1, &[]);
    w[0] = 0xdead_beef;
    assert_eq!(fail(&w).0, K::BadMagic { found: 0xdead_beef });
}

#[test]
fn zero_word_count_names_its_offset_and_keeps_earlier_text() {
    let mut body = inst(OP_CAPABILITY, &[1]);
    body.push(OP_CAPABILITY); // word count 0
    let (k, at, out) = fail(&module(2, &body));
    assert_eq!(k, K::ZeroWordCount { opcode: OP_CAPABILITY as u16 });
    assert_eq!(at, 7);
    assert!(out.ends_with("OpCapability Shader\n"), "{out}");
}

#[test]
fn word_count_past_the_end() {
    let body = [(9 << 16) | OP_CAPABILITY, 1];
    let (k, at, _) = fail(&module(2, &body));
    assert_eq!(k, K::TruncatedInstruction { opcode: OP_CAPABILITY as u16, word_count: 9, available: 2 });
    assert_eq!(at, 5);
}

#[test]
fn operand_missing_inside_instruction() {
    let (k, at, _) = fail(&module(2, &inst(OP_MEMORY_MODEL, &[0])));
    assert!(matches!(k, K::MissingOperand { opname: "OpMemoryModel", .. }), "{k:?}");
    assert_eq!(at, 7);
}

#[test]
fn wide_literal_running_past_its_instruction() {
    // A 64-bit constant with only one value word.
    let mut body = inst(OP_TYPE_INT, &[1, 64, 0]);
    body.extend(inst(OP_CONSTANT, &[1, 2, 5]));
    let (k, at, _) = fail(&module(3, &body));
    assert!(matches!(k, K::TruncatedNumber { opname: "OpConstant", needed: 2 }), "{k:?}");
    assert_eq!(at, 5 + 4 + 3);
}

#[test]
fn id_at_or_past_bound() {
    let words = module(3, &[inst(OP_TYPE_VOID, &[1]), inst(OP_TYPE_VOID, &[3]), inst(OP_TYPE_VOID, &[4])].concat());
    // spirv-dis prints it; so do we, noting the first such id.
    let mut out = Vec::new();
    let listed = disassemble_to(&words, &DisOptions::default(), &mut out).unwrap();
    assert_eq!(listed.first_id_past_bound, Some((3, 8)));
    // As spirv-dis prints it.
    assert!(String::from_utf8(out)
        .unwrap()
        .ends_with("       %void = OpTypeVoid\n     %void_0 = OpTypeVoid\n     %void_1 = OpTypeVoid\n"));
    let checked = DisOptions::default().check_bound(true);
    match disassemble_to(&words, &checked, &mut Vec::new()) {
        Err(DisError::Binary(e)) => {
            assert_eq!(e.kind(), &K::IdOutOfBound { id: 3, bound: 3 });
            assert_eq!(e.word_offset(), 8);
        }
        other => panic!("expected a bound error, got {other:?}"),
    }
    let within = module(3, &inst(OP_TYPE_VOID, &[2]));
    assert_eq!(disassemble_to(&within, &DisOptions::default(), &mut Vec::new()).unwrap().first_id_past_bound, None);
    assert!(disassemble(&words, &DisOptions::default().friendly_names(false)).is_ok());
}

#[test]
fn unknown_enumerant_and_mask_bits() {
    let (k, at, _) = fail(&module(2, &inst(OP_CAPABILITY, &[99999])));
    assert_eq!(k, K::UnknownEnumerant { kind: "Capability", value: 99999 });
    assert_eq!(at, 6);
    // OpFunction with FunctionControl bit 19 set.
    let mut body = inst(OP_TYPE_VOID, &[1]);
    body.extend(inst(54, &[1, 2, 0x80000, 3]));
    let (k, _, _) = fail(&module(4, &body));
    assert!(matches!(k, K::UnknownMaskBits { kind: "FunctionControl", bits: 0x80000, .. }), "{k:?}");
}

#[test]
fn unknown_opcode_and_unterminated_string() {
    assert_eq!(fail(&module(2, &inst(9999, &[1]))).0, K::UnknownOpcode { opcode: 9999 });
    let (k, _, _) = fail(&module(2, &inst(OP_NAME, &[1, 0x4141_4141])));
    assert_eq!(k, K::UnterminatedString { opname: "OpName" });
}

#[test]
fn duplicate_and_zero_result_ids() {
    let mut body = inst(OP_TYPE_VOID, &[1]);
    body.extend(inst(20, &[1]));
    assert_eq!(fail(&module(2, &body)).0, K::DuplicateResultId { id: 1 });
    assert_eq!(fail(&module(2, &inst(OP_TYPE_VOID, &[0]))).0, K::ZeroId { what: "result id" });
}

#[test]
fn glslang_module_with_id_zero_is_rejected_as_spirv_dis_does() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/rejected");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let (words, _) = words_from_bytes(&bytes).unwrap();
        let (k, _, _) = fail(&words);
        assert_eq!(k, K::ZeroId { what: "id operand" });
        n += 1;
    }
    assert!(n > 0);
}

#[test]
fn bytes_not_a_multiple_of_four() {
    let e = words_from_bytes(&[3, 2, 0x23, 7, 0, 0]).unwrap_err();
    assert_eq!(e.kind(), &K::NotWordAligned { bytes: 6 });
}

fn small_module() -> Vec<u32> {
    let mut body = inst(OP_CAPABILITY, &[1]);
    body.extend(inst(OP_MEMORY_MODEL, &[0, 1]));
    body.extend(inst(OP_TYPE_INT, &[1, 32, 1]));
    body.extend(inst(OP_CONSTANT, &[1, 2, (-7i32) as u32]));
    module(3, &body)
}

#[test]
fn big_endian_reads_like_little_endian() {
    let words = small_module();
    let le: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let be: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
    let (a, ea) = words_from_bytes(&le).unwrap();
    let (b, eb) = words_from_bytes(&be).unwrap();
    assert_eq!((ea, eb), (Endian::Little, Endian::Big));
    assert_eq!(a, b);
    let text = disassemble(&b, &DisOptions::default()).unwrap();
    assert!(text.ends_with("%int_n7 = OpConstant %int -7\n"), "{text}");
}

#[test]
fn hex_text_words_and_bytes() {
    let words = small_module();
    let as_words: String = words.iter().map(|w| format!("0x{w:08x}\n")).collect();
    let as_bytes: String = words.iter().flat_map(|w| w.to_le_bytes()).map(|b| format!("{b:02x} ")).collect();
    let no_prefix: String = words.iter().map(|w| format!("{w:08X}, ")).collect();
    for text in [as_words, as_bytes, no_prefix] {
        assert_eq!(words_from_hex_text(text.as_bytes()).unwrap().0, words, "{text}");
    }
    let e = words_from_hex_text(b"0x07230203\n0xzz").unwrap_err();
    assert!(matches!(e.kind(), K::BadHexText { line: 2, column: 1, .. }), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Arbitrary words after a valid header never panic, and any error names
    /// an offset inside the input.
    #[test]
    fn arbitrary_words_never_panic(body in proptest::collection::vec(any::<u32>(), 0..64), bound in 0u32..64) {
        let words = module(bound, &body);
        for opts in [DisOptions::default(), DisOptions::default().nested_indent(true).reorder_blocks(true).comment(true)] {
            let mut out = Vec::new();
            if let Err(DisError::Binary(e)) = disassemble_to(&words, &opts, &mut out) {
                prop_assert!(e.word_offset() <= words.len());
            }
        }
    }

    /// Mutating one word of a valid module never panics either.
    #[test]
    fn mutated_module_never_panics(index in 5usize..22, value in any::<u32>()) {
        let mut words = small_module();
        let i = index % words.len();
        words[i] = value;
        let _ = disassemble(&words, &DisOptions::default());
    }
}

/// Literal widths count words as spirv-dis does: rounded up in 32 bits and
/// kept to 16 bits (width 0 takes no word, 2^22 + 32 takes one), and a
/// one-word float of a width other than 16 or 32 prints as nothing. The
/// expected texts are spirv-dis 2025.5's.
#[test]
fn odd_literal_widths_as_spirv_dis() {
    let raw = DisOptions::default().friendly_names(false).header(false);
    let last_line = |words: &[u32]| disassemble(words, &raw).unwrap().lines().last().unwrap().to_string();
    let wide = [inst(OP_TYPE_INT, &[1, 4_194_336, 1]), inst(OP_CONSTANT, &[1, 2, u32::MAX])].concat();
    assert_eq!(last_line(&module(3, &wide)), "          %2 = OpConstant %1 -1");
    let float24 = [inst(OP_TYPE_FLOAT, &[1, 24]), inst(OP_CONSTANT, &[1, 2, 0x3f80_0000])].concat();
    assert_eq!(last_line(&module(3, &float24)), "          %2 = OpConstant %1 ");
    let zero = [inst(OP_TYPE_INT, &[1, 0, 0]), inst(OP_CONSTANT, &[1, 2, 1])].concat();
    let (k, _, _) = fail(&module(3, &zero));
    assert!(matches!(k, K::ExtraWords { opname: "OpConstant", expected: 3, word_count: 4 }), "{k:?}");
    // A switch on a 0-bit selector: each literal takes no word.
    let switch = [
        inst(OP_TYPE_INT, &[1, 0, 0]),
        inst(OP_TYPE_VOID, &[10]),
        inst(OP_TYPE_FUNCTION, &[11, 10]),
        inst(OP_FUNCTION, &[10, 12, 0, 11]),
        inst(OP_LABEL, &[13]),
        inst(OP_UNDEF, &[1, 14]),
        inst(OP_SWITCH, &[14, 13, 5, 13]),
    ]
    .concat();
    assert_eq!(last_line(&module(20, &switch)), "               OpSwitch %14 %13  %5  %13");
}

/// OpExtInstWithForwardRefsKHR keeps its trailing ids after the extended
/// instruction's operands (SPIRV-Tools drops them for OpExtInst alone).
/// Words and text from spirv-as / spirv-dis 2025.5.
#[test]
fn ext_inst_with_forward_refs_takes_trailing_ids() {
    let words = [
        0x0723_0203,
        0x0001_0600,
        0x0007_0000,
        6,
        0,
        0x0002_0011,
        1,
        0x0006_000b,
        1,
        0x4c53_4c47,
        0x6474_732e,
        0x3035_342e,
        0,
        0x0003_0016,
        2,
        0x40,
        0x0008_1151,
        2,
        3,
        1,
        0x3e,
        4,
        4,
        5,
    ];
    let raw = DisOptions::default().friendly_names(false).header(false);
    let text = disassemble(&words, &raw).unwrap();
    assert!(text.ends_with("          %3 = OpExtInstWithForwardRefsKHR %2 %1 UnpackHalf2x16 %4 %4 %5\n"), "{text}");
    // OpExtInst with the same operands has one word too many.
    let mut plain = words.to_vec();
    plain[16] = 0x0008_000c;
    assert!(disassemble(&plain, &raw).is_err());
}

/// SPIRV-Tools 2025.5's binary parser cannot read the operand of the
/// InitModeALTERA decoration ("Internal error: Unhandled operand type: 81"
/// from spirv-dis and spirv-val alike); neither do we.
#[test]
fn initialization_mode_qualifier_is_unreadable_as_in_spirv_tools() {
    // OpCapability Shader; OpDecorate %1 InitModeALTERA InitOnDeviceResetALTERA
    let words = module(2, &[inst(OP_CAPABILITY, &[1]), inst(OP_DECORATE, &[1, 6190, 1])].concat());
    let (k, at, text) = fail(&words);
    assert_eq!(k, K::UnreadableOperandKind { kind: "InitializationModeQualifier" });
    assert_eq!(at, 5 + 2 + 3);
    assert!(text.ends_with("OpCapability Shader\n"), "{text}");
}

/// spirv-dis sanitizes an OpTypeOpaque name before prefixing it, and the
/// empty name becomes "_" (spirv-dis 2025.5 prints `%Opaque__`).
#[test]
fn unnamed_opaque_type_is_opaque_underscore_underscore() {
    // OpTypeOpaque %1 "" (one word: the empty string's NUL).
    let words = module(2, &inst(OP_TYPE_OPAQUE, &[1, 0]));
    let text = disassemble(&words, &DisOptions::default().header(false)).unwrap();
    assert_eq!(text, "   %Opaque__ = OpTypeOpaque \"\"\n");
}

/// Types nested 9,000 deep: the names would take about 500 MB (each spells
/// out the one inside it), past the default limit; here past 10 MB, which
/// they pass at depth 1,300 (a smaller limit keeps the test fast where it
/// is built unoptimised). The disassembler says so before writing
/// anything, on one thread (comments on) and on two (a module of 36,000
/// words is split); `--raw-id` is unaffected.
#[test]
fn names_past_the_limit_are_an_error_before_any_output() {
    const OP_TYPE_ARRAY: u32 = 28;
    let depth = 9_000u32;
    let mut body = inst(OP_CAPABILITY, &[1]);
    body.extend(inst(OP_MEMORY_MODEL, &[0, 1]));
    body.extend(inst(OP_TYPE_INT, &[1, 32, 0]));
    body.extend(inst(OP_CONSTANT, &[1, 2, 2]));
    body.extend(inst(OP_TYPE_ARRAY, &[3, 1, 2]));
    for id in 4..3 + depth {
        body.extend(inst(OP_TYPE_ARRAY, &[id, id - 1, 2]));
    }
    let words = module(3 + depth, &body);
    for comment in [true, false] {
        let mut out = Vec::new();
        let options = DisOptions::default().comment(comment).names_limit(Some(10 << 20));
        match disassemble_to(&words, &options, &mut out) {
            Err(e @ DisError::NamesTooLarge { .. }) => assert!(e.to_string().contains("--raw-id"), "{e}"),
            other => panic!("expected NamesTooLarge, got {:?}", other.map(|_| ())),
        }
        assert!(out.is_empty(), "{} bytes written", out.len());
    }
    let raw = disassemble(&words, &DisOptions::default().friendly_names(false)).unwrap();
    assert!(raw.ends_with(&format!("%{} = OpTypeArray %{} %2\n", 2 + depth, 1 + depth)), "{}", &raw[raw.len() - 80..]);
}
