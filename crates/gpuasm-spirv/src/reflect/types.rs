//! Type facts reflection reports: GLSL names, array sizes, and the sizes
//! and offsets of buffer blocks (from their layout decorations).

use crate::grammar::{decoration, dim, op};
use crate::module::decorations::Applied;
use crate::module::Module;

/// Decoration parameter of `id` (member `member`, -1 for the id itself).
pub(super) fn decoration_value(m: &Module, id: u32, member: i64, dec: u32) -> Option<u32> {
    first_decoration(m, id, member, dec).map(|(_, _, p)| p.first().copied().unwrap_or(0))
}

/// Whether `id` (member `member`) carries decoration `dec`.
pub(super) fn has_decoration(m: &Module, id: u32, member: i64, dec: u32) -> bool {
    first_decoration(m, id, member, dec).is_some()
}

/// The first `dec` on `id` (member `member`). Each id's list is sorted by
/// member, then decoration, so a binary search finds it: a scan would make
/// a structure's members cost the square of their number.
fn first_decoration<'m>(m: &'m Module, id: u32, member: i64, dec: u32) -> Option<&'m Applied> {
    let list = m.decorations().get(&id)?;
    let at = list.partition_point(|(d, k, _)| (*k, *d) < (member, dec));
    list.get(at).filter(|(d, k, _)| *d == dec && *k == member)
}

/// Strips array types: the element type and the lengths, outermost first
/// (0 for a runtime array; a specialisation constant's default length).
pub(super) fn unwrap_arrays(m: &Module, mut ty: u32) -> (u32, Vec<u32>) {
    let mut dims = Vec::new();
    loop {
        match m.def_opcode(ty) {
            Some(op::OpTypeArray) => {
                let len = m.def_word(ty, 3).unwrap_or(0);
                dims.push(constant_u32(m, len, 0).unwrap_or(0));
                ty = m.def_word(ty, 2).unwrap_or(0);
            }
            Some(op::OpTypeRuntimeArray) => {
                dims.push(0);
                ty = m.def_word(ty, 2).unwrap_or(0);
            }
            _ => return (ty, dims),
        }
    }
}

/// The value of an integer constant, specialisation constants at their
/// defaults and `OpSpecConstantOp` integer arithmetic evaluated (as
/// SPIRV-Cross sizes arrays and blocks).
pub(super) fn constant_u32(m: &Module, id: u32, depth: u32) -> Option<u32> {
    let word = |k| m.def_word(id, k);
    match m.def_opcode(id)? {
        op::OpConstant | op::OpSpecConstant => word(3),
        op::OpSpecConstantOp if depth < 32 => {
            let arg = |k| word(k).and_then(|a| constant_u32(m, a, depth + 1));
            let (a, b) = (arg(4)?, arg(5));
            let opcode = word(3)? as u16;
            Some(match opcode {
                op::OpIAdd => a.wrapping_add(b?),
                op::OpISub => a.wrapping_sub(b?),
                op::OpIMul => a.wrapping_mul(b?),
                op::OpUDiv => a.checked_div(b?)?,
                op::OpSDiv => (a as i32).checked_div(b? as i32)? as u32,
                op::OpUMod => a.checked_rem(b?)?,
                op::OpShiftLeftLogical => a.wrapping_shl(b?),
                op::OpShiftRightLogical => a.wrapping_shr(b?),
                op::OpBitwiseOr => a | b?,
                op::OpBitwiseAnd => a & b?,
                op::OpBitwiseXor => a ^ b?,
                op::OpSNegate => a.wrapping_neg(),
                op::OpNot => !a,
                op::OpUConvert | op::OpSConvert => a,
                _ => return None,
            })
        }
        _ => None,
    }
}

/// The pointee of a pointer type.
pub(super) fn pointee(m: &Module, ptr: u32) -> u32 {
    match m.def_opcode(ptr) {
        Some(op::OpTypePointer) => m.def_word(ptr, 3).unwrap_or(0),
        _ => 0,
    }
}

/// The GLSL name of a scalar, vector, matrix, image or sampler type
/// (`vec4`, `uint`, `mat3x4`, `sampler2DArray`, `image2D`), `None` for
/// structures and what GLSL cannot name.
pub fn glsl_type(m: &Module, ty: u32) -> Option<String> {
    let word = |k| m.def_word(ty, k).unwrap_or(0);
    Some(match m.def_opcode(ty)? {
        op::OpTypeVoid => "void".into(),
        op::OpTypeBool => "bool".into(),
        op::OpTypeInt => {
            let signed = word(3) != 0;
            match (word(2), signed) {
                (32, true) => "int".into(),
                (32, false) => "uint".into(),
                (w, true) => format!("int{w}_t"),
                (w, false) => format!("uint{w}_t"),
            }
        }
        op::OpTypeFloat => match word(2) {
            32 => "float".into(),
            64 => "double".into(),
            w => format!("float{w}_t"),
        },
        op::OpTypeVector => format!("{}vec{}", vector_prefix(m, word(2))?, word(3)),
        op::OpTypeMatrix => {
            let column = word(2);
            let rows = m.def_word(column, 3)?;
            let cols = word(3);
            let prefix = vector_prefix(m, m.def_word(column, 2)?)?;
            if rows == cols {
                format!("{prefix}mat{cols}")
            } else {
                format!("{prefix}mat{cols}x{rows}")
            }
        }
        op::OpTypeSampler => "sampler".into(),
        op::OpTypeSampledImage => image_name(m, word(2), "sampler", true)?,
        op::OpTypeImage => {
            if word(3) == dim::SubpassData {
                let ms = if word(6) != 0 { "MS" } else { "" };
                return Some(format!("{}subpassInput{ms}", sampled_prefix(m, word(2))));
            }
            image_name(m, ty, if word(7) == 2 { "image" } else { "texture" }, false)?
        }
        op::OpTypeAccelerationStructureKHR => "accelerationStructureEXT".into(),
        _ => return None,
    })
}

