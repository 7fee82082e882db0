//! Hover: on an opcode, its grammar signature, class and requirements; on
//! an enumerant, its value, parameters and requirements; on an `%id`, its
//! defining instruction, its type spelled out, its names and decorations.

use crate::document::Document;
use crate::operands::{self, Slot};
use crate::syntax::{Syntax, WordKind};
use gpuasm_spirv::grammar::{self, Category, Enumerant, OperandKind, OperandSpec, Quantifier, Version};
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};
use std::fmt::Write;

/// The hover text for the word under `pos`.
pub fn hover(doc: &Document, pos: Position) -> Option<Hover> {
    let text = doc.text.as_str();
    let syntax = doc.syntax();
    let at = doc.lines.offset(text, pos);
    let w = syntax.word_at(at)?;
    let word = syntax.text(text, w);
    let value = match syntax.words[w].kind {
        WordKind::Opcode => opcode(grammar::instruction_by_name(word)?),
        WordKind::Id => id(text, syntax, word)?,
        WordKind::Other => {
            let k = syntax.statement_of(w)?;
            let (slots, _) = operands::slots(text, syntax, k);
            let slot = slots.get(w.checked_sub(syntax.operands(k).start)?).copied().flatten()?;
            operand(text, syntax, w, slot, at)?
        }
        WordKind::String | WordKind::Equals => return None,
    };
    let range = Some(doc.lines.range(text, syntax.words[w].span.clone()));
    Some(Hover { contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }), range })
}

/// An operand as the grammar lists it: `Name: Kind` with `?` or `...`.
fn spec(s: &OperandSpec) -> String {
    let q = match s.quantifier {
        Quantifier::One => "",
        Quantifier::Optional => "?",
        Quantifier::Variadic => "...",
    };
    let kind = s.kind.name();
    match s.name {
        "" => format!("{kind}{q}"),
        name => format!("{name}: {kind}{q}"),
    }
}

/// Capabilities, extensions and versions that enable a grammar entry.
fn requirements(
    out: &mut String,
    capabilities: &[u32],
    extensions: &[&str],
    version: Option<Version>,
    last: Option<Version>,
) {
    if !capabilities.is_empty() {
        let names: Vec<_> = capabilities
            .iter()
            .map(|&c| OperandKind::Capability.enumerant(c).map_or_else(|| c.to_string(), |e| e.name.to_string()))
            .collect();
        let _ = writeln!(out, "\nCapabilities (any of): {}", names.join(", "));
    }
    if !extensions.is_empty() {
        let _ = writeln!(out, "\nExtensions (any of): {}", extensions.join(", "));
    }
    match (version, last) {
        (Some(Version(a, b)), None) => {
            let _ = writeln!(out, "\nSPIR-V {a}.{b} and later");
        }
        (Some(Version(a, b)), Some(Version(c, d))) => {
            let _ = writeln!(out, "\nSPIR-V {a}.{b} to {c}.{d}");
        }
        (None, _) => {
            let _ = writeln!(out, "\nNot in core SPIR-V: an extension or capability enables it");
        }
    }
}

/// An opcode's signature, class and requirements.
fn opcode(info: &grammar::InstructionInfo) -> String {
    let mut sig = String::new();
    if info.has_result {
        sig.push_str("%result = ");
    }
    sig.push_str(info.name);
    for s in info.operands.iter().filter(|s| s.kind != OperandKind::IdResult) {
        let _ = write!(sig, " <{}>", spec(s));
    }
    let mut out = format!("```spirv\n{sig}\n```\n\n**{}** (opcode {}), class {}\n", info.name, info.opcode, info.class);
    for s in info.operands {
        let _ = writeln!(out, "- {}", spec(s));
    }
    requirements(&mut out, info.capabilities, info.extensions, info.version, info.last_version);
    out
}

