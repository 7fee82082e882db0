//! Operands of OpenCL.DebugInfo.100 and NonSemantic.Shader.DebugInfo.100
//! instructions, as spirv-val checks them: names are OpStrings, sizes
//! OpConstants, references name the kind of debug instruction the
//! specification asks for (a DebugSource, a lexical scope, a debug
//! type...). The two sets share their first 36 instructions; where
//! OpenCL.DebugInfo.100 takes literal numbers (line, column, flags...),
//! NonSemantic.Shader.DebugInfo.100 takes ids of 32-bit unsigned
//! OpConstants, and it adds instructions of its own (DebugLine,
//! DebugTypeMatrix, DebugFunctionDefinition...).

use super::{ErrorKind, Report};
use crate::binary::ExtSet;
use crate::grammar::op;
use crate::module::Module;

const OPENCL: &str = "OpenCL.DebugInfo.100";
const SHADER: &str = "NonSemantic.Shader.DebugInfo.100";

/// What an operand must be.
#[derive(Copy, Clone)]
enum Want {
    /// The result of this core instruction.
    Core(u16, &'static str),
    /// A 32-bit unsigned OpConstant (NonSemantic.Shader.DebugInfo.100
    /// only: OpenCL.DebugInfo.100 has a literal there).
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

// DebugBaseTypeAttributeEncoding values (OpenCL.DebugInfo.100 4.2).
const SIGNED: u32 = 4;
const UNSIGNED: u32 = 6;
// DebugCompositeType values: Class and Structure.
const CLASS: u32 = 0;
const STRUCTURE: u32 = 1;

/// The name of the debug-info instruction defining `id`, if it is one.
fn debug_name(m: &Module, id: u32) -> Option<&'static str> {
    let inst = m.def(id)?;
    if !matches!(inst.opcode(), op::OpExtInst | op::OpExtInstWithForwardRefsKHR) {
        return None;
    }
    let Some(ExtSet::Known(set)) = inst.ext_set() else { return None };
    if !matches!(set.import_name, OPENCL | SHADER) {
        return None;
    }
    set.instruction(m.words[inst.offset as usize + 4]).map(|i| i.name)
}

/// The debug types (DebugTypeBasic to DebugTypeTemplate, and with
/// `template` their parameters).
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
    ) || (template && matches!(name, "DebugTypeTemplateParameter" | "DebugTypeTemplateTemplateParameter"))
}

fn is_int_scalar_type(m: &Module, t: u32) -> bool {
    m.def_opcode(t) == Some(op::OpTypeInt)
}

fn is_uint32_constant(m: &Module, id: u32) -> bool {
    let Some(c) = m.def(id) else { return false };
    c.opcode() == op::OpConstant
        && is_int_scalar_type(m, m.result_type_at(c))
        && m.def_word(m.result_type_at(c), 2) == Some(32)
        && m.def_word(m.result_type_at(c), 3) == Some(0)
}

/// The value of an integer OpConstant (its low word).
fn constant(m: &Module, id: u32) -> Option<u32> {
    let c = m.def(id)?;
    (c.opcode() == op::OpConstant && is_int_scalar_type(m, m.result_type_at(c))).then(|| m.words[c.offset as usize + 3])
}

struct Checker<'a, 'r, 'm, 'w> {
    m: &'a Module<'w>,
    r: &'a mut Report<'r, 'm>,
    i: usize,
    /// The instruction's set, for messages.
    set: &'static str,
    name: &'static str,
    /// NonSemantic.Shader.DebugInfo.100 (numbers are constants' ids).
    shader: bool,
    /// The instruction's words.
    words: &'a [u32],
}

/// Where the instruction stands: its function and whether in its first block.
#[derive(Copy, Clone, Default)]
struct Place {
    function: Option<u32>,
    entry_block: bool,
}

impl Checker<'_, '_, '_, '_> {
    fn fail(&mut self, message: String) -> bool {
        let text = format!("{} {}: {message}", self.set, self.name);
        self.r.error(ErrorKind::OperandType, self.i, text);
        false
    }

    fn word(&self, w: usize) -> u32 {
        self.words.get(w).copied().unwrap_or(0)
    }

    fn is_none(&self, w: usize) -> bool {
        self.words.get(w).is_some_and(|&id| debug_name(self.m, id) == Some("DebugInfoNone"))
    }

