//! Golden tests: Mesa-compiled programs round-trip through dis and as; the
//! hand-derived vectors and the spec's worked examples assemble to their
//! words and disassemble to their text.

use gpuasm_mali::{assemble, disassemble, DisOptions};
use std::path::PathBuf;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

fn words_of(hex: &str) -> Vec<u32> {
    hex.split_whitespace().map(|w| u32::from_str_radix(w, 16).unwrap()).collect()
}

#[test]
fn mesa_programs_round_trip() {
    let mut n = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(corpus()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ppbin") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let text = disassemble(&words, &DisOptions::default());
        n += 1;
        match assemble(&text) {
            Ok(back) if back == words => {}
            Ok(_) => failures.push(format!("{}: words differ\n{text}", path.display())),
            Err(d) => failures.push(format!("{}: {d}\n{text}", path.display())),
        }
        assert!(!text.contains("raw.") && !text.contains("words "), "{}: fell back to raw\n{text}", path.display());
    }
    assert!(n >= 30);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// (title, text, words) of every vector in vectors.md.
fn vectors() -> Vec<(String, String, Vec<u32>)> {
    let md = std::fs::read_to_string(corpus().join("vectors.md")).unwrap();
    let mut out = Vec::new();
    let mut title = String::new();
    let mut text = None;
    for line in md.lines() {
        if let Some(t) = line.strip_prefix("## ") {
            title = t.to_string();
        } else if let Some(t) = line.trim_start().strip_prefix("text:") {
            text = Some(t.trim().to_string());
        } else if let Some(w) = line.trim_start().strip_prefix("words:") {
            out.push((title.clone(), text.take().unwrap(), words_of(w)));
        }
    }
    out
}

#[test]
fn vectors_assemble_and_disassemble_exactly() {
    let v = vectors();
    assert!(v.len() >= 60, "{}", v.len());
    let mut failures = Vec::new();
    for (title, text, words) in &v {
        match assemble(text) {
            Ok(w) if &w == words => {}
            Ok(w) => failures.push(format!("{title}: {text}\n   want {words:08x?}\n   got  {w:08x?}")),
            Err(d) => failures.push(format!("{title}: {text}: {d}")),
        }
        let back = disassemble(words, &DisOptions::default());
        if back.trim_end() != text {
            failures.push(format!("{title}: dis gives '{}' for '{text}'", back.trim_end()));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// The worked examples of the spec (section 6): text block, then `Words:`.
#[test]
fn worked_examples_both_ways() {
    let md = std::fs::read_to_string(corpus().join("spec-examples.md")).unwrap();
    let sec = &md[md.find("## 6. Worked examples").unwrap()..md.find("## 7.").unwrap()];
    let mut n = 0;
    let mut failures = Vec::new();
    for block in sec.split("### Example").skip(1) {
        let text: String = block
            .lines()
            .skip(1)
            .skip_while(|l| l.trim().is_empty())
            .take_while(|l| l.starts_with("    "))
            .map(|l| format!("{}\n", &l[4..]))
            .collect();
        let w = block.lines().find_map(|l| l.strip_prefix("Words: ")).unwrap();
        let words = words_of(w.split('`').nth(1).unwrap());
        n += 1;
        match assemble(&text) {
            Ok(got) if got == words => {}
            Ok(got) => failures.push(format!("{text}want {words:08x?}\ngot  {got:08x?}")),
            Err(d) => failures.push(format!("{text}{d}")),
        }
        let back = disassemble(&words, &DisOptions::default());
        if back != text {
            failures.push(format!("dis:\n{back}expected:\n{text}"));
        }
    }
    assert_eq!(n, 8);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
