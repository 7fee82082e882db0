//! The assembler: section 5 syntax to words. Two passes: the first finds
//! each instruction's units (hence its length) and the labels' offsets, the
//! second encodes the fields, branch targets and control words. Errors do
//! not stop it: every independent one is reported, as [`Diagnostics`].
//!
//! ```
//! use gpuasm_mali::assemble;
//!
//! let text = "L0:\nsync, texld 0, branch L0\nstop, mov.v0 $12 $1\n";
//! let diags = assemble(text).unwrap_err();
//! assert_eq!(
//!     diags.render("a.s", text),
//!     "\
//! a.s:3:14: error: bad vector destination '$12'
//!  3 | stop, mov.v0 $12 $1
//!    |              ^~~
//! "
//! );
//! ```

use crate::operand::parse_sreg;
use crate::program::{length_for, unit, Instruction, RAW_NAMES};
use crate::units::*;
use gpuasm_diag::{Diagnostic, Diagnostics, Severity};
use std::collections::HashMap;

/// Pass 1's view of an instruction: which units it has (with placeholder
/// values), or its words when written as `words`.
type Plan = ([Option<u128>; 12], Option<Vec<u32>>);

/// One item of an instruction, with where it stands in the text.
#[derive(Debug, Clone)]
struct Item {
    text: String,
    /// Byte offset of the item in the source.
    at: usize,
    line: u32,
    column: u32,
}

#[derive(Debug)]
struct Line {
    items: Vec<Item>,
    labels: Vec<(String, usize, u32, u32)>,
}

/// Assembles a program; on failure, every error found.
pub fn assemble(text: &str) -> Result<Vec<u32>, Diagnostics> {
    assemble_with_warnings(text).map(|(w, _)| w)
}

/// Like [`assemble`], also returning warnings (missing `sync` or `stop`,
/// registers `$6`-`$11`).
pub fn assemble_with_warnings(text: &str) -> Result<(Vec<u32>, Diagnostics), Diagnostics> {
    let mut diags = Diagnostics::default();
    let lines = split_lines(text, &mut diags);
    // Pass 1: units present (hence lengths) and label offsets.
    let mut plans: Vec<Plan> = Vec::new();
    let mut labels: HashMap<String, usize> = HashMap::new();
    let mut offset = 0usize;
    let mut pending: Vec<(String, usize, u32, u32)> = Vec::new();
    for line in &lines {
        pending.extend(line.labels.iter().cloned());
        if line.items.is_empty() {
            continue;
        }
        let mut present = [None; 12];
        let mut words = None;
        for item in &line.items {
            let op = item.text.split_whitespace().next().unwrap_or("");
            if op.eq_ignore_ascii_case("words") {
                let w: Result<Vec<u32>, _> = item.text.split_whitespace().skip(1).map(parse_u32).collect();
                match w {
                    Ok(w) if !w.is_empty() && line.items.len() == 1 => words = Some(w),
                    _ => diags.items.push(error(item, "'words' takes 32-bit numbers and must be the only item")),
                }
            } else if let Some(u) = item_unit(op) {
                present[u] = Some(0);
            }
        }
        for (name, at, l, c) in pending.drain(..) {
            if labels.insert(name.clone(), offset).is_some() {
                diags.items.push(label_error(&name, at, l, c, "is defined twice"));
            }
        }
        offset += words.as_ref().map_or_else(|| length_for(&present), |w| w.len());
        plans.push((present, words));
    }
    for (name, at, l, c) in pending {
        diags.items.push(label_error(&name, at, l, c, "is not followed by an instruction"));
    }
    let mut lengths: HashMap<usize, usize> = HashMap::new();
    let mut o = 0;
    for (present, words) in &plans {
        let len = words.as_ref().map_or_else(|| length_for(present), |w| w.len());
        lengths.insert(o, len);
        o += len;
    }

    // Pass 2: encode.
    let mut out = Vec::new();
    let mut offset = 0usize;
    let code_lines: Vec<&Line> = lines.iter().filter(|l| !l.items.is_empty()).collect();
    let n = code_lines.len();
    for (k, line) in code_lines.iter().enumerate() {
        let (present, words) = &plans[k];
        if let Some(w) = words {
            out.extend_from_slice(w);
            offset += w.len();
            continue;
        }
        let len = length_for(present);
        let next_len = if k + 1 < n {
            Some(plans[k + 1].1.as_ref().map_or_else(|| length_for(&plans[k + 1].0), |w| w.len()))
        } else {
            None
        };
        let mut inst = Instruction::default();
        let (mut next, mut prefetch) = (None, None);
        let mut last_unit: Option<(usize, &Item)> = None;
        for item in &line.items {
            let mut toks = item.text.split_whitespace();
            let op = toks.next().unwrap_or("");
            let args: Vec<&str> = toks.collect();
            let lower = op.to_ascii_lowercase();
            let r: Result<(), String> = match lower.as_str() {
                "stop" => no_args(&args).map(|_| inst.stop = true),
                "sync" => no_args(&args).map(|_| inst.sync = true),
                "prefetch" => no_args(&args).map(|_| prefetch = Some(true)),
                "noprefetch" => no_args(&args).map(|_| prefetch = Some(false)),
                "next" => one_number(&args, 63).map(|v| next = Some(v)),
                "ctrl_unknown" => one_number(&args, 63).map(|v| inst.ctrl_unknown = v),
                _ => {
                    let Some(u) = item_unit(op) else {
                        diags.items.push(error(item, format!("unknown item '{op}'")));
                        continue;
                    };
                    if let Some((prev, prev_item)) = last_unit {
                        if u <= prev {
                            let what = if u == prev { "appears twice" } else { "is out of unit order" };
                            let mut d =
                                error(item, format!("'{}' {what}: it must come after '{}'", item.text, prev_item.text));
                            d.help = Some("units go in this order: varying, texld, load.u/t, .v0, .s0, .v1, .s1, .s2, store.t, branch, const0, const1".into());
                            diags.items.push(d);
                            continue;
                        }
                    }
                    last_unit = Some((u, item));
                    let value = if u == unit::BRANCH {
                        parse_branch(op, &args, offset, &labels, &lengths)
                    } else {
                        parse_unit_item(u, &item.text)
                    };
                    value.map(|v| inst.fields[u] = Some(v))
                }
            };
            if let Err(m) = r {
                diags.items.push(error(item, m));
            }
        }
        let (dn, dp) = match next_len {
            Some(l) => (l as u32, true),
            None => (0, false),
        };
        inst.next_count = next.unwrap_or(dn);
        inst.prefetch = prefetch.unwrap_or(dp);
        warn_sync(&inst, line, &mut diags);
        if k + 1 == n && !inst.stop {
            diags.items.push(warning(&line.items[0], "the last instruction has no 'stop'"));
        }
        inst.encode(&mut out);
        offset += len;
    }
    if diags.has_errors() {
        Err(diags)
    } else {
        Ok((out, diags))
    }
}

