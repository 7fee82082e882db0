//! Memory instructions of cooperative types (validate_memory.cpp): the
//! NV matrix loads and stores and SPV_NV_cooperative_vector's
//! instructions take logical pointers into Workgroup, StorageBuffer or
//! PhysicalStorageBuffer memory (of scalars or vectors; for vectors, arrays
//! of them); offsets are 32- or 64-bit integers; a matrix-vector product's
//! M and K agree with the vectors' sizes and its interpretations, M, K,
//! layout and transpose are constants; an outer product or sum reduction
//! takes cooperative vectors.

use super::super::memory::returns_logical_pointer;
use super::super::{ErrorKind, Report};
use super::{constant, int32_constant, int_of_width, is_kind, is_vector, scalar_or_vector, Kind, Module};
use crate::grammar::{addressing_model, capability, component_type as ct, op, storage_class as sc};

struct Ctx<'a, 'w> {
    m: &'a Module<'w>,
    logical: bool,
    variable_pointers: bool,
}

impl Ctx<'_, '_> {
    /// spirv-val's `ValidateCooperativeVectorPointer` on operand `k`.
    fn pointer(&self, r: &mut Report, i: usize, name: &str, k: usize) -> Option<String> {
        let m = self.m;
        let ptr = m.word(i, k);
        let Some(def) = m.def(ptr) else {
            return Some(format!("{name} Pointer <id> {} is not a logical pointer.", r.id(ptr)));
        };
        if self.logical && !returns_logical_pointer(def.opcode(), self.variable_pointers) {
            return Some(format!("{name} Pointer <id> {} is not a logical pointer.", r.id(ptr)));
        }
        let ty = m.result_type_at(def);
        if m.def_opcode(ty) != Some(op::OpTypePointer) {
            return Some(format!("{name} type for pointer <id> {} is not a pointer type.", r.id(ptr)));
        }
        let class = m.def_word(ty, 2).unwrap_or(0);
        if !matches!(class, sc::Workgroup | sc::StorageBuffer | sc::PhysicalStorageBuffer) {
            return Some(format!(
                "{name} storage class for pointer type <id> {} is not Workgroup or StorageBuffer.",
                r.id(ty)
            ));
        }
        let pointee = m.def_word(ty, 3).unwrap_or(0);
        if !matches!(m.def_opcode(pointee), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) {
            return Some(format!("{name} Pointer <id> {}s Type must be an array type.", r.id(ptr)));
        }
        let element = m.def_word(pointee, 2).unwrap_or(0);
        (!scalar_or_vector(m, element, Kind::Int) && !scalar_or_vector(m, element, Kind::Float))
            .then(|| format!("{name} Pointer <id> {}s Type must be an array of scalar or vector type.", r.id(ptr)))
    }
}

/// Operand `k` is of a 32-bit integer type (or 32 or 64 bits with `wide`).
fn int_operand(m: &Module, r: &mut Report, i: usize, k: usize, name: &str, what: &str, wide: bool) -> Option<String> {
    let ty = m.type_of(m.word(i, k));
    let ok = int_of_width(m, ty, 32) || (wide && int_of_width(m, ty, 64));
    (!ok).then(|| {
        let bits = if wide { "32 or 64 bit" } else { "32 bit" };
        format!("{name} {what} type <id> {} is not a {bits} integer.", r.id(ty))
    })
}

/// OpCooperativeVectorLoadNV / StoreNV: the pointer and the offset (the
/// vector type and memory operands are the memory pass's).
fn load_store(c: &Ctx, r: &mut Report, i: usize) -> Option<String> {
    let m = c.m;
    let load = m.opcode(i) == op::OpCooperativeVectorLoadNV;
    let vector = if load { m.result_type_word(i) } else { m.type_of(m.word(i, 2)) };
    if !is_vector(m, vector) {
        return None;
    }
    let name = if load { "spv::Op::OpCooperativeVectorLoadNV" } else { "spv::Op::OpCooperativeVectorStoreNV" };
    let (ptr, offset) = if load { (2, 3) } else { (0, 1) };
    c.pointer(r, i, name, ptr).or_else(|| int_operand(m, r, i, offset, name, "Offset", true))
}

