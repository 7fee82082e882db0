//! The disassembler: words to canonical text (spec 5.13). Every field whose
//! normal spelling does not assemble back to the same bits is printed as
//! `raw.<unit>`, and undecodable instructions as `words`, so reassembling
//! the output always reproduces the input exactly.
//!
//! ```
//! use gpuasm_mali::{assemble, disassemble, DisOptions};
//!
//! let words = [0x0002_0425, 0x0000_015c, 0x01e0_07cf, 0, 0];
//! let text = disassemble(&words, &DisOptions::default().offsets(true));
//! assert_eq!(text, "stop, mov.v0 $0 ^const0.yyyx, const0 1 0 0 0 # @0\n");
//! assert_eq!(assemble(&text).unwrap(), words);
//! ```

use crate::operand;
use crate::program::{self, bits, unit, Instruction, DISCARD};
use crate::units::*;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Disassembler switches; the default prints the canonical text.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct DisOptions {
    /// A `# @offset` comment after each instruction.
    pub offsets: bool,
    /// Print every present field as `raw.<unit>` with its bits.
    pub raw_fields: bool,
}

impl DisOptions {
    /// Sets [`DisOptions::offsets`].
    pub fn offsets(mut self, on: bool) -> Self {
        self.offsets = on;
        self
    }

    /// Sets [`DisOptions::raw_fields`].
    pub fn raw_fields(mut self, on: bool) -> Self {
        self.raw_fields = on;
        self
    }
}

enum Decoded {
    Inst(Box<Instruction>),
    Words(Vec<u32>),
}

/// Disassembles a program: one instruction a line, a label `L<offset>:`
/// before every branch target.
pub fn disassemble(words: &[u32], options: &DisOptions) -> String {
    // Split into instructions first: labels need every offset.
    let mut items: Vec<(usize, Decoded)> = Vec::new();
    let mut pos = 0;
    while pos < words.len() {
        match program::decode(&words[pos..]) {
            Ok((inst, len)) => {
                items.push((pos, Decoded::Inst(Box::new(inst))));
                pos += len;
            }
            Err(e) => {
                items.push((pos, Decoded::Words(words[pos..pos + e.len].to_vec())));
                pos += e.len;
            }
        }
    }
    let lengths: BTreeMap<usize, usize> = items
        .iter()
        .map(|(off, d)| {
            let len = match d {
                Decoded::Inst(i) => i.len(),
                Decoded::Words(w) => w.len(),
            };
            (*off, len)
        })
        .collect();
    // Branch targets that are instruction starts get labels.
    let mut labels = std::collections::BTreeSet::new();
    for (off, d) in &items {
        if let Decoded::Inst(inst) = d {
            if let Some(f) = inst.fields[unit::BRANCH] {
                if let Some(t) = branch_target(*off, f) {
                    if lengths.contains_key(&t) {
                        labels.insert(t);
                    }
                }
            }
        }
    }
    let mut out = String::new();
    for (n, (off, d)) in items.iter().enumerate() {
        if labels.contains(off) {
            let _ = writeln!(out, "L{off}:");
        }
        let next_len = items.get(n + 1).map(|(o, _)| lengths[o]);
        let line = match d {
            Decoded::Words(w) => {
                format!("words {}", w.iter().map(|x| format!("0x{x:08x}")).collect::<Vec<_>>().join(" "))
            }
            Decoded::Inst(inst) => instruction_text(inst, *off, next_len, &lengths, options),
        };
        out.push_str(&line);
        if options.offsets {
            let _ = write!(out, " # @{off}");
        }
        out.push('\n');
    }
    out
}

fn branch_target(off: usize, f: u128) -> Option<usize> {
    if f == DISCARD {
        return None;
    }
    let t = ((bits(f, 41, 27) << 5) as i32) >> 5;
    usize::try_from(off as i64 + t as i64).ok()
}

fn instruction_text(
    inst: &Instruction,
    off: usize,
    next_len: Option<usize>,
    lengths: &BTreeMap<usize, usize>,
    options: &DisOptions,
) -> String {
    let mut items: Vec<String> = Vec::new();
    if inst.stop {
        items.push("stop".into());
    }
    if inst.sync {
        items.push("sync".into());
    }
    for (u, field) in inst.fields.iter().enumerate() {
        let Some(v) = *field else { continue };
        let text = if options.raw_fields && u < 10 {
            None
        } else {
            match u {
                unit::CONST0 => Some(format!("const0 {}", print_const(v))),
                unit::CONST1 => Some(format!("const1 {}", print_const(v))),
                unit::BRANCH => print_branch(v, off, lengths),
                _ => print_unit(u, v).filter(|t| parse_unit_item(u, t) == Ok(v)),
            }
        };
        items.push(text.unwrap_or_else(|| raw_item(u, v)));
    }
    let (default_next, default_prefetch) = match next_len {
        Some(l) => (l as u32, true),
        None => (0, false),
    };
    if inst.next_count != default_next {
        items.push(format!("next {}", inst.next_count));
    }
    if inst.prefetch != default_prefetch {
        items.push(if inst.prefetch { "prefetch" } else { "noprefetch" }.into());
    }
    if inst.ctrl_unknown != 0 {
        items.push(format!("ctrl_unknown 0x{:02x}", inst.ctrl_unknown));
    }
    // An instruction with nothing else to show (no unit, no stop) still
    // needs a line: an empty one is not an instruction.
    if items.is_empty() {
        items.push(if inst.prefetch { "prefetch" } else { "noprefetch" }.into());
    }
    items.join(", ")
}

fn print_branch(v: u128, off: usize, lengths: &BTreeMap<usize, usize>) -> Option<String> {
    if v == DISCARD {
        return Some("discard".into());
    }
    (bits(v, 0, 4) == 0 && bits(v, 19, 22) == 0).then_some(())?;
    let (arg1, arg0) = (bits(v, 4, 6), bits(v, 10, 6));
    let cond = bits(v, 18, 1) | bits(v, 17, 1) << 1 | bits(v, 16, 1) << 2;
    let rel = ((bits(v, 41, 27) << 5) as i32) >> 5;
    let next = bits(v, 68, 5);
    let target = off as i64 + rel as i64;
    let t = match usize::try_from(target).ok().and_then(|t| lengths.get(&t).map(|&l| (t, l))) {
        Some((t, len)) => (next as usize == len).then(|| format!("L{t}"))?,
        None => (next == 0).then(|| format!("{rel:+}"))?,
    };
    if cond == 7 {
        return (arg0 == 0 && arg1 == 0).then(|| format!("branch {t}"));
    }
    Some(format!("branch_{} {} {} {t}", BRANCH_CONDITIONS[cond as usize], operand::sreg(arg0), operand::sreg(arg1)))
}