fn warn_sync(inst: &Instruction, line: &Line, diags: &mut Diagnostics) {
    if inst.sync {
        return;
    }
    let needs = inst.fields[unit::SAMPLER].is_some()
        || [unit::VADD, unit::FADD].iter().any(|&u| {
            inst.fields[u].is_some_and(|v| {
                let op = if u == unit::VADD { crate::program::bits(v, 38, 5) } else { crate::program::bits(v, 25, 5) };
                op == 20 || op == 21
            })
        });
    if needs {
        diags.items.push(warning(&line.items[0], "texld and dFdx/dFdy need 'sync' in their instruction"));
    }
}

fn no_args(args: &[&str]) -> Result<(), String> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(format!("unexpected operand '{}'", args[0]))
    }
}

fn one_number(args: &[&str], max: u32) -> Result<u32, String> {
    match args {
        [a] => {
            parse_u32(a).ok().filter(|&v| v <= max).ok_or_else(|| format!("expected a number up to {max}, found '{a}'"))
        }
        _ => Err("expected one number".into()),
    }
}

fn parse_u32(s: &str) -> Result<u32, std::num::ParseIntError> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => s.parse(),
    }
}

/// Which unit an item's opcode token belongs to.
fn item_unit(op: &str) -> Option<usize> {
    let l = op.to_ascii_lowercase();
    if let Some(r) = l.strip_prefix("raw.") {
        return RAW_NAMES.iter().position(|&n| n == r);
    }
    match l.as_str() {
        "texld" | "texldl" | "texld_2d" => return Some(unit::SAMPLER),
        "discard" => return Some(unit::BRANCH),
        "const0" => return Some(unit::CONST0),
        "const1" => return Some(unit::CONST1),
        "load.u" | "load.t" => return Some(unit::UNIFORM),
        "store.t" | "fb_color.t" | "fb_depth.t" => return Some(unit::STORE),
        _ => {}
    }
    if l == "branch" || l.starts_with("branch_") {
        return Some(unit::BRANCH);
    }
    match split_op(op).unit.as_str() {
        "v" => Some(unit::VARYING),
        "v0" => Some(unit::VMUL),
        "s0" => Some(unit::FMUL),
        "v1" => Some(unit::VADD),
        "s1" => Some(unit::FADD),
        "s2" => Some(unit::COMBINER),
        _ => None,
    }
}

