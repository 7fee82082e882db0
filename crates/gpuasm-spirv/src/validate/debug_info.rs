//! Operands of NonSemantic.Shader.DebugInfo.100 instructions: names are
//! OpStrings, numbers 32-bit unsigned OpConstants, and references name the
//! kind of debug instruction the specification asks for (a DebugSource, a
//! lexical scope, a debug type...), as spirv-val checks them.

use super::module::Module;
use super::{ErrorKind, Report};
use crate::binary::ExtSet;
use crate::grammar::op;

const SET: &str = "NonSemantic.Shader.DebugInfo.100";

/// What an operand must be.
#[derive(Copy, Clone)]
enum Want {
    /// The result of this core instruction.
    Core(u16, &'static str),
    /// A 32-bit unsigned OpConstant.
    Uint,
    /// The result of this debug instruction.
    Debug(&'static str),
    /// DebugCompilationUnit, DebugFunction, DebugLexicalBlock or DebugTypeComposite.
    Scope,
    /// A debug type (template parameters allowed or not).
    Type(bool),
}

use Want::*;
const STRING: Want = Core(op::OpString, "OpString");
const CONSTANT: Want = Core(op::OpConstant, "OpConstant");

/// Instruction number → name in the common debug-info numbering.
fn debug_name(m: &Module, id: u32) -> Option<&'static str> {
    let inst = m.def(id)?;
    // Types that refer ahead are made with OpExtInstWithForwardRefsKHR.
    if !matches!(inst.opcode(), op::OpExtInst | op::OpExtInstWithForwardRefsKHR) {
        return None;
    }
    let Some(ExtSet::Known(set)) = inst.ext_set else { return None };
    if !set.import_name.contains("DebugInfo") {
        return None;
    }
    set.instruction(m.words[inst.offset + 4]).map(|i| i.name)
}

fn is_debug_type(name: &str, template: bool) -> bool {
    matches!(
        name,
        "DebugTypeBasic"
            | "DebugTypePointer"
            | "DebugTypeQualifier"
            | "DebugTypeArray"
            | "DebugTypeVector"
            | "DebugTypedef"
            | "DebugTypeFunction"
            | "DebugTypeEnum"
            | "DebugTypeComposite"
            | "DebugTypeMember"
            | "DebugTypeInheritance"
            | "DebugTypePtrToMember"
            | "DebugTypeTemplate"
            | "DebugTypeMatrix"
    ) || (template && matches!(name, "DebugTypeTemplateParameter" | "DebugTypeTemplateTemplateParameter"))
}

fn is_uint32_constant(m: &Module, id: u32) -> bool {
    let Some(c) = m.def(id) else { return false };
    c.opcode() == op::OpConstant
        && m.def_opcode(c.result_type) == Some(op::OpTypeInt)
        && m.def_word(c.result_type, 2) == Some(32)
        && m.def_word(c.result_type, 3) == Some(0)
}

/// The value of an integer OpConstant (its low word).
fn constant(m: &Module, id: u32) -> Option<u32> {
    let c = m.def(id)?;
    (c.opcode() == op::OpConstant && m.def_opcode(c.result_type) == Some(op::OpTypeInt)).then(|| m.words[c.offset + 3])
}

struct Checker<'a, 'r, 'm, 'w> {
    m: &'a Module<'w>,
    r: &'a mut Report<'r, 'm>,
    i: usize,
    name: &'static str,
    /// The instruction's words.
    words: &'a [u32],
}

impl Checker<'_, '_, '_, '_> {
    fn fail(&mut self, message: String) -> bool {
        let text = format!("{SET} {}: {message}", self.name);
        self.r.error(ErrorKind::OperandType, self.i, text);
        false
    }

    fn is_none(&self, w: usize) -> bool {
        self.words.get(w).is_some_and(|&id| debug_name(self.m, id) == Some("DebugInfoNone"))
    }

