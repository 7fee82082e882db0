//! Reflection: what a module asks of the API that runs it. Entry points
//! (execution model, modes, workgroup size), descriptor bindings (set,
//! binding, kind, array sizes, access, and for buffers their block layout),
//! push constants, specialisation constants, stage inputs and outputs with
//! their locations and types, and the capabilities and extensions declared.
//! The document is serialisable (`docs/reflect-json.md` gives its schema).
//!
//! ```
//! use gpuasm_spirv::module::Module;
//! let src = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n\
//!            OpExecutionMode %main LocalSize 8 4 1\nOpDecorate %S Block\nOpMemberDecorate %S 0 Offset 0\n\
//!            OpDecorate %buf DescriptorSet 1\nOpDecorate %buf Binding 2\n%void = OpTypeVoid\n\
//!            %float = OpTypeFloat 32\n%v4 = OpTypeVector %float 4\n%S = OpTypeStruct %v4\n\
//!            %ptr = OpTypePointer Uniform %S\n%buf = OpVariable %ptr Uniform\n%fn = OpTypeFunction %void\n\
//!            %main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n";
//! let words = gpuasm_spirv::text::assemble(src, &Default::default()).unwrap();
//! let r = gpuasm_spirv::reflect::reflect(&Module::read(&words).unwrap());
//! assert_eq!(r.entry_points[0].workgroup_size, Some([8, 4, 1]));
//! let buf = &r.descriptors[0];
//! assert_eq!((buf.set, buf.binding, buf.kind), (Some(1), Some(2), gpuasm_spirv::reflect::DescriptorKind::UniformBuffer));
//! assert_eq!(buf.block.as_ref().unwrap().size, 16);
//! ```

mod types;

pub use types::glsl_type;

use crate::grammar::{decoration, op, storage_class, OperandKind};
use crate::module::Module;
use rustc_hash::FxHashMap;
use serde::Serialize;
use types::{decoration_value, has_decoration, pointee, struct_size, unwrap_arrays};

/// Everything [`reflect`] finds.
#[derive(Clone, Debug, Serialize)]
pub struct Reflection {
    /// The header's SPIR-V version, `major.minor`.
    pub version: String,
    /// The source language the first `OpSource` names (`GLSL`, `HLSL`, ...).
    pub source_language: Option<&'static str>,
    /// Every `OpCapability`, in module order.
    pub capabilities: Vec<&'static str>,
    /// Every `OpExtension`, in module order.
    pub extensions: Vec<String>,
    /// Every `OpEntryPoint`, in module order.
    pub entry_points: Vec<EntryPoint>,
    /// Variables in the UniformConstant, Uniform and StorageBuffer storage
    /// classes, in module order.
    pub descriptors: Vec<Descriptor>,
    /// Variables in the PushConstant storage class.
    pub push_constants: Vec<PushConstant>,
    /// Constants with a `SpecId`.
    pub specialization_constants: Vec<SpecConstant>,
    /// Input variables that are not built-ins (nor blocks of built-ins).
    pub inputs: Vec<StageVariable>,
    /// Output variables that are not built-ins (nor blocks of built-ins).
    pub outputs: Vec<StageVariable>,
}

/// One entry point.
#[derive(Clone, Debug, Serialize)]
pub struct EntryPoint {
    /// Its name.
    pub name: String,
    /// The execution model's grammar name (`Vertex`, `GLCompute`, ...).
    pub execution_model: &'static str,
    /// The id of its function.
    pub function: u32,
    /// Its `OpExecutionMode` / `OpExecutionModeId` modes.
    pub modes: Vec<Mode>,
    /// `LocalSize` (or `LocalSizeId` with constant operands), if declared.
    pub workgroup_size: Option<[u32; 3]>,
    /// The ids of its interface variables.
    pub interface: Vec<u32>,
}

/// One execution mode.
#[derive(Clone, Debug, Serialize)]
pub struct Mode {
    /// The mode's grammar name.
    pub mode: &'static str,
    /// Its operand words (ids for `OpExecutionModeId`).
    pub operands: Vec<u32>,
}

