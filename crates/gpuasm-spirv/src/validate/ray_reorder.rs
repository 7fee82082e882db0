//! Hit objects and thread reordering (SPV_NV_shader_invocation_reorder and
//! SPV_EXT_shader_invocation_reorder): the hit object is a pointer to the
//! extension's hit object type, and the other operands and the result have
//! the types the instructions describe, checked in spirv-val's order and
//! words (validate_ray_tracing_reorder.cpp, RayReorderNVPass and
//! RayReorderEXTPass). The execution models these instructions allow are
//! checked with the other execution-model limitations (`execution_limits`).
//!
//! Each instruction's rules are a list of checks, the first failing one
//! reporting; the lists are data, keyed by opcode ([`rules`]).

use super::{ErrorKind, Report};
use crate::grammar::{capability, op, storage_class as sc};
use crate::module::opcode_set::OpcodeSet;
use crate::module::Module;

static HIT_OBJECTS: OpcodeSet = OpcodeSet::named(&["OpHitObject", "OpReorderThread"], &[]);

/// What a check asks of its type (the result type, or an operand's type)
/// or of its operand.
#[derive(Clone, Copy)]
enum Want {
    /// The operand points to a hit object type of this opcode (its own
    /// two messages).
    HitObject(u16),
    /// The operand points to OpTypeRayQueryKHR (its own two messages).
    RayQuery,
    /// The module declares (or implies) the RayQueryKHR capability.
    RayQueryCapability,
    AccelerationStructure,
    Bool,
    /// An integer scalar of any width.
    Int,
    Int32,
    Uint32,
    Float32,
    /// A vector of 32-bit floats with this many components.
    Float32Vector(u32),
    /// A vector of two 32-bit integers.
    Int32Pair,
    /// A matrix of four 3-component 32-bit float columns (its own three
    /// messages).
    Matrix,
    /// An array of this many 3-component float vectors, of 32-bit floats
    /// if `width32` (spirv-val does not check the width of LSS positions).
    VectorArray {
        length: u32,
        width32: bool,
    },
    /// An array of two floats.
    FloatPair,
    /// The operand is an OpVariable of one of these storage classes.
    Variable(&'static [u32]),
    /// The operand and the next are an optional Hint and Bits, both or
    /// neither, 32-bit integers; the message is the one about Bits.
    HintAndBits,
}

/// Which type a check looks at.
#[derive(Clone, Copy)]
enum At {
    Result,
    Operand(usize),
    /// Nothing (a rule about the module).
    Module,
}

#[derive(Clone, Copy)]
struct Check {
    at: At,
    want: Want,
    /// The message; with `named`, followed by the opcode's name.
    message: &'static str,
    named: bool,
}

const fn operand(k: usize, want: Want, message: &'static str) -> Check {
    Check { at: At::Operand(k), want, message, named: false }
}

/// A check of the result type, whose message ends with the opcode's name.
const fn result(want: Want, message: &'static str) -> Check {
    Check { at: At::Result, want, message, named: true }
}

const RAY_PAYLOADS: &[u32] = &[sc::RayPayloadKHR, sc::IncomingRayPayloadKHR];
const ATTRIBUTES: &[u32] = &[sc::HitObjectAttributeNV, sc::HitObjectAttributeEXT];

const HIT_NV: &[Check] = &[operand(0, Want::HitObject(op::OpTypeHitObjectNV), "")];
const HIT_EXT: &[Check] = &[operand(0, Want::HitObject(op::OpTypeHitObjectEXT), "")];
/// The hit object of an instruction with a result.
const GET_NV: &[Check] = &[operand(2, Want::HitObject(op::OpTypeHitObjectNV), "")];
const GET_EXT: &[Check] = &[operand(2, Want::HitObject(op::OpTypeHitObjectEXT), "")];

const BOOL: &[Check] =
    &[Check { at: At::Result, want: Want::Bool, message: "expected Result Type to be bool scalar type", named: false }];
const BOOL_NAMED: &[Check] = &[result(Want::Bool, "Expected Boolean scalar as Result Type: ")];
const HANDLE: &[Check] = &[result(Want::Int32Pair, "Expected 32-bit integer type 2-component vector as Result Type: ")];
const INT_NV: &[Check] = &[result(Want::Int, "Expected 32-bit integer type scalar as Result Type: ")];
const INT32: &[Check] = &[result(Want::Int32, "Expected 32-bit integer type scalar as Result Type: ")];
const FLOAT: &[Check] = &[result(Want::Float32, "Expected 32-bit floating-point type scalar as Result Type: ")];
const VEC3: &[Check] =
    &[result(Want::Float32Vector(3), "Expected 32-bit floating-point type 3-component vector as Result Type: ")];
const MATRIX: &[Check] = &[result(Want::Matrix, "")];

/// The ray parameters of the trace instructions, in the order spirv-val's
/// common parameter check takes them (Payload follows).
const TRACE: &[Check] = &[
    operand(
        1,
        Want::AccelerationStructure,
        "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR",
    ),
    operand(6, Want::Uint32, "Miss Index must be a 32-bit int scalar"),
    operand(3, Want::Uint32, "Cull mask must be a 32-bit int scalar"),
    operand(4, Want::Uint32, "SBT Offset must be a 32-bit unsigned int scalar"),
    operand(5, Want::Uint32, "SBT Stride must be a 32-bit unsigned int scalar"),
    operand(7, Want::Float32Vector(3), "Ray Origin must be a 32-bit float 3-component vector"),
    operand(8, Want::Float32, "Ray TMin must be a 32-bit float scalar"),
    operand(9, Want::Float32Vector(3), "Ray Direction must be a 32-bit float 3-component vector"),
    operand(10, Want::Float32, "Ray TMax must be a 32-bit float scalar"),
    operand(2, Want::Int32, "Ray Flags must be a 32-bit int scalar"),
];
const PAYLOAD_11: &[Check] = &[payload(11)];
const PAYLOAD_12: &[Check] = &[payload(12)];

const fn payload(k: usize) -> Check {
    operand(
        k,
        Want::Variable(RAY_PAYLOADS),
        "payload must be a OpVariable of storage class RayPayloadKHR or IncomingRayPayloadKHR",
    )
}

/// The hit parameters of the NV record-hit instructions up to the SBT
/// operands (the common check's order).
const HIT_PARAMETERS: &[Check] = &[
    operand(
        1,
        Want::AccelerationStructure,
        "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR",
    ),
    operand(2, Want::Int32, "Instance Id must be a 32-bit int scalar"),
    operand(3, Want::Int32, "Primitive Id must be a 32-bit int scalar"),
    operand(4, Want::Int32, "Geometry Index must be a 32-bit int scalar"),
];

/// The ray of OpHitObjectRecordHitWithIndexNV (`RAY_AT_7`) or
/// OpHitObjectRecordHitNV (`RAY_AT_8`), then Hit Kind and the attributes.
const fn ray_then_hit(at: usize) -> [Check; 6] {
    [
        operand(at, Want::Float32Vector(3), "Ray Origin must be a 32-bit float 3-component vector"),
        operand(at + 1, Want::Float32, "Ray TMin must be a 32-bit float scalar"),
        operand(at + 2, Want::Float32Vector(3), "Ray Direction must be a 32-bit float 3-component vector"),
        operand(at + 3, Want::Float32, "Ray TMax must be a 32-bit float scalar"),
        operand(5, Want::Uint32, "Hit Kind must be a 32-bit unsigned int scalar"),
        operand(
            at + 4,
            Want::Variable(ATTRIBUTES),
            "Hit Object Attributes id must be a OpVariable of storage class HitObjectAttributeNV",
        ),
    ]
}
const RAY_AT_7: &[Check] = &ray_then_hit(7);
const RAY_AT_8: &[Check] = &ray_then_hit(8);

/// The ray of the record-miss instructions, from Miss Index on.
const fn miss_ray(miss: usize, miss_message: &'static str) -> [Check; 5] {
    [
        operand(miss, Want::Uint32, miss_message),
        operand(miss + 1, Want::Float32Vector(3), "Ray Origin must be a 32-bit float 3-component vector"),
        operand(miss + 2, Want::Float32, "Ray TMin must be a 32-bit float scalar"),
        operand(miss + 3, Want::Float32Vector(3), "Ray Direction must be a 32-bit float 3-component vector"),
        operand(miss + 4, Want::Float32, "Ray TMax must be a 32-bit float scalar"),
    ]
}
const MISS_NV: &[Check] = &miss_ray(1, "Miss Index must be a 32-bit int scalar");
const MISS_EXT: &[Check] = &miss_ray(2, "Miss Index must be a 32-bit unsigned int scalar");
const RAY_FLAGS_1: &[Check] = &[operand(1, Want::Int32, "Ray Flags must be a 32-bit int scalar")];

const fn time(k: usize, message: &'static str) -> Check {
    operand(k, Want::Float32, message)
}
const TIME_NV: &[Check] = &[time(11, "Current Times must be a 32-bit float scalar type")];
const TIME_EXT_11: &[Check] = &[time(11, "Current Time must be a 32-bit float scalar")];
const TIME_EXT_7: &[Check] = &[time(7, "Current Time must be a 32-bit float scalar")];

const fn hint_and_bits(k: usize, bits: &'static str) -> [Check; 1] {
    [operand(k, Want::HintAndBits, bits)]
}
const BITS_NV: &str = "bits must be a 32-bit int scalar";
const BITS_EXT: &str = "Bits must be a 32-bit int scalar";
const HINT: &str = "Hint must be a 32-bit int scalar";

/// The checks of each instruction, in order; empty for the instructions
/// spirv-val does not check (the NV motion records).
fn rules(opcode: u16) -> &'static [&'static [Check]] {
    const fn variable(k: usize, classes: &'static [u32], message: &'static str) -> [Check; 1] {
        [operand(k, Want::Variable(classes), message)]
    }
    const ATTRIBUTES_NV: &[Check] = &variable(
        1,
        &[sc::HitObjectAttributeNV],
        "Hit Object Attributes id must be a OpVariable of storage class HitObjectAttributeNV",
    );
    const ATTRIBUTES_EXT: &[Check] = &variable(
        1,
        &[sc::HitObjectAttributeEXT],
        "Hit Object Attributes id must be a OpVariable of storage class HitObjectAttributeEXT",
    );
    const EXECUTE_NV: &[Check] = &variable(
        1,
        &[sc::RayPayloadKHR],
        "Hit Object Attributes id must be a OpVariable of storage class RayPayloadKHR",
    );
    const PAYLOAD_EXT: &[Check] = &variable(
        1,
        RAY_PAYLOADS,
        "Payload must be a OpVariable of storage class RayPayloadKHR or IncomingRayPayloadKHR",
    );
    const SBT_INDEX_6: &[Check] = &[operand(6, Want::Uint32, "SBT Index must be a 32-bit unsigned int scalar")];
    const SBT_RECORD_6_7: &[Check] = &[
        operand(6, Want::Uint32, "SBT record offset must be a 32-bit unsigned int scalar"),
        operand(7, Want::Uint32, "SBT record stride must be a 32-bit unsigned int scalar"),
    ];
    const HINTS_NV: &[Check] = &[operand(0, Want::Int32, HINT), operand(1, Want::Int32, BITS_NV)];
    const HINTS_EXT: &[Check] = &[operand(0, Want::Int32, HINT), operand(1, Want::Int32, BITS_EXT)];
    const OPTIONAL_NV_1: &[Check] = &hint_and_bits(1, BITS_NV);
    const OPTIONAL_EXT_1: &[Check] = &hint_and_bits(1, BITS_EXT);
    const OPTIONAL_EXT_2: &[Check] = &hint_and_bits(2, BITS_EXT);
    const OPTIONAL_EXT_12: &[Check] = &hint_and_bits(12, BITS_EXT);
    const OPTIONAL_EXT_13: &[Check] = &hint_and_bits(13, BITS_EXT);
    const SPHERE_POSITION: &[Check] =
        &[result(Want::Float32Vector(3), "Expected 32-bit floating point 2 component vector type as Result Type: ")];
    const SPHERE_RADIUS: &[Check] = &[result(Want::Float32, "Expected 32-bit floating point scalar as Result Type: ")];
    const LSS_POSITIONS: &[Check] = &[result(
        Want::VectorArray { length: 2, width32: false },
        "Expected 2 element array of 32-bit 3 component float point vector as Result Type: ",
    )];
    const LSS_RADII: &[Check] =
        &[result(Want::FloatPair, "Expected 2 element array of 32-bit floating point scalar as Result Type: ")];
    const TRIANGLE: &[Check] = &[result(
        Want::VectorArray { length: 3, width32: true },
        "Expected 3 element array of 32-bit 3 component float vectors as Result Type: ",
    )];
    const SET_SBT: &[Check] = &[operand(1, Want::Int32, "SBT Index must be a 32-bit integer scalar")];
    const FROM_QUERY: &[Check] = &[
        operand(1, Want::RayQuery, ""),
        Check {
            at: At::Module,
            want: Want::RayQueryCapability,
            message: "OpHitObjectRecordFromQueryEXT: requires RayQueryKHR capability",
            named: false,
        },
        operand(2, Want::Int32, "SBT Record Index must be a 32-bit integer scalar"),
        operand(
            3,
            Want::Variable(&[sc::HitObjectAttributeEXT]),
            "Hit Object Attributes id must be a OpVariable of storage class HitObjectAttributeEXT",
        ),
    ];
    match opcode {
        // SPV_NV_shader_invocation_reorder.
        op::OpHitObjectIsMissNV | op::OpHitObjectIsHitNV | op::OpHitObjectIsEmptyNV => &[BOOL, GET_NV],
        op::OpHitObjectGetShaderRecordBufferHandleNV => &[GET_NV, HANDLE],
        op::OpHitObjectGetHitKindNV
        | op::OpHitObjectGetPrimitiveIndexNV
        | op::OpHitObjectGetGeometryIndexNV
        | op::OpHitObjectGetInstanceIdNV
        | op::OpHitObjectGetInstanceCustomIndexNV
        | op::OpHitObjectGetShaderBindingTableRecordIndexNV => &[GET_NV, INT_NV],
        op::OpHitObjectGetCurrentTimeNV | op::OpHitObjectGetRayTMaxNV | op::OpHitObjectGetRayTMinNV => &[GET_NV, FLOAT],
        op::OpHitObjectGetObjectToWorldNV | op::OpHitObjectGetWorldToObjectNV => &[GET_NV, MATRIX],
        op::OpHitObjectGetObjectRayOriginNV
        | op::OpHitObjectGetObjectRayDirectionNV
        | op::OpHitObjectGetWorldRayDirectionNV
        | op::OpHitObjectGetWorldRayOriginNV => &[GET_NV, VEC3],
        op::OpHitObjectGetAttributesNV => &[HIT_NV, ATTRIBUTES_NV],
        op::OpHitObjectExecuteShaderNV => &[HIT_NV, EXECUTE_NV],
        op::OpHitObjectRecordEmptyNV => &[HIT_NV],
        op::OpHitObjectRecordMissNV => &[HIT_NV, MISS_NV],
        op::OpHitObjectRecordHitWithIndexNV => &[HIT_NV, HIT_PARAMETERS, SBT_INDEX_6, RAY_AT_7],
        op::OpHitObjectRecordHitNV => &[HIT_NV, HIT_PARAMETERS, SBT_RECORD_6_7, RAY_AT_8],
        op::OpHitObjectTraceRayMotionNV => &[HIT_NV, TRACE, PAYLOAD_12, TIME_NV],
        op::OpHitObjectTraceRayNV => &[HIT_NV, TRACE, PAYLOAD_11],
        op::OpReorderThreadWithHitObjectNV => &[HIT_NV, OPTIONAL_NV_1],
        op::OpReorderThreadWithHintNV => &[HINTS_NV],
        op::OpHitObjectGetClusterIdNV => &[GET_NV, INT32],
        op::OpHitObjectGetSpherePositionNV => &[GET_NV, SPHERE_POSITION],
        op::OpHitObjectGetSphereRadiusNV => &[GET_NV, SPHERE_RADIUS],
        op::OpHitObjectGetLSSPositionsNV => &[GET_NV, LSS_POSITIONS],
        op::OpHitObjectGetLSSRadiiNV => &[GET_NV, LSS_RADII],
        op::OpHitObjectIsSphereHitNV | op::OpHitObjectIsLSSHitNV => &[GET_NV, BOOL_NAMED],
        // SPV_EXT_shader_invocation_reorder.
        op::OpHitObjectIsMissEXT | op::OpHitObjectIsHitEXT | op::OpHitObjectIsEmptyEXT => &[BOOL, GET_EXT],
        op::OpHitObjectGetShaderRecordBufferHandleEXT => &[GET_EXT, HANDLE],
        op::OpHitObjectGetHitKindEXT
        | op::OpHitObjectGetPrimitiveIndexEXT
        | op::OpHitObjectGetGeometryIndexEXT
        | op::OpHitObjectGetInstanceIdEXT
        | op::OpHitObjectGetInstanceCustomIndexEXT
        | op::OpHitObjectGetShaderBindingTableRecordIndexEXT
        | op::OpHitObjectGetRayFlagsEXT => &[GET_EXT, INT32],
        op::OpHitObjectGetCurrentTimeEXT | op::OpHitObjectGetRayTMaxEXT | op::OpHitObjectGetRayTMinEXT => {
            &[GET_EXT, FLOAT]
        }
        op::OpHitObjectGetObjectToWorldEXT | op::OpHitObjectGetWorldToObjectEXT => &[GET_EXT, MATRIX],
        op::OpHitObjectGetObjectRayOriginEXT
        | op::OpHitObjectGetObjectRayDirectionEXT
        | op::OpHitObjectGetWorldRayDirectionEXT
        | op::OpHitObjectGetWorldRayOriginEXT => &[GET_EXT, VEC3],
        op::OpHitObjectGetIntersectionTriangleVertexPositionsEXT => &[GET_EXT, TRIANGLE],
        op::OpHitObjectGetAttributesEXT => &[HIT_EXT, ATTRIBUTES_EXT],
        op::OpHitObjectSetShaderBindingTableRecordIndexEXT => &[HIT_EXT, SET_SBT],
        op::OpHitObjectExecuteShaderEXT => &[HIT_EXT, PAYLOAD_EXT],
        op::OpHitObjectRecordEmptyEXT => &[HIT_EXT],
        op::OpHitObjectRecordFromQueryEXT => &[HIT_EXT, FROM_QUERY],
        op::OpHitObjectRecordMissEXT => &[HIT_EXT, RAY_FLAGS_1, MISS_EXT],
        op::OpHitObjectRecordMissMotionEXT => &[HIT_EXT, RAY_FLAGS_1, MISS_EXT, TIME_EXT_7],
        op::OpReorderThreadWithHintEXT => &[HINTS_EXT],
        op::OpReorderThreadWithHitObjectEXT => &[HIT_EXT, OPTIONAL_EXT_1],
        op::OpHitObjectTraceRayEXT => &[HIT_EXT, TRACE, PAYLOAD_11],
        op::OpHitObjectTraceRayMotionEXT => &[HIT_EXT, TRACE, PAYLOAD_12, TIME_EXT_11],
        op::OpHitObjectReorderExecuteShaderEXT => &[HIT_EXT, PAYLOAD_EXT, OPTIONAL_EXT_2],
        op::OpHitObjectTraceReorderExecuteEXT => &[HIT_EXT, TRACE, PAYLOAD_11, OPTIONAL_EXT_12],
        op::OpHitObjectTraceMotionReorderExecuteEXT => &[HIT_EXT, TRACE, PAYLOAD_12, TIME_EXT_11, OPTIONAL_EXT_13],
        _ => &[],
    }
}

