//! Text forms of the unit fields (spec sections 3 and 5.6-5.11): one
//! printer and one parser per unit over the same layout. The disassembler
//! only uses a printed form if parsing it gives back the same bits, so every
//! field round-trips (else it is printed raw).

use crate::half::{half_text, half_to_f64, parse_half};
use crate::operand::*;
use crate::program::{bits, unit, DISCARD, RAW_NAMES, UNIT_WIDTHS};

/// An item's opcode token split up: `add_sat.v1` → ("add", 1, "v1").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpToken {
    pub name: String,
    pub modifier: u32,
    pub unit: String,
}

/// Splits `name[_x2][_sat].unit` (also Mesa's `name.sat.unit`).
pub fn split_op(tok: &str) -> OpToken {
    let lower = tok.to_ascii_lowercase();
    let (mut base, unit) = match lower.rsplit_once('.') {
        Some((b, u)) => (b.to_string(), u.to_string()),
        None => (lower.clone(), String::new()),
    };
    let mut modifier = 0;
    for (i, m) in DEST_MODIFIERS.iter().enumerate().skip(1) {
        let dotted = format!(".{}", &m[1..]);
        if let Some(b) = base.strip_suffix(m).or_else(|| base.strip_suffix(dotted.as_str())) {
            base = b.to_string();
            modifier = i as u32;
            break;
        }
    }
    OpToken { name: base, modifier, unit }
}

type ParseResult = Result<u128, String>;

// ---- any unit, by number ----------------------------------------------

/// `raw.<unit> 0x…` with ceil(width/4) digits.
pub fn raw_item(u: usize, v: u128) -> String {
    let digits = UNIT_WIDTHS[u].div_ceil(4) as usize;
    format!("raw.{} 0x{v:0digits$x}", RAW_NAMES[u])
}

/// The normal spelling of a unit field other than branch and constants.
pub fn print_unit(u: usize, v: u128) -> Option<String> {
    match u {
        unit::VARYING => print_varying(v),
        unit::SAMPLER => print_sampler(v),
        unit::UNIFORM => print_uniform(v),
        unit::VMUL => print_alu(Alu { vector: true, adder: false }, v),
        unit::FMUL => print_alu(Alu { vector: false, adder: false }, v),
        unit::VADD => print_alu(Alu { vector: true, adder: true }, v),
        unit::FADD => print_alu(Alu { vector: false, adder: true }, v),
        unit::COMBINER => print_combiner(v),
        unit::STORE => print_store(v),
        _ => None,
    }
}

/// Encodes one unit item (not a branch): its field bits.
pub fn parse_unit_item(u: usize, text: &str) -> Result<u128, String> {
    let mut toks = text.split_whitespace();
    let op_text = toks.next().unwrap_or("");
    let args: Vec<&str> = toks.collect();
    if op_text.to_ascii_lowercase().starts_with("raw.") {
        let [a] = args.as_slice() else { return Err("raw items take one hexadecimal value".into()) };
        let h = a.strip_prefix("0x").or_else(|| a.strip_prefix("0X")).ok_or("raw values are hexadecimal (0x…)")?;
        let v = u128::from_str_radix(h, 16).map_err(|_| format!("bad raw value '{a}'"))?;
        if UNIT_WIDTHS[u] < 128 && v >> UNIT_WIDTHS[u] != 0 {
            return Err(format!("raw value wider than the unit's {} bits", UNIT_WIDTHS[u]));
        }
        return Ok(v);
    }
    let op = split_op(op_text);
    match u {
        unit::VARYING => parse_varying(&op, &args),
        unit::SAMPLER => {
            let op = OpToken { name: if op.name == "texld_2d" { "texld".into() } else { op.name }, ..op };
            parse_sampler(&op, &args)
        }
        unit::UNIFORM => parse_uniform(&op, &args),
        unit::VMUL => parse_alu(Alu { vector: true, adder: false }, &op, &args),
        unit::FMUL => parse_alu(Alu { vector: false, adder: false }, &op, &args),
        unit::VADD => parse_alu(Alu { vector: true, adder: true }, &op, &args),
        unit::FADD => parse_alu(Alu { vector: false, adder: true }, &op, &args),
        unit::COMBINER => parse_combiner(&op, &args),
        unit::STORE => parse_store(&op, &args),
        unit::CONST0 | unit::CONST1 => parse_const(&args),
        unit::BRANCH if op.name == "discard" => {
            if args.is_empty() {
                Ok(DISCARD)
            } else {
                Err("discard takes no operands".into())
            }
        }
        _ => Err("branches need the program's labels".into()),
    }
}

