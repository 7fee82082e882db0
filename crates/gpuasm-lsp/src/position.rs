//! Byte offsets to LSP positions and back: LSP counts lines and, within a
//! line, UTF-16 code units; the assembler counts bytes.

use lsp_types::{Position, Range};

/// Where each line of a text starts, to turn byte offsets into LSP
/// positions and back.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    /// Byte offset of the start of each line; the first is 0.
    starts: Vec<usize>,
}

impl LineIndex {
    /// The lines of `text`.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The position of byte `at` of `text` (clamped to the text, and back
    /// to a character boundary).
    pub fn position(&self, text: &str, at: usize) -> Position {
        let mut at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= at) - 1;
        let col: usize = text[self.starts[line]..at].chars().map(char::len_utf16).sum();
        Position::new(line as u32, col as u32)
    }

    /// The LSP range of bytes `range` of `text`.
    pub fn range(&self, text: &str, range: std::ops::Range<usize>) -> Range {
        Range::new(self.position(text, range.start), self.position(text, range.end))
    }

    /// The byte offset of `pos` in `text`: past the end of a line is its
    /// end, past the last line is the end of the text.
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let end = self.starts.get(pos.line as usize + 1).map_or(text.len(), |&e| e - 1);
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            if units >= pos.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "a\n\"é𝄞\" x\n";
        let lines = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(text, x), Position::new(1, 6));
        assert_eq!(lines.offset(text, Position::new(1, 6)), x);
        assert_eq!(lines.offset(text, Position::new(0, 99)), 1);
        assert_eq!(lines.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(lines.position(text, 999), Position::new(2, 0));
    }
}
