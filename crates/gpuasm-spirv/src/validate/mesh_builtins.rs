//! The per-primitive built-ins of MeshEXT shaders (Vulkan's built-in
//! section, SPV_EXT_mesh_shader), as spirv-val checks them:
//! - at the definition: the primitive index arrays need their output
//!   execution mode and as many elements as OutputPrimitivesEXT; an entry
//!   point lists at most one CullPrimitiveEXT;
//! - at each use in a function a MeshEXT entry point reaches: CullPrimitiveEXT,
//!   Layer, ViewportIndex, PrimitiveId and PrimitiveShadingRateKHR are a
//!   block member or an array of bool (CullPrimitiveEXT) or int scalars,
//!   decorated PerPrimitiveEXT, and an interface array of them has as many
//!   elements as OutputPrimitivesEXT.

use crate::grammar::{built_in as bi, decoration, execution_mode as mode, execution_model as em, op, OperandKind};
use crate::module::Module;
use rustc_hash::{FxHashMap, FxHashSet};

/// The VUIDs of a per-primitive built-in: (type, array size, block array
/// size, PerPrimitiveEXT), and whether it is a bool (else an int). 0 where
/// spirv-val's table of VUIDs lacks the number (PrimitiveId's 10595–10597),
/// so that it prints none.
const PER_PRIMITIVE: &[(u32, [u32; 4], bool)] = &[
    (bi::CullPrimitiveEXT, [7036, 10589, 10590, 7038], true),
    (bi::PrimitiveId, [0, 0, 0, 7040], false),
    (bi::Layer, [10592, 10593, 10594, 7039], false),
    (bi::ViewportIndex, [10601, 10602, 10603, 7060], false),
    (bi::PrimitiveShadingRateKHR, [10598, 10599, 10600, 7059], false),
];

/// The primitive index arrays: built-in, the execution mode it needs (and
/// its VUID), the VUID of the size rule.
const INDICES: &[(u32, u32, &str, u32, u32)] = &[
    (bi::PrimitivePointIndicesEXT, mode::OutputPoints, "OutputPoints", 7042, 7046),
    (bi::PrimitiveLineIndicesEXT, mode::OutputLinesEXT, "OutputLinesEXT", 7048, 7052),
    (bi::PrimitiveTriangleIndicesEXT, mode::OutputTrianglesEXT, "OutputTrianglesEXT", 7054, 7058),
];

fn name(built_in: u32) -> &'static str {
    OperandKind::BuiltIn.enumerant(built_in).map_or("?", |e| e.name)
}

/// `[VUID-...] ` for VUID `n`, nothing for 0.
fn tag(built_in: u32, n: u32) -> String {
    if n == 0 {
        return String::new();
    }
    let name = name(built_in);
    format!("[VUID-{name}-{name}-{n:05}] ")
}

/// Entry points (by function, in the order spirv-val keeps them) with their
/// execution models, interfaces and modes.
pub(super) struct EntryPoints {
    list: Vec<u32>,
    models: FxHashMap<u32, FxHashSet<u32>>,
    /// One interface list per OpEntryPoint of the function.
    interfaces: FxHashMap<u32, Vec<Vec<u32>>>,
    modes: FxHashMap<u32, FxHashSet<u32>>,
    output_primitives: FxHashMap<u32, u32>,
    /// Entry points already given a CullPrimitiveEXT.
    cull: FxHashSet<u32>,
}