/// Branch condition names by code (bit 0 = less, 1 = equal, 2 = greater);
/// code 7 (always) is the plain `branch`.
pub const BRANCH_CONDITIONS: [&str; 7] = ["nv", "lt", "eq", "le", "gt", "ne", "ge"];

// ---- opcode tables -------------------------------------------------------

/// Multiplier opcodes (units 3 and 4): (op, name, sources).
const MUL_OPS: &[(u32, &str, u8)] = &[
    (0, "mul", 2),
    (1, "mul_x2", 2),
    (2, "mul_x4", 2),
    (3, "mul_x8", 2),
    (5, "mul_d8", 2),
    (6, "mul_d4", 2),
    (7, "mul_d2", 2),
    (8, "not", 1),
    (9, "and", 2),
    (10, "or", 2),
    (11, "xor", 2),
    (12, "ne", 2),
    (13, "gt", 2),
    (14, "ge", 2),
    (15, "eq", 2),
    (16, "min", 2),
    (17, "max", 2),
    (31, "mov", 1),
];

/// Adder opcodes (units 5 and 6; `sum3`/`sum4` on the vec4 adder only).
const ADD_OPS: &[(u32, &str, u8)] = &[
    (0, "add", 2),
    (1, "add_x2", 2),
    (2, "add_x4", 2),
    (3, "add_x8", 2),
    (5, "add_d8", 2),
    (6, "add_d4", 2),
    (7, "add_d2", 2),
    (4, "fract", 1),
    (8, "ne", 2),
    (9, "gt", 2),
    (10, "ge", 2),
    (11, "eq", 2),
    (12, "floor", 1),
    (13, "ceil", 1),
    (14, "min", 2),
    (15, "max", 2),
    (16, "sum3", 1),
    (17, "sum4", 1),
    (20, "dFdx", 2),
    (21, "dFdy", 2),
    (23, "sel", 2),
    (31, "mov", 1),
];

const COMB_OPS: [&str; 8] = ["rcp", "mov", "sqrt", "rsqrt", "exp2", "log2", "sin", "cos"];

fn op_name(table: &[(u32, &str, u8)], op: u32, vector: bool) -> (String, u8) {
    for &(o, n, s) in table {
        if o == op && (vector || !(n == "sum3" || n == "sum4")) {
            return (n.to_string(), s);
        }
    }
    (format!("op{op}"), 2)
}

fn op_number(table: &[(u32, &str, u8)], name: &str, vector: bool) -> Option<(u32, u8)> {
    let alias = match name {
        "frc" => "fract",
        "ddx" => "dfdx",
        "ddy" => "dfdy",
        n => n,
    };
    for &(o, n, s) in table {
        if n.eq_ignore_ascii_case(alias) && (vector || !(n == "sum3" || n == "sum4")) {
            return Some((o, s));
        }
    }
    let n: u32 = alias.strip_prefix("op")?.parse().ok()?;
    (n < 32).then_some((n, 2))
}

// ---- vec4 and scalar ALUs (units 3-6) -----------------------------------

/// Layout of the two-operand ALUs.
#[derive(Copy, Clone)]
pub struct Alu {
    pub vector: bool,
    pub adder: bool,
}

impl Alu {
    fn suffix(self) -> &'static str {
        match (self.vector, self.adder) {
            (true, false) => "v0",
            (false, false) => "s0",
            (true, true) => "v1",
            (false, true) => "s1",
        }
    }
    fn table(self) -> &'static [(u32, &'static str, u8)] {
        if self.adder {
            ADD_OPS
        } else {
            MUL_OPS
        }
    }
}

/// A clear message for a pipeline register used where it cannot be read.
fn pipeline_error(reg: &str, alu: Alu) -> Option<String> {
    let r = reg.split('.').next()?.to_ascii_lowercase();
    let unit = alu.suffix();
    match r.as_str() {
        "^v0" => Some(format!(
            "'{reg}': the vec4 multiplier's result is read only by the first operand of .v1, not by .{unit}"
        )),
        "^s0" => Some(format!(
            "'{reg}': the scalar multiplier's result is read only by the first operand of .s1, not by .{unit}"
        )),
        "^v1" | "^s1" => {
            Some(format!("'{reg}': the adders' results have no pipeline register; write them to a register"))
        }
        "^tex_coord" => Some(format!("'{reg}' is written by the varying unit and read only by texld")),
        _ => None,
    }
}

