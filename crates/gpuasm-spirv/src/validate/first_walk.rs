//! What spirv-val checks in its first walk over the instructions outside
//! its passes, and right after that walk: an OpFunctionCall only inside a
//! function (checked before the instruction's ids); the
//! OpSamplerImageAddressingModeNV that BindlessTextureNV needs (its checks
//! at the instruction come after the block checks); then, at the end, a
//! graph left open, that mode missing, and mesh and task models of both
//! kinds in one module.

use super::{ErrorKind, Report};
use crate::grammar::{capability, execution_model as model, op};
use crate::module::Module;

/// OpFunctionCall outside a function (between OpFunction and
/// OpFunctionEnd): spirv-val's first check at an instruction.
pub(crate) fn check_calls(m: &Module, r: &mut Report) {
    let mut in_function = false;
    for i in 0..m.insts.len() {
        match m.opcode(i) {
            op::OpFunction => in_function = true,
            op::OpFunctionEnd => in_function = false,
            op::OpFunctionCall if !in_function => {
                r.error(ErrorKind::Layout, i, "A FunctionCall must happen within a function body.");
                return;
            }
            _ => {}
        }
    }
}

/// The sampler-image addressing mode at its instruction, then the checks
/// at the end of the walk.
pub(crate) fn check(m: &Module, vulkan: bool, r: &mut Report) {
    let bindless = super::capabilities::with_implied(m).contains(&capability::BindlessTextureNV);
    // Whether BindlessTextureNV is declared before the instruction at hand:
    // spirv-val registers capabilities as it meets them.
    let mut bindless_so_far = false;
    let mut addressing_mode = None;
    let mut graph_open = false;
    let (mut nv, mut ext) = (false, false);
    for i in 0..m.insts.len() {
        match m.opcode(i) {
            op::OpEntryPoint => match m.word(i, 0) {
                model::TaskNV | model::MeshNV => nv = true,
                model::TaskEXT | model::MeshEXT => ext = true,
                _ => {}
            },
            op::OpCapability | op::OpConditionalCapabilityINTEL => {
                let operand = usize::from(m.opcode(i) == op::OpConditionalCapabilityINTEL);
                bindless_so_far |= m.word(i, operand) == capability::BindlessTextureNV;
            }
            op::OpGraphARM => graph_open = true,
            op::OpGraphEndARM => graph_open = false,
            op::OpSamplerImageAddressingModeNV => {
                let message = if !bindless_so_far {
                    "OpSamplerImageAddressingModeNV supported only with extension SPV_NV_bindless_texture"
                } else if addressing_mode.is_some() {
                    "OpSamplerImageAddressingModeNV should only be provided once"
                } else if !matches!(m.word(i, 0), 32 | 64) {
                    "OpSamplerImageAddressingModeNV bitwidth should be 64 or 32"
                } else {
                    addressing_mode = Some(i);
                    continue;
                };
                r.error(ErrorKind::Layout, i, message);
                return;
            }
            _ => {}
        }
    }
    if graph_open {
        r.module_error(ErrorKind::Layout, "Missing OpGraphEndARM at end of module.");
    } else if bindless && addressing_mode.is_none() {
        r.module_error(ErrorKind::Layout, "Missing required OpSamplerImageAddressingModeNV instruction.");
    } else if nv && ext {
        let vuid = if vulkan { "[VUID-StandaloneSpirv-MeshEXT-07102] " } else { "" };
        r.module_error(
            ErrorKind::EntryPoint,
            format!("{vuid}Module can't mix MeshEXT/TaskEXT with MeshNV/TaskNV Execution Model."),
        );
    }
}