fn parse_branch(
    op: &str,
    args: &[&str],
    offset: usize,
    labels: &HashMap<String, usize>,
    lengths: &HashMap<usize, usize>,
) -> Result<u128, String> {
    let l = op.to_ascii_lowercase();
    if l == "discard" || l.starts_with("raw.") {
        return parse_unit_item(unit::BRANCH, &format!("{op} {}", args.join(" ")));
    }
    let (cond, srcs, target) = if l == "branch" {
        let [t] = args else { return Err("branch takes a target".into()) };
        (7u32, (0, 0), *t)
    } else {
        let name = l.strip_prefix("branch_").unwrap_or("");
        let c = BRANCH_CONDITIONS
            .iter()
            .position(|&c| c == name)
            .ok_or_else(|| format!("unknown branch condition '{name}'"))?;
        let [a, b, t] = args else { return Err(format!("{op} takes two scalar sources and a target")) };
        let a = parse_sreg(a).ok_or_else(|| format!("bad scalar source '{a}'"))?;
        let b = parse_sreg(b).ok_or_else(|| format!("bad scalar source '{b}'"))?;
        (c as u32, (a, b), *t)
    };
    let (target_off, next): (i64, u32) = if target.starts_with('+') || target.starts_with('-') {
        let rel: i64 = target.parse().map_err(|_| format!("bad relative target '{target}'"))?;
        let abs = offset as i64 + rel;
        let next = usize::try_from(abs).ok().and_then(|a| lengths.get(&a)).map_or(0, |&l| l as u32);
        (rel, next)
    } else {
        let &t = labels.get(target).ok_or_else(|| format!("no label '{target}'"))?;
        (t as i64 - offset as i64, lengths[&t] as u32)
    };
    if !(-(1 << 26)..(1 << 26)).contains(&target_off) {
        return Err("branch target too far".into());
    }
    let lt = cond & 1;
    let eq = (cond >> 1) & 1;
    let gt = (cond >> 2) & 1;
    let mut v: u128 = (srcs.1 as u128) << 4 | (srcs.0 as u128) << 10;
    v |= (gt as u128) << 16 | (eq as u128) << 17 | (lt as u128) << 18;
    v |= ((target_off as u32 & 0x7ff_ffff) as u128) << 41;
    v |= ((next & 31) as u128) << 68;
    Ok(v)
}

/// An error on an item, pointing at the operand the message quotes
/// (`'…'`) when it is one of the item's tokens, else at the opcode.
fn error(item: &Item, message: impl Into<String>) -> Diagnostic {
    let message = message.into();
    let op_len = item.text.split_whitespace().next().map_or(1, str::len);
    let (mut start, mut len) = (0, op_len);
    if let Some(quoted) = message.split('\'').nth(1) {
        let mut offset = 0;
        for tok in item.text.split_whitespace().skip(1) {
            let at = item.text[offset..].find(tok).map(|p| p + offset).unwrap_or(0);
            offset = at + tok.len();
            if let Some(p) = tok.find(quoted).filter(|_| !quoted.is_empty()) {
                start = at + p;
                len = quoted.len();
                break;
            }
        }
    }
    Diagnostic {
        severity: Severity::Error,
        line: item.line,
        column: item.column + start as u32,
        span: item.at + start..item.at + start + len,
        message,
        help: None,
    }
}

/// An error on the label `name` written at byte `at` (line `line`, column `column`).
fn label_error(name: &str, at: usize, line: u32, column: u32, what: &str) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        line,
        column,
        span: at..at + name.len(),
        message: format!("label '{name}' {what}"),
        help: None,
    }
}

fn warning(item: &Item, message: impl Into<String>) -> Diagnostic {
    Diagnostic { severity: Severity::Warning, ..error(item, message) }
}

/// Splits the text into instructions: comments removed, continuation lines
/// (ending in `,`) joined, labels taken out, items split at commas.
fn split_lines(text: &str, diags: &mut Diagnostics) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut current = Line { items: Vec::new(), labels: Vec::new() };
    let mut continuing = false;
    let mut at = 0usize;
    for (n, raw) in text.split('\n').enumerate() {
        let line_no = n as u32 + 1;
        let line_start = at;
        at += raw.len() + 1;
        let code = raw.split('#').next().unwrap_or("").trim_end_matches(['\r', ' ', '\t']);
        let trimmed = code.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        let lead = code.len() - trimmed.len();
        if !continuing {
            if let Some(name) = trimmed.strip_suffix(':') {
                if !name.is_empty()
                    && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    current.labels.push((name.to_string(), line_start + lead, line_no, lead as u32 + 1));
                    continue;
                }
                diags.items.push(Diagnostic {
                    severity: Severity::Error,
                    line: line_no,
                    column: lead as u32 + 1,
                    span: line_start + lead..line_start + code.len(),
                    message: format!("bad label '{name}': letters, digits and '_', not starting with a digit"),
                    help: None,
                });
                continue;
            }
        }
        let mut col = lead;
        for part in trimmed.split(',') {
            let t = part.trim();
            if !t.is_empty() {
                let off = col + (part.len() - part.trim_start().len());
                current.items.push(Item {
                    text: t.to_string(),
                    at: line_start + off,
                    line: line_no,
                    column: off as u32 + 1,
                });
            }
            col += part.len() + 1;
        }
        continuing = trimmed.ends_with(',');
        if !continuing {
            lines.push(std::mem::replace(&mut current, Line { items: Vec::new(), labels: Vec::new() }));
        }
    }
    if !current.items.is_empty() || !current.labels.is_empty() {
        lines.push(current);
    }
    lines
}