pub fn print_alu(alu: Alu, v: u128) -> Option<String> {
    let (arg_w, dest_at, op_at) = if alu.vector { (14, 28, 38) } else { (8, 16, 25) };
    let op = bits(v, op_at, 5);
    let (name, srcs) = op_name(alu.table(), op, alu.vector);
    let modifier = if alu.vector { bits(v, 36, 2) } else { bits(v, 23, 2) };
    let mul_in = alu.adder && if alu.vector { bits(v, 43, 1) } else { bits(v, 30, 1) } == 1;
    let src = |i: u32, mul_in: bool| -> Option<String> {
        let base = i * arg_w;
        if alu.vector {
            let reg = bits(v, base, 4);
            let name = if mul_in { (reg == 0).then_some("^v0".to_string())? } else { vreg(reg) };
            Some(source(
                &format!("{name}{}", swizzle(bits(v, base + 4, 8))),
                bits(v, base + 12, 1) == 1,
                bits(v, base + 13, 1) == 1,
            ))
        } else {
            let reg = bits(v, base, 6);
            let name = if mul_in { (reg == 0).then_some("^s0".to_string())? } else { sreg(reg) };
            Some(source(&name, bits(v, base + 6, 1) == 1, bits(v, base + 7, 1) == 1))
        }
    };
    let dest = if alu.vector {
        let (d, m) = (bits(v, 28, 4), bits(v, 32, 4));
        if m == 0 {
            (d == 0).then(|| if alu.adder { "^v1" } else { "^v0" }.to_string())?
        } else {
            (d <= 11).then(|| format!("${d}{}", mask(m)))?
        }
    } else {
        let (d, en) = (bits(v, 16, 6), bits(v, 22, 1));
        if en == 0 {
            (d == 0).then(|| if alu.adder { "^s1" } else { "^s0" }.to_string())?
        } else {
            (d < 48).then(|| sreg(d))?
        }
    };
    let _ = dest_at;
    let mut out = format!("{name}{}.{} {dest} {}", DEST_MODIFIERS[modifier as usize], alu.suffix(), src(0, mul_in)?);
    let arg1_bits = bits(v, arg_w, arg_w);
    if srcs == 2 || arg1_bits != 0 {
        out.push(' ');
        out.push_str(&src(1, false)?);
    }
    Some(out)
}

pub fn parse_alu(alu: Alu, op: &OpToken, args: &[&str]) -> ParseResult {
    let (code, srcs) = op_number(alu.table(), &op.name, alu.vector)
        .ok_or_else(|| format!("'{}' is not an opcode of the .{} unit", op.name, alu.suffix()))?;
    let max_args = 3;
    let min_args = 1 + srcs as usize;
    if args.len() < min_args || args.len() > max_args {
        return Err(format!("{} takes {} operands, found {}", op.name, min_args, args.len()));
    }
    let arg_w = if alu.vector { 14 } else { 8 };
    let mut v: u128 = 0;
    let mut set = |lo: u32, val: u32| v |= (val as u128) << lo;
    // Destination.
    if alu.vector {
        let pipe = if alu.adder { "^v1" } else { "^v0" };
        if args[0].eq_ignore_ascii_case(pipe) {
        } else {
            let (d, m) = parse_vdest(args[0]).ok_or_else(|| format!("bad vector destination '{}'", args[0]))?;
            set(28, d);
            set(32, m);
        }
        set(36, op.modifier);
        set(38, code);
    } else {
        let pipe = if alu.adder { "^s1" } else { "^s0" };
        if !args[0].eq_ignore_ascii_case(pipe) {
            let d = parse_sreg(args[0])
                .filter(|&d| d < 48)
                .ok_or_else(|| format!("bad scalar destination '{}'", args[0]))?;
            set(16, d);
            set(22, 1);
        }
        set(23, op.modifier);
        set(25, code);
    }
    for (i, a) in args[1..].iter().enumerate() {
        let base = i as u32 * arg_w;
        let (neg, abs, reg) = parse_source(a).ok_or_else(|| format!("bad source '{a}'"))?;
        if alu.vector {
            let (r, swz) = if i == 0 && alu.adder && reg.to_ascii_lowercase().starts_with("^v0") {
                set(43, 1);
                (0, parse_swizzle(reg.split_once('.').map_or("xyzw", |x| x.1)).ok_or("bad swizzle")?)
            } else {
                parse_vector(reg)
                    .ok_or_else(|| pipeline_error(reg, alu).unwrap_or_else(|| format!("bad vector source '{a}'")))?
            };
            set(base, r);
            set(base + 4, swz);
            set(base + 12, abs as u32);
            set(base + 13, neg as u32);
        } else {
            let r = if i == 0 && alu.adder && reg.eq_ignore_ascii_case("^s0") {
                set(30, 1);
                0
            } else {
                parse_sreg(reg)
                    .ok_or_else(|| pipeline_error(reg, alu).unwrap_or_else(|| format!("bad scalar source '{a}'")))?
            };
            set(base, r);
            set(base + 6, abs as u32);
            set(base + 7, neg as u32);
        }
    }
    Ok(v)
}

