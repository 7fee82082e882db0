//! BuiltIn variables: each built-in's type, storage class and the execution
//! models that may use it, as the Vulkan specification's built-in section
//! and spirv-val require (spirv-val checks these for Vulkan only, except the
//! WorkgroupSize rules, which hold everywhere).
//!
//! One table row per built-in. A decorated definition (a variable, a
//! constant, or a structure member) has its type checked where it is
//! declared; then every instruction that refers to it, or to a module-scope
//! id built on it (a pointer type, a variable, a constant), has its storage
//! class checked, and every use inside a function has the execution models
//! of the entry points that reach that function checked, as spirv-val does.
//!
//! The per-primitive rules of MeshEXT shaders are in [`super::mesh_builtins`].
//!
//! Not covered: the storage-class-per-stage rules of ClipDistance,
//! CullDistance and TessLevel* (Layer's and ViewportIndex's are).

use super::{ErrorKind, Report};
use crate::grammar::{
    built_in as bi, capability, decoration, execution_model as em, op, storage_class as sc, OperandKind,
};
use crate::module::{is_constant, Module};
use rustc_hash::{FxHashMap, FxHashSet};

/// The value shape a built-in needs.
#[derive(Copy, Clone, PartialEq)]
enum Shape {
    Bool,
    /// An int scalar of any width.
    AnyInt,
    I32,
    F32,
    I32Vec(u32),
    F32Vec(u32),
    I32Arr,
    /// An array of n-component 32-bit int vectors.
    I32VecArr(u32),
    /// A float array of the given length (0: any length).
    F32Arr(u32),
    /// A matrix of (columns, rows) 32-bit floats.
    F32Mat(u32, u32),
}

/// The storage classes a variable of the built-in may have.
#[derive(Copy, Clone, PartialEq)]
enum Storage {
    Input,
    Output,
    InputOrOutput,
    /// No storage-class rule (WorkgroupSize).
    Any,
}

