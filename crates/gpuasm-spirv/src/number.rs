//! Printing literal numbers the way spirv-dis does.
//!
//! Integers print in decimal. Floats follow seed 000: zero and normal values
//! in decimal with enough significant digits to round-trip (C's `%.9g` for
//! 32-bit, `%.17g` for 64-bit), everything else (subnormals, infinities,
//! NaNs) as a hex float. 16-bit floats, and floats with an `FPEncoding`, are
//! always printed as hex floats, as spirv-dis does.

use crate::binary::{FloatFormat, NumberKind};
use crate::grammar::fp_encoding;
use std::fmt::Write as _;

/// Appends the literal number stored in `words` (low word first).
pub fn write_number(out: &mut Vec<u8>, kind: NumberKind, words: &[u32]) {
    match (words.len(), kind) {
        (1, NumberKind::Signed(_)) => push_bytes(out, itoa::Buffer::new().format(words[0] as i32).as_bytes()),
        (1, NumberKind::Float(f)) => write_float_word(out, f, words[0]),
        (1, _) => write_u32(out, words[0]),
        (2, k) => {
            let bits = words[0] as u64 | ((words[1] as u64) << 32);
            match k {
                NumberKind::Signed(_) => write_int(out, bits as i64),
                NumberKind::Float(_) => write_f64(out, bits),
                _ => write_uint(out, bits),
            }
        }
        // spirv-dis prints nothing for literals wider than 64 bits.
        _ => {}
    }
}

/// Appends an unsigned decimal integer.
#[inline]
pub fn write_uint(out: &mut Vec<u8>, v: u64) {
    push_bytes(out, itoa::Buffer::new().format(v).as_bytes());
}

/// Appends `s`, which is most often a few bytes (a name, a number): a call
/// to `memcpy` per piece was a tenth of the printer's time, so pieces up to
/// 32 bytes are copied inline, as two overlapping loads and stores of the
/// largest power-of-two size that fits.
#[inline(always)]
pub fn push_bytes(out: &mut Vec<u8>, s: &[u8]) {
    let n = s.len();
    if n > 32 {
        out.extend_from_slice(s);
        return;
    }
    out.reserve(32);
    let len = out.len();
    // SAFETY: `reserve` made room for 32 bytes past `len`, and every store
    // below stays within `n <= 32` bytes of it; every load stays within `s`
    // (each pair covers `s[..k]` and `s[n - k..]` with `k <= n`). The bytes
    // up to `len + n` are initialised when the length is set.
    unsafe {
        let src = s.as_ptr();
        let dst = out.as_mut_ptr().add(len);
        if n >= 16 {
            let a = (src as *const u128).read_unaligned();
            let b = (src.add(n - 16) as *const u128).read_unaligned();
            (dst as *mut u128).write_unaligned(a);
            (dst.add(n - 16) as *mut u128).write_unaligned(b);
        } else if n >= 8 {
            let a = (src as *const u64).read_unaligned();
            let b = (src.add(n - 8) as *const u64).read_unaligned();
            (dst as *mut u64).write_unaligned(a);
            (dst.add(n - 8) as *mut u64).write_unaligned(b);
        } else if n >= 4 {
            let a = (src as *const u32).read_unaligned();
            let b = (src.add(n - 4) as *const u32).read_unaligned();
            (dst as *mut u32).write_unaligned(a);
            (dst.add(n - 4) as *mut u32).write_unaligned(b);
        } else if n > 0 {
            *dst = *src;
            *dst.add(n / 2) = *src.add(n / 2);
            *dst.add(n - 1) = *src.add(n - 1);
        }
        out.set_len(len + n);
    }
}

/// Appends an unsigned 32-bit decimal integer (an id, most often), with
/// 32-bit arithmetic, straight into `out`. Inlined where it is called,
/// unlike `itoa`'s: a listing writes a few ids a line, and the call and
/// the copy out of its buffer were half the cost of each.
#[inline(always)]
pub fn write_u32(out: &mut Vec<u8>, v: u32) {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let n = decimal_len(v);
    out.reserve(10);
    let len = out.len();
    // SAFETY: `reserve` made room for 10 bytes past `len`; the digits go to
    // `len..len + n` with `n <= 10` (from the last one back, two at a time,
    // `end` never below 0 since `n` counts them), and every load is within
    // `PAIRS` (`pair <= 198`). The bytes up to `len + n` are initialised
    // when the length is set.
    unsafe {
        let dst = out.as_mut_ptr().add(len);
        let (mut v, mut end) = (v, n);
        while v >= 100 {
            let pair = (v % 100) as usize * 2;
            v /= 100;
            end -= 2;
            std::ptr::copy_nonoverlapping(PAIRS.as_ptr().add(pair), dst.add(end), 2);
        }
        if v >= 10 {
            std::ptr::copy_nonoverlapping(PAIRS.as_ptr().add(v as usize * 2), dst, 2);
        } else {
            *dst = b'0' + v as u8;
        }
        out.set_len(len + n);
    }
}