// ---- combiner (unit 7) ---------------------------------------------------

pub fn print_combiner(v: u128) -> Option<String> {
    let dest_vec = bits(v, 0, 1);
    let src_vec = bits(v, 1, 1);
    let arg0 = source(&sreg(bits(v, 16, 6)), bits(v, 14, 1) == 1, bits(v, 15, 1) == 1);
    let modifier = DEST_MODIFIERS[bits(v, 22, 2) as usize];
    match (dest_vec, src_vec) {
        (0, 0) => {
            let op = bits(v, 2, 4);
            let d = bits(v, 24, 6);
            (d < 48).then_some(())?;
            let name = if op < 8 { COMB_OPS[op as usize].to_string() } else { format!("op{op}") };
            let mut out = format!("{name}{modifier}.s2 {} {arg0}", sreg(d));
            if op >= 8 || bits(v, 6, 8) != 0 {
                out.push(' ');
                out.push_str(&source(&sreg(bits(v, 8, 6)), bits(v, 6, 1) == 1, bits(v, 7, 1) == 1));
            }
            Some(out)
        }
        (1, 1) => {
            let (d, m) = (bits(v, 26, 4), bits(v, 22, 4));
            (d <= 11 && m != 0).then_some(())?;
            let vsrc = format!("{}{}", vreg(bits(v, 10, 4)), swizzle(bits(v, 2, 8)));
            Some(format!("mul.s2 ${d}{} {arg0} {vsrc}", mask(m)))
        }
        (1, 0) => {
            let op = bits(v, 2, 4);
            let (d, m) = (bits(v, 26, 4), bits(v, 22, 4));
            (d <= 11 && m != 0 && (op == 8 || op == 9)).then_some(())?;
            let mut out = format!("{}.s2 ${d}{} {arg0}", if op == 8 { "atan" } else { "atan2" }, mask(m));
            if op == 9 || bits(v, 6, 8) != 0 {
                out.push(' ');
                out.push_str(&source(&sreg(bits(v, 8, 6)), bits(v, 6, 1) == 1, bits(v, 7, 1) == 1));
            }
            Some(out)
        }
        _ => {
            let d = bits(v, 24, 6);
            (d < 48 && bits(v, 14, 8) == 0).then_some(())?;
            let vsrc = format!("{}{}", vreg(bits(v, 10, 4)), swizzle(bits(v, 2, 8)));
            Some(format!("atan_pt2{modifier}.s2 {} {vsrc}", sreg(d)))
        }
    }
}

fn scalar_src(a: &str) -> Result<(u32, bool, bool), String> {
    let (neg, abs, reg) = parse_source(a).ok_or_else(|| format!("bad source '{a}'"))?;
    let r = parse_sreg(reg).ok_or_else(|| format!("bad scalar source '{a}'"))?;
    Ok((r, abs, neg))
}

