//! Decoration rules that need the whole module, checked after every
//! instruction has passed on its own (spirv-val's decoration pass):
//! imported variables are not initialised, entry-point interfaces carry
//! their built-ins once and their interpolation decorations in the right
//! stage, Vulkan resources have a DescriptorSet and Binding, exclusive
//! decorations are not combined, linkage matches function bodies, the Vulkan
//! memory model has no Coherent/Volatile, and the decorations that constrain
//! their target's kind (Component, Uniform, NoSignedWrap, Location,
//! RelaxedPrecision) fit it.
//!
//! Decorations reach their targets through decoration groups too, as
//! spirv-val registers them.

use super::{ErrorKind, Report};
use crate::grammar::{
    capability, decoration as d, execution_model as em, linkage_type, op, storage_class as sc, OperandKind,
};
use crate::module::decorations::Applied;
use crate::module::Module;
use rustc_hash::{FxHashMap, FxHashSet};

struct Ctx<'a, 'w> {
    m: &'a Module<'w>,
    decs: &'a FxHashMap<u32, Vec<Applied>>,
    vulkan: bool,
}

impl Ctx<'_, '_> {
    fn of(&self, id: u32) -> &[Applied] {
        self.decs.get(&id).map_or(&[], |v| v.as_slice())
    }

    fn has(&self, id: u32, dec: u32) -> bool {
        self.of(id).iter().any(|a| a.0 == dec)
    }

    /// spirv-val's `hasDecoration`: on the id, or (for a structure) on any
    /// structure nested in it.
    fn has_nested(&self, id: u32, dec: u32, depth: u32) -> bool {
        if self.has(id, dec) {
            return true;
        }
        if depth > 32 || self.m.def_opcode(id) != Some(op::OpTypeStruct) {
            return false;
        }
        (2..=self.m.operands_len_of(id))
            .filter_map(|w| self.m.def_word(id, w))
            .any(|t| self.has_nested(t, dec, depth + 1))
    }

    fn imported(&self, id: u32) -> bool {
        self.of(id)
            .iter()
            .any(|a| a.0 == d::LinkageAttributes && a.2.len() >= 2 && a.2.last() == Some(&linkage_type::Import))
    }
}

fn name(kind: OperandKind, value: u32) -> &'static str {
    kind.enumerant(value).map_or("?", |e| e.name)
}

/// One rule family; false once it has reported (spirv-val stops there).
type Step = fn(&Ctx, &mut Report) -> bool;

/// spirv-val's decoration rules in its order. `buffer_layouts` checks the
/// layout of blocks (`block_layout`), which spirv-val does with the buffer
/// rules, before the variables' bindings.
pub(crate) fn check(m: &Module, vulkan: bool, buffer_layouts: &dyn Fn(&mut Report), r: &mut Report) {
    let cx = Ctx { m, decs: m.decorations(), vulkan };
    let buffers: [Step; 3] = [imported_initialisers, entry_points, buffer_blocks];
    let rest: [Step; 5] = [resource_bindings, exclusive, function_linkage, vulkan_memory_model, from_decorations];
    for step in buffers {
        if !step(&cx, r) {
            return;
        }
    }
    buffer_layouts(r);
    if !r.errors.is_empty() {
        return;
    }
    for step in rest {
        if !step(&cx, r) {
            return;
        }
    }
}

/// SPIR-V 2.16.1: an imported variable is not initialised here.
fn imported_initialisers(cx: &Ctx, r: &mut Report) -> bool {
    let m = cx.m;
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        match inst.opcode() {
            op::OpFunction => break,
            op::OpVariable if inst.word_count == 5 && cx.imported(m.result_id_at(inst)) => {
                r.error(
                    ErrorKind::Decoration,
                    i,
                    "A module-scope OpVariable with initialization value cannot be marked with the Import Linkage Type.",
                );
                return false;
            }
            _ => {}
        }
    }
    true
}

/// The execution models each entry-point function is declared with, in
/// module order: one table, not a scan per entry point.
fn models_by_function(m: &Module) -> FxHashMap<u32, Vec<u32>> {
    let mut models: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    for i in (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpEntryPoint) {
        models.entry(m.word(i, 1)).or_default().push(m.word(i, 0));
    }
    models
}