impl EntryPoints {
    pub(super) fn read(m: &Module) -> EntryPoints {
        let mut e = EntryPoints {
            list: Vec::new(),
            models: FxHashMap::default(),
            interfaces: FxHashMap::default(),
            modes: FxHashMap::default(),
            output_primitives: FxHashMap::default(),
            cull: FxHashSet::default(),
        };
        for i in 0..m.insts.len() {
            match m.opcode(i) {
                op::OpEntryPoint => {
                    let f = m.word(i, 1);
                    // First seen: not yet in `models` (a set look-up, not a
                    // scan of `list`).
                    if !e.models.contains_key(&f) {
                        e.list.push(f);
                    }
                    e.models.entry(f).or_default().insert(m.word(i, 0));
                    let listed = (3..m.operands(i).len()).map(|k| m.word(i, k)).collect();
                    e.interfaces.entry(f).or_default().push(listed);
                }
                op::OpExecutionMode | op::OpExecutionModeId => {
                    let (f, mo) = (m.word(i, 0), m.word(i, 1));
                    e.modes.entry(f).or_default().insert(mo);
                    if mo == mode::OutputPrimitivesEXT && m.operands(i).len() > 2 {
                        e.output_primitives.insert(f, m.word(i, 2));
                    }
                }
                _ => {}
            }
        }
        e
    }

    /// Whether entry point `f` declares execution mode `mode`.
    pub(super) fn has_mode(&self, f: u32, mode: u32) -> bool {
        self.modes.get(&f).is_some_and(|modes| modes.contains(&mode))
    }

    fn mesh(&self) -> impl Iterator<Item = u32> + '_ {
        self.list
            .iter()
            .copied()
            .filter(|f| self.models.get(f).is_some_and(|s| s.contains(&em::MeshEXT) || s.contains(&em::MeshNV)))
    }

    fn output_primitives(&self, f: u32) -> u32 {
        self.output_primitives.get(&f).copied().unwrap_or(0)
    }

    /// The interface variable of entry point `f` that is `target`, or (for
    /// a structure) whose type, arrays stripped, is `target`.
    fn listed(&self, m: &Module, f: u32, target: u32) -> Option<u32> {
        let is_struct = m.def_opcode(target) == Some(op::OpTypeStruct);
        let mut found = None;
        for list in self.interfaces.get(&f).into_iter().flatten() {
            let hit = list.iter().copied().find(|&v| {
                if is_struct {
                    let mut t = m.def_word(m.type_of(v), 3).unwrap_or(0);
                    while m.def_opcode(t) == Some(op::OpTypeArray) {
                        t = m.def_word(t, 2).unwrap_or(0);
                    }
                    t == target
                } else {
                    v == target
                }
            });
            found = hit.or(found);
        }
        found
    }
}

/// A decorated definition as the rules see it.
pub(super) struct Decl<'a> {
    pub at: usize,
    pub built_in: u32,
    /// The member's type, the pointee or the constant's type, or spirv-val's
    /// message when there is none.
    pub underlying: &'a Result<u32, String>,
    /// `ID <3> (OpVariable)` or `Member #0 of struct ID <6>`.
    pub desc: &'a str,
}

fn array_length(m: &Module, array: u32) -> Option<u64> {
    super::memory::constant_u64(m, m.def_word(array, 3).unwrap_or(0))
}

/// The definition-time rules, after the type rules.
pub(super) fn definition_error(m: &Module, eps: &mut EntryPoints, d: &Decl) -> Option<String> {
    let target = m.result_id_word(d.at);
    if d.built_in == bi::CullPrimitiveEXT {
        let mesh: Vec<u32> = eps.mesh().collect();
        for f in mesh {
            if eps.listed(m, f, target).is_some() && !eps.cull.insert(f) {
                let function = m.def_index(f).map_or_else(String::new, |i| {
                    format!("ID <{f}> ({})", crate::grammar::instruction(m.opcode(i)).map_or("?", |x| x.name))
                });
                return Some(format!(
                    "{}There must be only one declaration of the CullPrimitiveEXT associated in entry point's \
                     interface. {function}",
                    tag(d.built_in, 10591)
                ));
            }
        }
        return None;
    }
    let &(_, needed, mode_name, mode_vuid, size_vuid) = INDICES.iter().find(|x| x.0 == d.built_in)?;
    let underlying = *d.underlying.as_ref().ok()?;
    let dim = if m.def_opcode(underlying) == Some(op::OpTypeArray) { array_length(m, underlying)? } else { 0 };
    let name = name(d.built_in);
    for f in eps.mesh() {
        if !eps.modes.get(&f).is_some_and(|s| s.contains(&needed)) {
            return Some(format!(
                "[VUID-{name}-{name}-{mode_vuid:05}] The {name} decoration must be used with the {mode_name} \
                 Execution Mode. "
            ));
        }
        if dim != 0 && dim != u64::from(eps.output_primitives(f)) {
            return Some(format!(
                "[VUID-{name}-{name}-{size_vuid:05}] The size of the array decorated with {name} must match the \
                 value specified by OutputPrimitivesEXT. "
            ));
        }
    }
    None
}

