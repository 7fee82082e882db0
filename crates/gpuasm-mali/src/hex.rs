//! Hex listings of programs, the text form `gpuasm mali-pp` reads and
//! writes beside raw words: one instruction a line, `@<word offset>: ` and
//! its words as eight hex digits, as in the corpus of Mesa-compiled
//! programs.
//!
//! ```
//! use gpuasm_mali::hex::{from_listing, to_listing};
//!
//! let words = [0x0002_0425, 0x0000_015c, 0x01e0_07cf, 0, 0, 0x21];
//! let listing = to_listing(&words);
//! assert_eq!(listing, "@0: 00020425 0000015c 01e007cf 00000000 00000000\n@5: 00000021\n");
//! assert_eq!(from_listing(&listing).unwrap(), words);
//! ```

use crate::program::decode;
use std::fmt::Write;

/// A word of a listing that is not hexadecimal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: '{token}' is not a hex word")]
#[non_exhaustive]
pub struct ListingError {
    /// 1-based line of the word.
    pub line: usize,
    /// The word as written.
    pub token: String,
}

/// The listing of a program: one instruction a line (lengths from the
/// control words; an undecodable instruction takes the words its count
/// says, at least one), `@<offset>: <words>`.
pub fn to_listing(words: &[u32]) -> String {
    let mut out = String::new();
    let mut pos = 0;
    while pos < words.len() {
        let len = match decode(&words[pos..]) {
            Ok((_, len)) => len,
            Err(e) => e.len,
        };
        let _ = write!(out, "@{pos}:");
        for w in &words[pos..pos + len] {
            let _ = write!(out, " {w:08x}");
        }
        out.push('\n');
        pos += len;
    }
    out
}

/// The words of a listing. Lenient in what it takes: a `@<offset>:` prefix
/// is optional (and not checked), `#` starts a comment, words may carry
/// `0x` and any number of them may share a line.
pub fn from_listing(text: &str) -> Result<Vec<u32>, ListingError> {
    let mut words = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let body = line.split('#').next().unwrap_or("");
        let body = match body.split_once(':') {
            Some((at, rest)) if at.trim_start().starts_with('@') => rest,
            _ => body,
        };
        for tok in body.split_whitespace() {
            let t = tok.trim_start_matches("0x");
            let w = u32::from_str_radix(t, 16).map_err(|_| ListingError { line: n + 1, token: tok.to_string() })?;
            words.push(w);
        }
    }
    Ok(words)
}

/// True if `bytes` could be a listing: not empty and only hex digits,
/// whitespace and `@:x#`. How `gpuasm mali-pp dis` tells a listing from raw
/// words when no format is given.
pub fn looks_like_listing(bytes: &[u8]) -> bool {
    !bytes.is_empty() && bytes.iter().all(|&b| b.is_ascii_hexdigit() || b.is_ascii_whitespace() || b"@:x#".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undecodable_instructions_take_their_count() {
        // A count of 3 with no unit present: three words as one line; a
        // count of 0: one word.
        assert_eq!(to_listing(&[3, 1, 2, 0]), "@0: 00000003 00000001 00000002\n@3: 00000000\n");
        // Truncated: the rest of the program.
        assert_eq!(to_listing(&[0x0002_0425, 0x15c]), "@0: 00020425 0000015c\n");
        assert_eq!(to_listing(&[]), "");
    }

    #[test]
    fn offsets_comments_and_prefixes_are_optional() {
        let text = "@0: 0x21 # stop\n  22 23\n\n# only a comment\n@9:24\n";
        assert_eq!(from_listing(text).unwrap(), [0x21, 0x22, 0x23, 0x24]);
    }

    #[test]
    fn a_bad_word_names_its_line() {
        let e = from_listing("@0: 21\n@1: 2g\n").unwrap_err();
        assert_eq!(e, ListingError { line: 2, token: "2g".into() });
        assert_eq!(e.to_string(), "line 2: '2g' is not a hex word");
        assert!(from_listing("123456789").is_err(), "wider than 32 bits");
    }

    #[test]
    fn listings_are_told_from_raw_words() {
        assert!(looks_like_listing(b"@0: 00000021\n"));
        assert!(!looks_like_listing(b""));
        assert!(!looks_like_listing(&[0x21, 0, 0, 0]));
    }
}