/// Per entry point: the interfaces are variables (before SPIR-V 1.4 Input
/// or Output ones; from 1.4 global, listed once, at most one task
/// payload), built-ins at most once per direction, at most one built-in
/// block per direction, interpolation decorations where Vulkan allows
/// them, untyped Workgroup variables of shaders are blocks, no linkage on
/// the function, and Workgroup blocks only with explicit layout (aliased).
fn entry_points(cx: &Ctx, r: &mut Report) -> bool {
    let m = cx.m;
    let caps = super::capabilities::with_implied(m);
    let shader = caps.contains(&capability::Shader);
    let all_globals = m.header.version_parts() >= (1, 4);
    let models_of = models_by_function(m);
    let mut done: FxHashSet<u32> = FxHashSet::default();
    // Entry points (functions) already given a task payload.
    let mut task_payload: FxHashSet<u32> = FxHashSet::default();
    for e in (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpEntryPoint) {
        let function = m.word(e, 1);
        let fn_at = m.def_index(function).unwrap_or(e);
        let models = &models_of[&function];
        let (mut block_inputs, mut block_outputs) = (0, 0);
        let (mut workgroup, mut workgroup_blocks, mut workgroup_aliased) = (0, 0, 0);
        let (mut inputs, mut outputs): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
        let mut seen = FxHashSet::default();
        for k in 3..m.operands(e).len() {
            let var = m.word(e, k);
            let Some(at) = m.def_index(var) else { continue };
            let untyped = m.opcode(at) == op::OpUntypedVariableKHR;
            if m.opcode(at) != op::OpVariable && !untyped {
                let found = m.insts[at].info().name;
                let message = format!("Interfaces passed to OpEntryPoint must be variables. Found {found}.");
                r.error(ErrorKind::EntryPoint, at, message);
                return false;
            }
            let class = m.word(at, 2);
            if all_globals {
                if class == sc::TaskPayloadWorkgroupEXT && !task_payload.insert(function) {
                    r.error(
                        ErrorKind::EntryPoint,
                        at,
                        "There can be at most one OpVariable with storage class TaskPayloadWorkgroupEXT associated \
                         with an OpEntryPoint",
                    );
                    return false;
                }
                if class == sc::Function {
                    let message = "In SPIR-V 1.4 or later, OpEntryPoint interfaces should only list global variables";
                    r.error(ErrorKind::EntryPoint, at, message);
                    return false;
                }
                if !seen.insert(at) {
                    let t = r.id(var);
                    let message =
                        format!("In SPIR-V 1.4 or later, non-unique OpEntryPoint interface {t} is disallowed");
                    r.error(ErrorKind::EntryPoint, at, message);
                    return false;
                }
            } else if class != sc::Input && class != sc::Output {
                r.error(
                    ErrorKind::EntryPoint,
                    at,
                    format!(
                        "In SPIR-V 1.3 or earlier, OpEntryPoint interfaces must be OpVariables with Storage Class of \
                         Input(1) or Output(3). Found Storage Class {class} for Entry Point id {function}."
                    ),
                );
                return false;
            }
            // An untyped variable's pointee is its optional Data Type operand.
            let ty = if untyped {
                if m.operands(at).len() > 3 {
                    m.word(at, 3)
                } else {
                    0
                }
            } else {
                m.def_word(m.result_type_word(at), 3).unwrap_or(0)
            };
            let is_struct = m.def_opcode(ty) == Some(op::OpTypeStruct);
            let mut has_built_in = false;
            for a in cx.of(if is_struct { ty } else { var }).iter().filter(|a| a.0 == d::BuiltIn) {
                has_built_in = true;
                let Some(&b) = a.2.first() else { continue };
                if !cx.vulkan {
                    continue;
                }
                let (seen, vuid, what) = match class {
                    sc::Input => (&mut inputs, 9658, "input"),
                    sc::Output => (&mut outputs, 9659, "output"),
                    _ => continue,
                };
                if seen.contains(&b) {
                    r.error(
                        ErrorKind::Decoration,
                        at,
                        format!(
                            "[VUID-StandaloneSpirv-OpEntryPoint-{vuid:05}] OpEntryPoint contains duplicate {what} \
                             variables with {} builtin",
                            name(OperandKind::BuiltIn, b)
                        ),
                    );
                    return false;
                }
                seen.push(b);
            }
            if has_built_in {
                if cx.vulkan && cx.of(var).iter().any(|a| a.0 == d::Location || a.0 == d::Component) {
                    r.error(
                        ErrorKind::Decoration,
                        at,
                        format!(
                            "[VUID-StandaloneSpirv-Location-04915] A BuiltIn variable (id {var}) cannot have any \
                             Location or Component decorations"
                        ),
                    );
                    return false;
                }
                if is_struct {
                    if !cx.has(ty, d::Block) {
                        // The VUID only in Vulkan, as spirv-val's VkErrorID.
                        let vuid = if cx.vulkan { "[VUID-StandaloneSpirv-Location-04919] " } else { "" };
                        r.error(
                            ErrorKind::Decoration,
                            m.def_index(ty).unwrap_or(at),
                            format!(
                                "{vuid}Interface struct has no Block decoration but has BuiltIn members. Location \
                                 decorations must be used on each member of OpVariable with a structure type that is \
                                 a block not decorated with Location."
                            ),
                        );
                        return false;
                    }
                    match class {
                        sc::Input => block_inputs += 1,
                        sc::Output => block_outputs += 1,
                        _ => {}
                    }
                    if block_inputs > 1 || block_outputs > 1 {
                        break;
                    }
                }
            }
            if class == sc::Workgroup {
                workgroup += 1;
                let untyped_shader = untyped && shader;
                if is_struct {
                    if cx.has_nested(ty, d::Block, 0) {
                        workgroup_blocks += 1;
                    } else if untyped_shader {
                        r.error(
                            ErrorKind::EntryPoint,
                            at,
                            "Untyped workgroup variables in shaders must be block decorated",
                        );
                        return false;
                    }
                    if cx.has_nested(var, d::Aliased, 0) {
                        workgroup_aliased += 1;
                    }
                } else if untyped_shader && m.def_index(ty).is_some() {
                    let message = "Untyped workgroup variables in shaders must be block decorated structs";
                    r.error(ErrorKind::EntryPoint, at, message);
                    return false;
                }
            }
            if cx.vulkan {
                let has_vertex = models.contains(&em::Vertex);
                let has_fragment = models.contains(&em::Fragment);
                for a in cx.of(var) {
                    if a.1 != -1 || !matches!(a.0, d::Flat | d::NoPerspective | d::Sample | d::Centroid) {
                        continue;
                    }
                    let dec = name(OperandKind::Decoration, a.0);
                    let problem = if class == sc::Input && (models.len() > 1 || has_vertex) {
                        Some((6202, "vertex", "Input"))
                    } else if class == sc::Output && (models.len() > 1 || has_fragment) {
                        Some((6201, "fragment", "Output"))
                    } else {
                        None
                    };
                    if let Some((vuid, stage, class)) = problem {
                        r.error(
                            ErrorKind::Decoration,
                            at,
                            format!(
                                "[VUID-StandaloneSpirv-Flat-{vuid:05}] {dec} decorated variable must not be used in \
                                 {stage} execution model as an {class} storage class for Entry Point id {function}."
                            ),
                        );
                        return false;
                    }
                }
                // A fragment shader's integer inputs, and 64-bit float
                // scalars, are not interpolated: Flat says so.
                if has_fragment && class == sc::Input && !cx.has(var, d::Flat) && needs_flat(m, ty) {
                    r.error(
                        ErrorKind::Decoration,
                        at,
                        format!(
                            "[VUID-StandaloneSpirv-Flat-04744] Fragment OpEntryPoint operand {var} with Input \
                             interfaces with integer or float type must have a Flat decoration for Entry Point id \
                             {function}."
                        ),
                    );
                    return false;
                }
            }
        }
        if block_inputs > 1 || block_outputs > 1 {
            r.error(
                ErrorKind::Decoration,
                fn_at,
                format!(
                    "There must be at most one object per Storage Class that can contain a structure type containing \
                     members decorated with BuiltIn, consumed per entry-point. Entry Point id {function} does not \
                     meet this requirement."
                ),
            );
            return false;
        }
        if done.insert(function) {
            if let Some(a) = cx.of(function).iter().find(|a| a.0 == d::LinkageAttributes) {
                let bytes: Vec<u8> = a.2.iter().flat_map(|w| w.to_le_bytes()).collect();
                let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
                let linkage_name = String::from_utf8_lossy(&bytes[..end]);
                r.error(
                    ErrorKind::Decoration,
                    fn_at,
                    format!(
                        "The LinkageAttributes Decoration (Linkage name: {linkage_name}) cannot be applied to \
                         function id {function} because it is targeted by an OpEntryPoint instruction."
                    ),
                );
                return false;
            }
        }
        let explicit = caps.contains(&capability::WorkgroupMemoryExplicitLayoutKHR);
        if explicit && !caps.contains(&capability::UntypedPointersKHR) && workgroup > 0 && workgroup_blocks > 0 {
            let message = if workgroup != workgroup_blocks {
                format!(
                    "When declaring WorkgroupMemoryExplicitLayoutKHR, either all or none of the Workgroup Storage \
                     Class variables in the entry point interface must point to struct types decorated with Block \
                     (unless the UntypedPointersKHR capability is declared).  Entry point id {function} does not \
                     meet this requirement."
                )
            } else if workgroup_blocks > 1 && workgroup_blocks != workgroup_aliased {
                format!(
                    "When declaring WorkgroupMemoryExplicitLayoutKHR, if more than one Workgroup Storage Class \
                     variable in the entry point interface point to a type decorated with Block, all of them must \
                     be decorated with Aliased (unless the UntypedPointerWorkgroupKHR capability is declared). \
                     Entry point id {function} does not meet this requirement."
                )
            } else {
                continue;
            };
            r.error(ErrorKind::Decoration, fn_at, message);
            return false;
        } else if !explicit && workgroup_blocks > 0 {
            r.error(
                ErrorKind::EntryPoint,
                fn_at,
                "Workgroup Storage Class variables can't be decorated with Block unless declaring the \
                 WorkgroupMemoryExplicitLayoutKHR capability.",
            );
            return false;
        }
    }
    true
}

