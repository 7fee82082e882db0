//! Memory instructions, in spirv-val's words (its memory pass): what a
//! variable may hold and where (storage classes, initializers, pointers
//! allocated under Logical addressing, 8- and 16-bit data, cooperative
//! types), loads and stores through logical pointers and into writable
//! storage, memory operands (Aligned, MakePointerAvailable/Visible,
//! NonPrivatePointer), OpCopyMemory(Sized), access chains typed and untyped
//! (negative constant indexes under Logical addressing, Block arrays),
//! OpPtrAccessChain's Element and ArrayStride, OpArrayLength, cooperative
//! matrix loads and stores, pointer comparisons; and, in Vulkan, which
//! storage classes untyped pointers may use.
//!
//! Each instruction reports its first problem, in the order spirv-val
//! checks them.

use super::{ErrorKind, Report, ValOptions};
use crate::grammar::{addressing_model, capability, decoration, op, storage_class as sc, OperandKind};
use crate::module::{is_constant, Module};
use rustc_hash::FxHashSet;

/// The loads and stores whose memory operands spirv-val checks as OpLoad's
/// and OpStore's (its `CheckMemoryAccess`).
const LOADS: &[u16] = &[
    op::OpLoad,
    op::OpCooperativeMatrixLoadNV,
    op::OpCooperativeMatrixLoadTensorNV,
    op::OpCooperativeMatrixLoadKHR,
    op::OpCooperativeVectorLoadNV,
];
const STORES: &[u16] = &[
    op::OpStore,
    op::OpCooperativeMatrixStoreNV,
    op::OpCooperativeMatrixStoreKHR,
    op::OpCooperativeMatrixStoreTensorNV,
    op::OpCooperativeVectorStoreNV,
];

/// Memory access operand bits (spec 3.26).
mod access {
    pub use crate::grammar::memory_access::{
        Aligned as ALIGNED, MakePointerAvailable as MAKE_AVAILABLE, MakePointerVisible as MAKE_VISIBLE,
        NonPrivatePointer as NON_PRIVATE,
    };
}

struct Ctx<'a, 'm> {
    m: &'a Module<'m>,
    caps: FxHashSet<u32>,
    vulkan: bool,
    env: crate::TargetEnv,
    /// Logical addressing (OpLoad/OpStore pointer sources are restricted).
    logical: bool,
    /// Logical or PhysicalStorageBuffer64 addressing, not relaxed.
    logical_rules: bool,
    /// (id, decoration) for every decoration spirv-val registers, on the
    /// id or a member, through groups too.
    decorations: FxHashSet<(u32, u32)>,
    /// Pointer types declared by OpTypeForwardPointer.
    forward: FxHashSet<u32>,
    /// The module declares an 8- or 16-bit integer or float type (most
    /// declare none, and the rules about them need not walk any type).
    small_types: bool,
}

pub(crate) fn check(m: &Module, options: &ValOptions, vulkan: bool, r: &mut Report) {
    let model = m.addressing_model();
    // spirv-val's HasDecoration: on the id or a member, through groups too.
    let decorations =
        m.decorations().iter().flat_map(|(&id, list)| list.iter().map(move |&(dec, _, _)| (id, dec))).collect();
    let c = Ctx {
        m,
        caps: super::capabilities::with_implied(m).clone(),
        vulkan,
        env: options.target_env,
        logical: model == Some(addressing_model::Logical),
        logical_rules: !options.relax_logical_pointer
            && matches!(model, Some(addressing_model::Logical | addressing_model::PhysicalStorageBuffer64)),
        decorations,
        forward: forward_pointers(m),
        small_types: (0..m.insts.len()).any(|i| {
            matches!(m.opcode(i), op::OpTypeInt | op::OpTypeFloat)
                && m.operands(i).len() > 1
                && matches!(m.word(i, 1), 8 | 16)
        }),
    };
    let mut in_function = false;
    for i in 0..m.insts.len() {
        match m.opcode(i) {
            op::OpFunction => in_function = true,
            op::OpFunctionEnd => in_function = false,
            _ => {}
        }
        if let Some(message) = c.problem(r, i, in_function) {
            r.error(ErrorKind::OperandType, i, message);
            if r.full() {
                return;
            }
        }
    }
}

/// The opcode, storage class and pointee (0 if untyped) of a pointer type.
fn pointer_type(m: &Module, ty: u32) -> Option<(u16, u32, u32)> {
    match m.def_opcode(ty)? {
        op::OpTypePointer => Some((op::OpTypePointer, m.def_word(ty, 2)?, m.def_word(ty, 3)?)),
        op::OpTypeUntypedPointerKHR => Some((op::OpTypeUntypedPointerKHR, m.def_word(ty, 2)?, 0)),
        _ => None,
    }
}

/// spirv-val's `ContainsType`: `ty` or a type it is made of satisfies `f`
/// (through pointers and function types only when `all`).
/// Pointer types declared by OpTypeForwardPointer (spirv-val does not
/// look through them).
pub(super) fn forward_pointers(m: &Module) -> FxHashSet<u32> {
    (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpTypeForwardPointer).map(|i| m.word(i, 0)).collect()
}

pub(super) fn contains_in(
    m: &Module,
    forward: &FxHashSet<u32>,
    ty: u32,
    all: bool,
    f: &dyn Fn(u16, u32) -> bool,
    depth: u32,
) -> bool {
    let Some(opcode) = m.def_opcode(ty) else { return false };
    if depth > 64 {
        return false;
    }
    if f(opcode, ty) {
        return true;
    }
    match opcode {
        op::OpTypeArray
        | op::OpTypeRuntimeArray
        | op::OpTypeVector
        | op::OpTypeMatrix
        | op::OpTypeImage
        | op::OpTypeSampledImage
        | op::OpTypeCooperativeMatrixNV
        | op::OpTypeCooperativeMatrixKHR
        | op::OpTypeCooperativeVectorNV => contains_in(m, forward, m.def_word(ty, 2).unwrap_or(0), all, f, depth + 1),
        op::OpTypePointer if all && !forward.contains(&ty) => {
            contains_in(m, forward, m.def_word(ty, 3).unwrap_or(0), all, f, depth + 1)
        }
        op::OpTypeStruct | op::OpTypeFunction if opcode == op::OpTypeStruct || all => (2..=m.operands_len_of(ty))
            .any(|w| contains_in(m, forward, m.def_word(ty, w).unwrap_or(0), all, f, depth + 1)),
        _ => false,
    }
}

/// An integer constant's value (OpConstantNull is 0), as spirv-val
/// evaluates it: spec constants are not.
pub(super) fn constant_u64(m: &Module, id: u32) -> Option<u64> {
    let ty = m.type_of(id);
    if m.def_opcode(ty) != Some(op::OpTypeInt) {
        return None;
    }
    match m.def_opcode(id)? {
        op::OpConstantNull => Some(0),
        op::OpConstant => {
            let lo = m.def_word(id, 3)? as u64;
            Some(lo | (m.def_word(id, 4).unwrap_or(0) as u64) << 32)
        }
        _ => None,
    }
}

/// The same as a signed value (a one-word constant is sign extended).
fn constant_i64(m: &Module, id: u32) -> Option<i64> {
    let v = constant_u64(m, id)?;
    Some(if m.def(id)?.word_count == 4 { v as u32 as i32 as i64 } else { v as i64 })
}

fn class_name(class: u32) -> &'static str {
    OperandKind::StorageClass.enumerant(class).map_or("", |e| e.name)
}

/// Instructions that make a logical pointer without variable pointers
/// (`spvOpcodeReturnsLogicalPointer`), and the ones variable pointers add.
pub(super) fn returns_logical_pointer(opcode: u16, variable_pointers: bool) -> bool {
    matches!(
        opcode,
        op::OpVariable
            | op::OpUntypedVariableKHR
            | op::OpAccessChain
            | op::OpInBoundsAccessChain
            | op::OpUntypedAccessChainKHR
            | op::OpUntypedInBoundsAccessChainKHR
            | op::OpFunctionParameter
            | op::OpImageTexelPointer
            | op::OpCopyObject
            | op::OpRawAccessChainNV
            | op::OpAllocateNodePayloadsAMDX
    ) || (variable_pointers
        && matches!(
            opcode,
            op::OpSelect
                | op::OpPhi
                | op::OpFunctionCall
                | op::OpPtrAccessChain
                | op::OpUntypedPtrAccessChainKHR
                | op::OpLoad
                | op::OpConstantNull
        ))
}

