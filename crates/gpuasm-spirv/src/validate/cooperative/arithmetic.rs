//! Arithmetic over cooperative types (validate_arithmetics.cpp,
//! validate_function.cpp): the float, unsigned and integer operations
//! that take cooperative matrices or vectors (not every one does: FMul,
//! IMul, remainders and moduli only on some), scalar products of them,
//! the matrix multiply-adds (scopes, M, N, K agreeing), the NV row,
//! column and 2x2 reductions and the per-element operation.

use super::super::{ErrorKind, Report};
use super::{
    bit_width, differ, dimension, is_khr, is_kind, is_matrix, is_nv, is_special, is_vector, matrix_of, matrix_use,
    param, scalar_or_vector, shapes_match, touches_special, vector_dimensions_match, vector_of, Kind, Module,
};
use crate::grammar::{cooperative_matrix_reduce as reduce, cooperative_matrix_use as usage, op};

struct Op<'a, 'w> {
    m: &'a Module<'w>,
    i: usize,
    name: &'static str,
}

impl Op<'_, '_> {
    fn operand_type(&self, k: usize) -> u32 {
        self.m.type_of(self.m.word(self.i, k))
    }

    fn fail(&self, what: &str) -> Option<String> {
        Some(format!("{what}: {}", self.name))
    }

    fn fail_at(&self, what: &str, k: usize) -> Option<String> {
        Some(format!("{what}: {} operand index {k}", self.name))
    }

    /// The float and unsigned families: each operand of the result type,
    /// or a cooperative type of the same shape.
    fn same_kind(&self, kind: Kind, coop_matrix: bool, coop_vector: bool, khr_matrix: bool) -> Option<String> {
        let m = self.m;
        let rt = m.result_type_word(self.i);
        let ok = scalar_or_vector(m, rt, kind)
            || (coop_matrix && matrix_of(m, rt, kind))
            || (khr_matrix && is_khr(m, rt) && matrix_of(m, rt, kind))
            || (coop_vector && vector_of(m, rt, kind));
        if !ok {
            return self.fail(match kind {
                Kind::Float => "Expected floating scalar or vector type as Result Type",
                _ => "Expected unsigned int scalar or vector type as Result Type",
            });
        }
        const OF_RESULT: &str = "Expected arithmetic operands to be of Result Type";
        for k in 2..m.operands(self.i).len() {
            let ty = self.operand_type(k);
            if coop_vector && is_vector(m, rt) {
                if !is_vector(m, ty) {
                    return self.fail_at(OF_RESULT, k);
                }
                if let Some(p) = vector_dimensions_match(m, ty, rt) {
                    return Some(p.into());
                }
            } else if coop_matrix && is_khr(m, rt) {
                if !is_khr(m, ty) || !matrix_of(m, ty, kind) {
                    return self.fail_at(OF_RESULT, k);
                }
                if let Some(p) = shapes_match(m, rt, ty, false, false) {
                    return Some(p.into());
                }
            } else if ty != rt {
                return self.fail_at(OF_RESULT, k);
            }
        }
        None
    }