/// Which execution models may use the built-in.
#[derive(Copy, Clone)]
enum Models {
    Any,
    /// Only these, worded so in spirv-val's message.
    Only(&'static [u32], &'static str),
    /// Any but these.
    Not(&'static [u32], &'static str),
    /// Ray-tracing stages, with spirv-val's "does not allow ... with the
    /// execution model X." wording.
    RayTracing(&'static [u32]),
    /// Layer and ViewportIndex: Geometry, Fragment and mesh stages; Vertex
    /// and TessellationEvaluation with ShaderViewportIndexLayerEXT or this
    /// capability (named so), with this VUID.
    ViewportLayer(u32, &'static str, u32),
}

/// Where the type is checked.
#[derive(Copy, Clone, PartialEq)]
enum TypeAt {
    Definition,
    /// At each use in a function, per execution model: in these stages a
    /// variable (not a block member) may add an outer per-vertex array.
    Reference(&'static [u32]),
    /// At each use in a function no MeshEXT entry point reaches, once: a
    /// variable (not a block member) may add an outer array.
    NonMesh,
    /// As `NonMesh`, without the outer array.
    NonMeshScalar,
    /// Only the per-primitive rules of MeshEXT (CullPrimitiveEXT).
    MeshOnly,
}

struct Rule {
    built_in: u32,
    shape: Shape,
    /// How spirv-val words the shape in its message.
    wording: &'static str,
    type_vuid: u32,
    storage: Storage,
    storage_vuid: u32,
    models: Models,
    model_vuid: u32,
    type_at: TypeAt,
    /// spirv-val refuses these as structure-member decorations.
    member_allowed: bool,
    /// spirv-val checks the storage class of the decorated variable only,
    /// not of the ids built on it.
    definition_only: bool,
    /// spirv-val's type message runs the name into "variable".
    glued: bool,
    /// spirv-val's type message runs the shape into the description.
    tight: bool,
}

const COMPUTE: &[u32] = &[em::GLCompute, em::TaskNV, em::MeshNV, em::TaskEXT, em::MeshEXT];
const COMPUTE_TEXT: &str = "GLCompute, MeshNV, TaskNV, MeshEXT or TaskEXT execution model.";
const FRAGMENT: Models = Models::Only(&[em::Fragment], "Fragment execution model.");
const VERTEX: Models = Models::Only(&[em::Vertex], "Vertex execution model.");
const PER_VERTEX_STAGES: &[u32] =
    &[em::TessellationControl, em::TessellationEvaluation, em::Geometry, em::MeshNV, em::MeshEXT];
const RT_HIT: &[u32] = &[em::AnyHitKHR, em::ClosestHitKHR];
const RT_OBJECT: &[u32] = &[em::IntersectionKHR, em::AnyHitKHR, em::ClosestHitKHR];
const RT_RAY: &[u32] = &[em::IntersectionKHR, em::AnyHitKHR, em::ClosestHitKHR, em::MissKHR];
const RT_LAUNCH: &[u32] =
    &[em::RayGenerationKHR, em::IntersectionKHR, em::AnyHitKHR, em::ClosestHitKHR, em::MissKHR, em::CallableKHR];

const fn rule(
    built_in: u32,
    shape: Shape,
    wording: &'static str,
    vuids: [u32; 3],
    storage: Storage,
    models: Models,
) -> Rule {
    Rule {
        built_in,
        shape,
        wording,
        model_vuid: vuids[0],
        storage_vuid: vuids[1],
        type_vuid: vuids[2],
        storage,
        models,
        type_at: TypeAt::Definition,
        member_allowed: true,
        definition_only: false,
        glued: false,
        tight: false,
    }
}

/// A built-in spirv-val checks only as a variable of its own (no member
/// decoration, storage class at the definition).
const fn input_only(built_in: u32, shape: Shape, wording: &'static str, vuids: [u32; 3], models: Models) -> Rule {
    let mut r = rule(built_in, shape, wording, vuids, Storage::Input, models);
    r.member_allowed = false;
    r.definition_only = !matches!(models, Models::Only(..));
    r
}

const fn per_vertex(built_in: u32, shape: Shape, wording: &'static str, vuids: [u32; 3], models: Models) -> Rule {
    let mut r = rule(built_in, shape, wording, vuids, Storage::InputOrOutput, models);
    r.type_at = TypeAt::Reference(PER_VERTEX_STAGES);
    r
}

use Shape::*;
use Storage::{Input, InputOrOutput, Output};

const INT: &str = "32-bit int scalar";

/// The primitive indices a mesh shader writes.
const fn mesh_indices(built_in: u32, shape: Shape, wording: &'static str, vuids: [u32; 3]) -> Rule {
    let mut r = rule(built_in, shape, wording, vuids, Output, Models::Only(&[em::MeshEXT], "MeshEXT execution model."));
    r.tight = true;
    r
}

const fn viewport_layer(built_in: u32, vuids: [u32; 3], capability: u32, text: &'static str, cap_vuid: u32) -> Rule {
    let mut r = rule(built_in, I32, INT, vuids, InputOrOutput, Models::ViewportLayer(capability, text, cap_vuid));
    r.type_at = TypeAt::NonMesh;
    r.glued = true;
    r
}
const FLOAT: &str = "32-bit float scalar";
const IVEC3: &str = "3-component 32-bit int vector";
const IVEC4: &str = "4-component 32-bit int vector";
const VEC3: &str = "3-component 32-bit float vector";
const BOOL: &str = "bool scalar";

/// ClipDistance and CullDistance: the vertex pipeline, mesh shaders and
/// fragments (spirv-val's message names the first five).
const CLIP_CULL_MODELS: Models = Models::Only(
    &[
        em::Fragment,
        em::Vertex,
        em::TessellationControl,
        em::TessellationEvaluation,
        em::Geometry,
        em::MeshNV,
        em::MeshEXT,
    ],
    "Fragment, Vertex, TessellationControl, TessellationEvaluation or Geometry execution models.",
);

static RULES: &[Rule] = &[
    per_vertex(bi::ClipDistance, F32Arr(0), "32-bit float array", [4187, 4190, 4191], CLIP_CULL_MODELS),
    per_vertex(bi::CullDistance, F32Arr(0), "32-bit float array", [4196, 4199, 4200], CLIP_CULL_MODELS),
    per_vertex(
        bi::PointSize,
        F32,
        FLOAT,
        [4314, 4316, 4317],
        Models::Only(
            &[em::Vertex, em::TessellationControl, em::TessellationEvaluation, em::Geometry, em::MeshNV, em::MeshEXT],
            "Vertex, TessellationControl, TessellationEvaluation or Geometry execution models.",
        ),
    ),
    per_vertex(
        bi::Position,
        F32Vec(4),
        "4-component 32-bit float vector",
        [4318, 4320, 4321],
        Models::Only(
            &[em::Vertex, em::TessellationControl, em::TessellationEvaluation, em::Geometry, em::MeshNV, em::MeshEXT],
            "Vertex, TessellationControl, TessellationEvaluation or Geometry execution models.",
        ),
    ),
    viewport_layer(
        bi::Layer,
        [4272, 0, 4276],
        capability::ShaderLayer,
        "ShaderViewportIndexLayerEXT or ShaderLayer",
        4273,
    ),
    viewport_layer(
        bi::ViewportIndex,
        [4404, 0, 4408],
        capability::ShaderViewportIndex,
        "ShaderViewportIndexLayerEXT or ShaderViewportIndex",
        4405,
    ),
    {
        let mut r = rule(
            bi::PrimitiveId,
            I32,
            INT,
            [4330, 0, 4337],
            InputOrOutput,
            Models::Only(
                &[
                    em::Fragment,
                    em::TessellationControl,
                    em::TessellationEvaluation,
                    em::Geometry,
                    em::MeshNV,
                    em::MeshEXT,
                    em::IntersectionKHR,
                    em::AnyHitKHR,
                    em::ClosestHitKHR,
                ],
                "Fragment, TessellationControl, TessellationEvaluation, Geometry, MeshNV, MeshEXT, IntersectionKHR, \
                 AnyHitKHR, and ClosestHitKHR execution models.",
            ),
        );
        r.type_at = TypeAt::NonMesh;
        r.glued = true;
        r
    },
    {
        let mut r = rule(
            bi::CullPrimitiveEXT,
            Bool,
            "bool scalar",
            [7034, 7035, 7036],
            Output,
            Models::Only(&[em::MeshEXT], "MeshEXT execution model."),
        );
        r.type_at = TypeAt::MeshOnly;
        r
    },
    {
        let mut r = rule(
            bi::PrimitiveShadingRateKHR,
            I32,
            INT,
            [4484, 4485, 4486],
            Output,
            Models::Only(
                &[em::Vertex, em::Geometry, em::MeshNV, em::MeshEXT],
                "Vertex, Geometry, MeshNV or MeshEXT execution models.",
            ),
        );
        r.type_at = TypeAt::NonMeshScalar;
        r
    },
    mesh_indices(bi::PrimitivePointIndicesEXT, I32Arr, "32-bit int array", [7041, 7043, 7044]),
    mesh_indices(bi::PrimitiveLineIndicesEXT, I32VecArr(2), "2-component 32-bit int array", [7047, 7049, 7050]),
    mesh_indices(bi::PrimitiveTriangleIndicesEXT, I32VecArr(3), "3-component 32-bit int array", [7053, 7055, 7056]),
    rule(bi::FragCoord, F32Vec(4), "4-component 32-bit float vector", [4210, 4211, 4212], Input, FRAGMENT),
    rule(bi::FragDepth, F32, FLOAT, [4213, 4214, 4215], Output, FRAGMENT),
    rule(bi::FrontFacing, Bool, BOOL, [4229, 4230, 4231], Input, FRAGMENT),
    rule(bi::HelperInvocation, Bool, BOOL, [4239, 4240, 4241], Input, FRAGMENT),
    rule(
        bi::InvocationId,
        I32,
        INT,
        [4257, 4258, 4259],
        Input,
        Models::Only(&[em::TessellationControl, em::Geometry], "TessellationControl or Geometry execution models."),
    ),
    rule(bi::InstanceIndex, I32, INT, [4263, 4264, 4265], Input, VERTEX),
    rule(
        bi::PatchVertices,
        I32,
        INT,
        [4308, 4309, 4310],
        Input,
        Models::Only(
            &[em::TessellationControl, em::TessellationEvaluation],
            "TessellationControl or TessellationEvaluation execution models.",
        ),
    ),
    rule(bi::PointCoord, F32Vec(2), "2-component 32-bit float vector", [4311, 4312, 4313], Input, FRAGMENT),
    rule(bi::SampleId, I32, INT, [4354, 4355, 4356], Input, FRAGMENT),
    rule(bi::SampleMask, I32Arr, "32-bit int array", [4357, 4358, 4359], InputOrOutput, FRAGMENT),
    rule(bi::SamplePosition, F32Vec(2), "2-component 32-bit float vector", [4360, 4361, 4362], Input, FRAGMENT),
    rule(
        bi::TessCoord,
        F32Vec(3),
        VEC3,
        [4387, 4388, 4389],
        Input,
        Models::Only(&[em::TessellationEvaluation], "TessellationEvaluation execution model."),
    ),
    rule(
        bi::TessLevelOuter,
        F32Arr(4),
        "4-component 32-bit float array",
        [4390, 0, 4393],
        InputOrOutput,
        Models::Only(
            &[em::TessellationControl, em::TessellationEvaluation],
            "TessellationControl or TessellationEvaluation execution models.",
        ),
    ),
    rule(
        bi::TessLevelInner,
        F32Arr(2),
        "2-component 32-bit float array",
        [4394, 0, 4397],
        InputOrOutput,
        Models::Only(
            &[em::TessellationControl, em::TessellationEvaluation],
            "TessellationControl or TessellationEvaluation execution models.",
        ),
    ),
    rule(bi::VertexIndex, I32, INT, [4398, 4399, 4400], Input, VERTEX),
    rule(bi::LocalInvocationIndex, I32, INT, [4284, 4285, 4286], Input, Models::Only(COMPUTE, COMPUTE_TEXT)),
    rule(bi::GlobalInvocationId, I32Vec(3), IVEC3, [4236, 4237, 4238], Input, Models::Only(COMPUTE, COMPUTE_TEXT)),
    rule(bi::LocalInvocationId, I32Vec(3), IVEC3, [4281, 4282, 4283], Input, Models::Only(COMPUTE, COMPUTE_TEXT)),
    rule(bi::NumWorkgroups, I32Vec(3), IVEC3, [4296, 4297, 4298], Input, Models::Only(COMPUTE, COMPUTE_TEXT)),
    rule(bi::WorkgroupId, I32Vec(3), IVEC3, [4422, 4423, 4424], Input, Models::Only(COMPUTE, COMPUTE_TEXT)),
    rule(bi::WorkgroupSize, I32Vec(3), IVEC3, [4425, 0, 4427], Storage::Any, Models::Only(COMPUTE, COMPUTE_TEXT)),
    // spirv-val says "vector" for these two scalars.
    input_only(bi::NumSubgroups, I32, "32-bit int vector", [4293, 4294, 4295], Models::Only(COMPUTE, COMPUTE_TEXT)),
    input_only(bi::SubgroupId, I32, "32-bit int vector", [4367, 4368, 4369], Models::Only(COMPUTE, COMPUTE_TEXT)),
    input_only(bi::SubgroupLocalInvocationId, I32, "32-bit int", [0, 4380, 4381], Models::Any),
    input_only(bi::SubgroupSize, I32, "32-bit int", [0, 4382, 4383], Models::Any),
    input_only(bi::SubgroupEqMask, I32Vec(4), IVEC4, [0, 4370, 4371], Models::Any),
    input_only(bi::SubgroupGeMask, I32Vec(4), IVEC4, [0, 4372, 4373], Models::Any),
    input_only(bi::SubgroupGtMask, I32Vec(4), IVEC4, [0, 4374, 4375], Models::Any),
    input_only(bi::SubgroupLeMask, I32Vec(4), IVEC4, [0, 4376, 4377], Models::Any),
    input_only(bi::SubgroupLtMask, I32Vec(4), IVEC4, [0, 4378, 4379], Models::Any),
    rule(bi::BaseInstance, I32, INT, [4181, 4182, 4183], Input, VERTEX),
    rule(bi::BaseVertex, I32, INT, [4184, 4185, 4186], Input, VERTEX),
    rule(
        bi::DrawIndex,
        I32,
        INT,
        [4207, 4208, 4209],
        Input,
        Models::Only(
            &[em::Vertex, em::MeshNV, em::TaskNV, em::MeshEXT, em::TaskEXT],
            "Vertex, MeshNV, TaskNV , MeshEXT or TaskEXT execution model.",
        ),
    ),
    rule(
        bi::ViewIndex,
        I32,
        INT,
        [4401, 4402, 4403],
        Input,
        Models::Not(&[em::GLCompute], "GLCompute execution model."),
    ),
    rule(bi::DeviceIndex, I32, INT, [0, 4205, 4206], Input, Models::Any),
    rule(bi::FragInvocationCountEXT, I32, INT, [4217, 4218, 4219], Input, FRAGMENT),
    rule(bi::FragSizeEXT, I32Vec(2), "2-component 32-bit int vector", [4220, 4221, 4222], Input, FRAGMENT),
    rule(bi::FragStencilRefEXT, AnyInt, "int scalar", [4223, 4224, 4225], Output, FRAGMENT),
    rule(bi::FullyCoveredEXT, Bool, BOOL, [4232, 4233, 4234], Input, FRAGMENT),
    rule(bi::BaryCoordKHR, F32Vec(3), VEC3, [4154, 4155, 4156], Input, FRAGMENT),
    rule(bi::BaryCoordNoPerspKHR, F32Vec(3), VEC3, [4160, 4161, 4162], Input, FRAGMENT),
    rule(
        bi::ShadingRateKHR,
        I32,
        INT,
        [4490, 4491, 4492],
        Input,
        Models::Only(&[em::Fragment], "the Fragment execution model."),
    ),
    rule(bi::CoreIDARM, I32, INT, [0; 3], Input, Models::Any),
    rule(bi::CoreCountARM, I32, INT, [0; 3], Input, Models::Any),
    rule(bi::CoreMaxIDARM, I32, INT, [0; 3], Input, Models::Any),
    rule(bi::WarpIDARM, I32, INT, [0; 3], Input, Models::Any),
    rule(bi::WarpMaxIDARM, I32, INT, [0; 3], Input, Models::Any),
    rule(bi::WarpsPerSMNV, I32, INT, [0; 3], Input, Models::Any),
    rule(bi::SMCountNV, I32, INT, [0; 3], Input, Models::Any),
    rule(bi::WarpIDNV, I32, INT, [0; 3], Input, Models::Any),
    rule(bi::SMIDNV, I32, INT, [0; 3], Input, Models::Any),
    rule(bi::HitKindKHR, I32, INT, [4242, 4243, 4244], Input, Models::RayTracing(RT_HIT)),
    rule(bi::HitTNV, F32, FLOAT, [4245, 4246, 4247], Input, Models::RayTracing(RT_HIT)),
    rule(bi::InstanceCustomIndexKHR, I32, INT, [4251, 4252, 4253], Input, Models::RayTracing(RT_OBJECT)),
    rule(bi::InstanceId, I32, INT, [4254, 4255, 4256], Input, Models::RayTracing(RT_OBJECT)),
    rule(bi::RayGeometryIndexKHR, I32, INT, [4345, 4346, 4347], Input, Models::RayTracing(RT_OBJECT)),
    rule(bi::ObjectRayDirectionKHR, F32Vec(3), VEC3, [4299, 4300, 4301], Input, Models::RayTracing(RT_OBJECT)),
    rule(bi::ObjectRayOriginKHR, F32Vec(3), VEC3, [4302, 4303, 4304], Input, Models::RayTracing(RT_OBJECT)),
    rule(
        bi::ObjectToWorldKHR,
        F32Mat(4, 3),
        "matrix with 4 columns of 3-component vectors of 32-bit floats",
        [4305, 4306, 4307],
        Input,
        Models::RayTracing(RT_OBJECT),
    ),
    rule(
        bi::WorldToObjectKHR,
        F32Mat(4, 3),
        "matrix with 4 columns of 3-component vectors of 32-bit floats",
        [4434, 4435, 4436],
        Input,
        Models::RayTracing(RT_OBJECT),
    ),
    rule(bi::IncomingRayFlagsKHR, I32, INT, [4248, 4249, 4250], Input, Models::RayTracing(RT_RAY)),
    rule(bi::RayTminKHR, F32, FLOAT, [4351, 4352, 4353], Input, Models::RayTracing(RT_RAY)),
    rule(bi::RayTmaxKHR, F32, FLOAT, [4348, 4349, 4350], Input, Models::RayTracing(RT_RAY)),
    rule(bi::WorldRayDirectionKHR, F32Vec(3), VEC3, [4428, 4429, 4430], Input, Models::RayTracing(RT_RAY)),
    rule(bi::WorldRayOriginKHR, F32Vec(3), VEC3, [4431, 4432, 4433], Input, Models::RayTracing(RT_RAY)),
    rule(bi::CullMaskKHR, I32, INT, [6735, 6736, 6737], Input, Models::RayTracing(RT_RAY)),
    rule(bi::LaunchIdKHR, I32Vec(3), IVEC3, [4266, 4267, 4268], Input, Models::RayTracing(RT_LAUNCH)),
    rule(bi::LaunchSizeKHR, I32Vec(3), IVEC3, [4269, 4270, 4271], Input, Models::RayTracing(RT_LAUNCH)),
];

/// One BuiltIn decoration: its definition and, for a member, the member.
#[derive(Copy, Clone)]
struct Decorated {
    /// Index of the decorated definition.
    at: usize,
    member: Option<u32>,
    rule: &'static Rule,
}

/// A pending check: the decorated definition, and the id (by its
/// definition) through which it is reached.
#[derive(Copy, Clone)]
struct Pending {
    d: Decorated,
    referenced: usize,
}

pub(crate) fn check(m: &Module, vulkan: bool, r: &mut Report) {
    // (target, member, built-in) in spirv-val's order: by target id, the
    // whole id before its members; those a decoration group gives too.
    let mut decorated: Vec<(u32, Option<u32>, u32)> = Vec::new();
    for (&target, list) in m.decorations() {
        for (dec, member, params) in list {
            if let (decoration::BuiltIn, Some(&built_in)) = (*dec, params.first()) {
                decorated.push((target, u32::try_from(*member).ok(), built_in));
            }
        }
    }
    decorated.sort_by_key(|d| (d.0, d.1.map_or(-1, i64::from), d.2));
    decorated.dedup();
    let caps = super::capabilities::with_implied(m);
    let mut eps = super::mesh_builtins::EntryPoints::read(m);
    let mut pending: FxHashMap<u32, Vec<Pending>> = FxHashMap::default();
    for &(target, member, built_in) in &decorated {
        let Some(at) = m.def_index(target) else { continue };
        if vulkan && built_in == bi::VertexId {
            r.error(ErrorKind::BuiltIn, at, "Vulkan spec doesn't allow BuiltIn VertexId to be used.");
            return;
        }
        let Some(rule) = RULES.iter().find(|rule| rule.built_in == built_in) else { continue };
        let d = Decorated { at, member, rule };
        if built_in == bi::WorkgroupSize {
            if let Some(message) = workgroup_size_error(m, d, vulkan) {
                r.error(ErrorKind::BuiltIn, at, message);
                return;
            }
        } else if !vulkan {
            continue;
        } else if let Some(message) = definition_error(m, d) {
            r.error(ErrorKind::BuiltIn, at, message);
            return;
        } else {
            let underlying = underlying_type(m, d);
            let desc = definition_desc(m, d);
            let decl = super::mesh_builtins::Decl { at, built_in, underlying: &underlying, desc: &desc };
            if let Some(message) = super::mesh_builtins::definition_error(m, &mut eps, &decl) {
                r.error(ErrorKind::BuiltIn, at, message);
                return;
            }
        }
        if !vulkan {
            continue;
        }
        let seed = Pending { d, referenced: at };
        if let Some(message) = reference_error(m, caps, &eps, seed, at, None) {
            r.error(ErrorKind::BuiltIn, at, message);
            return;
        }
        if !rule.definition_only {
            pending.entry(target).or_default().push(seed);
        }
    }
    if pending.is_empty() {
        return;
    }
    let (models, entries) = function_models(m);
    let mut function: Option<InFunction> = None;
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        match inst.opcode() {
            op::OpFunction => {
                let f = m.result_id_at(inst);
                let reaching = models.get(&f).map_or(&[][..], |v| v.as_slice());
                let entry_points = entries.get(&f).map_or(&[][..], |v| v.as_slice());
                function = Some((f, reaching, entry_points));
            }
            op::OpFunctionEnd => function = None,
            _ => {}
        }
        let mut seen: Vec<u32> = Vec::new();
        let ids: Vec<u32> = m.id_operands(i).map(|(_, id)| id).collect();
        for id in ids {
            if id == m.result_id_at(inst) || seen.contains(&id) {
                continue;
            }
            seen.push(id);
            let Some(checks) = pending.get(&id).cloned() else { continue };
            for p in checks {
                if let Some(message) = reference_error(m, caps, &eps, p, i, function) {
                    r.error(ErrorKind::BuiltIn, i, message);
                    return;
                }
                if function.is_none() && m.result_id_at(inst) != 0 {
                    pending.entry(m.result_id_at(inst)).or_default().push(Pending { d: p.d, referenced: i });
                }
            }
        }
    }
}

/// A function a reference stands in: its id, the execution models of the
/// entry points whose call trees reach it, and those entry points.
type InFunction<'a> = (u32, &'a [u32], &'a [u32]);

/// For each function, the execution models of the entry points whose call
/// trees reach it (sorted), and those entry points' functions (in module
/// order).
type FunctionCallers = (FxHashMap<u32, Vec<u32>>, FxHashMap<u32, Vec<u32>>);

fn function_models(m: &Module) -> FunctionCallers {
    let calls = crate::module::callees(m);
    let mut models: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut entries: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    for i in (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpEntryPoint) {
        let (model, entry) = (m.word(i, 0), m.word(i, 1));
        let mut stack = vec![entry];
        let mut seen: Vec<u32> = Vec::new();
        while let Some(f) = stack.pop() {
            if seen.contains(&f) {
                continue;
            }
            seen.push(f);
            let list = models.entry(f).or_default();
            if !list.contains(&model) {
                list.push(model);
            }
            let list = entries.entry(f).or_default();
            if !list.contains(&entry) {
                list.push(entry);
            }
            stack.extend(calls.get(&f).into_iter().flatten());
        }
    }
    for list in models.values_mut() {
        list.sort_unstable();
    }
    (models, entries)
}

fn built_in_name(value: u32) -> &'static str {
    enumerant_name(OperandKind::BuiltIn, value)
}

fn enumerant_name(kind: OperandKind, value: u32) -> &'static str {
    kind.enumerant(value).map_or("?", |e| e.name)
}

