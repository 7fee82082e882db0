//! The bit-field instructions (OpBitFieldInsert, OpBitField[SU]Extract,
//! OpBitReverse, OpBitCount): an integer Base of the result's type (of its
//! component count for OpBitCount), integer scalar Offset and Count, and in
//! Vulkan a 32-bit Base unless maintenance9 is enabled
//! (VUID-RuntimeSpirv-None-10824), in spirv-val's words and order
//! (validate_bitwise.cpp).

use super::shapes::shape;
use crate::grammar::op;
use crate::module::Module;

/// Value operand `k` of the instruction: its type, or 0.
fn operand_type(m: &Module, i: usize, k: usize) -> u32 {
    if k < m.operands(i).len() {
        m.type_of(m.word(i, k))
    } else {
        0
    }
}

fn int(m: &Module, ty: u32) -> Option<super::shapes::Shape> {
    shape(m, ty).filter(|s| s.base == op::OpTypeInt)
}

fn int_scalar(m: &Module, ty: u32) -> bool {
    int(m, ty).is_some_and(|s| s.count == 1 && m.def_opcode(ty) == Some(op::OpTypeInt))
}

/// What spirv-val says of bit-field instruction `i`, if it is wrong.
pub(super) fn problem(m: &Module, i: usize, vulkan: bool) -> Option<String> {
    let inst = &m.insts[i];
    let opcode = inst.opcode();
    let name = &inst.info().name[2..];
    let rt = m.result_type_at(inst);
    let fail = |what: &str| Some(format!("{what}: {name}"));
    if opcode == op::OpBitCount && int(m, rt).is_none() {
        return fail("Expected int scalar or vector type as Result Type");
    }
    let base = operand_type(m, i, 2);
    let Some(b) = int(m, base) else {
        return fail("Expected int scalar or vector type for Base operand");
    };
    if vulkan && b.width != 32 {
        return Some(format!(
            "[VUID-RuntimeSpirv-None-10824] Expected 32-bit int type for Base operand: {name}\nThis is allowed if \
             you enable the maintenance9 feature (or use the --allow-vulkan-32-bit-bitwise command line flag)"
        ));
    }
    if base != rt && opcode != op::OpBitCount {
        return fail("Expected Base Type to be equal to Result Type");
    }
    match opcode {
        op::OpBitCount if shape(m, rt).map(|s| s.count) != Some(b.count) => {
            fail("Expected Base dimension to be equal to Result Type dimension")
        }
        op::OpBitFieldInsert if operand_type(m, i, 3) != rt => fail("Expected Insert Type to be equal to Result Type"),
        op::OpBitFieldInsert | op::OpBitFieldSExtract | op::OpBitFieldUExtract => {
            let offset = if opcode == op::OpBitFieldInsert { 4 } else { 3 };
            if !int_scalar(m, operand_type(m, i, offset)) {
                fail("Expected Offset Type to be int scalar")
            } else if !int_scalar(m, operand_type(m, i, offset + 1)) {
                fail("Expected Count Type to be int scalar")
            } else {
                None
            }
        }
        _ => None,
    }
}