    /// The signed and sign-agnostic integer family: also the same
    /// dimension and bit width as the result.
    fn integer(&self, coop_matrix: bool, coop_vector: bool, khr_matrix: bool) -> Option<String> {
        let m = self.m;
        let rt = m.result_type_word(self.i);
        let coop_result = (coop_matrix && matrix_of(m, rt, Kind::Int))
            || (khr_matrix && is_khr(m, rt) && matrix_of(m, rt, Kind::Int))
            || (coop_vector && vector_of(m, rt, Kind::Int));
        if !scalar_or_vector(m, rt, Kind::Int) && !coop_result {
            return self.fail("Expected int scalar or vector type as Result Type");
        }
        let (dim, width) = (dimension(m, rt), bit_width(m, rt));
        for k in 2..m.operands(self.i).len() {
            let ty = self.operand_type(k);
            if coop_vector && is_vector(m, rt) {
                if !is_vector(m, ty) {
                    return self.fail_at("Expected arithmetic operands to be of Result Type", k);
                }
                if let Some(p) = vector_dimensions_match(m, ty, rt) {
                    return Some(p.into());
                }
            }
            if coop_matrix && is_khr(m, rt) {
                if !is_khr(m, ty) || !matrix_of(m, ty, Kind::Int) {
                    return self.fail_at("Expected arithmetic operands to be of Result Type", k);
                }
                if let Some(p) = shapes_match(m, rt, ty, false, false) {
                    return Some(p.into());
                }
            }
            if ty == 0 || (!scalar_or_vector(m, ty, Kind::Int) && !coop_result) {
                return self.fail_at("Expected int scalar or vector type as operand", k);
            }
            if dimension(m, ty) != dim {
                return self.fail_at("Expected arithmetic operands to have the same dimension as Result Type", k);
            }
            if bit_width(m, ty) != width {
                return self.fail_at("Expected arithmetic operands to have the same bit width as Result Type", k);
            }
        }
        None
    }

    /// OpVectorTimesScalar / OpMatrixTimesScalar.
    fn times_scalar(&self, matrix: bool) -> Option<String> {
        let m = self.m;
        let rt = m.result_type_word(self.i);
        let what = if matrix { "matrix" } else { "vector" };
        let ok = if matrix {
            is_matrix(m, rt)
                || (m.def_opcode(rt) == Some(op::OpTypeMatrix)
                    && m.def_word(rt, 2).is_some_and(|c| scalar_or_vector(m, c, Kind::Float)))
        } else {
            (m.def_opcode(rt) == Some(op::OpTypeVector) && scalar_or_vector(m, rt, Kind::Float))
                || vector_of(m, rt, Kind::Float)
        };
        if !ok {
            return self.fail(&format!("Expected float {what} type as Result Type"));
        }
        let left = self.operand_type(2);
        if left != rt {
            return self.fail(&format!("Expected {what} operand type to be equal to Result Type"));
        }
        (super::component_type(m, left) != self.operand_type(3)).then(|| {
            format!(
                "Expected scalar operand type to be equal to the component type of the {what} operand: {}",
                self.name
            )
        })
    }

    /// OpDot: float vectors of the result's component type and one size.
    fn dot(&self) -> Option<String> {
        let m = self.m;
        let rt = m.result_type_word(self.i);
        if !is_kind(m, rt, Kind::Float) {
            return self.fail("Expected float scalar type as Result Type");
        }
        let mut first = 0;
        for k in 2..m.operands(self.i).len() {
            let ty = self.operand_type(k);
            if m.def_opcode(ty) != Some(op::OpTypeVector) || !scalar_or_vector(m, ty, Kind::Float) {
                return self.fail_at("Expected float vector as operand", k);
            }
            if super::component_type(m, ty) != rt {
                return self.fail_at("Expected component type to be equal to Result Type", k);
            }
            let n = dimension(m, ty);
            if k == 2 {
                first = n;
            } else if n != first {
                return self.fail("Expected operands to have the same number of components");
            }
        }
        None
    }