fn vuid(rule: &Rule, n: u32) -> String {
    if n == 0 {
        return String::new();
    }
    let name = built_in_name(rule.built_in);
    format!("[VUID-{name}-{name}-{n:05}] ")
}

/// `ID <7> (OpVariable)`, spirv-val's short description of a definition.
fn id_desc(m: &Module, at: usize) -> String {
    let inst = &m.insts[at];
    let name = crate::grammar::instruction(inst.opcode()).map_or("?", |i| i.name);
    format!("ID <{}> ({name})", m.result_id_at(inst))
}

fn definition_desc(m: &Module, d: Decorated) -> String {
    match d.member {
        Some(k) => format!("Member #{k} of struct ID <{}>", m.result_id_word(d.at)),
        None => id_desc(m, d.at),
    }
}

/// The storage class an instruction names, if it names one.
fn storage_class_of(m: &Module, at: usize) -> Option<u32> {
    match m.opcode(at) {
        op::OpTypePointer | op::OpTypeUntypedPointerKHR | op::OpTypeForwardPointer => Some(m.word(at, 1)),
        op::OpVariable => Some(m.word(at, 2)),
        op::OpUntypedVariableKHR | op::OpGenericCastToPtrExplicit => Some(m.word(at, 3)),
        _ => None,
    }
}

