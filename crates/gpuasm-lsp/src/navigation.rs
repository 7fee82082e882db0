//! Where `%ids` are defined and used: go to definition, find references,
//! document highlights and rename. Read from the document's [`Syntax`](crate::syntax::Syntax), so
//! they work while the text has errors; an id is its name in the text.

use crate::document::Document;
use crate::syntax::WordKind;
use lsp_types::{
    DocumentHighlight, DocumentHighlightKind, GotoDefinitionResponse, Location, Position, PrepareRenameResponse,
    TextEdit, Uri, WorkspaceEdit,
};
use std::collections::HashMap;
use std::ops::Range;

/// The `%id` word under `pos`: its name (with `%`) and bytes.
fn id_at(doc: &Document, pos: Position) -> Option<(&str, Range<usize>)> {
    let syntax = doc.syntax();
    let w = syntax.word_at(doc.lines.offset(&doc.text, pos))?;
    let word = &syntax.words[w];
    (word.kind == WordKind::Id).then(|| (&doc.text[word.span.clone()], word.span.clone()))
}

/// Every `%name` word: (bytes, whether it is the definition).
fn occurrences<'d>(doc: &'d Document, name: &'d str) -> impl Iterator<Item = (Range<usize>, bool)> + 'd {
    let syntax = doc.syntax();
    let def = syntax.def(name).and_then(|k| syntax.statements[k].result);
    syntax
        .words
        .iter()
        .enumerate()
        .filter(move |(_, w)| w.kind == WordKind::Id && &doc.text[w.span.clone()] == name)
        .map(move |(i, w)| (w.span.clone(), Some(i) == def))
}

/// Where the id under `pos` is defined.
pub fn definition(doc: &Document, uri: &Uri, pos: Position) -> Option<GotoDefinitionResponse> {
    let (name, _) = id_at(doc, pos)?;
    let syntax = doc.syntax();
    let w = syntax.statements[syntax.def(name)?].result?;
    let range = doc.lines.range(&doc.text, syntax.words[w].span.clone());
    Some(GotoDefinitionResponse::Scalar(Location::new(uri.clone(), range)))
}

/// Every use of the id under `pos` (and its definition if asked).
pub fn references(doc: &Document, uri: &Uri, pos: Position, include_declaration: bool) -> Option<Vec<Location>> {
    let (name, _) = id_at(doc, pos)?;
    let found = occurrences(doc, name)
        .filter(|&(_, def)| include_declaration || !def)
        .map(|(span, _)| Location::new(uri.clone(), doc.lines.range(&doc.text, span)))
        .collect();
    Some(found)
}

/// The id under `pos` wherever it stands in the document: its definition
/// is a write, its uses reads.
pub fn highlights(doc: &Document, pos: Position) -> Option<Vec<DocumentHighlight>> {
    let (name, _) = id_at(doc, pos)?;
    let found = occurrences(doc, name)
        .map(|(span, def)| DocumentHighlight {
            range: doc.lines.range(&doc.text, span),
            kind: Some(if def { DocumentHighlightKind::WRITE } else { DocumentHighlightKind::READ }),
        })
        .collect();
    Some(found)
}

/// The id under `pos`, if there is one to rename.
pub fn prepare_rename(doc: &Document, pos: Position) -> Option<PrepareRenameResponse> {
    let (_, span) = id_at(doc, pos)?;
    Some(PrepareRenameResponse::Range(doc.lines.range(&doc.text, span)))
}

/// Renames the id under `pos` to `new_name` (with or without its `%`)
/// everywhere in the document. Refused when the name is not a valid id
/// name or another id already has it.
pub fn rename(doc: &Document, uri: &Uri, pos: Position, new_name: &str) -> Result<WorkspaceEdit, String> {
    let Some((name, _)) = id_at(doc, pos) else {
        return Err("there is no %id here to rename".into());
    };
    let bare = new_name.strip_prefix('%').unwrap_or(new_name);
    if bare.is_empty() || !bare.bytes().all(|b| b.is_ascii_graphic() && !b";,()\"\\%".contains(&b)) {
        return Err(format!("'{new_name}' is not a valid id name (no blanks, quotes, '%', ';', ',' or brackets)"));
    }
    let new_name = format!("%{bare}");
    if new_name != name && occurrences(doc, &new_name).next().is_some() {
        return Err(format!("{new_name} is already in use"));
    }
    let edits = occurrences(doc, name)
        .map(|(span, _)| TextEdit::new(doc.lines.range(&doc.text, span), new_name.clone()))
        .collect();
    Ok(WorkspaceEdit { changes: Some(HashMap::from([(uri.clone(), edits)])), ..Default::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_refuses_a_name_in_use() {
        let doc = Document::new("%a = OpTypeInt 32 0\n%b = OpConstant %a 1\n".into(), 1);
        let uri: Uri = "file:///t.spvasm".parse().unwrap();
        assert!(rename(&doc, &uri, Position::new(1, 17), "b").unwrap_err().contains("in use"));
        assert!(rename(&doc, &uri, Position::new(1, 17), "x y").is_err());
        let edit = rename(&doc, &uri, Position::new(1, 17), "%int").unwrap();
        assert_eq!(edit.changes.unwrap()[&uri].len(), 2);
    }
}
