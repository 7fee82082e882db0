//! Diagnostics on assembly text, shared by gpuasm's assemblers: a
//! position, a message and an optional hint, rendered gcc-style as
//! `file:line:col: error: message`, the source line and a caret under the
//! offending token. The crate owns the [`Diagnostic`] and [`Diagnostics`]
//! types, their rendering and [`nearest`], the "did you mean" search; it
//! knows nothing of any instruction set.
//!
//! ```
//! use gpuasm_diag::{nearest, Diagnostic, Diagnostics, Severity};
//!
//! let source = "%x = OpTypeIntt 32 1\n";
//! let names = ["OpTypeInt", "OpTypeFloat"];
//! let mut diags = Diagnostics::default();
//! diags.items.push(Diagnostic {
//!     severity: Severity::Error,
//!     line: 1,
//!     column: 6,
//!     span: 5..15,
//!     message: "unknown opcode 'OpTypeIntt'".into(),
//!     help: nearest("OpTypeIntt", names.into_iter()).map(|n| format!("did you mean '{n}'?")),
//! });
//! assert!(diags.has_errors());
//! let expected = "\
//! a.spvasm:1:6: error: unknown opcode 'OpTypeIntt'
//!  1 | %x = OpTypeIntt 32 1
//!    |      ^~~~~~~~~~
//!    = help: did you mean 'OpTypeInt'?
//! ";
//! assert_eq!(diags.render("a.spvasm", source), expected);
//! ```

#![deny(missing_docs)]

use std::fmt;

/// How bad a diagnostic is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The text cannot be assembled.
    Error,
    /// The text assembles, but probably not to what was meant.
    Warning,
    /// Not a problem itself: where something the diagnostic before it
    /// involves is (e.g. the definition of a mistyped operand).
    Note,
}

/// One problem found in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes.
    pub column: u32,
    /// Byte range of the offending token in the text.
    pub span: std::ops::Range<usize>,
    /// What is wrong, quoting the offending token as `'token'`.
    pub message: String,
    /// A suggestion, e.g. the nearest valid name.
    pub help: Option<String>,
}

/// All diagnostics of one run, in text order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics {
    /// The diagnostics, errors and warnings mixed.
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// The diagnostics that are errors.
    #[inline]
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter().filter(|d| d.severity == Severity::Error)
    }

    /// True if any diagnostic is an error.
    #[inline]
    pub fn has_errors(&self) -> bool {
        self.errors().next().is_some()
    }

    /// Renders every diagnostic against the source text.
    pub fn render(&self, file: &str, source: &str) -> String {
        let mut s = String::new();
        for d in &self.items {
            d.render_into(&mut s, file, source);
        }
        s
    }
}

/// Bytes of the source line shown before and after the offending token
/// when the line is too long to show whole (as rustc does).
const CONTEXT: usize = 60;
/// At most this many bytes of the token itself are underlined.
const MAX_UNDERLINE: usize = 80;
/// Messages quote tokens; a longer message is shortened in the middle.
const MAX_MESSAGE: usize = 400;

impl Diagnostic {
    /// Renders this diagnostic against `source`, the whole text it was found
    /// in, appending to `out`: header line, source line, caret, hint.
    ///
    /// A long line is shown as a window around the token, marked `...` where
    /// cut, so a megabyte-long line costs a few hundred bytes an error.
    pub fn render_into(&self, out: &mut String, file: &str, source: &str) {
        use fmt::Write;
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        let _ = writeln!(out, "{file}:{}:{}: {level}: {}", self.line, self.column, shorten(&self.message));
        let bytes = source.as_bytes();
        let start = self.span.start.min(source.len());
        let line_start = memchr::memrchr(b'\n', &bytes[..start]).map_or(0, |p| p + 1);
        let line_end = memchr::memchr(b'\n', &bytes[start..]).map_or(source.len(), |p| start + p);
        let mut text = &source[line_start..line_end];
        if text.ends_with('\r') {
            text = &text[..text.len() - 1];
        }
        let col = floor_char(text, (start - line_start).min(text.len()));
        let width = self.span.end.min(line_start + text.len()).saturating_sub(start).clamp(1, MAX_UNDERLINE);
        // The window: whole line when short, else the token with some context.
        let from = floor_char(text, col.saturating_sub(CONTEXT));
        let to = ceil_char(text, (col + width + CONTEXT).min(text.len()));
        let (head, tail) = (if from > 0 { "..." } else { "" }, if to < text.len() { "..." } else { "" });
        let shown = &text[from..to];
        let number = self.line.to_string();
        let pad = " ".repeat(number.len());
        let _ = writeln!(out, " {number} | {head}{shown}{tail}");
        // Keep tabs so the caret lines up under them; one column a character.
        let lead: String = std::iter::repeat_n(' ', head.len())
            .chain(text[from..col].chars().map(|c| if c == '\t' { '\t' } else { ' ' }))
            .collect();
        let under = text[col..ceil_char(text, (col + width).min(text.len()))].chars().count().max(1);
        let _ = writeln!(out, " {pad} | {lead}^{}", "~".repeat(under - 1));
        if let Some(help) = &self.help {
            let _ = writeln!(out, " {pad} = help: {}", shorten(help));
        }
    }
}