/// The underlying type of a decorated definition (member type, pointee or
/// constant type), or spirv-val's message when there is none.
fn underlying_type(m: &Module, d: Decorated) -> Result<u32, String> {
    let inst = &m.insts[d.at];
    let desc = id_desc(m, d.at);
    match d.member {
        Some(k) if inst.opcode() == op::OpTypeStruct => {
            Ok(m.def_word(m.result_id_at(inst), k as usize + 2).unwrap_or(0))
        }
        Some(_) => Err(format!("{desc}Attempted to get underlying data type via member index for non-struct type.")),
        None if inst.opcode() == op::OpTypeStruct => {
            Err(format!("{desc} did not find an member index to get underlying data type for struct type."))
        }
        None if is_constant(inst.opcode()) => Ok(m.result_type_at(inst)),
        None => match m.def(m.result_type_at(inst)) {
            Some(p) if p.opcode() == op::OpTypePointer => Ok(m.def_word(m.result_type_at(inst), 3).unwrap_or(0)),
            _ => Err(format!(
                "{desc} is decorated with BuiltIn. BuiltIn decoration should only be applied to struct types, \
                 variables and constants."
            )),
        },
    }
}

/// The type error of a decorated definition, in spirv-val's words.
fn type_error(m: &Module, d: Decorated, arrayed: bool) -> Option<String> {
    let rule = d.rule;
    let mut ty = match underlying_type(m, d) {
        Ok(t) => t,
        Err(message) => return Some(message),
    };
    if arrayed && m.def_opcode(ty) == Some(op::OpTypeArray) {
        let inner = m.def_word(ty, 2).unwrap_or(0);
        // An arrayed float array keeps its inner array; other shapes lose
        // the outer array.
        if !matches!(rule.shape, F32Arr(_)) || m.def_opcode(inner) == Some(op::OpTypeArray) {
            ty = inner;
        }
    }
    let problem = shape_problem(m, rule.shape, ty)?;
    let name = built_in_name(rule.built_in);
    Some(format!(
        "{}According to the Vulkan spec BuiltIn {name}{}variable needs to be a {}.{}{} {problem}",
        vuid(rule, rule.type_vuid),
        if rule.glued { "" } else { " " },
        rule.wording,
        if rule.tight { "" } else { " " },
        definition_desc(m, d)
    ))
}