    /// Checks word `w` (when present); false after reporting.
    fn want(&mut self, w: usize, operand: &str, want: Want) -> bool {
        if matches!(want, Uint) && !self.shader {
            return true;
        }
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
            Type(template) => {
                debug_name(m, id).is_some_and(|n| is_debug_type(n, template) || (self.shader && n == "DebugTypeMatrix"))
            }
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

    /// A component or vector count from 1 to 4: a constant's id, or in
    /// OpenCL.DebugInfo.100 a literal.
    fn small_count(&mut self, w: usize, what: &str) -> bool {
        let Some(&word) = self.words.get(w) else { return true };
        let value = if self.shader {
            match constant(self.m, word) {
                Some(v) => v,
                None => return self.fail(format!("{what} must be 32-bit integer OpConstant")),
            }
        } else {
            word
        };
        if value == 0 || value > 4 {
            return self.fail(format!("{what} must be positive integer less than or equal to 4"));
        }
        true
    }

    /// An encoding: a literal, or in NonSemantic.Shader.DebugInfo.100 a
    /// 32-bit unsigned constant's id (None if it is not one).
    fn encoding(&self, word: u32) -> Option<u32> {
        if self.shader {
            is_uint32_constant(self.m, word).then(|| self.m.def_word(word, 3)).flatten()
        } else {
            Some(word)
        }
    }

    /// A DebugTypeArray count: an int constant of 32 or 64 bits (not 0 in
    /// OpenCL.DebugInfo.100), or a debug variable of an unsigned DebugTypeBasic
    /// of 32 or 64 bits.
    fn array_count(&self, id: u32) -> bool {
        let m = self.m;
        if let Some(c) =
            m.def(id).filter(|c| c.opcode() == op::OpConstant && is_int_scalar_type(m, m.result_type_at(c)))
        {
            if matches!(m.def_word(m.result_type_at(c), 2), Some(32 | 64)) {
                return self.shader || m.def_word(id, 3) != Some(0);
            }
        }
        if !matches!(debug_name(m, id), Some("DebugLocalVariable" | "DebugGlobalVariable")) {
            return false;
        }
        let Some(ty) = m.def_word(id, 6) else { return false };
        if debug_name(m, ty) != Some("DebugTypeBasic") {
            return false;
        }
        let (Some(size), Some(encoding)) = (m.def_word(ty, 6), m.def_word(ty, 7)) else { return false };
        if self.encoding(encoding) != Some(UNSIGNED) {
            return false;
        }
        m.def(size).is_some_and(|s| is_int_scalar_type(m, m.result_type_at(s)))
            && matches!(m.def_word(size, 3), Some(32 | 64))
    }

    /// A DebugValue index: an int constant, or a debug variable of a signed
    /// or unsigned DebugTypeBasic.
    fn index(&self, id: u32) -> bool {
        let m = self.m;
        if m.def(id).is_some_and(|c| c.opcode() == op::OpConstant && is_int_scalar_type(m, m.result_type_at(c))) {
            return true;
        }
        if !matches!(debug_name(m, id), Some("DebugLocalVariable" | "DebugGlobalVariable")) {
            return false;
        }
        let Some(ty) = m.def_word(id, 6).filter(|&t| debug_name(m, t) == Some("DebugTypeBasic")) else {
            return false;
        };
        m.def_word(ty, 7).and_then(|e| self.encoding(e)).is_some_and(|e| e == SIGNED || e == UNSIGNED)
    }

    /// A class or structure DebugTypeComposite at word `w` (its Tag word).
    fn class_or_struct(&mut self, w: usize, operand: &str) -> bool {
        if !self.want(w, operand, Debug("DebugTypeComposite")) {
            return false;
        }
        let tag = self.m.def_word(self.word(w), 6);
        if !matches!(tag, Some(CLASS | STRUCTURE)) {
            return self.fail(format!("expected operand {operand} must be class or struct debug type"));
        }
        true
    }

    /// The checks of NonSemantic.Shader.DebugInfo.100 that come before
    /// the common ones.
    fn check_shader(&mut self, place: Place) -> bool {
        let n = self.words.len();
        let m = self.m;
        match self.name {
            "DebugTypeBasic" => self.want(8, "Flags", Uint),
            "DebugDeclare" => {
                let bad = (8..n).any(|w| !is_int_scalar_type(m, m.type_of(self.words[w])));
                !bad || self.fail("expected index must be scalar integer".into())
            }
            "DebugTypeMatrix" => {
                self.all(&[(5, "Vector Type", Debug("DebugTypeVector")), (6, "Vector Count", Uint)])
                    && self.small_count(6, "Vector Count")
            }
            "DebugFunctionDefinition" => {
                if !self.all(&[
                    (5, "Function", Debug("DebugFunction")),
                    (6, "Definition", Core(op::OpFunction, "OpFunction")),
                ]) {
                    return false;
                }
                if !place.entry_block {
                    return self.fail("must be in the entry basic block of the function".into());
                }
                if self.words.get(6).copied() != place.function {
                    return self.fail("operand Definition must point to the OpFunction it is inside".into());
                }
                true
            }
            "DebugLine" => {
                let ok = self.all(&[
                    (5, "Source", Debug("DebugSource")),
                    (6, "Line Start", Uint),
                    (7, "Line End", Uint),
                    (8, "Column Start", Uint),
                    (9, "Column End", Uint),
                ]);
                if !ok {
                    return false;
                }
                let value = |w: usize| constant(m, self.word(w)).unwrap_or(0);
                let (line_start, line_end, column_start, column_end) = (value(6), value(7), value(8), value(9));
                if line_end < line_start {
                    return self.fail(format!("operand Line End ({line_end}) is less than Line Start ({line_start})"));
                }
                if line_start == line_end && column_end < column_start {
                    return self.fail(format!(
                        "operand Column End ({column_end}) is less than Column Start ({column_start}) when Line Start \
                         equals Line End"
                    ));
                }
                true
            }
            "DebugSourceContinued" => self.want(5, "Text", STRING),
            "DebugBuildIdentifier" => self.all(&[(5, "Identifier", STRING), (6, "Flags", Uint)]),
            "DebugStoragePath" => self.want(5, "Path", STRING),
            "DebugEntryPoint" => self.all(&[
                (5, "Entry Point", Debug("DebugFunction")),
                (6, "Compilation Unit", Debug("DebugCompilationUnit")),
                (7, "Compiler Signature", STRING),
                (8, "Command-line Arguments", STRING),
            ]),
            _ => true,
        }
    }

    /// The checks of the instructions both sets share.
    fn check_common(&mut self) -> bool {
        let n = self.words.len();
        let m = self.m;
        match self.name {
            "DebugOperation" => (5..n).all(|w| self.want(w, if w == 5 { "Operation" } else { "Operand" }, Uint)),
            "DebugCompilationUnit" => self.all(&[
                (5, "Version", Uint),
                (6, "DWARF Version", Uint),
                (7, "Source", Debug("DebugSource")),
                (8, "Language", Uint),
            ]),
            "DebugSource" => self.all(&[(5, "File", STRING), (6, "Text", STRING)]),
            "DebugTypeBasic" => self.all(&[(5, "Name", STRING), (6, "Size", CONSTANT), (7, "Encoding", Uint)]),
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
                if (6..n).any(|w| !self.array_count(self.words[w])) {
                    return self.fail(
                        "Component Count must be OpConstant with a 32- or 64-bits integer scalar type or \
                         DebugGlobalVariable or DebugLocalVariable with a 32- or 64-bits unsigned integer scalar type"
                            .into(),
                    );
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
                let void_return = m.def_opcode(self.word(6)) == Some(op::OpTypeVoid);
                (void_return || self.want(6, "Return Type", Type(true)))
                    && (7..n).all(|w| self.want(w, "Parameter Types", Type(true)))
            }
            "DebugTypeEnum" => {
                if !self.want(5, "Name", STRING) || !(self.is_none(6) || self.want(6, "Underlying Types", Type(false)))
                {
                    return false;
                }
                let ok = self.all(&[
                    (7, "Source", Debug("DebugSource")),
                    (8, "Line", Uint),
                    (9, "Column", Uint),
                    (10, "Parent", Scope),
                    (11, "Size", CONSTANT),
                ]);
                if !ok {
                    return false;
                }
                let size = self.word(11);
                if !m.def(size).is_some_and(|s| is_int_scalar_type(m, m.result_type_at(s)))
                    || m.def_word(size, 3) == Some(0)
                {
                    return self.fail("expected operand Size is a positive integer".into());
                }
                if !self.want(12, "Flags", Uint) {
                    return false;
                }
                let mut w = 13;
                while w + 1 < n {
                    if !self.all(&[(w, "Value", CONSTANT), (w + 1, "Name", STRING)]) {
                        return false;
                    }
                    w += 2;
                }
                true
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
            "DebugTypeMember" => {
                let ok = self.all(&[
                    (5, "Name", STRING),
                    (6, "Type", Type(true)),
                    (7, "Source", Debug("DebugSource")),
                    (8, "Line", Uint),
                    (9, "Column", Uint),
                ]);
                // OpenCL.DebugInfo.100 names the member's Parent first.
                let at = if self.shader { 10 } else { 11 };
                ok && (self.shader || self.want(10, "Parent", Debug("DebugTypeComposite")))
                    && self.all(&[
                        (at, "Offset", CONSTANT),
                        (at + 1, "Size", CONSTANT),
                        (at + 2, "Flags", Uint),
                        (at + 3, "Value", CONSTANT),
                    ])
            }
            "DebugTypeInheritance" => {
                self.class_or_struct(5, "Child")
                    && self.class_or_struct(6, "Parent")
                    && self.all(&[(7, "Offset", CONSTANT), (8, "Size", CONSTANT), (9, "Flags", Uint)])
            }
            "DebugFunction" => {
                let ok = self.all(&[
                    (5, "Name", STRING),
                    (6, "Type", Debug("DebugTypeFunction")),
                    (7, "Source", Debug("DebugSource")),
                    (8, "Line", Uint),
                    (9, "Column", Uint),
                    (10, "Parent", Scope),
                    (11, "Linkage Name", STRING),
                    (12, "Flags", Uint),
                    (13, "Scope Line", Uint),
                ]);
                if !ok {
                    return false;
                }
                // OpenCL.DebugInfo.100 names the OpFunction next.
                if self.shader {
                    return self.want(14, "Declaration", Debug("DebugFunctionDeclaration"));
                }
                (self.is_none(14) || self.want(14, "Function", Core(op::OpFunction, "OpFunction")))
                    && self.want(15, "Declaration", Debug("DebugFunctionDeclaration"))
            }
            "DebugFunctionDeclaration" => self.all(&[
                (5, "Name", STRING),
                (6, "Type", Debug("DebugTypeFunction")),
                (7, "Source", Debug("DebugSource")),
                (8, "Line", Uint),
                (9, "Column", Uint),
                (10, "Parent", Scope),
                (11, "Linkage Name", STRING),
                (12, "Flags", Uint),
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
                if !matches!(m.def_opcode(self.word(6)), Some(op::OpVariable | op::OpFunctionParameter)) {
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
                if !matches!(debug_name(m, self.word(5)), Some("DebugTypeComposite" | "DebugFunction")) {
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
            "DebugValue" => {
                if !self.all(&[
                    (5, "Local Variable", Debug("DebugLocalVariable")),
                    (7, "Expression", Debug("DebugExpression")),
                ]) {
                    return false;
                }
                if (8..n).any(|w| !self.index(self.words[w])) {
                    return self.fail(
                        "expected operand Indexes is OpConstant, DebugGlobalVariable, or type is OpConstant with an \
                         integer scalar type"
                            .into(),
                    );
                }
                true
            }
            _ => true,
        }
    }
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    let mut place = Place::default();
    let mut labels = 0;
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        match inst.opcode() {
            op::OpFunction => {
                place.function = Some(m.result_id_at(inst));
                labels = 0;
            }
            op::OpFunctionEnd => place.function = None,
            op::OpLabel => {
                labels += 1;
                place.entry_block = labels == 1;
            }
            op::OpExtInst | op::OpExtInstWithForwardRefsKHR => {
                let Some(ExtSet::Known(set)) = inst.ext_set() else { continue };
                if !matches!(set.import_name, OPENCL | SHADER) {
                    continue;
                }
                let words = &m.words[inst.offset as usize..inst.offset as usize + inst.word_count as usize];
                let Some(ei) = words.get(4).and_then(|&n| set.instruction(n)) else { continue };
                let shader = set.import_name == SHADER;
                let mut c = Checker { m, r, i, set: set.import_name, name: ei.name, shader, words };
                if m.def_opcode(m.result_type_at(inst)) != Some(op::OpTypeVoid) {
                    c.fail("expected result type must be a result id of OpTypeVoid".into());
                    return;
                }
                // (OpenCL.DebugInfo.100's DebugModuleINTEL has no checks.)
                if !((!shader || c.check_shader(place)) && c.check_common()) {
                    return;
                }
            }
            _ => {}
        }
    }
}