/// OpCooperativeMatrixLoadNV / StoreNV: an NV matrix through a pointer to
/// scalars or vectors, an integer stride and a boolean constant column
/// major flag (the memory operands are the memory pass's).
fn matrix_load_store(c: &Ctx, r: &mut Report, i: usize) -> Option<String> {
    let m = c.m;
    let load = m.opcode(i) == op::OpCooperativeMatrixLoadNV;
    let name = if load { "spv::Op::OpCooperativeMatrixLoadNV" } else { "spv::Op::OpCooperativeMatrixStoreNV" };
    let matrix = if load { m.result_type_word(i) } else { m.type_of(m.word(i, 1)) };
    if m.def_opcode(matrix) != Some(op::OpTypeCooperativeMatrixNV) {
        let what = if load { "Result Type" } else { "Object type" };
        return Some(format!("{name} {what} <id> {} is not a cooperative matrix type.", r.id(matrix)));
    }
    let ptr = m.word(i, if load { 2 } else { 0 });
    let Some(def) = m.def(ptr).filter(|d| !c.logical || returns_logical_pointer(d.opcode(), c.variable_pointers))
    else {
        return Some(format!("{name} Pointer <id> {} is not a logical pointer.", r.id(ptr)));
    };
    let ty = m.result_type_at(def);
    if m.def_opcode(ty) != Some(op::OpTypePointer) {
        return Some(format!("{name} type for pointer <id> {} is not a pointer type.", r.id(ptr)));
    }
    if !matches!(m.def_word(ty, 2), Some(sc::Workgroup | sc::StorageBuffer | sc::PhysicalStorageBuffer)) {
        return Some(format!(
            "{name} storage class for pointer type <id> {} is not Workgroup or StorageBuffer.",
            r.id(ty)
        ));
    }
    let pointee = m.def_word(ty, 3).unwrap_or(0);
    if !scalar_or_vector(m, pointee, Kind::Int) && !scalar_or_vector(m, pointee, Kind::Float) {
        return Some(format!("{name} Pointer <id> {}s Type must be a scalar or vector type.", r.id(ptr)));
    }
    let stride = m.word(i, if load { 3 } else { 2 });
    if m.def_opcode(m.type_of(stride)) != Some(op::OpTypeInt) {
        return Some(format!("Stride operand <id> {} must be a scalar integer type.", r.id(stride)));
    }
    let column_major = m.word(i, if load { 4 } else { 3 });
    let boolean = m.def_opcode(m.type_of(column_major)) == Some(op::OpTypeBool);
    (!boolean || !constant(m, column_major))
        .then(|| format!("Column Major operand <id> {} must be a boolean constant instruction.", r.id(column_major)))
}

/// OpCooperativeVectorOuterProductAccumulateNV.
fn outer_product(c: &Ctx, r: &mut Report, i: usize) -> Option<String> {
    const NAME: &str = "spv::Op::OpCooperativeVectorOuterProductAccumulateNV";
    let m = c.m;
    if let Some(p) = c.pointer(r, i, NAME, 0) {
        return Some(p);
    }
    let (a, b) = (m.type_of(m.word(i, 2)), m.type_of(m.word(i, 3)));
    if !is_vector(m, a) {
        return Some(format!("{NAME} A type <id> {} is not a cooperative vector type.", r.id(a)));
    }
    if !is_vector(m, b) {
        return Some(format!("{NAME} B type <id> {} is not a cooperative vector type.", r.id(b)));
    }
    let (ac, bc) = (m.def_word(a, 2).unwrap_or(0), m.def_word(b, 2).unwrap_or(0));
    if ac != bc {
        return Some(format!("{NAME} A and B component types {} and {} do not match.", r.id(ac), r.id(bc)));
    }
    int_operand(m, r, i, 1, NAME, "Offset", true)
        .or_else(|| int_operand(m, r, i, 4, NAME, "MemoryLayout", false))
        .or_else(|| int_operand(m, r, i, 5, NAME, "MatrixInterpretation", false))
        .or_else(|| (m.operands(i).len() > 6).then(|| int_operand(m, r, i, 6, NAME, "MatrixStride", false)).flatten())
}

/// OpCooperativeVectorReduceSumAccumulateNV.
fn reduce_sum(c: &Ctx, r: &mut Report, i: usize) -> Option<String> {
    const NAME: &str = "spv::Op::OpCooperativeVectorReduceSumAccumulateNV";
    let m = c.m;
    if let Some(p) = c.pointer(r, i, NAME, 0) {
        return Some(p);
    }
    let v = m.type_of(m.word(i, 2));
    if !is_vector(m, v) {
        return Some(format!("{NAME} V type <id> {} is not a cooperative vector type.", r.id(v)));
    }
    int_operand(m, r, i, 1, NAME, "Offset", true)
}