fn definition_error(m: &Module, d: Decorated) -> Option<String> {
    if d.member.is_some() && !d.rule.member_allowed {
        return Some(format!("BuiltIn {} cannot be used as a member decoration ", built_in_name(d.rule.built_in)));
    }
    let type_problem = match d.rule.type_at {
        TypeAt::Definition => type_error(m, d, false),
        TypeAt::Reference(_) | TypeAt::NonMesh | TypeAt::NonMeshScalar | TypeAt::MeshOnly => None,
    };
    if type_problem.is_some() {
        return type_problem;
    }
    // The tessellation levels are per patch (VUID 10880): Patch on the
    // decorated id or, for a block, on one of its members (spirv-val's
    // HasDecoration).
    let built_in = d.rule.built_in;
    if matches!(built_in, bi::TessLevelOuter | bi::TessLevelInner) {
        let id = m.result_id_at(&m.insts[d.at]);
        let patch = m.decorations().get(&id).is_some_and(|list| list.iter().any(|a| a.0 == decoration::Patch));
        if !patch {
            let name = built_in_name(built_in);
            return Some(format!(
                "[VUID-StandaloneSpirv-TessLevelInner-10880] BuiltIn {name} variable needs to also have a Patch \
                 decoration."
            ));
        }
    }
    None
}