/// How a hit object or ray query operand is not the pointer it must be.
enum Pointer {
    NotPointer,
    OtherPointee,
}

struct Types<'a, 'w> {
    m: &'a Module<'w>,
}

impl Types<'_, '_> {
    fn opcode(&self, ty: u32) -> Option<u16> {
        self.m.def_opcode(ty)
    }

    /// Word `k` of a type's declaration (0 if absent).
    fn word(&self, ty: u32, k: usize) -> u32 {
        self.m.def_word(ty, k).unwrap_or(0)
    }

    fn int(&self, ty: u32) -> bool {
        self.opcode(ty) == Some(op::OpTypeInt)
    }

    fn int32(&self, ty: u32) -> bool {
        self.int(ty) && self.word(ty, 2) == 32
    }

    fn uint32(&self, ty: u32) -> bool {
        self.int32(ty) && self.word(ty, 3) == 0
    }

    fn float(&self, ty: u32) -> bool {
        self.opcode(ty) == Some(op::OpTypeFloat)
    }

    fn float32(&self, ty: u32) -> bool {
        self.float(ty) && self.word(ty, 2) == 32
    }

    /// A vector of `count` floats, of 32 bits if `width32`.
    fn float_vector(&self, ty: u32, count: u32, width32: bool) -> bool {
        let component = self.word(ty, 2);
        self.opcode(ty) == Some(op::OpTypeVector)
            && self.float(component)
            && self.word(ty, 3) == count
            && (!width32 || self.word(component, 2) == 32)
    }

