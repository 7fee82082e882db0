//! What the image rules (`images`, and `image_operands` for the operands
//! after the mask) read besides the module: an image type's operands
//! ([`ImageInfo`]), spirv-val's type questions ([`Types`]), the module-wide
//! facts and options they depend on ([`Context`]) and the value of an
//! integer constant. Kept apart from `images` so that `image_operands`,
//! which `images` calls, need not import it back.

use crate::grammar::{dim, op, OperandKind};
use crate::module::Module;
use crate::TargetEnv;
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::OnceCell;

/// An image type's operands (of an OpTypeImage, or of the image type an
/// OpTypeSampledImage names).
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) struct ImageInfo {
    pub sampled_type: u32,
    pub dim: u32,
    pub depth: u32,
    pub arrayed: u32,
    pub ms: u32,
    pub sampled: u32,
    pub format: u32,
    pub access: Option<u32>,
}

impl ImageInfo {
    pub fn of(m: &Module, mut ty: u32) -> Option<ImageInfo> {
        if m.def_opcode(ty) == Some(op::OpTypeSampledImage) {
            ty = m.def_word(ty, 2)?;
        }
        if m.def_opcode(ty) != Some(op::OpTypeImage) {
            return None;
        }
        let w = |k| m.def_word(ty, k);
        Some(ImageInfo {
            sampled_type: w(2)?,
            dim: w(3)?,
            depth: w(4)?,
            arrayed: w(5)?,
            ms: w(6)?,
            sampled: w(7)?,
            format: w(8)?,
            access: w(9),
        })
    }

    /// Coordinate components addressing one plane: a Cube takes a direction.
    pub fn plane_size(&self) -> u32 {
        match self.dim {
            dim::_1D | dim::Buffer => 1,
            dim::_2D | dim::Rect | dim::SubpassData | dim::TileImageDataEXT => 2,
            dim::_3D | dim::Cube => 3,
            _ => 0,
        }
    }

    /// 1D, 2D, 3D or Cube: the dimensions with levels of detail.
    pub fn mipmapped_dim(&self) -> bool {
        matches!(self.dim, dim::_1D | dim::_2D | dim::_3D | dim::Cube)
    }
}

/// Type questions in spirv-val's sense (a type's dimension and component
/// type; 0 where it has none).
pub(super) struct Types<'a, 'w>(pub &'a Module<'w>);

impl Types<'_, '_> {
    fn opcode(&self, ty: u32) -> Option<u16> {
        self.0.def_opcode(ty)
    }
    pub fn is_float(&self, ty: u32) -> bool {
        self.opcode(ty) == Some(op::OpTypeFloat)
    }
    pub fn is_int(&self, ty: u32) -> bool {
        self.opcode(ty) == Some(op::OpTypeInt)
    }
    fn vector_of(&self, ty: u32, scalar: impl Fn(u32) -> bool) -> bool {
        self.opcode(ty) == Some(op::OpTypeVector) && scalar(self.component(ty))
    }
    pub fn is_float_vector(&self, ty: u32) -> bool {
        self.vector_of(ty, |c| self.is_float(c))
    }
    pub fn is_int_vector(&self, ty: u32) -> bool {
        self.vector_of(ty, |c| self.is_int(c))
    }
    pub fn is_float_scalar_or_vector(&self, ty: u32) -> bool {
        self.is_float(ty) || self.is_float_vector(ty)
    }
    pub fn is_int_scalar_or_vector(&self, ty: u32) -> bool {
        self.is_int(ty) || self.is_int_vector(ty)
    }
    /// Components of a scalar (1), vector or matrix.
    pub fn dimension(&self, ty: u32) -> u32 {
        match self.opcode(ty) {
            Some(op::OpTypeFloat | op::OpTypeInt | op::OpTypeBool) => 1,
            Some(op::OpTypeVector | op::OpTypeMatrix) => self.0.def_word(ty, 3).unwrap_or(0),
            _ => 0,
        }
    }
    /// The scalar type of a scalar, vector or matrix (an array's element).
    pub fn component(&self, ty: u32) -> u32 {
        match self.opcode(ty) {
            Some(op::OpTypeFloat | op::OpTypeInt | op::OpTypeBool | op::OpTypePointer) => ty,
            Some(op::OpTypeMatrix) => self.component(self.0.def_word(ty, 2).unwrap_or(0)),
            Some(op::OpTypeVector | op::OpTypeArray | op::OpTypeRuntimeArray) => self.0.def_word(ty, 2).unwrap_or(0),
            _ => 0,
        }
    }
    pub fn bit_width(&self, ty: u32) -> u32 {
        let c = self.component(ty);
        match self.opcode(c) {
            Some(op::OpTypeFloat | op::OpTypeInt) => self.0.def_word(c, 2).unwrap_or(0),
            Some(op::OpTypeBool) => 1,
            _ => 0,
        }
    }
    /// A 2- or 4-component vector of 16-bit floats.
    pub fn is_half_vector_2_or_4(&self, ty: u32) -> bool {
        self.is_float_vector(ty) && matches!(self.dimension(ty), 2 | 4) && self.bit_width(ty) == 16
    }
}

