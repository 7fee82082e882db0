//! Byte spans of a module read from assembly text (`text::parse`): one
//! trial per kind of instruction, checking the exact bytes each span
//! covers, then one trial per file of the assembler's corpora checking,
//! without a peer, that the spans give the words back: the text of every
//! instruction, and the texts of its opcode and operands, assemble again to
//! that instruction's words, and each operand's text is the id, string or
//! enumerant its words hold.

mod common;

use common::{ensure, Failed, Trial};
use gpuasm_spirv::grammar::{Category, OperandKind};
use gpuasm_spirv::module::Module;
use gpuasm_spirv::text::{assemble, parse, AsmOptions};
use std::collections::BTreeMap;
use std::sync::Arc;

const HEAD: &str = "OpCapability Shader\nOpCapability Int64\nOpCapability Float64\nOpMemoryModel Logical GLSL450\n";

/// Instruction `i` of `text` as written, and the text of each of its
/// operands (result type and result included).
fn inst(text: &str, i: usize) -> (&str, Vec<&str>) {
    let parsed = parse(text, &AsmOptions::default()).unwrap();
    let m = parsed.module().unwrap();
    let ops = (0..m.operands(i).len()).map(|k| &text[m.operand_span(i, k).expect("an operand span")]).collect();
    (&text[m.span(i).expect("an instruction span")], ops)
}

/// The index of the first instruction with this opcode name.
fn find(text: &str, opname: &str) -> usize {
    let words = assemble(text, &AsmOptions::default()).unwrap();
    let m = Module::read(&words).unwrap();
    m.insts().iter().position(|i| i.info().name == opname).unwrap()
}

fn check(text: &str, opname: &str, whole: &str, operands: &[&str]) {
    let (got, ops) = inst(text, find(text, opname));
    assert_eq!(got, whole);
    assert_eq!(ops, operands);
}

fn ordinary() {
    let text = format!("{HEAD}%int = OpTypeInt 32 1\n%a = OpConstant %int 1\n%x = OpIAdd %int %a %a ; sum\n");
    check(&text, "OpTypeInt", "%int = OpTypeInt 32 1", &["%int", "32", "1"]);
    check(&text, "OpIAdd", "%x = OpIAdd %int %a %a", &["%int", "%x", "%a", "%a"]);
    let parsed = parse(&text, &AsmOptions::default()).unwrap();
    let m = parsed.module().unwrap();
    let i = find(&text, "OpIAdd");
    assert_eq!(&text[m.opcode_span(i).unwrap()], "OpIAdd");
    assert_eq!(&text[m.opcode_span(0).unwrap()], "OpCapability");
}

fn ext_inst() {
    let text = format!(
        "{HEAD}%glsl = OpExtInstImport \"GLSL.std.450\"\n%f = OpTypeFloat 32\n%one = OpConstant %f 1\n\
         %r = OpExtInst %f %glsl   FClamp %one %one\t%one\n"
    );
    check(&text, "OpExtInstImport", "%glsl = OpExtInstImport \"GLSL.std.450\"", &["%glsl", "\"GLSL.std.450\""]);
    check(
        &text,
        "OpExtInst",
        "%r = OpExtInst %f %glsl   FClamp %one %one\t%one",
        &["%f", "%r", "%glsl", "FClamp", "%one", "%one", "%one"],
    );
}

fn literal_strings() {
    let text = format!(
        "{HEAD}OpSource GLSL 450 %file \"#version 450\n// two lines\"\n%file = OpString \"a \\\"quoted\\\" name\"\n\
         OpName %file \"a longer name than four bytes\"\n"
    );
    check(&text, "OpString", "%file = OpString \"a \\\"quoted\\\" name\"", &["%file", "\"a \\\"quoted\\\" name\""]);
    check(
        &text,
        "OpName",
        "OpName %file \"a longer name than four bytes\"",
        &["%file", "\"a longer name than four bytes\""],
    );
    check(
        &text,
        "OpSource",
        "OpSource GLSL 450 %file \"#version 450\n// two lines\"",
        &["GLSL", "450", "%file", "\"#version 450\n// two lines\""],
    );
}

fn wide_literals() {
    let text = format!(
        "{HEAD}%long = OpTypeInt 64 1\n%ulong = OpTypeInt 64 0\n%double = OpTypeFloat 64\n\
         %c = OpConstant %ulong 0x123456789abcdef0\n%d = OpConstant %double -1.5e300\n%e = OpConstant %long -7\n"
    );
    check(&text, "OpConstant", "%c = OpConstant %ulong 0x123456789abcdef0", &["%ulong", "%c", "0x123456789abcdef0"]);
    let (_, ops) = inst(&text, find(&text, "OpConstant") + 1);
    assert_eq!(ops, ["%double", "%d", "-1.5e300"]);
    let (whole, _) = inst(&text, find(&text, "OpConstant") + 2);
    assert_eq!(whole, "%e = OpConstant %long -7");
}