/// Vulkan: the structure of a PushConstant or StorageBuffer variable (or
/// an array of them) is a Block, of a Uniform one a Block or BufferBlock
/// (VUIDs 06675, 06676); StorageBuffer takes no BufferBlock.
fn buffer_blocks(cx: &Ctx, r: &mut Report) -> bool {
    if !cx.vulkan {
        return true;
    }
    let m = cx.m;
    let references = super::entry_references::EntryReferences::new(m);
    // Entry points known to use a push constant (VUID 06674: one each).
    let mut push_constant_users = rustc_hash::FxHashSet::default();
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        let untyped = inst.opcode() == op::OpUntypedVariableKHR;
        if inst.opcode() != op::OpVariable && !untyped {
            continue;
        }
        let class = m.word(i, 2);
        if class == sc::PushConstant {
            if let Some(ep) =
                references.of(m.result_id_at(inst)).into_iter().find(|&ep| !push_constant_users.insert(ep))
            {
                r.error(
                    ErrorKind::Decoration,
                    i,
                    format!(
                        "[VUID-StandaloneSpirv-OpEntryPoint-06674] Entry point id '{ep}' uses more than one \
                         PushConstant interface."
                    ),
                );
                return false;
            }
        }
        if !matches!(class, sc::Uniform | sc::PushConstant | sc::StorageBuffer) {
            continue;
        }
        // An untyped variable's data type is optional.
        let mut id = if untyped {
            if m.operands(i).len() > 3 {
                m.word(i, 3)
            } else {
                0
            }
        } else {
            m.def_word(m.result_type_at(inst), 3).unwrap_or(0)
        };
        if matches!(m.def_opcode(id), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) {
            id = m.def_word(id, 2).unwrap_or(0);
        }
        if id != 0 && m.def_opcode(id) != Some(op::OpTypeStruct) {
            continue;
        }
        let block = cx.has_nested(id, d::Block, 0);
        let buffer_block = cx.has_nested(id, d::BufferBlock, 0);
        let var = m.result_id_at(inst);
        let message = match class {
            sc::StorageBuffer if buffer_block => format!(
                "[VUID-StandaloneSpirv-PushConstant-06675] Storage buffer id '{var} In Vulkan, BufferBlock is \
                 disallowed on variables in the StorageBuffer storage class"
            ),
            sc::PushConstant if !block => {
                format!("[VUID-StandaloneSpirv-PushConstant-06675] PushConstant id '{id}' is missing Block decoration.")
            }
            sc::StorageBuffer if !block => {
                format!(
                    "[VUID-StandaloneSpirv-PushConstant-06675] StorageBuffer id '{id}' is missing Block decoration."
                )
            }
            sc::Uniform if !block && !buffer_block => format!(
                "[VUID-StandaloneSpirv-Uniform-06676] Uniform id '{id}' is missing Block or BufferBlock decoration."
            ),
            _ => continue,
        };
        r.error(ErrorKind::Decoration, m.def_index(id).unwrap_or(i), message);
        return false;
    }
    true
}

