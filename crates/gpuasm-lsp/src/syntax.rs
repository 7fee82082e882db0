//! The statements of a text as the editor sees them, whether or not it
//! assembles: the lexer's words grouped into instructions (an optional
//! `%result =`, an opcode, operands), by spirv-as's rule that an
//! instruction starts at `%name =` or at a word beginning with `Op` and a
//! capital letter.
//! Navigation, hover, completion, symbols and semantic tokens read this,
//! so they keep working while the text has errors.

use gpuasm_spirv::text::{Lexer, TokenKind};
use std::collections::HashMap;
use std::ops::Range;

/// What a word of the text is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WordKind {
    /// `%name`.
    Id,
    /// `=` after a result id.
    Equals,
    /// The instruction's opcode name.
    Opcode,
    /// A quoted string.
    String,
    /// Anything else: a number, an enumerant, `!<integer>`.
    Other,
}

/// One word (or string) of the text.
#[derive(Clone, Debug)]
pub struct Word {
    /// What it is.
    pub kind: WordKind,
    /// Its bytes.
    pub span: Range<usize>,
}

/// One instruction as written.
#[derive(Clone, Debug)]
pub struct Statement {
    /// Its words: `words[range]` of the [`Syntax`].
    pub words: Range<usize>,
    /// The word of its `%result`, if it has one.
    pub result: Option<usize>,
    /// The word of its opcode, if it has one.
    pub opcode: Option<usize>,
}

/// The words, comments and statements of a text.
#[derive(Clone, Debug, Default)]
pub struct Syntax {
    /// Every word and string, in order.
    pub words: Vec<Word>,
    /// Every comment's bytes.
    pub comments: Vec<Range<usize>>,
    /// The statements, in order.
    pub statements: Vec<Statement>,
    /// Result name (with `%`) → the first statement defining it.
    defs: HashMap<String, usize>,
}

impl Syntax {
    /// Reads `text`.
    pub fn new(text: &str) -> Syntax {
        let mut s = Syntax::default();
        let mut tokens = Lexer::new(text).filter(|t| !matches!(t.kind, TokenKind::Whitespace | TokenKind::Newline));
        // Tokens are read with one token of look-ahead (`%x` then `=`).
        let mut next = tokens.next();
        while let Some(t) = next.take() {
            next = tokens.next();
            match t.kind {
                TokenKind::Comment => s.comments.push(t.span),
                TokenKind::Word | TokenKind::String => {
                    let kind = if t.kind == TokenKind::String {
                        WordKind::String
                    } else if t.text.starts_with('%') {
                        WordKind::Id
                    } else if t.text == "=" {
                        WordKind::Equals
                    } else {
                        WordKind::Other
                    };
                    let is_result = kind == WordKind::Id && next.as_ref().is_some_and(|n| n.text == "=");
                    let after_equals = s.words.last().is_some_and(|w| w.kind == WordKind::Equals);
                    // spirv-as's rule: `Op` and a capital (`OpenCL_C` is an operand).
                    let is_opcode = kind == WordKind::Other
                        && t.text.strip_prefix("Op").is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()));
                    let index = s.words.len();
                    if is_result || (is_opcode && !after_equals) || s.statements.is_empty() {
                        s.statements.push(Statement { words: index..index, result: None, opcode: None });
                    }
                    let st = s.statements.last_mut().expect("a statement was just opened");
                    let kind = if is_opcode && st.opcode.is_none() { WordKind::Opcode } else { kind };
                    if is_result {
                        st.result = Some(index);
                    } else if kind == WordKind::Opcode {
                        st.opcode = Some(index);
                    }
                    st.words.end = index + 1;
                    s.words.push(Word { kind, span: t.span });
                }
                _ => {}
            }
        }
        for (k, st) in s.statements.iter().enumerate() {
            if let Some(r) = st.result {
                s.defs.entry(text[s.words[r].span.clone()].to_string()).or_insert(k);
            }
        }
        s
    }

    /// The word holding byte `at`, or ending just before it (a cursor at
    /// the end of a word is on it).
    pub fn word_at(&self, at: usize) -> Option<usize> {
        let k = self.words.partition_point(|w| w.span.start <= at).checked_sub(1)?;
        (at <= self.words[k].span.end).then_some(k)
    }

    /// The statement word `w` belongs to.
    pub fn statement_of(&self, w: usize) -> Option<usize> {
        let k = self.statements.partition_point(|s| s.words.start <= w).checked_sub(1)?;
        self.statements[k].words.contains(&w).then_some(k)
    }

    /// The statement that defines `%name` (`name` with its `%`).
    pub fn def(&self, name: &str) -> Option<usize> {
        self.defs.get(name).copied()
    }

    /// Every result name with the statement that defines it.
    pub fn defs(&self) -> impl Iterator<Item = (&str, usize)> {
        self.defs.iter().map(|(n, &k)| (n.as_str(), k))
    }

    /// The text of word `w`.
    pub fn text<'t>(&self, text: &'t str, w: usize) -> &'t str {
        &text[self.words[w].span.clone()]
    }

    /// The opcode name of statement `k` (empty if it has none).
    pub fn opcode<'t>(&self, text: &'t str, k: usize) -> &'t str {
        self.statements[k].opcode.map_or("", |w| self.text(text, w))
    }

    /// The operand words of statement `k`: those after its opcode.
    pub fn operands(&self, k: usize) -> Range<usize> {
        let st = &self.statements[k];
        st.opcode.map_or(st.words.end..st.words.end, |o| o + 1..st.words.end)
    }

    /// The bytes of statement `k`, from its first word to its last.
    pub fn span(&self, k: usize) -> Range<usize> {
        let st = &self.statements[k];
        self.words[st.words.start].span.start..self.words[st.words.end - 1].span.end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_split_where_spirv_as_splits_them() {
        let text =
            "; c\n%a = OpTypeInt 32 0 OpCapability Shader\n%b =\n OpConstant %a 7 %c = OpUndef %a OpSource OpenCL_C 1";
        let s = Syntax::new(text);
        let ops: Vec<_> = (0..s.statements.len()).map(|k| s.opcode(text, k)).collect();
        assert_eq!(ops, ["OpTypeInt", "OpCapability", "OpConstant", "OpUndef", "OpSource"]);
        assert_eq!(s.def("%b"), Some(2));
        assert_eq!(&text[s.span(2)], "%b =\n OpConstant %a 7");
        assert_eq!(s.comments.len(), 1);
        let seven = text.find('7').unwrap();
        assert_eq!(s.statement_of(s.word_at(seven).unwrap()), Some(2));
    }
}
