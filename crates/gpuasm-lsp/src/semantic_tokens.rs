//! Semantic tokens: opcodes, ids (types, functions and labels told apart by
//! their definitions, the definition marked), numbers, strings, comments,
//! enumerants and `=`.

use crate::document::Document;
use crate::syntax::WordKind;
use lsp_types::{SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend};

/// The token types, in legend order.
const TYPES: [SemanticTokenType; 10] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::TYPE,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::NUMBER,
    SemanticTokenType::STRING,
    SemanticTokenType::COMMENT,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::new("label"),
];

/// The legend the server announces.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend { token_types: TYPES.to_vec(), token_modifiers: vec![SemanticTokenModifier::DECLARATION] }
}

fn index(t: SemanticTokenType) -> u32 {
    TYPES.iter().position(|x| *x == t).unwrap_or(0) as u32
}

/// Every token of the document, in order.
pub fn full(doc: &Document) -> SemanticTokens {
    let text = doc.text.as_str();
    let syntax = doc.syntax();
    // Words and comments, in text order.
    let mut spans: Vec<(std::ops::Range<usize>, u32, u32)> =
        Vec::with_capacity(syntax.words.len() + syntax.comments.len());
    for (w, word) in syntax.words.iter().enumerate() {
        let s = &text[word.span.clone()];
        let (ty, modifiers) = match word.kind {
            WordKind::Opcode => (SemanticTokenType::KEYWORD, 0),
            WordKind::Equals => (SemanticTokenType::OPERATOR, 0),
            WordKind::String => (SemanticTokenType::STRING, 0),
            WordKind::Id => {
                let def = syntax.def(s);
                let ty = match def.map(|k| syntax.opcode(text, k)) {
                    Some(op) if op.starts_with("OpType") => SemanticTokenType::TYPE,
                    Some("OpFunction") => SemanticTokenType::FUNCTION,
                    Some("OpLabel") => SemanticTokenType::new("label"),
                    _ => SemanticTokenType::VARIABLE,
                };
                let declares = def.is_some_and(|k| syntax.statements[k].result == Some(w));
                (ty, u32::from(declares))
            }
            WordKind::Other => {
                let number = s.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.');
                (if number { SemanticTokenType::NUMBER } else { SemanticTokenType::ENUM_MEMBER }, 0)
            }
        };
        spans.push((word.span.clone(), index(ty), modifiers));
    }
    let comment = index(SemanticTokenType::COMMENT);
    spans.extend(syntax.comments.iter().map(|c| (c.clone(), comment, 0)));
    spans.sort_by_key(|s| s.0.start);
    let mut data = Vec::with_capacity(spans.len());
    let (mut line, mut col) = (0, 0);
    for (span, ty, modifiers) in spans {
        // Tokens may not span lines (a string with a newline in it).
        if text[span.clone()].contains('\n') {
            continue;
        }
        let start = doc.lines.position(text, span.start);
        let length: usize = text[span].chars().map(char::len_utf16).sum();
        let delta_start = if start.line == line { start.character - col } else { start.character };
        data.push(SemanticToken {
            delta_line: start.line - line,
            delta_start,
            length: length as u32,
            token_type: ty,
            token_modifiers_bitset: modifiers,
        });
        (line, col) = (start.line, start.character);
    }
    SemanticTokens { result_id: None, data }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_relative_and_typed() {
        let doc = Document::new("%f = OpTypeFloat 32 ; c\n%x = OpUndef %f\n".into(), 1);
        let tokens: Vec<_> = full(&doc)
            .data
            .iter()
            .map(|t| (t.delta_line, t.delta_start, t.length, t.token_type, t.token_modifiers_bitset))
            .collect();
        assert_eq!(
            tokens,
            [
                (0, 0, 2, 2, 1),
                (0, 3, 1, 8, 0),
                (0, 2, 11, 0, 0),
                (0, 12, 2, 4, 0),
                (0, 3, 3, 6, 0),
                (1, 0, 2, 1, 1),
                (0, 3, 1, 8, 0),
                (0, 2, 7, 0, 0),
                (0, 8, 2, 2, 0)
            ]
        );
    }
}
