//! Diagnostics for a document: the assembler's errors and warnings, and,
//! when the text assembles, every error the validator finds, placed on the
//! instruction it concerns, with related information pointing at the
//! definitions of the ids its message names.

use crate::document::Document;
use gpuasm_spirv::grammar::Version;
use gpuasm_spirv::text::{self, AsmOptions, Severity};
use gpuasm_spirv::validate::{self, ValOptions};
use gpuasm_spirv::TargetEnv;
use lsp_types::{Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri};

/// What diagnostics are computed against.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The environment to assemble and validate for; `None`: the version a
    /// `; Version:` comment gives (else SPIR-V 1.6), with no client API
    /// rules.
    pub target_env: Option<TargetEnv>,
}

/// Every diagnostic of `doc`.
pub fn compute(uri: &Uri, doc: &Document, settings: &Settings) -> Vec<Diagnostic> {
    let text = &doc.text;
    let range = |r: std::ops::Range<usize>| doc.lines.range(text, r);
    let from_asm = |d: &text::Diagnostic| {
        let mut message = d.message.clone();
        if let Some(help) = &d.help {
            message = format!("{message}\nhelp: {help}");
        }
        Diagnostic {
            range: range(d.span.clone()),
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
                Severity::Note => DiagnosticSeverity::INFORMATION,
            }),
            source: Some("gpuasm as".into()),
            message,
            ..Default::default()
        }
    };
    let options = AsmOptions::default().target_env(settings.target_env);
    let parsed = match text::parse(text, &options) {
        Ok(parsed) => parsed,
        Err(errors) => return errors.items.iter().map(from_asm).collect(),
    };
    let mut out: Vec<Diagnostic> = parsed.warnings().items.iter().map(from_asm).collect();
    let module = match parsed.module() {
        Ok(module) => module,
        Err(e) => {
            out.push(Diagnostic {
                range: range(0..0),
                severity: Some(DiagnosticSeverity::ERROR),
                source: Some("gpuasm val".into()),
                message: e.to_string(),
                ..Default::default()
            });
            return out;
        }
    };
    let env = settings.target_env.unwrap_or_else(|| {
        let minor = (module.header().version >> 8) & 0xff;
        let Version(_, newest) = TargetEnv::Universal(6).spirv_version();
        TargetEnv::Universal(minor.min(u32::from(newest)) as u8)
    });
    // Every error, up to a bound that keeps a broken large text responsive.
    let options = ValOptions::default().target_env(env).max_errors(1000);
    let Err(errors) = validate::validate_module(&module, &options) else {
        return out;
    };
    for e in errors.iter() {
        let span = e.instruction_index.and_then(|i| module.span(i)).unwrap_or(0..0);
        let related: Vec<_> = mentioned_ids(&e.message)
            .filter_map(|id| {
                let at = module.span(module.def_index(id)?)?;
                // The offending instruction itself needs no pointer.
                let name = module.text_name(id).map_or_else(|| id.to_string(), str::to_string);
                (at != span).then(|| DiagnosticRelatedInformation {
                    location: Location::new(uri.clone(), range(at)),
                    message: format!("%{name} is defined here"),
                })
            })
            .collect();
        out.push(Diagnostic {
            range: range(span),
            severity: Some(DiagnosticSeverity::ERROR),
            code: Some(NumberOrString::String(format!("{:?}", e.kind))),
            source: Some("gpuasm val".into()),
            message: e.message.clone(),
            related_information: (!related.is_empty()).then_some(related),
            ..Default::default()
        });
    }
    out
}

/// The ids a validator message mentions (it shows them as `'12[%name]'`),
/// each once.
fn mentioned_ids(message: &str) -> impl Iterator<Item = u32> + '_ {
    let mut seen: Vec<u32> = Vec::new();
    message.split('\'').filter_map(|part| part.split_once("[%")?.0.parse().ok()).filter(move |&id| {
        let new = !seen.contains(&id);
        seen.push(id);
        new
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_in_messages_are_found_once() {
        let ids: Vec<_> = super::mentioned_ids("ID '3[%a]' and '4[%b_c.1]' uses '3[%a]' 50%, 'x[%y]'").collect();
        assert_eq!(ids, [3, 4]);
    }
}
