//! Turning input bytes into host-order words: binary files of either byte
//! order, and the hex-text form spirv-dis also accepts.

use super::{BinaryError, BinaryErrorKind, MAGIC};

/// Byte order of a module, told by its magic number (seed 003).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Endian {
    /// The magic number reads `03 02 23 07` (also the answer when it is in
    /// neither order).
    Little,
    /// The magic number reads `07 23 02 03`.
    Big,
}

/// Converts a binary module's bytes into host-order words. The byte order is
/// taken from the magic number; anything that is not a multiple of four bytes
/// is an error. When the magic is in neither order, the words are returned in
/// little-endian order and the header check reports it.
pub fn words_from_bytes(bytes: &[u8]) -> Result<(Vec<u32>, Endian), BinaryError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(BinaryError::new(BinaryErrorKind::NotWordAligned { bytes: bytes.len() }, bytes.len() / 4));
    }
    let big = bytes.len() >= 4 && u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) == MAGIC;
    let words = bytes
        .chunks_exact(4)
        .map(|c| {
            let b = [c[0], c[1], c[2], c[3]];
            if big {
                u32::from_be_bytes(b)
            } else {
                u32::from_le_bytes(b)
            }
        })
        .collect();
    Ok((words, if big { Endian::Big } else { Endian::Little }))
}

/// Like [`words_from_bytes`], but borrows the words when `bytes` already
/// holds them in host order at a 4-byte boundary (a little-endian module
/// read into memory or mapped from a file): no copy of a large module.
///
/// ```
/// use gpuasm_spirv::binary::{words_of_bytes, Endian};
/// let bytes: Vec<u8> = [0x0723_0203u32, 0x0001_0000, 0, 1, 0].iter().flat_map(|w| w.to_le_bytes()).collect();
/// let (words, endian) = words_of_bytes(&bytes).unwrap();
/// assert_eq!((words[0], endian), (0x0723_0203, Endian::Little));
/// ```
pub fn words_of_bytes(bytes: &[u8]) -> Result<(std::borrow::Cow<'_, [u32]>, Endian), BinaryError> {
    let big = bytes.len() >= 4 && u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) == MAGIC;
    if !big && bytes.len().is_multiple_of(4) {
        // SAFETY: every bit pattern is a valid u32; `align_to` puts in the
        // middle only the words that are properly aligned.
        let (head, words, tail) = unsafe { bytes.align_to::<u32>() };
        if head.is_empty() && tail.is_empty() {
            return Ok((std::borrow::Cow::Borrowed(words), Endian::Little));
        }
    }
    words_from_bytes(bytes).map(|(words, endian)| (std::borrow::Cow::Owned(words), endian))
}

/// True when the input looks like the hex-text form rather than a binary:
/// only hex digits, `x`/`X`, commas and whitespace.
pub fn looks_like_hex_text(bytes: &[u8]) -> bool {
    !bytes.is_empty()
        && bytes.iter().any(|b| b.is_ascii_hexdigit())
        && bytes
            .iter()
            .all(|&b| b.is_ascii_hexdigit() || b == b'x' || b == b'X' || b == b',' || b.is_ascii_whitespace())
}

/// Reads the hex-text form: a stream of 32-bit words (up to 8 digits each) or
/// of bytes (up to 2 digits each, in file order), each with an optional `0x`
/// or `x` prefix, separated by whitespace or commas. Word streams whose
/// first word is the byte-swapped magic are swapped back ([`Endian::Big`]);
/// byte streams go through [`words_from_bytes`]. A token that is not a hex
/// number is a [`BinaryErrorKind::BadHexText`] naming its line and column.
pub fn words_from_hex_text(text: &[u8]) -> Result<(Vec<u32>, Endian), BinaryError> {
    let err = |pos: usize, message: String| {
        let line = text[..pos].iter().filter(|&&b| b == b'\n').count() + 1;
        let column = pos - text[..pos].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
        BinaryError::new(BinaryErrorKind::BadHexText { line, column, message }, 0)
    };
    let mut tokens: Vec<(usize, &[u8])> = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_whitespace() || text[i] == b',' {
            i += 1;
            continue;
        }
        let start = i;
        while i < text.len() && !(text[i].is_ascii_whitespace() || text[i] == b',') {
            i += 1;
        }
        let mut tok = &text[start..i];
        if tok.len() >= 2 && tok[0] == b'0' && (tok[1] == b'x' || tok[1] == b'X') {
            tok = &tok[2..];
        } else if !tok.is_empty() && (tok[0] == b'x' || tok[0] == b'X') {
            tok = &tok[1..];
        }
        if tok.is_empty() || tok.len() > 8 || !tok.iter().all(u8::is_ascii_hexdigit) {
            return Err(err(start, format!("'{}' is not a hex number", String::from_utf8_lossy(&text[start..i]))));
        }
        tokens.push((start, tok));
    }
    let value = |t: &[u8]| t.iter().fold(0u32, |v, &b| (v << 4) | (b as char).to_digit(16).unwrap());
    let bytes_form = tokens.iter().all(|(_, t)| t.len() <= 2);
    if bytes_form {
        let bytes: Vec<u8> = tokens.iter().map(|(_, t)| value(t) as u8).collect();
        return words_from_bytes(&bytes);
    }
    let words: Vec<u32> = tokens.iter().map(|(_, t)| value(t)).collect();
    if let Some(&first) = words.first() {
        if first == MAGIC.swap_bytes() {
            return Ok((words.into_iter().map(u32::swap_bytes).collect(), Endian::Big));
        }
    }
    Ok((words, Endian::Little))
}

/// The little-endian bytes of `words`, as a module file holds them, without
/// a copy.
pub fn words_as_le_bytes(words: &[u32]) -> &[u8] {
    #[cfg(target_endian = "big")]
    compile_error!("gpuasm-spirv assumes a little-endian host");
    // SAFETY: u32 has no padding and every byte pattern is a valid u8; the
    // slice covers exactly the memory of `words`, which it borrows.
    unsafe { std::slice::from_raw_parts(words.as_ptr() as *const u8, std::mem::size_of_val(words)) }
}
