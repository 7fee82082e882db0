//! Memory semantics of barriers and atomics (spirv-val's
//! `ValidateMemorySemantics`): a 32-bit integer, constant in shaders, with
//! at most one memory order; the bits that need the Vulkan memory model;
//! and, under Vulkan (the environment or the memory model), orders that
//! come with storage class bits and the reverse, no sequential consistency,
//! no ordering at Invocation scope. A compare-exchange's Unequal semantics
//! are no stronger than its Equal ones.

use crate::grammar::{capability as cap, memory_model, memory_semantics as ms, op, scope};
use crate::module::{is_constant, Module};
use rustc_hash::FxHashSet;

/// What the rules look at beyond the instruction.
pub(crate) struct Context<'a, 'w> {
    pub m: &'a Module<'w>,
    /// The environment's VUID prefixes are on.
    pub vulkan_env: bool,
    /// Declared and implied capabilities.
    pub caps: &'a FxHashSet<u32>,
}

const ORDERS: u32 = ms::Acquire | ms::Release | ms::AcquireRelease | ms::SequentiallyConsistent;
/// The storage class semantics Vulkan knows.
const STORAGE_CLASSES: u32 = ms::UniformMemory | ms::WorkgroupMemory | ms::ImageMemory | ms::OutputMemory;

/// spirv-val's `EvalInt32IfConst`: whether `id` is a 32-bit integer, and
/// its value when it is a constant.
fn int32(m: &Module, id: u32) -> (bool, Option<u32>) {
    let ty = m.type_of(id);
    let is_int32 = m.def_opcode(ty) == Some(op::OpTypeInt) && m.def_word(ty, 2) == Some(32);
    (is_int32, m.int32_constant(id))
}

fn is_atomic(opcode: u16) -> bool {
    super::atomic_opcodes::ATOMIC_SET.contains(opcode)
}

impl Context<'_, '_> {
    fn vuid(&self, name: &str) -> String {
        if self.vulkan_env {
            format!("[VUID-StandaloneSpirv-{name}] ")
        } else {
            String::new()
        }
    }

    /// The first rule broken by semantics operand `k` of instruction `i`,
    /// whose memory scope is the id `memory_scope`.
    pub fn problem(&self, i: usize, k: usize, memory_scope: u32) -> Option<String> {
        let m = self.m;
        let opcode = m.opcode(i);
        let name = &m.insts[i].info().name[2..];
        let id = m.word(i, k);
        let has = |c: u32| self.caps.contains(&c);
        let vulkan = self.vulkan_env
            || m.insts
                .iter()
                .position(|x| x.opcode() == op::OpMemoryModel)
                .is_some_and(|x| m.word(x, 1) == memory_model::Vulkan);
        let (is_int32, value) = int32(m, id);
        if !is_int32 {
            return Some(format!("{name}: expected Memory Semantics to be a 32-bit int"));
        }
        let Some(value) = value else {
            if has(cap::Shader) && !has(cap::CooperativeMatrixNV) {
                return Some("Memory Semantics ids must be OpConstant when Shader capability is present".into());
            }
            if has(cap::Shader) && !m.def_opcode(id).is_some_and(is_constant) {
                return Some(
                    "Memory Semantics must be a constant instruction when CooperativeMatrixNV capability is present"
                        .into(),
                );
            }
            return None;
        };
        if value & ms::UniformMemory != 0 && !has(cap::Shader) {
            return Some(format!("{name}: Memory Semantics UniformMemory requires capability Shader"));
        }
        if value & ms::OutputMemory != 0 && !has(cap::VulkanMemoryModel) {
            return Some(format!("{name}: Memory Semantics OutputMemoryKHR requires capability VulkanMemoryModelKHR"));
        }
        let orders = (value & ORDERS).count_ones();
        if orders > 1 {
            return Some(format!(
                "{}{name}: Memory Semantics must have at most one non-relaxed memory order bit set",
                self.vuid("MemorySemantics-10865")
            ));
        }
        if vulkan && value & ms::SequentiallyConsistent != 0 {
            return Some(format!(
                "{}{name}: Memory Semantics with SequentiallyConsistent memory order must not be used in the Vulkan \
                 API",
                self.vuid("MemorySemantics-10866")
            ));
        }
        if matches!(opcode, op::OpAtomicStore | op::OpAtomicFlagClear)
            && value & (ms::Acquire | ms::AcquireRelease) != 0
        {
            return Some(format!(
                "{}{name}: MemorySemantics must not use Acquire or AcquireRelease memory order with {name}",
                self.vuid("MemorySemantics-10867")
            ));
        }
        if opcode == op::OpAtomicLoad && value & (ms::Release | ms::AcquireRelease) != 0 {
            return Some(format!(
                "{}{name}: MemorySemantics must not use Release or AcquireRelease memory order with {name}",
                self.vuid("MemorySemantics-10868")
            ));
        }
        if vulkan && opcode == op::OpMemoryBarrier && orders == 0 {
            return Some(format!(
                "{}{name}: MemorySemantics must not use Relaxed memory order with {name}",
                self.vuid("MemorySemantics-10869")
            ));
        }
        if vulkan {
            let classes = value & STORAGE_CLASSES != 0;
            if orders > 0 && !classes {
                return Some(format!(
                    "{}{name}: Memory Semantics with a non-relaxed memory order (Acquire, Release, or \
                     AcquireRelease) must have at least one Vulkan-supported storage class semantics bit set \
                     (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory)",
                    self.vuid("MemorySemantics-10870")
                ));
            }
            if orders == 0 && classes {
                return Some(format!(
                    "{}{name}: Memory Semantics with at least one Vulkan-supported storage class semantics bit set \
                     (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory) must use a non-relaxed memory \
                     order (Acquire, Release, or AcquireRelease)",
                    self.vuid("MemorySemantics-10871")
                ));
            }
        }
        if value & ms::MakeAvailable != 0 {
            if !has(cap::VulkanMemoryModel) {
                return Some(format!(
                    "{name}: Memory Semantics MakeAvailableKHR requires capability VulkanMemoryModelKHR"
                ));
            }
            if value & (ms::Release | ms::AcquireRelease) == 0 {
                return Some(format!(
                    "{}{name}: Memory Semantics with MakeAvailable bit set must use Release or AcquireRelease \
                     memory order",
                    self.vuid("MemorySemantics-10872")
                ));
            }
        }
        if value & ms::MakeVisible != 0 {
            if !has(cap::VulkanMemoryModel) {
                return Some(format!(
                    "{name}: Memory Semantics MakeVisibleKHR requires capability VulkanMemoryModelKHR"
                ));
            }
            if value & (ms::Acquire | ms::AcquireRelease) == 0 {
                return Some(format!(
                    "{}{name}: Memory Semantics with MakeVisible bit set must use Acquire or AcquireRelease memory \
                     order",
                    self.vuid("MemorySemantics-10873")
                ));
            }
        }
        if value & ms::Volatile != 0 {
            if !has(cap::VulkanMemoryModel) {
                return Some(format!("{name}: Memory Semantics Volatile requires capability VulkanMemoryModelKHR"));
            }
            if !is_atomic(opcode) {
                return Some(format!(
                    "{}{name}: Memory Semantics with Volatile bit set must not be used with barrier instructions",
                    self.vuid("MemorySemantics-10874")
                ));
            }
        }
        if matches!(opcode, op::OpAtomicCompareExchange | op::OpAtomicCompareExchangeWeak) && k == 5 {
            if let Some(message) = self.unequal(i, value, vulkan) {
                return Some(message);
            }
        }
        if vulkan && orders > 0 && int32(m, memory_scope) == (true, Some(scope::Invocation)) {
            return Some(format!(
                "{}{name}: Vulkan specification requires Memory Semantics to be Relaxed if used with Invocation \
                 Memory Scope",
                self.vuid("None-04641")
            ));
        }
        None
    }

