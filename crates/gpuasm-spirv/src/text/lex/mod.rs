//! The lexer for SPIR-V assembly text: the one place that knows where
//! spirv-as's words, strings, comments and blanks begin and end.
//!
//! [`Lexer`] cuts a text into [`Token`]s without losing a byte: every byte
//! of the input is in exactly one token, so the tokens' texts put together
//! give the input back, and each token carries its byte span. The
//! assembler reads the same rules through cheaper entries that skip trivia
//! and borrow words without building tokens: a cursor for the general path,
//! and inlined scanners for the shortcut that reads the common instruction
//! (see `scan.rs`).

mod cursor;
pub(crate) mod scan;

pub(crate) use cursor::{Cursor, Position};
use std::ops::Range;

/// What a [`Token`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TokenKind {
    /// A word not starting with a double quote: an opcode, an id, `=`, a
    /// number, an enumerant, `!<integer>`... It ends at whitespace, `;`,
    /// `,`, `(` or `)`, except where quoted or escaped by a backslash (so a
    /// quote inside it runs on to the closing quote).
    Word,
    /// A word starting with a double quote: a literal string as spirv-as
    /// reads it, up to the closing quote and on to the next delimiter (a
    /// backslash takes the next byte as it is; an unclosed string runs to
    /// the end of the text). `unescape_string` (in `text/literal.rs`)
    /// gives its bytes.
    String,
    /// `;` and the rest of its line (not the newline).
    Comment,
    /// A run of spaces, tabs and carriage returns.
    Whitespace,
    /// One `\n`.
    Newline,
    /// `,`, `(` or `)` on its own: they end words, and `OpUnknown(opcode,
    /// count)` uses them.
    Punct,
    /// A NUL and everything after it: spirv-as reads the text as a C
    /// string, so that part is never read.
    AfterNul,
}

impl TokenKind {
    /// Whether tokens of this kind separate words without being read:
    /// whitespace, newlines and comments.
    pub fn is_trivia(self) -> bool {
        matches!(self, TokenKind::Whitespace | TokenKind::Newline | TokenKind::Comment)
    }
}

/// A piece of assembly text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'t> {
    /// What it is.
    pub kind: TokenKind,
    /// Its bytes in the input.
    pub span: Range<usize>,
    /// Its text: `&input[span]`.
    pub text: &'t str,
}

/// The tokens of a text, in order: every byte of the input is in exactly
/// one token, so the tokens' texts put together give the input back.
///
/// ```
/// use gpuasm_spirv::text::{Lexer, TokenKind};
/// let text = "%s = OpString \"a b\" ; note\n";
/// let kinds: Vec<(TokenKind, &str)> = Lexer::new(text).map(|t| (t.kind, t.text)).collect();
/// assert_eq!(kinds[6], (TokenKind::String, "\"a b\""));
/// assert_eq!(kinds[8], (TokenKind::Comment, "; note"));
/// assert_eq!(Lexer::new(text).map(|t| t.text).collect::<String>(), text);
/// ```
#[derive(Clone, Debug)]
pub struct Lexer<'t> {
    input: &'t str,
    /// The length of the text read: up to any NUL.
    read: usize,
    at: usize,
}

impl<'t> Lexer<'t> {
    /// A lexer over the whole of `input`.
    pub fn new(input: &'t str) -> Self {
        Lexer { input, read: before_nul(input).len(), at: 0 }
    }

    /// Where the next token starts.
    pub fn offset(&self) -> usize {
        self.at
    }
}

impl<'t> Iterator for Lexer<'t> {
    type Item = Token<'t>;

    fn next(&mut self) -> Option<Token<'t>> {
        let start = self.at;
        if start >= self.input.len() {
            return None;
        }
        let src = &self.input.as_bytes()[..self.read];
        let (kind, end) = match src.get(start) {
            None => (TokenKind::AfterNul, self.input.len()),
            Some(b' ' | b'\t' | b'\r') => (TokenKind::Whitespace, scan::skip_blanks(src, start)),
            Some(b'\n') => (TokenKind::Newline, start + 1),
            Some(b';') => (TokenKind::Comment, scan::comment_end(src, start)),
            Some(b',' | b'(' | b')') => (TokenKind::Punct, start + 1),
            Some(b'"') => (TokenKind::String, scan::word_end(src, start)),
            Some(_) => (TokenKind::Word, scan::word_end(src, start)),
        };
        self.at = end;
        // Tokens start and end at ASCII bytes or the ends of the text.
        Some(Token { kind, span: start..end, text: &self.input[start..end] })
    }
}

impl std::iter::FusedIterator for Lexer<'_> {}

