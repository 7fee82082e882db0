//! The word rules of spirv-as, as functions over bytes: where blanks,
//! comments and words end. Every reader of assembly text goes through
//! these: the token iterator ([`super::Lexer`]), the assembler's cursor
//! ([`super::Cursor`]), its shortcut for common instructions
//! ([`instruction_prefix`], [`scan_id`]) and the planner that splits a large
//! text between threads ([`next_line`], [`line_start`]).
//!
//! Whitespace and `;` comments separate words; a word ends at whitespace,
//! `;`, `,`, `(` or `)` unless inside a double-quoted string or escaped by
//! a backslash. All functions take the text up to any NUL (spirv-as reads
//! a C string).

/// Byte classes: 0 continues a word, 1 ends it, 2 (quote, backslash) needs
/// the careful scan.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let ends = [b' ', b';', b',', b'(', b')', b'\t', b'\n', b'\r'];
    let mut i = 0;
    while i < ends.len() {
        t[ends[i] as usize] = 1;
        i += 1;
    }
    t[b'"' as usize] = 2;
    t[b'\\' as usize] = 2;
    t
};

/// Bytes allowed in an id name: letters, digits, `_` (seed 000).
pub(crate) static ID_CHAR: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = (c as u8).is_ascii_alphanumeric() || c == b'_' as usize;
        c += 1;
    }
    t
};

const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);

/// Past spaces, tabs and carriage returns: the blanks between the words of
/// a line. Disassembled text indents with runs of spaces, skipped eight at
/// a time.
#[inline]
pub(crate) fn skip_blanks(text: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = text.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes")) ^ SPACES;
        if x != 0 {
            i += (x.trailing_zeros() / 8) as usize;
            if !matches!(text[i], b'\t' | b'\r') {
                return i;
            }
            break;
        }
        i += 8;
    }
    while i < text.len() && matches!(text[i], b' ' | b'\t' | b'\r') {
        i += 1;
    }
    i
}

/// Past whitespace, newlines and comments (`;` to the end of the line), to
/// the next word, lone delimiter or the end.
#[inline]
pub(crate) fn skip_trivia(text: &[u8], mut i: usize) -> usize {
    loop {
        i = skip_blanks(text, i);
        match text.get(i) {
            Some(b'\n') => i += 1,
            Some(b';') => i = memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |n| i + n + 1),
            _ => return i,
        }
    }
}

/// The end of the comment starting at `start` (its `;`): the next newline,
/// which is not part of it, or the end.
#[inline]
pub(crate) fn comment_end(text: &[u8], start: usize) -> usize {
    memchr::memchr(b'\n', &text[start..]).map_or(text.len(), |n| start + n)
}

/// The end of the word starting at `start`: `start` itself at a delimiter.
#[inline]
pub(crate) fn word_end(text: &[u8], start: usize) -> usize {
    let mut i = start;
    while i < text.len() && CLASS[text[i] as usize] == 0 {
        i += 1;
    }
    if i == text.len() || CLASS[text[i] as usize] == 1 {
        return i;
    }
    // A quote or backslash: spirv-as's rules, from the start of the word.
    let mut i = start;
    let mut quoting = false;
    let mut escaping = false;
    while let Some(&ch) = text.get(i) {
        if ch == b'\\' {
            escaping = !escaping;
        } else {
            if ch == b'"' {
                if !escaping {
                    quoting = !quoting;
                }
            } else if CLASS[ch as usize] == 1 && !(escaping || quoting) {
                break;
            }
            escaping = false;
        }
        i += 1;
    }
    i
}

/// Whether a word ending at `index` really ends there: the end of the
/// text or a delimiter (not a quote or backslash, which continue it).
#[inline]
pub(crate) fn is_word_end(text: &[u8], index: usize) -> bool {
    text.get(index).is_none_or(|&c| CLASS[c as usize] == 1)
}

/// Whether the word at `index` is an opcode name: `Op` and a capital.
#[inline]
pub(crate) fn starts_with_op(text: &[u8], index: usize) -> bool {
    text.len() >= index + 3 && text[index] == b'O' && text[index + 1] == b'p' && text[index + 2].is_ascii_uppercase()
}

/// Where the line holding byte `at` begins.
#[inline]
pub(crate) fn line_start(text: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &text[..at]).map_or(0, |n| n + 1)
}

/// Where the line after the one holding byte `from` begins, if one does.
#[inline]
pub(crate) fn next_line(text: &[u8], from: usize) -> Option<usize> {
    Some(memchr::memchr(b'\n', text.get(from..)?)? + from + 1)
}

