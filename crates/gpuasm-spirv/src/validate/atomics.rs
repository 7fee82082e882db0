//! Atomic instructions (spirv-val's atomics pass), in its order: the result
//! type each opcode family takes, a pointer to it (or, for flags, to a
//! 32-bit integer; for stores, to an integer or float), 64-bit integers
//! only with Int64Atomics, storage classes the universal rules, shaders,
//! Vulkan and OpenCL allow, float atomics' capabilities, then the memory
//! scope and semantics, and the Value and Comparator types.

use super::memory_semantics;
use super::scopes;
use super::{ErrorKind, Report};
use crate::grammar::{capability as cap, op, storage_class as sc, OperandKind};
use crate::module::Module;
use crate::TargetEnv;
use rustc_hash::FxHashSet;

/// The result type an atomic family takes.
#[derive(Copy, Clone, PartialEq)]
enum Returns {
    Nothing,
    Float,
    Int,
    IntOrFloat,
    Bool,
}

/// Every atomic spirv-val's atomics pass checks, with its result.
const ATOMICS: &[(u16, Returns)] = &[
    (op::OpAtomicLoad, Returns::IntOrFloat),
    (op::OpAtomicStore, Returns::Nothing),
    (op::OpAtomicExchange, Returns::IntOrFloat),
    (op::OpAtomicFAddEXT, Returns::Float),
    (op::OpAtomicCompareExchange, Returns::Int),
    (op::OpAtomicCompareExchangeWeak, Returns::Int),
    (op::OpAtomicIIncrement, Returns::Int),
    (op::OpAtomicIDecrement, Returns::Int),
    (op::OpAtomicIAdd, Returns::Int),
    (op::OpAtomicISub, Returns::Int),
    (op::OpAtomicSMin, Returns::Int),
    (op::OpAtomicUMin, Returns::Int),
    (op::OpAtomicFMinEXT, Returns::Float),
    (op::OpAtomicSMax, Returns::Int),
    (op::OpAtomicUMax, Returns::Int),
    (op::OpAtomicFMaxEXT, Returns::Float),
    (op::OpAtomicAnd, Returns::Int),
    (op::OpAtomicOr, Returns::Int),
    (op::OpAtomicXor, Returns::Int),
    (op::OpAtomicFlagTestAndSet, Returns::Bool),
    (op::OpAtomicFlagClear, Returns::Nothing),
];

/// Storage classes atomics may use anywhere.
const UNIVERSAL_CLASSES: &[u32] = &[
    sc::Uniform,
    sc::StorageBuffer,
    sc::Workgroup,
    sc::CrossWorkgroup,
    sc::Generic,
    sc::AtomicCounter,
    sc::Image,
    sc::Function,
    sc::PhysicalStorageBuffer,
    sc::TaskPayloadWorkgroupEXT,
];

/// The storage classes of atomics in Vulkan shaders.
const VULKAN_CLASSES: &[u32] =
    &[sc::Uniform, sc::StorageBuffer, sc::Workgroup, sc::Image, sc::PhysicalStorageBuffer, sc::TaskPayloadWorkgroupEXT];

/// The capability float add (true) or min/max atomics of a width need, and
/// spirv-val's name for it in the message (it names the 32-bit add
/// capability for halves too).
fn float_capability(add: bool, width: u32) -> Option<(u32, &'static str)> {
    Some(match (add, width) {
        (true, 16) => (cap::AtomicFloat16AddEXT, "AtomicFloat32AddEXT"),
        (true, 32) => (cap::AtomicFloat32AddEXT, "AtomicFloat32AddEXT"),
        (true, 64) => (cap::AtomicFloat64AddEXT, "AtomicFloat64AddEXT"),
        (false, 16) => (cap::AtomicFloat16MinMaxEXT, "AtomicFloat16MinMaxEXT"),
        (false, 32) => (cap::AtomicFloat32MinMaxEXT, "AtomicFloat32MinMaxEXT"),
        (false, 64) => (cap::AtomicFloat64MinMaxEXT, "AtomicFloat64MinMaxEXT"),
        _ => return None,
    })
}

struct Checker<'a, 'w> {
    m: &'a Module<'w>,
    env: TargetEnv,
    caps: &'a FxHashSet<u32>,
    semantics: memory_semantics::Context<'a, 'w>,
}