/// What a descriptor binds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DescriptorKind {
    /// A `Block` structure in the Uniform storage class.
    UniformBuffer,
    /// A `BufferBlock` structure in Uniform, or a block in StorageBuffer.
    StorageBuffer,
    /// An `OpTypeSampledImage` (combined image and sampler).
    SampledImage,
    /// An `OpTypeImage` read through a sampler (`Sampled` 0 or 1).
    SeparateImage,
    /// An `OpTypeImage` with `Sampled` 2.
    StorageImage,
    /// An `OpTypeSampler`.
    Sampler,
    /// An `OpTypeImage` of dimension `SubpassData`.
    SubpassInput,
    /// An `OpTypeAccelerationStructureKHR`.
    AccelerationStructure,
    /// Anything else in those storage classes.
    Other,
}

/// One descriptor binding.
#[derive(Clone, Debug, Serialize)]
pub struct Descriptor {
    /// The variable's id.
    pub id: u32,
    /// The variable's `OpName`, if any.
    pub name: Option<String>,
    /// Its type's id, arrays stripped.
    pub type_id: u32,
    /// The `OpName` of its type (arrays stripped), if any.
    pub type_name: Option<String>,
    /// Its `DescriptorSet`.
    pub set: Option<u32>,
    /// Its `Binding`.
    pub binding: Option<u32>,
    /// Its `Location`, if it has one (OpenGL's uniform locations).
    pub location: Option<u32>,
    /// What it binds.
    pub kind: DescriptorKind,
    /// Its type's GLSL name (arrays stripped), for non-structures.
    pub glsl_type: Option<String>,
    /// Array lengths, outermost first (0 for a runtime array).
    pub array: Vec<u32>,
    /// `NonWritable` on the variable, or on every member of its block.
    pub readonly: bool,
    /// `NonReadable` on the variable, or on every member of its block.
    pub writeonly: bool,
    /// For buffers, the block's layout.
    pub block: Option<Block>,
    /// The entry points that list it in their interface (SPIR-V 1.4 and
    /// later list every global they use).
    pub entry_points: Vec<String>,
}

/// A buffer block's layout.
#[derive(Clone, Debug, Serialize)]
pub struct Block {
    /// The structure's id.
    pub type_id: u32,
    /// Its declared size: the last member's offset and size.
    pub size: u32,
    /// Its members, in order.
    pub members: Vec<Member>,
}

/// One member of a block.
#[derive(Clone, Debug, Serialize)]
pub struct Member {
    /// Its `OpMemberName`, if any.
    pub name: Option<String>,
    /// Its `Offset`.
    pub offset: Option<u32>,
    /// Its declared size.
    pub size: u32,
    /// Its type's GLSL name (arrays stripped), for non-structures.
    pub glsl_type: Option<String>,
    /// Array lengths, outermost first.
    pub array: Vec<u32>,
    /// The outermost array's `ArrayStride`.
    pub array_stride: Option<u32>,
    /// Its `MatrixStride`.
    pub matrix_stride: Option<u32>,
    /// For a nested structure, its layout.
    pub block: Option<Box<Block>>,
}

/// One push-constant block.
#[derive(Clone, Debug, Serialize)]
pub struct PushConstant {
    /// The variable's id.
    pub id: u32,
    /// The variable's `OpName`, if any.
    pub name: Option<String>,
    /// The `OpName` of its type, if any.
    pub type_name: Option<String>,
    /// The block's layout.
    pub block: Option<Block>,
    /// The entry points that list it in their interface.
    pub entry_points: Vec<String>,
}

/// One specialisation constant.
#[derive(Clone, Debug, Serialize)]
pub struct SpecConstant {
    /// The constant's id.
    pub id: u32,
    /// Its `SpecId`.
    pub spec_id: u32,
    /// Its `OpName`, if any.
    pub name: Option<String>,
    /// Its type's GLSL name.
    pub glsl_type: Option<String>,
    /// Its default value's words (`[1]` / `[0]` for booleans); empty for
    /// `OpSpecConstantComposite` and `OpSpecConstantOp`.
    pub default: Vec<u32>,
}

