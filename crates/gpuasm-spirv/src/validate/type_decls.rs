//! Type declarations (spec 2.8, 2.16.1 and each OpType* "must"), in
//! spirv-val's type pass order: a non-aggregate type is declared once;
//! vectors hold scalars, arrays and structures hold non-void types, array
//! lengths are positive integer constants, pointers and functions name
//! types, structures do not refer to themselves nor mix BuiltIn members,
//! and a forward pointer names a pointer of its storage class.
//!
//! Constants declared among the types are checked in the same walk
//! (`constant_decls`), so the first broken rule in module order is the one
//! reported, and it stops the pass, as spirv-val stops at its first error.

use super::peer_opcodes::generates_type;
use super::{ErrorKind, Report};
use crate::grammar::{capability, decoration as d, op, storage_class, OperandKind};
use crate::module::decorations::Applied;
use crate::module::Module;
use crate::TargetEnv;
use rustc_hash::{FxHashMap, FxHashSet};

/// Types that may be declared more than once (spec 2.8: aggregates and
/// pointers may differ by their decorations).
const MAY_REPEAT: &[u16] = &[
    op::OpTypeArray,
    op::OpTypeRuntimeArray,
    op::OpTypeNodePayloadArrayAMDX,
    op::OpTypeStruct,
    op::OpTypePointer,
    op::OpTypeUntypedPointerKHR,
];

/// Opaque types a Vulkan structure may not hold (VUID 04667).
const OPAQUE: &[u16] = &[
    op::OpTypeImage,
    op::OpTypeSampler,
    op::OpTypeSampledImage,
    op::OpTypeOpaque,
    op::OpTypeEvent,
    op::OpTypeDeviceEvent,
    op::OpTypeReserveId,
    op::OpTypeQueue,
    op::OpTypePipe,
    op::OpTypeForwardPointer,
    op::OpTypePipeStorage,
    op::OpTypeNamedBarrier,
];

struct Ctx<'a> {
    vulkan: bool,
    caps: FxHashSet<u32>,
    unique_exempt: bool,
    decs: &'a FxHashMap<u32, Vec<Applied>>,
    /// The declarations seen so far, as uniqueness keys.
    seen: FxHashSet<Vec<u32>>,
}

impl Ctx<'_> {
    fn has_cap(&self, cap: u32) -> bool {
        self.caps.contains(&cap)
    }

    /// Whether `id` or one of its members carries `dec` (spirv-val's
    /// `HasDecoration`).
    fn decorated(&self, id: u32, dec: u32) -> bool {
        self.decs.get(&id).is_some_and(|v| v.iter().any(|a| a.0 == dec))
    }
}