    /// Checks word `w` (when present); false after reporting.
    fn want(&mut self, w: usize, operand: &str, want: Want) -> bool {
        let Some(&id) = self.words.get(w) else { return true };
        let m = self.m;
        let ok = match want {
            Core(opcode, _) => m.def_opcode(id) == Some(opcode),
            Uint => is_uint32_constant(m, id),
            Debug(name) => debug_name(m, id) == Some(name),
            Scope => matches!(
                debug_name(m, id),
                Some("DebugCompilationUnit" | "DebugFunction" | "DebugLexicalBlock" | "DebugTypeComposite")
            ),
            Type(template) => debug_name(m, id).is_some_and(|n| is_debug_type(n, template)),
        };
        if ok {
            return true;
        }
        let message = match want {
            Core(_, name) => format!("expected operand {operand} must be a result id of {name}"),
            Uint => format!("expected operand {operand} must be a result id of 32-bit unsigned OpConstant"),
            Debug(name) => format!("expected operand {operand} must be a result id of {name}"),
            Scope => format!("expected operand {operand} must be a result id of a lexical scope"),
            Type(_) => format!("expected operand {operand} is not a valid debug type"),
        };
        self.fail(message)
    }

    fn all(&mut self, checks: &[(usize, &str, Want)]) -> bool {
        checks.iter().all(|&(w, operand, want)| self.want(w, operand, want))
    }

    /// A component or vector count: a constant from 1 to 4.
    fn small_count(&mut self, w: usize, what: &str) -> bool {
        let Some(&id) = self.words.get(w) else { return true };
        match constant(self.m, id) {
            None => self.fail(format!("{what} must be 32-bit integer OpConstant")),
            Some(v) if v == 0 || v > 4 => self.fail(format!("{what} must be positive integer less than or equal to 4")),
            Some(_) => true,
        }
    }