/// Vulkan: resources (UniformConstant, Uniform, StorageBuffer variables)
/// have a DescriptorSet and a Binding (VUID 06677).
fn resource_bindings(cx: &Ctx, r: &mut Report) -> bool {
    if !cx.vulkan {
        return true;
    }
    let m = cx.m;
    // Before HLSL legalization, resources no entry point uses may be unbound.
    let references = r.options.before_hlsl_legalization.then(|| super::entry_references::EntryReferences::new(m));
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        if !matches!(inst.opcode(), op::OpVariable | op::OpUntypedVariableKHR) {
            continue;
        }
        let class = m.word(i, 2);
        let class_name = match class {
            sc::Uniform => "Uniform",
            sc::UniformConstant => "UniformConstant",
            sc::StorageBuffer => "StorageBuffer",
            _ => continue,
        };
        let var = m.result_id_at(inst);
        if references.as_ref().is_some_and(|e| e.of(var).is_empty()) {
            continue;
        }
        for (dec, what) in [(d::DescriptorSet, "DescriptorSet"), (d::Binding, "Binding")] {
            if !cx.has(var, dec) {
                r.error(
                    ErrorKind::Decoration,
                    i,
                    format!(
                        "[VUID-StandaloneSpirv-UniformConstant-06677] {class_name} id '{var}' is missing {what} \
                         decoration."
                    ),
                );
                return false;
            }
        }
    }
    true
}