/// OpCooperativeVectorMatrixMulNV / MatrixMulAddNV.
fn matrix_mul(c: &Ctx, r: &mut Report, i: usize) -> Option<String> {
    let m = c.m;
    let bias = m.opcode(i) == op::OpCooperativeVectorMatrixMulAddNV;
    let name =
        if bias { "spv::Op::OpCooperativeVectorMatrixMulAddNV" } else { "spv::Op::OpCooperativeVectorMatrixMulNV" };
    let shift = if bias { 3 } else { 0 };
    let (input, input_interp, matrix, matrix_offset, matrix_interp) = (2, 3, 4, 5, 6);
    let (bias_ptr, bias_offset, bias_interp) = (7, 8, 9);
    let (mk, kk, layout, transpose) = (7 + shift, 8 + shift, 9 + shift, 10 + shift);
    if m.operands(i).len() <= transpose {
        return None;
    }
    let id = |k: usize| m.word(i, k);
    if let Some(p) = c.pointer(r, i, name, matrix) {
        return Some(p);
    }
    if bias {
        if let Some(p) = c.pointer(r, i, name, bias_ptr) {
            return Some(p);
        }
    }
    let rt = m.result_type_word(i);
    if !is_vector(m, rt) {
        return Some(format!("{name} result type <id> {} is not a cooperative vector type.", r.id(rt)));
    }
    let rc = m.def_word(rt, 2).unwrap_or(0);
    let width = m.def_word(rc, 2).unwrap_or(0);
    let ok = (is_kind(m, rc, Kind::Int) && width == 32) || (is_kind(m, rc, Kind::Float) && matches!(width, 16 | 32));
    if !ok {
        return Some(format!("{name} result component type <id> {} is not a 32 bit int or 16/32 bit float.", r.id(rc)));
    }
    let m_value = int32_constant(m, id(mk));
    if let (Some(mv), Some(count)) = (m_value, m.def_word(rt, 3).and_then(|n| int32_constant(m, n))) {
        if mv != count {
            return Some(format!("{name} result type number of components {count} does not match M {mv}"));
        }
    }
    let k_value = int32_constant(m, id(kk));
    let input_count = m.def_word(m.type_of(id(input)), 3).and_then(|n| int32_constant(m, n));
    let packed = |v: u32| matches!(v, ct::SignedInt8PackedNV | ct::UnsignedInt8PackedNV);
    if int32_constant(m, id(input_interp)).is_some_and(|v| !packed(v)) {
        if let (Some(n), Some(k)) = (input_count, k_value) {
            if n != k {
                return Some(format!("{name} input number of components {n} does not match K {k}"));
            }
        }
    }
    let t = id(transpose);
    if m.def_opcode(m.type_of(t)) != Some(op::OpTypeBool) {
        return Some(format!("{name} Transpose <id> {} is not a scalar boolean.", r.id(t)));
    }
    let mut constants = vec![(input_interp, "InputInterpretation"), (matrix_interp, "MatrixInterpretation")];
    if bias {
        constants.push((bias_interp, "BiasInterpretation"));
    }
    constants.extend([(mk, "M"), (kk, "K"), (layout, "MemoryLayout")]);
    for &(k, what) in constants.iter().chain([(transpose, "Transpose")].iter()) {
        if !constant(m, id(k)) {
            return Some(format!("{name} {what} <id> {} is not a constant instruction.", r.id(id(k))));
        }
    }
    for &(k, what) in &constants {
        if let Some(p) = int_operand(m, r, i, k, name, what, false) {
            return Some(p);
        }
    }
    int_operand(m, r, i, matrix_offset, name, "MatrixOffset", true)
        .or_else(|| bias.then(|| int_operand(m, r, i, bias_offset, name, "BiasOffset", true)).flatten())
}

/// The memory instructions of cooperative types (spirv-val's memory
/// pass).
pub(super) fn check(m: &Module, vulkan: bool, r: &mut Report) {
    let caps = super::super::capabilities::with_implied(m);
    let c = Ctx {
        m,
        logical: m.addressing_model() == Some(addressing_model::Logical),
        variable_pointers: caps.contains(&capability::VariablePointersStorageBuffer)
            || caps.contains(&capability::VariablePointers),
    };
    for i in 0..m.insts.len() {
        let message = match m.opcode(i) {
            op::OpCooperativeVectorLoadNV | op::OpCooperativeVectorStoreNV => load_store(&c, r, i),
            op::OpCooperativeVectorOuterProductAccumulateNV => outer_product(&c, r, i),
            op::OpCooperativeVectorReduceSumAccumulateNV => reduce_sum(&c, r, i),
            op::OpCooperativeVectorMatrixMulNV | op::OpCooperativeVectorMatrixMulAddNV => matrix_mul(&c, r, i),
            op::OpCooperativeMatrixLoadNV | op::OpCooperativeMatrixStoreNV => matrix_load_store(&c, r, i),
            op::OpCooperativeMatrixLoadTensorNV | op::OpCooperativeMatrixStoreTensorNV => {
                super::tensor_memory::problem(m, r, i, c.logical, c.variable_pointers, vulkan)
            }
            _ => None,
        };
        if let Some(message) = message {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}
