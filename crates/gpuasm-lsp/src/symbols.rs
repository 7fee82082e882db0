//! The outline of a document (entry points, functions with their blocks,
//! types, global variables and constants) and its folding ranges
//! (functions, and runs of comment lines).

use crate::document::Document;
use lsp_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, SymbolKind};

/// The document's outline.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written.
pub fn document_symbols(doc: &Document) -> Vec<DocumentSymbol> {
    let text = doc.text.as_str();
    let syntax = doc.syntax();
    let range = |r| doc.lines.range(text, r);
    let symbol = |name: String, detail: Option<String>, kind, k: usize, children: Option<Vec<DocumentSymbol>>| {
        let st = &syntax.statements[k];
        let full = syntax.span(k);
        let selection = st.result.map_or_else(|| full.clone(), |w| syntax.words[w].span.clone());
        DocumentSymbol {
            name,
            detail,
            kind,
            tags: None,
            deprecated: None,
            range: range(full),
            selection_range: range(selection),
            children,
        }
    };
    let mut out = Vec::new();
    let mut function: Option<(usize, Vec<DocumentSymbol>)> = None;
    for k in 0..syntax.statements.len() {
        let op = syntax.opcode(text, k);
        let result = syntax.statements[k].result.map(|w| syntax.text(text, w).to_string());
        let operand = |i: usize| syntax.operands(k).nth(i).map(|w| syntax.text(text, w).to_string());
        match (op, result) {
            ("OpFunction", Some(_)) => function = Some((k, Vec::new())),
            ("OpLabel", Some(name)) => {
                if let Some((_, blocks)) = function.as_mut() {
                    blocks.push(symbol(name, None, SymbolKind::KEY, k, None));
                }
            }
            ("OpFunctionEnd", _) => {
                if let Some((f, mut blocks)) = function.take() {
                    let name =
                        syntax.statements[f].result.map_or_else(String::new, |w| syntax.text(text, w).to_string());
                    let mut s = symbol(
                        name,
                        Some(syntax.text(text, syntax.statements[f].words.end - 1).to_string()),
                        SymbolKind::FUNCTION,
                        f,
                        None,
                    );
                    // The function runs to its OpFunctionEnd; each block to
                    // the next block.
                    let end = doc.lines.range(text, syntax.span(k)).end;
                    s.range.end = end;
                    for b in (0..blocks.len()).rev() {
                        let next = blocks.get(b + 1).map_or(end, |n| n.range.start);
                        blocks[b].range.end = next.max(blocks[b].range.end);
                    }
                    s.children = Some(blocks);
                    out.push(s);
                }
            }
            ("OpEntryPoint", _) => {
                let name = operand(2).map_or_else(String::new, |n| n.trim_matches('"').to_string());
                let detail = format!("{} {}", operand(0).unwrap_or_default(), operand(1).unwrap_or_default());
                out.push(symbol(name, Some(detail), SymbolKind::EVENT, k, None));
            }
            (op, Some(name)) if function.is_none() => {
                let kind = if op == "OpTypeStruct" {
                    SymbolKind::STRUCT
                } else if op.starts_with("OpType") {
                    SymbolKind::TYPE_PARAMETER
                } else if op == "OpVariable" || op == "OpUntypedVariableKHR" {
                    SymbolKind::VARIABLE
                } else if op.contains("Constant") {
                    SymbolKind::CONSTANT
                } else {
                    continue;
                };
                out.push(symbol(name, Some(op.to_string()), kind, k, None));
            }
            _ => {}
        }
    }
    out
}

/// Functions, and runs of two or more comment lines.
pub fn folding_ranges(doc: &Document) -> Vec<FoldingRange> {
    let text = doc.text.as_str();
    let syntax = doc.syntax();
    let line = |at| doc.lines.position(text, at).line;
    let mut out = Vec::new();
    let mut open = None;
    for k in 0..syntax.statements.len() {
        match syntax.opcode(text, k) {
            "OpFunction" => open = Some(line(syntax.span(k).start)),
            "OpFunctionEnd" => {
                if let Some(start) = open.take() {
                    let end = line(syntax.span(k).start);
                    if end > start {
                        out.push(FoldingRange { start_line: start, end_line: end, ..Default::default() });
                    }
                }
            }
            _ => {}
        }
    }
    let mut run: Option<(u32, u32)> = None;
    let flush = |run: Option<(u32, u32)>, out: &mut Vec<FoldingRange>| {
        if let Some((a, b)) = run.filter(|(a, b)| b > a) {
            out.push(FoldingRange {
                start_line: a,
                end_line: b,
                kind: Some(FoldingRangeKind::Comment),
                ..Default::default()
            });
        }
    };
    for c in &syntax.comments {
        let l = line(c.start);
        run = match run {
            Some((a, b)) if l == b + 1 => Some((a, l)),
            other => {
                flush(other, &mut out);
                Some((l, l))
            }
        };
    }
    flush(run, &mut out);
    out.sort_by_key(|f| f.start_line);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "; a\n; b\nOpEntryPoint GLCompute %main \"main\"\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
                        %main = OpFunction %void None %fn\n%entry = OpLabel\nOpBranch %next\n%next = OpLabel\nOpReturn\nOpFunctionEnd\n";

    #[test]
    fn outline_has_entry_points_types_and_functions_with_blocks() {
        let doc = Document::new(TEXT.into(), 1);
        let symbols = document_symbols(&doc);
        let names: Vec<_> = symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["main", "%void", "%fn", "%main"]);
        let blocks: Vec<_> = symbols[3]
            .children
            .as_ref()
            .unwrap()
            .iter()
            .map(|b| (b.name.as_str(), b.range.start.line, b.range.end.line))
            .collect();
        assert_eq!(blocks, [("%entry", 6, 8), ("%next", 8, 10)]);
        let folds: Vec<_> = folding_ranges(&doc).iter().map(|f| (f.start_line, f.end_line)).collect();
        assert_eq!(folds, [(0, 1), (5, 10)]);
    }
}
