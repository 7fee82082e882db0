//! BuiltIn variables in Vulkan: each built-in's type and storage class, as
//! the Vulkan specification's built-in section and spirv-val require. (spirv-val
//! checks built-ins only for Vulkan, and so do we.)
//!
//! Covered: the compute, subgroup, vertex-index and fragment built-ins whose
//! variables have one fixed shape. Not yet: the per-vertex ones that are
//! arrayed in some stages (Position, PointSize, ClipDistance...) and the
//! checks of where a built-in is used (execution models).

use super::module::Module;
use super::{ErrorKind, Report};
use crate::grammar::{built_in as bi, decoration, op, storage_class, OperandKind};

/// The value shape a built-in needs.
#[derive(Copy, Clone)]
enum Shape {
    Bool,
    Int,
    Float,
    IntVec(u32),
    FloatVec(u32),
}

struct Rule {
    built_in: u32,
    shape: Shape,
    /// How spirv-val words the shape in its message.
    wording: &'static str,
    output: bool,
    /// Vulkan VUIDs of the storage-class and type rules.
    storage_vuid: u32,
    type_vuid: u32,
}

const fn rule(built_in: u32, shape: Shape, wording: &'static str, storage_vuid: u32, type_vuid: u32) -> Rule {
    Rule { built_in, shape, wording, output: false, storage_vuid, type_vuid }
}

const INT_VEC3: &str = "3-component 32-bit int vector";
const INT_VEC4: &str = "4-component 32-bit int vector";
const INT: &str = "32-bit int scalar";

static RULES: &[Rule] = &[
    rule(bi::GlobalInvocationId, Shape::IntVec(3), INT_VEC3, 4237, 4238),
    rule(bi::LocalInvocationId, Shape::IntVec(3), INT_VEC3, 4282, 4283),
    rule(bi::NumWorkgroups, Shape::IntVec(3), INT_VEC3, 4297, 4298),
    rule(bi::WorkgroupId, Shape::IntVec(3), INT_VEC3, 4423, 4424),
    rule(bi::LocalInvocationIndex, Shape::Int, INT, 4285, 4286),
    rule(bi::SubgroupSize, Shape::Int, "32-bit int", 4382, 4383),
    rule(bi::SubgroupLocalInvocationId, Shape::Int, "32-bit int", 4380, 4381),
    // spirv-val says "vector" for these two scalars.
    rule(bi::NumSubgroups, Shape::Int, "32-bit int vector", 4294, 4295),
    rule(bi::SubgroupId, Shape::Int, "32-bit int vector", 4368, 4369),
    rule(bi::SubgroupEqMask, Shape::IntVec(4), INT_VEC4, 4370, 4371),
    rule(bi::SubgroupGeMask, Shape::IntVec(4), INT_VEC4, 4372, 4373),
    rule(bi::SubgroupGtMask, Shape::IntVec(4), INT_VEC4, 4374, 4375),
    rule(bi::SubgroupLeMask, Shape::IntVec(4), INT_VEC4, 4376, 4377),
    rule(bi::SubgroupLtMask, Shape::IntVec(4), INT_VEC4, 4378, 4379),
    rule(bi::VertexIndex, Shape::Int, INT, 4399, 4400),
    rule(bi::InstanceIndex, Shape::Int, INT, 4264, 4265),
    rule(bi::SampleId, Shape::Int, INT, 4355, 4356),
    rule(bi::FragCoord, Shape::FloatVec(4), "4-component 32-bit float vector", 4211, 4212),
    rule(bi::PointCoord, Shape::FloatVec(2), "2-component 32-bit float vector", 4312, 4313),
    rule(bi::FrontFacing, Shape::Bool, "bool scalar", 4230, 4231),
    rule(bi::HelperInvocation, Shape::Bool, "bool scalar", 4240, 4241),
    Rule {
        built_in: bi::FragDepth,
        shape: Shape::Float,
        wording: "32-bit float scalar",
        output: true,
        storage_vuid: 4214,
        type_vuid: 4215,
    },
];

pub(crate) fn check(m: &Module, vulkan: bool, r: &mut Report) {
    if !vulkan {
        return;
    }
    // (target, member, built-in), by target id as spirv-val walks them.
    let mut decorated: Vec<(u32, Option<u32>, u32)> = Vec::new();
    for i in 0..m.insts.len() {
        match m.insts[i].opcode() {
            op::OpDecorate if m.operands(i).len() > 2 && m.word(i, 1) == decoration::BuiltIn => {
                decorated.push((m.word(i, 0), None, m.word(i, 2)));
            }
            op::OpMemberDecorate if m.operands(i).len() > 3 && m.word(i, 2) == decoration::BuiltIn => {
                decorated.push((m.word(i, 0), Some(m.word(i, 1)), m.word(i, 3)));
            }
            op::OpFunction => break,
            _ => {}
        }
    }
    decorated.sort_by_key(|d| d.0);
    duplicate_inputs(m, &decorated, r);
    for &(target, member, built_in) in &decorated {
        if built_in == bi::VertexId {
            if let Some(&at) = m.defs.get(&target) {
                r.error(ErrorKind::BuiltIn, at, "Vulkan spec doesn't allow BuiltIn VertexId to be used.");
            }
            continue;
        }
        let Some(rule) = RULES.iter().find(|rule| rule.built_in == built_in) else { continue };
        let Some(&at) = m.defs.get(&target) else { continue };
        if let Some(message) = definition_error(m, rule, target, member) {
            r.error(ErrorKind::BuiltIn, at, message);
            continue;
        }
        let def = &m.insts[at];
        if def.opcode() == op::OpVariable && member.is_none() {
            let class = m.word(at, 2);
            let wanted = if rule.output { storage_class::Output } else { storage_class::Input };
            if class != wanted {
                let name = built_in_name(built_in);
                let desc = format!("ID <{target}> (OpVariable)");
                r.error(
                    ErrorKind::BuiltIn,
                    at,
                    format!(
                        "[VUID-{name}-{name}-{:05}] Vulkan spec allows BuiltIn {name} to be only used for variables \
                         with {} storage class. {desc} is referencing {desc} which is decorated with BuiltIn {name}. \
                         {desc} uses storage class {}.",
                        rule.storage_vuid,
                        if rule.output { "Output" } else { "Input" },
                        enumerant_name(OperandKind::StorageClass, class),
                    ),
                );
            }
        }
    }
}