/// Storage classes a variable holding a bool must not have (they are
/// externally visible); Input and Output are allowed for built-ins.
const BOOL_CLASSES: &[u32] = &[
    sc::Workgroup,
    sc::CrossWorkgroup,
    sc::Private,
    sc::Function,
    sc::UniformConstant,
    sc::RayPayloadKHR,
    sc::IncomingRayPayloadKHR,
    sc::HitAttributeKHR,
    sc::CallableDataKHR,
    sc::IncomingCallableDataKHR,
    sc::TaskPayloadWorkgroupEXT,
    sc::HitObjectAttributeNV,
    sc::HitObjectAttributeEXT,
    sc::NodePayloadAMDX,
];

/// Storage classes NonPrivatePointer may access.
const NON_PRIVATE_CLASSES: &[u32] = &[
    sc::Uniform,
    sc::Workgroup,
    sc::CrossWorkgroup,
    sc::Generic,
    sc::Image,
    sc::StorageBuffer,
    sc::PhysicalStorageBuffer,
];

/// Per storage class, the capabilities that let a variable hold 16-bit and
/// 8-bit data (spirv-val's rule for variables in Shader modules).
struct SmallAccess {
    class: u32,
    bits16: &'static [u32],
    bits8: &'static [u32],
}

const SMALL_ACCESS: &[SmallAccess] = &[
    SmallAccess {
        class: sc::StorageBuffer,
        bits16: &[capability::StorageBuffer16BitAccess],
        bits8: &[capability::StorageBuffer8BitAccess],
    },
    SmallAccess {
        class: sc::PhysicalStorageBuffer,
        bits16: &[capability::StorageBuffer16BitAccess],
        bits8: &[capability::StorageBuffer8BitAccess],
    },
    SmallAccess { class: sc::Uniform, bits16: &[], bits8: &[] },
    SmallAccess {
        class: sc::PushConstant,
        bits16: &[capability::StoragePushConstant16],
        bits8: &[capability::StoragePushConstant8],
    },
    SmallAccess { class: sc::Input, bits16: &[capability::StorageInputOutput16], bits8: &[] },
    SmallAccess { class: sc::Output, bits16: &[capability::StorageInputOutput16], bits8: &[] },
    SmallAccess {
        class: sc::Workgroup,
        bits16: &[capability::WorkgroupMemoryExplicitLayout16BitAccessKHR],
        bits8: &[capability::WorkgroupMemoryExplicitLayout8BitAccessKHR],
    },
];

impl Ctx<'_, '_> {
    /// spirv-val's `ContainsType`.
    fn contains(&self, ty: u32, all: bool, f: &dyn Fn(u16, u32) -> bool) -> bool {
        contains_in(self.m, &self.forward, ty, all, f, 0)
    }

    /// Whether `ty` holds an integer or (non-bfloat) float of `width` bits.
    fn contains_sized(&self, ty: u32, base: u16, width: u32) -> bool {
        if !self.small_types {
            return false;
        }
        let m = self.m;
        let sized = |o: u16, t: u32| {
            o == base && m.def_word(t, 2) == Some(width) && !(base == op::OpTypeFloat && m.operands_len_of(t) > 2)
        };
        self.contains(ty, true, &sized)
    }

    fn has(&self, cap: u32) -> bool {
        self.caps.contains(&cap)
    }

    fn decorated(&self, id: u32, dec: u32) -> bool {
        self.decorations.contains(&(id, dec))
    }

    fn variable_pointers(&self) -> bool {
        self.has(capability::VariablePointersStorageBuffer) || self.has(capability::VariablePointers)
    }

    fn vuid(&self, s: &str) -> String {
        if self.vulkan {
            format!("[VUID-StandaloneSpirv-{s}] ")
        } else {
            String::new()
        }
    }

    fn limited_use(&self, ty: u32) -> bool {
        (!self.has(capability::Int16) && self.contains_sized(ty, op::OpTypeInt, 16))
            || (!self.has(capability::Int8) && self.contains_sized(ty, op::OpTypeInt, 8))
            || (!self.has(capability::Float16) && self.contains_sized(ty, op::OpTypeFloat, 16))
    }

    fn problem(&self, r: &mut Report, i: usize, in_function: bool) -> Option<String> {
        let m = self.m;
        match m.opcode(i) {
            op::OpTypeUntypedPointerKHR if self.vulkan => match m.word(i, 1) {
                sc::Workgroup if !self.has(capability::WorkgroupMemoryExplicitLayoutKHR) => Some(
                    "Workgroup storage class untyped pointers in Vulkan require WorkgroupMemoryExplicitLayoutKHR \
                     be declared"
                        .into(),
                ),
                sc::Workgroup | sc::StorageBuffer | sc::PhysicalStorageBuffer | sc::Uniform | sc::PushConstant => None,
                _ => {
                    Some("In Vulkan, untyped pointers can only be used in an explicitly laid out storage class".into())
                }
            },
            op::OpVariable | op::OpUntypedVariableKHR => self.variable(r, i, in_function),
            op::OpLoad => self.load(r, i),
            op::OpStore => self.store(r, i),
            op::OpCopyMemory | op::OpCopyMemorySized => self.copy_memory(r, i),
            op::OpAccessChain
            | op::OpInBoundsAccessChain
            | op::OpInBoundsPtrAccessChain
            | op::OpUntypedAccessChainKHR
            | op::OpUntypedInBoundsAccessChainKHR => self.access_chain(r, i),
            op::OpPtrAccessChain | op::OpUntypedPtrAccessChainKHR | op::OpUntypedInBoundsPtrAccessChainKHR => {
                self.access_chain(r, i).or_else(|| self.ptr_access_chain(i))
            }
            op::OpArrayLength | op::OpUntypedArrayLengthKHR => self.array_length(r, i),
            op::OpCooperativeMatrixLengthKHR | op::OpCooperativeMatrixLengthNV => self.matrix_length(r, i),
            op::OpCooperativeMatrixLoadKHR | op::OpCooperativeMatrixStoreKHR => self.matrix_load_store(r, i),
            op::OpCooperativeVectorLoadNV | op::OpCooperativeVectorStoreNV => self.vector_load_store(r, i),
            // The rest of these is cooperative::memory_ops'.
            op::OpCooperativeMatrixLoadNV | op::OpCooperativeMatrixLoadTensorNV => self.optional_access(i, 5),
            op::OpCooperativeMatrixStoreNV => self.optional_access(i, 4),
            op::OpCooperativeMatrixStoreTensorNV => self.optional_access(i, 3),
            op::OpPtrEqual | op::OpPtrNotEqual | op::OpPtrDiff => self.ptr_comparison(i),
            _ => None,
        }
    }