/// `text` with its middle replaced by `...` when longer than [`MAX_MESSAGE`].
fn shorten(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= MAX_MESSAGE {
        return text.into();
    }
    let a = floor_char(text, MAX_MESSAGE / 2);
    let b = ceil_char(text, text.len() - MAX_MESSAGE / 2);
    format!("{}...{}", &text[..a], &text[b..]).into()
}

/// The largest character boundary at or before `i`.
fn floor_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest character boundary at or after `i`.
fn ceil_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.items {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// The candidate closest to `word` by edit distance, if it is close enough
/// to be a plausible typo.
pub fn nearest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.len() / 3).clamp(1, 4);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c.len().abs_diff(word.len()) > limit {
            continue;
        }
        let d = edit_distance(word, c);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance, ASCII case ignored.
fn edit_distance(a: &str, b: &str) -> usize {
    let a = a.as_bytes();
    let b = b.as_bytes();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(!a[i - 1].eq_ignore_ascii_case(&b[j - 1]));
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_line_and_caret() {
        let src = "OpCapability Shader\n%x = OpTypeIntt 32 1\n";
        let d = Diagnostic {
            severity: Severity::Error,
            line: 2,
            column: 6,
            span: 25..35,
            message: "unknown opcode 'OpTypeIntt'".into(),
            help: Some("did you mean 'OpTypeInt'?".into()),
        };
        let mut s = String::new();
        d.render_into(&mut s, "a.spvasm", src);
        assert_eq!(
            s,
            "a.spvasm:2:6: error: unknown opcode 'OpTypeIntt'\n 2 | %x = OpTypeIntt 32 1\n   |      ^~~~~~~~~~\n   = help: did you mean 'OpTypeInt'?\n"
        );
    }

    #[test]
    fn long_lines_show_a_window_around_the_token() {
        let src = format!("{}OpBogus{}\n", "x ".repeat(5000), " y".repeat(5000));
        let d = Diagnostic {
            severity: Severity::Error,
            line: 1,
            column: 10001,
            span: 10000..10007,
            message: "unknown opcode 'OpBogus'".into(),
            help: None,
        };
        let mut s = String::new();
        d.render_into(&mut s, "a.spvasm", &src);
        let lines: Vec<&str> = s.lines().collect();
        assert!(s.len() < 400, "{s}");
        assert!(lines[1].starts_with(" 1 | ...x x") && lines[1].ends_with("y y..."), "{s}");
        let caret = lines[2].find('^').unwrap();
        assert_eq!(&lines[1][caret..caret + 7], "OpBogus", "{s}");
        assert!(lines[2].ends_with(" ^~~~~~~"), "{s}");
    }

    #[test]
    fn notes_render_as_notes() {
        let src = "%v = OpVariable %p Function\n";
        let d = Diagnostic {
            severity: Severity::Note,
            line: 1,
            column: 1,
            span: 0..2,
            message: "'9[%9]' is %v, defined here".into(),
            help: None,
        };
        let diags = Diagnostics { items: vec![d] };
        assert!(!diags.has_errors());
        assert_eq!(
            diags.render("a.spvasm", src),
            "a.spvasm:1:1: note: '9[%9]' is %v, defined here\n 1 | %v = OpVariable %p Function\n   | ^~\n"
        );
    }

    #[test]
    fn nearest_name() {
        let names = ["OpTypeInt", "OpTypeFloat", "OpConstant"];
        assert_eq!(nearest("OpTypeIntt", names.iter().copied()), Some("OpTypeInt"));
        assert_eq!(nearest("Banana", names.iter().copied()), None);
    }
}

/// The crate README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
