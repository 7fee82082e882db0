//! Assembly text that is not all UTF-8.
//!
//! spirv-as reads bytes: a string literal's bytes go into the module as they
//! are, and `%\xff` and `%\xfe` are two different names. The assembler reads
//! `&str`, so [`text_from_bytes`] stands each byte that is not part of valid
//! UTF-8 in for a character of a private-use block the text does not use
//! (byte `b` becomes `base + b`), and the string-literal encoder turns those
//! characters back into the bytes ([`RawBytes::restore`]). Names stay
//! distinct, so ids are numbered as spirv-as numbers them.

use std::borrow::Cow;

/// The stand-ins chosen for one text: byte `b` (always 0x80 or more, as
/// ASCII is valid UTF-8) was replaced by the character `base + b`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawBytes {
    base: u32,
}

/// Private-use planes 15 and 16: blocks of 256 characters starting here.
const FIRST_BLOCK: u32 = 0xF_0000;
const BLOCKS: usize = 0x200;

/// The text of `bytes`: borrowed when it is UTF-8, else with stand-ins for
/// the invalid bytes and the [`RawBytes`] to give to the assembler
/// ([`super::AsmOptions::raw_bytes`]). In the unlikely case that the text
/// uses a character of every candidate block, invalid bytes are replaced by
/// U+FFFD (and `None` returned).
pub fn text_from_bytes(bytes: &[u8]) -> (Cow<'_, str>, Option<RawBytes>) {
    let first_error = match std::str::from_utf8(bytes) {
        Ok(text) => return (Cow::Borrowed(text), None),
        Err(e) => e.valid_up_to(),
    };
    // Blocks used by the valid parts of the text.
    let mut used = vec![false; BLOCKS];
    let mut note = |s: &str| {
        for c in s.chars() {
            let c = c as u32;
            if c >= FIRST_BLOCK {
                used[((c - FIRST_BLOCK) >> 8) as usize] = true;
            }
        }
    };
    let mut rest = &bytes[first_error..];
    note(std::str::from_utf8(&bytes[..first_error]).unwrap_or(""));
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                note(s);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                note(std::str::from_utf8(good).unwrap_or(""));
                rest = &bad[e.error_len().unwrap_or(bad.len()).min(bad.len())..];
            }
        }
    }
    let Some(block) = used.iter().position(|&u| !u) else {
        return (String::from_utf8_lossy(bytes), None);
    };
    let raw = RawBytes { base: FIRST_BLOCK + ((block as u32) << 8) };
    let mut out = String::with_capacity(bytes.len() + 16);
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or(""));
                let n = e.error_len().unwrap_or(bad.len()).min(bad.len());
                for &b in &bad[..n] {
                    out.push(raw.stand_in(b));
                }
                rest = &bad[n..];
            }
        }
    }
    (Cow::Owned(out), Some(raw))
}

impl RawBytes {
    fn stand_in(self, byte: u8) -> char {
        char::from_u32(self.base + byte as u32).unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    /// The bytes of a string literal with every stand-in turned back into
    /// the byte it stands for.
    pub fn restore<'a>(&self, bytes: &'a [u8]) -> Cow<'a, [u8]> {
        // Stand-ins are 4-byte sequences (planes 15 and 16 lead with F3/F4).
        if !bytes.iter().any(|&b| b == 0xF3 || b == 0xF4) {
            return Cow::Borrowed(bytes);
        }
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes.len() - i >= 4 && (bytes[i] == 0xF3 || bytes[i] == 0xF4) {
                if let Some(c) = std::str::from_utf8(&bytes[i..i + 4]).ok().and_then(|s| s.chars().next()) {
                    let c = c as u32;
                    if c >= self.base + 0x80 && c <= self.base + 0xFF {
                        out.push((c - self.base) as u8);
                        i += 4;
                        continue;
                    }
                }
            }
            out.push(bytes[i]);
            i += 1;
        }
        Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_text_is_borrowed() {
        let (text, raw) = text_from_bytes("OpNop ; é\n".as_bytes());
        assert!(matches!(text, Cow::Borrowed(_)));
        assert_eq!(raw, None);
    }

    #[test]
    fn invalid_bytes_come_back_from_strings() {
        let src = b"OpSourceExtension \"\xff\xfe\xc3 ok\"\n";
        let (text, raw) = text_from_bytes(src);
        let raw = raw.unwrap();
        let start = text.find('"').unwrap() + 1;
        let end = text.rfind('"').unwrap();
        assert_eq!(&*raw.restore(&text.as_bytes()[start..end]), b"\xff\xfe\xc3 ok");
    }

    #[test]
    fn stand_ins_avoid_blocks_the_text_uses() {
        // The text uses the first block: the stand-ins come from another.
        let mut src = "OpSourceExtension \"\u{F0080}\"\n".as_bytes().to_vec();
        src.extend_from_slice(b"OpSourceExtension \"\x80\"\n");
        let (text, raw) = text_from_bytes(&src);
        let raw = raw.unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let inner = |l: &str| l.as_bytes()[l.find('"').unwrap() + 1..l.rfind('"').unwrap()].to_vec();
        assert_eq!(&*raw.restore(&inner(lines[0])), "\u{F0080}".as_bytes());
        assert_eq!(&*raw.restore(&inner(lines[1])), b"\x80");
    }
}