    /// OpVariable and OpUntypedVariableKHR.
    fn variable(&self, r: &mut Report, i: usize, in_function: bool) -> Option<String> {
        let m = self.m;
        let untyped = m.opcode(i) == op::OpUntypedVariableKHR;
        let result_type = m.result_type_word(i);
        let (ptr_opcode, result_class, pointee) = pointer_type(m, result_type).unwrap_or((0, 0, 0));
        if untyped && ptr_opcode != op::OpTypeUntypedPointerKHR {
            return Some("Result type must be an untyped pointer".into());
        }
        if !untyped && ptr_opcode != op::OpTypePointer {
            return None; // the types pass reports it
        }
        let n = m.operands(i).len();
        let class = m.word(i, 2);
        let value = if untyped {
            if n > 3 {
                let data = m.word(i, 3);
                if !m.is_type(data) {
                    return Some("Data type must be a type instruction".into());
                }
                data
            } else {
                if matches!(class, sc::Function | sc::Private | sc::Workgroup) {
                    return Some(
                        "Data type must be specified for Function, Private, and Workgroup storage classes".into(),
                    );
                }
                if self.vulkan {
                    return Some(format!(
                        "{}Vulkan requires that data type be specified",
                        self.vuid("OpUntypedVariableKHR-11167")
                    ));
                }
                0
            }
        } else {
            pointee
        };
        let init_at = if untyped { 4 } else { 3 };
        let initializer = (n > init_at).then(|| m.word(i, init_at));
        if let Some(init) = initializer {
            let d = m.def(init);
            let module_scope_var = d.is_some_and(|d| {
                matches!(d.opcode(), op::OpVariable | op::OpUntypedVariableKHR)
                    && m.def_index(init).is_some_and(|k| m.word(k, 2) != sc::Function)
            });
            if !(d.is_some_and(|d| is_constant(d.opcode())) || module_scope_var) {
                let t = r.id(init);
                return Some(format!("Variable Initializer <id> {t} is not a constant or module-scope variable."));
            }
            if m.type_of(init) != value {
                return Some("Initializer type must match the data type".into());
            }
        }
        if !BOOL_CLASSES.contains(&class) {
            let io = matches!(class, sc::Input | sc::Output);
            let builtin = io && self.decorated(m.result_id_word(i), decoration::BuiltIn);
            if !builtin && self.contains_invalid_bool(value, io, 0) {
                return Some(if io {
                    format!(
                        "{}If OpTypeBool is stored in conjunction with OpVariable using Input or Output Storage \
                         Classes it requires a BuiltIn decoration",
                        self.vuid("Input-07290")
                    )
                } else {
                    "If OpTypeBool is stored in conjunction with OpVariable, it can only be used with non-externally \
                     visible shader Storage Classes: Workgroup, CrossWorkgroup, Private, Function, Input, Output, \
                     RayPayloadKHR, IncomingRayPayloadKHR, HitAttributeKHR, CallableDataKHR, \
                     IncomingCallableDataKHR, NodePayloadAMDX, or UniformConstant"
                        .into()
                });
            }
        }
        if self.vulkan && !super::peer_opcodes::vulkan_storage_class(class) {
            return Some(format!("{}Invalid storage class for target environment", self.vuid("None-04643")));
        }
        if class == sc::Generic {
            return Some("Variable storage class cannot be Generic".into());
        }
        if in_function && class != sc::Function {
            return Some("Variables must have a function[7] storage class inside of a function".into());
        }
        if !in_function && class == sc::Function {
            return Some("Variables can not have a function[7] storage class outside of a function".into());
        }
        if class != result_class {
            return Some("Storage class must match result type storage class".into());
        }
        if self.logical_rules {
            if let Some((_, allocated, _)) = pointer_type(m, value).filter(|p| p.1 != sc::PhysicalStorageBuffer) {
                let message = if allocated != sc::StorageBuffer && allocated != sc::Workgroup {
                    "In Logical addressing, variables can only allocate a pointer to the StorageBuffer or Workgroup \
                     storage classes"
                } else if allocated == sc::StorageBuffer && !self.has(capability::VariablePointersStorageBuffer) {
                    "In Logical addressing, variables can only allocate a storage buffer pointer if the \
                     VariablePointersStorageBuffer capability is declared"
                } else if allocated == sc::Workgroup && !self.has(capability::VariablePointers) {
                    "In Logical addressing, variables can only allocate a workgroup pointer if the VariablePointers \
                     capability is declared"
                } else if class != sc::Function && class != sc::Private {
                    "In Logical addressing with variable pointers, variables that allocate pointers must be in \
                     Function or Private storage classes"
                } else {
                    ""
                };
                if !message.is_empty() {
                    return Some(message.into());
                }
            }
        }
        if self.vulkan && !untyped {
            if let Some(message) = super::variable_contents::vulkan_class_problem(m, r, i) {
                return Some(message);
            }
        }
        if self.vulkan && class != sc::Input && class != sc::Output {
            if self.decorated(m.result_id_word(i), decoration::Invariant) {
                return Some(format!(
                    "{}Variable decorated with Invariant must only be identified with the Input or Output storage \
                     class in Vulkan environment.",
                    self.vuid("Invariant-04677")
                ));
            }
            if m.def_opcode(value) == Some(op::OpTypeStruct) && self.decorated(value, decoration::Invariant) {
                return Some(format!(
                    "{}Variable struct member decorated with Invariant must only be identified with the Input or \
                     Output storage class in Vulkan environment.",
                    self.vuid("Invariant-04677")
                ));
            }
        }
        if let Some(init) = initializer {
            if self.vulkan && !matches!(class, sc::Output | sc::Private | sc::Function) {
                let v = r.id(m.result_id_word(i));
                if class == sc::Workgroup {
                    if m.def_opcode(init) != Some(op::OpConstantNull) {
                        return Some(format!(
                            "{}OpVariable, <id> {v}, initializers are limited to OpConstantNull in Workgroup storage \
                             class",
                            self.vuid("OpVariable-04734")
                        ));
                    }
                } else {
                    return Some(format!(
                        "{}OpVariable, <id> {v}, has a disallowed initializer & storage class combination.",
                        self.vuid("OpVariable-04651")
                    ));
                }
            }
            let what = match class {
                sc::TaskPayloadWorkgroupEXT => "TaskPayloadWorkgroupEXT",
                sc::Input => "Input",
                sc::HitObjectAttributeNV => "HitObjectAttributeNV",
                sc::HitObjectAttributeEXT => "HitObjectAttributeEXT",
                _ => "",
            };
            if !what.is_empty() {
                let v = r.id(m.result_id_word(i));
                return Some(format!("OpVariable, <id> {v}, initializer are not allowed for {what}"));
            }
        }
        if class == sc::PhysicalStorageBuffer {
            return Some("PhysicalStorageBuffer must not be used with OpVariable.".into());
        }
        if self.vulkan && !untyped {
            if let Some(message) = super::variable_contents::runtime_array_problem(m, r, i) {
                return Some(message);
            }
        }
        let allocated = if untyped { value } else { pointee };
        if class != sc::Function && class != sc::Private && allocated != 0 {
            let what = |o: u16, _| matches!(o, op::OpTypeCooperativeMatrixNV | op::OpTypeCooperativeMatrixKHR);
            if self.contains(allocated, true, &what) {
                return Some(
                    "Cooperative matrix types (or types containing them) can only be allocated in Function or \
                     Private storage classes or as function parameters"
                        .into(),
                );
            }
            if self.contains(allocated, true, &|o, _| o == op::OpTypeCooperativeVectorNV) {
                return Some(
                    "Cooperative vector types (or types containing them) can only be allocated in Function or \
                     Private storage classes or as function parameters"
                        .into(),
                );
            }
        }
        if self.has(capability::Shader) {
            let wide16 = (!self.has(capability::Int16) && self.contains_sized(value, op::OpTypeInt, 16))
                || (!self.has(capability::Float16) && self.contains_sized(value, op::OpTypeFloat, 16));
            if wide16 {
                if let Some(message) = self.small_variable(value, class, 16) {
                    return Some(message);
                }
            }
            if !self.has(capability::Int8) && self.contains_sized(value, op::OpTypeInt, 8) {
                if let Some(message) = self.small_variable(value, class, 8) {
                    return Some(message);
                }
            }
        }
        if class == sc::TileAttachmentQCOM && self.has(capability::TileShadingQCOM) {
            return super::tile_attachments::problem(m, i, &|id, d| self.decorated(id, d)).map(Into::into);
        }
        None
    }

    /// spirv-val's `ContainsInvalidBool`: a bool in the type, unless (with
    /// `skip_builtin`) a type on the way carries BuiltIn.
    fn contains_invalid_bool(&self, ty: u32, skip_builtin: bool, depth: u32) -> bool {
        let m = self.m;
        if depth > 64 || (skip_builtin && self.decorated(ty, decoration::BuiltIn)) {
            return false;
        }
        match m.def_opcode(ty) {
            Some(op::OpTypeBool) => true,
            Some(op::OpTypeVector | op::OpTypeMatrix | op::OpTypeArray | op::OpTypeRuntimeArray) => {
                self.contains_invalid_bool(m.def_word(ty, 2).unwrap_or(0), skip_builtin, depth + 1)
            }
            Some(op::OpTypeStruct) => (2..=m.operands_len_of(ty))
                .any(|w| self.contains_invalid_bool(m.def_word(ty, w).unwrap_or(0), skip_builtin, depth + 1)),
            _ => false,
        }
    }

