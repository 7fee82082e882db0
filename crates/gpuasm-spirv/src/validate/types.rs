//! Operand types: the "must" sentences of the memory, composite, function
//! and annotation instructions that tie an operand to a type: variables are
//! pointers in their storage class, loads agree with the pointee (stores:
//! the memory rules, which check the storage class first),
//! access chains walk real composites, calls match the callee, member
//! names and decorations target structures, array lengths are constants.

use super::{ErrorKind, Report};
use crate::grammar::{capability, decoration, op, storage_class, OperandKind};
use crate::module::Module;

/// The pointee and storage class of a typed pointer type.
fn pointer(m: &Module, ty: u32) -> Option<(u32, u32)> {
    (m.def_opcode(ty)? == op::OpTypePointer).then(|| (m.def_word(ty, 3).unwrap_or(0), m.def_word(ty, 2).unwrap_or(0)))
}

fn is_untyped_pointer(m: &Module, ty: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeUntypedPointerKHR)
}

fn check_instruction(m: &Module, r: &mut Report, i: usize, vulkan: bool) {
    let inst = &m.insts[i];
    match inst.opcode() {
        // The rest of a variable's rules: the memory pass.
        op::OpVariable
            if pointer(m, m.result_type_at(inst)).is_none() && !is_untyped_pointer(m, m.result_type_at(inst)) =>
        {
            let t = r.id(m.result_type_at(inst));
            r.error(ErrorKind::OperandType, i, format!("OpVariable Result Type <id> {t} is not a pointer type."));
        }
        op::OpLoad => {
            let ptr = m.word(i, 2);
            if !logical_pointer(m, r, i, "OpLoad", ptr) {
                return;
            }
            if let Some((pointee, _)) = pointer(m, m.type_of(ptr)) {
                if pointee != m.result_type_at(inst) {
                    let (t, p) = (r.id(m.result_type_at(inst)), r.id(ptr));
                    r.error(
                        ErrorKind::OperandType,
                        i,
                        format!("OpLoad Result Type <id> {t} does not match Pointer <id> {p}s type."),
                    );
                }
            }
        }
        // A store's object of another type than the pointee: the memory
        // rules, after the pointer's storage class (a store through a
        // read-only pointer is reported as that first).
        op::OpMemberName | op::OpMemberDecorate => {
            let target = m.word(i, 0);
            if m.def(target).is_some() && m.def_opcode(target) != Some(op::OpTypeStruct) {
                let what = if inst.opcode() == op::OpMemberName {
                    "OpMemberName Type"
                } else {
                    "OpMemberDecorate Structure type"
                };
                let t = r.id(target);
                r.error(ErrorKind::Decoration, i, format!("{what} <id> {t} is not a struct type."));
                return;
            }
            let (member, members) = (m.word(i, 1), m.operands_len_of(target).saturating_sub(1) as u32);
            if m.def(target).is_some() && member >= members {
                let t = r.id(target);
                let message = if inst.opcode() == op::OpMemberName {
                    format!(
                        "OpMemberName Member <id> {} index is larger than Type <id> {t}s member count.",
                        r.id(member)
                    )
                } else {
                    format!(
                        "Index {member} provided in OpMemberDecorate for struct <id> {t} is out of bounds. The \
                         structure has {members} members. Largest valid index is {}.",
                        // spirv-val's count is a u32: none wraps.
                        members.wrapping_sub(1)
                    )
                };
                r.error(ErrorKind::Decoration, i, message);
            }
        }
        // spirv-val looks at the signedness of 32-bit integers only.
        op::OpTypeInt if m.word(i, 1) == 32 && m.word(i, 2) > 1 => {
            r.error(ErrorKind::OperandType, i, "OpTypeInt has invalid signedness:");
        }
        op::OpConstant | op::OpSpecConstant if !narrow_literal_ok(m, i) => {
            r.error(
                ErrorKind::OperandType,
                i,
                format!(
                    "The high-order bits of a literal number in instruction <id> {} must be 0 for a floating-point \
                     type, or 0 for an integer type with Signedness of 0, or sign extended when Signedness is 1",
                    m.result_id_at(inst)
                ),
            );
        }
        op::OpConstantComposite | op::OpSpecConstantComposite => {
            let composite = matches!(
                m.def_opcode(m.result_type_at(inst)),
                Some(
                    op::OpTypeVector
                        | op::OpTypeMatrix
                        | op::OpTypeArray
                        | op::OpTypeStruct
                        | op::OpTypeCooperativeMatrixKHR
                        | op::OpTypeCooperativeMatrixNV
                        | op::OpTypeCooperativeVectorNV
                        | op::OpTypeRuntimeArray
                )
            ) || super::tensors::is_shaped(m, m.result_type_at(inst));
            if composite {
                let before = r.errors.len();
                check_constituents(m, r, i);
                let shader = super::capabilities::with_implied(m).contains(&capability::Shader);
                if r.errors.len() == before && shader && super::small_types::limited_use(m, m.result_type_at(inst)) {
                    r.error(ErrorKind::OperandType, i, "Cannot form constants of 8- or 16-bit types");
                }
            } else {
                let t = r.id(m.result_type_at(inst));
                r.error(
                    ErrorKind::OperandType,
                    i,
                    format!("{} Result Type <id> {t} is not a composite type.", inst.info().name),
                );
            }
        }
        op::OpEntryPoint => {
            let f = m.word(i, 1);
            if m.def_opcode(f) != Some(op::OpFunction) {
                let t = r.id(f);
                r.error(ErrorKind::EntryPoint, i, format!("OpEntryPoint Entry Point <id> {t} is not a function."));
                return;
            }
            // Kernels take parameters; only the other execution models may not.
            let vuid = if vulkan { "[VUID-StandaloneSpirv-None-04633] " } else { "" };
            // spirv-val counts the words of whatever the function's type
            // operand names: three for a function type without parameters.
            let fn_type = m.def_word(f, 4).unwrap_or(0);
            if m.word(i, 0) != crate::grammar::execution_model::Kernel
                && m.def(fn_type).is_none_or(|d| d.word_count() != 3)
            {
                let t = r.id(f);
                r.error(
                    ErrorKind::EntryPoint,
                    i,
                    format!("{vuid}OpEntryPoint Entry Point <id> {t}s function parameter count is not zero."),
                );
                return;
            }
            if m.def_opcode(m.type_of(f)) != Some(op::OpTypeVoid) {
                let t = r.id(f);
                r.error(
                    ErrorKind::EntryPoint,
                    i,
                    format!("{vuid}OpEntryPoint Entry Point <id> {t}s function return type is not void."),
                );
            }
        }
        // Debug line information names its file with an OpString.
        op::OpLine if m.def_opcode(m.word(i, 0)) != Some(op::OpString) => {
            let t = r.id(m.word(i, 0));
            r.error(ErrorKind::OperandType, i, format!("OpLine Target <id> {t} is not an OpString."));
        }
        op::OpFunction => {
            let fn_type = m.word(i, 3);
            if m.def_opcode(fn_type) != Some(op::OpTypeFunction) {
                let t = r.id(fn_type);
                r.error(
                    ErrorKind::OperandType,
                    i,
                    format!("OpFunction Function Type <id> {t} is not a function type."),
                );
            } else if m.def_word(fn_type, 2) != Some(m.result_type_at(inst)) {
                let t = r.id(m.result_type_at(inst));
                let ret = r.id(m.def_word(fn_type, 2).unwrap_or(0));
                r.error(
                    ErrorKind::OperandType,
                    i,
                    format!(
                        "OpFunction Result Type <id> {t} does not match the Function Type's return type <id> {ret}."
                    ),
                );
            }
        }
        // Decorations with id parameters need OpDecorateId.
        op::OpDecorate
            if matches!(
                m.word(i, 1),
                decoration::UniformId
                    | decoration::AlignmentId
                    | decoration::MaxByteOffsetId
                    | decoration::CounterBuffer
                    | decoration::NodeMaxPayloadsAMDX
                    | decoration::NodeSharesPayloadLimitsWithAMDX
                    | decoration::PayloadNodeArraySizeAMDX
                    | decoration::PayloadNodeNameAMDX
                    | decoration::PayloadNodeBaseIndexAMDX
            ) =>
        {
            r.error(ErrorKind::Decoration, i, "Decorations taking ID parameters may not be used with OpDecorateId");
        }
        op::OpDecorate => check_decoration_target(m, r, i, vulkan),
        op::OpFunctionCall => {
            let f = m.word(i, 2);
            if m.def_opcode(f) != Some(op::OpFunction) {
                if m.def(f).is_some() {
                    let t = r.id(f);
                    r.error(ErrorKind::OperandType, i, format!("OpFunctionCall Function <id> {t} is not a function."));
                }
                return;
            }
            let return_type = m.type_of(f);
            if return_type != m.result_type_at(inst) {
                // spirv-val names the function's return type here.
                let (t, returned) = (r.id(m.result_type_at(inst)), r.id(return_type));
                r.error(
                    ErrorKind::OperandType,
                    i,
                    format!(
                        "OpFunctionCall Result Type <id> {t}s type does not match Function <id> {returned}s return type."
                    ),
                );
                return;
            }
            let fn_type = m.def_word(f, 4).unwrap_or(0);
            if m.def_opcode(fn_type) != Some(op::OpTypeFunction) {
                r.error(ErrorKind::OperandType, i, "Missing function type definition.");
                return;
            }
            let params = m.operands_len_of(fn_type).saturating_sub(2);
            let args = m.operands(i).len() - 3;
            if params != args {
                r.error(
                    ErrorKind::OperandType,
                    i,
                    "OpFunctionCall Function <id>'s parameter count does not match the argument count.",
                );
                return;
            }
            for a in 0..args {
                let arg = m.word(i, 3 + a);
                let param_type = m.def_word(fn_type, 3 + a).unwrap_or(0);
                let hlsl_match = |r: &Report| {
                    r.options.before_hlsl_legalization
                        && super::logical_match::pointees_match(m, m.type_of(arg), param_type)
                };
                if m.def(arg).is_some() && m.type_of(arg) != param_type && !hlsl_match(r) {
                    let (at, ft) = (r.id(arg), r.id(param_type));
                    r.error(ErrorKind::OperandType, i, format!("OpFunctionCall Argument <id> {at}s type does not match Function <id> {ft}s parameter type."));
                    return;
                }
            }
        }
        _ => {}
    }
}