/// WorkgroupSize: a 3-component 32-bit int vector constant (Vulkan), and
/// never a static product of zero.
fn workgroup_size_error(m: &Module, d: Decorated, vulkan: bool) -> Option<String> {
    if vulkan {
        if let Some(message) = type_error(m, d, false) {
            return Some(message);
        }
    }
    let inst = &m.insts[d.at];
    if !is_constant(inst.opcode()) {
        return vulkan.then(|| {
            format!(
                "[VUID-WorkgroupSize-WorkgroupSize-04426] Vulkan spec requires BuiltIn WorkgroupSize to be a \
                 constant. {} is not a constant.",
                id_desc(m, d.at)
            )
        });
    }
    if inst.opcode() == op::OpConstantComposite && m.operands(d.at).len() == 5 {
        let sizes: Vec<Option<u32>> = (2..5).map(|k| m.constant_value(m.word(d.at, k))).collect();
        if let [Some(x), Some(y), Some(z)] = sizes[..] {
            if x == 0 || y == 0 || z == 0 {
                return Some(format!(
                    "WorkgroupSize decorations must not have a static product of zero (X = {x}, Y = {y}, Z = {z})."
                ));
            }
            // A static size must suit every entry point's derivative group.
            for e in (0..m.insts.len()).filter(|&e| m.opcode(e) == op::OpEntryPoint) {
                let function = m.word(e, 1);
                let modes = (0..m.insts.len())
                    .filter(|&x| {
                        matches!(m.opcode(x), op::OpExecutionMode | op::OpExecutionModeId) && m.word(x, 0) == function
                    })
                    .map(|x| m.word(x, 1))
                    .collect();
                let size = (x as u64, y as u64, z as u64);
                let what = "WorkgroupSize decorations has a static dimensions of";
                let entry = format!("Entry Point id {function} has an");
                if let Some(message) = super::workgroup_size::derivative_group_error(vulkan, &modes, size, what, &entry)
                {
                    return Some(message);
                }
            }
        }
    }
    None
}