    /// A variable of a Shader module holding 8- or 16-bit data: only in the
    /// storage classes whose access capability is declared (the storage
    /// class of a pointer it holds counts).
    fn small_variable(&self, value: u32, mut class: u32, bits: u32) -> Option<String> {
        let m = self.m;
        let mut underlying = value;
        let mut depth = 0;
        while let Some((op::OpTypePointer, c, pointee)) = pointer_type(m, underlying) {
            class = c;
            underlying = pointee;
            depth += 1;
            if depth > 64 {
                break;
            }
        }
        let name = class_name(class);
        let Some(rule) = SMALL_ACCESS.iter().find(|a| a.class == class) else {
            return Some(format!("Cannot allocate a variable containing a {bits}-bit type in {name} storage class"));
        };
        let ok = if class == sc::Uniform {
            let (both, buffer) = if bits == 16 {
                (capability::UniformAndStorageBuffer16BitAccess, capability::StorageBuffer16BitAccess)
            } else {
                (capability::UniformAndStorageBuffer8BitAccess, capability::StorageBuffer8BitAccess)
            };
            let mut block = underlying;
            if matches!(m.def_opcode(block), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) {
                block = m.def_word(block, 2).unwrap_or(0);
            }
            m.def(underlying).is_none()
                || self.has(both)
                || (self.has(buffer) && self.decorated(block, decoration::BufferBlock))
        } else {
            let caps = if bits == 16 { rule.bits16 } else { rule.bits8 };
            !caps.is_empty() && caps.iter().all(|&c| self.has(c))
        };
        (!ok).then(|| {
            format!(
                "Allocating a variable containing a {bits}-bit element in {name} storage class requires an additional \
                 capability"
            )
        })
    }

    /// The pointer operand of a load or store (or cooperative matrix load or
    /// store) comes from an instruction that makes a logical pointer.
    fn logical_source(&self, ptr: u32) -> bool {
        let Some(d) = self.m.def(ptr) else { return false };
        !self.logical || returns_logical_pointer(d.opcode(), self.variable_pointers())
    }

    fn load(&self, r: &mut Report, i: usize) -> Option<String> {
        let m = self.m;
        let ptr = m.word(i, 2);
        if !self.logical_source(ptr) {
            let p = r.id(ptr);
            return Some(format!("OpLoad Pointer <id> {p} is not a logical pointer."));
        }
        let Some((ptr_opcode, _, pointee)) = pointer_type(m, m.type_of(ptr)) else {
            let p = r.id(ptr);
            return Some(format!("OpLoad type for pointer <id> {p} is not a pointer type."));
        };
        let rt = m.result_type_word(i);
        if ptr_opcode == op::OpTypePointer && pointee != rt {
            let (t, p) = (r.id(rt), r.id(ptr));
            return Some(format!("OpLoad Result Type <id> {t} does not match Pointer <id> {p}s type."));
        }
        if !r.options.before_hlsl_legalization && self.contains(rt, false, &|o, _| o == op::OpTypeRuntimeArray) {
            return Some("Cannot load a runtime-sized array".into());
        }
        if let Some(message) = self.memory_access(i, 3) {
            return Some(message);
        }
        if self.has(capability::Shader)
            && self.limited_use(rt)
            && !matches!(
                m.def_opcode(rt),
                Some(op::OpTypePointer | op::OpTypeInt | op::OpTypeFloat | op::OpTypeVector | op::OpTypeMatrix)
            )
        {
            return Some("8- or 16-bit loads must be a scalar, vector or matrix type".into());
        }
        None
    }

    fn store(&self, r: &mut Report, i: usize) -> Option<String> {
        let m = self.m;
        let ptr = m.word(i, 0);
        if !self.logical_source(ptr) {
            let p = r.id(ptr);
            return Some(format!("OpStore Pointer <id> {p} is not a logical pointer."));
        }
        let Some((ptr_opcode, class, pointee)) = pointer_type(m, m.type_of(ptr)) else {
            let p = r.id(ptr);
            return Some(format!("OpStore type for pointer <id> {p} is not a pointer type."));
        };
        if ptr_opcode == op::OpTypePointer && m.def_opcode(pointee).is_none_or(|o| o == op::OpTypeVoid) {
            let p = r.id(ptr);
            return Some(format!("OpStore Pointer <id> {p}s type is void."));
        }
        if matches!(class, sc::UniformConstant | sc::Input | sc::PushConstant) {
            let p = r.id(ptr);
            return Some(format!("OpStore Pointer <id> {p} storage class is read-only"));
        }
        if class == sc::ShaderRecordBufferKHR {
            return Some("ShaderRecordBufferKHR Storage Class variables are read only".into());
        }
        if self.vulkan && class == sc::Uniform {
            let mut base = ptr;
            for _ in 0..1000 {
                match m.def_opcode(base) {
                    Some(
                        op::OpAccessChain
                        | op::OpInBoundsAccessChain
                        | op::OpPtrAccessChain
                        | op::OpInBoundsPtrAccessChain
                        | op::OpCopyObject,
                    ) => base = m.def_index(base).map_or(0, |k| m.word(k, 2)),
                    _ => break,
                }
            }
            if m.def_opcode(base) == Some(op::OpVariable) {
                let mut data = m.def_word(m.type_of(base), 3).unwrap_or(0);
                if matches!(m.def_opcode(data), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) {
                    data = m.def_word(data, 2).unwrap_or(0);
                }
                if self.decorated(data, decoration::Block) {
                    return Some(format!(
                        "{}In the Vulkan environment, cannot store to Uniform Blocks",
                        self.vuid("Uniform-06925")
                    ));
                }
            }
        }
        let object = m.word(i, 1);
        let object_type = m.type_of(object);
        if object_type == 0 {
            let o = r.id(object);
            return Some(format!("OpStore Object <id> {o} is not an object."));
        }
        if m.def_opcode(object_type) == Some(op::OpTypeVoid) {
            let o = r.id(object);
            return Some(format!("OpStore Object <id> {o}s type is void."));
        }
        if ptr_opcode == op::OpTypePointer && pointee != object_type {
            if let Some(message) = super::struct_store::mismatch(m, r, ptr, object) {
                return Some(message);
            }
        }
        if let Some(message) = self.memory_access(i, 2) {
            return Some(message);
        }
        if self.vulkan
            && !r.options.before_hlsl_legalization
            && super::variable_contents::contains_handle(m, object_type, 0)
        {
            return Some(
                "[VUID-StandaloneSpirv-OpTypeImage-06924] Cannot store to OpTypeImage, OpTypeSampler, \
                 OpTypeSampledImage, or OpTypeAccelerationStructureKHR objects"
                    .into(),
            );
        }
        None
    }

    /// The memory scope rules of the scope of `bit` (MakePointerAvailable or
    /// MakePointerVisible) in the memory operands at operand `at`: its
    /// parameters follow the mask in bit order, Aligned's literal first.
    fn access_scope(&self, i: usize, at: usize, mask: u32, bit: u32) -> Option<String> {
        let before = [access::ALIGNED, access::MAKE_AVAILABLE].iter().filter(|&&b| b < bit && mask & b != 0).count();
        let k = at + 1 + before;
        (k < self.m.operands(i).len()).then(|| super::scopes::memory_scope(self.m, self.env, i, self.m.word(i, k)))?
    }

    /// The memory operands at operand `at`, if the instruction has them.
    fn optional_access(&self, i: usize, at: usize) -> Option<String> {
        (self.m.operands(i).len() > at).then(|| self.memory_access(i, at)).flatten()
    }