    /// A failed compare-exchange only reads: its Unequal semantics have no
    /// release, no stronger order and (Vulkan) no bits the Equal ones lack.
    fn unequal(&self, i: usize, value: u32, vulkan: bool) -> Option<String> {
        let m = self.m;
        let name = &m.insts[i].info().name[2..];
        if value & (ms::Release | ms::AcquireRelease) != 0 {
            return Some(format!(
                "{}{name} Unequal Memory Semantics must not use Release or AcquireRelease memory order",
                self.vuid("UnequalMemorySemantics-10875")
            ));
        }
        let equal = int32(m, m.word(i, 4)).1.unwrap_or(0);
        if (value & ms::SequentiallyConsistent != 0 && equal & ms::SequentiallyConsistent == 0)
            || (value & ms::Acquire != 0 && equal & ORDERS == 0)
        {
            return Some(format!(
                "{}{name} Unequal Memory Semantics must not use a stronger memory order than the corresponding \
                 Equal Memory Semantics",
                self.vuid("UnequalMemorySemantics-10876")
            ));
        }
        if !vulkan {
            return None;
        }
        if value & !equal & STORAGE_CLASSES != 0 {
            return Some(format!(
                "{}{name} Unequal Memory Semantics must not have any Vulkan-supported storage class semantics bit \
                 set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory) unless this bit is also set in \
                 the corresponding Equal Memory Semantics",
                self.vuid("UnequalMemorySemantics-10877")
            ));
        }
        if value & !equal & ms::MakeVisible != 0 {
            return Some(format!(
                "{}{name} Unequal Memory Semantics must not have MakeVisible bit set unless this bit is also set in \
                 the corresponding Equal Memory Semantics",
                self.vuid("UnequalMemorySemantics-10878")
            ));
        }
        ((equal ^ value) & ms::Volatile != 0).then(|| {
            format!(
                "{}{name} Unequal Memory Semantics must have Volatile bit set if and only if this bit is also set in \
                 the corresponding Equal Memory Semantics",
                self.vuid("UnequalMemorySemantics-10879")
            )
        })
    }
}