/// An operand that is not an id: an enumerant, an extended instruction,
/// or a literal.
fn operand(text: &str, syntax: &Syntax, w: usize, slot: Slot, at: usize) -> Option<String> {
    let word = syntax.text(text, w);
    let kind = slot.kind;
    let slot_line = match slot.name {
        "" => format!("*{}*", kind.name()),
        name => format!("*{}* ({name})", kind.name()),
    };
    match kind.info().category {
        Category::ValueEnum | Category::BitEnum => {
            // The part of `A|B` under the cursor.
            let start = syntax.words[w].span.start;
            let mut from = 0;
            let part = word
                .split('|')
                .find(|p| {
                    let end = from + p.len();
                    let hit = at - start <= end;
                    from = end + 1;
                    hit
                })
                .unwrap_or(word);
            let e = kind.enumerant_by_name(part.trim())?;
            Some(enumerant(kind, e, &slot_line))
        }
        _ if kind == OperandKind::LiteralExtInstInteger => {
            let set = operands::ext_inst_set(text, syntax, w.checked_sub(1)?)?;
            let inst = set.instruction_by_name(word)?;
            let ops: Vec<_> = inst.operands.iter().map(|s| format!("<{}>", spec(s))).collect();
            let mut out = format!(
                "```spirv\nOpExtInst %type %set {} {}\n```\n\n**{}** ({} instruction {})\n",
                inst.name,
                ops.join(" "),
                inst.name,
                set.import_name,
                inst.opcode
            );
            requirements(&mut out, inst.capabilities, inst.extensions, Some(Version(1, 0)), None);
            Some(out)
        }
        _ => Some(slot_line),
    }
}

/// An enumerant's value, parameters and requirements.
fn enumerant(kind: OperandKind, e: &Enumerant, slot_line: &str) -> String {
    let value =
        if kind.info().category == Category::BitEnum { format!("0x{:x}", e.value) } else { e.value.to_string() };
    let mut out = format!("**{}** = {value}, {slot_line}\n", e.name);
    for p in e.parameters {
        let _ = writeln!(out, "- followed by {}", spec(p));
    }
    requirements(&mut out, e.capabilities, e.extensions, e.version, e.last_version);
    out
}

/// An id: its definition, type, names and decorations.
fn id(text: &str, syntax: &Syntax, name: &str) -> Option<String> {
    let mut out = String::new();
    match syntax.def(name) {
        Some(k) => {
            let _ = writeln!(out, "```spirv\n{}\n```", one_line(&text[syntax.span(k)]));
            let op = syntax.opcode(text, k);
            if op.starts_with("OpType") {
                let _ = writeln!(out, "\nType: {}", spell(text, syntax, name, 0));
            } else if let Some(ty) = result_type(text, syntax, k) {
                let _ = writeln!(out, "\nType: {}", spell(text, syntax, ty, 0));
            }
        }
        None => {
            let _ = writeln!(out, "`{name}` is not defined");
        }
    }
    // Names and decorations: the debug and annotation instructions that
    // name this id first.
    let mut notes = Vec::new();
    for k in 0..syntax.statements.len() {
        let op = syntax.opcode(text, k);
        if matches!(op, "OpName" | "OpMemberName") || op.starts_with("OpDecorate") || op.starts_with("OpMemberDecorate")
        {
            let target = syntax.operands(k).next().map(|w| syntax.text(text, w));
            if target == Some(name) {
                notes.push(one_line(&text[syntax.span(k)]));
            }
        }
        if notes.len() >= 32 {
            break;
        }
    }
    if !notes.is_empty() {
        let _ = writeln!(out, "\n```spirv\n{}\n```", notes.join("\n"));
    }
    Some(out)
}

/// An instruction written over several lines, on one.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The result type written in statement `k`, if its opcode has one.
fn result_type<'t>(text: &'t str, syntax: &Syntax, k: usize) -> Option<&'t str> {
    let info = grammar::instruction_by_name(syntax.opcode(text, k))?;
    if !info.has_result_type {
        return None;
    }
    syntax.operands(k).next().map(|w| syntax.text(text, w))
}