/// Decorations that exclude each other on one id (on one member: RowMajor
/// and ColMajor).
const EXCLUSIVE: &[(u32, u32)] =
    &[(d::Block, d::BufferBlock), (d::Restrict, d::Aliased), (d::RestrictPointer, d::AliasedPointer)];

fn exclusive(cx: &Ctx, r: &mut Report) -> bool {
    let m = cx.m;
    let mut seen: FxHashSet<(u32, i64, u32)> = FxHashSet::default();
    for i in 0..m.insts.len() {
        let (id, member, dec) = match m.opcode(i) {
            op::OpDecorate if m.operands(i).len() > 1 => (m.word(i, 0), -1, m.word(i, 1)),
            op::OpMemberDecorate if m.operands(i).len() > 2 => (m.word(i, 0), i64::from(m.word(i, 1)), m.word(i, 2)),
            op::OpFunction => break,
            _ => continue,
        };
        // spirv-val's CheckDecorationsCompatibility: the same decoration
        // twice (only through OpDecorate and OpMemberDecorate), then pairs
        // that exclude each other, instruction by instruction.
        let repeatable = dec == d::UserSemantic || (member == -1 && dec == d::FuncParamAttr);
        if !seen.insert((id, member, dec)) && !repeatable {
            let at = m.def_index(id).unwrap_or(i);
            let what = if member == -1 { String::new() } else { format!(", member '{member}'") };
            let name = name(OperandKind::Decoration, dec);
            r.error(
                ErrorKind::Decoration,
                at,
                format!("ID '{id}'{what} decorated with {name} multiple times is not allowed."),
            );
            return false;
        }
        let pairs: &[(u32, u32)] = if member == -1 { EXCLUSIVE } else { &[(d::RowMajor, d::ColMajor)] };
        let other = pairs.iter().find_map(|&(a, b)| {
            if a == dec {
                Some(b)
            } else if b == dec {
                Some(a)
            } else {
                None
            }
        });
        if let Some(other) = other {
            if seen.contains(&(id, member, other)) {
                let at = m.def_index(id).unwrap_or(i);
                let what = if member == -1 { String::new() } else { format!(", member '{member}'") };
                r.error(
                    ErrorKind::Decoration,
                    at,
                    format!(
                        "ID '{id}'{what} decorated with both {} and {} is not allowed.",
                        name(OperandKind::Decoration, dec),
                        name(OperandKind::Decoration, other)
                    ),
                );
                return false;
            }
        }
    }
    true
}

