//! Walking assembly text the way spirv-as does: whitespace and `;` comments
//! separate words; a word ends at whitespace, `;`, `,`, `(` or `)` unless
//! inside a double-quoted string or escaped by a backslash.
//!
//! Words are borrowed slices of the input: nothing is allocated per token.

/// A place in the text: byte index, 0-based line and column (in bytes).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    pub index: usize,
    pub line: u32,
    pub column: u32,
}

/// A cursor over assembly text.
#[derive(Clone)]
pub struct Cursor<'t> {
    text: &'t [u8],
    pub pos: Position,
}

impl<'t> Cursor<'t> {
    pub fn new(text: &'t str) -> Self {
        // spirv-as reads a C string: a NUL ends the text.
        let bytes = text.as_bytes();
        let end = memchr::memchr(0, bytes).unwrap_or(bytes.len());
        Cursor { text: &bytes[..end], pos: Position::default() }
    }

    pub fn has_text(&self) -> bool {
        self.pos.index < self.text.len()
    }

    /// The byte at the cursor (`0` at the end).
    pub fn peek(&self) -> u8 {
        self.text.get(self.pos.index).copied().unwrap_or(0)
    }

    /// Skips whitespace and comments. Returns false at the end of the text.
    pub fn advance(&mut self) -> bool {
        advance(self.text, &mut self.pos)
    }

    /// The word at the cursor and the position just past it (the cursor
    /// itself does not move).
    pub fn word(&self) -> (&'t str, Position) {
        let mut end = self.pos;
        let w = word(self.text, &mut end);
        (w, end)
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
        if starts_with_op(self.text, pos.index) {
            return true;
        }
        let w = word(self.text, &mut pos);
        if !w.starts_with('%') {
            return false;
        }
        if !advance(self.text, &mut pos) {
            return false;
        }
        if word(self.text, &mut pos) != "=" {
            return false;
        }
        if !advance(self.text, &mut pos) {
            return false;
        }
        starts_with_op(self.text, pos.index)
    }
}

fn advance(text: &[u8], pos: &mut Position) -> bool {
    loop {
        match text.get(pos.index) {
            None => return false,
            Some(b';') => {
                // Comment to the end of the line.
                match memchr::memchr(b'\n', &text[pos.index..]) {
                    None => {
                        pos.column += (text.len() - pos.index) as u32;
                        pos.index = text.len();
                        return false;
                    }
                    Some(n) => {
                        pos.index += n + 1;
                        pos.line += 1;
                        pos.column = 0;
                    }
                }
            }
            Some(b' ' | b'\t' | b'\r') => {
                pos.index += 1;
                pos.column += 1;
            }
            Some(b'\n') => {
                pos.index += 1;
                pos.line += 1;
                pos.column = 0;
            }
            Some(_) => return true,
        }
    }
}

fn word<'t>(text: &'t [u8], pos: &mut Position) -> &'t str {
    let start = pos.index;
    let mut quoting = false;
    let mut escaping = false;
    while let Some(&ch) = text.get(pos.index) {
        if ch == b'\\' {
            escaping = !escaping;
        } else {
            match ch {
                b'"' => {
                    if !escaping {
                        quoting = !quoting;
                    }
                }
                b' ' | b';' | b',' | b'(' | b')' | b'\t' | b'\n' | b'\r' => {
                    if !(escaping || quoting) {
                        break;
                    }
                }
                _ => {}
            }
            escaping = false;
        }
        // Newlines inside strings still count as new lines for positions.
        if ch == b'\n' {
            pos.line += 1;
            pos.column = 0;
        } else {
            pos.column += 1;
        }
        pos.index += 1;
    }
    // The text came from a &str and words end at ASCII bytes, so the slice
    // is valid UTF-8.
    std::str::from_utf8(&text[start..pos.index]).unwrap_or("")
}

fn starts_with_op(text: &[u8], index: usize) -> bool {
    text.len() >= index + 3 && text[index] == b'O' && text[index + 1] == b'p' && text[index + 2].is_ascii_uppercase()
}