fn optional_and_variable_operands() {
    let text = format!(
        "{HEAD}OpDecorate %v Location 3\nOpDecorate %s Block\nOpMemberDecorate %s 0 Offset 16\n\
         OpDecorate %arr ArrayStride 4\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%int = OpTypeInt 32 1\n%s = OpTypeStruct %int\n\
         %c4 = OpConstant %int 4\n%arr = OpTypeArray %int %c4\n\
         %p = OpTypePointer Output %int\n%v = OpVariable %p Output\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n%x = OpLoad %int %v Aligned|Volatile 4\n\
         OpSwitch %x %d 1 %l1 -2 %l2\n%l1 = OpLabel\nOpBranch %d\n%l2 = OpLabel\nOpBranch %d\n\
         %d = OpLabel\n%phi = OpPhi %int %x %l1 %c4 %l2 %x %entry\nOpReturn\nOpFunctionEnd\n"
    );
    check(&text, "OpDecorate", "OpDecorate %v Location 3", &["%v", "Location", "3"]);
    check(&text, "OpMemberDecorate", "OpMemberDecorate %s 0 Offset 16", &["%s", "0", "Offset", "16"]);
    check(&text, "OpLoad", "%x = OpLoad %int %v Aligned|Volatile 4", &["%int", "%x", "%v", "Aligned|Volatile", "4"]);
    check(&text, "OpSwitch", "OpSwitch %x %d 1 %l1 -2 %l2", &["%x", "%d", "1", "%l1", "-2", "%l2"]);
    check(
        &text,
        "OpPhi",
        "%phi = OpPhi %int %x %l1 %c4 %l2 %x %entry",
        &["%int", "%phi", "%x", "%l1", "%c4", "%l2", "%x", "%entry"],
    );
    check(&text, "OpFunction", "%main = OpFunction %void None %fn", &["%void", "%main", "None", "%fn"]);
}

fn odd_spacing_and_comments() {
    let text = format!(
        "{HEAD}%int = OpTypeInt 32 1 ; the type\n%a = OpConstant %int 5\n\
         \t  %sum ; a comment between the result and '='\n\t=\n OpIAdd\t%int ; and one here\n   %a\r\n\t\t%a    ; after\n\
         OpNop\n"
    );
    check(
        &text,
        "OpIAdd",
        "%sum ; a comment between the result and '='\n\t=\n OpIAdd\t%int ; and one here\n   %a\r\n\t\t%a",
        &["%int", "%sum", "%a", "%a"],
    );
    check(&text, "OpNop", "OpNop", &[]);
}

fn spec_constant_op() {
    let text =
        format!("{HEAD}%int = OpTypeInt 32 1\n%a = OpSpecConstant %int 3\n%b = OpSpecConstantOp %int IAdd %a %a\n");
    check(&text, "OpSpecConstantOp", "%b = OpSpecConstantOp %int IAdd %a %a", &["%int", "%b", "IAdd", "%a", "%a"]);
}

fn names_and_places() {
    let text = format!("{HEAD}%ptr = OpTypePointer Function %int\n%int = OpTypeInt 32 1\n%5 = OpConstant %int 9\n");
    let parsed = parse(&text, &AsmOptions::default()).unwrap();
    let m = parsed.module().unwrap();
    let int = m.id_named("int").unwrap();
    // Forward references get their number where they are first used.
    assert_eq!(m.id_named("ptr"), Some(1));
    assert_eq!(int, 2);
    assert_eq!(m.text_name(int), Some("int"));
    assert_eq!(m.text_name(m.id_named("5").unwrap()), Some("5"));
    assert_eq!(m.id_named("nothing"), None);
    // Go to the definition of the `%int` operand of OpTypePointer.
    let use_at = text.find("%int\n").unwrap() + 2;
    let (i, k) = m.locate(use_at).unwrap();
    assert_eq!((m.insts()[i].info().name, k), ("OpTypePointer", Some(2)));
    let def = m.def_index(m.word(i, k.unwrap())).unwrap();
    assert_eq!(&text[m.span(def).unwrap()], "%int = OpTypeInt 32 1");
    assert_eq!(m.inst_at_offset(m.insts()[def].offset()), Some(def));
    assert_eq!(m.inst_at_offset(m.insts()[def].offset() + 1), None);
    // Between tokens: the instruction, no operand; outside: nothing.
    assert_eq!(m.locate(text.find("%5 =").unwrap() + 2), Some((m.insts().len() - 1, None)));
    assert_eq!(m.locate(text.find("\n%int").unwrap()), None);
    assert_eq!(parsed.line_col(use_at), (5, 33));
    // Friendly names, as spirv-dis prints them, are another thing.
    assert_eq!(m.name(int), Some("int"));
}

