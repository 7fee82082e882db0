//! Annotation instructions one at a time, as spirv-val's annotation pass
//! checks them: which decorations belong on structure members only (or never
//! there), what a BuiltIn decoration may target, fast-math flags that do not
//! go together, decoration groups targeted by group decorations, and the
//! decorations Vulkan forbids outright.
//!
//! The target rules shared with other decorations live in
//! `types::check_decoration_target`; this stage calls it in spirv-val's order
//! so that the first error printed is the one spirv-val prints.

use super::{ErrorKind, Report};
use crate::grammar::{built_in, capability, decoration as d, fp_fast_math_mode as fm, op, OperandKind};
use crate::module::Module;
use rustc_hash::FxHashSet;

/// Decorations that take `<id>` operands (SPIR-V 2.16: they need
/// OpDecorateId, and OpDecorateId takes no others).
const TAKES_IDS: &[u32] = &[
    d::UniformId,
    d::AlignmentId,
    d::MaxByteOffsetId,
    d::CounterBuffer,
    d::NodeMaxPayloadsAMDX,
    d::NodeSharesPayloadLimitsWithAMDX,
    d::PayloadNodeArraySizeAMDX,
    d::PayloadNodeNameAMDX,
    d::PayloadNodeBaseIndexAMDX,
];

/// Decorations that only make sense on a structure member (matrix layout).
const MEMBER_ONLY: &[u32] = &[d::RowMajor, d::ColMajor, d::MatrixStride];

/// Decorations spirv-val refuses on structure members.
const NOT_ON_MEMBERS: &[u32] = &[
    d::SpecId,
    d::Block,
    d::BufferBlock,
    d::ArrayStride,
    d::GLSLShared,
    d::GLSLPacked,
    d::CPacked,
    d::Aliased,
    d::Constant,
    d::Uniform,
    d::UniformId,
    d::SaturatedConversion,
    d::Index,
    d::Binding,
    d::DescriptorSet,
    d::FuncParamAttr,
    d::FPRoundingMode,
    d::FPFastMathMode,
    d::LinkageAttributes,
    d::NoContraction,
    d::InputAttachmentIndex,
    d::Alignment,
    d::MaxByteOffset,
    d::AlignmentId,
    d::MaxByteOffsetId,
    d::NoSignedWrap,
    d::NoUnsignedWrap,
    d::NonUniform,
    d::RestrictPointer,
    d::AliasedPointer,
    d::CounterBuffer,
];

fn name(dec: u32) -> &'static str {
    OperandKind::Decoration.enumerant(dec).map_or("", |e| e.name)
}

/// Decoration groups some instruction other than OpDecorate, OpGroupDecorate,
/// OpGroupMemberDecorate, OpName or a non-semantic extended instruction
/// names (spirv-val counts every use, those before the group too).
fn misused_groups(m: &Module) -> FxHashSet<u32> {
    let mut misused = FxHashSet::default();
    if !m.uses(op::OpDecorationGroup) {
        return misused;
    }
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        let allowed =
            matches!(inst.opcode(), op::OpDecorate | op::OpGroupDecorate | op::OpGroupMemberDecorate | op::OpName)
                || super::ids::non_semantic_use(inst);
        if !allowed {
            misused.extend(
                m.id_operands(i).map(|(_, id)| id).filter(|&id| m.def_opcode(id) == Some(op::OpDecorationGroup)),
            );
        }
    }
    misused
}