/// 0-based line and column (in bytes) of a byte index.
pub(crate) fn line_col(text: &str, index: usize) -> (u32, u32) {
    let before = &text.as_bytes()[..index.min(text.len())];
    let line = memchr::memchr_iter(b'\n', before).count() as u32;
    let col = before.len() - memchr::memrchr(b'\n', before).map_or(0, |p| p + 1);
    (line, col as u32)
}

// The assembler's shortcut reads the common instruction (`%name = OpCode
// %id %id ...` on one line) with the entries below: the same rules as
// above, specialised to id names and single spaces, and inlined.

/// A result id written in front of an instruction: where its `%` is, where
/// its name ends, and its value if it is a small canonical decimal.
pub(crate) type ResultName = (usize, usize, Option<usize>);

/// The start of an instruction at `p`: `Op...`, or `%name = Op...` on one
/// line. Returns the result name and where the opcode name starts and ends.
#[inline(always)]
pub(crate) fn instruction_prefix(text: &[u8], p: usize) -> Option<(Option<ResultName>, usize, usize)> {
    let mut q = p;
    let mut result = None;
    if text[q] == b'%' {
        let (end, small) = scan_id(text, q)?;
        result = Some((q, end, small));
        q = skip_gap(text, end);
        if text.get(q) != Some(&b'=') || !is_word_end(text, q + 1) {
            return None;
        }
        q = skip_gap(text, q + 1);
    }
    if !starts_with_op(text, q) {
        return None;
    }
    let end = id_chars_end(text, q + 3);
    is_word_end(text, end).then_some((result, q, end))
}

/// [`skip_blanks`], quicker over the usual single space between words.
#[inline(always)]
pub(crate) fn skip_gap(text: &[u8], p: usize) -> usize {
    let Some(&c) = text.get(p) else { return p };
    if c > b' ' || c == b'\n' {
        return p;
    }
    if c == b' ' && text.get(p + 1).is_some_and(|&d| d > b' ') {
        return p + 1;
    }
    skip_blanks(text, p)
}

