//! Literal numbers and strings as spirv-as reads them.
//!
//! Integers follow C's base-0 rules (`0x` hex, leading `0` octal, optional
//! sign), then a range check against the target type in which hex values may
//! stand for negative numbers and are sign-extended (seed 000). Floats are
//! decimal (correctly rounded) or C-style hex floats, whose extra fraction
//! bits are truncated; 16-bit floats written in decimal go through 32-bit
//! first and are then rounded toward zero, as SPIRV-Tools does.

/// The type a literal number is encoded for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NumberType {
    Int { width: u32, signed: bool },
    Float { width: u32, encoding: Option<u32> },
}

/// Why a number was not encoded. The message is ready to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumberError {
    /// The text is not a valid number of that type.
    InvalidText(String),
    /// The text is a number, but not one this operand can take.
    InvalidUsage(String),
    /// The type's width is not supported.
    Unsupported(String),
}

/// Encodes `text` as a number of type `ty`, low word first.
pub fn encode_number(text: &str, ty: NumberType, out: &mut Vec<u32>) -> Result<(), NumberError> {
    match ty {
        NumberType::Int { width, signed } => encode_int(text, width, signed, out),
        NumberType::Float { width, encoding } => encode_float(text, width, encoding, out),
    }
}

/// The type spirv-as infers for a number with no context: a float if it has
/// a `.`, else a signed or unsigned 32-bit integer by its first character.
pub fn inferred_type(text: &str) -> NumberType {
    if text.contains('.') {
        NumberType::Float { width: 32, encoding: None }
    } else {
        NumberType::Int { width: 32, signed: text.starts_with('-') }
    }
}

fn encode_int(text: &str, width: u32, signed: bool, out: &mut Vec<u32>) -> Result<(), NumberError> {
    if width > 64 {
        return Err(NumberError::Unsupported(format!("Unsupported {width}-bit integer literals")));
    }
    let negative = text.starts_with('-');
    if negative && !signed {
        return Err(NumberError::InvalidUsage("Cannot put a negative number in an unsigned literal".into()));
    }
    let b = text.as_bytes();
    let is_hex = b.len() >= 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X');
    let bits: u64 = if negative {
        let v = parse_c_i64(text)
            .ok_or_else(|| NumberError::InvalidText(format!("Invalid signed integer literal: {text}")))?;
        check_range(v as u64, v < 0, width, signed, is_hex)
            .ok_or_else(|| range_error(v as u64, v < 0, is_hex, width, signed))?
    } else {
        let v = parse_c_u64(text)
            .ok_or_else(|| NumberError::InvalidText(format!("Invalid unsigned integer literal: {text}")))?;
        check_range(v, false, width, signed, is_hex).ok_or_else(|| range_error(v, false, is_hex, width, signed))?
    };
    out.push(bits as u32);
    if width > 32 {
        out.push((bits >> 32) as u32);
    }
    Ok(())
}

fn range_error(v: u64, negative: bool, is_hex: bool, width: u32, signed: bool) -> NumberError {
    let shown = match (is_hex, negative) {
        (true, _) => format!("{v:#x}"),
        (false, true) => (v as i64).to_string(),
        (false, false) => v.to_string(),
    };
    NumberError::InvalidText(format!(
        "Integer {shown} does not fit in a {width}-bit {} integer",
        if signed { "signed" } else { "unsigned" }
    ))
}

/// SPIRV-Tools' `CheckRangeAndIfHexThenSignExtend`: the value must fit the
/// width; a hex value may use the sign bit and is then sign-extended.
fn check_range(value: u64, negative: bool, width: u32, signed: bool, is_hex: bool) -> Option<u64> {
    let mut magnitude_mask: u64 = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
    let overflow_mask = !magnitude_mask;
    let mut sign_mask = 0u64;
    if negative || signed {
        magnitude_mask >>= 1;
        sign_mask = magnitude_mask.wrapping_add(1);
    }
    let failed = if negative {
        (value & overflow_mask) != overflow_mask || (value & sign_mask) != sign_mask
    } else if is_hex {
        value & overflow_mask != 0
    } else {
        value & magnitude_mask != value
    };
    if failed {
        return None;
    }
    if is_hex && value & sign_mask != 0 {
        return Some(value | overflow_mask);
    }
    Some(value)
}

/// Digits and radix of a C integer with base 0: `0x` hex, `0` octal, else
/// decimal. Returns (negative, digits, radix).
fn split_c_integer(text: &str) -> Option<(bool, &str, u32)> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let rb = rest.as_bytes();
    if rb.len() >= 2 && rb[0] == b'0' && (rb[1] == b'x' || rb[1] == b'X') {
        Some((negative, &rest[2..], 16))
    } else if rb.len() > 1 && rb[0] == b'0' {
        Some((negative, &rest[1..], 8))
    } else {
        Some((negative, rest, 10))
    }
}

