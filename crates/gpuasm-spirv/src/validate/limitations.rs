//! What an execution-model limitation says: the set of models or the
//! execution modes an instruction needs of the entry points reaching its
//! function, with spirv-val's words for it. The rule areas that know such
//! limits (`glsl`, `images`, `scopes`, `storage_models` and the
//! opcode table in `execution_limits`) describe them with these types;
//! `execution_limits` gathers them and checks each entry point's call
//! graph against them. Kept apart from `execution_limits` so that the rule
//! areas it calls need not import it back.

use crate::grammar::{execution_mode as mode, execution_model as em};
use crate::module::Module;
use rustc_hash::FxHashSet;

/// A set of execution models, as a limit names it.
#[derive(Copy, Clone)]
pub(crate) enum Models {
    /// Only these.
    Only(&'static [u32]),
    /// All but these.
    Not(&'static [u32]),
}

impl Models {
    /// Whether `model` is one of the set.
    pub(super) fn allows(self, model: u32) -> bool {
        match self {
            Models::Only(list) => list.contains(&model),
            Models::Not(list) => !list.contains(&model),
        }
    }
}

/// What an entry point's execution modes must provide.
#[derive(Copy, Clone)]
pub(crate) enum ModeNeed {
    /// GLCompute, MeshEXT and TaskEXT entry points need DerivativeGroupQuadsKHR
    /// or DerivativeGroupLinearKHR.
    DerivativeGroup,
    /// A fragment shader interlock mode.
    Interlock,
}

impl ModeNeed {
    /// Whether an entry point of these `models` with these `modes` provides it.
    pub(super) fn met(self, models: &[u32], modes: &FxHashSet<u32>) -> bool {
        match self {
            ModeNeed::DerivativeGroup => {
                !models.iter().any(|&x| matches!(x, em::GLCompute | em::MeshEXT | em::TaskEXT))
                    || modes.contains(&mode::DerivativeGroupQuadsKHR)
                    || modes.contains(&mode::DerivativeGroupLinearKHR)
            }
            ModeNeed::Interlock => INTERLOCK_MODES.iter().any(|x| modes.contains(x)),
        }
    }
}

const INTERLOCK_MODES: &[u32] = &[
    mode::PixelInterlockOrderedEXT,
    mode::PixelInterlockUnorderedEXT,
    mode::SampleInterlockOrderedEXT,
    mode::SampleInterlockUnorderedEXT,
    mode::ShadingRateInterlockOrderedEXT,
    mode::ShadingRateInterlockUnorderedEXT,
];

/// One limit an instruction puts on the entry points reaching its function,
/// with spirv-val's words for it.
pub(crate) enum Limitation {
    Model(Models, String),
    Modes(ModeNeed, String),
}

/// What the sources (the rule areas' limit functions) may look at.
pub(crate) struct Context<'a, 'w> {
    pub m: &'a Module<'w>,
    pub vulkan: bool,
}

impl Context<'_, '_> {
    /// spirv-val's `VkErrorID`: the VUID prefix, in Vulkan only.
    pub fn vuid(&self, name: &str) -> String {
        if self.vulkan {
            format!("[VUID-StandaloneSpirv-{name}] ")
        } else {
            String::new()
        }
    }
}

/// Fragment, compute, mesh and task shaders: where derivatives are defined.
pub(crate) const DERIVATIVE_MODELS: &[u32] = &[em::Fragment, em::GLCompute, em::MeshEXT, em::TaskEXT];