    /// The length of an array type as spirv-val reads it (0 unless an
    /// OpConstant).
    fn array_length(&self, ty: u32) -> u32 {
        self.m.constant_value(self.word(ty, 3)).unwrap_or(0)
    }

    /// Whether a hit object or ray query operand points to `pointee`: the
    /// id its definition names first (its type, or itself for a
    /// declaration without one) must be a pointer to that type. None if
    /// it does (or is not defined: the ids pass reports that).
    fn pointer_problem(&self, id: u32, pointee: u16) -> Option<Pointer> {
        let m = self.m;
        let d = m.def(id)?;
        let pointer = if d.info().has_result_type { m.result_type_at(d) } else { id };
        if self.opcode(pointer) != Some(op::OpTypePointer) {
            return Some(Pointer::NotPointer);
        }
        (self.opcode(self.word(pointer, 3)) != Some(pointee)).then_some(Pointer::OtherPointee)
    }
}

/// The message of the first check instruction `i` fails, if any.
fn problem(m: &Module, i: usize) -> Option<String> {
    let t = Types { m };
    let inst = &m.insts[i];
    let count = m.operands(i).len();
    let id_at = |k: usize| if k < count { m.word(i, k) } else { 0 };
    // spirv-val names opcodes without their `Op`.
    let name = &inst.info().name[2..];
    for check in rules(inst.opcode()).iter().flat_map(|list| list.iter()) {
        let (value, ty) = match check.at {
            At::Result => (0, m.result_type_at(inst)),
            At::Operand(k) => (id_at(k), m.type_of(id_at(k))),
            At::Module => (0, 0),
        };
        let ok = match check.want {
            Want::HitObject(pointee) => match t.pointer_problem(value, pointee) {
                Some(Pointer::NotPointer) => return Some("Hit Object must be a pointer".into()),
                Some(Pointer::OtherPointee) => {
                    let what = if pointee == op::OpTypeHitObjectNV { "NV" } else { "EXT" };
                    return Some(format!("Type must be OpTypeHitObject{what}"));
                }
                None => true,
            },
            Want::RayQuery => match t.pointer_problem(value, op::OpTypeRayQueryKHR) {
                Some(Pointer::NotPointer) => return Some("Ray Query must be a pointer".into()),
                Some(Pointer::OtherPointee) => return Some("Ray Query must be a pointer to OpTypeRayQueryKHR".into()),
                None => true,
            },
            Want::RayQueryCapability => m.has_capability(capability::RayQueryKHR),
            Want::AccelerationStructure => t.opcode(ty) == Some(op::OpTypeAccelerationStructureKHR),
            Want::Bool => t.opcode(ty) == Some(op::OpTypeBool),
            Want::Int => t.int(ty) && t.word(ty, 2) != 0,
            Want::Int32 => t.int32(ty),
            Want::Uint32 => t.uint32(ty),
            Want::Float32 => t.float32(ty),
            Want::Float32Vector(n) => t.float_vector(ty, n, true),
            Want::Int32Pair => t.opcode(ty) == Some(op::OpTypeVector) && t.int32(t.word(ty, 2)) && t.word(ty, 3) == 2,
            Want::Matrix => {
                let column = t.word(ty, 2);
                if t.opcode(ty) != Some(op::OpTypeMatrix) || t.opcode(column) != Some(op::OpTypeVector) {
                    return Some(format!("expected matrix type as Result Type: {name}"));
                }
                if t.word(ty, 3) != 4 {
                    return Some(format!("expected Result Type matrix to have a Column Count of 4{name}"));
                }
                if !t.float32(t.word(column, 2)) || t.word(column, 3) != 3 {
                    return Some(format!(
                        "expected Result Type matrix to have a Column Type of 3-component 32-bit float vectors: \
                         {name}"
                    ));
                }
                true
            }
            Want::VectorArray { length, width32 } => {
                t.opcode(ty) == Some(op::OpTypeArray)
                    && t.array_length(ty) == length
                    && t.float_vector(t.word(ty, 2), 3, width32)
            }
            Want::FloatPair => {
                t.opcode(ty) == Some(op::OpTypeArray) && t.float(t.word(ty, 2)) && t.array_length(ty) == 2
            }
            Want::Variable(classes) => {
                m.def_opcode(value) == Some(op::OpVariable)
                    && m.def_word(value, 3).is_some_and(|class| classes.contains(&class))
            }
            Want::HintAndBits => {
                let At::Operand(k) = check.at else { continue };
                if count <= k {
                    continue;
                }
                if count != k + 2 {
                    return Some(
                        "Hint and Bits are optional together i.e  Either both Hint and Bits should be provided or \
                         neither."
                            .into(),
                    );
                }
                if !t.int32(ty) {
                    return Some(HINT.into());
                }
                t.int32(m.type_of(id_at(k + 1)))
            }
        };
        if !ok {
            return Some(if check.named { format!("{}{name}", check.message) } else { check.message.into() });
        }
    }
    None
}

/// Reports each hit object instruction that breaks a rule.
pub(crate) fn check(m: &Module, r: &mut Report) {
    if !m.uses_any(&HIT_OBJECTS) {
        return;
    }
    for i in 0..m.insts.len() {
        if !HIT_OBJECTS.contains(m.opcode(i)) {
            continue;
        }
        if let Some(message) = problem(m, i) {
            r.error(ErrorKind::OperandType, i, message);
            if r.full() {
                return;
            }
        }
    }
}