/// Layer and ViewportIndex: an Input variable used in a Vertex,
/// TessellationEvaluation, Geometry or mesh stage, an Output one in a
/// Fragment stage. spirv-val checks this where `from`, in function `f`
/// reached by `models`, refers to an id of the module's scope, by that
/// id's storage class, before the built-in's type.
fn viewport_layer_stage_error(m: &Module, p: Pending, from: usize, f: u32, models: &[u32]) -> Option<String> {
    let built_in = p.d.rule.built_in;
    if !matches!(built_in, bi::Layer | bi::ViewportIndex) || p.referenced == from {
        return None;
    }
    let layer = built_in == bi::Layer;
    let (vuid_number, class, banned): (u32, &str, &[u32]) = match storage_class_of(m, p.referenced)? {
        sc::Input => (
            if layer { 4274 } else { 4406 },
            "Input storage class if execution model is Vertex, TessellationEvaluation, Geometry, MeshNV or MeshEXT.",
            &[em::Vertex, em::TessellationEvaluation, em::Geometry, em::MeshNV, em::MeshEXT],
        ),
        sc::Output => {
            (if layer { 4275 } else { 4407 }, "Output storage class if execution model is Fragment.", &[em::Fragment])
        }
        _ => return None,
    };
    let model = banned.iter().copied().find(|x| models.contains(x))?;
    let rule = format!(
        "{}Vulkan spec doesn't allow BuiltIn Layer and ViewportIndex to be used for variables with {class}",
        vuid(p.d.rule, vuid_number)
    );
    Some(not_called_with(m, p, from, f, &rule, model))
}

/// spirv-val's message when `from`, in function `f` reached by `model`,
/// refers to the built-in where `rule` (its VUID and sentence) forbids
/// that model (its `ValidateNotCalledWithExecutionModel`).
fn not_called_with(m: &Module, p: Pending, from: usize, f: u32, rule: &str, model: u32) -> String {
    format!(
        "{rule} {} depends on {} which is decorated with BuiltIn {}. Id <{}> is later referenced by {} in function \
         <{f}> which is called with execution model {}.",
        id_desc(m, p.referenced),
        id_desc(m, p.d.at),
        built_in_name(p.d.rule.built_in),
        m.result_id_word(p.referenced),
        id_desc(m, from),
        enumerant_name(OperandKind::ExecutionModel, model)
    )
}

/// What spirv-val says when `from` refers to the built-in through
/// `p.referenced`; `function` is the function `from` stands in, with the
/// execution models that reach it.
fn reference_error(
    m: &Module,
    caps: &FxHashSet<u32>,
    eps: &super::mesh_builtins::EntryPoints,
    p: Pending,
    from: usize,
    function: Option<InFunction>,
) -> Option<String> {
    let rule = p.d.rule;
    let name = built_in_name(rule.built_in);
    let reference = |model: Option<u32>| {
        let mut s = format!("{} is referencing {}", id_desc(m, from), id_desc(m, p.referenced));
        if p.referenced != p.d.at {
            s += &format!(" which is dependent on {}", id_desc(m, p.d.at));
        }
        s += &format!(" which is decorated with BuiltIn {name}");
        if let Some((f, _, _)) = function {
            s += &format!(" in function <{f}>");
            if let Some(model) = model {
                s += &format!(" called with execution model {}", enumerant_name(OperandKind::ExecutionModel, model));
            }
        }
        s + "."
    };
    if let Some(class) = storage_class_of(m, from) {
        let (ok, wording) = match rule.storage {
            Storage::Input => (class == sc::Input, "Input"),
            Storage::Output => (class == sc::Output, "Output"),
            Storage::InputOrOutput => (class == sc::Input || class == sc::Output, "Input or Output"),
            Storage::Any => (true, ""),
        };
        if !ok {
            return Some(format!(
                "{}Vulkan spec allows BuiltIn {name} to be only used for variables with {wording} storage class. {} \
                 {} uses storage class {}.",
                vuid(rule, rule.storage_vuid),
                reference(None),
                id_desc(m, from),
                enumerant_name(OperandKind::StorageClass, class)
            ));
        }
    }
    let (f, models, entries) = function?;
    if let Some(message) = viewport_layer_stage_error(m, p, from, f, models) {
        return Some(message);
    }
    let primitive_id_caps =
        [capability::MeshShadingEXT, capability::MeshShadingNV, capability::Geometry, capability::Tessellation];
    if rule.built_in == bi::PrimitiveId
        && p.referenced != from
        && models.contains(&em::Fragment)
        && !primitive_id_caps.iter().any(|c| caps.contains(c))
    {
        return Some(not_called_with(
            m,
            p,
            from,
            f,
            "[VUID-PrimitiveId-Fragment-04333] Vulkan spec doesn't allow BuiltIn PrimitiveId to be used for variables \
             in the Fragment execution model unless it declares Geometry, Tessellation, or MeshShader capabilities.",
            em::Fragment,
        ));
    }
    if models.contains(&em::MeshEXT) && super::mesh_builtins::is_per_primitive(rule.built_in) {
        let underlying = underlying_type(m, p.d);
        let desc = definition_desc(m, p.d);
        let decl =
            super::mesh_builtins::Decl { at: p.d.at, built_in: rule.built_in, underlying: &underlying, desc: &desc };
        if let Some(message) = super::mesh_builtins::interface_error(m, eps, &decl) {
            return Some(message);
        }
    }
    let arrayed = match rule.type_at {
        TypeAt::NonMesh => Some(p.d.member.is_none()),
        TypeAt::NonMeshScalar => Some(false),
        _ => None,
    };
    if let Some(arrayed) = arrayed.filter(|_| !models.contains(&em::MeshEXT)) {
        if let Some(message) = type_error(m, p.d, arrayed) {
            return Some(message);
        }
    }
    for &model in models {
        let refused = match rule.models {
            Models::Any => None,
            Models::Only(list, text) => (!list.contains(&model)).then(|| format!("to be used only with {text}")),
            Models::Not(list, text) => list.contains(&model).then(|| format!("to be not be used with {text}")),
            Models::RayTracing(list) => {
                if !list.contains(&model) {
                    // (spirv-val adds the reference on a second line.)
                    return Some(format!(
                        "{}Vulkan spec does not allow BuiltIn {name} to be used with the execution model {}.",
                        vuid(rule, rule.model_vuid),
                        enumerant_name(OperandKind::ExecutionModel, model),
                    ));
                }
                None
            }
            Models::ViewportLayer(alternative, text, cap_vuid) => match model {
                em::Geometry | em::Fragment | em::MeshNV | em::MeshEXT => None,
                em::Vertex | em::TessellationEvaluation => {
                    if !caps.contains(&capability::ShaderViewportIndexLayerEXT) && !caps.contains(&alternative) {
                        return Some(format!(
                            "{}Using BuiltIn {name} in Vertex or Tessellation execution model requires the {text} \
                             capability.",
                            vuid(rule, cap_vuid)
                        ));
                    }
                    None
                }
                _ => Some(
                    "to be used only with Vertex, TessellationEvaluation, Geometry, or Fragment execution models."
                        .to_string(),
                ),
            },
        };
        if let Some(text) = refused {
            return Some(format!(
                "{}Vulkan spec allows BuiltIn {name} {text} {}",
                vuid(rule, rule.model_vuid),
                reference(Some(model))
            ));
        }
        if let TypeAt::Reference(arrayed_in) = rule.type_at {
            let arrayed = p.d.member.is_none() && arrayed_in.contains(&model);
            if let Some(message) = type_error(m, p.d, arrayed) {
                return Some(message);
            }
        }
    }
    // Every entry point that reaches a write of the depth declares it.
    if rule.built_in == bi::FragDepth
        && entries.iter().any(|&e| !eps.has_mode(e, crate::grammar::execution_mode::DepthReplacing))
    {
        return Some(format!(
            "{}Vulkan spec requires DepthReplacing execution mode to be declared when using BuiltIn FragDepth. {}",
            vuid(rule, 4216),
            reference(None)
        ));
    }
    None
}