fn digits_value(digits: &str, radix: u32) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    let mut v: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix)?;
        v = v.checked_mul(radix as u64)?.checked_add(d as u64)?;
    }
    Some(v)
}

/// C++ `istream >> uint64_t` with base 0, whole text; a leading `-` fails.
pub fn parse_c_u64(text: &str) -> Option<u64> {
    let (negative, digits, radix) = split_c_integer(text)?;
    if negative {
        return None;
    }
    digits_value(digits, radix)
}

/// C++ `istream >> uint32_t` with base 0, whole text.
pub fn parse_c_u32(text: &str) -> Option<u32> {
    parse_c_u64(text).and_then(|v| u32::try_from(v).ok())
}

/// C++ `istream >> int64_t` with base 0, whole text.
pub fn parse_c_i64(text: &str) -> Option<i64> {
    let (negative, digits, radix) = split_c_integer(text)?;
    let mag = digits_value(digits, radix)?;
    if negative {
        if mag > 1u64 << 63 {
            return None;
        }
        Some((mag as i64).wrapping_neg())
    } else {
        i64::try_from(mag).ok()
    }
}

fn float_error(width: u32, text: &str) -> NumberError {
    NumberError::InvalidText(format!("Invalid {width}-bit float literal: {text}"))
}

fn encode_float(text: &str, width: u32, encoding: Option<u32>, out: &mut Vec<u32>) -> Result<(), NumberError> {
    use crate::grammar::fp_encoding;
    // As spirv-as: the encoding decides the format, whatever the width.
    let (exp_bits, frac_bits) = match (encoding, width) {
        (Some(fp_encoding::BFloat16KHR), _) => (8, 7),
        (Some(fp_encoding::Float8E4M3EXT), _) => (4, 3),
        (Some(fp_encoding::Float8E5M2EXT), _) => (5, 2),
        (_, 16) => (5, 10),
        (_, 32) => (8, 23),
        (_, 64) => (11, 52),
        _ => return Err(NumberError::Unsupported(format!("Unsupported {width}-bit float literals"))),
    };
    let bits = parse_float_bits(text, exp_bits, frac_bits).ok_or_else(|| float_error(width, text))?;
    out.push(bits as u32);
    if exp_bits + frac_bits >= 32 {
        out.push((bits >> 32) as u32);
    }
    Ok(())
}

/// Parses a float literal into the bits of a binary format with the given
/// exponent and fraction widths.
pub fn parse_float_bits(text: &str, exp_bits: u32, frac_bits: u32) -> Option<u64> {
    let b = text.as_bytes();
    let (negative, rest) = match b.first()? {
        b'-' => (true, &text[1..]),
        _ => (false, text),
    };
    let rb = rest.as_bytes();
    if rb.len() >= 2 && rb[0] == b'0' && (rb[1] == b'x' || rb[1] == b'X') {
        return parse_hex_float(&rest[2..], negative, exp_bits, frac_bits);
    }
    if negative && matches!(rb.first(), Some(b'-' | b'+')) {
        return None;
    }
    if !is_c_decimal_float(rest) {
        return None;
    }
    let sign = if negative { 1u64 << (exp_bits + frac_bits) } else { 0 };
    match (exp_bits, frac_bits) {
        (11, 52) => {
            let v: f64 = rest.parse().ok()?;
            if v.is_infinite() {
                return None;
            }
            Some(v.to_bits() | sign)
        }
        (8, 23) => {
            let v: f32 = rest.parse().ok()?;
            if v.is_infinite() {
                return None;
            }
            Some(v.to_bits() as u64 | sign)
        }
        (4, 3) => {
            // E4M3 has no infinity; spirv-as takes values up to its largest
            // (448) and gives that largest for all from 256 (exponent 8) on.
            let v: f32 = rest.parse().ok()?;
            if v > 448.0 {
                return None;
            }
            let narrowed = if v >= 256.0 { 0x7e } else { f32_to_narrow_toward_zero(v.to_bits(), 4, 3)? };
            Some(narrowed | sign)
        }
        _ => {
            // Narrow formats: parse as 32-bit, then round toward zero.
            let v: f32 = rest.parse().ok()?;
            if v.is_infinite() {
                return None;
            }
            let narrowed = f32_to_narrow_toward_zero(v.to_bits(), exp_bits, frac_bits)?;
            Some(narrowed | sign)
        }
    }
}

/// `[+]digits[.digits][e[+-]digits]` or `.digits...`: what C++'s `num_get`
/// takes for a float, which must consume the whole word.
fn is_c_decimal_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'+') {
        i = 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut digits = i - int_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let f = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        digits += i - f;
    }
    if digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let e = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == e {
            return false;
        }
    }
    i == b.len()
}