/// How many decimal digits `v` has: from its bit length (`* 1233 >> 12`
/// is `* log10(2)` rounded down for 32 bits), less one below that power
/// of ten.
#[inline(always)]
pub fn decimal_len(v: u32) -> usize {
    const POWERS: [u32; 10] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000];
    let v = v | 1;
    let t = ((32 - v.leading_zeros()) * 1233) >> 12;
    (t + 1) as usize - usize::from(v < POWERS[t as usize])
}

/// Appends a signed decimal integer.
#[inline]
pub fn write_int(out: &mut Vec<u8>, v: i64) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

fn write_float_word(out: &mut Vec<u8>, f: FloatFormat, word: u32) {
    match f.encoding {
        Some(fp_encoding::BFloat16KHR) => write_hex_float(out, (word & 0xffff) as u64, 8, 7),
        Some(fp_encoding::Float8E4M3EXT) => write_hex_float(out, (word & 0xff) as u64, 4, 3),
        Some(fp_encoding::Float8E5M2EXT) => write_hex_float(out, (word & 0xff) as u64, 5, 2),
        _ if f.width == 16 => write_hex_float(out, (word & 0xffff) as u64, 5, 10),
        _ if f.width == 32 => write_f32(out, word),
        // spirv-dis prints nothing for other one-word widths.
        _ => {}
    }
}

/// Appends a 32-bit float given by its bits.
pub fn write_f32(out: &mut Vec<u8>, bits: u32) {
    let v = f32::from_bits(bits);
    if v.is_normal() && write_short_f32(out, v) {
        return;
    }
    if v == 0.0 || v.is_normal() {
        write_g(out, v as f64, 9);
    } else {
        write_hex_float(out, bits as u64, 8, 23);
    }
}

/// `%.9g` of `v` where it is quick: `1e-4 <= |v| < 1e9`, printed in fixed
/// notation. `|v| * 10^s`, for the `s` that makes it a 9-digit integer
/// part, is exact in an `f64`: `v` is `m * 2^e` with `m < 2^24`, and
/// `s <= 12` here, so the product's significand `m * 5^s` is below 2^53.
/// Rounding that to an integer (ties to even, as glibc's printf and Rust's
/// formatting round exact ties) gives `%.9g`'s 9 significant digits.
/// Returns false, having written nothing, for other values (and where the
/// rounding carries into a tenth digit).
fn write_short_f32(out: &mut Vec<u8>, v: f32) -> bool {
    /// 10^0 ..= 10^12, all exact.
    const POW10: [f64; 13] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12];
    let a = (v as f64).abs();
    if !(1e-4..1e9).contains(&a) {
        return false;
    }
    // The decimal exponent `x` (10^x <= a < 10^(x+1)), from a first guess
    // corrected on the exact product.
    let mut x = a.log10().floor() as i32;
    let scaled = loop {
        let s = 8 - x;
        if !(0..=12).contains(&s) {
            return false;
        }
        let scaled = a * POW10[s as usize];
        if scaled < 1e8 {
            x -= 1;
        } else if scaled >= 1e9 {
            x += 1;
        } else {
            break scaled;
        }
    };
    let n = scaled.round_ties_even() as u64;
    if n >= 1_000_000_000 {
        return false;
    }
    let mut buf = itoa::Buffer::new();
    let d = buf.format(n).as_bytes();
    if v < 0.0 {
        out.push(b'-');
    }
    if x >= 0 {
        let int = x as usize + 1;
        out.extend_from_slice(&d[..int]);
        let frac = &d[int..];
        let kept = frac.len() - frac.iter().rev().take_while(|&&c| c == b'0').count();
        if kept > 0 {
            out.push(b'.');
            out.extend_from_slice(&frac[..kept]);
        }
    } else {
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat_n(b'0', (-x - 1) as usize));
        let kept = d.len() - d.iter().rev().take_while(|&&c| c == b'0').count();
        out.extend_from_slice(&d[..kept]);
    }
    true
}