pub fn parse_combiner(op: &OpToken, args: &[&str]) -> ParseResult {
    let mut v: u128 = 0;
    let mut set = |lo: u32, val: u32| v |= (val as u128) << lo;
    let name = match op.name.as_str() {
        "rsq" => "rsqrt",
        n => n,
    };
    let need = |n: std::ops::RangeInclusive<usize>| -> Result<(), String> {
        if n.contains(&args.len()) {
            Ok(())
        } else {
            Err(format!("{name}.s2 takes {} operands, found {}", n.start(), args.len()))
        }
    };
    let put_arg0 = |set: &mut dyn FnMut(u32, u32), a: &str| -> Result<(), String> {
        let (r, abs, neg) = scalar_src(a)?;
        set(16, r);
        set(14, abs as u32);
        set(15, neg as u32);
        Ok(())
    };
    let put_arg1 = |set: &mut dyn FnMut(u32, u32), a: &str| -> Result<(), String> {
        let (r, abs, neg) = scalar_src(a)?;
        set(8, r);
        set(6, abs as u32);
        set(7, neg as u32);
        Ok(())
    };
    let vsrc =
        |a: &str| -> Result<(u32, u32), String> { parse_vector(a).ok_or_else(|| format!("bad vector source '{a}'")) };
    match name {
        "mul" => {
            need(3..=3)?;
            let (d, m) = parse_vdest(args[0]).ok_or("bad vector destination")?;
            set(0, 1);
            set(1, 1);
            set(26, d);
            set(22, m);
            put_arg0(&mut set, args[1])?;
            let (r, s) = vsrc(args[2])?;
            set(10, r);
            set(2, s);
        }
        "atan" | "atan2" => {
            need(if name == "atan" { 2..=3 } else { 3..=3 })?;
            let (d, m) = parse_vdest(args[0]).ok_or("bad vector destination")?;
            set(0, 1);
            set(26, d);
            set(22, m);
            set(2, if name == "atan" { 8 } else { 9 });
            put_arg0(&mut set, args[1])?;
            if let Some(a) = args.get(2) {
                put_arg1(&mut set, a)?;
            }
        }
        "atan_pt2" => {
            need(2..=2)?;
            let d = parse_sreg(args[0]).filter(|&d| d < 48).ok_or("bad scalar destination")?;
            set(1, 1);
            set(24, d);
            set(22, op.modifier);
            let (r, s) = vsrc(args[1])?;
            set(10, r);
            set(2, s);
        }
        _ => {
            let code = match COMB_OPS.iter().position(|&n| n == name) {
                Some(i) => i as u32,
                None => name
                    .strip_prefix("op")
                    .and_then(|n| n.parse::<u32>().ok())
                    .filter(|&n| (8..16).contains(&n))
                    .ok_or_else(|| format!("'{name}' is not an opcode of the .s2 unit"))?,
            };
            need(if code >= 8 { 3..=3 } else { 2..=3 })?;
            let d = parse_sreg(args[0]).filter(|&d| d < 48).ok_or("bad scalar destination")?;
            set(24, d);
            set(22, op.modifier);
            set(2, code);
            put_arg0(&mut set, args[1])?;
            if let Some(a) = args.get(2) {
                put_arg1(&mut set, a)?;
            }
        }
    }
    if op.modifier != 0 && matches!(name, "mul" | "atan" | "atan2") {
        return Err(format!("{name}.s2 takes no output modifier"));
    }
    Ok(v)
}

// ---- varying unit (unit 0) ----------------------------------------------

fn index_text(index: i64, alignment: u32) -> Option<String> {
    match alignment {
        3 | 2 => Some(index.to_string()),
        0 => Some(format!("{}.{}", index.div_euclid(4), ['x', 'y', 'z', 'w'][index.rem_euclid(4) as usize])),
        _ => Some(format!("{}.{}", index.div_euclid(2), if index.rem_euclid(2) == 0 { "xy" } else { "zw" })),
    }
}

/// Parses `N`, `N.c`, `N.xy`, `N.zw` (and an optional `+$r.c`) into
/// (index, alignment class 0 scalar / 1 vec2 / 2 vec4, offset register).
fn parse_index(s: &str) -> Result<(i64, u32, Option<u32>), String> {
    let (main, offset) = match s.split_once('+') {
        Some((m, o)) => (m, Some(parse_sreg(o).ok_or_else(|| format!("bad offset register '{o}'"))?)),
        None => (s, None),
    };
    let (n, comp) = match main.split_once('.') {
        Some((n, c)) => (n, Some(c)),
        None => (main, None),
    };
    let n: i64 = n.parse().map_err(|_| format!("bad index '{main}'"))?;
    Ok(match comp.map(|c| c.to_ascii_lowercase()) {
        None => (n, 2, offset),
        Some(c) if c == "xy" => (2 * n, 1, offset),
        Some(c) if c == "zw" => (2 * n + 1, 1, offset),
        Some(c) if c.len() == 1 => (4 * n + parse_swizzle(&c).ok_or("bad component")? as i64 % 4, 0, offset),
        Some(c) => return Err(format!("bad index component '.{c}'")),
    })
}

const VARYING_FORMS: &[(&str, u32, u32)] = &[
    // (name, source_type, perspective) for the index layout
    ("load", 0, 0),
    ("load_projz", 0, 2),
    ("load_projw", 0, 3),
    ("load_cube", 2, 0),
];
const VARYING_REG_FORMS: &[(&str, u32, u32)] =
    &[("load", 1, 0), ("load_projz", 1, 2), ("load_projw", 1, 3), ("load_cube", 2, 1), ("normalize", 2, 2)];
const SYSVALS: &[(&str, u32, u32)] = &[("gl_FragCoord", 2, 3), ("gl_PointCoord", 3, 0), ("gl_FrontFacing", 3, 1)];

fn sysval_alignment(mask: u32) -> u32 {
    match mask.count_ones() {
        0 | 1 => 0,
        2 => 1,
        _ => 3,
    }
}