fn vector_prefix(m: &Module, component: u32) -> Option<&'static str> {
    let word = |k| m.def_word(component, k).unwrap_or(0);
    Some(match (m.def_opcode(component)?, word(2), word(3)) {
        (op::OpTypeBool, _, _) => "b",
        (op::OpTypeFloat, 32, _) => "",
        (op::OpTypeFloat, 64, _) => "d",
        (op::OpTypeFloat, 16, _) => "f16",
        (op::OpTypeInt, 32, 1) => "i",
        (op::OpTypeInt, 32, 0) => "u",
        (op::OpTypeInt, 64, 1) => "i64",
        (op::OpTypeInt, 64, 0) => "u64",
        (op::OpTypeInt, 16, 1) => "i16",
        (op::OpTypeInt, 16, 0) => "u16",
        (op::OpTypeInt, 8, 1) => "i8",
        (op::OpTypeInt, 8, 0) => "u8",
        _ => return None,
    })
}

fn sampled_prefix(m: &Module, sampled: u32) -> &'static str {
    match (m.def_opcode(sampled), m.def_word(sampled, 2), m.def_word(sampled, 3)) {
        (Some(op::OpTypeInt), Some(64), Some(1)) => "i64",
        (Some(op::OpTypeInt), Some(64), _) => "u64",
        (Some(op::OpTypeInt), _, Some(1)) => "i",
        (Some(op::OpTypeInt), _, _) => "u",
        _ => "",
    }
}

/// `sampler2DArrayShadow`, `image3D`, `utextureBuffer`, ...
fn image_name(m: &Module, image: u32, base: &str, shadow_allowed: bool) -> Option<String> {
    let word = |k| m.def_word(image, k).unwrap_or(0);
    let d = match word(3) {
        dim::_1D => "1D",
        dim::_2D => "2D",
        dim::_3D => "3D",
        dim::Cube => "Cube",
        dim::Rect => "2DRect",
        dim::Buffer => "Buffer",
        _ => return None,
    };
    let ms = if word(6) != 0 { "MS" } else { "" };
    let array = if word(5) != 0 { "Array" } else { "" };
    let shadow = if shadow_allowed && word(4) == 1 { "Shadow" } else { "" };
    Some(format!("{}{base}{d}{ms}{array}{shadow}", sampled_prefix(m, word(2))))
}

/// A structure's size as its layout declares it: the highest member
/// offset plus that member's size (the first of equal offsets; a runtime
/// array's size is 0). Members may be declared out of offset order.
pub(super) fn struct_size(m: &Module, st: u32) -> u32 {
    let members = m.operands_len_of(st).saturating_sub(1);
    let (mut last, mut highest) = (0, 0);
    for k in 0..members {
        let offset = decoration_value(m, st, k as i64, decoration::Offset).unwrap_or(0);
        if offset > highest {
            (last, highest) = (k, offset);
        }
    }
    if members == 0 {
        return 0;
    }
    highest + member_size(m, st, last)
}

/// The size of member `k` of a structure, from its Offset, ArrayStride and
/// MatrixStride decorations.
pub(super) fn member_size(m: &Module, st: u32, k: usize) -> u32 {
    let ty = m.element_type(st, k).unwrap_or(0);
    type_size(
        m,
        ty,
        decoration_value(m, st, k as i64, decoration::MatrixStride),
        has_decoration(m, st, k as i64, decoration::RowMajor),
    )
}

fn type_size(m: &Module, ty: u32, matrix_stride: Option<u32>, row_major: bool) -> u32 {
    let word = |k| m.def_word(ty, k).unwrap_or(0);
    match m.def_opcode(ty) {
        Some(op::OpTypeArray) => {
            // The outermost length times its stride, as declared.
            let (_, dims) = unwrap_arrays(m, ty);
            dims[0] * decoration_value(m, ty, -1, decoration::ArrayStride).unwrap_or(0)
        }
        Some(op::OpTypeRuntimeArray) => 0,
        Some(op::OpTypeStruct) => struct_size(m, ty),
        Some(op::OpTypeInt | op::OpTypeFloat) => word(2) / 8,
        Some(op::OpTypeBool) => 4,
        Some(op::OpTypeVector) => word(3) * type_size(m, word(2), None, false),
        Some(op::OpTypeMatrix) => {
            let stride = matrix_stride.unwrap_or(0);
            if row_major {
                stride * m.def_word(word(2), 3).unwrap_or(0)
            } else {
                stride * word(3)
            }
        }
        Some(op::OpTypePointer) => 8,
        _ => 0,
    }
}