/// Whether the built-in has the per-primitive interface rules.
pub(super) fn is_per_primitive(built_in: u32) -> bool {
    PER_PRIMITIVE.iter().any(|x| x.0 == built_in)
}

/// The per-primitive rules at a use in a function a MeshEXT entry point
/// reaches.
pub(super) fn interface_error(m: &Module, eps: &EntryPoints, d: &Decl) -> Option<String> {
    let &(built_in, [type_vuid, size_vuid, block_size_vuid, per_primitive_vuid], boolean) =
        PER_PRIMITIVE.iter().find(|x| x.0 == d.built_in)?;
    let target = m.result_id_word(d.at);
    let name = name(built_in);
    let scalar = if boolean { "TypeBool" } else { "TypeInt" };
    let type_message = |problem: &str| {
        format!(
            "{}According to the Vulkan specspec BuiltIn {name} variable needs to be a either a {scalar} or an \
             array of {scalar}. {}{problem}",
            tag(built_in, type_vuid),
            d.desc
        )
    };
    let mut ty = match d.underlying {
        Ok(t) => *t,
        Err(message) => return Some(message.clone()),
    };
    // A structure counts its members' decorations.
    let decorated = |dec: u32| m.has_decoration(target, dec);
    let mut is_block = true;
    if m.def_opcode(ty) == Some(op::OpTypeArray) {
        if array_length(m, ty).is_none() {
            return Some(type_message(" Failed to find the array length."));
        }
        ty = m.def_word(ty, 2).unwrap_or(0);
        is_block = false;
    } else if !decorated(decoration::Block) {
        return Some(type_message(" Scalar boolean must be in a Block."));
    }
    let fits = if boolean { m.def_opcode(ty) == Some(op::OpTypeBool) } else { m.def_opcode(ty) == Some(op::OpTypeInt) };
    if !fits {
        return Some(type_message(if boolean { " is not a bool scalar." } else { " is not an integer scalar." }));
    }
    if !decorated(decoration::PerPrimitiveEXT) {
        return Some(format!(
            "{}According to the Vulkan spec the variable decorated with Builtin {name} within the MeshEXT Execution \
             Model must also be decorated with the PerPrimitiveEXT decoration. ",
            tag(built_in, per_primitive_vuid)
        ));
    }
    // Entry points by id, as spirv-val's ordered map takes them.
    let mut mesh: Vec<u32> = eps.mesh().collect();
    mesh.sort_unstable();
    for f in mesh {
        let Some(var) = eps.listed(m, f, target) else { continue };
        let size = match m.def(var) {
            Some(v) if v.opcode() == op::OpVariable => match m.def(m.result_type_at(v)) {
                Some(p) if p.opcode() == op::OpTypePointer => {
                    let pointee = m.def_word(m.result_type_at(v), 3).unwrap_or(0);
                    if m.def_opcode(pointee) == Some(op::OpTypeArray) {
                        array_length(m, pointee).unwrap_or(0)
                    } else {
                        u64::MAX
                    }
                }
                _ => 0,
            },
            _ => u64::MAX,
        };
        let output = eps.output_primitives(f);
        if size != u64::from(output) {
            let vuid = if is_block { block_size_vuid } else { size_vuid };
            return Some(format!(
                "{} The size of the array decorated with {name} ({size}) must match the value specified by \
                 OutputPrimitivesEXT ({output}). ",
                tag(built_in, vuid)
            ));
        }
    }
    None
}
