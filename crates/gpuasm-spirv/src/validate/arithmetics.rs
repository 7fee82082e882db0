//! Arithmetic instructions whose operand rules go beyond "same type as the
//! result": carries and extended products (a two-member structure result),
//! vector and matrix products, and the fused multiply-add of SPV_KHR_fma, in
//! spirv-val's words and order (validate_arithmetics.cpp).

use super::shapes::shape;
use super::Report;
use crate::grammar::{capability, fp_encoding, op};
use crate::module::Module;

/// (rows, columns, column type, component type) of a matrix type.
fn matrix(m: &Module, ty: u32) -> Option<(u32, u32, u32, u32)> {
    (m.def_opcode(ty)? == op::OpTypeMatrix).then_some(())?;
    let column = m.def_word(ty, 2)?;
    Some((m.def_word(column, 3)?, m.def_word(ty, 3)?, column, m.def_word(column, 2)?))
}

fn is_float(m: &Module, ty: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeFloat)
}

/// An int scalar or vector type (unsigned only if `unsigned`).
fn int_scalar_or_vector(m: &Module, ty: u32, unsigned: bool) -> bool {
    let scalar = if m.def_opcode(ty) == Some(op::OpTypeVector) { m.def_word(ty, 2).unwrap_or(0) } else { ty };
    m.def_opcode(scalar) == Some(op::OpTypeInt) && (!unsigned || m.def_word(scalar, 3) == Some(0))
}

/// What spirv-val says of instruction `i`, if it covers it and it is wrong.
pub(super) fn problem(m: &Module, i: usize) -> Option<String> {
    let inst = &m.insts[i];
    let opcode = inst.opcode();
    let name = inst.info().name.trim_start_matches("Op");
    let rt = m.result_type_at(inst);
    let operand_type = |k: usize| m.type_of(m.word(i, k));
    let fail = |what: &str| Some(format!("{what}: {name}"));
    match opcode {
        op::OpIAddCarry | op::OpISubBorrow | op::OpUMulExtended | op::OpSMulExtended => {
            if m.def_opcode(rt) != Some(op::OpTypeStruct) {
                return fail("Expected a struct as Result Type");
            }
            let members: Vec<u32> = (2..=m.operands_len_of(rt)).filter_map(|w| m.def_word(rt, w)).collect();
            if members.len() != 2 {
                return fail("Expected Result Type struct to have two members");
            }
            if opcode == op::OpSMulExtended && !int_scalar_or_vector(m, members[0], false) {
                return fail("Expected Result Type struct member types to be integer scalar or vector");
            }
            if opcode != op::OpSMulExtended && !int_scalar_or_vector(m, members[0], true) {
                return fail("Expected Result Type struct member types to be unsigned integer scalar or vector");
            }
            if members[0] != members[1] {
                return fail("Expected Result Type struct member types to be identical");
            }
            if operand_type(2) != members[0] || operand_type(3) != members[0] {
                return fail("Expected both operands to be of Result Type member type");
            }
            None
        }
        op::OpVectorTimesScalar => {
            let component = m.def_word(rt, 2).unwrap_or(0);
            if m.def_opcode(rt) != Some(op::OpTypeVector) || !is_float(m, component) {
                return fail("Expected float vector type as Result Type");
            }
            if operand_type(2) != rt {
                return fail("Expected vector operand type to be equal to Result Type");
            }
            (operand_type(3) != component).then(|| {
                format!("Expected scalar operand type to be equal to the component type of the vector operand: {name}")
            })
        }
        op::OpMatrixTimesScalar => {
            if !matrix(m, rt).is_some_and(|(_, _, _, c)| is_float(m, c)) {
                return fail("Expected float matrix type as Result Type");
            }
            let left = operand_type(2);
            if left != rt {
                return fail("Expected matrix operand type to be equal to Result Type");
            }
            if matrix(m, left).map(|(_, _, _, c)| c) != Some(operand_type(3)) {
                return fail("Expected scalar operand type to be equal to the component type of the matrix operand");
            }
            None
        }
        op::OpMatrixTimesMatrix => {
            let Some((_, res_cols, res_col, res_comp)) = matrix(m, rt) else {
                return fail("Expected float matrix type as Result Type");
            };
            let Some((_, left_cols, left_col, _)) = matrix(m, operand_type(2)) else {
                return fail("Expected float matrix type as left operand");
            };
            let Some((right_rows, right_cols, _, right_comp)) = matrix(m, operand_type(3)) else {
                return fail("Expected float matrix type as right operand");
            };
            if !is_float(m, res_comp) {
                fail("Expected float matrix type as Result Type")
            } else if res_col != left_col {
                fail("Expected column types of Result Type and left matrix to be equal")
            } else if res_comp != right_comp {
                fail("Expected component types of Result Type and right matrix to be equal")
            } else if res_cols != right_cols {
                fail("Expected number of columns of Result Type and right matrix to be equal")
            } else if left_cols != right_rows {
                fail("Expected number of columns of left matrix and number of rows of right matrix to be equal")
            } else {
                None
            }
        }
        _ => None,
    }
}

/// OpDot: a float scalar result (a bfloat16 one needs
/// BFloat16DotProductKHR), float vector operands of that component type
/// and of one size.
pub(super) fn dot(m: &Module, i: usize, caps: &rustc_hash::FxHashSet<u32>, r: &mut Report) -> Option<String> {
    let rt = m.result_type_word(i);
    if m.def_opcode(rt) != Some(op::OpTypeFloat) {
        return Some("Expected float scalar type as Result Type: Dot".into());
    }
    if m.def_word(rt, 3) == Some(fp_encoding::BFloat16KHR) && !caps.contains(&capability::BFloat16DotProductKHR) {
        return Some(format!("OpDot Result Type <id> {}requires BFloat16DotProductKHR be declared.", r.id(rt)));
    }
    let mut size = None;
    for k in 2..m.operands(i).len() {
        let ty = m.type_of(m.word(i, k));
        let Some(v) = shape(m, ty).filter(|s| s.base == op::OpTypeFloat && m.def_opcode(ty) == Some(op::OpTypeVector))
        else {
            return Some(format!("Expected float vector as operand: Dot operand index {k}"));
        };
        if v.scalar != rt {
            return Some(format!("Expected component type to be equal to Result Type: Dot operand index {k}"));
        }
        if *size.get_or_insert(v.count) != v.count {
            return Some("Expected operands to have the same number of components: Dot".into());
        }
    }
    None
}