    /// spirv-val's `CheckMemoryAccess` for the memory operands at operand
    /// `at` of a load, store, copy or cooperative matrix load/store.
    fn memory_access(&self, i: usize, at: usize) -> Option<String> {
        let m = self.m;
        let opcode = m.opcode(i);
        let (target, source) = match opcode {
            _ if LOADS.contains(&opcode) => (m.word(i, 2), 0),
            op::OpCopyMemory | op::OpCopyMemorySized => (m.word(i, 0), m.word(i, 1)),
            _ => (m.word(i, 0), 0),
        };
        let target_ptr = pointer_type(m, m.type_of(target));
        let source_ptr = (source != 0).then(|| pointer_type(m, m.type_of(source))).flatten();
        let target_class = target_ptr.map(|p| p.1);
        let source_class = source_ptr.map(|p| p.1);
        let physical =
            target_class == Some(sc::PhysicalStorageBuffer) || source_class == Some(sc::PhysicalStorageBuffer);
        let must_align = || {
            Some(format!(
                "{}Memory accesses with PhysicalStorageBuffer must use Aligned.",
                self.vuid("PhysicalStorageBuffer64-04708")
            ))
        };
        let ops = m.operands(i);
        if ops.len() <= at {
            return if physical { must_align() } else { None };
        }
        let mask = m.word(i, at);
        let (load, store) = (LOADS.contains(&opcode), STORES.contains(&opcode));
        if mask & access::MAKE_AVAILABLE != 0 {
            if load {
                return Some("MakePointerAvailableKHR cannot be used with OpLoad.".into());
            }
            if mask & access::NON_PRIVATE == 0 {
                return Some("NonPrivatePointerKHR must be specified if MakePointerAvailableKHR is specified.".into());
            }
            if let Some(message) = self.access_scope(i, at, mask, access::MAKE_AVAILABLE) {
                return Some(message);
            }
        }
        if mask & access::MAKE_VISIBLE != 0 {
            if store {
                return Some("MakePointerVisibleKHR cannot be used with OpStore.".into());
            }
            if mask & access::NON_PRIVATE == 0 {
                return Some("NonPrivatePointerKHR must be specified if MakePointerVisibleKHR is specified.".into());
            }
            if let Some(message) = self.access_scope(i, at, mask, access::MAKE_VISIBLE) {
                return Some(message);
            }
        }
        if mask & access::NON_PRIVATE != 0 {
            let bad = |c: Option<u32>| c.is_some_and(|c| !NON_PRIVATE_CLASSES.contains(&c));
            if bad(Some(target_class.unwrap_or(u32::MAX))) || bad(source_class) {
                return Some(
                    "NonPrivatePointerKHR requires a pointer in Uniform, Workgroup, CrossWorkgroup, Generic, Image \
                     or StorageBuffer storage classes."
                        .into(),
                );
            }
        }
        if mask & access::ALIGNED == 0 {
            return if physical { must_align() } else { None };
        }
        let aligned = if ops.len() > at + 1 { m.word(i, at + 1) } else { 0 };
        if !aligned.is_power_of_two() {
            return Some(format!("Memory accesses Aligned operand value {aligned} is not a power of two."));
        }
        let mut largest = 0;
        if let Some((o, sc::PhysicalStorageBuffer, pointee)) = target_ptr {
            if o == op::OpTypePointer {
                largest = largest_scalar(m, pointee, 0);
            } else if m.result_type_word(i) != 0 {
                largest = largest_scalar(m, m.result_type_word(i), 0);
            }
        }
        if let Some((op::OpTypePointer, sc::PhysicalStorageBuffer, pointee)) = source_ptr {
            largest = largest.max(largest_scalar(m, pointee, 0));
        }
        (aligned < largest).then(|| {
            format!(
                "{}Memory accesses Aligned operand value {aligned} is too small, the largest scalar type is {largest} \
                 bytes.",
                self.vuid("PhysicalStorageBuffer64-06314")
            )
        })
    }

    fn copy_memory(&self, r: &mut Report, i: usize) -> Option<String> {
        let m = self.m;
        let (target, source) = (m.word(i, 0), m.word(i, 1));
        let Some(target_ptr) = pointer_type(m, m.type_of(target)) else {
            let t = r.id(target);
            return Some(format!("Target operand <id> {t} is not a pointer."));
        };
        let Some(source_ptr) = pointer_type(m, m.type_of(source)) else {
            let s = r.id(source);
            return Some(format!("Source operand <id> {s} is not a pointer."));
        };
        let sized = m.opcode(i) == op::OpCopyMemorySized;
        let first_access = if sized { 3 } else { 2 };
        if !sized {
            let typed = |p: (u16, u32, u32)| (p.0 == op::OpTypePointer).then_some(p.2);
            let (target_type, source_type) = (typed(target_ptr), typed(source_ptr));
            if target_type.is_some_and(|t| m.def_opcode(t).is_none_or(|o| o == op::OpTypeVoid)) {
                let t = r.id(target);
                return Some(format!("Target operand <id> {t} cannot be a void pointer."));
            }
            if source_type.is_some_and(|t| m.def_opcode(t).is_none_or(|o| o == op::OpTypeVoid)) {
                let s = r.id(source);
                return Some(format!("Source operand <id> {s} cannot be a void pointer."));
            }
            match (target_type, source_type) {
                (Some(t), Some(s)) if t != s => {
                    let (a, b) = (r.id(source), r.id(s));
                    return Some(format!("Target <id> {a}s type does not match Source <id> {b}s type."));
                }
                (None, None) => return Some("One of Source or Target must be a typed pointer".into()),
                _ => {}
            }
        } else {
            let size = m.word(i, 2);
            let size_type = m.type_of(size);
            if m.def_opcode(size_type) != Some(op::OpTypeInt) {
                let s = r.id(size);
                return Some(format!("Size operand <id> {s} must be a scalar integer type."));
            }
            let signed = m.def_word(size_type, 3) == Some(1);
            match m.def_opcode(size) {
                Some(op::OpConstantNull) => {
                    let s = r.id(size);
                    return Some(format!("Size operand <id> {s} cannot be a constant zero."));
                }
                Some(op::OpConstant) => {
                    let d = m.def(size)?;
                    let words = &m.words[d.offset as usize + 3..d.offset as usize + d.word_count as usize];
                    if signed && words.last().is_some_and(|w| w & 0x8000_0000 != 0) {
                        let s = r.id(size);
                        return Some(format!("Size operand <id> {s} cannot have the sign bit set to 1."));
                    }
                    if words.iter().all(|&w| w == 0) {
                        let s = r.id(size);
                        return Some(format!("Size operand <id> {s} cannot be a constant zero."));
                    }
                }
                _ => {}
            }
            if self.has(capability::Shader) {
                if let Some(message) = self.copy_size(size, target_ptr.1, source_ptr.1) {
                    return Some(message);
                }
            }
        }
        if let Some(message) = self.memory_access(i, first_access) {
            return Some(message);
        }
        if let Some(message) = self.second_memory_access(i, first_access) {
            return Some(message);
        }
        if target_ptr.0 == op::OpTypePointer {
            let mut sub = target_ptr.2;
            for _ in 0..64 {
                match pointer_type(m, sub) {
                    Some((op::OpTypePointer, _, p)) => sub = p,
                    _ => break,
                }
            }
            if self.has(capability::Shader) && self.limited_use(sub) {
                return Some("Cannot copy memory of objects containing 8- or 16-bit types".into());
            }
        }
        None
    }

    /// OpCopyMemorySized in a Shader module: a constant size that is not a
    /// multiple of 4 (or 2) needs 16-bit (or 8-bit) access on both sides.
    fn copy_size(&self, size: u32, target: u32, source: u32) -> Option<String> {
        let m = self.m;
        let size_type = m.type_of(size);
        if m.def_word(size_type, 2) != Some(32) || !m.def(size).is_some_and(|d| is_constant(d.opcode())) {
            return None;
        }
        if m.def_opcode(size).is_some_and(|o| {
            matches!(
                o,
                op::OpSpecConstant
                    | op::OpSpecConstantTrue
                    | op::OpSpecConstantFalse
                    | op::OpSpecConstantComposite
                    | op::OpSpecConstantOp
            )
        }) {
            return None;
        }
        let value = if m.def_opcode(size) == Some(op::OpConstant) { m.def_word(size, 3)? } else { 0 };
        if value % 4 == 0 {
            return None;
        }
        let has = |c| self.has(c);
        let int8 = has(capability::Int8);
        let ubo8 = has(capability::UniformAndStorageBuffer8BitAccess);
        let ssbo8 = has(capability::StorageBuffer8BitAccess) || ubo8;
        let pc8 = has(capability::StoragePushConstant8);
        let wg8 = has(capability::WorkgroupMemoryExplicitLayout8BitAccessKHR);
        let int16 = has(capability::Int16) || int8;
        let ubo16 = has(capability::UniformAndStorageBuffer16BitAccess) || ubo8;
        let ssbo16 = has(capability::StorageBuffer16BitAccess) || ubo16 || ssbo8;
        let pc16 = has(capability::StoragePushConstant16) || pc8;
        let io16 = has(capability::StorageInputOutput16);
        let wg16 = has(capability::WorkgroupMemoryExplicitLayout16BitAccessKHR);
        let matches = |class: u32, is_target: bool| match class {
            sc::StorageBuffer => (ssbo16, ssbo8),
            sc::Uniform => (ubo16, ubo8),
            sc::PushConstant => (pc16, pc8),
            sc::Input if !is_target => (io16, false),
            sc::Output => (io16, false),
            sc::Workgroup => (wg16, wg8),
            _ => (false, false),
        };
        let (s16, s8) = matches(source, false);
        let (t16, t8) = matches(target, true);
        if !(int16 || (s16 && t16)) {
            return Some("Size must be a multiple of 4".into());
        }
        if value % 2 != 0 && !int8 && !(s8 && t8) {
            return Some("Size must be a multiple of 2".into());
        }
        None
    }

