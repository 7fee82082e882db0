//! The lexer's entry for the assembler's general path: a byte index that
//! skips trivia and reads the word at it, without building tokens.
//!
//! Words are borrowed slices of the input, and the cursor keeps only a byte
//! index: lines and columns are worked out when a diagnostic needs them.

use super::scan::{self, is_word_end, skip_trivia, starts_with_op, word_end};

/// A place in the text, as a byte index.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Position {
    pub index: usize,
}

/// A cursor over assembly text.
#[derive(Clone)]
pub(crate) struct Cursor<'t> {
    src: &'t str,
    text: &'t [u8],
    pub pos: Position,
}

impl<'t> Cursor<'t> {
    pub fn new(text: &'t str) -> Self {
        Self::without_nul(super::before_nul(text))
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
        let end = word_end(self.text, self.pos.index);
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
        if t[p.index] != b'=' || !is_word_end(t, p.index + 1) {
            return false;
        }
        p.index += 1;
        advance(t, &mut p) && starts_with_op(t, p.index)
    }

    /// 0-based line and column (in bytes) of a byte index.
    pub fn line_col(text: &str, index: usize) -> (u32, u32) {
        scan::line_col(text, index)
    }
}

#[inline]
fn advance(text: &[u8], pos: &mut Position) -> bool {
    pos.index = skip_trivia(text, pos.index);
    pos.index < text.len()
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
        assert_eq!(words("a b\0c d"), ["a", "b"], "a NUL ends the text");
    }

    #[test]
    fn new_instruction_detection() {
        let c = Cursor::new("  %a = OpTypeVoid");
        assert!(c.is_start_of_new_inst());
        let c = Cursor::new("%a %b");
        assert!(!c.is_start_of_new_inst());
        let c = Cursor::new("%a =OpX");
        assert!(!c.is_start_of_new_inst(), "'=OpX' is one word");
    }
}