/// Converts a 32-bit float (not infinite, not NaN) to a narrower format,
/// rounding toward zero; `None` if it overflows to infinity.
fn f32_to_narrow_toward_zero(bits: u32, exp_bits: u32, frac_bits: u32) -> Option<u64> {
    let mag = bits & 0x7fff_ffff;
    if mag == 0 {
        return Some(0);
    }
    let e = ((mag >> 23) & 0xff) as i32;
    let m = mag & 0x7f_ffff;
    // Normalise: significand with implicit 1 at bit 23, unbiased exponent.
    let (mut sig, mut exp) = if e == 0 { (m, -126) } else { (m | 0x80_0000, e - 127) };
    while sig & 0x80_0000 == 0 {
        sig <<= 1;
        exp -= 1;
    }
    let bias = (1i32 << (exp_bits - 1)) - 1;
    if exp > bias {
        return None;
    }
    let min_exp = 1 - bias;
    if exp >= min_exp {
        let frac = (sig & 0x7f_ffff) >> (23 - frac_bits);
        Some((((exp + bias) as u64) << frac_bits) | frac as u64)
    } else {
        // Subnormal in the narrow format: units of 2^(min_exp - frac_bits).
        let shift = (23 - frac_bits as i32) + (min_exp - exp);
        if shift >= 32 {
            return Some(0);
        }
        Some((sig >> shift) as u64)
    }
}

/// SPIRV-Tools' hex-float reader (`operator>>` for `HexFloat`): the leading
/// one is implicit, extra fraction bits are dropped, the binary exponent is
/// required, and values past the largest exponent become infinity (keeping
/// any fraction bits when exactly at it, so NaN payloads survive).
fn parse_hex_float(s: &str, negative: bool, exp_bits: u32, frac_bits: u32) -> Option<u64> {
    let used_bits = 1 + exp_bits + frac_bits;
    // The reader's integer type: the format's storage width.
    let store_bits = used_bits.next_power_of_two().max(16);
    let top = store_bits - 1;
    let bias = (1i64 << (exp_bits - 1)) - 1;
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i] == b'0' {
        i += 1;
    }
    let mut fraction: u64 = 0;
    let mut fraction_index: u32 = 0;
    let mut exponent: i64 = bias;
    let mut is_denorm = true;
    let mut bits_written = false;
    let mut seen_dot = false;
    let mut seen_p = false;
    let put = |fraction: &mut u64, index: &mut u32, bit: u64| {
        if *index <= top {
            *fraction |= bit << (top - *index);
        }
        *index += 1;
    };
    while !seen_p && !seen_dot {
        let c = *b.get(i)?;
        if c == b'.' {
            seen_dot = true;
        } else if c == b'p' {
            seen_p = true;
        } else if c.is_ascii_hexdigit() {
            is_denorm = false;
            let n = (c as char).to_digit(16).unwrap();
            for k in (0..4).rev() {
                let bit = ((n >> k) & 1) as u64;
                if bits_written {
                    put(&mut fraction, &mut fraction_index, bit);
                    exponent += 1;
                }
                bits_written |= bit != 0;
            }
        } else {
            return None;
        }
        i += 1;
    }
    bits_written = false;
    while seen_dot && !seen_p {
        let c = *b.get(i)?;
        if c == b'p' {
            seen_p = true;
        } else if c.is_ascii_hexdigit() {
            let n = (c as char).to_digit(16).unwrap();
            for k in (0..4).rev() {
                let bit = ((n >> k) & 1) as u64;
                bits_written |= bit != 0;
                if is_denorm && !bits_written {
                    exponent -= 1;
                } else {
                    put(&mut fraction, &mut fraction_index, bit);
                }
            }
        } else {
            return None;
        }
        i += 1;
    }
    // The binary exponent, in decimal, with an optional sign.
    let mut exp_sign = 1i64;
    let mut seen_sign = false;
    let mut seen_digits = false;
    let mut written: i64 = 0;
    while i < b.len() {
        let c = b[i];
        if !seen_digits && (c == b'-' || c == b'+') {
            if seen_sign {
                return None;
            }
            seen_sign = true;
            exp_sign = if c == b'-' { -1 } else { 1 };
        } else if c.is_ascii_digit() {
            seen_digits = true;
            written = (written * 10 + (c - b'0') as i64).min(1 << 40);
        } else {
            return None;
        }
        i += 1;
    }
    if !seen_digits {
        return None;
    }
    exponent += written * exp_sign;

    let mut is_zero = is_denorm && fraction == 0;
    let store_mask = if store_bits == 64 { u64::MAX } else { (1u64 << store_bits) - 1 };
    if is_denorm && !is_zero {
        fraction = (fraction << 1) & store_mask;
        exponent -= 1;
    } else if is_zero {
        exponent = 0;
    }
    if exponent <= 0 && !is_zero {
        fraction >>= 1;
        fraction |= 1u64 << top;
    }
    let frac_mask = (1u64 << frac_bits) - 1;
    fraction = (fraction >> (store_bits - frac_bits)) & frac_mask;
    let max_exponent = (1i64 << exp_bits) - 1;
    while exponent < 0 && !is_zero {
        fraction >>= 1;
        exponent += 1;
        fraction &= frac_mask;
        if fraction == 0 {
            is_zero = true;
            exponent = 0;
        }
    }
    if exponent > max_exponent {
        exponent = max_exponent;
        fraction = 0;
    }
    let sign = if negative { 1u64 << (exp_bits + frac_bits) } else { 0 };
    Some(sign | ((exponent as u64) << frac_bits) | fraction)
}