/// An entry point lists at most one Input variable of each built-in.
fn duplicate_inputs(m: &Module, decorated: &[(u32, Option<u32>, u32)], r: &mut Report) {
    for i in (0..m.insts.len()).filter(|&i| m.insts[i].opcode() == op::OpEntryPoint) {
        let mut seen: Vec<u32> = Vec::new();
        for k in 3..m.operands(i).len() {
            let var = m.word(i, k);
            let Some(&at) = m.defs.get(&var) else { continue };
            if m.insts[at].opcode() != op::OpVariable || m.word(at, 2) != storage_class::Input {
                continue;
            }
            for &(_, _, b) in decorated.iter().filter(|d| d.0 == var && d.1.is_none()) {
                if seen.contains(&b) {
                    r.error(
                        ErrorKind::BuiltIn,
                        at,
                        format!(
                            "[VUID-StandaloneSpirv-OpEntryPoint-09658] OpEntryPoint contains duplicate input \
                             variables with {} builtin",
                            built_in_name(b)
                        ),
                    );
                } else {
                    seen.push(b);
                }
            }
        }
    }
}

fn built_in_name(value: u32) -> &'static str {
    enumerant_name(OperandKind::BuiltIn, value)
}

fn enumerant_name(kind: OperandKind, value: u32) -> &'static str {
    kind.enumerant(value).map_or("?", |e| e.name)
}

/// What is wrong with the type of a decorated definition, in spirv-val's
/// words.
fn definition_error(m: &Module, rule: &Rule, target: u32, member: Option<u32>) -> Option<String> {
    let def = m.def(target)?;
    let opcode = def.opcode();
    let op_name = crate::grammar::instruction(opcode).map_or("?", |i| i.name);
    let desc = match member {
        Some(k) => format!("Member #{k} of struct ID <{target}>"),
        None => format!("ID <{target}> ({op_name})"),
    };
    let underlying = match member {
        Some(k) if opcode == op::OpTypeStruct => m.def_word(target, k as usize + 2)?,
        Some(_) => {
            return Some(format!("{desc}Attempted to get underlying data type via member index for non-struct type."));
        }
        None if opcode == op::OpTypeStruct => {
            return Some(format!("{desc} did not find an member index to get underlying data type for struct type."));
        }
        None if super::module::is_constant(opcode) => def.result_type,
        None => match m.def(def.result_type) {
            Some(p) if p.opcode() == op::OpTypePointer => m.def_word(def.result_type, 3)?,
            _ => {
                return Some(format!(
                    "{desc} is decorated with BuiltIn. BuiltIn decoration should only be applied to struct types, \
                     variables and constants."
                ));
            }
        },
    };
    let problem = shape_problem(m, rule.shape, underlying)?;
    let name = built_in_name(rule.built_in);
    Some(format!(
        "[VUID-{name}-{name}-{:05}] According to the Vulkan spec BuiltIn {name} variable needs to be a {}. {desc} {problem}",
        rule.type_vuid, rule.wording
    ))
}

/// How `ty` fails `shape`, or `None` if it fits.
fn shape_problem(m: &Module, shape: Shape, ty: u32) -> Option<String> {
    let opcode = m.def_opcode(ty);
    let width = |t: u32| m.def_word(t, 2).unwrap_or(0);
    let scalar = |want: u16, what: &str| -> Option<String> {
        if opcode != Some(want) {
            return Some(format!("is not {what} scalar."));
        }
        (want != op::OpTypeBool && width(ty) != 32).then(|| format!("has bit width {}.", width(ty)))
    };
    let vector = |want: u16, what: &str, n: u32| -> Option<String> {
        let component = m.def_word(ty, 2).unwrap_or(0);
        if opcode != Some(op::OpTypeVector) || m.def_opcode(component) != Some(want) {
            return Some(format!("is not {what} vector."));
        }
        let count = m.def_word(ty, 3).unwrap_or(0);
        if count != n {
            return Some(format!("has {count} components."));
        }
        (width(component) != 32).then(|| format!("has components with bit width {}.", width(component)))
    };
    match shape {
        Shape::Bool => scalar(op::OpTypeBool, "a bool"),
        Shape::Int => scalar(op::OpTypeInt, "an int"),
        Shape::Float => scalar(op::OpTypeFloat, "a float"),
        Shape::IntVec(n) => vector(op::OpTypeInt, "an int", n),
        Shape::FloatVec(n) => vector(op::OpTypeFloat, "a float", n),
    }
}