pub fn print_varying(v: u128) -> Option<String> {
    let (pers, st) = (bits(v, 0, 2), bits(v, 2, 2));
    let (dest, m) = (bits(v, 24, 4), bits(v, 28, 4));
    let dest_s = match dest {
        15 => format!("^tex_coord{}", if m == 0 { String::new() } else { mask(m).replace(".xyzw", "").to_string() }),
        0..=11 if m != 0 => format!("${dest}{}", mask(m)),
        _ => return None,
    };
    let dest_s = if dest == 15 && m == 0xf { "^tex_coord.xyzw".to_string() } else { dest_s };
    let imm = st == 0 || st == 3 || (st == 2 && (pers == 0 || pers == 3));
    if imm {
        if let Some(&(name, _, _)) = SYSVALS.iter().find(|&&(_, s, p)| s == st && p == pers) {
            return Some(format!("load.v {dest_s} {name}"));
        }
        let &(name, _, _) = VARYING_FORMS.iter().find(|&&(_, s, p)| s == st && p == pers)?;
        let alignment = bits(v, 5, 2);
        (alignment != 2).then_some(())?;
        let mut idx = index_text(bits(v, 18, 6) as i64, alignment)?;
        let (ov, os) = (bits(v, 10, 4), bits(v, 16, 2));
        if ov != 15 {
            idx = format!("{idx}+{}", sreg(ov * 4 + os));
        }
        Some(format!("{name}.v {dest_s} {idx}"))
    } else {
        let &(name, _, _) = VARYING_REG_FORMS.iter().find(|&&(_, s, p)| s == st && p == pers)?;
        let src = format!("{}{}", vreg(bits(v, 10, 4)), swizzle(bits(v, 16, 8)));
        Some(format!("{name}.v {dest_s} {}", source(&src, bits(v, 15, 1) == 1, bits(v, 14, 1) == 1)))
    }
}

pub fn parse_varying(op: &OpToken, args: &[&str]) -> ParseResult {
    if args.len() != 2 {
        return Err(format!("{}.v takes a destination and a source, found {} operands", op.name, args.len()));
    }
    let mut v: u128 = 0;
    let mut set = |lo: u32, val: u32| v |= (val as u128) << lo;
    let dl = args[0].to_ascii_lowercase();
    let m = if let Some(rest) = dl.strip_prefix("^tex_coord").or_else(|| dl.strip_prefix("^discard")) {
        set(24, 15);
        match rest.strip_prefix('.') {
            Some(mk) => parse_mask(mk).ok_or("bad mask")?,
            None if rest.is_empty() => 0,
            None => return Err(format!("bad destination '{}'", args[0])),
        }
    } else {
        let (d, m) = parse_vdest(args[0]).ok_or_else(|| format!("bad destination '{}'", args[0]))?;
        set(24, d);
        m
    };
    set(28, m);
    let src = args[1];
    if let Some(&(_, st, p)) = SYSVALS.iter().find(|(n, _, _)| n.eq_ignore_ascii_case(src)) {
        if op.name != "load" {
            return Err(format!("{} reads with load.v", src));
        }
        set(0, p);
        set(2, st);
        set(5, sysval_alignment(m));
        set(10, 15);
        return Ok(v);
    }
    let first = src.as_bytes().first().copied().unwrap_or(0);
    if first.is_ascii_digit() {
        let &(_, st, p) = VARYING_FORMS
            .iter()
            .find(|(n, _, _)| *n == op.name)
            .ok_or_else(|| format!("'{}' takes a register source", op.name))?;
        let (index, class, offset) = parse_index(src)?;
        let alignment = [0, 1, 3][class as usize];
        if !(0..64).contains(&index) {
            return Err(format!("varying index {index} does not fit in 6 bits"));
        }
        set(0, p);
        set(2, st);
        set(5, alignment);
        set(18, index as u32);
        match offset {
            Some(r) => {
                set(10, r >> 2);
                set(16, r & 3);
            }
            None => set(10, 15),
        }
    } else {
        let &(_, st, p) = VARYING_REG_FORMS
            .iter()
            .find(|(n, _, _)| *n == op.name)
            .ok_or_else(|| format!("'{}' is not a varying operation", op.name))?;
        let (neg, abs, reg) = parse_source(src).ok_or("bad source")?;
        let (r, swz) = parse_vector(reg).ok_or_else(|| format!("bad vector source '{src}'"))?;
        set(0, p);
        set(2, st);
        set(6, (op.name == "normalize") as u32);
        set(10, r);
        set(14, neg as u32);
        set(15, abs as u32);
        set(16, swz);
    }
    Ok(v)
}

// ---- texture sampler (unit 1) -------------------------------------------

const SAMPLER_FIXED: u128 = 0x39001 << 42;

fn bias_text(b: i32) -> String {
    let s = format!("{}", b as f64 / 16.0);
    if s.contains('.') {
        s
    } else {
        format!("{s}.0")
    }
}

