//! Formatting in spirv-dis's layout: one instruction a line, result ids
//! right-aligned so that every `=` stands in the same column and every
//! opcode starts at column 15, words one space apart. Names, the spelling
//! of literals and comments are kept (spirv-dis would rename ids and
//! respell numbers): each instruction is rewritten from its own words. A
//! text that does not assemble is left alone, and so is any result that
//! would not assemble to the same words.

use crate::document::Document;
use gpuasm_spirv::text::{self, AsmOptions, Lexer, TokenKind};
use lsp_types::TextEdit;

/// The column opcodes start in (spirv-dis's indentation).
const OPCODE_COLUMN: usize = 15;

/// The edits that format the document: none when it is formatted already,
/// `None` when it cannot be formatted (it does not assemble, or uses
/// `OpUnknown(...)`).
pub fn format(doc: &Document) -> Option<Vec<TextEdit>> {
    let text = doc.text.as_str();
    let formatted = format_text(text)?;
    if formatted == text {
        return Some(Vec::new());
    }
    let all = doc.lines.range(text, 0..text.len());
    Some(vec![TextEdit::new(all, formatted)])
}

/// `text` formatted, if it assembles and the result assembles to the same
/// words.
pub fn format_text(text: &str) -> Option<String> {
    if Lexer::new(text).any(|t| matches!(t.kind, TokenKind::Punct | TokenKind::AfterNul)) {
        return None;
    }
    let options = AsmOptions::default();
    let words = text::parse(text, &options).ok()?.into_words();
    let syntax = crate::syntax::Syntax::new(text);
    // Statements and comments in text order: (start, end, statement).
    let mut items: Vec<(usize, usize, Option<usize>)> =
        (0..syntax.statements.len()).map(|k| (syntax.span(k).start, syntax.span(k).end, Some(k))).collect();
    items.extend(syntax.comments.iter().map(|c| (c.start, c.end, None)));
    items.sort_by_key(|i| i.0);
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut last_end = 0;
    for (start, end, statement) in items {
        let gap = &text[last_end..start];
        let newlines = gap.bytes().filter(|&b| b == b'\n').count();
        if !out.is_empty() {
            // A comment on the line of what precedes it stays there; a
            // blank line (or several) becomes one.
            if newlines == 0 && statement.is_none() {
                out.push(' ');
            } else {
                out.push('\n');
                if newlines >= 2 {
                    out.push('\n');
                }
            }
        }
        match statement {
            None => out.push_str(text[start..end].trim_end()),
            Some(k) => {
                let st = &syntax.statements[k];
                let mut rest = st.words.clone();
                match st.result {
                    Some(r) if r == rest.start => {
                        let id = syntax.text(text, r);
                        let pad = (OPCODE_COLUMN - 3).saturating_sub(id.len());
                        out.extend(std::iter::repeat_n(' ', pad));
                        out.push_str(id);
                        rest.start += 1;
                    }
                    _ => out.extend(std::iter::repeat_n(' ', OPCODE_COLUMN)),
                }
                let mut first = st.result.is_none();
                for w in rest {
                    if !first {
                        out.push(' ');
                    }
                    first = false;
                    out.push_str(syntax.text(text, w));
                }
            }
        }
        last_end = end;
    }
    if !out.is_empty() {
        out.push('\n');
    }
    let again = text::parse(&out, &options).ok()?;
    (again.words() == words.as_slice()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_spirv_dis_layout_with_names_and_comments_kept() {
        let text = "; header\nOpCapability Shader ; why\n\n\n%void = OpTypeVoid\n%a_very_long_name_here   =   OpTypeFloat 32\n";
        let want = "; header\n               OpCapability Shader ; why\n\n       %void = OpTypeVoid\n%a_very_long_name_here = OpTypeFloat 32\n";
        assert_eq!(format_text(text).as_deref(), Some(want));
        assert_eq!(format_text(want).as_deref(), Some(want));
        assert_eq!(format_text("OpCapability Shadr\n"), None);
    }
}