impl Checker<'_, '_> {
    fn scalar(&self, ty: u32, base: u16) -> bool {
        self.m.def_opcode(ty) == Some(base)
    }

    fn width(&self, ty: u32) -> u32 {
        self.m.def_word(ty, 2).unwrap_or(0)
    }

    /// A vector of two or four 16-bit floats.
    fn half_vector(&self, ty: u32) -> bool {
        let m = self.m;
        m.def_opcode(ty) == Some(op::OpTypeVector)
            && matches!(m.def_word(ty, 3), Some(2 | 4))
            && m.def_word(ty, 2).is_some_and(|c| self.scalar(c, op::OpTypeFloat) && self.width(c) == 16)
    }

    fn type_of_operand(&self, i: usize, k: usize) -> u32 {
        if k < self.m.operands(i).len() {
            self.m.type_of(self.m.word(i, k))
        } else {
            0
        }
    }

    fn problem(&self, i: usize, returns: Returns) -> Option<String> {
        let m = self.m;
        let inst = &m.insts[i];
        let opcode = inst.opcode();
        let name = &inst.info().name[2..];
        let has = |c: u32| self.caps.contains(&c);
        let rt = m.result_type_at(inst);
        let (float, int) = (self.scalar(rt, op::OpTypeFloat), self.scalar(rt, op::OpTypeInt));
        let half_vector = has(cap::AtomicFloat16VectorNV) && self.half_vector(rt);
        let result_problem = match returns {
            Returns::Float if !half_vector && !float => Some("float scalar type"),
            Returns::Int if !int => Some("integer scalar type"),
            Returns::IntOrFloat if !(float || int || (opcode == op::OpAtomicExchange && half_vector)) => {
                Some("integer or float scalar type")
            }
            Returns::Bool if !self.scalar(rt, op::OpTypeBool) => Some("bool scalar type"),
            _ => None,
        };
        if let Some(what) = result_problem {
            return Some(format!("{name}: expected Result Type to be {what}"));
        }
        let mut k = if returns == Returns::Nothing { 0 } else { 2 };
        let pointer = self.type_of_operand(i, k);
        k += 1;
        let (data, class) = match m.def_opcode(pointer) {
            Some(op::OpTypePointer) => (m.def_word(pointer, 3).unwrap_or(0), m.def_word(pointer, 2).unwrap_or(0)),
            Some(op::OpTypeUntypedPointerKHR) => {
                let data = match opcode {
                    op::OpAtomicFlagTestAndSet | op::OpAtomicFlagClear => {
                        return Some("Untyped pointers are not supported by atomic flag instructions".into())
                    }
                    op::OpAtomicStore => self.type_of_operand(i, 3),
                    _ => rt,
                };
                (data, m.def_word(pointer, 2).unwrap_or(0))
            }
            _ => return Some(format!("{name}: expected Pointer to be a pointer type")),
        };
        if self.scalar(data, op::OpTypeInt) && self.width(data) == 64 && !has(cap::Int64Atomics) {
            return Some(format!("{name}: 64-bit atomics require the Int64Atomics capability"));
        }
        if !UNIVERSAL_CLASSES.contains(&class) {
            return Some(format!("{name}: storage class forbidden by universal validation rules."));
        }
        if has(cap::Shader) {
            if let Some(message) = self.shader_rules(i, class, rt) {
                return Some(message);
            }
        }
        if let TargetEnv::OpenCl { major, minor, embedded } = self.env {
            if ![sc::Function, sc::Workgroup, sc::CrossWorkgroup, sc::Generic].contains(&class) {
                return Some(format!(
                    "{name}: storage class must be Function, Workgroup, CrossWorkGroup or Generic in the OpenCL \
                     environment."
                ));
            }
            if (major, minor, embedded) == (1, 2, false) && class == sc::Generic {
                return Some("Storage class cannot be Generic in OpenCL 1.2 environment".into());
            }
        }
        match opcode {
            op::OpAtomicFlagTestAndSet | op::OpAtomicFlagClear
                if !(self.scalar(data, op::OpTypeInt) && self.width(data) == 32) =>
            {
                return Some(format!("{name}: expected Pointer to point to a value of 32-bit integer type"));
            }
            op::OpAtomicStore if !self.scalar(data, op::OpTypeFloat) && !self.scalar(data, op::OpTypeInt) => {
                return Some(format!("{name}: expected Pointer to be a pointer to integer or float scalar type"));
            }
            op::OpAtomicFlagTestAndSet | op::OpAtomicFlagClear | op::OpAtomicStore => {}
            _ if data != rt => {
                return Some(format!("{name}: expected Pointer to point to a value of type Result Type"));
            }
            _ => {}
        }
        // The memory scope, then the (Equal, Unequal) semantics.
        let len = m.operands(i).len();
        if k >= len {
            return None;
        }
        let scope = m.word(i, k);
        k += 1;
        if let Some(message) = scopes::memory_scope_rules(m, self.env, self.caps, i, scope) {
            return Some(message);
        }
        let semantics =
            if matches!(opcode, op::OpAtomicCompareExchange | op::OpAtomicCompareExchangeWeak) { 2 } else { 1 };
        for _ in 0..semantics {
            if k < len && m.operands(i)[k].kind == OperandKind::IdMemorySemantics {
                if let Some(message) = self.semantics.problem(i, k, scope) {
                    return Some(message);
                }
            }
            k += 1;
        }
        match opcode {
            op::OpAtomicStore => (self.type_of_operand(i, 3) != data)
                .then(|| format!("{name}: expected Value type and the type pointed to by Pointer to be the same")),
            op::OpAtomicLoad
            | op::OpAtomicIIncrement
            | op::OpAtomicIDecrement
            | op::OpAtomicFlagTestAndSet
            | op::OpAtomicFlagClear => None,
            _ => {
                if k < len && self.type_of_operand(i, k) != rt {
                    return Some(format!("{name}: expected Value to be of type Result Type"));
                }
                let compare = matches!(opcode, op::OpAtomicCompareExchange | op::OpAtomicCompareExchangeWeak);
                (compare && k + 1 < len && self.type_of_operand(i, k + 1) != rt)
                    .then(|| format!("{name}: expected Comparator to be of type Result Type"))
            }
        }
    }

