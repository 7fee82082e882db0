//! Cooperative type declarations and constants (validate_type.cpp,
//! validate_constants.cpp): a numeric component; constant integer Scope,
//! Rows, Columns and Use; bfloat16 and fp8 components only with their
//! cooperative-matrix capabilities; a Workgroup-scoped matrix only where
//! every entry point gives its local size before it; a positive constant
//! component count; the tensor layout and view types of
//! SPV_NV_cooperative_matrix2; one constituent per constant matrix and
//! one per constant vector component.

use super::super::memory::constant_u64;
use super::super::{ErrorKind, Report};
use super::{constant, int32_constant, is_matrix, is_vector, Module};
use crate::grammar::{capability, execution_mode, fp_encoding, op, scope, tensor_clamp_mode};

/// A float type's encoding operand, if it has one.
fn encoding(m: &Module, ty: u32) -> Option<u32> {
    (m.def_opcode(ty)? == op::OpTypeFloat && m.def(ty)?.word_count > 3).then(|| m.def_word(ty, 3)).flatten()
}

fn has(m: &Module, cap: u32) -> bool {
    super::super::capabilities::with_implied(m).contains(&cap)
}

/// An integer constant (spirv-val: an integer-typed constant instruction).
fn int_constant(m: &Module, id: u32) -> bool {
    constant(m, id) && m.def_opcode(m.type_of(id)) == Some(op::OpTypeInt)
}

/// OpTypeCooperativeMatrixNV / OpTypeCooperativeMatrixKHR.
fn matrix_problem(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    let component = m.word(i, 1);
    if !matches!(m.def_opcode(component), Some(op::OpTypeFloat | op::OpTypeInt)) {
        return Some(format!(
            "OpTypeCooperativeMatrix Component Type <id> {} is not a scalar numerical type.",
            r.id(component)
        ));
    }
    let enc = encoding(m, component);
    if enc == Some(fp_encoding::BFloat16KHR) && !has(m, capability::BFloat16CooperativeMatrixKHR) {
        return Some(format!(
            "OpTypeCooperativeMatrix Component Type <id> {}require BFloat16CooperativeMatrixKHR be declared.",
            r.id(component)
        ));
    }
    let fp8 = matches!(enc, Some(fp_encoding::Float8E4M3EXT | fp_encoding::Float8E5M2EXT));
    if fp8 && !has(m, capability::Float8CooperativeMatrixEXT) {
        return Some(format!(
            "OpTypeCooperativeMatrix Component Type <id> {}require Float8CooperativeMatrixEXT be declared.",
            r.id(component)
        ));
    }
    for (k, what) in [(2, "Scope"), (3, "Rows"), (4, "Cols")] {
        let id = m.word(i, k);
        if !int_constant(m, id) {
            return Some(format!(
                "OpTypeCooperativeMatrix {what} <id> {} is not a constant instruction with scalar integer type.",
                r.id(id)
            ));
        }
    }
    if m.opcode(i) == op::OpTypeCooperativeMatrixKHR && !int_constant(m, m.word(i, 5)) {
        return Some(format!(
            "OpTypeCooperativeMatrixKHR Use <id> {} is not a constant instruction with scalar integer type.",
            r.id(m.word(i, 5))
        ));
    }
    if constant_u64(m, m.word(i, 2)) == Some(scope::Workgroup as u64) {
        return workgroup_problem(m, r, i);
    }
    None
}