/// Whether `ptr` is a pointer value, reporting it when it is not.
fn logical_pointer(m: &Module, r: &mut Report, i: usize, opname: &str, ptr: u32) -> bool {
    let ty = m.type_of(ptr);
    if m.def(ptr).is_none() || pointer(m, ty).is_some() || is_untyped_pointer(m, ty) {
        return true;
    }
    let p = r.id(ptr);
    // Only logical addressing asks for a logical pointer first: one made by
    // an instruction that makes them (with variable pointers, more do).
    let caps = super::capabilities::with_implied(m);
    let variable_pointers = caps.contains(&crate::grammar::capability::VariablePointers)
        || caps.contains(&crate::grammar::capability::VariablePointersStorageBuffer);
    let makes_pointers =
        m.def_opcode(ptr).is_some_and(|o| super::memory::returns_logical_pointer(o, variable_pointers));
    let logical = m.addressing_model().is_none_or(|a| a == crate::grammar::addressing_model::Logical);
    let message = if logical && !makes_pointers {
        format!("{opname} Pointer <id> {p} is not a logical pointer.")
    } else {
        format!("{opname} type for pointer <id> {p} is not a pointer type.")
    };
    r.error(ErrorKind::OperandType, i, message);
    false
}

/// OpConstantComposite / OpSpecConstantComposite: one constant per
/// element, each of the element's type.
fn check_constituents(m: &Module, r: &mut Report, i: usize) {
    let inst = &m.insts[i];
    let rt = m.result_type_at(inst);
    let name = inst.info().name;
    let parts: Vec<u32> = (2..m.operands(i).len()).map(|k| m.word(i, k)).collect();
    for &c in &parts {
        let constant = m.def(c).is_some_and(|d| d.info().class == "Constant-Creation" || d.opcode() == op::OpUndef);
        if m.def(c).is_some() && !constant {
            let t = r.id(c);
            r.error(ErrorKind::OperandType, i, format!("{name} Constituent <id> {t} is not a constant or undef."));
            return;
        }
    }
    let Some(problem) = constituent_problem(m, rt, &parts) else { return };
    let t = r.id(rt);
    let message = match problem {
        Constituents::Count(kind) => match kind {
            op::OpTypeVector => {
                format!("{name} Constituent <id> count does not match Result Type <id> {t}s vector component count.")
            }
            op::OpTypeMatrix => {
                format!("{name} Constituent <id> count does not match Result Type <id> {t}s matrix column count.")
            }
            op::OpTypeArray => format!("{name} Constituent count does not match Result Type <id> {t}s array length."),
            _ => format!("{name} Constituent <id> {t} count does not match Result Type <id> {t}s struct member count."),
        },
        Constituents::Type(kind, c, detail) => {
            let ct = r.id(c);
            match (kind, detail) {
                (op::OpTypeVector, _) => format!("{name} Constituent <id> {ct}s type does not match Result Type <id> {t}s vector element type."),
                (op::OpTypeMatrix, Column::Type) => format!("{name} Constituent <id> {ct} type does not match Result Type <id> {t}s matrix column type."),
                (op::OpTypeMatrix, Column::ComponentType) => format!("{name} Constituent <id> {ct} component type does not match Result Type <id> {t}s matrix column component type."),
                (op::OpTypeMatrix, Column::ComponentCount) => format!("{name} Constituent <id> {ct} vector component count does not match Result Type <id> {t}s vector component count."),
                (op::OpTypeArray, _) => format!("{name} Constituent <id> {ct}s type does not match Result Type <id> {t}s array element type."),
                _ => format!("{name} Constituent <id> {ct} type does not match the Result Type <id> {t}s member type."),
            }
        }
    };
    r.error(ErrorKind::OperandType, i, message);
}

