//! Registers, swizzles, masks and source modifiers: their text forms
//! (spec 2.1-2.6 and 5.4).

/// Name of a 4-bit vector register number as a source.
pub fn vreg(n: u32) -> String {
    match n {
        0..=11 => format!("${n}"),
        12 => "^const0".into(),
        13 => "^const1".into(),
        14 => "^tex".into(),
        _ => "^u".into(),
    }
}

/// Parses a vector register name (with aliases).
pub fn parse_vreg(s: &str) -> Option<u32> {
    let l = s.to_ascii_lowercase();
    match l.as_str() {
        "^const0" => Some(12),
        "^const1" => Some(13),
        "^tex" | "^texture" | "^tex_sampler" => Some(14),
        "^u" | "^uniform" => Some(15),
        _ => {
            let n: u32 = l.strip_prefix('$')?.parse().ok()?;
            (n <= 11).then_some(n)
        }
    }
}

const LANES: [char; 4] = ['x', 'y', 'z', 'w'];

/// A swizzle's suffix: none for identity, one letter for a broadcast, else
/// four letters.
pub fn swizzle(s: u32) -> String {
    if s == 0xe4 {
        return String::new();
    }
    let lanes: Vec<u32> = (0..4).map(|i| (s >> (2 * i)) & 3).collect();
    if lanes.iter().all(|&l| l == lanes[0]) {
        return format!(".{}", LANES[lanes[0] as usize]);
    }
    let mut out = String::from(".");
    for l in lanes {
        out.push(LANES[l as usize]);
    }
    out
}

fn lane(c: char) -> Option<u32> {
    match c.to_ascii_lowercase() {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

/// Parses 1-4 swizzle letters; fewer than four repeat the last (Direct3D).
pub fn parse_swizzle(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 4 {
        return None;
    }
    let mut v = 0;
    let mut last = 0;
    for i in 0..4 {
        if let Some(c) = s.chars().nth(i) {
            last = lane(c)?;
        }
        v |= last << (2 * i);
    }
    Some(v)
}

/// A write mask's suffix: none when all four lanes are written.
pub fn mask(m: u32) -> String {
    if m == 0xf {
        return String::new();
    }
    let mut out = String::from(".");
    for (i, c) in LANES.iter().enumerate() {
        if m & (1 << i) != 0 {
            out.push(*c);
        }
    }
    out
}

/// Parses mask letters in `xyzw` order without repeats.
pub fn parse_mask(s: &str) -> Option<u32> {
    let mut m = 0;
    let mut prev = -1i32;
    for c in s.chars() {
        let l = lane(c)? as i32;
        if l <= prev {
            return None;
        }
        prev = l;
        m |= 1 << l;
    }
    (m != 0).then_some(m)
}

/// A source operand: register text (with swizzle or component), `|...|`,
/// leading `-`.
pub fn source(reg: &str, abs: bool, neg: bool) -> String {
    let inner = if abs { format!("|{reg}|") } else { reg.to_string() };
    if neg {
        format!("-{inner}")
    } else {
        inner
    }
}

/// Splits a source into (negate, absolute, register text): `-|$1.x|`,
/// `abs($1)` (Mesa's spelling), `-$2.wzyx`.
pub fn parse_source(s: &str) -> Option<(bool, bool, &str)> {
    let (neg, rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    if let Some(inner) = rest.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
        return Some((neg, true, inner));
    }
    if let Some(inner) = rest.strip_prefix("abs(").and_then(|r| r.strip_suffix(')')) {
        return Some((neg, true, inner));
    }
    Some((neg, false, rest))
}

/// A vector register with swizzle: `reg[.swz]`.
pub fn parse_vector(s: &str) -> Option<(u32, u32)> {
    match s.split_once('.') {
        Some((r, swz)) => Some((parse_vreg(r)?, parse_swizzle(swz)?)),
        None => Some((parse_vreg(s)?, 0xe4)),
    }
}

/// Name of a 6-bit scalar register number.
pub fn sreg(n: u32) -> String {
    format!("{}.{}", vreg(n >> 2), LANES[(n & 3) as usize])
}

/// Parses `reg.c` into a 6-bit scalar register number.
pub fn parse_sreg(s: &str) -> Option<u32> {
    let (r, c) = s.rsplit_once('.')?;
    let mut chars = c.chars();
    let l = lane(chars.next()?)?;
    if chars.next().is_some() {
        return None;
    }
    Some(parse_vreg(r)? * 4 + l)
}

/// A vector destination `$N[.mask]` (no mask = all four lanes).
pub fn parse_vdest(s: &str) -> Option<(u32, u32)> {
    match s.split_once('.') {
        Some((r, m)) => {
            let n = parse_vreg(r)?;
            (n <= 11).then_some(())?;
            Some((n, parse_mask(m)?))
        }
        None => {
            let n = parse_vreg(s)?;
            (n <= 11).then_some((n, 0xf))
        }
    }
}

/// Output-modifier suffixes (spec 2.6).
pub const DEST_MODIFIERS: [&str; 4] = ["", "_sat", "_pos", "_int"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzles() {
        assert_eq!(swizzle(0xe4), "");
        assert_eq!(swizzle(0x15), ".yyyx");
        assert_eq!(swizzle(0), ".x");
        assert_eq!(parse_swizzle("x"), Some(0));
        assert_eq!(parse_swizzle("xy"), Some(0b01_01_01_00));
        assert_eq!(parse_swizzle("wzyx"), Some(0x1b));
        assert_eq!(parse_swizzle("rgba"), Some(0xe4));
    }

    #[test]
    fn registers_and_sources() {
        assert_eq!(sreg(48), "^const0.x");
        assert_eq!(parse_sreg("$5.w"), Some(23));
        assert_eq!(parse_source("-|$1.x|"), Some((true, true, "$1.x")));
        assert_eq!(parse_source("-abs($1.yxzw)"), Some((true, true, "$1.yxzw")));
        assert_eq!(parse_vdest("$0.xz"), Some((0, 5)));
        assert_eq!(parse_mask("zx"), None);
    }
}
