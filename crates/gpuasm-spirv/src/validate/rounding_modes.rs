//! FPRoundingMode in shaders (SPV_KHR_16bit_storage; spirv-val's
//! `CheckFPRoundingModeForShaders`): it decorates an OpFConvert (in Vulkan
//! rounding to even or toward zero only) whose result is only stored, as
//! the Object of an OpStore, through a pointer to a 16-bit float scalar or
//! vector in a storage class that holds 16-bit data.

use crate::grammar::{fp_rounding_mode, op, storage_class as sc};
use crate::module::Module;
use rustc_hash::FxHashMap;

const PREFIX: &str = "FPRoundingMode decoration can be applied only to";

/// Storage classes an OpStore may round into.
const STORE_CLASSES: &[u32] =
    &[sc::StorageBuffer, sc::Uniform, sc::PushConstant, sc::Input, sc::Output, sc::PhysicalStorageBuffer];

/// Uses that do not count: debug and decoration instructions, other
/// conversions.
const IGNORED_USERS: &[u16] = &[
    op::OpFConvert,
    op::OpSourceContinued,
    op::OpSource,
    op::OpSourceExtension,
    op::OpName,
    op::OpMemberName,
    op::OpString,
    op::OpLine,
    op::OpNoLine,
    op::OpModuleProcessed,
    op::OpDecorate,
    op::OpMemberDecorate,
    op::OpDecorationGroup,
    op::OpGroupDecorate,
    op::OpGroupMemberDecorate,
    op::OpDecorateId,
    op::OpDecorateString,
    op::OpMemberDecorateString,
];

/// The uses of the decorated ids, in module order: (instruction, operand).
pub(super) struct Uses(FxHashMap<u32, Vec<(usize, usize)>>);

impl Uses {
    pub fn new(m: &Module, ids: &[u32]) -> Uses {
        let mut uses: FxHashMap<u32, Vec<(usize, usize)>> = ids.iter().map(|&id| (id, Vec::new())).collect();
        for i in 0..m.insts.len() {
            let inst = &m.insts[i];
            if IGNORED_USERS.contains(&inst.opcode()) || inst.ext_set().is_some_and(|s| s.is_non_semantic()) {
                continue;
            }
            for (k, id) in m.id_operands(i) {
                if let Some(list) = uses.get_mut(&id) {
                    list.push((i, k));
                }
            }
        }
        Uses(uses)
    }

    /// What spirv-val says of FPRoundingMode `mode` on the instruction at
    /// `at`.
    pub fn problem(&self, m: &Module, at: usize, mode: u32, vulkan: bool) -> Option<String> {
        if m.opcode(at) != op::OpFConvert {
            return Some(format!("{PREFIX} a width-only conversion instruction for floating-point object."));
        }
        if vulkan && mode != fp_rounding_mode::RTE && mode != fp_rounding_mode::RTZ {
            return Some(
                "[VUID-StandaloneSpirv-FPRoundingMode-04675] In Vulkan, the FPRoundingMode mode must only by RTE or \
                 RTZ."
                    .into(),
            );
        }
        let uses = self.0.get(&m.result_id_word(at)).map_or(&[][..], |v| v.as_slice());
        uses.iter().find_map(|&(i, k)| store_problem(m, i, k))
    }
}

/// What is wrong with a use of the rounded value as operand `k` of `i`.
fn store_problem(m: &Module, i: usize, k: usize) -> Option<String> {
    if m.opcode(i) != op::OpStore || k != 1 {
        return Some(format!("{PREFIX} the Object operand of an OpStore."));
    }
    let ptr_type = m.type_of(m.word(i, 0));
    let pointee = m.def_word(ptr_type, 3).unwrap_or(0);
    let scalar = match m.def_opcode(pointee) {
        Some(op::OpTypeVector) => m.def_word(pointee, 2).unwrap_or(0),
        _ => pointee,
    };
    if m.def_opcode(scalar) != Some(op::OpTypeFloat) || m.def_word(scalar, 2) != Some(16) {
        return Some(format!(
            "{PREFIX} the Object operand of an OpStore storing through a pointer to a 16-bit floating-point scalar \
             or vector object."
        ));
    }
    (!m.def_word(ptr_type, 2).is_some_and(|c| STORE_CLASSES.contains(&c))).then(|| {
        format!(
            "{PREFIX} the Object operand of an OpStore in the StorageBuffer, PhysicalStorageBuffer, Uniform, \
             PushConstant, Input, or Output Storage Classes."
        )
    })
}