/// A function declaration is imported; a definition is not.
fn function_linkage(cx: &Ctx, r: &mut Report) -> bool {
    let m = cx.m;
    for i in (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpFunction) {
        let id = m.result_id_word(i);
        let has_body = m.insts[i + 1..]
            .iter()
            .map(|inst| inst.opcode())
            .find(|&o| o == op::OpLabel || o == op::OpFunctionEnd)
            .is_some_and(|o| o == op::OpLabel);
        let imported = cx.imported(id);
        let message = if !has_body && !imported {
            format!(
                "Function declaration (id {id}) must have a LinkageAttributes decoration with the Import Linkage type."
            )
        } else if has_body && imported {
            format!("Function definition (id {id}) may not be decorated with Import Linkage type.")
        } else {
            continue;
        };
        r.error(ErrorKind::Decoration, i, message);
        return false;
    }
    true
}

/// The Vulkan memory model replaces Coherent and Volatile.
fn vulkan_memory_model(cx: &Ctx, r: &mut Report) -> bool {
    let m = cx.m;
    let Some(mm) = m.insts.iter().position(|i| i.opcode() == op::OpMemoryModel) else { return true };
    if m.word(mm, 1) != crate::grammar::memory_model::Vulkan {
        return true;
    }
    let mut ids: Vec<u32> = cx.decs.keys().copied().filter(|id| m.defs.contains_key(id)).collect();
    ids.sort_unstable_by_key(|id| m.defs.at(*id));
    for id in ids {
        for a in cx.of(id) {
            if a.0 == d::Coherent || a.0 == d::Volatile {
                let what = if a.1 == -1 { String::new() } else { format!(" (member index {})", a.1) };
                let t = r.id(id);
                r.error(
                    ErrorKind::Decoration,
                    m.defs.at(id),
                    format!(
                        "{} decoration targeting {t}{what} is banned when using the Vulkan memory model.",
                        name(OperandKind::Decoration, a.0)
                    ),
                );
                return false;
            }
        }
    }
    true
}

/// The pointer types NonWritable and NonReadable may decorate memory of:
/// those of Uniform Block and storage-buffer variables (as spirv-val
/// registers them from the variables), and UniformConstant pointers to
/// storage images or tensors (optionally arrayed).
fn writable_pointers(cx: &Ctx) -> FxHashSet<u32> {
    let m = cx.m;
    let mut set = FxHashSet::default();
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        match inst.opcode() {
            op::OpVariable => {
                let class = m.word(i, 2);
                let mut id = m.def_word(m.result_type_at(inst), 3).unwrap_or(0);
                if matches!(m.def_opcode(id), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) {
                    id = m.def_word(id, 2).unwrap_or(0);
                }
                if m.def_opcode(id) != Some(op::OpTypeStruct) {
                    continue;
                }
                let (block, buffer_block) = (cx.has(id, d::Block), cx.has(id, d::BufferBlock));
                let registered = match class {
                    sc::Uniform => block || buffer_block,
                    sc::StorageBuffer | sc::PhysicalStorageBuffer => block,
                    _ => false,
                };
                if registered {
                    set.insert(m.result_type_at(inst));
                }
            }
            op::OpTypePointer if m.word(i, 1) == sc::UniformConstant => {
                let mut ty = m.word(i, 2);
                if matches!(m.def_opcode(ty), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) {
                    ty = m.def_word(ty, 2).unwrap_or(0);
                }
                let storage_image = m.def_opcode(ty) == Some(op::OpTypeImage) && m.def_word(ty, 7) == Some(2);
                if storage_image || m.def_opcode(ty) == Some(op::OpTypeTensorARM) {
                    set.insert(m.result_id_at(inst));
                }
            }
            op::OpFunction => break,
            _ => {}
        }
    }
    set
}