pub fn print_sampler(v: u128) -> Option<String> {
    (bits(v, 12, 5) == 0 && bits(v, 19, 1) == 0 && v >> 42 == SAMPLER_FIXED >> 42).then_some(())?;
    let name = if bits(v, 17, 1) == 1 { "texldl" } else { "texld" };
    let mut out = format!("{name} {}", bits(v, 30, 12));
    if bits(v, 29, 1) == 1 {
        out.push_str(&format!("+{}", sreg(bits(v, 6, 6))));
    } else if bits(v, 6, 6) != 0 {
        return None;
    }
    if bits(v, 18, 1) == 1 {
        out.push_str(&format!(" {}", sreg(bits(v, 0, 6))));
    } else if bits(v, 0, 6) != 0 {
        return None;
    }
    let bias = ((bits(v, 20, 9) << 23) as i32) >> 23;
    if bias != 0 {
        out.push_str(&format!(" {}", bias_text(bias)));
    }
    Some(out)
}

pub fn parse_sampler(op: &OpToken, args: &[&str]) -> ParseResult {
    let mut v: u128 = SAMPLER_FIXED;
    let mut set = |lo: u32, val: u32| v |= (val as u128) << lo;
    if op.name == "texldl" {
        set(17, 1);
    }
    let (s, rest) = args.split_first().ok_or("texld takes a sampler index")?;
    let (idx, off) = match s.split_once('+') {
        Some((i, o)) => (i, Some(parse_sreg(o).ok_or_else(|| format!("bad offset register '{o}'"))?)),
        None => (*s, None),
    };
    let idx: u32 =
        idx.parse().ok().filter(|&i| i < 4096).ok_or_else(|| format!("bad sampler index '{idx}' (0-4095)"))?;
    set(30, idx);
    if let Some(o) = off {
        set(29, 1);
        set(6, o);
    }
    for a in rest {
        if a.starts_with('$') || a.starts_with('^') {
            set(18, 1);
            set(0, parse_sreg(a).ok_or_else(|| format!("bad LOD register '{a}'"))?);
        } else {
            let b: f64 = a.parse().map_err(|_| format!("bad LOD bias '{a}'"))?;
            let q = b * 16.0;
            if q.fract() != 0.0 || !(-256.0..=255.0).contains(&q) {
                return Err(format!("LOD bias {a} is not a multiple of 1/16 in [-16, 15.9375]"));
            }
            set(20, (q as i32 as u32) & 0x1ff);
        }
    }
    Ok(v)
}

// ---- uniform / temporary fetch (unit 2) and store (unit 8) ---------------

fn signed16(x: u32) -> i64 {
    ((x << 16) as i32 >> 16) as i64
}

fn alignment_class(alignment: u32) -> Option<u32> {
    match alignment {
        0 => Some(0),
        1 => Some(1),
        2 => Some(2),
        _ => None,
    }
}

pub fn print_uniform(v: u128) -> Option<String> {
    let name = match bits(v, 0, 2) {
        0 => "load.u",
        3 => "load.t",
        _ => return None,
    };
    (bits(v, 2, 8) == 0 && bits(v, 12, 6) == 0).then_some(())?;
    let class = alignment_class(bits(v, 10, 2))?;
    let mut idx = index_text(signed16(bits(v, 25, 16)), [0, 1, 2][class as usize])?;
    if bits(v, 24, 1) == 1 {
        idx = format!("{idx}+{}", sreg(bits(v, 18, 6)));
    } else if bits(v, 18, 6) != 0 {
        return None;
    }
    Some(format!("{name} {idx}"))
}

pub fn parse_uniform(op: &OpToken, args: &[&str]) -> ParseResult {
    let source = if op.unit == "t" { 3 } else { 0 };
    if args.len() != 1 {
        return Err(format!("load.{} takes one operand (the index)", op.unit));
    }
    let (index, class, offset) = parse_index(args[0])?;
    if !(-32768..32768).contains(&index) {
        return Err(format!("index {index} does not fit in 16 bits"));
    }
    let mut v: u128 = source;
    v |= (class as u128) << 10;
    v |= ((index as u32 & 0xffff) as u128) << 25;
    if let Some(r) = offset {
        v |= 1 << 24;
        v |= (r as u128) << 18;
    }
    Ok(v)
}

/// The `offset_reg` a store without an offset gets: Mesa's don't-care value
/// (spec 3.9, 5.9), its vec4 slot N arithmetically shifted right by 2 and
/// truncated to 6 bits. N is the slot, not the index field: for partial
/// stores the field holds 2N+h / 4N+c (alignment class 1 / 0), so
/// `store.t -3.xy $5` (index -6) gets 63, not 62.
fn store_default_offset(index: i64, class: u32) -> u32 {
    let slot = index >> (2 - class);
    (slot >> 2) as u32 & 63
}

