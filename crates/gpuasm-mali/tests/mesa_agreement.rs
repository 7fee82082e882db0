//! Mesa's own disassembly of every corpus program, translated into our
//! spelling with the cheat sheet of spec section 5 and assembled, must give
//! exactly the program's words: our fields agree with Mesa's by meaning.
//! One trial per program (`mesa/NAME`).

mod common;

use common::{case_name, mesa_programs, mesa_store_words, plain, read_words, Failed, Trial};
use gpuasm_mali::assemble;
use std::path::Path;

/// Operand counts (destination included) of the ops whose pipeline
/// destination Mesa leaves out.
fn full_arity(op: &str) -> Option<usize> {
    let base = op.split('.').next()?;
    match base {
        "mov" | "not" | "fract" | "floor" | "ceil" | "sum3" | "sum4" | "rcp" | "sqrt" | "rsqrt" | "exp2" | "log2"
        | "sin" | "cos" => Some(2),
        _ => Some(3),
    }
}

/// One Mesa item in gpuasm spelling.
fn translate_item(item: &str) -> String {
    let item = item.trim();
    let mut toks: Vec<String> = item.split_whitespace().map(str::to_string).collect();
    if toks.is_empty() {
        return String::new();
    }
    let op = toks[0].clone();
    // Operands: Mesa's names and abs() spelling.
    for t in toks.iter_mut().skip(1) {
        *t = t.replace("^texture", "^tex").replace("^uniform", "^u").replace("^discard", "^tex_coord");
        if let Some(m) = t.strip_suffix('.') {
            *t = m.to_string(); // `^discard.` = mask 0
        }
        if let Some(inner) = t.strip_prefix("cube(").and_then(|x| x.strip_suffix(')')) {
            *t = inner.to_string();
        }
    }
    let args: Vec<String> = toks[1..].to_vec();
    let mut op = op;
    if item.contains("cube(") {
        op = op.replace("load.", "load_cube.");
    }
    op = op.replace("load.perspective.w.v", "load_projw.v").replace("load.perspective.z.v", "load_projz.v");
    if op == "texld.b" {
        op = "texld".into();
    }
    let mut args = args;
    if op == "texld.cube" {
        op = "texld".into();
        args.push("-1.0".into());
    }
    if op.starts_with("branch") {
        let target = args.pop().unwrap();
        let op = op.replace("branch.", "branch_");
        return format!("{op} {} L{target}", args.join(" ")).replace("  ", " ");
    }
    if op == "const0" || op == "const1" {
        // Mesa prints %f approximations: take the binary16 they round to.
        let exact: Vec<String> = args
            .iter()
            .map(|a| format!("0x{:04x}", gpuasm_mali::half::f64_to_half(a.parse::<f64>().unwrap())))
            .collect();
        return format!("{op} {}", exact.join(" "));
    }
    // Pipeline destinations Mesa does not print.
    let is_alu = [".v0", ".s0", ".v1", ".s1", ".s2"].iter().any(|u| op.ends_with(u));
    if is_alu && full_arity(&op) == Some(args.len() + 1) {
        let pipe = match &op[op.len() - 3..] {
            ".v0" => "^v0",
            ".s0" => "^s0",
            ".v1" => "^v1",
            _ => "^s1",
        };
        args.insert(0, pipe.to_string());
    }
    format!("{op} {}", args.join(" ")).trim().to_string()
}

/// One program: Mesa's disassembly (`NAME.dis`), translated, assembles to
/// the program's words.
fn mesa_disassembly_means_what_we_decode(ppbin: &Path) -> Result<(), Failed> {
    let path = ppbin.with_extension("dis");
    let dis = std::fs::read_to_string(&path).unwrap();
    let words = read_words(ppbin);
    let text = translate(&dis);
    let got = assemble(&text).map_err(|d| format!("{}: {}\n{text}", path.display(), d))?;
    if got == words {
        Ok(())
    } else {
        let at = (0..got.len().max(words.len())).find(|&i| got.get(i) != words.get(i));
        Err(format!("{}: words differ from the program's, first at word {at:?}\n{text}", path.display()).into())
    }
}

/// Mesa's listing in our spelling, one `L<offset>:` label per instruction.
fn translate(dis: &str) -> String {
    let mut text = String::new();
    for line in dis.lines() {
        let (at, body) = line.split_once(':').unwrap();
        let offset: usize = at.trim_start_matches('@').trim().parse().unwrap();
        text.push_str(&format!("L{offset}:\n"));
        let mut front = Vec::new();
        let mut items = Vec::new();
        for item in body.split(',') {
            let t = item.trim();
            match t {
                "stop" | "sync" => front.push(t.to_string()),
                "" => {}
                _ => items.push(translate_item(t)),
            }
        }
        front.sort_by_key(|f| if f == "stop" { 0 } else { 1 });
        front.extend(items);
        text.push_str(&front.join(", "));
        text.push('\n');
    }
    text
}

/// Both corpora are all there: 138 programs, over 4500 instructions.
fn mesa_corpus_is_complete() {
    let programs = mesa_programs();
    let instructions: usize =
        programs.iter().map(|p| std::fs::read_to_string(p.with_extension("dis")).unwrap().lines().count()).sum();
    assert!(programs.len() >= 138 && instructions > 4500, "{} programs, {instructions} instructions", programs.len());
}

/// Mesa's spelling of its own spill stores, as its disassembler prints them
/// (`index / 2`, `index / 4` truncating, `.xy`/`.x` since Mesa's index is
/// always a slot's first component), means the words its encoder writes,
/// at every slot and size.
fn mesa_spill_store_spelling_means_its_words() {
    let mut failures = Vec::new();
    for components in 1..=4u32 {
        let units = if components >= 3 { 1 } else { 1i64 << (3 - components) };
        for slot in -32768 / units..32768 / units {
            let reg = slot.rem_euclid(12);
            let index = slot * units;
            let mesa = match components {
                1 => format!("store.t {}.x ${reg}.x", index / 4),
                2 => format!("store.t {}.xy ${reg}", index / 2),
                _ => format!("store.t {index} ${reg}"),
            };
            let ours = translate_item(&mesa);
            let want = mesa_store_words(slot, components, reg as u32);
            match assemble(&ours) {
                Ok(got) if got == want => {}
                Ok(got) => failures.push(format!("{mesa}: {got:08x?}, want {want:08x?}")),
                Err(d) => failures.push(format!("{mesa}: {d}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures, first:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

fn main() {
    let mut all = vec![
        plain("mesa: corpus complete", mesa_corpus_is_complete),
        plain("mesa_spill_store_spelling_means_its_words", mesa_spill_store_spelling_means_its_words),
    ];
    for path in mesa_programs() {
        all.push(Trial::test(format!("mesa/{}", case_name(&path)), move || {
            mesa_disassembly_means_what_we_decode(&path)
        }));
    }
    common::run(all)
}