    fn check(&mut self, function: Option<u32>) -> bool {
        let n = self.words.len();
        let m = self.m;
        match self.name {
            "DebugTypeMatrix" => {
                self.all(&[(5, "Vector Type", Debug("DebugTypeVector")), (6, "Vector Count", Uint)])
                    && self.small_count(6, "Vector Count")
            }
            "DebugOperation" => (5..n).all(|w| self.want(w, if w == 5 { "Operation" } else { "Operand" }, Uint)),
            "DebugCompilationUnit" => self.all(&[
                (5, "Version", Uint),
                (6, "DWARF Version", Uint),
                (7, "Source", Debug("DebugSource")),
                (8, "Language", Uint),
            ]),
            "DebugSource" => self.all(&[(5, "File", STRING), (6, "Text", STRING)]),
            "DebugTypeBasic" => {
                self.all(&[(5, "Name", STRING), (6, "Size", CONSTANT), (7, "Encoding", Uint), (8, "Flags", Uint)])
            }
            "DebugTypePointer" => {
                self.all(&[(5, "Base Type", Type(false)), (6, "Storage Class", Uint), (7, "Flags", Uint)])
            }
            "DebugTypeQualifier" => self.all(&[(5, "Base Type", Type(false)), (6, "Type Qualifier", Uint)]),
            "DebugTypeVector" => {
                self.all(&[(5, "Base Type", Debug("DebugTypeBasic")), (6, "Component Count", Uint)])
                    && self.small_count(6, "Component Count")
            }
            "DebugTypeArray" => {
                if !self.want(5, "Base Type", Type(false)) {
                    return false;
                }
                for w in 6..n {
                    let id = self.words[w];
                    let int_constant = m.def(id).is_some_and(|c| {
                        matches!(c.opcode(), op::OpConstant | op::OpSpecConstant)
                            && m.def_opcode(c.result_type) == Some(op::OpTypeInt)
                            && matches!(m.def_word(c.result_type, 2), Some(32 | 64))
                    });
                    let variable = matches!(debug_name(m, id), Some("DebugLocalVariable" | "DebugGlobalVariable"));
                    if !int_constant && !variable {
                        return self.fail(
                            "Component Count must be OpConstant with a 32- or 64-bits integer scalar type or \
                             DebugGlobalVariable or DebugLocalVariable with a 32- or 64-bits unsigned integer scalar type"
                                .into(),
                        );
                    }
                }
                true
            }
            "DebugTypedef" => self.all(&[
                (5, "Name", STRING),
                (6, "Base Type", Debug("DebugTypeBasic")),
                (7, "Source", Debug("DebugSource")),
                (8, "Line", Uint),
                (9, "Column", Uint),
                (10, "Parent", Scope),
            ]),
            "DebugTypeFunction" => {
                if !self.want(5, "Flags", Uint) {
                    return false;
                }
                let void_return = self.words.get(6).is_some_and(|&t| m.def_opcode(t) == Some(op::OpTypeVoid));
                (void_return || self.want(6, "Return Type", Type(true)))
                    && (7..n).all(|w| self.want(w, "Parameter Types", Type(true)))
            }
            "DebugTypeComposite" => {
                let ok = self.all(&[
                    (5, "Name", STRING),
                    (7, "Source", Debug("DebugSource")),
                    (8, "Line", Uint),
                    (9, "Column", Uint),
                    (10, "Parent", Scope),
                    (11, "Linkage Name", STRING),
                ]) && (self.is_none(12) || self.want(12, "Size", CONSTANT))
                    && self.want(13, "Flags", Uint);
                if !ok {
                    return false;
                }
                for w in 14..n {
                    let member = debug_name(m, self.words[w]);
                    if !matches!(member, Some("DebugTypeMember" | "DebugFunction" | "DebugTypeInheritance")) {
                        return self.fail(
                            "expected operand Members must be DebugTypeMember, DebugFunction, or DebugTypeInheritance"
                                .into(),
                        );
                    }
                }
                true
            }
            "DebugTypeMember" => self.all(&[
                (5, "Name", STRING),
                (6, "Type", Type(true)),
                (7, "Source", Debug("DebugSource")),
                (8, "Line", Uint),
                (9, "Column", Uint),
                (10, "Offset", CONSTANT),
                (11, "Size", CONSTANT),
                (12, "Flags", Uint),
                (13, "Value", CONSTANT),
            ]),
            "DebugFunction" => self.all(&[
                (5, "Name", STRING),
                (6, "Type", Debug("DebugTypeFunction")),
                (7, "Source", Debug("DebugSource")),
                (8, "Line", Uint),
                (9, "Column", Uint),
                (10, "Parent", Scope),
                (11, "Linkage Name", STRING),
                (12, "Flags", Uint),
                (13, "Scope Line", Uint),
                (14, "Declaration", Debug("DebugFunctionDeclaration")),
            ]),
            "DebugLexicalBlock" => self.all(&[
                (5, "Source", Debug("DebugSource")),
                (6, "Line", Uint),
                (7, "Column", Uint),
                (8, "Parent", Scope),
                (9, "Name", STRING),
            ]),
            "DebugScope" => self.all(&[(5, "Scope", Scope), (6, "Inlined At", Debug("DebugInlinedAt"))]),
            "DebugLocalVariable" => self.all(&[
                (5, "Name", STRING),
                (6, "Type", Type(true)),
                (7, "Source", Debug("DebugSource")),
                (8, "Line", Uint),
                (9, "Column", Uint),
                (10, "Parent", Scope),
                (11, "Flags", Uint),
                (12, "ArgNumber", Uint),
            ]),
            "DebugDeclare" => {
                if !self.want(5, "Local Variable", Debug("DebugLocalVariable")) {
                    return false;
                }
                let var = self.words.get(6).and_then(|&v| m.def_opcode(v));
                if !matches!(var, Some(op::OpVariable | op::OpFunctionParameter)) {
                    return self.fail(
                        "expected operand Variable must be a result id of OpVariable or OpFunctionParameter".into(),
                    );
                }
                self.want(7, "Expression", Debug("DebugExpression"))
            }
            "DebugExpression" => (5..n).all(|w| self.want(w, "Operation", Debug("DebugOperation"))),
            "DebugGlobalVariable" => {
                let ok = self.all(&[
                    (5, "Name", STRING),
                    (6, "Type", Type(false)),
                    (7, "Source", Debug("DebugSource")),
                    (8, "Line", Uint),
                    (9, "Column", Uint),
                    (10, "Scope", Scope),
                    (11, "Linkage Name", STRING),
                ]);
                if !ok {
                    return false;
                }
                if !self.is_none(12) {
                    let var = self.words.get(12).and_then(|&v| m.def_opcode(v));
                    let allowed = var.is_some_and(|o| {
                        o == op::OpVariable
                            || o == op::OpUntypedVariableKHR
                            || crate::grammar::instruction(o).is_some_and(|i| {
                                i.name.starts_with("OpConstant") || i.name.starts_with("OpSpecConstant")
                            })
                    });
                    if self.words.len() > 12 && !allowed {
                        return self.fail(
                            "expected operand Variable must be a result id of OpVariable, OpConstant variant, \
                             OpSpecConstant variant or DebugInfoNone"
                                .into(),
                        );
                    }
                }
                // (Flags, word 13, is not checked by spirv-val.)
                self.want(14, "Static Member Declaration", Debug("DebugTypeMember"))
            }
            "DebugTypeTemplate" => {
                if !matches!(
                    self.words.get(5).and_then(|&t| debug_name(m, t)),
                    Some("DebugTypeComposite" | "DebugFunction")
                ) {
                    return self.fail("expected operand Target must be DebugTypeComposite or DebugFunction".into());
                }
                for w in 6..n {
                    let p = debug_name(m, self.words[w]);
                    if !matches!(p, Some("DebugTypeTemplateParameter" | "DebugTypeTemplateTemplateParameter")) {
                        return self.fail(
                            "expected operand Parameters must be DebugTypeTemplateParameter or \
                             DebugTypeTemplateTemplateParameter"
                                .into(),
                        );
                    }
                }
                true
            }
            "DebugTypeTemplateParameter" => {
                self.all(&[(5, "Name", STRING), (6, "Actual Type", Type(false))])
                    && (self.is_none(7) || self.want(7, "Value", CONSTANT))
                    && self.all(&[(8, "Source", Debug("DebugSource")), (9, "Line", Uint), (10, "Column", Uint)])
            }
            "DebugInlinedAt" => {
                self.all(&[(5, "Line", Uint), (6, "Scope", Scope), (7, "Inlined", Debug("DebugInlinedAt"))])
            }
            "DebugLine" => self.all(&[
                (5, "Source", Debug("DebugSource")),
                (6, "Line Start", Uint),
                (7, "Line End", Uint),
                (8, "Column Start", Uint),
                (9, "Column End", Uint),
            ]),
            "DebugFunctionDefinition" => {
                if !self.want(5, "Function", Debug("DebugFunction")) {
                    return false;
                }
                if !self.want(6, "Definition", Core(op::OpFunction, "OpFunction")) {
                    return false;
                }
                if self.words.get(6).copied() != function {
                    return self.fail("operand Definition must point to the OpFunction it is inside".into());
                }
                true
            }
            _ => true,
        }
    }
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    let mut function = None;
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        match inst.opcode() {
            op::OpFunction => function = Some(inst.result_id),
            op::OpFunctionEnd => function = None,
            op::OpExtInst => {
                let Some(ExtSet::Known(set)) = inst.ext_set else { continue };
                if set.import_name != SET {
                    continue;
                }
                let words = &m.words[inst.offset..inst.offset + inst.word_count];
                let Some(ei) = words.get(4).and_then(|&n| set.instruction(n)) else { continue };
                let mut c = Checker { m, r, i, name: ei.name, words };
                if !c.check(function) {
                    return;
                }
            }
            _ => {}
        }
    }
}