/// Where the run of id characters (letters, digits, `_`) from `i` ends,
/// eight bytes at a time: names are short, and most fit one step.
#[inline]
pub(crate) fn id_chars_end(text: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = text.get(i..i + 8) {
        let stop = not_id_bytes(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        if stop != 0 {
            return i + (stop.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < text.len() && ID_CHAR[text[i] as usize] {
        i += 1;
    }
    i
}

/// An id word `%name` at `at`: the end of the name and its value when it is
/// a small canonical decimal. `None` unless the name is well formed and
/// followed by a delimiter.
#[inline(always)]
pub(crate) fn scan_id(text: &[u8], at: usize) -> Option<(usize, Option<usize>)> {
    let start = at + 1;
    // Most names end within eight bytes: one step classifies the name and
    // reads its value if it is a number.
    if let Some(chunk) = text.get(start..start + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let (stop, digits) = classify(x);
        if stop != 0 {
            let len = (stop.trailing_zeros() / 8) as usize;
            let end = start + len;
            if len == 0 || !is_word_end(text, end) {
                return None;
            }
            let name = HIGH >> (64 - 8 * len);
            let number = digits & name == name && (len == 1 || chunk[0] != b'0');
            return Some((end, number.then(|| eight_digits(x << (64 - 8 * len)))));
        }
    }
    let i = id_chars_end(text, start);
    let len = i - start;
    if len == 0 || !is_word_end(text, i) {
        return None;
    }
    Some((i, small_number(&text[start..i])))
}

/// The value of a name that is a canonical decimal of at most nine digits
/// ("17", not "017"): such names are numbered by value.
#[inline]
pub(crate) fn small_number(name: &[u8]) -> Option<usize> {
    if name.is_empty() || name.len() > 9 || !name[0].is_ascii_digit() || (name[0] == b'0' && name.len() > 1) {
        return None;
    }
    let mut value = 0usize;
    for &c in name {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        value = value * 10 + d as usize;
    }
    Some(value)
}

/// The value of eight ASCII digits, the first in the low byte; zero bytes
/// count as leading zeros.
#[inline(always)]
fn eight_digits(x: u64) -> usize {
    let x = (x & 0x0f0f_0f0f_0f0f_0f0f).wrapping_mul(2561) >> 8;
    let x = (x & 0x00ff_00ff_00ff_00ff).wrapping_mul(6_553_601) >> 16;
    ((x & 0x0000_ffff_0000_ffff).wrapping_mul(42_949_672_960_001) >> 32) as usize
}

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The top bit of each byte of `x` that is not an id character (a letter,
/// a digit or `_`).
#[inline]
fn not_id_bytes(x: u64) -> u64 {
    classify(x).0
}

/// The top bit of each byte of `x` that is not an id character, and of each
/// that is a digit.
#[inline(always)]
fn classify(x: u64) -> (u64, u64) {
    let y = x & !HIGH;
    // Top bit set where a (7-bit) byte is at least `n`.
    let ge = |v: u64, n: u8| (v + (0x80 - n as u64) * LOW) & HIGH;
    let digit = ge(y, b'0') & !ge(y, b'9' + 1);
    let l = y | (0x20 * LOW);
    let alpha = ge(l, b'a') & !ge(l, b'z' + 1);
    let v = y ^ (b'_' as u64 * LOW);
    let underscore = !(((v & !HIGH) + !HIGH) | v) & HIGH;
    ((!(digit | alpha | underscore) | x) & HIGH, digit & !x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_bytes_match_the_table() {
        for b in 0..=255u8 {
            for pos in 0..8 {
                let mut bytes = [b'a'; 8];
                bytes[pos] = b;
                let stop = not_id_bytes(u64::from_le_bytes(bytes));
                assert_eq!(stop & (0x80 << (pos * 8)) != 0, !ID_CHAR[b as usize], "byte {b:#x} at {pos}");
                assert_eq!(stop & !(0x80 << (pos * 8)), 0, "byte {b:#x} at {pos} marks others");
            }
        }
    }

    /// The one-step scan agrees with the byte-by-byte one on every short
    /// name, digits and other bytes mixed.
    #[test]
    fn one_step_scan_agrees_with_the_slow_one() {
        let alphabet = b"0129a_Z -\n;\x80";
        let mut name = [0u8; 12];
        name[0] = b'%';
        for seed in 0..200_000u64 {
            let mut r = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            for b in name[1..].iter_mut() {
                *b = alphabet[(r % alphabet.len() as u64) as usize];
                r = r.rotate_left(5).wrapping_mul(0x2545_f491_4f6c_dd1d) ^ seed;
            }
            let end = id_chars_end(&name, 1);
            let slow = (end > 1 && is_word_end(&name, end)).then(|| (end, small_number(&name[1..end])));
            assert_eq!(scan_id(&name, 0), slow, "{:?}", String::from_utf8_lossy(&name));
        }
    }

    #[test]
    fn ids_scan_like_spirv_as() {
        assert_eq!(scan_id(b"%abc_1 x", 0), Some((6, None)));
        assert_eq!(scan_id(b"%123\n", 0), Some((4, Some(123))));
        assert_eq!(scan_id(b"%0123 ", 0), Some((5, None)));
        assert_eq!(scan_id(b"%a_very_long_name_indeed;", 0), Some((24, None)));
        assert_eq!(scan_id(b"%1234567890", 0), Some((11, None)));
        assert_eq!(scan_id(b"%a-b", 0), None);
        assert_eq!(scan_id(b"% ", 0), None);
        assert_eq!(scan_id(b"%\xc3\xa9", 0), None);
        assert_eq!(scan_id(b"%0 ", 0), Some((2, Some(0))));
        assert_eq!(scan_id(b"%9876543 ", 0), Some((8, Some(9876543))));
        assert_eq!(scan_id(b"%12345678 ", 0), Some((9, Some(12345678))));
        assert_eq!(scan_id(b"%12a4 ", 0), Some((5, None)));
        assert_eq!(scan_id(b"%0x1 ", 0), Some((4, None)));
        assert_eq!(scan_id(b"%12\xb4 ", 0), None);
    }

    #[test]
    fn instruction_prefixes() {
        assert_eq!(instruction_prefix(b"%a = OpTypeVoid\n", 0), Some((Some((0, 2, None)), 5, 15)));
        assert_eq!(instruction_prefix(b"OpReturn", 0), Some((None, 0, 8)));
        assert_eq!(instruction_prefix(b"%7 =OpX", 0), None, "'=OpX' is one word");
        assert_eq!(instruction_prefix(b"%a = Opx", 0), None);
        assert_eq!(instruction_prefix(b"OpName\"x\"", 0), None);
    }

    #[test]
    fn lines_and_columns() {
        assert_eq!(line_col("ab\ncd\nef", 7), (2, 1));
        assert_eq!(line_start(b"ab\ncd", 4), 3);
        assert_eq!(next_line(b"ab\ncd", 1), Some(3));
        assert_eq!(next_line(b"ab\ncd", 3), None);
    }
}
