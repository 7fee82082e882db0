//! Assembler diagnostics: positions, several independent errors in one run,
//! suggestions, warnings for what spirv-as accepts silently.

use gpuasm_spirv::text::{assemble, assemble_with_warnings, AsmOptions, Severity};

fn errors(text: &str) -> Vec<(u32, u32, String)> {
    let d = assemble(text, &AsmOptions::default()).unwrap_err();
    d.errors().map(|e| (e.line, e.column, e.message.clone())).collect()
}

#[test]
fn independent_errors_are_all_reported() {
    let text =
        "OpCapability Shaderr\n%t = OpTypeInt 32 1\n%c = OpConstant %t 99999999999\nOpMemoryModel Logical Bogus\n";
    let e = errors(text);
    assert_eq!(e.len(), 3, "{e:?}");
    assert_eq!((e[0].0, e[0].1), (1, 14));
    assert_eq!((e[1].0, e[1].1), (3, 20));
    assert!(e[1].2.contains("does not fit in a 32-bit signed integer"), "{}", e[1].2);
    assert_eq!((e[2].0, e[2].1), (4, 23));
}

#[test]
fn follow_on_errors_are_not_reported_as_new_ones() {
    // The bad type makes the constant's type unknown: one error, not two.
    let d = assemble("%t = OpTypeInt 32\n%c = OpConstant %t 1\n", &AsmOptions::default()).unwrap_err();
    assert_eq!(d.errors().count(), 1, "{d}");
}

#[test]
fn missing_operand_says_what_is_expected() {
    let e = errors("OpMemoryModel Logical\n");
    assert!(e[0].2.starts_with("OpMemoryModel expects an operand MemoryModel"), "{}", e[0].2);
}

#[test]
fn enumerant_suggestions() {
    let d = assemble("OpMemoryModel Logical GLSL45\n", &AsmOptions::default()).unwrap_err();
    assert_eq!(d.items[0].help.as_deref(), Some("did you mean 'GLSL450'?"));
    let d = assemble("OpMemoryModel Logical Zzzzzzz\n", &AsmOptions::default()).unwrap_err();
    assert!(d.items[0].help.as_deref().unwrap().starts_with("valid MemoryModel values: Simple, GLSL450"), "{d:?}");
}

#[test]
fn undefined_ids_are_warnings_not_errors() {
    // spirv-as accepts this; we do too, with a warning.
    let a = assemble_with_warnings("%p = OpTypePointer Function %nowhere\n", &AsmOptions::default()).unwrap();
    assert_eq!(a.warnings.items.len(), 1);
    assert_eq!(a.warnings.items[0].severity, Severity::Warning);
    assert!(a.warnings.items[0].message.contains("%nowhere is used but never defined"));
    assert_eq!((a.warnings.items[0].line, a.warnings.items[0].column), (1, 29));
}

/// The first 20 undefined ids are reported, in order of first use,
/// numbered and named alike (one pass over the text finds the numbers'
/// first uses, however many there are).
#[test]
fn undefined_ids_are_reported_in_order_of_first_use() {
    let mut text = String::from("OpCapability Shader\n; %7 in a comment, used later\n");
    let mut expected = Vec::new();
    for i in 0..3000u32 {
        // Numbers out of order, names between them, some used twice.
        let (a, b) = ((i * 7919) % 3000 + 1, format!("n{}", i % 1500));
        text += &format!("OpName %{a} \"%{a}\"\nOpName %{b} \"x\"\n");
        for name in [format!("%{a}"), format!("%{b}")] {
            if !expected.contains(&name) && expected.len() < 20 {
                expected.push(name);
            }
        }
    }
    // `%7` stands first in the comment, as a whole word.
    expected.retain(|n| n != "%7");
    expected.insert(0, "%7".to_string());
    expected.truncate(20);
    // Look-alikes of numbers are not their uses.
    text = text.replacen("OpCapability Shader", "OpCapability Shader\n%x = OpTypeVoid ; %01 %1a", 1);
    let a = assemble_with_warnings(&text, &AsmOptions::default()).unwrap();
    let got: Vec<&str> =
        a.warnings.items.iter().map(|d| d.message.strip_suffix(" is used but never defined").unwrap()).collect();
    assert_eq!(got, expected);
    assert_eq!((a.warnings.items[0].line, a.warnings.items[0].column), (3, 3));
}

#[test]
fn error_count_is_capped() {
    let text = "OpBad\n".repeat(500);
    let d = assemble(&text, &AsmOptions::default().max_errors(10)).unwrap_err();
    assert_eq!(d.errors().count(), 10);
}
