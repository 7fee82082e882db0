//! Golden tests: Mesa-compiled programs round-trip through dis and as; the
//! hand-derived vectors and the spec's worked examples assemble to their
//! words and disassemble to their text. One trial per program
//! (`mesa/NAME`, `mesa/lima2/NAME`) and per vector (`vector/TITLE`).

mod common;

use common::{case_name, corpus, field_words, hex_words, mesa_programs, mesa_store_words, plain, read_words};
use common::{Failed, Trial};
use gpuasm_mali::{assemble, disassemble, DisOptions};
use std::path::Path;

fn words_of(hex: &str) -> Vec<u32> {
    hex.split_whitespace().map(|w| u32::from_str_radix(w, 16).unwrap()).collect()
}

/// Instruction lines of a disassembly (labels left out).
fn instruction_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| !l.ends_with(':'))
}

/// A line that fell back to `raw.<unit>` or `words` (spec 5.12).
fn is_fallback(line: &str) -> bool {
    line.starts_with("words ") || line.split(", ").any(|item| item.starts_with("raw."))
}

/// One Mesa program: dis then as gives back its words, its hex listing
/// disassembles to the same text, and every instruction Mesa emitted prints
/// in its normal spelling: zero `raw.`/`words` fallbacks.
fn mesa_program_round_trips_without_fallbacks(path: &Path) -> Result<(), Failed> {
    let words = read_words(path);
    let text = disassemble(&words, &DisOptions::default());
    let mut failures = Vec::new();
    for line in instruction_lines(&text) {
        if is_fallback(line) {
            failures.push(format!("{}: fallback: {line}", path.display()));
        }
    }
    match assemble(&text) {
        Ok(back) if back == words => {}
        Ok(_) => failures.push(format!("{}: words differ\n{text}", path.display())),
        Err(d) => failures.push(format!("{}: {d}\n{text}", path.display())),
    }
    let listing = std::fs::read_to_string(path.with_extension("hex")).unwrap();
    if hex_words(&listing) != words {
        failures.push(format!("{}: the hex listing holds other words", path.display()));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

/// Both corpora are all there: 138 programs, over 4500 instructions.
fn mesa_corpus_is_complete() {
    let programs = mesa_programs();
    let instructions: usize =
        programs.iter().map(|p| instruction_lines(&disassemble(&read_words(p), &DisOptions::default())).count()).sum();
    assert!(programs.len() >= 138 && instructions > 4500, "{} programs, {instructions} instructions", programs.len());
}

/// Temporary stores as Mesa's encoder writes them, for every slot whose
/// index fits the 16-bit field and every size Mesa spills (1-4
/// components), print in the normal spelling and assemble back: the
/// default `offset_reg` is Mesa's, (slot >> 2) & 63 (spec 5.9).
fn mesa_spill_stores_print_normally_at_every_slot() {
    let mut failures = Vec::new();
    for components in 1..=4u32 {
        let units = if components >= 3 { 1 } else { 1i64 << (3 - components) };
        for slot in -32768 / units..32768 / units {
            let reg = slot.rem_euclid(12) as u32;
            let words = mesa_store_words(slot, components, reg);
            let want = match components {
                1 => format!("store.t {slot}.x ${reg}.x"),
                2 => format!("store.t {slot}.xy ${reg}"),
                _ => format!("store.t {slot} ${reg}"),
            };
            check_store(&words, &want, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures, first:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// The same rule for the partial slots Mesa never writes (`.zw`, `.y`,
/// `.z`, `.w`): the default comes from the slot N written in the text, not
/// from the index field 2N+h / 4N+c.
fn partial_stores_take_the_default_from_the_slot() {
    let mut failures = Vec::new();
    for (alignment, parts) in [(1u32, &["xy", "zw"][..]), (0, &["x", "y", "z", "w"][..])] {
        let per_slot = parts.len() as i64;
        for index in -32768i64..32768 {
            let slot = index.div_euclid(per_slot);
            let part = parts[index.rem_euclid(per_slot) as usize];
            let s = (index.rem_euclid(48)) as u32; // any scalar register for alignment 0
            let (source, src_text) = if alignment == 0 {
                (s, format!("${}.{}", s / 4, ["x", "y", "z", "w"][s as usize % 4]))
            } else {
                (4 * (s % 12), format!("${}", s % 12))
            };
            let words = field_words(index, alignment, source, ((slot >> 2) & 63) as u32);
            check_store(&words, &format!("store.t {slot}.{part} {src_text}"), &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures, first:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// The case: `store.t -3.xy $5` has index -6 and offset_reg 63.
fn store_minus_three_xy_gets_offset_reg_63() {
    let words = assemble("store.t -3.xy $5").unwrap();
    assert_eq!(words, [0x0000_8003, 0xf4fc_0543, 0x0000_01ff]);
    assert_eq!((words[1] >> 18) & 63, 63);
}

fn check_store(words: &[u32], want: &str, failures: &mut Vec<String>) {
    let text = disassemble(words, &DisOptions::default());
    if text.trim_end() != want {
        failures.push(format!("{words:08x?}: dis gives '{}', want '{want}'", text.trim_end()));
    }
    match assemble(want) {
        Ok(back) if back == words => {}
        Ok(back) => failures.push(format!("{want}: as gives {back:08x?}, want {words:08x?}")),
        Err(d) => failures.push(format!("{want}: {d}")),
    }
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

/// One vector of vectors.md: its text assembles to its words and back.
fn vector_both_ways(title: &str, text: &str, words: &[u32]) -> Result<(), Failed> {
    let mut failures = Vec::new();
    match assemble(text) {
        Ok(w) if w == words => {}
        Ok(w) => failures.push(format!("{title}: {text}\n   want {words:08x?}\n   got  {w:08x?}")),
        Err(d) => failures.push(format!("{title}: {text}: {d}")),
    }
    let back = disassemble(words, &DisOptions::default());
    if back.trim_end() != text {
        failures.push(format!("{title}: dis gives '{}' for '{text}'", back.trim_end()));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

/// The worked examples of the spec (section 6): text block, then `Words:`.
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

fn main() {
    let mut all = vec![
        plain("mesa: corpus complete", mesa_corpus_is_complete),
        plain("mesa_spill_stores_print_normally_at_every_slot", mesa_spill_stores_print_normally_at_every_slot),
        plain("partial_stores_take_the_default_from_the_slot", partial_stores_take_the_default_from_the_slot),
        plain("store_minus_three_xy_gets_offset_reg_63", store_minus_three_xy_gets_offset_reg_63),
        plain("worked_examples_both_ways", worked_examples_both_ways),
    ];
    for path in mesa_programs() {
        all.push(Trial::test(format!("mesa/{}", case_name(&path)), move || {
            mesa_program_round_trips_without_fallbacks(&path)
        }));
    }
    let v = vectors();
    let n = v.len();
    all.push(Trial::test(
        "vectors: at least 60",
        move || {
            if n >= 60 {
                Ok(())
            } else {
                Err(format!("{n} vectors").into())
            }
        },
    ));
    for (title, text, words) in v {
        all.push(Trial::test(format!("vector/{title}"), move || vector_both_ways(&title, &text, &words)));
    }
    common::run(all)
}