enum Column {
    Type,
    ComponentType,
    ComponentCount,
}

enum Constituents {
    /// The composite's opcode.
    Count(u16),
    /// The composite's opcode, the constituent, and for a matrix what of
    /// its column differs.
    Type(u16, u32, Column),
}

/// What is wrong with `parts` as the constituents of a constant of
/// composite type `rt`, in spirv-val's order: the count (unknown for an
/// array of specialised length), then each constituent's type (a matrix
/// column by opcode, component type and count).
fn constituent_problem(m: &Module, rt: u32, parts: &[u32]) -> Option<Constituents> {
    let kind = m.def_opcode(rt)?;
    if !matches!(kind, op::OpTypeVector | op::OpTypeMatrix | op::OpTypeStruct | op::OpTypeArray) {
        return None;
    }
    // spirv-val counts an array's elements only when its length is a
    // 32-bit integer constant.
    let count = match kind {
        op::OpTypeArray => m.def_word(rt, 3).and_then(|length| m.int32_constant(length)),
        _ => m.element_count(rt),
    };
    if count.is_some_and(|count| count as usize != parts.len()) {
        return Some(Constituents::Count(kind));
    }
    for (k, &c) in parts.iter().enumerate() {
        if m.def(c).is_none() {
            continue;
        }
        let ty = m.type_of(c);
        let want = if kind == op::OpTypeStruct { m.element_type(rt, k) } else { m.def_word(rt, 2) };
        let Some(want) = want else { continue };
        if kind == op::OpTypeMatrix {
            let detail = if m.def_opcode(ty) != m.def_opcode(want) {
                Column::Type
            } else if m.def_word(ty, 2) != m.def_word(want, 2) {
                Column::ComponentType
            } else if m.def_word(ty, 3) != m.def_word(want, 3) {
                Column::ComponentCount
            } else {
                continue;
            };
            return Some(Constituents::Type(kind, c, detail));
        }
        if ty != want {
            return Some(Constituents::Type(kind, c, Column::Type));
        }
    }
    None
}

