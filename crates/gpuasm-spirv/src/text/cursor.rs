//! Walking assembly text the way spirv-as does: whitespace and `;` comments
//! separate words; a word ends at whitespace, `;`, `,`, `(` or `)` unless
//! inside a double-quoted string or escaped by a backslash.
//!
//! Words are borrowed slices of the input, and the cursor keeps only a byte
//! index: lines and columns are worked out when a diagnostic needs them.

/// A place in the text, as a byte index.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    pub index: usize,
}

/// A cursor over assembly text.
#[derive(Clone)]
pub struct Cursor<'t> {
    src: &'t str,
    text: &'t [u8],
    pub pos: Position,
}

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

impl<'t> Cursor<'t> {
    pub fn new(text: &'t str) -> Self {
        // spirv-as reads a C string: a NUL ends the text.
        let end = memchr::memchr(0, text.as_bytes()).unwrap_or(text.len());
        let src = &text[..end];
        Cursor { src, text: src.as_bytes(), pos: Position::default() }
    }

    /// A cursor over `src`, which holds no NUL (as [`Cursor::source`]
    /// returns it): no need to look for one again.
    pub fn without_nul(src: &'t str) -> Self {
        debug_assert!(!src.as_bytes().contains(&0));
        Cursor { src, text: src.as_bytes(), pos: Position::default() }
    }

    /// The whole text up to a NUL.
    pub fn source(&self) -> &'t str {
        self.src
    }

    /// The whole text (up to a NUL), as bytes.
    #[inline]
    pub fn text_bytes(&self) -> &'t [u8] {
        self.text
    }

    pub fn has_text(&self) -> bool {
        self.pos.index < self.text.len()
    }

    /// The byte at the cursor (`0` at the end).
    pub fn peek(&self) -> u8 {
        self.text.get(self.pos.index).copied().unwrap_or(0)
    }

    /// Steps over one byte (a delimiter).
    pub fn bump(&mut self) {
        self.pos.index += 1;
    }

    /// Skips whitespace and comments. Returns false at the end of the text.
    #[inline]
    pub fn advance(&mut self) -> bool {
        advance(self.text, &mut self.pos)
    }

    /// The word at the cursor and the position just past it (the cursor
    /// itself does not move).
    #[inline]
    pub fn word(&self) -> (&'t str, Position) {
        let end = scan_word(self.text, self.pos.index);
        // Words start and end at ASCII bytes or the ends of the text, so the
        // slice is on character boundaries.
        (&self.src[self.pos.index..end], Position { index: end })
    }

    pub fn starts_with_op(&self) -> bool {
        starts_with_op(self.text, self.pos.index)
    }

    /// Whether the next word begins a new instruction: `Op...`, or
    /// `%id = Op...`.
    pub fn is_start_of_new_inst(&self) -> bool {
        let mut pos = self.pos;
        if !advance(self.text, &mut pos) {
            return false;
        }
        let c = Cursor { pos, ..self.clone() };
        let (w, next) = c.word();
        c.word_starts_instruction(w, next)
    }

    /// Whether `w`, the word at the cursor ending at `next`, begins a new
    /// instruction, without scanning it again.
    #[inline]
    pub fn word_starts_instruction(&self, w: &str, next: Position) -> bool {
        if starts_with_op(self.text, self.pos.index) {
            return true;
        }
        if !w.starts_with('%') {
            return false;
        }
        let t = self.text;
        let mut p = next;
        if !advance(t, &mut p) {
            return false;
        }
        // The next word must be exactly "=".
        if t[p.index] != b'=' || t.get(p.index + 1).is_some_and(|&c| CLASS[c as usize] != 1) {
            return false;
        }
        p.index += 1;
        advance(t, &mut p) && starts_with_op(t, p.index)
    }

    /// 0-based line and column (in bytes) of a byte index.
    pub fn line_col(text: &str, index: usize) -> (u32, u32) {
        let before = &text.as_bytes()[..index.min(text.len())];
        let line = memchr::memchr_iter(b'\n', before).count() as u32;
        let col = before.len() - memchr::memrchr(b'\n', before).map_or(0, |p| p + 1);
        (line, col as u32)
    }
}

#[inline]
fn advance(text: &[u8], pos: &mut Position) -> bool {
    pos.index = skip_space(text, pos.index);
    pos.index < text.len()
}

const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);

/// Past spaces, tabs and carriage returns: the blanks between the words of
/// a line. Disassembled text indents with runs of spaces, skipped eight at
/// a time.
#[inline]
pub fn skip_blanks(text: &[u8], mut i: usize) -> usize {
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

/// Past whitespace and comments (`;` to the end of the line), to the next
/// word or the end.
#[inline]
pub fn skip_space(text: &[u8], mut i: usize) -> usize {
    loop {
        i = skip_blanks(text, i);
        match text.get(i) {
            Some(b'\n') => i += 1,
            Some(b';') => i = memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |n| i + n + 1),
            _ => return i,
        }
    }
}

/// The end of the word starting at `start`.
#[inline]
fn scan_word(text: &[u8], start: usize) -> usize {
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
pub fn is_word_end(text: &[u8], index: usize) -> bool {
    text.get(index).is_none_or(|&c| CLASS[c as usize] == 1)
}

#[inline]
pub fn starts_with_op(text: &[u8], index: usize) -> bool {
    text.len() >= index + 3 && text[index] == b'O' && text[index + 1] == b'p' && text[index + 2].is_ascii_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<&str> {
        let mut c = Cursor::new(text);
        let mut v = Vec::new();
        while c.advance() {
            let (w, next) = c.word();
            if next.index == c.pos.index {
                c.bump();
                continue;
            }
            v.push(w);
            c.pos = next;
        }
        v
    }

    #[test]
    fn words_follow_spirv_as() {
        assert_eq!(words("OpName %a \"b c\" ; comment\n%x = OpFoo"), ["OpName", "%a", "\"b c\"", "%x", "=", "OpFoo"]);
        assert_eq!(words("OpUnknown(1,2)"), ["OpUnknown", "1", "2"]);
        assert_eq!(words("\"a\\\"b\" c\\ d"), ["\"a\\\"b\"", "c\\ d"]);
        assert_eq!(words("\"multi\nline\" x"), ["\"multi\nline\"", "x"]);
    }

    #[test]
    fn new_instruction_detection() {
        let c = Cursor::new("  %a = OpTypeVoid");
        assert!(c.is_start_of_new_inst());
        let c = Cursor::new("%a %b");
        assert!(!c.is_start_of_new_inst());
        let c = Cursor::new("%a =OpX");
        assert!(!c.is_start_of_new_inst(), "'=OpX' is one word");
        assert_eq!(Cursor::line_col("ab\ncd\nef", 7), (2, 1));
    }
}