    /// A copy's second memory operands (SPIR-V 1.4): the source's.
    fn second_memory_access(&self, i: usize, first: usize) -> Option<String> {
        let m = self.m;
        let n = m.operands(i).len();
        if n <= first {
            return None;
        }
        let first_mask = m.word(i, first);
        let words = 1
            + (first_mask & access::ALIGNED != 0) as usize
            + (first_mask & access::MAKE_AVAILABLE != 0) as usize
            + (first_mask & access::MAKE_VISIBLE != 0) as usize;
        let second = first + words;
        if n <= second {
            return None;
        }
        if m.header.version_parts() < (1, 4) {
            let name = m.insts[i].info().name;
            return Some(format!("{name} with two memory access operands requires SPIR-V 1.4 or later"));
        }
        if let Some(message) = self.memory_access(i, second) {
            return Some(message);
        }
        if first_mask & access::MAKE_VISIBLE != 0 {
            return Some("Target memory access must not include MakePointerVisibleKHR".into());
        }
        if m.word(i, second) & access::MAKE_AVAILABLE != 0 {
            return Some("Source memory access must not include MakePointerAvailableKHR".into());
        }
        None
    }

    /// Whether a type is a Block or BufferBlock structure.
    fn block(&self, ty: u32) -> bool {
        self.m.def_opcode(ty) == Some(op::OpTypeStruct)
            && (self.decorated(ty, decoration::Block) || self.decorated(ty, decoration::BufferBlock))
    }

    /// An array holding a Block (spirv-val looks through arrays, vectors and
    /// structures, not pointers).
    fn block_array(&self, ty: u32) -> bool {
        self.m.def_opcode(ty) == Some(op::OpTypeArray) && self.contains(ty, false, &|_, t| self.block(t))
    }