/// (target, decoration) of every OpDecorate(Id) (spirv-val does not
/// register OpDecorateString's), and for each
/// OpGroupDecorate target the decorations its group has (those applied
/// to the group, through earlier groups too, in module order).
fn decorations_of(m: &Module) -> FxHashSet<(u32, u32)> {
    let mut pairs = FxHashSet::default();
    let mut groups: Vec<(u32, u32)> = Vec::new();
    for (i, inst) in m.insts.iter().enumerate() {
        match inst.opcode() {
            op::OpDecorate | op::OpDecorateId => {
                pairs.insert((m.word(i, 0), m.word(i, 1)));
            }
            op::OpGroupDecorate => groups.extend((1..m.operands(i).len()).map(|k| (m.word(i, 0), m.word(i, k)))),
            _ => {}
        }
    }
    if groups.is_empty() {
        return pairs;
    }
    // Each group's decorations as a list, kept up to date, so that applying
    // a group reads its own and not every pair of the module.
    let mut of_group: FxHashMap<u32, Vec<u32>> = groups.iter().map(|&(group, _)| (group, Vec::new())).collect();
    for &(target, dec) in &pairs {
        if let Some(list) = of_group.get_mut(&target) {
            list.push(dec);
        }
    }
    for (group, target) in groups {
        let applied = of_group.get(&group).cloned().unwrap_or_default();
        for dec in applied {
            if pairs.insert((target, dec)) {
                if let Some(list) = of_group.get_mut(&target) {
                    list.push(dec);
                }
            }
        }
    }
    pairs
}

/// Every OpSampledImage result's consumers: one walk over the operands
/// instead of one per OpSampledImage.
fn sampled_image_consumers(m: &Module) -> FxHashMap<u32, Vec<u32>> {
    let mut table: FxHashMap<u32, Vec<u32>> = (0..m.insts.len())
        .filter(|&i| m.opcode(i) == op::OpSampledImage)
        .map(|i| (m.result_id_word(i), Vec::new()))
        .collect();
    if table.is_empty() {
        return table;
    }
    for c in 0..m.insts.len() {
        for (k, o) in m.operands(c).iter().enumerate() {
            if o.kind != OperandKind::IdRef {
                continue;
            }
            if let Some(list) = table.get_mut(&m.word(c, k)) {
                // One entry per consumer, however many times it names the result.
                if list.last() != Some(&(c as u32)) {
                    list.push(c as u32);
                }
            }
        }
    }
    table
}

