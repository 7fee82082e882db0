//! Vulkan: explicit layout decorations (Block, BufferBlock, Offset,
//! ArrayStride, MatrixStride) only on types used in storage classes that
//! are explicitly laid out (VUID-StandaloneSpirv-None-10684), as
//! spirv-val's decoration pass checks it last.
//!
//! StorageBuffer, Uniform, PhysicalStorageBuffer and PushConstant always
//! are; Workgroup is with WorkgroupMemoryExplicitLayoutKHR; Function and
//! Private are up to SPIR-V 1.4; UniformConstant never is; other classes
//! (Input, Output, ray tracing...) are let be. A type uses an explicit
//! layout when it, a member or element, or what a pointer into a class
//! without layout points to, carries one of those decorations (on a pointer
//! into a laid-out class, the pointer's own decorations are fine).
//!
//! Variables are checked by their type (untyped ones by their data type),
//! untyped access chains by their base and result types,
//! OpUntypedArrayLengthKHR by its structure type, and loads through untyped
//! pointers by their result type.

use super::{ErrorKind, Report};
use crate::grammar::{capability, decoration as dec, op, storage_class as sc, OperandKind};
use crate::module::decorations::Applied;
use crate::module::Module;
use rustc_hash::FxHashMap;

/// The decorations that give a type an explicit layout.
const LAYOUT_DECORATIONS: &[u32] = &[dec::Block, dec::BufferBlock, dec::Offset, dec::ArrayStride, dec::MatrixStride];

struct Ctx<'a, 'w> {
    m: &'a Module<'w>,
    decs: &'a FxHashMap<u32, Vec<Applied>>,
    explicit_workgroup: bool,
    /// SPIR-V 1.4 or older: Function and Private may be laid out.
    up_to_1_4: bool,
    /// Type → the layout decoration it uses (None: none).
    cache: FxHashMap<u32, Option<u32>>,
}

pub(crate) fn check(m: &Module, vulkan: bool, r: &mut Report) {
    if !vulkan {
        return;
    }
    let (major, minor) = m.header.version_parts();
    let mut c = Ctx {
        m,
        decs: m.decorations(),
        explicit_workgroup: super::capabilities::with_implied(m)
            .contains(&capability::WorkgroupMemoryExplicitLayoutKHR),
        up_to_1_4: (major, minor) <= (1, 4),
        cache: FxHashMap::default(),
    };
    for i in 0..m.insts.len() {
        if let Some((class, id, decoration)) = c.violation(i) {
            let name = |kind: OperandKind, v: u32| kind.enumerant(v).map_or("?", |e| e.name);
            let (class, decoration) =
                (name(OperandKind::StorageClass, class), name(OperandKind::Decoration, decoration));
            let operand = r.id(id);
            r.error(
                ErrorKind::Decoration,
                i,
                format!(
                    "[VUID-StandaloneSpirv-None-10684] Invalid explicit layout decorations on type for operand \
                     {operand}, the {class} storage class has a explicit layout from the {decoration} decoration."
                ),
            );
            return;
        }
    }
}

impl Ctx<'_, '_> {
    /// spirv-val's `AllowsLayout`.
    fn allows_layout(&self, class: u32) -> bool {
        match class {
            sc::UniformConstant => false,
            sc::Workgroup => self.explicit_workgroup,
            sc::Function | sc::Private => self.up_to_1_4,
            _ => true,
        }
    }

    /// The storage class of a pointer type.
    fn class_of(&self, ptr_type: u32) -> Option<u32> {
        matches!(self.m.def_opcode(ptr_type)?, op::OpTypePointer | op::OpTypeUntypedPointerKHR)
            .then(|| self.m.def_word(ptr_type, 2))
            .flatten()
    }

    /// (storage class, operand, decoration) of instruction `i`'s violation.
    fn violation(&mut self, i: usize) -> Option<(u32, u32, u32)> {
        let m = self.m;
        let inst = &m.insts[i];
        let untyped_pointer = |id: u32| m.def_opcode(m.type_of(id)) == Some(op::OpTypeUntypedPointerKHR);
        // (storage class, types to check in order)
        let (class, types) = match inst.opcode() {
            op::OpVariable => (m.word(i, 2), vec![m.result_type_at(inst)]),
            op::OpUntypedVariableKHR => {
                let data = if m.operands(i).len() > 3 { m.word(i, 3) } else { m.result_type_at(inst) };
                (m.word(i, 2), vec![data])
            }
            op::OpUntypedAccessChainKHR
            | op::OpUntypedInBoundsAccessChainKHR
            | op::OpUntypedPtrAccessChainKHR
            | op::OpUntypedInBoundsPtrAccessChainKHR => {
                (self.class_of(m.result_type_at(inst))?, vec![m.word(i, 2), m.result_type_at(inst)])
            }
            op::OpUntypedArrayLengthKHR => (self.class_of(m.type_of(m.word(i, 3)))?, vec![m.word(i, 2)]),
            op::OpLoad if untyped_pointer(m.word(i, 2)) => {
                (self.class_of(m.type_of(m.word(i, 2)))?, vec![m.result_type_at(inst)])
            }
            // spirv-val's OpStore case reads its operands at the wrong
            // positions; it is left out.
            _ => return None,
        };
        if self.allows_layout(class) {
            return None;
        }
        types.into_iter().find_map(|t| Some((class, t, self.uses_layout(t, 0)?)))
    }

    /// spirv-val's `UsesExplicitLayout`: the layout decoration `ty` uses.
    fn uses_layout(&mut self, ty: u32, depth: u32) -> Option<u32> {
        if let Some(&known) = self.cache.get(&ty) {
            return known;
        }
        let m = self.m;
        let opcode = m.def_opcode(ty)?;
        if depth > 64
            || !matches!(
                opcode,
                op::OpTypeStruct
                    | op::OpTypeArray
                    | op::OpTypeRuntimeArray
                    | op::OpTypePointer
                    | op::OpTypeUntypedPointerKHR
            )
        {
            return None;
        }
        let pointer_class = (opcode == op::OpTypePointer).then(|| m.def_word(ty, 2)).flatten();
        let own_allowed = pointer_class.is_some_and(|c| self.allows_layout(c));
        let mut found = if own_allowed {
            None
        } else {
            let list = self.decs.get(&ty).map_or(&[][..], |v| v.as_slice());
            list.iter().map(|a| a.0).find(|d| LAYOUT_DECORATIONS.contains(d))
        };
        if found.is_none() {
            found = match opcode {
                op::OpTypeStruct => {
                    let members: Vec<u32> = (2..=m.operands_len_of(ty)).filter_map(|w| m.def_word(ty, w)).collect();
                    members.into_iter().find_map(|t| self.uses_layout(t, depth + 1))
                }
                op::OpTypeArray | op::OpTypeRuntimeArray => self.uses_layout(m.def_word(ty, 2)?, depth + 1),
                op::OpTypePointer if !own_allowed => self.uses_layout(m.def_word(ty, 3)?, depth + 1),
                _ => None,
            };
        }
        self.cache.insert(ty, found);
        found
    }
}