/// NonWritable and NonReadable decorate memory that can be written or read
/// (spirv-val's CheckNonReadableWritableDecorations).
fn access_problem(cx: &Ctx, writable: &FxHashSet<u32>, at: usize, dec: u32) -> Option<String> {
    let m = cx.m;
    let inst = &m.insts[at];
    let dec_name = name(OperandKind::Decoration, dec);
    let opcode = inst.opcode();
    if !matches!(opcode, op::OpVariable | op::OpUntypedVariableKHR | op::OpFunctionParameter | op::OpRawAccessChainNV) {
        return Some(format!(
            "Target of {dec_name} decoration must be a memory object declaration (a variable or a function parameter)"
        ));
    }
    // spirv-val reads an untyped variable's class from its data type operand.
    let class = match opcode {
        op::OpVariable => Some(m.word(at, 2)),
        op::OpUntypedVariableKHR if m.operands(at).len() > 3 => Some(m.word(at, 3)),
        _ => None,
    };
    let relaxed = m.header.version_parts() >= (1, 4) && dec == d::NonWritable;
    if relaxed && matches!(class, Some(sc::Function | sc::Private)) {
        return None;
    }
    if class == Some(sc::TileAttachmentQCOM)
        || writable.contains(&m.result_type_at(inst))
        || opcode == op::OpRawAccessChainNV
    {
        return None;
    }
    let tail =
        if relaxed { "storage buffer, or variable in Private or Function storage class" } else { "or storage buffer" };
    Some(format!(
        "Target of {dec_name} decoration is invalid: must point to a storage image, tensor variable in \
         UniformConstant storage class, uniform block, {tail}"
    ))
}

/// Rules read from the decoration to its target, by target id.
fn from_decorations(cx: &Ctx, r: &mut Report) -> bool {
    let m = cx.m;
    let writable = writable_pointers(cx);
    let shader = super::capabilities::with_implied(m).contains(&crate::grammar::capability::Shader);
    let rounded: Vec<u32> =
        cx.decs.iter().filter(|(_, list)| list.iter().any(|a| a.0 == d::FPRoundingMode)).map(|(&id, _)| id).collect();
    let rounding = (shader && !rounded.is_empty()).then(|| super::rounding_modes::Uses::new(m, &rounded));
    let mut ids: Vec<u32> = cx.decs.keys().copied().filter(|id| m.defs.contains_key(id)).collect();
    ids.sort_unstable();
    for id in ids {
        let at = m.defs.at(id);
        let inst = &m.insts[at];
        if inst.opcode() == op::OpDecorationGroup {
            continue;
        }
        for a in cx.of(id) {
            let message = match a.0 {
                d::Component => component_problem(cx, r, at, a),
                d::FPRoundingMode => {
                    rounding.as_ref().and_then(|u| u.problem(m, at, a.2.first().copied().unwrap_or(0), cx.vulkan))
                }
                d::NonWritable | d::NonReadable if a.1 == -1 => access_problem(cx, &writable, at, a.0),
                d::Uniform | d::UniformId => {
                    let dec = name(OperandKind::Decoration, a.0);
                    if m.result_type_at(inst) == 0 {
                        Some(format!("{dec} decoration applied to a non-object"))
                    } else if m.def_opcode(m.result_type_at(inst)) == Some(op::OpTypeVoid) {
                        Some(format!("{dec} decoration applied to a value with void type"))
                    } else if a.0 == d::UniformId {
                        a.2.first().and_then(|&scope| super::scopes::uniform_id_scope(m, cx.vulkan, at, scope))
                    } else {
                        None
                    }
                }
                d::NoSignedWrap | d::NoUnsignedWrap => {
                    let allowed = matches!(
                        inst.opcode(),
                        op::OpIAdd
                            | op::OpISub
                            | op::OpIMul
                            | op::OpShiftLeftLogical
                            | op::OpSNegate
                            | op::OpExtInst
                            | op::OpExtInstWithForwardRefsKHR
                    );
                    (!allowed).then(|| {
                        format!(
                            "{} decoration may not be applied to {}",
                            name(OperandKind::Decoration, a.0),
                            inst.info().name.trim_start_matches("Op")
                        )
                    })
                }
                d::Block | d::BufferBlock if inst.opcode() != op::OpTypeStruct => {
                    Some(format!("{} decoration on a non-struct type.", name(OperandKind::Decoration, a.0)))
                }
                d::Location if inst.opcode() != op::OpVariable && !(a.1 != -1 && inst.opcode() == op::OpTypeStruct) => {
                    Some("Location decoration can only be applied to a variable or member of a structure type".into())
                }
                d::RelaxedPrecision
                    if super::peer_opcodes::generates_type(inst.opcode())
                        && !(a.1 != -1 && inst.opcode() == op::OpTypeStruct) =>
                {
                    Some("RelaxPrecision decoration cannot be applied to a type".into())
                }
                _ => None,
            };
            if let Some(message) = message {
                r.error(ErrorKind::Decoration, at, message);
                return false;
            }
        }
    }
    true
}