pub(crate) fn check(m: &Module, vulkan: bool, r: &mut Report) {
    let shader = super::capabilities::with_implied(m).contains(&capability::Shader);
    let misused = misused_groups(m);
    // (target, decoration) of the OpDecorates seen so far: spirv-val
    // registers decorations as it goes.
    let mut seen: FxHashSet<(u32, u32)> = FxHashSet::default();
    for i in 0..m.insts.len() {
        match m.opcode(i) {
            op::OpDecorationGroup if misused.contains(&m.result_id_at(&m.insts[i])) => r.error(
                ErrorKind::Decoration,
                i,
                "Result id of OpDecorationGroup can only be targeted by OpName, OpGroupDecorate, OpDecorate, \
                 OpDecorateId, and OpGroupMemberDecorate",
            ),
            op::OpDecorate => {
                let message = decorate_problem(m, r, i, vulkan, shader, &seen);
                seen.insert((m.word(i, 0), m.word(i, 1)));
                match message {
                    Some(message) => r.error(ErrorKind::Decoration, i, message),
                    None => {
                        let before = r.errors.len();
                        if m.def_opcode(m.word(i, 0)) != Some(op::OpDecorationGroup)
                            && !MEMBER_ONLY.contains(&m.word(i, 1))
                        {
                            super::types::check_decoration_target(m, r, i, vulkan);
                        }
                        if r.errors.len() > before {
                            return;
                        }
                    }
                }
            }
            op::OpDecorateId => {
                let target = m.word(i, 0);
                let dec = m.word(i, 1);
                if m.def_opcode(target) == Some(op::OpDecorationGroup) {
                    // (spirv-val's words name OpMemberDecorate.)
                    let t = r.id(target);
                    r.error(
                        ErrorKind::Decoration,
                        i,
                        format!("OpMemberDecorate Target <id> {t} must not be an OpDecorationGroup instruction."),
                    );
                } else if !TAKES_IDS.contains(&dec) {
                    r.error(
                        ErrorKind::Decoration,
                        i,
                        "Decorations that don't take ID parameters may not be used with OpDecorateId",
                    );
                } else if let Some(param) = (2..m.operands(i).len())
                    .map(|k| m.word(i, k))
                    .find(|&p| m.def_index(target).is_some_and(|t| m.def_index(p).is_some_and(|p| t <= p)))
                {
                    // An id parameter is defined before the target it decorates.
                    let p = r.id(param);
                    r.error(
                        ErrorKind::Decoration,
                        i,
                        format!("Parameter <ID> {p} must appear earlier in the binary than the target"),
                    );
                }
            }
            op::OpMemberDecorate => {
                let dec = m.word(i, 2);
                let is_struct = m.def_opcode(m.word(i, 0)) == Some(op::OpTypeStruct);
                let in_bounds = (m.word(i, 1) as usize) < m.operands_len_of(m.word(i, 0)).saturating_sub(1);
                if is_struct && in_bounds && NOT_ON_MEMBERS.contains(&dec) {
                    r.error(ErrorKind::Decoration, i, format!("{} cannot be applied to structure members", name(dec)));
                }
            }
            op::OpGroupDecorate | op::OpGroupMemberDecorate
                if m.def_opcode(m.word(i, 0)) != Some(op::OpDecorationGroup) =>
            {
                let (what, g) = (m.insts[i].info().name, r.id(m.word(i, 0)));
                r.error(
                    ErrorKind::Decoration,
                    i,
                    format!("{what} Decoration group <id> {g} is not a decoration group."),
                );
            }
            op::OpGroupMemberDecorate => {
                if let Some(message) = group_member_problem(m, r, i) {
                    r.error(ErrorKind::Decoration, i, message);
                }
            }
            op::OpGroupDecorate => {
                for k in 1..m.operands(i).len() {
                    let target = m.word(i, k);
                    if m.def_opcode(target).is_none_or(|o| o == op::OpDecorationGroup) {
                        let t = r.id(target);
                        r.error(
                            ErrorKind::Decoration,
                            i,
                            format!("OpGroupDecorate may not target OpDecorationGroup <id> {t}"),
                        );
                        break;
                    }
                }
            }
            _ => {}
        }
        if !r.errors.is_empty() {
            return;
        }
    }
}

/// OpGroupMemberDecorate's targets are members of structures.
fn group_member_problem(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    for k in (1..m.operands(i).len().saturating_sub(1)).step_by(2) {
        let (target, index) = (m.word(i, k), m.word(i, k + 1));
        if m.def_opcode(target) != Some(op::OpTypeStruct) {
            return Some(format!("OpGroupMemberDecorate Structure type <id> {} is not a struct type.", r.id(target)));
        }
        let members = m.operands_len_of(target).saturating_sub(1) as u32;
        if index >= members {
            return Some(format!(
                "Index {index} provided in OpGroupMemberDecorate for struct <id> {} is out of bounds. The structure \
                 has {members} members. Largest valid index is {}.",
                r.id(target),
                // spirv-val's count is a u32: none wraps.
                members.wrapping_sub(1)
            ));
        }
    }
    None
}

/// What spirv-val's annotation pass says of an OpDecorate before it looks
/// at the target's kind (and, for BuiltIn, the target's kind itself).
fn decorate_problem(
    m: &Module,
    r: &mut Report,
    i: usize,
    vulkan: bool,
    shader: bool,
    seen: &FxHashSet<(u32, u32)>,
) -> Option<String> {
    let (target, dec) = (m.word(i, 0), m.word(i, 1));
    if vulkan && matches!(dec, d::GLSLShared | d::GLSLPacked) {
        return Some(format!(
            "[VUID-StandaloneSpirv-GLSLShared-04669] OpDecorate decoration '{}' is not valid for the Vulkan \
             execution environment.",
            name(dec)
        ));
    }
    let fast_math_clash = "FPFastMathMode and NoContraction cannot decorate the same target";
    if dec == d::FPFastMathMode {
        if seen.contains(&(target, d::NoContraction)) {
            return Some(fast_math_clash.into());
        }
        let mask = if m.operands(i).len() > 2 { m.word(i, 2) } else { 0 };
        let both = fm::AllowContract | fm::AllowReassoc;
        if mask & fm::AllowTransform != 0 && mask & both != both {
            return Some("AllowReassoc and AllowContract must be specified when AllowTransform is specified".into());
        }
    }
    if dec == d::NoContraction && seen.contains(&(target, d::FPFastMathMode)) {
        return Some(fast_math_clash.into());
    }
    if TAKES_IDS.contains(&dec) {
        return Some("Decorations taking ID parameters may not be used with OpDecorateId".into());
    }
    let target_op = m.def_opcode(target)?;
    if target_op == op::OpDecorationGroup {
        return None;
    }
    if MEMBER_ONLY.contains(&dec) {
        return Some(format!("{} can only be applied to structure members", name(dec)));
    }
    if dec != d::BuiltIn {
        return None;
    }
    let variable = matches!(target_op, op::OpVariable | op::OpUntypedVariableKHR);
    let constant = crate::module::is_constant(target_op);
    if !variable && !constant {
        return Some("BuiltIns can only target variables, structure members or constants".into());
    }
    let what = if shader && m.operands(i).len() > 2 && m.word(i, 2) == built_in::WorkgroupSize {
        (!constant).then_some("must be a constant for WorkgroupSize")
    } else {
        (!variable).then_some("must be a variable")
    }?;
    let t = r.id(target);
    Some(format!("BuiltIn decoration on target <id> {t} {what}"))
}
