//! Binary16 numbers, as the embedded constants `const0` and `const1` hold
//! them (four a unit): exact conversions and the shortest text that reads
//! back to the same bits, which is how the disassembler prints them.
//!
//! ```
//! use gpuasm_mali::half::{f64_to_half, half_text, parse_half};
//!
//! assert_eq!(f64_to_half(1.0), 0x3c00);
//! assert_eq!(half_text(0x2e66), "0.1"); // 0.0999755859375
//! assert_eq!(parse_half("0.1"), Some(0x2e66));
//! ```

/// The shortest decimal that reads back to the same binary16 bits; `inf`,
/// `-inf`; `0xHHHH` for NaNs (their payload kept).
pub fn half_text(h: u16) -> String {
    let v = half_to_f64(h);
    if v.is_nan() {
        return format!("0x{h:04x}");
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if h == 0x8000 {
        return "-0".into();
    }
    // The shortest text that reads back to the same bits; among equally
    // short ones, the closest to the exact value (65504, not 65500).
    let mut best: Option<(usize, f64, String)> = None;
    for p in 1..=17 {
        let s = format!("{:.*e}", p - 1, v);
        let back: f64 = s.parse().unwrap();
        if f64_to_half(back) == h {
            let d = format!("{back}");
            let key = (d.len(), (back - v).abs());
            if best.as_ref().is_none_or(|(l, e, _)| key < (*l, *e)) {
                best = Some((key.0, key.1, d));
            }
        }
    }
    best.map_or_else(|| format!("{v}"), |b| b.2)
}

/// Reads a binary16 value: a decimal (rounded to nearest, ties to even,
/// too large for binary16 to infinity), `inf`, `-inf`, `nan` or the bits as
/// `0xHHHH`. `None` for anything else.
pub fn parse_half(s: &str) -> Option<u16> {
    let l = s.to_ascii_lowercase();
    match l.as_str() {
        "inf" | "+inf" => return Some(0x7c00),
        "-inf" => return Some(0xfc00),
        "nan" => return Some(0x7e00),
        _ => {}
    }
    if let Some(h) = l.strip_prefix("0x") {
        return u16::from_str_radix(h, 16).ok();
    }
    let v: f64 = s.parse().ok()?;
    v.is_finite().then(|| f64_to_half(v))
}

/// The exact value of binary16 bits.
pub fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 31) as i32;
    let m = (h & 0x3ff) as f64;
    sign * match e {
        0 => m * 2f64.powi(-24),
        31 => {
            if m == 0.0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        }
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}

/// The binary16 bits nearest `v`, ties to even (overflow to infinity).
pub fn f64_to_half(v: f64) -> u16 {
    let sign: u16 = if v.is_sign_negative() { 0x8000 } else { 0 };
    let a = v.abs();
    if a == 0.0 {
        return sign;
    }
    // Scale to units of the smallest subnormal (2^-24), round half to even.
    let units = a * 2f64.powi(24);
    if units < 1024.0 * 1.0 {
        // Subnormal range (below 2^-14).
        let r = units.round_ties_even();
        return sign | r as u16;
    }
    let e = a.log2().floor() as i32;
    let mut e = e;
    let mut m = (a / 2f64.powi(e) - 1.0) * 1024.0;
    m = m.round_ties_even();
    if m >= 1024.0 {
        m = 0.0;
        e += 1;
    }
    if e > 15 {
        return sign | 0x7c00;
    }
    sign | (((e + 15) as u16) << 10) | m as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves() {
        assert_eq!(half_text(0x3c00), "1");
        assert_eq!(half_text(0x2e66), "0.1");
        assert_eq!(half_text(0x7bff), "65504");
        assert_eq!(half_text(0x8000), "-0");
        assert_eq!(half_text(0x7e00), "0x7e00");
        for h in 0..=0xffffu16 {
            if !half_to_f64(h).is_nan() {
                assert_eq!(parse_half(&half_text(h)), Some(h), "{h:#x} {}", half_text(h));
            }
        }
    }
}