fn validator_errors_point_into_the_text() {
    let text = format!("{HEAD}%int = OpTypeInt 32 1\n%a = OpConstant %int 1\n  %bad = OpIAdd %a %a %a ; not a type\n");
    let parsed = parse(&text, &AsmOptions::default()).unwrap();
    let m = parsed.module().unwrap();
    let errors = gpuasm_spirv::validate::validate(parsed.words(), &Default::default()).unwrap_err();
    let i = m.inst_at_offset(errors[0].word_offset).unwrap();
    assert_eq!(&text[m.span(i).unwrap()], "%bad = OpIAdd %a %a %a");
    assert_eq!(parsed.line_col(m.span(i).unwrap().start), (7, 3));
}

fn untyped_instructions() {
    let text = format!("{HEAD}!0x00010000   ; OpNop\nOpUnknown(0, 1)\n%int = OpTypeInt 32 1\n");
    let (whole, ops) = inst(&text, 4);
    assert_eq!((whole, ops.len()), ("!0x00010000", 0));
    let (whole, _) = inst(&text, 5);
    assert_eq!(whole, "OpUnknown(0, 1)");
    let (whole, _) = inst(&text, 6);
    assert_eq!(whole, "%int = OpTypeInt 32 1");
}

fn none_from_a_binary() {
    let words = assemble(HEAD, &AsmOptions::default()).unwrap();
    let m = Module::read(&words).unwrap();
    assert_eq!((m.span(0), m.operand_span(0, 0), m.opcode_span(0)), (None, None, None));
    assert_eq!((m.locate(0), m.id_named("x"), m.text_name(1)), (None, None, None));
    assert!(m.text_spans().is_none());
}

fn same_words_and_diagnostics_as_assemble() {
    for text in [HEAD, "OpCapability Shader\nOpBad\n%x = OpTypeInt 32\n", "", "%x = OpUndef %t\n"] {
        let options = AsmOptions::default();
        let parsed = parse(text, &options).map(|p| (p.words().to_vec(), p.warnings().clone()));
        let assembled = gpuasm_spirv::text::assemble_with_warnings(text, &options).map(|a| (a.words, a.warnings));
        assert_eq!(format!("{parsed:?}"), format!("{assembled:?}"), "{text:?}");
    }
}

/// The text of instruction `i` rebuilt from the spans of its opcode and
/// operands (`None` where one has no span).
fn from_tokens(text: &str, m: &Module, i: usize) -> Option<String> {
    let mut pieces = vec![m.opcode_span(i)?];
    for k in 0..m.operands(i).len() {
        pieces.push(m.operand_span(i, k)?);
    }
    pieces.sort_by_key(|r| r.start);
    let mut out = String::new();
    for (n, r) in pieces.into_iter().enumerate() {
        out.push_str(&text[r]);
        out.push_str(if n == 0 && m.result_id(i).is_some() { " = " } else { " " });
    }
    Some(out)
}

/// Whether operand `k`'s text is what its words hold.
fn operand_matches(m: &Module, i: usize, k: usize, token: &str) -> Result<(), String> {
    let o = m.operands(i)[k];
    let word = m.word(i, k);
    let ok = match o.kind.info().category {
        Category::Id => token.strip_prefix('%').and_then(|n| m.id_named(n)) == Some(word),
        Category::ValueEnum => o.kind.enumerant_by_name(token).map(|e| e.value) == Some(word),
        Category::BitEnum => token
            .split('|')
            .map(|p| o.kind.enumerant_by_name(p).map(|e| e.value))
            .try_fold(0, |acc, v| v.map(|v| acc | v))
            .is_some_and(|v| v == word),
        _ if o.kind == OperandKind::LiteralString => token.starts_with('"'),
        // Numbers: not an id, not a string (their spelling varies).
        _ => !token.starts_with(['%', '"']),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("instruction {i} operand {k} ({:?}) is '{token}', word {word}", o.kind))
    }
}