    /// OpCooperativeMatrixMulAddNV / KHR: A, B, C and the result are
    /// matrices (KHR: of Use A, B and Accumulator), of one scope, with
    /// M, N and K agreeing.
    fn mul_add(&self) -> Option<String> {
        let m = self.m;
        let d = m.result_type_word(self.i);
        let (a, b, c) = (self.operand_type(2), self.operand_type(3), self.operand_type(4));
        if m.insts[self.i].opcode() == op::OpCooperativeMatrixMulAddNV {
            for (t, what) in [(a, "A Type"), (b, "B Type"), (c, "C Type"), (d, "Result Type")] {
                if !is_nv(m, t) {
                    return self.fail(&format!("Expected cooperative matrix type as {what}"));
                }
            }
        } else {
            let of_use = |t: u32, u: u32| matrix_use(m, t) == Some(u as u64);
            if !of_use(a, usage::MatrixAKHR) {
                return self.fail("Cooperative matrix type must be A Type");
            }
            if !of_use(b, usage::MatrixBKHR) {
                return self.fail("Cooperative matrix type must be B Type");
            }
            if !of_use(c, usage::MatrixAccumulatorKHR) {
                return self.fail("Cooperative matrix type must be Accumulator Type");
            }
            if !is_khr(m, d) {
                return self.fail("Expected cooperative matrix type as Result Type");
            }
        }
        let all = [a, b, c, d];
        let scopes: Vec<_> = all.iter().map(|&t| param(m, t, 3)).collect();
        let any_differ = |v: &[Option<u32>]| (0..v.len()).any(|x| (x + 1..v.len()).any(|y| differ(v[x], v[y])));
        if any_differ(&scopes) {
            return self.fail("Cooperative matrix scopes must match");
        }
        let (rows, cols) = (|t: u32| param(m, t, 4), |t: u32| param(m, t, 5));
        if any_differ(&[rows(a), rows(c), rows(d)]) {
            return self.fail("Cooperative matrix 'M' mismatch");
        }
        if any_differ(&[cols(b), cols(c), cols(d)]) {
            return self.fail("Cooperative matrix 'N' mismatch");
        }
        differ(cols(a), rows(b)).then(|| format!("Cooperative matrix 'K' mismatch: {}", self.name))
    }

    /// OpCooperativeMatrixReduceNV.
    fn reduce(&self) -> Option<String> {
        let m = self.m;
        let rt = m.result_type_word(self.i);
        if !is_khr(m, rt) {
            return self.fail("Result Type must be a cooperative matrix type");
        }
        let matrix = self.operand_type(2);
        if !is_khr(m, matrix) {
            return self.fail("Matrix must have a cooperative matrix type");
        }
        let component = m.def_word(matrix, 2).unwrap_or(0);
        if component != m.def_word(rt, 2).unwrap_or(0) {
            return self.fail("Result Type and Matrix type must have the same component type");
        }
        if m.def_word(rt, 3) != m.def_word(matrix, 3) {
            return self.fail("Result Type and Matrix type must have the same scope");
        }
        let accumulator = |t: u32| matrix_use(m, t) == Some(usage::MatrixAccumulatorKHR as u64);
        if !accumulator(rt) {
            return self.fail("Result Type must have UseAccumulator");
        }
        if !accumulator(matrix) {
            return self.fail("Matrix type must have UseAccumulator");
        }
        let mode = m.word(self.i, 3);
        if mode & reduce::_2x2 != 0 && mode & (reduce::Row | reduce::Column) != 0 {
            return self.fail("Reduce 2x2 must not be used with Row/Column");
        }
        let (rr, rc, mr, mc) = (param(m, rt, 4), param(m, rt, 5), param(m, matrix, 4), param(m, matrix, 5));
        if mode & reduce::_2x2 != 0 {
            if let (Some(rr), Some(rc), Some(mr), Some(mc)) = (rr, rc, mr, mc) {
                if rr != mr / 2 || rc != mc / 2 {
                    return self.fail("For Reduce2x2, result rows/cols must be half of matrix rows/cols");
                }
            }
        }
        if mode == reduce::Row && differ(rr, mr) {
            return self.fail("For ReduceRow, result rows must match matrix rows");
        }
        if mode == reduce::Column && differ(rc, mc) {
            return self.fail("For ReduceColumn, result cols must match matrix cols");
        }
        let func = m.word(self.i, 4);
        if m.def_opcode(func) != Some(op::OpFunction) {
            return self.fail("CombineFunc must be a function");
        }
        let fn_type = m.def_word(func, 4).unwrap_or(0);
        if m.operands_len_of(fn_type) != 4 {
            return self.fail("CombineFunc must have two parameters");
        }
        (2..5)
            .any(|w| m.def_word(fn_type, w) != Some(component))
            .then(|| format!("CombineFunc return type and parameters must match matrix component type: {}", self.name))
    }
}