/// A Workgroup-scoped matrix needs every entry point to give its local
/// size, by LocalSizeId constants defined before the type.
fn workgroup_problem(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    let mut local_size = rustc_hash::FxHashMap::default();
    let mut entries = Vec::new();
    for (k, inst) in m.insts.iter().enumerate() {
        match inst.opcode() {
            op::OpEntryPoint => entries.push(m.word(k, 1)),
            op::OpExecutionMode | op::OpExecutionModeId
                if matches!(m.word(k, 1), execution_mode::LocalSize | execution_mode::LocalSizeId) =>
            {
                local_size.insert(m.word(k, 0), k);
            }
            _ => {}
        }
    }
    for entry in entries {
        let Some(&mode) = local_size.get(&entry) else {
            return Some(format!(
                "OpTypeCooperativeMatrixKHR with ScopeWorkgroup used without specifying LocalSize or LocalSizeId \
                 for entry point <id> {}",
                r.id(entry)
            ));
        };
        if m.word(mode, 1) == execution_mode::LocalSizeId {
            for k in 2..5 {
                let id = m.word(mode, k);
                if m.def_index(id).is_some_and(|d| d > i) {
                    return Some(format!(
                        "OpTypeCooperativeMatrixKHR with ScopeWorkgroup used before LocalSizeId constant value <id> \
                         {} is defined.",
                        r.id(id)
                    ));
                }
            }
        }
    }
    None
}

/// OpTypeCooperativeVectorNV: a numeric component and a positive constant
/// integer component count.
fn vector_problem(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    let component = m.word(i, 1);
    if !matches!(m.def_opcode(component), Some(op::OpTypeFloat | op::OpTypeInt)) {
        return Some(format!(
            "OpTypeCooperativeVectorNV Component Type <id> {} is not a scalar numerical type.",
            r.id(component)
        ));
    }
    let count = m.word(i, 2);
    if !constant(m, count) {
        return Some(format!(
            "OpTypeCooperativeVectorNV component count <id> {} is not a scalar constant type.",
            r.id(count)
        ));
    }
    let ty = m.type_of(count);
    if m.def_opcode(ty) != Some(op::OpTypeInt) {
        return Some(format!(
            "OpTypeCooperativeVectorNV component count <id> {} is not a constant integer type.",
            r.id(count)
        ));
    }
    let value = constant_u64(m, count)?;
    let value = if m.def(count)?.word_count == 4 { value as u32 as i32 as i64 } else { value as i64 };
    let signed = m.def_word(ty, 3).is_some_and(|s| s > 0);
    (value == 0 || (value < 0 && signed)).then(|| {
        format!(
            "OpTypeCooperativeVectorNV component count <id> {} default value must be at least 1: found {value}",
            r.id(count)
        )
    })
}

/// The Dim of a tensor layout or view: a 32-bit integer from 1 to 5.
fn dim_problem(m: &Module, r: &mut Report, i: usize, name: &str) -> Option<String> {
    let dim = m.word(i, 1);
    let ty = m.type_of(dim);
    if m.def_opcode(ty) != Some(op::OpTypeInt) || m.def_word(ty, 2) != Some(32) {
        return Some(format!("{name} Dim <id> {} is not a 32-bit integer.", r.id(dim)));
    }
    constant_u64(m, dim)
        .filter(|&v| v == 0 || v > 5)
        .map(|_| format!("{name} Dim <id> {} must be between 1 and 5.", r.id(dim)))
}

fn int32_typed(m: &Module, id: u32) -> bool {
    let ty = m.type_of(id);
    m.def_opcode(ty) == Some(op::OpTypeInt) && m.def_word(ty, 2) == Some(32)
}

/// OpTypeTensorLayoutNV: Dim, then a 32-bit ClampMode naming a mode.
fn layout_problem(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    const NAME: &str = "TypeTensorLayoutNV";
    if let Some(p) = dim_problem(m, r, i, NAME) {
        return Some(p);
    }
    let clamp = m.word(i, 2);
    if !int32_typed(m, clamp) {
        return Some(format!("{NAME} ClampMode <id> {} is not a 32-bit integer.", r.id(clamp)));
    }
    constant_u64(m, clamp)
        .filter(|&v| v > tensor_clamp_mode::RepeatMirrored as u64)
        .map(|_| format!("{NAME} ClampMode <id> {} must be a valid TensorClampMode.", r.id(clamp)))
}