/// The Component decoration: on an Input or Output memory object (or a
/// member), and in Vulkan within the four 32-bit components of a location.
fn component_problem(cx: &Ctx, r: &mut Report, at: usize, a: &Applied) -> Option<String> {
    let m = cx.m;
    let inst = &m.insts[at];
    let mut ty = if a.1 == -1 {
        if !matches!(inst.opcode(), op::OpVariable | op::OpFunctionParameter) {
            return Some(
                "Target of Component decoration must be a memory object declaration (a variable or a function \
                 parameter)"
                    .into(),
            );
        }
        if inst.opcode() == op::OpVariable {
            let class = m.word(at, 2);
            if class != sc::Input && class != sc::Output {
                return Some(format!(
                    "Target of Component decoration is invalid: must point to a Storage Class of Input(1) or \
                     Output(3). Found Storage Class {class}"
                ));
            }
        }
        let t = m.result_type_at(inst);
        if m.def_opcode(t) == Some(op::OpTypePointer) {
            m.def_word(t, 3).unwrap_or(0)
        } else {
            t
        }
    } else {
        if inst.opcode() != op::OpTypeStruct {
            return Some("Attempted to get underlying data type via member index for non-struct type.".into());
        }
        m.def_word(m.result_id_at(inst), a.1 as usize + 2).unwrap_or(0)
    };
    if !cx.vulkan {
        return None;
    }
    let mut depth = 0;
    while m.def_opcode(ty) == Some(op::OpTypeArray) && depth < 32 {
        ty = m.def_word(ty, 2).unwrap_or(0);
        depth += 1;
    }
    let (scalar, dimension) = match m.def_opcode(ty) {
        Some(op::OpTypeVector) => (m.def_word(ty, 2).unwrap_or(0), m.def_word(ty, 3).unwrap_or(0)),
        _ => (ty, 1),
    };
    if !matches!(m.def_opcode(scalar), Some(op::OpTypeInt | op::OpTypeFloat)) {
        let t = r.id(ty);
        return Some(format!(
            "[VUID-StandaloneSpirv-Component-10583] Component decoration specified for type {t} that is not a \
             scalar or vector"
        ));
    }
    let component = a.2.first().copied().unwrap_or(0);
    if component > 3 {
        return Some(
            "[VUID-StandaloneSpirv-Component-04920] Component decoration value must not be greater than 3".into(),
        );
    }
    let width = m.def_word(scalar, 2).unwrap_or(0);
    match width {
        16 | 32 if component + dimension > 4 => Some(format!(
            "[VUID-StandaloneSpirv-Component-04921] Sequence of components starting with {component} and ending \
             with {} gets larger than 3",
            component + dimension - 1
        )),
        64 if dimension > 2 => Some(
            "[VUID-StandaloneSpirv-Component-07703] Component decoration only allowed on 64-bit scalar and \
             2-component vector"
                .into(),
        ),
        64 if component == 1 || component == 3 => Some(
            "[VUID-StandaloneSpirv-Component-04923] Component decoration value must not be 1 or 3 for 64-bit data \
             types"
                .into(),
        ),
        64 if component + 2 * dimension > 4 => Some(format!(
            "[VUID-StandaloneSpirv-Component-04922] Sequence of components starting with {component} and ending \
             with {} gets larger than 3",
            component + 2 * dimension - 1
        )),
        _ => None,
    }
}

/// Whether a fragment input of type `ty` must be Flat (VUID 04744): an
/// integer scalar or vector, or a 64-bit float scalar (spirv-val's test,
/// which leaves vectors of doubles out).
fn needs_flat(m: &Module, ty: u32) -> bool {
    match m.def_opcode(ty) {
        Some(op::OpTypeInt) => true,
        Some(op::OpTypeFloat) => m.def_word(ty, 2) == Some(64),
        Some(op::OpTypeVector) => m.def_word(ty, 2).and_then(|c| m.def_opcode(c)) == Some(op::OpTypeInt),
        _ => false,
    }
}