    /// Storage classes in shaders, and the float atomics' capabilities.
    fn shader_rules(&self, i: usize, class: u32, rt: u32) -> Option<String> {
        let m = self.m;
        let opcode = m.opcode(i);
        let name = &m.insts[i].info().name[2..];
        let has = |c: u32| self.caps.contains(&c);
        if self.env.is_vulkan() {
            if !VULKAN_CLASSES.contains(&class) {
                return Some(format!(
                    "[VUID-StandaloneSpirv-None-04686] {name}: Vulkan spec only allows storage classes for atomic to \
                     be: Uniform, Workgroup, Image, StorageBuffer, PhysicalStorageBuffer or TaskPayloadWorkgroupEXT."
                ));
            }
        } else if class == sc::Function {
            return Some(format!("{name}: Function storage class forbidden when the Shader capability is declared."));
        }
        let add = opcode == op::OpAtomicFAddEXT;
        if !add && !matches!(opcode, op::OpAtomicFMinEXT | op::OpAtomicFMaxEXT) {
            return None;
        }
        let width = if self.half_vector(rt) { 16 } else { self.width(rt) };
        if width == 16 && self.half_vector(rt) {
            return (!has(cap::AtomicFloat16VectorNV))
                .then(|| format!("{name}: float vector atomics require the AtomicFloat16VectorNV capability"));
        }
        let (needed, needed_name) = float_capability(add, width)?;
        let what = if add { "add" } else { "min/max" };
        (!has(needed)).then(|| format!("{name}: float {what} atomics require the {needed_name} capability"))
    }
}

/// Reports the first rule each atomic instruction breaks.
pub(crate) fn check(m: &Module, env: TargetEnv, r: &mut Report) {
    let caps = super::capabilities::with_implied(m);
    let vulkan_env = env.is_vulkan();
    let checker = Checker { m, env, caps, semantics: memory_semantics::Context { m, vulkan_env, caps } };
    for i in 0..m.insts.len() {
        let opcode = m.opcode(i);
        let Some(&(_, returns)) = ATOMICS.iter().find(|a| a.0 == opcode) else { continue };
        if let Some(message) = checker.problem(i, returns) {
            r.error(ErrorKind::OperandType, i, message);
            if r.full() {
                return;
            }
        }
    }
}