/// The part of `text` spirv-as reads: up to the first NUL.
pub(crate) fn before_nul(text: &str) -> &str {
    match memchr::memchr(0, text.as_bytes()) {
        Some(end) => &text[..end],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use TokenKind::*;

    fn tokens(text: &str) -> Vec<(TokenKind, &str)> {
        Lexer::new(text).map(|t| (t.kind, t.text)).collect()
    }

    #[test]
    fn each_kind() {
        assert_eq!(
            tokens("  %x = OpFoo\t\"a b\" ;c\r\n"),
            [
                (Whitespace, "  "),
                (Word, "%x"),
                (Whitespace, " "),
                (Word, "="),
                (Whitespace, " "),
                (Word, "OpFoo"),
                (Whitespace, "\t"),
                (String, "\"a b\""),
                (Whitespace, " "),
                (Comment, ";c\r"),
                (Newline, "\n"),
            ]
        );
        assert_eq!(
            tokens("OpUnknown(1, 2)"),
            [
                (Word, "OpUnknown"),
                (Punct, "("),
                (Word, "1"),
                (Punct, ","),
                (Whitespace, " "),
                (Word, "2"),
                (Punct, ")")
            ]
        );
        assert_eq!(tokens("a\0b c"), [(Word, "a"), (AfterNul, "\0b c")]);
        assert_eq!(tokens("\0"), [(AfterNul, "\0")]);
        assert_eq!(tokens(""), []);
        assert_eq!(tokens("\n\n"), [(Newline, "\n"), (Newline, "\n")]);
    }

    #[test]
    fn words_follow_spirv_as() {
        // Quotes and backslashes continue a word across delimiters.
        assert_eq!(tokens("\"a\\\"b\" c\\ d"), [(String, "\"a\\\"b\""), (Whitespace, " "), (Word, "c\\ d")]);
        assert_eq!(tokens("\"multi\nline\";x"), [(String, "\"multi\nline\""), (Comment, ";x")]);
        assert_eq!(tokens("a\"b c\"d e"), [(Word, "a\"b c\"d"), (Whitespace, " "), (Word, "e")]);
        assert_eq!(tokens("\"open ; to the end\n"), [(String, "\"open ; to the end\n")]);
        assert_eq!(tokens("a;b"), [(Word, "a"), (Comment, ";b")]);
        assert_eq!(tokens("é=ü"), [(Word, "é=ü")]);
    }

    #[test]
    fn spans_index_the_input() {
        let text = "OpName %a \"é\" ; x\n\0tail";
        let mut expected_start = 0;
        for t in Lexer::new(text) {
            assert_eq!(t.span.start, expected_start);
            assert_eq!(&text[t.span.clone()], t.text);
            assert!(!t.span.is_empty());
            expected_start = t.span.end;
        }
        assert_eq!(expected_start, text.len());
        let strings: Vec<(usize, usize)> =
            Lexer::new(text).filter(|t| t.kind == String).map(|t| (t.span.start, t.span.end)).collect();
        assert_eq!(strings, vec![(10, 14)]);
    }

    /// The words the lexer finds are those the assembler's cursor reads.
    #[test]
    fn lexer_and_cursor_agree() {
        let text = "OpName %a \"b c\" ; comment\n%x = OpFoo(1,2) \"q\\\"\" a\"b c\"\0 after";
        let lexed: Vec<&str> = Lexer::new(text).filter(|t| matches!(t.kind, Word | String)).map(|t| t.text).collect();
        let mut c = Cursor::new(text);
        let mut read = Vec::new();
        while c.advance() {
            let (w, next) = c.word();
            if next.index == c.pos.index {
                c.bump();
                continue;
            }
            read.push(w);
            c.pos = next;
        }
        assert_eq!(lexed, read);
    }

    proptest! {
        /// Every byte is in exactly one token, in order.
        #[test]
        fn lossless(text in any::<std::string::String>()) {
            let mut at = 0;
            let mut joined = std::string::String::new();
            for t in Lexer::new(&text) {
                prop_assert_eq!(t.span.start, at);
                prop_assert!(t.span.end > t.span.start);
                prop_assert_eq!(&text[t.span.clone()], t.text);
                at = t.span.end;
                joined += t.text;
            }
            prop_assert_eq!(joined, text);
        }

        /// The same over texts made of the bytes that matter.
        #[test]
        fn lossless_over_assembly_bytes(text in "[ \t\r\n;,()\"\\\\%=aO0é\0]{0,40}") {
            let joined: std::string::String = Lexer::new(&text).map(|t| t.text).collect();
            prop_assert_eq!(joined, text.clone());
            // Trivia and the cursor's skipping agree: each word token
            // starts where skipping trivia from the previous end lands.
            let src = before_nul(&text).as_bytes();
            let mut at = 0;
            for t in Lexer::new(&text).filter(|t| !t.kind.is_trivia() && t.kind != AfterNul) {
                prop_assert_eq!(scan::skip_trivia(src, at), t.span.start);
                at = t.span.end;
            }
        }
    }
}