/// A type id spelled out: `%_ptr_Function_v4float` → "pointer to Function
/// vec4 of float32".
pub fn spell(text: &str, syntax: &Syntax, name: &str, depth: usize) -> String {
    let Some(k) = syntax.def(name) else {
        return name.to_string();
    };
    if depth > 6 {
        return name.to_string();
    }
    let ops: Vec<&str> = syntax.operands(k).map(|w| syntax.text(text, w)).collect();
    let arg = |i: usize| ops.get(i).copied().unwrap_or("?");
    let sub = |i: usize| spell(text, syntax, arg(i), depth + 1);
    match syntax.opcode(text, k) {
        "OpTypeVoid" => "void".into(),
        "OpTypeBool" => "bool".into(),
        "OpTypeInt" => format!("{}int{}", if arg(1) == "0" { "u" } else { "" }, arg(0)),
        "OpTypeFloat" => format!("float{}", arg(0)),
        "OpTypeVector" => format!("vec{} of {}", arg(1), sub(0)),
        "OpTypeMatrix" => format!("{} columns of {}", arg(1), sub(0)),
        "OpTypeArray" => format!("array of {} {}", constant(text, syntax, arg(1)), sub(0)),
        "OpTypeRuntimeArray" => format!("runtime array of {}", sub(0)),
        "OpTypePointer" => format!("pointer to {} {}", arg(0), sub(1)),
        "OpTypeStruct" => {
            let members: Vec<_> = (0..ops.len()).map(sub).collect();
            format!("struct {{ {} }}", members.join(", "))
        }
        "OpTypeFunction" => {
            let params: Vec<_> = (1..ops.len()).map(sub).collect();
            format!("function ({}) -> {}", params.join(", "), sub(0))
        }
        "OpTypeImage" => format!("image {} of {}", arg(1), sub(0)),
        "OpTypeSampledImage" => format!("sampled {}", sub(0)),
        op if op.starts_with("OpType") => op["OpType".len()..].to_string(),
        _ => name.to_string(),
    }
}

/// The value of an `OpConstant`, or the id.
fn constant<'t>(text: &'t str, syntax: &Syntax, name: &'t str) -> &'t str {
    match syntax.def(name) {
        Some(k) if syntax.opcode(text, k) == "OpConstant" => {
            syntax.operands(k).nth(1).map_or(name, |w| syntax.text(text, w))
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hover_text(text: &str, needle: &str) -> String {
        let doc = Document::new(text.into(), 1);
        let at = doc.lines.position(text, text.find(needle).unwrap() + 1);
        match hover(&doc, at).map(|h| h.contents) {
            Some(HoverContents::Markup(m)) => m.value,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn types_are_spelled_out() {
        let text = "OpDecorate %p Binding 0\n%float = OpTypeFloat 32\n%v4float = OpTypeVector %float 4\n\
                    %_ptr_Function_v4float = OpTypePointer Function %v4float\n%p = OpVariable %_ptr_Function_v4float Function\n";
        let h = hover_text(text, "%p = ");
        assert!(h.contains("Type: pointer to Function vec4 of float32"), "{h}");
        assert!(h.contains("OpDecorate %p Binding 0"), "{h}");
    }

    #[test]
    fn opcodes_and_enumerants_show_the_grammar() {
        let text = "%x = OpLoad %t %p Aligned 4\n";
        let h = hover_text(text, "OpLoad");
        assert!(h.contains("%result = OpLoad <IdResultType> <Pointer: IdRef> <MemoryAccess?>"), "{h}");
        assert!(h.contains("class Memory"), "{h}");
        let h = hover_text(text, "Aligned");
        assert!(h.contains("**Aligned** = 0x2"), "{h}");
        assert!(h.contains("followed by LiteralInteger"), "{h}");
    }
}