/// Appends a 64-bit float given by its bits.
pub fn write_f64(out: &mut Vec<u8>, bits: u64) {
    let v = f64::from_bits(bits);
    if v == 0.0 || v.is_normal() {
        write_g(out, v, 17);
    } else {
        write_hex_float(out, bits, 11, 52);
    }
}

/// A fixed-size stack buffer for `fmt::Write`, so formatting allocates nothing.
struct StackBuf {
    buf: [u8; 400],
    len: usize,
}

impl std::fmt::Write for StackBuf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(std::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// C's `%.<precision>g` for a finite value. Rust's `{:e}` and `{:.N}` are
/// correctly rounded, as glibc's printf is, so the digits agree.
fn write_g(out: &mut Vec<u8>, v: f64, precision: usize) {
    let mut sci = StackBuf { buf: [0; 400], len: 0 };
    let _ = write!(sci, "{:.*e}", precision - 1, v);
    let s = std::str::from_utf8(&sci.buf[..sci.len]).unwrap();
    let (mantissa, exp) = s.split_once('e').unwrap();
    let exp: i32 = exp.parse().unwrap();
    if exp < -4 || exp >= precision as i32 {
        out.extend_from_slice(strip_fraction_zeros(mantissa).as_bytes());
        out.push(b'e');
        out.push(if exp < 0 { b'-' } else { b'+' });
        let a = exp.unsigned_abs();
        if a < 10 {
            out.push(b'0');
        }
        write_uint(out, a as u64);
    } else {
        let decimals = (precision as i32 - 1 - exp) as usize;
        let mut fixed = StackBuf { buf: [0; 400], len: 0 };
        let _ = write!(fixed, "{:.*}", decimals, v);
        let s = std::str::from_utf8(&fixed.buf[..fixed.len]).unwrap();
        out.extend_from_slice(strip_fraction_zeros(s).as_bytes());
    }
}

fn strip_fraction_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// Appends a hex float in SPIRV-Tools' form: `[-]0x1.<hex>p<+|->exp`, the
/// fraction padded to whole nibbles with trailing zero nibbles dropped,
/// subnormals normalised, and infinities and NaNs shown with the maximum
/// exponent (seed 000).
pub fn write_hex_float(out: &mut Vec<u8>, bits: u64, exp_bits: u32, frac_bits: u32) {
    let nibble_bits = frac_bits.div_ceil(4) * 4;
    let overflow = nibble_bits - frac_bits;
    let sign = (bits >> (exp_bits + frac_bits)) & 1 != 0;
    let exponent = (bits >> frac_bits) & ((1u64 << exp_bits) - 1);
    let mut fraction = (bits & ((1u64 << frac_bits) - 1)) << overflow;
    let bias = (1i64 << (exp_bits - 1)) - 1;
    let is_zero = exponent == 0 && fraction == 0;
    let is_denorm = exponent == 0 && !is_zero;
    let mut e = if is_zero { 0 } else { exponent as i64 - bias };
    if is_denorm {
        let top = 1u64 << (nibble_bits - 1);
        while fraction & top == 0 {
            fraction <<= 1;
            e -= 1;
        }
        fraction <<= 1;
        fraction &= (1u64 << nibble_bits) - 1;
    }
    let mut nibbles = nibble_bits / 4;
    while nibbles > 0 && fraction & 0xf == 0 {
        fraction >>= 4;
        nibbles -= 1;
    }
    if sign {
        out.push(b'-');
    }
    out.extend_from_slice(if is_zero { b"0x0" } else { b"0x1" });
    if nibbles > 0 {
        out.push(b'.');
        for i in (0..nibbles).rev() {
            out.push(b"0123456789abcdef"[((fraction >> (i * 4)) & 0xf) as usize]);
        }
    }
    out.push(b'p');
    if e >= 0 {
        out.push(b'+');
    }
    write_int(out, e);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: f32) -> String {
        let mut o = Vec::new();
        write_f32(&mut o, v.to_bits());
        String::from_utf8(o).unwrap()
    }

    fn f64s(v: f64) -> String {
        let mut o = Vec::new();
        write_f64(&mut o, v.to_bits());
        String::from_utf8(o).unwrap()
    }

    /// Every digit count and every boundary between two of them, after
    /// text already in the buffer.
    #[test]
    fn u32s_print_as_decimal() {
        let mut values = vec![0, 1, 9, 10, 11, 99, 100, 101, 999, 12345, 4_294_967_294, u32::MAX];
        for p in 1..=9 {
            let p = 10u32.pow(p);
            values.extend([p - 1, p, p + 1, p * 3 + 7]);
        }
        for v in values {
            let mut o = b"x".to_vec();
            write_u32(&mut o, v);
            assert_eq!(o, format!("x{v}").into_bytes(), "{v}");
            assert_eq!(decimal_len(v), v.to_string().len(), "{v}");
        }
    }

    // Expected strings below were printed by spirv-dis 2025.5 for the same bits.
    #[test]
    fn decimal_forms_match_spirv_dis() {
        assert_eq!(f32s(0.1), "0.100000001");
        assert_eq!(f32s(1e10), "1e+10");
        assert_eq!(f32s(-0.0), "-0");
        assert_eq!(f32s(123456789.0), "123456792");
        assert_eq!(f32s(0.0001), "9.99999975e-05");
        assert_eq!(f64s(0.1), "0.10000000000000001");
        assert_eq!(f64s(1e100), "1e+100");
    }

    /// The quick form is `%.9g`'s ([`write_g`], held to spirv-dis by the
    /// corpora): on values it takes (`n / 10^k` around its limits, and
    /// float neighbours of each) and on a spread of bit patterns.
    #[test]
    fn the_quick_decimal_form_is_the_general_one() {
        let general = |v: f32| {
            let mut o = Vec::new();
            write_g(&mut o, v as f64, 9);
            o
        };
        let mut checked = 0;
        let mut quick = 0;
        let mut check = |v: f32| {
            if !v.is_normal() {
                return;
            }
            let mut o = Vec::new();
            if write_short_f32(&mut o, v) {
                assert_eq!(
                    String::from_utf8(o).unwrap(),
                    String::from_utf8(general(v)).unwrap(),
                    "bits {:#x}",
                    v.to_bits()
                );
                quick += 1;
            } else {
                assert!(o.is_empty());
            }
            checked += 1;
        };
        for k in 0..=10 {
            let p = 10f64.powi(k);
            for n in (0..2000u64).chain(999_999_000..1_000_001_000).chain((1..2000).map(|i| i * 4_999_999)) {
                let v = (n as f64 / p) as f32;
                for w in
                    [v, -v, f32::from_bits(v.to_bits().wrapping_add(1)), f32::from_bits(v.to_bits().wrapping_sub(1))]
                {
                    check(w);
                }
            }
        }
        for b in (0..u32::MAX).step_by(4093).chain((1e-4f32.to_bits()..1e9f32.to_bits()).step_by(997)) {
            check(f32::from_bits(b));
        }
        // Exact ties at the tenth digit (2^-13 is 0.0001220703125).
        for e in -14..30 {
            for m in 1..64u32 {
                check(m as f32 * 2f32.powi(e));
            }
        }
        assert!(checked > 1_000_000 && quick > 200_000, "{checked} {quick}");
        assert_eq!(f32s(0.0001), "9.99999975e-05");
        assert_eq!(f32s(0.5), "0.5");
        assert_eq!(f32s(-2.25), "-2.25");
        assert_eq!(f32s(100000000.0), "100000000");
        assert_eq!(f32s(1e9), "1e+09");
    }

    #[test]
    fn hex_forms_match_spirv_dis() {
        assert_eq!(f32s(1e-40), "0x1.16c2p-133");
        assert_eq!(f32s(f32::INFINITY), "0x1p+128");
        assert_eq!(f32s(f32::from_bits(0x7fc00000)), "0x1.8p+128");
        assert_eq!(f32s(f32::from_bits(0xff800100)), "-0x1.0002p+128");
        let mut o = Vec::new();
        write_hex_float(&mut o, 0x3c00, 5, 10);
        assert_eq!(o, b"0x1p+0");
    }
}

#[cfg(test)]
mod push_bytes_tests {
    use super::push_bytes;

    #[test]
    fn every_length_appends_exactly_its_bytes() {
        let source: Vec<u8> = (0..40u8).collect();
        for start in 0..3 {
            for n in 0..=37 {
                let mut out = b"ab".to_vec();
                push_bytes(&mut out, &source[start..start + n]);
                assert_eq!(&out[..2], b"ab");
                assert_eq!(&out[2..], &source[start..start + n], "{n} bytes");
            }
        }
    }
}
