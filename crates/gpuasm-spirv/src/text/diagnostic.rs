//! Diagnostics on assembly text: a position, a message, an optional hint,
//! rendered as `file:line:col: error: message`, the source line and a caret
//! under the offending token.

use std::fmt;

/// How bad a diagnostic is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes.
    pub column: u32,
    /// Byte range of the offending token in the text.
    pub span: std::ops::Range<usize>,
    pub message: String,
    /// A suggestion, e.g. the nearest valid name.
    pub help: Option<String>,
}

/// All diagnostics of one run, in text order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter().filter(|d| d.severity == Severity::Error)
    }

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

impl Diagnostic {
    /// Renders this diagnostic: header line, source line, caret, hint.
    pub fn render_into(&self, out: &mut String, file: &str, source: &str) {
        use fmt::Write;
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(out, "{file}:{}:{}: {level}: {}", self.line, self.column, self.message);
        let line_start = source[..self.span.start.min(source.len())].rfind('\n').map_or(0, |p| p + 1);
        let line_end = source[line_start..].find('\n').map_or(source.len(), |p| line_start + p);
        let text = source[line_start..line_end].trim_end_matches('\r');
        let number = self.line.to_string();
        let pad = " ".repeat(number.len());
        let _ = writeln!(out, " {number} | {text}");
        let col = self.span.start.saturating_sub(line_start).min(text.len());
        let width = self.span.end.min(line_end).saturating_sub(self.span.start).max(1);
        // Keep tabs so the caret lines up under them.
        let lead: String = text.as_bytes()[..col].iter().map(|&c| if c == b'\t' { '\t' } else { ' ' }).collect();
        let _ = writeln!(out, " {pad} | {lead}^{}", "~".repeat(width - 1));
        if let Some(help) = &self.help {
            let _ = writeln!(out, " {pad} = help: {help}");
        }
    }
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
    fn nearest_name() {
        let names = ["OpTypeInt", "OpTypeFloat", "OpConstant"];
        assert_eq!(nearest("OpTypeIntt", names.iter().copied()), Some("OpTypeInt"));
        assert_eq!(nearest("Banana", names.iter().copied()), None);
    }
}
