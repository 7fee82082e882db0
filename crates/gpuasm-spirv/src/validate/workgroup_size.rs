//! An entry point's workgroup size modes (spirv-val's entry point rules):
//! LocalSize and static LocalSizeId have no zero dimension, and fit the
//! derivative group modes (quads: even X and Y; linear: a multiple of four
//! invocations); in Vulkan, the QCOM tile shading modes only in the stages
//! that have them. A WorkgroupSize built-in overrides the modes' sizes.

use crate::grammar::{built_in, capability as cap, decoration, execution_mode as em, execution_model as model, op};
use crate::module::Module;
use crate::TargetEnv;
use rustc_hash::{FxHashMap, FxHashSet};

/// The derivative group rules of a workgroup size, in spirv-val's words:
/// `what` names the size's source, `entry` the entry point.
pub(crate) fn derivative_group_error(
    vulkan: bool,
    modes: &FxHashSet<u32>,
    (x, y, z): (u64, u64, u64),
    what: &str,
    entry: &str,
) -> Option<String> {
    let vuid = |name: &str| if vulkan { format!("[VUID-StandaloneSpirv-{name}] ") } else { String::new() };
    if modes.contains(&em::DerivativeGroupQuadsKHR) && (x % 2 != 0 || y % 2 != 0) {
        return Some(format!(
            "{}{what} (X = {x}, Y = {y}) but {entry} DerivativeGroupQuadsKHR execution mode, so both dimensions \
             must be a multiple of 2",
            vuid("DerivativeGroupQuadsKHR-10151")
        ));
    }
    let product = x * y * z;
    (modes.contains(&em::DerivativeGroupLinearKHR) && product % 4 != 0).then(|| {
        format!(
            "{}{what} (X = {x}, Y = {y}, Z = {z}) but {entry} DerivativeGroupLinearKHR execution mode, so the \
             product ({product}) must be a multiple of 4",
            vuid("DerivativeGroupLinearKHR-10152")
        )
    })
}

/// The value of a (non-specialization) integer constant.
fn constant(m: &Module, id: u32) -> Option<u64> {
    match m.def_opcode(id)? {
        op::OpConstant => {
            let low = m.def_word(id, 3)? as u64;
            let high = m.def_word(id, 4).map_or(0, |h| (h as u64) << 32);
            Some(low | high)
        }
        op::OpConstantNull => Some(0),
        _ => None,
    }
}

/// Where the module's workgroup sizes come from, found once for all entry
/// points (a scan per entry point is quadratic in their number).
pub(crate) struct SizeModes {
    /// A WorkgroupSize built-in is declared (it overrides every mode).
    builtin: bool,
    /// Each function's last LocalSize or LocalSizeId mode.
    last: FxHashMap<u32, usize>,
}

impl SizeModes {
    /// Reads the module's annotations (up to its first function).
    pub(crate) fn new(m: &Module) -> SizeModes {
        let mut sizes = SizeModes { builtin: false, last: FxHashMap::default() };
        for d in 0..m.insts.len() {
            match m.opcode(d) {
                op::OpFunction => break,
                op::OpDecorate if m.operands(d).len() > 2 => {
                    sizes.builtin |= m.word(d, 1) == decoration::BuiltIn && m.word(d, 2) == built_in::WorkgroupSize;
                }
                op::OpExecutionMode | op::OpExecutionModeId
                    if matches!(m.word(d, 1), em::LocalSize | em::LocalSizeId) =>
                {
                    sizes.last.insert(m.word(d, 0), d);
                }
                _ => {}
            }
        }
        sizes
    }
}

/// The first rule entry point `i` (an OpEntryPoint, whose function has the
/// modes `modes`, the module's size modes `sizes`) breaks, with the
/// instruction to report it at.
pub(crate) fn entry_point_error(
    m: &Module,
    env: TargetEnv,
    caps: &FxHashSet<u32>,
    i: usize,
    modes: &FxHashSet<u32>,
    sizes: &SizeModes,
) -> Option<(usize, String)> {
    let vulkan = env.is_vulkan();
    let execution_model = m.word(i, 0);
    let function = m.word(i, 1);
    let has = |x: u32| modes.contains(&x);
    let tile_rate = has(em::TileShadingRateQCOM);
    let tile_read = has(em::NonCoherentTileAttachmentReadQCOM);
    if vulkan {
        let message = match execution_model {
            model::GLCompute if caps.contains(&cap::TileShadingQCOM) => {
                if tile_rate && (has(em::LocalSize) || has(em::LocalSizeId)) {
                    Some("If the TileShadingRateQCOM execution mode is used, LocalSize and LocalSizeId must not be specified.")
                } else if tile_read {
                    Some("The NonCoherentTileAttachmentQCOM execution mode must not be used in any stage other than fragment.")
                } else {
                    None
                }
            }
            model::GLCompute => tile_rate.then_some(
                "If the TileShadingRateQCOM execution mode is used, the TileShadingQCOM capability must be enabled.",
            ),
            _ if tile_rate => {
                Some("The TileShadingRateQCOM execution mode must not be used in any stage other than compute.")
            }
            model::Fragment => (tile_read && !caps.contains(&cap::TileShadingQCOM)).then_some(
                "If the NonCoherentTileAttachmentReadQCOM execution mode is used, the TileShadingQCOM capability \
                 must be enabled.",
            ),
            _ if tile_read => Some(
                "The NonCoherentTileAttachmentQCOM execution mode must not be used in any stage other than fragment.",
            ),
            _ => caps.contains(&cap::TileShadingQCOM).then_some(
                "The TileShadingQCOM capability must not be enabled in any stage other than compute or fragment.",
            ),
        };
        if let Some(message) = message {
            return Some((i, message.to_string()));
        }
    }
    // The WorkgroupSize built-in decides the size instead.
    let local_size = sizes.last.get(&function).copied();
    let at = local_size.filter(|_| !sizes.builtin)?;
    if m.operands(at).len() < 5 {
        return None;
    }
    let entry = format!("Entry Point id {function} also has an");
    if m.word(at, 1) == em::LocalSize {
        let (x, y, z) = (m.word(at, 2), m.word(at, 3), m.word(at, 4));
        // spirv-val multiplies in 32 bits.
        if x.wrapping_mul(y).wrapping_mul(z) == 0 {
            return Some((
                at,
                format!("Local Size execution mode must not have a product of zero (X = {x}, Y = {y}, Z = {z})."),
            ));
        }
        let size = (x as u64, y as u64, z as u64);
        return derivative_group_error(vulkan, modes, size, "Local Size execution mode dimensions is", &entry)
            .map(|message| (at, message));
    }
    let sizes: Vec<Option<u64>> = (2..5).map(|k| constant(m, m.word(at, k))).collect();
    let [Some(x), Some(y), Some(z)] = sizes[..] else { return None };
    if x * y * z == 0 {
        return Some((
            at,
            format!("LocalSizeId execution mode must not have a product of zero (X = {x}, Y = {y}, Z = {z})."),
        ));
    }
    derivative_group_error(vulkan, modes, (x, y, z), "LocalSizeId execution mode dimensions is", &entry)
        .map(|message| (at, message))
}