/// How `ty` fails `shape`, or `None` if it fits.
fn shape_problem(m: &Module, shape: Shape, ty: u32) -> Option<String> {
    let opcode = m.def_opcode(ty);
    let width = |t: u32| m.def_word(t, 2).unwrap_or(0);
    let scalar = |t: u32, want: u16| m.def_opcode(t) == Some(want);
    let vector_of =
        |t: u32, want: u16| m.def_opcode(t) == Some(op::OpTypeVector) && scalar(m.def_word(t, 2).unwrap_or(0), want);
    let scalar_check = |want: u16, what: &str, any_width: bool| -> Option<String> {
        if opcode != Some(want) {
            return Some(format!("is not {what} scalar."));
        }
        (want != op::OpTypeBool && !any_width && width(ty) != 32).then(|| format!("has bit width {}.", width(ty)))
    };
    let vector_check = |t: u32, want: u16, what: &str, n: u32| -> Option<String> {
        if !vector_of(t, want) {
            return Some(format!("is not {what} vector."));
        }
        let count = m.def_word(t, 3).unwrap_or(0);
        if count != n {
            return Some(format!("has {count} components."));
        }
        let component = m.def_word(t, 2).unwrap_or(0);
        (width(component) != 32).then(|| format!("has components with bit width {}.", width(component)))
    };
    let array_check = |want: u16, what: &str, n: u32| -> Option<String> {
        if opcode != Some(op::OpTypeArray) {
            return Some("is not an array.".into());
        }
        let component = m.def_word(ty, 2).unwrap_or(0);
        if !scalar(component, want) {
            return Some(format!("components are not {what} scalar."));
        }
        if width(component) != 32 {
            return Some(format!("has components with bit width {}.", width(component)));
        }
        let length = m.constant_value(m.def_word(ty, 3).unwrap_or(0)).unwrap_or(0);
        (n != 0 && length != n).then(|| format!("has {length} components."))
    };
    match shape {
        Bool => scalar_check(op::OpTypeBool, "a bool", false),
        AnyInt => scalar_check(op::OpTypeInt, "an int", true),
        I32 => scalar_check(op::OpTypeInt, "an int", false),
        F32 => scalar_check(op::OpTypeFloat, "a float", false),
        I32Vec(n) => vector_check(ty, op::OpTypeInt, "an int", n),
        F32Vec(n) => vector_check(ty, op::OpTypeFloat, "a float", n),
        I32Arr => array_check(op::OpTypeInt, "int", 0),
        I32VecArr(n) => {
            if opcode != Some(op::OpTypeArray) {
                return Some("is not an array.".into());
            }
            vector_check(m.def_word(ty, 2).unwrap_or(0), op::OpTypeInt, "an int", n)
        }
        F32Arr(n) => array_check(op::OpTypeFloat, "float", n),
        F32Mat(cols, rows) => {
            let column = m.def_word(ty, 2).unwrap_or(0);
            let (c, rw) = if opcode == Some(op::OpTypeMatrix) && vector_of(column, op::OpTypeFloat) {
                (m.def_word(ty, 3).unwrap_or(0), m.def_word(column, 3).unwrap_or(0))
            } else {
                (0, 0)
            };
            if c != cols || rw != rows {
                return Some(format!("has columns {c} and rows {rw} not equal to expected {cols}x{rows}."));
            }
            vector_check(column, op::OpTypeFloat, "a float", rows)
        }
    }
}
