//! Completion: opcode names at the start of an instruction or after `=`;
//! at an operand position, what the grammar allows there: enumerants (with
//! masks), extended-instruction names after an `OpExtInst` set, the
//! opcodes `OpSpecConstantOp` allows, and `%ids`
//! of a fitting kind (types where a type goes, labels for branch targets,
//! values elsewhere).

use crate::document::Document;
use crate::operands::{self, Slot};
use crate::syntax::WordKind;
use gpuasm_spirv::grammar::{self, Category, OperandKind};
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionResponse, CompletionTextEdit, Position, TextEdit,
};

/// At most this many ids are offered at once (the list is marked
/// incomplete, and the client asks again as more is typed).
const MAX_IDS: usize = 500;

/// The completions at `pos`.
pub fn complete(doc: &Document, pos: Position) -> Option<CompletionResponse> {
    let text = doc.text.as_str();
    let syntax = doc.syntax();
    let at = doc.lines.offset(text, pos);
    // The word being typed (if the cursor is in or just after one), and the
    // word before it.
    let current = syntax.word_at(at).filter(|&w| syntax.words[w].span.start < at);
    let start = current.map_or(at, |w| syntax.words[w].span.start);
    let prefix = &text[start..at];
    let before = syntax.words.partition_point(|w| w.span.end <= start).checked_sub(1);
    let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
    let at_line_start = text[line_start..start].trim().is_empty();
    let replace = doc.lines.range(text, start..at);
    let item = |label: String, kind: CompletionItemKind, detail: Option<String>| CompletionItem {
        text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(replace, label.clone()))),
        label,
        kind: Some(kind),
        detail,
        ..Default::default()
    };
    if at_line_start && prefix.starts_with('%') {
        // A new result id: nothing to offer.
        return None;
    }
    let after_equals = before.is_some_and(|b| syntax.words[b].kind == WordKind::Equals);
    if after_equals || (at_line_start && !prefix.starts_with('%')) {
        let items = grammar::INSTRUCTIONS
            .iter()
            .filter(|i| !after_equals || i.has_result)
            .filter(|i| i.name.starts_with(prefix) || prefix.is_empty())
            .map(|i| item(i.name.to_string(), CompletionItemKind::KEYWORD, Some(i.class.to_string())))
            .collect();
        return Some(CompletionResponse::Array(items));
    }
    // An operand of the statement the previous word is in.
    let k = syntax.statement_of(before?)?;
    syntax.statements[k].opcode?;
    // The slots after the operands before the one being typed.
    let operands = syntax.operands(k);
    let end = operands.start + syntax.words[operands.clone()].partition_point(|w| w.span.end <= start);
    let (_, next) = operands::slots_of(text, syntax, k, operands.start..end);
    let mut items = Vec::new();
    let mut incomplete = false;
    for slot in next {
        match slot.kind.info().category {
            Category::ValueEnum | Category::BitEnum => {
                // After `A|` in a mask, the next bit's name.
                let (head, tail) = prefix.rsplit_once('|').map_or(("", prefix), |(h, t)| (h, t));
                for e in slot.kind.info().enumerants {
                    if e.name.starts_with(tail) {
                        let label = if head.is_empty() { e.name.to_string() } else { format!("{head}|{}", e.name) };
                        items.push(item(label, CompletionItemKind::ENUM_MEMBER, Some(slot.kind.name().to_string())));
                    }
                }
            }
            _ if slot.kind == OperandKind::LiteralExtInstInteger => {
                let set = syntax.operands(k).nth(1).and_then(|w| operands::ext_inst_set(text, syntax, w));
                for i in set.into_iter().flat_map(|s| s.instructions) {
                    if i.name.starts_with(prefix) {
                        items.push(item(i.name.to_string(), CompletionItemKind::FUNCTION, None));
                    }
                }
            }
            _ if slot.kind == OperandKind::LiteralSpecConstantOpInteger => {
                // Written without their `Op`: `OpSpecConstantOp %int IAdd ...`.
                for name in grammar::SPEC_CONSTANT_OP_OPCODES.iter().map(|n| &n[2..]) {
                    if name.starts_with(prefix) {
                        items.push(item(name.to_string(), CompletionItemKind::KEYWORD, None));
                    }
                }
            }
            Category::Id => {
                let want = wanted(slot);
                for (name, d) in syntax.defs() {
                    if name.starts_with(prefix) && want == what(syntax.opcode(text, d)) {
                        if items.len() >= MAX_IDS {
                            incomplete = true;
                            break;
                        }
                        items.push(item(
                            name.to_string(),
                            CompletionItemKind::VARIABLE,
                            Some(syntax.opcode(text, d).to_string()),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    items.sort_by(|a, b| a.label.cmp(&b.label));
    items.dedup_by(|a, b| a.label == b.label);
    Some(CompletionResponse::List(CompletionList { is_incomplete: incomplete, items }))
}

/// What an id is, by the opcode that defines it.
#[derive(PartialEq, Eq)]
enum IdSort {
    Type,
    Label,
    Value,
}

fn what(opcode: &str) -> IdSort {
    match opcode {
        "OpLabel" => IdSort::Label,
        op if op.starts_with("OpType") => IdSort::Type,
        _ => IdSort::Value,
    }
}

/// What an id slot wants: a type for result types and type operands,
/// a label for branch targets and merge blocks, else a value.
fn wanted(slot: Slot) -> IdSort {
    let name = slot.name.to_ascii_lowercase();
    if slot.kind == OperandKind::IdResultType || name.contains("type") {
        IdSort::Type
    } else if name.contains("label") || name.contains("block") || name.contains("target") || name == "default" {
        IdSort::Label
    } else {
        IdSort::Value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str) -> Vec<String> {
        let doc = Document::new(text.into(), 1);
        let at = doc.lines.position(text, text.len());
        match complete(&doc, at) {
            Some(CompletionResponse::Array(items)) => items.into_iter().map(|i| i.label).collect(),
            Some(CompletionResponse::List(list)) => list.items.into_iter().map(|i| i.label).collect(),
            None => Vec::new(),
        }
    }

    #[test]
    fn completes_what_the_grammar_allows() {
        assert!(labels("%a = OpTypeFl").contains(&"OpTypeFloat".to_string()));
        assert!(labels("OpCapability Shader\nOpMem").contains(&"OpMemoryModel".to_string()));
        let vars = "%f = OpTypeFloat 32\n%p = OpTypePointer Function %f\n%l = OpLabel\n%v = OpVariable %p Fu";
        assert_eq!(labels(vars), ["Function"]);
        assert_eq!(labels("%f = OpTypeFloat 32\n%l = OpLabel\n%z = OpUndef %"), ["%f"]);
        assert_eq!(labels("%f = OpTypeFloat 32\n%l = OpLabel\nOpBranch %"), ["%l"]);
        let ext = "%g = OpExtInstImport \"GLSL.std.450\"\n%r = OpExtInst %f %g Sq";
        assert_eq!(labels(ext), ["Sqrt"]);
        assert_eq!(labels("%x = OpSpecConstantOp %int IA"), ["IAdd"]);
        assert!(labels("OpLoopMerge %a %b Unroll|Dont").contains(&"Unroll|DontUnroll".to_string()));
    }
}