/// OpTypeTensorViewNV: Dim, a boolean HasDimensions, then Dim 32-bit
/// permutation values forming a permutation.
fn view_problem(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    const NAME: &str = "TypeTensorViewNV";
    if let Some(p) = dim_problem(m, r, i, NAME) {
        return Some(p);
    }
    let has_dim = m.word(i, 2);
    if m.def_opcode(m.type_of(has_dim)) != Some(op::OpTypeBool) {
        return Some(format!("{NAME} HasDimensions <id> {} is not a boolean value.", r.id(has_dim)));
    }
    let n = m.operands(i).len();
    let dims = n.saturating_sub(3) as u64;
    let (mut mask, mut all_constant) = (0u64, true);
    for k in 3..n {
        let p = m.word(i, k);
        if !int32_typed(m, p) {
            return Some(format!("{NAME} Permutation <id> {} is not a 32-bit integer.", r.id(p)));
        }
        match constant_u64(m, p) {
            Some(v) if v >= dims => {
                return Some(format!("{NAME} Permutation <id> {} must be a valid dimension.", r.id(p)));
            }
            Some(v) => mask |= 1u64.checked_shl(v as u32).unwrap_or(0),
            None => all_constant = false,
        }
    }
    if all_constant && mask != 1u64.checked_shl(dims as u32).map_or(u64::MAX, |b| b - 1) {
        return Some(format!("{NAME} Permutation values don't form a valid permutation."));
    }
    constant_u64(m, m.word(i, 1))
        .filter(|&d| d != dims)
        .map(|_| format!("{NAME} Incorrect number of permutation values."))
}

/// OpConstantComposite / OpSpecConstantComposite of a cooperative type:
/// a matrix takes one constituent of its component type; a vector one per
/// component (when its count is known), each of its component type.
fn constant_problem(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    let inst = &m.insts[i];
    let (rt, name) = (m.result_type_at(inst), inst.info().name);
    let parts: Vec<u32> = (2..m.operands(i).len()).map(|k| m.word(i, k)).collect();
    let component = m.def_word(rt, 2)?;
    if is_matrix(m, rt) {
        if parts.len() != 1 {
            return Some(format!("{name} Constituent <id> {} count must be one.", r.id(rt)));
        }
        if m.def(parts[0]).is_some() && m.type_of(parts[0]) != component {
            return Some(format!(
                "{name} Constituent <id> {} type does not match the Result Type <id> {}s component type.",
                r.id(parts[0]),
                r.id(rt)
            ));
        }
        return None;
    }
    if int32_constant(m, m.def_word(rt, 3)?).is_some_and(|n| n as usize != parts.len()) {
        return Some(format!(
            "{name} Constituent <id> count does not match Result Type <id> {}s vector component count.",
            r.id(rt)
        ));
    }
    let wrong = parts.iter().find(|&&c| m.def(c).is_some() && m.type_of(c) != component)?;
    Some(format!(
        "{name} Constituent <id> {}s type does not match Result Type <id> {}s vector element type.",
        r.id(*wrong),
        r.id(rt)
    ))
}

/// Cooperative type declarations and constants (spirv-val's type and
/// constant passes).
pub(crate) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        let message = match inst.opcode() {
            op::OpTypeCooperativeMatrixNV | op::OpTypeCooperativeMatrixKHR => matrix_problem(m, r, i),
            op::OpTypeCooperativeVectorNV => vector_problem(m, r, i),
            op::OpTypeTensorLayoutNV => layout_problem(m, r, i),
            op::OpTypeTensorViewNV => view_problem(m, r, i),
            op::OpConstantComposite | op::OpSpecConstantComposite
                if is_matrix(m, m.result_type_at(inst)) || is_vector(m, m.result_type_at(inst)) =>
            {
                constant_problem(m, r, i)
            }
            _ => None,
        };
        if let Some(message) = message {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}