pub fn print_store(v: u128) -> Option<String> {
    if bits(v, 1, 5) == 0b00111 {
        let name = if bits(v, 0, 1) == 1 { "fb_color.t" } else { "fb_depth.t" };
        let d = bits(v, 6, 4);
        return (d <= 11 && (v >> 10) == 2).then(|| format!("{name} ${d}"));
    }
    (bits(v, 0, 2) == 3 && bits(v, 2, 2) == 0 && bits(v, 12, 6) == 0).then_some(())?;
    let class = alignment_class(bits(v, 10, 2))?;
    let index = signed16(bits(v, 25, 16));
    let mut idx = index_text(index, [0, 1, 2][class as usize])?;
    let off = bits(v, 18, 6);
    if bits(v, 24, 1) == 1 {
        idx = format!("{idx}+{}", sreg(off));
    } else if off != store_default_offset(index, class) {
        return None;
    }
    let s = bits(v, 4, 6);
    let src = if class == 0 { sreg(s) } else { (s & 3 == 0).then(|| vreg(s >> 2))? };
    Some(format!("store.t {idx} {src}"))
}

pub fn parse_store(op: &OpToken, args: &[&str]) -> ParseResult {
    if op.name == "fb_color" || op.name == "fb_depth" {
        let [d] = args else { return Err(format!("{}.t takes one destination register", op.name)) };
        let (r, m) = parse_vdest(d).filter(|&(_, m)| m == 0xf).ok_or_else(|| format!("bad register '{d}'"))?;
        let _ = m;
        return Ok((op.name == "fb_color") as u128 | 0b00111 << 1 | (r as u128) << 6 | 2 << 10);
    }
    let [index, src] = args else { return Err("store.t takes an index and a source register".into()) };
    let (index, class, offset) = parse_index(index)?;
    if !(-32768..32768).contains(&index) {
        return Err(format!("index {index} does not fit in 16 bits"));
    }
    let s = if class == 0 {
        parse_sreg(src).ok_or_else(|| format!("bad scalar source '{src}'"))?
    } else {
        parse_vreg(src).filter(|&r| r <= 11).ok_or_else(|| format!("bad vector register '{src}'"))? * 4
    };
    let mut v: u128 = 3 | (s as u128) << 4 | (class as u128) << 10 | ((index as u32 & 0xffff) as u128) << 25;
    match offset {
        Some(r) => v |= 1 << 24 | (r as u128) << 18,
        None => v |= (store_default_offset(index, class) as u128) << 18,
    }
    Ok(v)
}

// ---- embedded constants (units 10, 11) -----------------------------------

pub fn print_const(v: u128) -> String {
    (0..4).map(|i| half_text(bits(v, 16 * i, 16) as u16)).collect::<Vec<_>>().join(" ")
}

pub fn parse_const(args: &[&str]) -> ParseResult {
    if args.len() > 4 {
        return Err(format!("a constant has four values, found {}", args.len()));
    }
    let mut v: u128 = 0;
    for (i, a) in args.iter().enumerate() {
        let h = parse_half(a).ok_or_else(|| format!("bad binary16 value '{a}'"))?;
        check_half_exact(a, h)?;
        v |= (h as u128) << (16 * i);
    }
    Ok(v)
}

/// A decimal constant must be what it says: exactly representable in
/// binary16, or the shortest decimal of the value it rounds to (which is
/// how the disassembler prints it). Anything else would change silently.
fn check_half_exact(text: &str, h: u16) -> Result<(), String> {
    let l = text.to_ascii_lowercase();
    if l.starts_with("0x") || l.contains("inf") || l == "nan" {
        return Ok(());
    }
    let v: f64 = text.parse().map_err(|_| format!("bad binary16 value '{text}'"))?;
    let got = half_to_f64(h);
    if got.is_infinite() {
        return Err(format!("'{text}' does not fit in binary16 (largest finite value: 65504)"));
    }
    if got == v || half_text(h) == text.trim_start_matches('+') {
        return Ok(());
    }
    Err(format!("'{text}' is not representable in binary16; the nearest value is {} (0x{h:04x})", half_text(h)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_3_fields() {
        let add = parse_alu(Alu { vector: true, adder: true }, &split_op("add_sat.v1"), &["$0", "^v0", "-|$2.wzyx|"])
            .unwrap();
        assert_eq!(add, 0x81F_0C6C_8E40);
        let mul = parse_alu(Alu { vector: true, adder: false }, &split_op("mul.v0"), &["^v0", "$1", "^u"]).unwrap();
        assert_eq!(mul, 0x0393_CE41);
    }
}
