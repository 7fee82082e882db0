//! The open documents: each one's text, version and line index, kept in
//! step with the client's edits, and its [`Syntax`] read on first use after
//! each edit.

use crate::position::LineIndex;
use crate::syntax::Syntax;
use lsp_types::{TextDocumentContentChangeEvent, Uri};
use std::cell::OnceCell;
use std::collections::HashMap;

/// One open document.
#[derive(Debug)]
pub struct Document {
    /// Its text.
    pub text: String,
    /// The client's version of it.
    pub version: i32,
    /// Where its lines start.
    pub lines: LineIndex,
    syntax: OnceCell<Syntax>,
}

impl Document {
    /// A document with this text.
    pub fn new(text: String, version: i32) -> Document {
        let lines = LineIndex::new(&text);
        Document { text, version, lines, syntax: OnceCell::new() }
    }

    /// Its statements, read on first use.
    pub fn syntax(&self) -> &Syntax {
        self.syntax.get_or_init(|| Syntax::new(&self.text))
    }

    /// Applies the client's changes, in order (whole texts or ranges).
    pub fn apply(&mut self, changes: Vec<TextDocumentContentChangeEvent>, version: i32) {
        for change in changes {
            match change.range {
                None => self.text = change.text,
                Some(range) => {
                    let start = self.lines.offset(&self.text, range.start);
                    let end = self.lines.offset(&self.text, range.end).max(start);
                    self.text.replace_range(start..end, &change.text);
                }
            }
            self.lines = LineIndex::new(&self.text);
        }
        self.version = version;
        self.syntax = OnceCell::new();
    }
}

/// The open documents by URI.
#[derive(Debug, Default)]
pub struct Store {
    docs: HashMap<Uri, Document>,
}

impl Store {
    /// Opens (or reopens) a document.
    pub fn open(&mut self, uri: Uri, text: String, version: i32) {
        self.docs.insert(uri, Document::new(text, version));
    }

    /// Applies edits to an open document; edits to one not open are
    /// ignored.
    pub fn change(&mut self, uri: &Uri, changes: Vec<TextDocumentContentChangeEvent>, version: i32) {
        if let Some(doc) = self.docs.get_mut(uri) {
            doc.apply(changes, version);
        }
    }

    /// Forgets a closed document.
    pub fn close(&mut self, uri: &Uri) {
        self.docs.remove(uri);
    }

    /// The URIs of the open documents.
    pub fn uris(&self) -> impl Iterator<Item = &Uri> {
        self.docs.keys()
    }

    /// An open document.
    pub fn get(&self, uri: &Uri) -> Option<&Document> {
        self.docs.get(uri)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};

    #[test]
    fn ranged_edits_apply_in_order() {
        let mut doc = Document::new("OpCapability Shader\nOpNop\n".into(), 1);
        let at = |l, c| Position::new(l, c);
        let edit = |s, e, t: &str| TextDocumentContentChangeEvent {
            range: Some(Range::new(s, e)),
            range_length: None,
            text: t.into(),
        };
        doc.apply(vec![edit(at(1, 0), at(1, 5), "OpReturn"), edit(at(0, 13), at(0, 19), "Kernel")], 2);
        assert_eq!(doc.text, "OpCapability Kernel\nOpReturn\n");
        assert_eq!(doc.syntax().statements.len(), 2);
    }
}
