//! Composite instructions spirv-val checks beyond the general operand
//! rules: dynamic vector extraction and insertion, matrix transposition,
//! vectors built from one constituent, and composite extraction or
//! insertion without an index
//! (validate_composites.cpp).

use super::{ErrorKind, Report};
use crate::grammar::op;
use crate::module::Module;

/// (rows, columns, component type) of a matrix type.
fn matrix(m: &Module, ty: u32) -> Option<(u32, u32, u32)> {
    (m.def_opcode(ty)? == op::OpTypeMatrix).then_some(())?;
    let column = m.def_word(ty, 2)?;
    Some((m.def_word(column, 3)?, m.def_word(ty, 3)?, m.def_word(column, 2)?))
}

fn is_vector(m: &Module, ty: u32) -> bool {
    matches!(m.def_opcode(ty), Some(op::OpTypeVector | op::OpTypeCooperativeVectorNV))
}

fn is_int_scalar(m: &Module, ty: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeInt)
}

fn problem(m: &Module, i: usize) -> Option<&'static str> {
    let inst = &m.insts[i];
    let rt = m.result_type_at(inst);
    let operand_type = |k: usize| m.type_of(m.word(i, k));
    let component = |ty: u32| m.def_word(ty, 2).unwrap_or(0);
    match inst.opcode() {
        op::OpVectorExtractDynamic => {
            if !matches!(m.def_opcode(rt), Some(op::OpTypeInt | op::OpTypeFloat | op::OpTypeBool)) {
                return Some("Expected Result Type to be a scalar type");
            }
            let vector = operand_type(2);
            if !is_vector(m, vector) {
                return Some("Expected Vector type to be OpTypeVector");
            }
            if component(vector) != rt {
                return Some("Expected Vector component type to be equal to Result Type");
            }
            (!is_int_scalar(m, operand_type(3))).then_some("Expected Index to be int scalar")
        }
        op::OpVectorInsertDynamic => {
            if !is_vector(m, rt) {
                return Some("Expected Result Type to be OpTypeVector");
            }
            if operand_type(2) != rt {
                return Some("Expected Vector type to be equal to Result Type");
            }
            if component(rt) != operand_type(3) {
                return Some("Expected Component type to be equal to Result Type component type");
            }
            (!is_int_scalar(m, operand_type(4))).then_some("Expected Index to be int scalar")
        }
        op::OpTranspose => {
            let Some((rows, cols, comp)) = matrix(m, rt) else {
                return Some("Expected Result Type to be a matrix type");
            };
            let Some((m_rows, m_cols, m_comp)) = matrix(m, operand_type(2)) else {
                return Some("Expected Matrix to be of type OpTypeMatrix");
            };
            if comp != m_comp {
                return Some("Expected component types of Matrix and Result Type to be identical");
            }
            if rows != m_cols || cols != m_rows {
                return Some(
                    "Expected number of columns and the column size of Matrix to be the reverse of those of Result \
                     Type",
                );
            }
            // 8- and 16-bit types without their arithmetic capabilities are
            // for storage only.
            let shader = super::capabilities::with_implied(m).contains(&crate::grammar::capability::Shader);
            (shader && super::small_types::limited_use(m, rt)).then_some("Cannot transpose matrices of 16-bit floats")
        }
        op::OpCompositeExtract if m.operands(i).len() == 3 => {
            Some("Expected at least one index to OpCompositeExtract, zero found")
        }
        op::OpCompositeInsert if m.operands(i).len() == 4 => {
            Some("Expected at least one index to OpCompositeInsert, zero found")
        }
        _ => None,
    }
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        if let Some(message) = problem(m, i) {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}