    /// Every access chain: typed, untyped, with or without Element.
    fn access_chain(&self, r: &mut Report, i: usize) -> Option<String> {
        let m = self.m;
        let inst = &m.insts[i];
        let opcode = inst.opcode();
        let name = inst.info().name;
        let untyped = matches!(
            opcode,
            op::OpUntypedAccessChainKHR | op::OpUntypedInBoundsAccessChainKHR | op::OpUntypedPtrAccessChainKHR
        ) || opcode == op::OpUntypedInBoundsPtrAccessChainKHR;
        let result_type = m.result_type_at(inst);
        let result_opcode = m.def_opcode(result_type).unwrap_or(0);
        let wanted = if untyped { op::OpTypeUntypedPointerKHR } else { op::OpTypePointer };
        if result_opcode != wanted {
            let found = crate::grammar::instruction(result_opcode).map_or("", |i| i.name);
            let wanted_name = if untyped { "OpTypeUntypedPointerKHR" } else { "OpTypePointer" };
            let id = r.id(m.result_id_at(inst));
            return Some(format!("The Result Type of {name} <id> {id} must be {wanted_name}. Found {found}."));
        }
        let base_at = if untyped { 3 } else { 2 };
        let base = m.word(i, base_at);
        if untyped {
            let base_type = m.word(i, 2);
            if !m.is_type(base_type)
                || matches!(m.def_opcode(base_type), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR))
            {
                return Some("Base type must be a non-pointer type".into());
            }
            let type_block_array = self.block_array(base_type);
            let mut source = base;
            for _ in 0..1000 {
                if m.def_opcode(source) != Some(op::OpCopyObject) {
                    break;
                }
                source = m.def_index(source).map_or(0, |k| m.word(k, 2));
            }
            let data = match m.def_opcode(source) {
                Some(op::OpVariable) => m.def_word(m.type_of(source), 3),
                Some(op::OpUntypedVariableKHR) => {
                    m.def_index(source).filter(|&k| m.operands(k).len() > 3).map(|k| m.word(k, 3))
                }
                _ => None,
            };
            if let Some(data) = data {
                let data_block_array = self.block_array(data);
                if type_block_array != data_block_array {
                    return Some(
                        "Both Base Type and Base must be Block or BufferBlock arrays or neither can be".into(),
                    );
                }
                if type_block_array && base_type != data {
                    return Some(
                        "If Base or Base Type is a Block or BufferBlock array, the other must also be the same array"
                            .into(),
                    );
                }
            }
        }
        let base_ptr = pointer_type(m, m.type_of(base)).filter(|p| untyped || p.0 == op::OpTypePointer);
        let Some((_, base_class, base_pointee)) = base_ptr else {
            let b = r.id(base);
            return Some(format!("The Base <id> {b} in {name} instruction must be a pointer."));
        };
        let result_class = m.def_word(result_type, 2).unwrap_or(0);
        if result_class != base_class {
            return Some(format!(
                "The result pointer storage class and base pointer storage class in {name} do not match."
            ));
        }
        let mut ty = if untyped { m.word(i, 2) } else { base_pointee };
        let element = matches!(
            opcode,
            op::OpPtrAccessChain
                | op::OpInBoundsPtrAccessChain
                | op::OpUntypedPtrAccessChainKHR
                | op::OpUntypedInBoundsPtrAccessChainKHR
        );
        let first_index = base_at + 1 + element as usize;
        let n = m.operands(i).len();
        // The universal limit (spec 2.17), in spirv-val's words and count:
        // every word after the first four but a Ptr form's element (so an
        // untyped chain's base type counts as an index).
        let (indexes, limit) = (n - 3 - element as usize, r.options.limits.max_access_chain_indexes);
        if indexes > limit as usize {
            return Some(format!("The number of indexes in {name} may not exceed {limit}. Found {indexes} indexes."));
        }
        for k in first_index..n {
            let index = m.word(i, k);
            let index_type = m.type_of(index);
            if m.def_opcode(index_type) != Some(op::OpTypeInt) {
                return Some(format!("Indexes passed to {name} must be of type integer."));
            }
            if self.logical_rules
                && result_class != sc::PhysicalStorageBuffer
                && m.def_word(index_type, 3) == Some(1)
                && constant_i64(m, index).is_some_and(|v| v < 0)
            {
                return Some(format!("Index at word {} may not have a negative value", k + 1));
            }
            ty = match m.def_opcode(ty) {
                Some(
                    op::OpTypeMatrix
                    | op::OpTypeVector
                    | op::OpTypeCooperativeVectorNV
                    | op::OpTypeCooperativeMatrixNV
                    | op::OpTypeCooperativeMatrixKHR
                    | op::OpTypeArray
                    | op::OpTypeRuntimeArray
                    | op::OpTypeNodePayloadArrayAMDX,
                ) => m.def_word(ty, 2).unwrap_or(0),
                Some(op::OpTypeStruct) => {
                    let Some(v) = constant_i64(m, index) else {
                        let x = r.id(index);
                        return Some(format!(
                            "The <id> passed to {name} to index {x} into a structure must be an OpConstant."
                        ));
                    };
                    let members = m.operands_len_of(ty) as i64 - 1;
                    if v < 0 || v >= members {
                        let (x, s) = (r.id(index), r.id(ty));
                        return Some(format!(
                            "Index {x} is out of bounds: {name} cannot find index {v} into the structure <id> {s}. \
                             This structure has {members} members. Largest valid index is {}.",
                            members - 1
                        ));
                    }
                    m.def_word(ty, 2 + v as usize).unwrap_or(0)
                }
                _ => {
                    return Some(format!(
                        "{name} reached non-composite type while indexes still remain to be traversed."
                    ))
                }
            };
        }
        if !untyped {
            let result_pointee = m.def_word(result_type, 3).unwrap_or(0);
            if ty != result_pointee {
                let opname = |t: u32| crate::grammar::instruction(m.def_opcode(t).unwrap_or(0)).map_or("", |i| i.name);
                return Some(format!(
                    "{name} result type ({}) does not match the type that results from indexing into the base <id> \
                     ({}).",
                    opname(result_pointee),
                    opname(ty)
                ));
            }
        }
        None
    }

    /// What OpPtrAccessChain adds: Element, ArrayStride, Vulkan's storage
    /// classes.
    fn ptr_access_chain(&self, i: usize) -> Option<String> {
        let m = self.m;
        let opcode = m.opcode(i);
        let untyped = opcode != op::OpPtrAccessChain;
        let base = m.word(i, if untyped { 3 } else { 2 });
        let base_type = m.type_of(base);
        let (_, class, pointee) = pointer_type(m, base_type)?;
        let element = m.word(i, if untyped { 4 } else { 3 });
        if m.def_opcode(m.type_of(element)) != Some(op::OpTypeInt) {
            return Some("Element must be an integer".into());
        }
        if constant_u64(m, element).is_some_and(|v| v != 0) {
            let interpretation = if untyped { m.word(i, 2) } else { pointee };
            if self.block(interpretation) {
                return Some(
                    "Element must be 0 if the interpretation type is a Block- or BufferBlock-decorated structure"
                        .into(),
                );
            }
        }
        let laid_out = matches!(class, sc::Uniform | sc::StorageBuffer | sc::PhysicalStorageBuffer | sc::PushConstant)
            || (class == sc::Workgroup && self.has(capability::WorkgroupMemoryExplicitLayoutKHR));
        if self.has(capability::Shader) && laid_out && !self.decorated(base_type, decoration::ArrayStride) {
            return Some("OpPtrAccessChain must have a Base whose type is decorated with ArrayStride".into());
        }
        if self.vulkan {
            let untyped_cap = untyped && self.has(capability::UntypedPointersKHR);
            if class == sc::Workgroup {
                if !self.has(capability::VariablePointers) && !untyped_cap {
                    return Some(format!(
                        "{}OpPtrAccessChain Base operand pointing to Workgroup storage class must use \
                         VariablePointers capability",
                        self.vuid("Base-07651")
                    ));
                }
            } else if class == sc::StorageBuffer {
                if !self.variable_pointers() && !untyped_cap {
                    return Some(format!(
                        "{}OpPtrAccessChain Base operand pointing to StorageBuffer storage class must use \
                         VariablePointers or VariablePointersStorageBuffer capability",
                        self.vuid("Base-07652")
                    ));
                }
            } else if class != sc::PhysicalStorageBuffer && !untyped_cap {
                return Some(format!(
                    "{}OpPtrAccessChain Base operand must point to Workgroup, StorageBuffer, or \
                     PhysicalStorageBuffer storage class",
                    self.vuid("Base-07650")
                ));
            }
        }
        None
    }

    fn array_length(&self, r: &mut Report, i: usize) -> Option<String> {
        let m = self.m;
        let inst = &m.insts[i];
        let name = inst.info().name;
        let rt = m.result_type_at(inst);
        let id = r.id(m.result_id_at(inst));
        if m.def_opcode(rt) != Some(op::OpTypeInt)
            || !matches!(m.def_word(rt, 2), Some(32 | 64))
            || m.def_word(rt, 3) != Some(0)
        {
            return Some(format!(
                "The Result Type of {name} <id> {id} must be OpTypeInt with width 32 or 64 and signedness 0."
            ));
        }
        let untyped = inst.opcode() == op::OpUntypedArrayLengthKHR;
        let ptr_type = m.type_of(m.word(i, if untyped { 3 } else { 2 }));
        let not_struct =
            || Some(format!("The Structure's type in {name} <id> {id} must be a pointer to an OpTypeStruct."));
        let ptr_opcode = m.def_opcode(ptr_type);
        if untyped && ptr_opcode != Some(op::OpTypeUntypedPointerKHR) {
            return Some("Pointer must be an untyped pointer".into());
        }
        if !untyped && ptr_opcode != Some(op::OpTypePointer) {
            return not_struct();
        }
        let structure = if untyped { m.word(i, 2) } else { m.def_word(ptr_type, 3).unwrap_or(0) };
        if m.def_opcode(structure) != Some(op::OpTypeStruct) {
            return not_struct();
        }
        let members = m.operands_len_of(structure) - 1;
        let last = m.def_word(structure, 1 + members).unwrap_or(0);
        if m.def_opcode(last) != Some(op::OpTypeRuntimeArray) {
            return Some(format!("The Structure's last member in {name} <id> {id} must be an OpTypeRuntimeArray."));
        }
        if m.word(i, if untyped { 4 } else { 3 }) as usize != members - 1 {
            return Some(format!("The array member in {name} <id> {id} must be the last member of the struct."));
        }
        if self.vulkan && m.def_word(ptr_type, 2) == Some(sc::Uniform) && self.decorated(structure, decoration::Block) {
            return Some(format!(
                "{}{name} must not be used on the OpTypeRuntimeArray inside a Uniform block",
                self.vuid("OpArrayLength-11805")
            ));
        }
        None
    }

    fn matrix_length(&self, r: &mut Report, i: usize) -> Option<String> {
        let m = self.m;
        let inst = &m.insts[i];
        let name = inst.info().name;
        let rt = m.result_type_at(inst);
        if m.def_opcode(rt) != Some(op::OpTypeInt) || m.def_word(rt, 2) != Some(32) || m.def_word(rt, 3) != Some(0) {
            let id = r.id(m.result_id_at(inst));
            return Some(format!(
                "The Result Type of {name} <id> {id} must be OpTypeInt with width 32 and signedness 0."
            ));
        }
        let (wanted, wanted_name) = if inst.opcode() == op::OpCooperativeMatrixLengthKHR {
            (op::OpTypeCooperativeMatrixKHR, "OpTypeCooperativeMatrixKHR")
        } else {
            (op::OpTypeCooperativeMatrixNV, "OpTypeCooperativeMatrixNV")
        };
        let ty = m.word(i, 2);
        (m.def_opcode(ty) != Some(wanted)).then(|| {
            let t = r.id(ty);
            format!("The type in {name} <id> {t} must be {wanted_name}.")
        })
    }

    /// OpCooperativeMatrixLoadKHR / OpCooperativeMatrixStoreKHR.
    fn matrix_load_store(&self, r: &mut Report, i: usize) -> Option<String> {
        let m = self.m;
        let load = m.opcode(i) == op::OpCooperativeMatrixLoadKHR;
        let opname = if load { "spv::Op::OpCooperativeMatrixLoadKHR" } else { "spv::Op::OpCooperativeMatrixStoreKHR" };
        let matrix = if load { m.result_type_word(i) } else { m.type_of(m.word(i, 1)) };
        if m.def_opcode(matrix) != Some(op::OpTypeCooperativeMatrixKHR) {
            let t = r.id(matrix);
            let what = if load { "Result Type" } else { "Object type" };
            return Some(format!("{opname} {what} <id> {t} is not a cooperative matrix type."));
        }
        let ptr = m.word(i, if load { 2 } else { 0 });
        if !self.logical_source(ptr) {
            let p = r.id(ptr);
            return Some(format!("{opname} Pointer <id> {p} is not a logical pointer."));
        }
        let ptr_type = m.type_of(ptr);
        let Some((ptr_opcode, class, pointee)) = pointer_type(m, ptr_type) else {
            let p = r.id(ptr);
            return Some(format!("{opname} type for pointer <id> {p} is not a pointer type."));
        };
        if self.vulkan && !matches!(class, sc::Workgroup | sc::StorageBuffer | sc::PhysicalStorageBuffer) {
            let t = r.id(ptr_type);
            return Some(format!(
                "{}{opname} storage class for pointer type <id> {t} is not Workgroup, StorageBuffer, or \
                 PhysicalStorageBuffer.",
                self.vuid("Pointer-08973")
            ));
        }
        if ptr_opcode == op::OpTypePointer
            && !super::shapes::shape(m, pointee).is_some_and(|s| matches!(s.base, op::OpTypeInt | op::OpTypeFloat))
        {
            let p = r.id(ptr);
            return Some(format!("{opname} Pointer <id> {p}s Type must be a scalar or vector type."));
        }
        let layout_id = m.word(i, if load { 3 } else { 2 });
        let layout_ok = m.def(layout_id).is_some_and(|d| is_constant(d.opcode()))
            && m.def_opcode(m.type_of(layout_id)) == Some(op::OpTypeInt);
        if !layout_ok {
            let l = r.id(layout_id);
            return Some(format!("MemoryLayout operand <id> {l} must be a 32-bit integer constant instruction."));
        }
        const ROW_BLOCKED_ARM: u64 = 4202;
        const COLUMN_BLOCKED_ARM: u64 = 4203;
        let layout = constant_u64(m, layout_id);
        let arm = layout.is_some_and(|l| l == ROW_BLOCKED_ARM || l == COLUMN_BLOCKED_ARM);
        if arm && !self.has(capability::CooperativeMatrixLayoutsARM) {
            return Some(
                "Using the RowBlockedInterleavedARM or ColumnBlockedInterleavedARM MemoryLayout requires the \
                 CooperativeMatrixLayoutsARM capability be declared"
                    .into(),
            );
        }
        let stride_required = layout.is_some_and(|l| l <= 1) || arm;
        let stride_at = if load { 4 } else { 3 };
        let layout = layout.unwrap_or(0);
        if m.operands(i).len() > stride_at {
            let stride = m.word(i, stride_at);
            if m.def_opcode(m.type_of(stride)) != Some(op::OpTypeInt) {
                let s = r.id(stride);
                return Some(format!("Stride operand <id> {s} must be a scalar integer type."));
            }
            if arm {
                if !m.def(stride).is_some_and(|d| is_constant(d.opcode())) {
                    return Some(format!("MemoryLayout {layout} requires Stride come from a constant instruction."));
                }
                if let Some(stride) = constant_u64(m, stride) {
                    if !matches!(stride, 1 | 2 | 4) {
                        return Some(format!("MemoryLayout {layout} requires Stride be 1, 2, or 4."));
                    }
                    let value = |id: u32| constant_u64(m, id).unwrap_or(0);
                    let rows = value(m.def_word(matrix, 4).unwrap_or(0));
                    let cols = value(m.def_word(matrix, 5).unwrap_or(0));
                    let component = m.def_word(matrix, 2).unwrap_or(0);
                    let bytes = (m.def_word(component, 2).unwrap_or(0) / 8).max(1) as u64;
                    let mut rows_multiple = 4;
                    let mut cols_multiple = 16 / bytes;
                    if layout == ROW_BLOCKED_ARM {
                        cols_multiple *= stride;
                    } else {
                        rows_multiple *= stride;
                    }
                    if rows != 0 && rows % rows_multiple != 0 {
                        return Some(format!(
                            "MemoryLayout {layout} with a Stride of {stride} requires that the number of rows be a \
                             multiple of {rows_multiple}"
                        ));
                    }
                    if cols_multiple != 0 && cols != 0 && cols % cols_multiple != 0 {
                        return Some(format!(
                            "MemoryLayout {layout} with a Stride of {stride} requires that the number of columns be \
                             a multiple of {cols_multiple}"
                        ));
                    }
                }
            }
        } else if stride_required {
            return Some(format!("MemoryLayout {layout} requires a Stride."));
        }
        let access_at = if load { 5 } else { 4 };
        if m.operands(i).len() > access_at {
            return self.memory_access(i, access_at);
        }
        None
    }

    /// OpCooperativeVectorLoadNV / OpCooperativeVectorStoreNV: the vector
    /// type and the memory operands (not yet: the pointer and the offset).
    fn vector_load_store(&self, r: &mut Report, i: usize) -> Option<String> {
        let m = self.m;
        let load = m.opcode(i) == op::OpCooperativeVectorLoadNV;
        let vector = if load { m.result_type_word(i) } else { m.type_of(m.word(i, 2)) };
        if m.def_opcode(vector) != Some(op::OpTypeCooperativeVectorNV) {
            let t = r.id(vector);
            return Some(if load {
                format!("spv::Op::OpCooperativeVectorLoadNV Result Type <id> {t} is not a cooperative vector type.")
            } else {
                format!("spv::Op::OpCooperativeVectorStoreNV Object type <id> {t} is not a cooperative vector type.")
            });
        }
        let access_at = if load { 4 } else { 3 };
        (m.operands(i).len() > access_at).then(|| self.memory_access(i, access_at)).flatten()
    }

    /// OpPtrEqual, OpPtrNotEqual, OpPtrDiff.
    fn ptr_comparison(&self, i: usize) -> Option<String> {
        let m = self.m;
        let (a, b) = (m.word(i, 2), m.word(i, 3));
        let (ta, tb) = (m.type_of(a), m.type_of(b));
        let class = m.def_word(ta, 2).unwrap_or(0);
        if self.logical_rules_unrelaxed() && class != sc::PhysicalStorageBuffer && !self.variable_pointers() {
            return Some(
                "Instruction on logical pointers cannot be used without a variable pointers capability".into(),
            );
        }
        let diff = m.opcode(i) == op::OpPtrDiff;
        let rt = m.def_opcode(m.result_type_word(i));
        if diff && rt != Some(op::OpTypeInt) {
            return Some("Result Type must be an integer scalar".into());
        }
        if !diff && rt != Some(op::OpTypeBool) {
            return Some("Result Type must be OpTypeBool".into());
        }
        let (pa, pb) = (pointer_type(m, ta), pointer_type(m, tb));
        if pa.is_none() || pb.is_none() {
            return Some("Operand type must be a pointer".into());
        }
        let either_untyped = [pa, pb].iter().any(|p| p.is_some_and(|p| p.0 == op::OpTypeUntypedPointerKHR));
        if !diff && either_untyped {
            if pa.map(|p| p.1) != pb.map(|p| p.1) {
                return Some("Pointer storage classes must match".into());
            }
        } else if ta != tb {
            return Some("The types of Operand 1 and Operand 2 must match".into());
        }
        if self.logical {
            if class != sc::Workgroup && class != sc::StorageBuffer {
                return Some("Invalid pointer storage class".into());
            }
            if class == sc::Workgroup && !self.has(capability::VariablePointers) {
                return Some(
                    "Workgroup storage class pointer requires VariablePointers capability to be specified".into(),
                );
            }
        } else if class == sc::PhysicalStorageBuffer {
            return Some("Cannot use a pointer in the PhysicalStorageBuffer storage class".into());
        }
        None
    }

    /// Logical or PhysicalStorageBuffer64 addressing (the pointer
    /// comparison rule is not relaxed by --relax-logical-pointer).
    fn logical_rules_unrelaxed(&self) -> bool {
        matches!(self.m.addressing_model(), Some(addressing_model::Logical | addressing_model::PhysicalStorageBuffer64))
    }
}