/// OpCooperativeMatrixPerElementOpNV: a function over (row, column,
/// element) giving an element, applied to a KHR matrix of the result type.
fn per_element(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    const NAME: &str = "OpCooperativeMatrixPerElementOpNV";
    let func = m.word(i, 3);
    if m.def_opcode(func) != Some(op::OpFunction) {
        return Some(format!("{NAME} Function <id> {} is not a function.", r.id(func)));
    }
    let matrix = m.word(i, 2);
    let matrix_type = m.type_of(matrix);
    if !is_khr(m, matrix_type) {
        return Some(format!("{NAME} Matrix <id> {} is not a cooperative matrix.", r.id(matrix)));
    }
    let rt = m.result_type_word(i);
    if matrix_type != rt {
        return Some(format!(
            "{NAME} Result Type <id> {} must match matrix type <id> {}.",
            r.id(rt),
            r.id(matrix_type)
        ));
    }
    let component = m.def_word(matrix_type, 2).unwrap_or(0);
    let fn_type = m.def_word(func, 4).unwrap_or(0);
    let ret = m.def_word(fn_type, 2).unwrap_or(0);
    if ret != component {
        return Some(format!(
            "{NAME} function return type <id> {} must match matrix component type <id> {}.",
            r.id(ret),
            r.id(component)
        ));
    }
    if m.operands_len_of(fn_type) < 5 {
        return Some(format!("{NAME} function type <id> {} must have a least three parameters.", r.id(fn_type)));
    }
    for (w, which) in [(3, "first"), (4, "second")] {
        let p = m.def_word(fn_type, w).unwrap_or(0);
        if m.def_opcode(p) != Some(op::OpTypeInt) || m.def_word(p, 2) != Some(32) {
            return Some(format!(
                "{NAME} function type {which} parameter type <id> {} must be a 32-bit integer.",
                r.id(p)
            ));
        }
    }
    let third = m.def_word(fn_type, 5).unwrap_or(0);
    (third != component).then(|| {
        format!("{NAME} function type third parameter type <id> {} must match matrix component type.", r.id(third))
    })
}

fn problem(m: &Module, i: usize) -> Option<String> {
    let opcode = m.opcode(i);
    let o = Op { m, i, name: &m.insts[i].info().name[2..] };
    match opcode {
        op::OpCooperativeMatrixMulAddNV | op::OpCooperativeMatrixMulAddKHR => return o.mul_add(),
        op::OpCooperativeMatrixReduceNV => return o.reduce(),
        _ => {}
    }
    if !touches_special(m, i) {
        return None;
    }
    match opcode {
        op::OpFAdd | op::OpFSub | op::OpFDiv | op::OpFNegate | op::OpFmaKHR => {
            o.same_kind(Kind::Float, true, true, false)
        }
        op::OpFMul => o.same_kind(Kind::Float, false, true, true),
        op::OpFRem | op::OpFMod => o.same_kind(Kind::Float, false, false, false),
        op::OpUDiv => o.same_kind(Kind::Uint, true, true, false),
        op::OpUMod => o.same_kind(Kind::Uint, false, false, false),
        op::OpIAdd | op::OpISub | op::OpSDiv | op::OpSNegate => o.integer(true, true, false),
        op::OpIMul => o.integer(false, true, true),
        op::OpSRem | op::OpSMod => o.integer(false, false, false),
        op::OpVectorTimesScalar => o.times_scalar(false),
        op::OpMatrixTimesScalar => o.times_scalar(true),
        op::OpDot => o.dot(),
        // Not a kind OpSelect chooses between (validate_logicals.cpp).
        op::OpSelect if is_special(m, m.result_type_word(i)) => {
            let composites = m.header.version_parts() >= (1, 4);
            let kind = if composites { "composite" } else { "vector" };
            Some(format!("Expected scalar or {kind} type as Result Type: Select"))
        }
        _ => None,
    }
}

/// Arithmetic with cooperative types (spirv-val's function and arithmetic
/// passes).
pub(super) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        let message =
            if m.opcode(i) == op::OpCooperativeMatrixPerElementOpNV { per_element(m, r, i) } else { problem(m, i) };
        if let Some(message) = message {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}