/// One stage input or output.
#[derive(Clone, Debug, Serialize)]
pub struct StageVariable {
    /// The variable's id.
    pub id: u32,
    /// Its `OpName`, if any.
    pub name: Option<String>,
    /// Its type's id, arrays stripped.
    pub type_id: u32,
    /// The `OpName` of its type (arrays stripped), if any.
    pub type_name: Option<String>,
    /// Whether that type is a `Block` structure (an interface block).
    pub is_block: bool,
    /// Its `Location`.
    pub location: Option<u32>,
    /// Its `Component`.
    pub component: Option<u32>,
    /// Its type's GLSL name (arrays stripped), for non-structures.
    pub glsl_type: Option<String>,
    /// Array lengths, outermost first.
    pub array: Vec<u32>,
    /// The entry points that list it in their interface.
    pub entry_points: Vec<String>,
}

/// The string operand starting at word `from` of instruction `i`.
fn string_at(m: &Module, i: usize, from: usize) -> String {
    let words = m.view(i).words;
    let bytes: Vec<u8> =
        words[from.min(words.len())..].iter().flat_map(|w| w.to_le_bytes()).take_while(|&b| b != 0).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Reflects a module.
pub fn reflect(m: &Module) -> Reflection {
    let (major, minor) = m.header().version_parts();
    let mut names = FxHashMap::default();
    let mut member_names = MemberNames::default();
    // Each function's entry points so far, so that a mode finds its entry
    // points without scanning them all (thousands of entry points are legal).
    let mut by_function: FxHashMap<u32, Vec<usize>> = FxHashMap::default();
    let mut r = Reflection {
        version: format!("{major}.{minor}"),
        source_language: None,
        capabilities: Vec::new(),
        extensions: Vec::new(),
        entry_points: Vec::new(),
        descriptors: Vec::new(),
        push_constants: Vec::new(),
        specialization_constants: Vec::new(),
        inputs: Vec::new(),
        outputs: Vec::new(),
    };
    // Headers first: capabilities, extensions, entry points, modes, names.
    for i in 0..m.insts().len() {
        let words = m.view(i).words;
        match m.opcode(i) {
            op::OpCapability => {
                r.capabilities.push(OperandKind::Capability.enumerant(words[1]).map_or("?", |e| e.name));
            }
            op::OpExtension => r.extensions.push(string_at(m, i, 1)),
            op::OpSource if r.source_language.is_none() => {
                r.source_language = Some(OperandKind::SourceLanguage.enumerant(words[1]).map_or("?", |e| e.name));
            }
            op::OpEntryPoint => {
                let name = string_at(m, i, 3);
                let name_words = name.len() / 4 + 1;
                by_function.entry(words[2]).or_default().push(r.entry_points.len());
                r.entry_points.push(EntryPoint {
                    execution_model: OperandKind::ExecutionModel.enumerant(words[1]).map_or("?", |e| e.name),
                    function: words[2],
                    name,
                    modes: Vec::new(),
                    workgroup_size: None,
                    interface: words.get(3 + name_words..).unwrap_or(&[]).to_vec(),
                });
            }
            op::OpExecutionMode | op::OpExecutionModeId => {
                let (target, mode, operands) = (words[1], words[2], words[3..].to_vec());
                let local = match (m.opcode(i), mode) {
                    (op::OpExecutionMode, 17) => operands.get(..3).map(|s| [s[0], s[1], s[2]]),
                    (op::OpExecutionModeId, 38) => {
                        let values: Option<Vec<u32>> = operands
                            .iter()
                            .take(3)
                            .map(|&id| m.constant_value(id).or_else(|| spec_default(m, id)))
                            .collect();
                        values.filter(|v| v.len() == 3).map(|v| [v[0], v[1], v[2]])
                    }
                    _ => None,
                };
                for &e in by_function.get(&target).map_or(&[][..], Vec::as_slice) {
                    let ep = &mut r.entry_points[e];
                    ep.modes.push(Mode {
                        mode: OperandKind::ExecutionMode.enumerant(mode).map_or("?", |e| e.name),
                        operands: operands.clone(),
                    });
                    if local.is_some() {
                        ep.workgroup_size = local;
                    }
                }
            }
            // An empty name is no name.
            op::OpName if words.len() > 2 && words[2] & 0xff != 0 => {
                names.insert(words[1], string_at(m, i, 2));
            }
            op::OpMemberName if words.len() > 3 && words[3] & 0xff != 0 => {
                member_names.insert((words[1], words[2]), string_at(m, i, 3));
            }
            op::OpFunction => break,
            _ => {}
        }
    }
    let name = |id: u32| names.get(&id).cloned();
    let listed_by = interface_users(&r.entry_points);
    let users = |id: u32| -> Vec<String> {
        listed_by.get(&id).map_or(&[][..], Vec::as_slice).iter().map(|&e| r.entry_points[e].name.clone()).collect()
    };
    let mut member_builtins = FxHashMap::default();
    let mut descriptors = Vec::new();
    let mut push_constants = Vec::new();
    let mut specs = Vec::new();
    let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
    for i in 0..m.insts().len() {
        let words = m.view(i).words;
        match m.opcode(i) {
            op::OpVariable => {
                let (id, storage) = (words[2], words[3]);
                let (base, array) = unwrap_arrays(m, pointee(m, words[1]));
                // Only descriptors and push constants show it: stage
                // variables must not pay for their structures' layout.
                let block = || (m.def_opcode(base) == Some(op::OpTypeStruct)).then(|| block_of(m, &member_names, base));
                let dec = |d| decoration_value(m, id, -1, d);
                match storage {
                    storage_class::UniformConstant | storage_class::Uniform | storage_class::StorageBuffer => {
                        let kind = descriptor_kind(m, storage, base);
                        let buffer = matches!(kind, DescriptorKind::UniformBuffer | DescriptorKind::StorageBuffer);
                        let all_members = |d| {
                            let n = m.operands_len_of(base).saturating_sub(1);
                            n > 0 && (0..n).all(|k| has_decoration(m, base, k as i64, d))
                        };
                        let access = |d| has_decoration(m, id, -1, d) || (buffer && all_members(d));
                        descriptors.push(Descriptor {
                            id,
                            name: name(id),
                            type_id: base,
                            type_name: name(base),
                            set: dec(decoration::DescriptorSet),
                            binding: dec(decoration::Binding),
                            location: dec(decoration::Location),
                            kind,
                            glsl_type: glsl_type(m, base),
                            array,
                            readonly: access(decoration::NonWritable),
                            writeonly: access(decoration::NonReadable),
                            block: if buffer { block() } else { None },
                            entry_points: users(id),
                        });
                    }
                    storage_class::PushConstant => push_constants.push(PushConstant {
                        id,
                        name: name(id),
                        type_name: name(base),
                        block: block(),
                        entry_points: users(id),
                    }),
                    storage_class::Input | storage_class::Output => {
                        let builtin = has_decoration(m, id, -1, decoration::BuiltIn)
                            || *member_builtins.entry(base).or_insert_with(|| has_builtin_member(m, base));
                        if builtin {
                            continue;
                        }
                        let v = StageVariable {
                            id,
                            name: name(id),
                            type_id: base,
                            type_name: name(base),
                            is_block: has_decoration(m, base, -1, decoration::Block),
                            location: dec(decoration::Location),
                            component: dec(decoration::Component),
                            glsl_type: glsl_type(m, base),
                            array,
                            entry_points: users(id),
                        };
                        if storage == storage_class::Input {
                            inputs.push(v)
                        } else {
                            outputs.push(v)
                        }
                    }
                    _ => {}
                }
            }
            op::OpSpecConstant
            | op::OpSpecConstantTrue
            | op::OpSpecConstantFalse
            | op::OpSpecConstantComposite
            | op::OpSpecConstantOp => {
                let id = words[2];
                if let Some(spec_id) = decoration_value(m, id, -1, decoration::SpecId) {
                    let default = match m.opcode(i) {
                        op::OpSpecConstant => words[3..].to_vec(),
                        op::OpSpecConstantTrue => vec![1],
                        op::OpSpecConstantFalse => vec![0],
                        _ => Vec::new(),
                    };
                    specs.push(SpecConstant {
                        id,
                        spec_id,
                        name: name(id),
                        glsl_type: glsl_type(m, words[1]),
                        default,
                    });
                }
            }
            op::OpFunction => break,
            _ => {}
        }
    }
    r.descriptors = descriptors;
    r.push_constants = push_constants;
    r.specialization_constants = specs;
    r.inputs = inputs;
    r.outputs = outputs;
    r
}

/// For each interface variable, the entry points (indexes, ascending,
/// each once) that list it: one pass over the interfaces instead of one
/// per variable.
fn interface_users(entry_points: &[EntryPoint]) -> FxHashMap<u32, Vec<usize>> {
    let mut users: FxHashMap<u32, Vec<usize>> = FxHashMap::default();
    for (e, ep) in entry_points.iter().enumerate() {
        for &id in &ep.interface {
            let list = users.entry(id).or_default();
            // An interface may list a variable twice; the entry point counts once.
            if list.last() != Some(&e) {
                list.push(e);
            }
        }
    }
    users
}

/// Whether a member of structure `st` is a built-in (a block of built-ins).
fn has_builtin_member(m: &Module, st: u32) -> bool {
    m.decorations().get(&st).is_some_and(|l| l.iter().any(|(d, k, _)| *d == decoration::BuiltIn && *k >= 0))
}

/// The default value of an `OpSpecConstant`.
fn spec_default(m: &Module, id: u32) -> Option<u32> {
    (m.def_opcode(id)? == op::OpSpecConstant).then(|| m.def_word(id, 3)).flatten()
}

fn descriptor_kind(m: &Module, storage: u32, base: u32) -> DescriptorKind {
    let word = |k| m.def_word(base, k).unwrap_or(0);
    let block = |d| has_decoration(m, base, -1, d);
    match (storage, m.def_opcode(base)) {
        (storage_class::StorageBuffer, _) => DescriptorKind::StorageBuffer,
        (storage_class::Uniform, Some(op::OpTypeStruct)) if block(decoration::BufferBlock) => {
            DescriptorKind::StorageBuffer
        }
        (storage_class::Uniform, Some(op::OpTypeStruct)) if block(decoration::Block) => DescriptorKind::UniformBuffer,
        (storage_class::UniformConstant, Some(op::OpTypeImage)) if word(3) == crate::grammar::dim::SubpassData => {
            DescriptorKind::SubpassInput
        }
        (storage_class::UniformConstant, Some(op::OpTypeImage)) if word(7) == 2 => DescriptorKind::StorageImage,
        (storage_class::UniformConstant, Some(op::OpTypeImage)) => DescriptorKind::SeparateImage,
        (storage_class::UniformConstant, Some(op::OpTypeSampledImage)) => DescriptorKind::SampledImage,
        (storage_class::UniformConstant, Some(op::OpTypeSampler)) => DescriptorKind::Sampler,
        (storage_class::UniformConstant, Some(op::OpTypeAccelerationStructureKHR)) => {
            DescriptorKind::AccelerationStructure
        }
        _ => DescriptorKind::Other,
    }
}

/// Each (structure, member)'s `OpMemberName`.
type MemberNames = FxHashMap<(u32, u32), String>;

/// A structure's layout from its member decorations.
fn block_of(m: &Module, member_names: &MemberNames, st: u32) -> Block {
    let n = m.operands_len_of(st).saturating_sub(1);
    let members = (0..n)
        .map(|k| {
            let ty = m.element_type(st, k).unwrap_or(0);
            let (base, array) = unwrap_arrays(m, ty);
            let nested = (m.def_opcode(base) == Some(op::OpTypeStruct) && base != st)
                .then(|| Box::new(block_of(m, member_names, base)));
            Member {
                name: member_names.get(&(st, k as u32)).cloned(),
                offset: decoration_value(m, st, k as i64, decoration::Offset),
                size: types::member_size(m, st, k),
                glsl_type: glsl_type(m, base),
                array,
                array_stride: decoration_value(m, ty, -1, decoration::ArrayStride),
                matrix_stride: decoration_value(m, st, k as i64, decoration::MatrixStride),
                block: nested,
            }
        })
        .collect();
    Block { type_id: st, size: struct_size(m, st), members }
}
