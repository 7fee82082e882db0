//! `--error-format json` keeps to its documented schema
//! (docs/error-format-json.md): every line the golden cases run with it
//! print on standard error (`tests/cases/*/*/stderr`, which `cli_cases`
//! holds equal to the binary's) is one object with exactly the documented
//! fields, each of the documented type.

use serde_json::{Map, Value};
use std::path::PathBuf;

/// The fields of a record and of a span, as the document lists them.
const RECORD: [&str; 11] = [
    "severity",
    "kind",
    "message",
    "file",
    "word_offset",
    "instruction_index",
    "span",
    "source",
    "instruction",
    "help",
    "notes",
];
const SPAN: [&str; 6] = ["start", "end", "line", "column", "end_line", "end_column"];
const KINDS: [&str; 20] = [
    "Assembly",
    "Binary",
    "IdPastBound",
    "Undecoded",
    "UnsupportedVersion",
    "Command",
    "Version",
    "Layout",
    "FunctionStructure",
    "UndefinedId",
    "ForwardReference",
    "TypeValueMismatch",
    "Capability",
    "OperandType",
    "Dominance",
    "EntryPoint",
    "Decoration",
    "BuiltIn",
    "Limit",
    "StructuredControlFlow",
];

fn keys(object: &Map<String, Value>) -> Vec<&str> {
    let mut k: Vec<&str> = object.keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

fn sorted(names: &[&'static str]) -> Vec<&'static str> {
    let mut k = names.to_vec();
    k.sort_unstable();
    k
}

fn check_span(span: &Value, at: &str) {
    let Value::Object(span) = span else { panic!("{at}: span is not an object: {span}") };
    assert_eq!(keys(span), sorted(&SPAN), "{at}: span fields");
    for name in SPAN {
        assert!(span[name].is_u64(), "{at}: span.{name} is not a non-negative integer");
    }
    let n = |k: &str| span[k].as_u64().unwrap();
    assert!(n("start") <= n("end"), "{at}: start after end");
    assert!(n("line") >= 1 && n("column") >= 1, "{at}: lines and columns are 1-based");
    assert!((n("line"), n("column")) <= (n("end_line"), n("end_column")), "{at}: end before start");
}

fn check_record(line: &str, at: &str) {
    let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{at}: not JSON ({e}): {line}"));
    let Value::Object(r) = value else { panic!("{at}: not an object: {line}") };
    assert_eq!(keys(&r), sorted(&RECORD), "{at}: record fields");
    assert!(matches!(r["severity"].as_str(), Some("error" | "warning")), "{at}: severity");
    let kind = r["kind"].as_str().unwrap_or_else(|| panic!("{at}: kind is not a string"));
    assert!(KINDS.contains(&kind), "{at}: undocumented kind {kind}");
    assert!(r["message"].is_string(), "{at}: message");
    for name in ["file", "instruction", "help"] {
        assert!(r[name].is_string() || r[name].is_null(), "{at}: {name} is neither a string nor null");
    }
    for name in ["word_offset", "instruction_index"] {
        assert!(r[name].is_u64() || r[name].is_null(), "{at}: {name} is neither an integer nor null");
    }
    if let Value::Object(source) = &r["source"] {
        assert_eq!(keys(source), ["column", "file", "line", "line_text"], "{at}: source fields");
        assert!(source["file"].is_string(), "{at}: source file");
        assert!(source["line"].is_u64(), "{at}: source line");
        assert!(source["column"].is_u64() || source["column"].is_null(), "{at}: source column");
        assert!(source["line_text"].is_string() || source["line_text"].is_null(), "{at}: source line_text");
    } else {
        assert!(r["source"].is_null(), "{at}: source is neither an object nor null");
    }
    if !r["span"].is_null() {
        check_span(&r["span"], at);
    }
    let notes = r["notes"].as_array().unwrap_or_else(|| panic!("{at}: notes is not an array"));
    for note in notes {
        let Value::Object(note) = note else { panic!("{at}: a note is not an object") };
        assert_eq!(keys(note), ["message", "span"], "{at}: note fields");
        assert!(note["message"].is_string(), "{at}: note message");
        if !note["span"].is_null() {
            check_span(&note["span"], at);
        }
    }
}

#[test]
fn every_json_line_of_the_golden_cases_has_the_documented_fields_and_types() {
    let cases = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut checked = std::collections::BTreeSet::new();
    let mut records = 0;
    for group in std::fs::read_dir(&cases).unwrap() {
        let group = group.unwrap().path();
        let Ok(entries) = std::fs::read_dir(&group) else { continue };
        for case in entries {
            let case = case.unwrap().path();
            let cmd = std::fs::read_to_string(case.join("cmd")).unwrap_or_default();
            let args: Vec<&str> = cmd.lines().collect();
            if !args.windows(2).any(|w| w == ["--error-format", "json"]) {
                continue;
            }
            let stderr = std::fs::read_to_string(case.join("stderr")).unwrap();
            for (n, line) in stderr.lines().enumerate() {
                check_record(line, &format!("{}:{}", case.display(), n + 1));
                records += 1;
            }
            checked.insert(args[0].to_string());
        }
    }
    // Each subcommand that takes the option has cases, with records.
    assert_eq!(checked.into_iter().collect::<Vec<_>>(), ["as", "dis", "mali-pp", "val"]);
    assert!(records >= 15, "only {records} records");
}

#[test]
fn the_document_lists_every_field_and_kind() {
    let doc =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/error-format-json.md"))
            .unwrap();
    for name in RECORD.iter().chain(&SPAN).chain(&KINDS) {
        assert!(doc.contains(&format!("`{name}`")), "docs/error-format-json.md does not name `{name}`");
    }
}