/// Whether the one-word value of a constant of a type narrower than 32 bits
/// fills its unused high-order bits as spirv-val requires: zeros, or copies
/// of the sign bit for a signed integer.
fn narrow_literal_ok(m: &Module, i: usize) -> bool {
    let ty = m.result_type_word(i);
    let width = match m.def_opcode(ty) {
        Some(op::OpTypeInt | op::OpTypeFloat) => m.def_word(ty, 2).unwrap_or(32),
        _ => return true,
    };
    if width == 0 || width >= 32 || m.operands(i).len() != 3 {
        return true;
    }
    let value = m.word(i, 2);
    let high = value >> width;
    let signed = m.def_opcode(ty) == Some(op::OpTypeInt) && m.def_word(ty, 3).is_some_and(|s| s != 0);
    if signed && value >> (width - 1) & 1 == 1 {
        high == u32::MAX >> width
    } else {
        high == 0
    }
}

/// Decorations that only make sense on one kind of target.
pub(super) fn check_decoration_target(m: &Module, r: &mut Report, i: usize, vulkan: bool) {
    let target = m.word(i, 0);
    let Some(def) = m.def(target) else { return };
    let target_op = def.opcode();
    if target_op == op::OpDecorationGroup {
        return;
    }
    let dec = m.word(i, 1);
    let variable = matches!(target_op, op::OpVariable | op::OpUntypedVariableKHR);
    let ty = m.type_of(target);
    let pointer = matches!(m.def_opcode(ty), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR));
    use decoration as d;
    let need = match dec {
        d::SpecId if !matches!(target_op, op::OpSpecConstant | op::OpSpecConstantTrue | op::OpSpecConstantFalse) => {
            Some("must be a scalar specialization constant")
        }
        d::Block | d::BufferBlock | d::GLSLShared | d::GLSLPacked | d::CPacked if target_op != op::OpTypeStruct => {
            Some("must be a structure type")
        }
        d::ArrayStride
            if !matches!(
                target_op,
                op::OpTypeArray | op::OpTypeRuntimeArray | op::OpTypePointer | op::OpTypeUntypedPointerKHR
            ) =>
        {
            Some("must be an array or pointer type")
        }
        d::NoPerspective
        | d::Flat
        | d::Patch
        | d::Centroid
        | d::Sample
        | d::Restrict
        | d::Aliased
        | d::Volatile
        | d::Coherent
        | d::NonWritable
        | d::NonReadable
        | d::XfbBuffer
        | d::XfbStride
        | d::Component
        | d::Stream
        | d::RestrictPointer
        | d::AliasedPointer
        | d::PerPrimitiveEXT => {
            if !variable && !matches!(target_op, op::OpFunctionParameter | op::OpRawAccessChainNV) {
                Some("must be a memory object declaration")
            } else if !pointer {
                Some("must be a pointer type")
            } else {
                None
            }
        }
        d::Invariant
        | d::Constant
        | d::Location
        | d::Index
        | d::Binding
        | d::DescriptorSet
        | d::InputAttachmentIndex
            if !variable =>
        {
            Some("must be a variable")
        }
        _ => None,
    };
    let name = OperandKind::Decoration.enumerant(dec).map_or("", |e| e.name);
    let fail = |r: &mut Report, vuid: &str, need: &str| {
        let t = r.id(target);
        r.error(ErrorKind::Decoration, i, format!("{vuid}{name} decoration on target <id> {t} {need}"));
    };
    if let Some(need) = need {
        return fail(r, "", need);
    }
    if !vulkan {
        return;
    }
    // The storage class of the target's pointer type; spirv-val assumes
    // Uniform when the type has no storage class operand.
    let sc = if m.operands_len_of(ty) > 2 { m.def_word(ty, 2).unwrap_or(0) } else { storage_class::Uniform };
    use storage_class as c;
    match dec {
        d::Location | d::Component
            if !matches!(
                sc,
                c::Input
                    | c::Output
                    | c::RayPayloadKHR
                    | c::IncomingRayPayloadKHR
                    | c::HitAttributeKHR
                    | c::CallableDataKHR
                    | c::IncomingCallableDataKHR
                    | c::ShaderRecordBufferKHR
                    | c::HitObjectAttributeNV
                    | c::HitObjectAttributeEXT
                    | c::TileImageEXT
            ) =>
        {
            r.error(
                ErrorKind::Decoration,
                i,
                format!(
                    "[VUID-StandaloneSpirv-Location-06672] {name} decoration must not be applied to this storage class"
                ),
            );
        }
        d::Index if sc != c::Output => fail(r, "", "must be in the Output storage class"),
        d::Binding | d::DescriptorSet
            if !matches!(sc, c::StorageBuffer | c::Uniform | c::UniformConstant | c::TileAttachmentQCOM) =>
        {
            fail(
                r,
                "[VUID-StandaloneSpirv-DescriptorSet-06491] ",
                "must be in the StorageBuffer, Uniform, or UniformConstant storage class",
            )
        }
        d::InputAttachmentIndex if sc != c::UniformConstant => fail(
            r,
            "[VUID-StandaloneSpirv-InputAttachmentIndex-06678] ",
            "must be in the UniformConstant storage class",
        ),
        d::Flat | d::NoPerspective | d::Centroid | d::Sample if !matches!(sc, c::Input | c::Output) => {
            fail(r, "[VUID-StandaloneSpirv-Flat-04670] ", "storage class must be Input or Output")
        }
        d::PerVertexKHR if sc != c::Input => {
            fail(r, "[VUID-StandaloneSpirv-PerVertexKHR-06777] ", "storage class must be Input")
        }
        _ => {}
    }
}

pub(crate) fn check(m: &Module, vulkan: bool, r: &mut Report) {
    for i in 0..m.insts.len() {
        check_instruction(m, r, i, vulkan);
        if r.full() {
            return;
        }
    }
}
