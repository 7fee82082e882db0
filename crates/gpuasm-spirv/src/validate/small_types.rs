//! 8- and 16-bit numbers a Shader module declares only for storage (the
//! 16-bit and 8-bit storage capabilities without Int8, Int16 or Float16):
//! they may be loaded, stored, copied, decorated and converted to another
//! width, and nothing else, as spirv-val checks.

use super::{ErrorKind, Report};
use crate::grammar::{capability, op};
use crate::module::Module;
use rustc_hash::FxHashSet;

/// Whether `ty` holds an 8- or 16-bit number its capabilities only allow
/// in storage (no Int8, Int16 or Float16, declared or implied: e.g.
/// DotProductInput4x8Bit implies Int8).
pub(crate) fn limited_use(m: &Module, ty: u32) -> bool {
    // Implied capabilities only lift limits: close over them only when the
    // declared ones leave the type limited.
    limited(m, &m.declared_capabilities, ty, 0) && limited(m, super::capabilities::with_implied(m), ty, 0)
}

fn limited(m: &Module, caps: &FxHashSet<u32>, ty: u32, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    let has = |cap| caps.contains(&cap);
    match m.def_opcode(ty) {
        Some(op::OpTypeInt) => match m.def_word(ty, 2) {
            Some(8) => !has(capability::Int8),
            Some(16) => !has(capability::Int16),
            _ => false,
        },
        Some(op::OpTypeFloat) => {
            m.def_word(ty, 2) == Some(16) && m.operands_len_of(ty) == 2 && !has(capability::Float16)
        }
        Some(op::OpTypeVector | op::OpTypeMatrix | op::OpTypeArray | op::OpTypeRuntimeArray) => {
            m.def_word(ty, 2).is_some_and(|e| limited(m, caps, e, depth + 1))
        }
        Some(op::OpTypeStruct) => (0..m.operands_len_of(ty).saturating_sub(1))
            .any(|k| m.def_word(ty, 2 + k).is_some_and(|e| limited(m, caps, e, depth + 1))),
        _ => false,
    }
}

/// Whether the module declares any number type it may only store: without
/// one, none of these rules can apply (and they need not be looked for).
pub(crate) fn any_limited(m: &Module) -> bool {
    m.insts.iter().take_while(|i| i.opcode() != op::OpFunction).any(|d| {
        matches!(d.opcode(), op::OpTypeInt | op::OpTypeFloat)
            && m.result_id_at(d) != 0
            && limited_use(m, m.result_id_at(d))
    })
}

/// The rule an instruction producing or reading limited numbers breaks, in
/// spirv-val's words (checked once its other operand rules hold).
pub(crate) fn instruction_error(m: &Module, i: usize, value_type: impl Fn(usize) -> u32) -> Option<&'static str> {
    let inst = &m.insts[i];
    let rt = m.result_type_at(inst);
    match inst.opcode() {
        op::OpConvertFToU | op::OpConvertFToS | op::OpConvertSToF | op::OpConvertUToF | op::OpBitcast
            if (limited_use(m, rt) || limited_use(m, value_type(2))) && !is_pointer(m, rt) =>
        {
            Some("8- or 16-bit types can only be used with width-only conversions")
        }
        op::OpVectorShuffle if limited_use(m, rt) => Some("Cannot shuffle a vector of 8- or 16-bit types"),
        op::OpCompositeConstruct if limited_use(m, rt) => {
            Some("Cannot create a composite containing 8- or 16-bit types")
        }
        op::OpCompositeExtract if limited_use(m, value_type(2)) => {
            Some("Cannot extract from a composite of 8- or 16-bit types")
        }
        op::OpCompositeInsert if limited_use(m, rt) => Some("Cannot insert into a composite of 8- or 16-bit types"),
        op::OpVectorExtractDynamic if limited_use(m, rt) => Some("Cannot extract from a vector of 8- or 16-bit types"),
        op::OpVectorInsertDynamic if limited_use(m, rt) => Some("Cannot insert into a vector of 8- or 16-bit types"),
        op::OpUndef if limited_use(m, rt) && !is_pointer(m, rt) => {
            Some("Cannot create undefined values with 8- or 16-bit types")
        }
        _ => None,
    }
}

fn is_pointer(m: &Module, ty: u32) -> bool {
    matches!(m.def_opcode(ty), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR))
}

/// Results of limited type may only be stored, copied, decorated or
/// converted to another width: every other use is reported, at the user,
/// for each result in module order.
pub(crate) fn check_uses(m: &Module, shader: bool, r: &mut Report) {
    if !shader || !any_limited(m) {
        return;
    }
    let limited_results: FxHashSet<u32> = m
        .insts
        .iter()
        .filter(|d| m.result_id_at(d) != 0 && m.result_type_at(d) != 0)
        .filter(|d| !is_pointer(m, m.result_type_at(d)) && limited_use(m, m.result_type_at(d)))
        .map(|d| m.result_id_at(d))
        .collect();
    if limited_results.is_empty() {
        return;
    }
    // For each limited result, its first use that is not allowed.
    let mut first_bad: Vec<(usize, usize)> = Vec::new();
    let mut reported: FxHashSet<u32> = FxHashSet::default();
    for i in 0..m.insts.len() {
        let allowed = matches!(
            m.opcode(i),
            op::OpDecorate
                | op::OpDecorateId
                | op::OpCopyObject
                | op::OpStore
                | op::OpFConvert
                | op::OpUConvert
                | op::OpSConvert
        );
        if allowed {
            continue;
        }
        for (_, id) in m.id_operands(i) {
            if limited_results.contains(&id) && reported.insert(id) {
                first_bad.push((m.defs.at(id), i));
            }
        }
    }
    first_bad.sort_unstable();
    for (_, user) in first_bad {
        r.error(ErrorKind::OperandType, user, "Invalid use of 8- or 16-bit result");
    }
}