/// The largest scalar in a type, in bytes (spirv-val's
/// `GetLargestScalarType`: a pointer counts its bit width, 64).
fn largest_scalar(m: &Module, ty: u32, depth: u32) -> u32 {
    if depth > 64 {
        return 0;
    }
    match m.def_opcode(ty) {
        Some(op::OpTypeStruct) => (2..=m.operands_len_of(ty))
            .filter_map(|w| m.def_word(ty, w))
            .map(|t| largest_scalar(m, t, depth + 1))
            .max()
            .unwrap_or(0),
        Some(op::OpTypeArray | op::OpTypeVector | op::OpTypeMatrix) => {
            largest_scalar(m, m.def_word(ty, 2).unwrap_or(0), depth + 1)
        }
        // Its bit width: its element's when that is a scalar.
        Some(op::OpTypeRuntimeArray) => {
            let element = m.def_word(ty, 2).unwrap_or(0);
            match m.def_opcode(element) {
                Some(op::OpTypeInt | op::OpTypeFloat | op::OpTypePointer | op::OpTypeUntypedPointerKHR) => {
                    largest_scalar(m, element, depth + 1)
                }
                _ => 0,
            }
        }
        Some(op::OpTypeInt | op::OpTypeFloat) => m.def_word(ty, 2).unwrap_or(0) / 8,
        Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR) => 8,
        _ => 0,
    }
}