pub(crate) fn check(m: &Module, env: TargetEnv, r: &mut Report) {
    let vulkan = env.is_vulkan();
    let unique_exempt =
        super::capabilities::declared_extensions(m).contains(&b"SPV_VALIDATOR_ignore_type_decl_unique"[..]);
    let mut cx = Ctx {
        vulkan,
        caps: super::capabilities::with_implied(m).clone(),
        unique_exempt,
        decs: m.decorations(),
        seen: FxHashSet::default(),
    };
    // Constants interleave with types: spirv-val checks both in module order.
    let constants = super::constant_decls::Context::new(m, cx.caps.clone());
    for i in 0..m.insts.len() {
        let opcode = m.opcode(i);
        if opcode == op::OpFunction {
            return;
        }
        let message = if generates_type(opcode) || opcode == op::OpTypeForwardPointer {
            problem(m, &mut cx, r, i)
        } else {
            super::constant_decls::problem(m, &constants, r, i)
        };
        if let Some(message) = message {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}

/// What spirv-val's type pass finds wrong with declaration `i`.
fn problem(m: &Module, cx: &mut Ctx, r: &mut Report, i: usize) -> Option<String> {
    let inst = &m.insts[i];
    let opcode = inst.opcode();
    if !cx.unique_exempt && !MAY_REPEAT.contains(&opcode) {
        // The opcode and every operand word but the result id.
        let ops = m.operands(i);
        let mut key = vec![u32::from(opcode)];
        for o in ops.iter().filter(|o| o.kind != OperandKind::IdResult) {
            let start = inst.offset as usize + o.offset as usize;
            key.extend_from_slice(&m.words[start..start + o.num_words as usize]);
        }
        if !cx.seen.insert(key) {
            return Some(format!(
                "Duplicate non-aggregate type declarations are not allowed. Opcode: {} id: {}",
                &inst.info().name[2..],
                m.result_id_at(inst)
            ));
        }
    }
    match opcode {
        // The widths: the capabilities pass.
        op::OpTypeInt if m.word(i, 1) == 32 && m.word(i, 2) == 1 && cx.has_cap(capability::Kernel) => {
            Some("The Signedness in OpTypeInt must always be 0 when Kernel capability is used.".into())
        }
        op::OpTypeVector => vector_problem(m, cx, r, i),
        op::OpTypeMatrix => {
            let column = m.word(i, 1);
            if m.def_opcode(column) != Some(op::OpTypeVector) {
                Some("Columns in a matrix must be of type vector.".into())
            } else if m.def_word(column, 2).and_then(|c| m.def_opcode(c)) != Some(op::OpTypeFloat) {
                Some("Matrix types can only be parameterized with floating-point types.".into())
            } else if !matches!(m.word(i, 2), 2..=4) {
                Some("Matrix types can only be parameterized as having only 2, 3, or 4 columns.".into())
            } else {
                None
            }
        }
        op::OpTypeArray | op::OpTypeRuntimeArray => array_problem(m, cx, r, i),
        op::OpTypeStruct => struct_problem(m, cx, r, i),
        op::OpTypePointer => {
            let ty = m.word(i, 2);
            if !m.def_opcode(ty).is_some_and(generates_type) {
                Some(format!("OpTypePointer Type <id> {} is not a type.", r.id(ty)))
            } else if cx.vulkan && !super::peer_opcodes::vulkan_storage_class(m.word(i, 1)) {
                Some("[VUID-StandaloneSpirv-None-04643] Invalid storage class for target environment".into())
            } else {
                None
            }
        }
        op::OpTypeFunction => function_problem(m, r, i),
        op::OpTypeForwardPointer => forward_pointer_problem(m, cx, i),
        _ => None,
    }
}

/// Vectors hold scalars (or, with SPV_INTEL_masked_gather_scatter,
/// pointers) and have 2, 3 or 4 components, 8 or 16 with Vector16.
fn vector_problem(m: &Module, cx: &Ctx, r: &mut Report, i: usize) -> Option<String> {
    let component = m.word(i, 1);
    let scalar = matches!(m.def_opcode(component), Some(op::OpTypeInt | op::OpTypeFloat | op::OpTypeBool));
    let pointer = m.def_opcode(component) == Some(op::OpTypePointer);
    if cx.has_cap(capability::MaskedGatherScatterINTEL) {
        if !scalar && !pointer {
            return Some(format!(
                "Invalid OpTypeVector Component Type<id> {}: Expected a scalar or pointer type when using the \
                 SPV_INTEL_masked_gather_scatter extension.",
                r.id(component)
            ));
        }
    } else if !scalar {
        return Some(format!("OpTypeVector Component Type <id> {} is not a scalar type.", r.id(component)));
    }
    match m.word(i, 2) {
        2..=4 => None,
        n @ (8 | 16) if !cx.has_cap(capability::Vector16) => {
            Some(format!("Having {n} components for TypeVector requires the Vector16 capability"))
        }
        8 | 16 => None,
        n => Some(format!("Illegal number of components ({n}) for TypeVector")),
    }
}

/// Array elements are non-void types (Vulkan: not runtime arrays); a
/// sized array's length is an integer constant of at least 1.
fn array_problem(m: &Module, cx: &Ctx, r: &mut Report, i: usize) -> Option<String> {
    let name = m.insts[i].info().name;
    let element = m.word(i, 1);
    let element_op = m.def_opcode(element);
    if !element_op.is_some_and(generates_type) {
        return Some(format!("{name} Element Type <id> {} is not a type.", r.id(element)));
    }
    if element_op == Some(op::OpTypeVoid) {
        return Some(format!("{name} Element Type <id> {} is a void type.", r.id(element)));
    }
    let block = |id| cx.decorated(id, d::Block) || cx.decorated(id, d::BufferBlock);
    if cx.has_cap(capability::Shader)
        && element_op == Some(op::OpTypeStruct)
        && block(element)
        && cx.decorated(m.result_id_word(i), d::ArrayStride)
    {
        return Some("Array containing a Block or BufferBlock must not be decorated with ArrayStride".into());
    }
    if cx.vulkan && element_op == Some(op::OpTypeRuntimeArray) {
        return Some(format!(
            "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] {name} Element Type <id> {} is not valid in Vulkan \
             environments.",
            r.id(element)
        ));
    }
    if m.opcode(i) != op::OpTypeArray {
        return None;
    }
    let length = m.word(i, 2);
    if !m.def_opcode(length).is_some_and(crate::module::is_constant) {
        return Some(format!("OpTypeArray Length <id> {} is not a scalar constant type.", r.id(length)));
    }
    let ty = m.type_of(length);
    if m.def_opcode(ty) != Some(op::OpTypeInt) {
        return Some(format!("OpTypeArray Length <id> {} is not a constant integer type.", r.id(length)));
    }
    let value = constant_i64(m, length)?;
    let signed = m.def_word(ty, 3).unwrap_or(0) > 0;
    (value == 0 || (value < 0 && signed))
        .then(|| format!("OpTypeArray Length <id> {} default value must be at least 1: found {value}", r.id(length)))
}

/// The value of an integer OpConstant (one word sign-extended, two words
/// as they are) or OpConstantNull, as spirv-val evaluates it.
fn constant_i64(m: &Module, id: u32) -> Option<i64> {
    match m.def_opcode(id)? {
        op::OpConstantNull => Some(0),
        op::OpConstant => {
            let lo = m.def_word(id, 3)?;
            Some(match m.def_word(id, 4) {
                Some(hi) => ((u64::from(hi) << 32) | u64::from(lo)) as i64,
                None => i64::from(lo as i32),
            })
        }
        _ => None,
    }
}

fn struct_problem(m: &Module, cx: &Ctx, r: &mut Report, i: usize) -> Option<String> {
    let id = m.result_id_word(i);
    let n = m.operands(i).len();
    for k in 1..n {
        let member = m.word(i, k);
        if member == id {
            return Some("Structure members may not be self references".into());
        }
        let member_op = m.def_opcode(member);
        if !member_op.is_some_and(generates_type) {
            return Some(format!("OpTypeStruct Member Type <id> {} is not a type.", r.id(member)));
        }
        if member_op == Some(op::OpTypeVoid) {
            return Some("Structures cannot contain a void type.".into());
        }
        if member_op == Some(op::OpTypeStruct) && all_built_in(m, cx, member) {
            let (inner, outer) = (r.id(member), r.id(id));
            return Some(format!(
                "Structure <id> {inner} contains members with BuiltIn decoration. Therefore this structure may not \
                 be contained as a member of another structure type. Structure <id> {outer} contains structure \
                 <id> {inner}."
            ));
        }
        if cx.vulkan && member_op == Some(op::OpTypeRuntimeArray) {
            if k != n - 1 {
                return Some(
                    "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] In Vulkan, OpTypeRuntimeArray must only be used \
                     for the last member of an OpTypeStruct"
                        .into(),
                );
            }
            if !cx.decorated(id, d::Block) && !cx.decorated(id, d::BufferBlock) {
                return Some(
                    "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] Vulkan, OpTypeStruct containing an \
                     OpTypeRuntimeArray must be decorated with Block or BufferBlock."
                        .into(),
                );
            }
        }
    }
    let block = |t: u32| {
        m.def_opcode(t) == Some(op::OpTypeStruct) && (cx.decorated(t, d::Block) || cx.decorated(t, d::BufferBlock))
    };
    let nested = (1..n).any(|k| contains_type(m, m.word(i, k), &block, 0));
    if nested && (cx.decorated(id, d::Block) || cx.decorated(id, d::BufferBlock)) {
        return Some("rules: A Block or BufferBlock cannot be nested within another Block or BufferBlock. ".into());
    }
    let built_in = built_in_members(cx, id);
    if built_in > 0 && built_in != n - 1 {
        return Some(format!(
            "When BuiltIn decoration is applied to a structure-type member, all members of that structure type must \
             also be decorated with BuiltIn (No allowed mixing of built-in variables and non-built-in variables \
             within a single structure). Structure id {id} does not meet this requirement."
        ));
    }
    let bindless = cx.has_cap(capability::BindlessTextureNV);
    let opaque = |t: u32| {
        m.def_opcode(t).is_some_and(|o| {
            OPAQUE.contains(&o)
                && !(bindless && matches!(o, op::OpTypeImage | op::OpTypeSampler | op::OpTypeSampledImage))
        })
    };
    // spirv-opt's HLSL legalization splits such structs.
    (cx.vulkan && !r.options.before_hlsl_legalization && contains_type(m, id, &opaque, 0))
        .then(|| "[VUID-StandaloneSpirv-None-04667] In Vulkan, OpTypeStruct must not contain an opaque type.".into())
}

/// How many distinct members of struct `id` carry BuiltIn.
fn built_in_members(cx: &Ctx, id: u32) -> usize {
    let members: FxHashSet<i64> =
        cx.decs.get(&id).into_iter().flatten().filter(|a| a.0 == d::BuiltIn && a.1 != -1).map(|a| a.1).collect();
    members.len()
}

/// Whether every member of struct `id` is a BuiltIn (spirv-val registers
/// only those; a mixed one is an error of its own).
fn all_built_in(m: &Module, cx: &Ctx, id: u32) -> bool {
    let n = built_in_members(cx, id);
    n > 0 && n == m.operands_len_of(id).saturating_sub(1)
}

/// Whether `ty` is, or holds through arrays, vectors, matrices, images and
/// structure members (not pointers nor functions), a type `f` picks.
fn contains_type(m: &Module, ty: u32, f: &dyn Fn(u32) -> bool, depth: u32) -> bool {
    if depth > 64 || m.def(ty).is_none() {
        return false;
    }
    if f(ty) {
        return true;
    }
    match m.def_opcode(ty) {
        Some(
            op::OpTypeArray
            | op::OpTypeRuntimeArray
            | op::OpTypeVector
            | op::OpTypeMatrix
            | op::OpTypeImage
            | op::OpTypeSampledImage
            | op::OpTypeCooperativeMatrixNV
            | op::OpTypeCooperativeMatrixKHR
            | op::OpTypeCooperativeVectorNV,
        ) => m.def_word(ty, 2).is_some_and(|e| contains_type(m, e, f, depth + 1)),
        Some(op::OpTypeStruct) => {
            (2..=m.operands_len_of(ty)).any(|w| m.def_word(ty, w).is_some_and(|e| contains_type(m, e, f, depth + 1)))
        }
        _ => false,
    }
}

/// A function type returns a type and takes non-void types.
fn function_problem(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    let ret = m.word(i, 1);
    if !m.def_opcode(ret).is_some_and(generates_type) {
        return Some(format!("OpTypeFunction Return Type <id> {} is not a type.", r.id(ret)));
    }
    for k in 2..m.operands(i).len() {
        let param = m.word(i, k);
        match m.def_opcode(param) {
            Some(op::OpTypeVoid) => {
                return Some(format!("OpTypeFunction Parameter Type <id> {} cannot be OpTypeVoid.", r.id(param)))
            }
            Some(o) if generates_type(o) => {}
            _ => return Some(format!("OpTypeFunction Parameter Type <id> {} is not a type.", r.id(param))),
        }
    }
    // The universal limit (spec 2.17), checked here in spirv-val's type pass.
    let (args, limit) = (m.operands(i).len() - 2, r.options.limits.max_function_args);
    if args > limit as usize {
        let id = r.id(m.result_id(i).unwrap_or(0));
        return Some(format!(
            "OpTypeFunction may not take more than {limit} arguments. OpTypeFunction <id> {id} has {args} arguments."
        ));
    }
    None
}

/// A forward pointer names a pointer type of its storage class, to a
/// structure; in Vulkan, a PhysicalStorageBuffer one (VUID 04711).
fn forward_pointer_problem(m: &Module, cx: &Ctx, i: usize) -> Option<String> {
    let pointer = m.word(i, 0);
    m.def(pointer)?;
    if m.def_opcode(pointer) != Some(op::OpTypePointer) {
        return Some("Pointer type in OpTypeForwardPointer is not a pointer type.".into());
    }
    let class = m.word(i, 1);
    if m.def_word(pointer, 2) != Some(class) {
        return Some("Storage class in OpTypeForwardPointer does not match the pointer definition.".into());
    }
    if m.def_word(pointer, 3).and_then(|t| m.def_opcode(t)) != Some(op::OpTypeStruct) {
        return Some("Forward pointers must point to a structure".into());
    }
    (cx.vulkan && class != storage_class::PhysicalStorageBuffer).then(|| {
        "[VUID-StandaloneSpirv-OpTypeForwardPointer-04711] In Vulkan, OpTypeForwardPointer must have a storage class \
         of PhysicalStorageBuffer."
            .into()
    })
}