/// A literal string as spirv-as reads it: the word must be wrapped in
/// double quotes; a backslash takes the next character as it is.
pub fn unescape_string(word: &str) -> Option<Vec<u8>> {
    let b = word.as_bytes();
    if b.len() < 2 || b[0] != b'"' || b[b.len() - 1] != b'"' {
        return None;
    }
    let mut out = Vec::with_capacity(b.len());
    let mut escaping = false;
    for &c in &b[1..b.len() - 1] {
        if c == b'\\' && !escaping {
            escaping = true;
        } else {
            out.push(c);
            escaping = false;
        }
    }
    Some(out)
}

/// spirv-as's classification of a word (`spvTextToLiteral`): what looks
/// like a number is a number even where a string is expected.
pub fn looks_like_number(word: &str) -> bool {
    let b = word.as_bytes();
    if b.is_empty() {
        return false;
    }
    let mut periods = 0;
    let mut signed = false;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {}
            b'.' => periods += 1,
            b'-' if i == 0 => signed = true,
            _ => return false,
        }
    }
    !(periods > 1 || (signed && b.len() == 1))
}

/// Appends a literal string's words: bytes, then a NUL, zero-padded.
pub fn push_string_words(bytes: &[u8], out: &mut Vec<u32>) {
    for chunk in bytes.chunks(4) {
        let mut w = [0u8; 4];
        w[..chunk.len()].copy_from_slice(chunk);
        out.push(u32::from_le_bytes(w));
    }
    if bytes.len().is_multiple_of(4) {
        out.push(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(text: &str, width: u32, signed: bool) -> Result<Vec<u32>, NumberError> {
        let mut v = Vec::new();
        encode_int(text, width, signed, &mut v).map(|_| v)
    }

    fn f(text: &str, e: u32, m: u32) -> Option<u64> {
        parse_float_bits(text, e, m)
    }

    // Expected values below were produced by spirv-as 2025.5 (see the
    // corpus and the probes in the commit history).
    #[test]
    fn integers_follow_c_base_zero_and_sign_extend_hex() {
        assert_eq!(int("010", 32, true).unwrap(), vec![8]);
        assert_eq!(int("+5", 32, true).unwrap(), vec![5]);
        assert_eq!(int("0x80000000", 32, true).unwrap(), vec![0x8000_0000]);
        assert_eq!(int("0xffff", 16, true).unwrap(), vec![0xffff_ffff]);
        assert_eq!(int("-1", 64, true).unwrap(), vec![u32::MAX, u32::MAX]);
        assert!(matches!(int("-1", 32, false), Err(NumberError::InvalidUsage(_))));
        assert!(matches!(int("4294967296", 32, false), Err(NumberError::InvalidText(_))));
        assert!(matches!(int("08", 32, false), Err(NumberError::InvalidText(_))));
        assert!(matches!(int("0x10000", 16, true), Err(NumberError::InvalidText(_))));
    }

    #[test]
    fn floats_match_spirv_as() {
        assert_eq!(f("0x1.8p+128", 8, 23), Some(0x7fc0_0000));
        assert_eq!(f("-0x1.0002p+128", 8, 23), Some(0xff80_0100));
        assert_eq!(f("0x1.fffffffp0", 8, 23), Some(0x3fff_ffff));
        assert_eq!(f("0x10", 8, 23), None);
        assert_eq!(f("1e40", 8, 23), None);
        assert_eq!(f(".5", 8, 23), Some(0x3f00_0000));
        assert_eq!(f("5.", 8, 23), Some(0x40a0_0000));
        // Half: via float32, then toward zero.
        assert_eq!(f("0.1", 5, 10), Some(0x2e66));
        assert_eq!(f("65520", 5, 10), Some(0x7bff));
        assert_eq!(f("1.0009765625", 5, 10), Some(0x3c01));
        // bfloat16.
        assert_eq!(f("1.5", 8, 7), Some(0x3fc0));
        assert_eq!(f("0x1.8p+0", 8, 7), Some(0x3fc0));
    }
}