/// Every property the spans of one accepted text must have.
fn spans_give_the_words_back(text: &str, options: &AsmOptions) -> Result<(), String> {
    let want = assemble(text, options).map_err(|d| format!("assemble: {d}"))?;
    let parsed = parse(text, options).map_err(|d| format!("parse: {d}"))?;
    if parsed.words() != want {
        return Err("parse and assemble give different words".into());
    }
    let Ok(m) = parsed.module() else {
        return Ok(()); // `!<integer>` words that do not parse: nothing to align
    };
    // What stands before the first instruction: comments may set the
    // version.
    let lead = &text[..m.span(0).map_or(text.len(), |r| r.start)];
    let (mut by_inst, mut by_token) = (lead.to_string(), lead.to_string());
    for i in 0..m.insts().len() {
        let Some(span) = m.span(i) else {
            // Words written as `!<integer>` that make instructions of
            // other lengths than the text's.
            if text.contains('!') {
                return Ok(());
            }
            return Err(format!("instruction {i} has no span"));
        };
        let written = &text[span];
        by_inst.push_str(written);
        by_inst.push('\n');
        // Words written as `!<integer>` or in `OpUnknown`, and what
        // follows them, are not read by the grammar: their tokens need not
        // match the operands the words decode to.
        if written.contains('!') || written.starts_with("OpUnknown") {
            by_token.push_str(written);
        } else {
            let t = from_tokens(text, &m, i).ok_or_else(|| format!("instruction {i} ({written:?}) lacks a span"))?;
            by_token.push_str(&t);
            for k in 0..m.operands(i).len() {
                operand_matches(&m, i, k, &text[m.operand_span(i, k).unwrap()])?;
            }
        }
        by_token.push('\n');
    }
    for (what, rebuilt) in [("instruction", by_inst), ("token", by_token)] {
        let got = assemble(&rebuilt, options).map_err(|d| format!("the {what} spans do not assemble: {d}"))?;
        if got != want {
            let at = (0..got.len().max(want.len())).find(|&w| got.get(w) != want.get(w));
            return Err(format!("the {what} spans assemble to other words (first at word {at:?})"));
        }
    }
    Ok(())
}

fn corpus_case(part: &str, files: &BTreeMap<String, Vec<u8>>, rows: &[Vec<String>]) -> Result<(), Failed> {
    let mut failures = Vec::new();
    for cols in rows {
        let (file, flags, status) = (&cols[0], &cols[1], &cols[2]);
        let text = String::from_utf8_lossy(&files[file]).into_owned();
        let options = common::asm_options(flags, AsmOptions::default());
        if status == "rejected" {
            let (a, p) = (assemble(&text, &options), parse(&text, &options).map(|p| p.into_words()));
            if format!("{a:?}") != format!("{p:?}") {
                failures.push(format!("{part}/{file} [{flags}]: parse and assemble disagree"));
            }
            continue;
        }
        if let Err(e) = spans_give_the_words_back(&text, &options) {
            failures.push(format!("{part}/{file} [{flags}]: {e}"));
        }
    }
    common::all_of(failures)
}

fn main() {
    let mut all = vec![
        common::plain("ordinary", ordinary),
        common::plain("ext_inst", ext_inst),
        common::plain("literal_strings", literal_strings),
        common::plain("wide_literals", wide_literals),
        common::plain("optional_and_variable_operands", optional_and_variable_operands),
        common::plain("odd_spacing_and_comments", odd_spacing_and_comments),
        common::plain("spec_constant_op", spec_constant_op),
        common::plain("names_and_places", names_and_places),
        common::plain("validator_errors_point_into_the_text", validator_errors_point_into_the_text),
        common::plain("untyped_instructions", untyped_instructions),
        common::plain("none_from_a_binary", none_from_a_binary),
        common::plain("same_words_and_diagnostics_as_assemble", same_words_and_diagnostics_as_assemble),
    ];
    for rel in ["asm/unit", "asm/asm", "asm/asm-rejected", "asm-own/cases", "asm-own/disasm"] {
        let part = rel.rsplit('/').next().unwrap();
        let files = Arc::new(common::part(rel));
        let cases = common::manifest_by_file(&files);
        let checked = cases.len();
        all.push(Trial::test(format!("corpus/{part}: has cases"), move || {
            ensure(checked > 0, || format!("{rel}: no cases"))
        }));
        for (file, rows) in cases {
            let files = Arc::clone(&files);
            all.push(Trial::test(format!("corpus/{part}/{file}"), move || corpus_case(part, &files, &rows)));
        }
    }
    common::run(all)
}