/// What the rules need besides the module.
pub(super) struct Context<'a, 'w> {
    pub m: &'a Module<'w>,
    pub t: Types<'a, 'w>,
    pub vulkan: bool,
    pub opencl: bool,
    /// Declared and implied capabilities.
    pub caps: FxHashSet<u32>,
    /// (target, decoration) of every OpDecorate and group decoration.
    decorations: FxHashSet<(u32, u32)>,
    /// `--before-hlsl-legalization`: OpPhi may choose images and samplers,
    /// Offset may stand anywhere.
    pub before_hlsl: bool,
    /// `--allow-offset-texture-operand` (maintenance8): Offset on any image
    /// instruction in Vulkan.
    pub offset_anywhere: bool,
    /// Where blocks start and functions end (OpLabel and OpFunctionEnd
    /// indices, in order), found on first use: a few bytes a block, where
    /// a table of every instruction's block took 4 bytes an instruction.
    boundaries: OnceCell<Vec<u32>>,
    /// Each OpSampledImage result's consumers (instructions naming it in an
    /// IdRef operand, in order), found in one walk on first use.
    consumers: OnceCell<FxHashMap<u32, Vec<u32>>>,
}

impl<'a, 'w> Context<'a, 'w> {
    /// The context of `m` in `env`, with the options the rules read.
    pub fn new(m: &'a Module<'w>, env: TargetEnv, options: &super::ValOptions) -> Self {
        Context {
            m,
            t: Types(m),
            vulkan: env.is_vulkan(),
            opencl: matches!(env, TargetEnv::OpenCl { .. }),
            caps: super::capabilities::with_implied(m).clone(),
            decorations: decorations_of(m),
            before_hlsl: options.before_hlsl_legalization,
            offset_anywhere: options.before_hlsl_legalization || options.allow_offset_texture_operand,
            boundaries: OnceCell::new(),
            consumers: OnceCell::new(),
        }
    }

    /// The index of the OpLabel of the block instruction `i` stands in
    /// (the label's own for a label), `None` outside blocks: the last
    /// label or function end at or before `i` decides.
    pub fn block_of(&self, i: usize) -> Option<usize> {
        let m = self.m;
        let boundaries = self.boundaries.get_or_init(|| {
            (0..m.insts.len())
                .filter(|&j| matches!(m.opcode(j), op::OpLabel | op::OpFunctionEnd))
                .map(|j| j as u32)
                .collect()
        });
        let before = boundaries.partition_point(|&j| j as usize <= i);
        let j = *boundaries[..before].last()? as usize;
        (m.opcode(j) == op::OpLabel).then_some(j)
    }

    /// The instructions naming the result of an OpSampledImage in an IdRef
    /// operand, in module order (spirv-val reads its def-use lists).
    pub fn consumers(&self, result: u32) -> &[u32] {
        let table = self.consumers.get_or_init(|| sampled_image_consumers(self.m));
        table.get(&result).map_or(&[], |v| v.as_slice())
    }

    pub fn has(&self, capability: u32) -> bool {
        self.caps.contains(&capability)
    }

    pub fn decorated(&self, id: u32, dec: u32) -> bool {
        self.decorations.contains(&(id, dec))
    }

    /// spirv-val's `[VUID-...]` prefix, in Vulkan only.
    pub fn vuid(&self, name: &str) -> String {
        if self.vulkan {
            format!("[VUID-StandaloneSpirv-{name}] ")
        } else {
            String::new()
        }
    }

    /// The type of operand `k` of instruction `i`.
    pub fn operand_type(&self, i: usize, k: usize) -> u32 {
        self.m.type_of(self.m.word(i, k))
    }
}

/// The value of an integer OpConstant or OpConstantNull (spirv-val's
/// `EvalConstantValUint64`; specialization constants have none).
pub(super) fn uint_constant(m: &Module, id: u32) -> Option<u64> {
    if m.def_opcode(m.type_of(id)) != Some(op::OpTypeInt) {
        return None;
    }
    match m.def_opcode(id)? {
        op::OpConstantNull => Some(0),
        op::OpConstant => {
            let low = m.def_word(id, 3)? as u64;
            Some(low | (m.def_word(id, 4).unwrap_or(0) as u64) << 32)
        }
        _ => None,
    }
}
