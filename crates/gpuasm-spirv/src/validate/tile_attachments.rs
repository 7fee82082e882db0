//! Variables in the TileAttachmentQCOM storage class (SPV_QCOM_tile_shading,
//! with the TileShadingQCOM capability), in spirv-val's words: an image
//! there is 2D and sampled or storage (Sampled 1 or 2) and never queried
//! (no OpImageQuery* on a load of it); the variable has a DescriptorSet and
//! a Binding and no Component.

use crate::grammar::{decoration, dim, op};
use crate::module::Module;

/// Image queries a tile attachment must not feed.
const QUERIES: &[u16] = &[
    op::OpImageQueryFormat,
    op::OpImageQueryOrder,
    op::OpImageQuerySizeLod,
    op::OpImageQuerySize,
    op::OpImageQueryLod,
    op::OpImageQueryLevels,
    op::OpImageQuerySamples,
];

/// The first problem of TileAttachmentQCOM variable `i`; `decorated(id,
/// decoration)` says whether an id carries a decoration.
pub(super) fn problem(m: &Module, i: usize, decorated: &dyn Fn(u32, u32) -> bool) -> Option<&'static str> {
    let var = m.result_id_word(i);
    let ty = m.result_type_word(i);
    if m.def_opcode(ty) == Some(op::OpTypePointer) {
        let pointee = m.def_word(ty, 3).unwrap_or(0);
        if m.def_opcode(pointee) == Some(op::OpTypeImage) {
            if m.def_word(pointee, 3) != Some(dim::_2D) {
                return Some(
                    "Any OpTypeImage variable in the TileAttachmentQCOM Storage Class must have 2D as its dimension",
                );
            }
            if !matches!(m.def_word(pointee, 7), Some(1 | 2)) {
                return Some(
                    "Any OpyTpeImage variable in the TileAttachmentQCOM Storage Class must have 1 or 2 as Image \
                     'Sampled' parameter",
                );
            }
            if queried(m, var) {
                return Some(
                    "Any variable in the TileAttachmentQCOM Storage Class must not be consumed by an OpImageQuery* \
                     instruction",
                );
            }
        }
    }
    if !(decorated(var, decoration::DescriptorSet) && decorated(var, decoration::Binding)) {
        return Some(
            "Any variable in the TileAttachmentQCOM Storage Class must be decorated with DescriptorSet and Binding",
        );
    }
    if decorated(var, decoration::Component) {
        return Some(
            "Any variable in the TileAttachmentQCOM Storage Class must not be decorated with Component decoration",
        );
    }
    None
}

/// Whether a load of `var` is an operand of an image query.
fn queried(m: &Module, var: u32) -> bool {
    let loads: Vec<u32> = (0..m.insts.len())
        .filter(|&k| m.opcode(k) == op::OpLoad && m.word(k, 2) == var)
        .map(|k| m.result_id_word(k))
        .collect();
    !loads.is_empty()
        && (0..m.insts.len())
            .filter(|&k| QUERIES.contains(&m.opcode(k)))
            .any(|k| m.id_operands(k).any(|(_, id)| loads.contains(&id)))
}
