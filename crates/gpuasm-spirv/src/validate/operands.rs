//! Operand types of value instructions: arithmetic, relational and logical,
//! conversion, composite and control-flow instructions take operands of the
//! types their descriptions require (spec 3.32), parameters match the
//! function type and returned values the return type.

use super::shapes::{shape, Shape};
use super::{ErrorKind, Report};
use crate::grammar::{capability, op};
use crate::module::opcode_set::OpcodeSet;
use crate::module::Module;
use crate::TargetEnv;

/// Kinds of types these rules do not cover (cooperative matrices and
/// vectors): any instruction touching them is left alone, but those of
/// [`TYPE_BLIND`].
fn exotic(m: &Module, ty: u32) -> bool {
    !m.def_opcode(ty).is_some_and(covered)
}

/// Whether the module declares a type [`exotic`] names. When it does not,
/// no instruction touches one: the ids pass, which runs first, checked
/// that every result type is a type, and that a function type is named
/// only by OpFunction (so no value has one, and OpTypeFunction, which
/// every module with a function declares, does not count).
fn declares_exotic(m: &Module) -> bool {
    m.opcodes_used().any(|o| {
        o != op::OpTypeFunction && crate::grammar::instruction(o).is_some_and(|i| i.declares_type) && !covered(o)
    })
}

/// The type declarations these rules cover: all but those spirv-val's
/// rules for these instructions treat apart (cooperative matrices and
/// vectors, checked by `cooperative`).
fn covered(type_opcode: u16) -> bool {
    !matches!(
        type_opcode,
        op::OpTypeCooperativeMatrixKHR | op::OpTypeCooperativeMatrixNV | op::OpTypeCooperativeVectorNV
    )
}

fn is(m: &Module, ty: u32, base: u16) -> bool {
    shape(m, ty).is_some_and(|s| s.base == base)
}

/// The derivative instructions, by name.
const DERIVATIVE_NAMES: &[&str] = &["OpDPd", "OpFwidth"];
static DERIVATIVES: OpcodeSet = OpcodeSet::named(DERIVATIVE_NAMES, &[]);

/// The instructions whose spirv-val rules treat cooperative matrices and
/// vectors as any other type (its arithmetic, conversion, extract, insert
/// and construct rules know them; these do not): the derivatives and these.
static TYPE_BLIND: OpcodeSet = OpcodeSet::named(DERIVATIVE_NAMES, &[])
    .with(op::OpCopyObject)
    .with(op::OpTranspose)
    .with(op::OpVectorShuffle)
    .with(op::OpCopyLogical);

/// The ray-query instructions (their own rules, [`Checker::ray_query`]).
static RAY_QUERIES: OpcodeSet = OpcodeSet::named(&["OpRayQuery"], &[]);

struct Checker<'a, 'w> {
    m: &'a Module<'w>,
    i: usize,
    /// SPIR-V 1.5 or SPV_KHR_physical_storage_buffer: the pointer rules of
    /// OpBitcast that come with physical storage buffers.
    psb_bitcasts: bool,
    /// Declared and implied capabilities.
    caps: &'a rustc_hash::FxHashSet<u32>,
    env: TargetEnv,
    /// See [`declares_exotic`].
    exotic_types: bool,
}

impl Checker<'_, '_> {
    fn name(&self) -> &'static str {
        &self.m.insts[self.i].info().name[2..]
    }

    fn vulkan(&self) -> bool {
        self.env.is_vulkan()
    }

    fn fail(&self, rep: &mut Report, message: String) {
        rep.error(ErrorKind::OperandType, self.i, message);
    }

    /// Type of value operand `k` (counting result type and result).
    fn operand_type(&self, k: usize) -> u32 {
        self.m.type_of(self.m.word(self.i, k))
    }

    fn float_matrix(&self, ty: u32) -> bool {
        self.m.def_opcode(ty) == Some(op::OpTypeMatrix)
            && self.m.def_word(ty, 2).is_some_and(|col| is(self.m, col, op::OpTypeFloat))
    }

    fn value_operands(&self) -> std::ops::Range<usize> {
        2..self.m.operands(self.i).len()
    }

    fn check(&self, rep: &mut Report) {
        let m = self.m;
        let inst = &m.insts[self.i];
        let opc = inst.opcode();
        let rt = m.result_type_at(inst);
        if RAY_QUERIES.contains(opc) {
            // spirv-val's ray-query pass leaves the vertex-position fetch
            // (SPV_KHR_ray_tracing_position_fetch) alone.
            if opc == op::OpRayQueryGetIntersectionTriangleVertexPositionsKHR {
                return;
            }
            if let Some(message) = self.ray_query() {
                self.fail(rep, message.into());
            }
            return;
        }
        if matches!(opc, op::OpTraceRayKHR | op::OpReportIntersectionKHR | op::OpExecuteCallableKHR) {
            if let Some(message) = self.ray_tracing() {
                self.fail(rep, message.into());
            }
            return;
        }
        // spirv-val's rules for these know no cooperative types.
        if self.exotic_types
            && inst.info().has_result_type
            && !TYPE_BLIND.contains(opc)
            && (exotic(m, rt) || self.value_operands().any(|k| exotic_operand(m, self.i, k)))
        {
            return;
        }
        let name = self.name();
        match opc {
            op::OpUndef | op::OpIsHelperInvocationEXT | op::OpAssumeTrueKHR | op::OpExpectKHR => {
                if let Some(message) = super::misc::problem(m, self.i) {
                    self.fail(rep, message);
                }
            }
            op::OpFAdd
            | op::OpFSub
            | op::OpFMul
            | op::OpFDiv
            | op::OpFRem
            | op::OpFMod
            | op::OpFNegate
            | op::OpFmaKHR => {
                if !is(m, rt, op::OpTypeFloat) {
                    return self.fail(rep, format!("Expected floating scalar or vector type as Result Type: {name}"));
                }
                for k in self.value_operands() {
                    if self.operand_type(k) != rt {
                        return self.fail(
                            rep,
                            format!("Expected arithmetic operands to be of Result Type: {name} operand index {k}"),
                        );
                    }
                }
            }
            op::OpIAdd | op::OpISub | op::OpIMul | op::OpSDiv | op::OpSRem | op::OpSMod | op::OpSNegate => {
                let Some(r) = shape(m, rt).filter(|s| s.base == op::OpTypeInt) else {
                    return self.fail(rep, format!("Expected int scalar or vector type as Result Type: {name}"));
                };
                for k in self.value_operands() {
                    let message = match shape(m, self.operand_type(k)) {
                        Some(s) if s.base != op::OpTypeInt => "Expected int scalar or vector type as operand",
                        None => "Expected int scalar or vector type as operand",
                        Some(s) if s.count != r.count => {
                            "Expected arithmetic operands to have the same dimension as Result Type"
                        }
                        Some(s) if s.width != r.width => {
                            "Expected arithmetic operands to have the same bit width as Result Type"
                        }
                        Some(_) => continue,
                    };
                    return self.fail(rep, format!("{message}: {name} operand index {k}"));
                }
            }
            // spirv-val: an unsigned result, operands of exactly its type.
            op::OpUDiv | op::OpUMod => {
                let unsigned =
                    shape(m, rt).is_some_and(|s| s.base == op::OpTypeInt && m.def_word(s.scalar, 3) == Some(0));
                if !unsigned {
                    return self
                        .fail(rep, format!("Expected unsigned int scalar or vector type as Result Type: {name}"));
                }
                if let Some(k) = self.value_operands().find(|&k| self.operand_type(k) != rt) {
                    self.fail(
                        rep,
                        format!("Expected arithmetic operands to be of Result Type: {name} operand index {k}"),
                    );
                }
            }
            op::OpDot => {
                if let Some(message) = super::arithmetics::dot(m, self.i, self.caps, rep) {
                    self.fail(rep, message);
                }
            }
            _ if super::numeric_conversions::covers(opc) => {
                if let Some(message) = super::numeric_conversions::problem(m, self.i) {
                    self.fail(rep, message);
                }
            }
            op::OpPtrEqual | op::OpPtrNotEqual | op::OpPtrDiff
                if m.addressing_model() == Some(crate::grammar::addressing_model::Logical)
                    && !self.caps.contains(&capability::VariablePointersStorageBuffer)
                    && !self.caps.contains(&capability::VariablePointers) =>
            {
                self.fail(
                    rep,
                    "Instruction on logical pointers cannot be used without a variable pointers capability".into(),
                );
            }
            op::OpConvertPtrToU | op::OpConvertUToPtr => {
                if let Some(message) = self.pointer_int_conversion() {
                    // The Vulkan rules name no instruction.
                    let message =
                        if message.starts_with("[VUID") { message.into() } else { format!("{message}: {name}") };
                    self.fail(rep, message);
                }
            }
            _ if inst.info().class == "Relational_and_Logical" => {
                if let Some(message) = super::logicals::problem(m, self.i, self.caps) {
                    self.fail(rep, message);
                }
            }
            op::OpBitFieldInsert
            | op::OpBitFieldSExtract
            | op::OpBitFieldUExtract
            | op::OpBitReverse
            | op::OpBitCount => {
                if let Some(message) =
                    super::bit_fields::problem(m, self.i, self.vulkan() && !rep.options.allow_vulkan_32_bit_bitwise)
                {
                    self.fail(rep, message);
                }
            }
            op::OpCompositeExtract => {
                let composite = self.operand_type(2);
                let indexes: Vec<u32> = (3..m.operands(self.i).len()).map(|k| m.word(self.i, k)).collect();
                self.indexed(rep, composite, &indexes, rt);
            }
            op::OpCompositeConstruct
                if !matches!(
                    m.def_opcode(rt),
                    Some(op::OpTypeVector | op::OpTypeMatrix | op::OpTypeArray | op::OpTypeStruct)
                ) =>
            {
                self.fail(rep, "Expected Result Type to be a composite type".into());
            }
            op::OpCompositeConstruct => self.construct(rep),
            op::OpBitcast => self.bitcast(rep),
            op::OpShiftRightLogical | op::OpShiftRightArithmetic | op::OpShiftLeftLogical => self.shift(rep),
            op::OpBitwiseOr | op::OpBitwiseXor | op::OpBitwiseAnd | op::OpNot => self.bitwise(rep),
            op::OpCopyLogical => {
                let source = self.operand_type(2);
                if source == 0 || rt == 0 || source == rt {
                    self.fail(rep, "Result Type must not equal the Operand type".into());
                } else if !logically_match(m, source, rt, 0) {
                    self.fail(rep, "Result Type does not logically match the Operand type".into());
                }
            }
            op::OpCopyObject if self.operand_type(2) != rt => {
                self.fail(rep, "Expected Result Type and Operand type to be the same".into());
            }
            op::OpCompositeInsert => {
                let composite = self.operand_type(3);
                if composite != rt {
                    return self
                        .fail(rep, format!("The Result Type must be the same as Composite type in OpCompositeInsert yielding Result Id {rt}."));
                }
                let indexes: Vec<u32> = (4..m.operands(self.i).len()).map(|k| m.word(self.i, k)).collect();
                let object = self.operand_type(2);
                self.indexed(rep, composite, &indexes, object);
            }
            op::OpVectorShuffle => self.vector_shuffle(rep),
            _ if super::non_uniform::covers(opc) => {
                if let Some(message) = super::non_uniform::problem(m, self.i, self.env) {
                    self.fail(rep, message);
                }
            }
            op::OpMatrixTimesVector => {
                let float_vector = |t: u32| shape(m, t).filter(|s| s.base == op::OpTypeFloat && s.count > 1);
                let Some(r) = float_vector(rt) else {
                    return self.fail(rep, format!("Expected float vector type as Result Type: {name}"));
                };
                let matrix = self.operand_type(2);
                if !self.float_matrix(matrix) {
                    return self.fail(rep, format!("Expected float matrix type as left operand: {name}"));
                }
                if m.def_word(matrix, 2) != Some(rt) {
                    return self
                        .fail(rep, format!("Expected column type of the matrix to be equal to Result Type: {name}"));
                }
                let Some(v) = float_vector(self.operand_type(3)) else {
                    return self.fail(rep, format!("Expected float vector type as right operand: {name}"));
                };
                if v.scalar != r.scalar {
                    return self.fail(rep, format!("Expected component types of the operands to be equal: {name}"));
                }
                if m.def_word(matrix, 3) != Some(v.count) {
                    self.fail(
                        rep,
                        format!("Expected number of columns of the matrix to be equal to the vector size: {name}"),
                    );
                }
            }
            op::OpVectorTimesMatrix => {
                let float_vector = |t: u32| shape(m, t).filter(|s| s.base == op::OpTypeFloat && s.count > 1);
                let Some(r) = float_vector(rt) else {
                    return self.fail(rep, format!("Expected float vector type as Result Type: {name}"));
                };
                let Some(v) = float_vector(self.operand_type(2)) else {
                    return self.fail(rep, format!("Expected float vector type as left operand: {name}"));
                };
                if r.scalar != v.scalar {
                    return self
                        .fail(rep, format!("Expected component types of Result Type and vector to be equal: {name}"));
                }
                let matrix = self.operand_type(3);
                let column = m.def_word(matrix, 2).and_then(|c| shape(m, c));
                let Some(column) = column.filter(|_| m.def_opcode(matrix) == Some(op::OpTypeMatrix)) else {
                    return self.fail(rep, format!("Expected float matrix type as right operand: {name}"));
                };
                let message = if r.scalar != column.scalar {
                    "Expected component types of Result Type and matrix to be equal"
                } else if m.def_word(matrix, 3) != Some(r.count) {
                    "Expected number of columns of the matrix to be equal to Result Type vector size"
                } else if column.count != v.count {
                    "Expected number of rows of the matrix to be equal to the vector operand size"
                } else {
                    return;
                };
                self.fail(rep, format!("{message}: {name}"));
            }
            op::OpOuterProduct => {
                if !self.float_matrix(rt) {
                    return self.fail(rep, format!("Expected float matrix type as Result Type: {name}"));
                }
                let column = m.def_word(rt, 2).unwrap_or(0);
                if self.operand_type(2) != column {
                    return self.fail(
                        rep,
                        format!(
                            "Expected column type of Result Type to be equal to the type of the left operand: {name}"
                        ),
                    );
                }
                let Some(right) = shape(m, self.operand_type(3)).filter(|s| s.base == op::OpTypeFloat && s.count > 1)
                else {
                    return self.fail(rep, format!("Expected float vector type as right operand: {name}"));
                };
                if shape(m, column).map(|c| c.scalar) != Some(right.scalar) {
                    return self.fail(rep, format!("Expected component types of the operands to be equal: {name}"));
                }
                if m.def_word(rt, 3) != Some(right.count) {
                    self.fail(rep, format!(
                        "Expected number of columns of the matrix to be equal to the vector size of the right operand: {name}"
                    ));
                }
            }
            op::OpVectorTimesScalar
            | op::OpMatrixTimesScalar
            | op::OpMatrixTimesMatrix
            | op::OpIAddCarry
            | op::OpISubBorrow
            | op::OpUMulExtended
            | op::OpSMulExtended => {
                if let Some(message) = super::arithmetics::problem(m, self.i) {
                    self.fail(rep, message);
                }
            }
            _ if DERIVATIVES.contains(opc) => {
                let Some(r) = shape(m, rt).filter(|s| s.base == op::OpTypeFloat) else {
                    return self.fail(rep, format!("Expected Result Type to be float scalar or vector type: {name}"));
                };
                if r.width != 32 {
                    return self.fail(rep, "Result type component width must be 32 bits".into());
                }
                if self.operand_type(2) != rt {
                    self.fail(rep, format!("Expected P type and Result Type to be the same: {name}"));
                }
            }
            _ => {}
        }
    }

    /// OpCompositeConstruct: constituents fill the result's elements.
    fn construct(&self, rep: &mut Report) {
        let m = self.m;
        let rt = m.result_type_word(self.i);
        let parts: Vec<u32> = self.value_operands().map(|k| self.operand_type(k)).collect();
        match m.def_opcode(rt) {
            Some(op::OpTypeVector) => {
                // Counted before the constituents are looked at.
                if parts.len() < 2 {
                    return self.fail(rep, "Expected number of constituents to be at least 2".into());
                }
                let Some(r) = shape(m, rt) else { return };
                let mut total = 0;
                for &t in &parts {
                    match shape(m, t) {
                        Some(s) if s.scalar == r.scalar => total += s.count,
                        _ => return self.fail(
                            rep,
                            "Expected Constituents to be scalars or vectors of the same type as Result Type components"
                                .into(),
                        ),
                    }
                }
                if total != r.count {
                    let message =
                        "Expected total number of given components to be equal to the size of Result Type vector";
                    self.fail(rep, message.into());
                }
            }
            Some(kind @ (op::OpTypeMatrix | op::OpTypeStruct | op::OpTypeArray)) => {
                // Arrays of specialised length have no count to check.
                let Some(count) = m.element_count(rt) else { return };
                let (elements, element) = match kind {
                    op::OpTypeMatrix => ("columns of Result Type matrix", "column type Result Type matrix"),
                    op::OpTypeArray => ("elements of Result Type array", "column type Result Type array"),
                    _ => ("members of Result Type struct", "corresponding member type of Result Type struct"),
                };
                if count as usize != parts.len() {
                    return self.fail(
                        rep,
                        format!("Expected total number of Constituents to be equal to the number of {elements}"),
                    );
                }
                if parts.iter().enumerate().any(|(k, &t)| Some(t) != m.element_type(rt, k)) {
                    self.fail(rep, format!("Expected Constituent type to be equal to the {element}"));
                }
            }
            _ => {}
        }
    }

    /// OpConvertPtrToU's and OpConvertUToPtr's rules, in spirv-val's order.
    fn pointer_int_conversion(&self) -> Option<&'static str> {
        use crate::grammar::{addressing_model, storage_class};
        let m = self.m;
        let rt = m.result_type_word(self.i);
        let input = self.operand_type(2);
        let is_pointer = |t: u32| matches!(m.def_opcode(t), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR));
        let int_scalar = |t: u32| shape(m, t).is_some_and(|s| s.base == op::OpTypeInt && s.count == 1);
        let (pointer, integer) = if m.insts[self.i].opcode() == op::OpConvertPtrToU {
            if !unsigned_scalar(m, rt) {
                return Some("Expected unsigned int scalar type as Result Type");
            }
            if !is_pointer(input) {
                return Some("Expected input to be a pointer");
            }
            (input, rt)
        } else {
            if !is_pointer(rt) {
                return Some("Expected Result Type to be a pointer");
            }
            if !int_scalar(input) {
                return Some("Expected int scalar as input");
            }
            (rt, input)
        };
        match m.addressing_model() {
            Some(addressing_model::Logical) => Some("Logical addressing not supported"),
            Some(addressing_model::PhysicalStorageBuffer64)
                if m.def_word(pointer, 2) != Some(storage_class::PhysicalStorageBuffer) =>
            {
                Some("Pointer storage class must be PhysicalStorageBuffer")
            }
            // VUID-StandaloneSpirv-PhysicalStorageBuffer64-04710: addresses are 64-bit integers.
            Some(addressing_model::PhysicalStorageBuffer64)
                if self.vulkan() && shape(m, integer).is_some_and(|s| s.width != 64) =>
            {
                Some(if integer == rt {
                    "[VUID-StandaloneSpirv-PhysicalStorageBuffer64-04710] PhysicalStorageBuffer64 addressing mode \
                     requires the result integer type to have a 64-bit width for Vulkan environment."
                } else {
                    "[VUID-StandaloneSpirv-PhysicalStorageBuffer64-04710] PhysicalStorageBuffer64 addressing mode \
                     requires the input integer to have a 64-bit width for Vulkan environment."
                })
            }
            _ => None,
        }
    }

    /// The ray query instructions (spirv-val's RayQueryPass): the query
    /// pointer, then operand and result types.
    fn ray_query(&self) -> Option<&'static str> {
        let m = self.m;
        let inst = &m.insts[self.i];
        let rt = m.result_type_at(inst);
        // The ray query is the first operand after the result, if any.
        let at = if inst.info().has_result_type { 2 } else { 0 };
        let q = m.word(self.i, at);
        if !matches!(m.def_opcode(q), Some(op::OpVariable | op::OpFunctionParameter | op::OpAccessChain)) {
            return Some("Ray Query must be a memory object declaration");
        }
        let pointer = m.type_of(q);
        if m.def_opcode(pointer) != Some(op::OpTypePointer) {
            return Some("Ray Query must be a pointer");
        }
        if m.def_opcode(m.def_word(pointer, 3).unwrap_or(0)) != Some(op::OpTypeRayQueryKHR) {
            return Some("Ray Query must be a pointer to OpTypeRayQueryKHR");
        }
        let numeric = |t: u32, base: u16, count: u32| numeric32(m, t, base, count);
        let int32 = |t: u32| numeric(t, op::OpTypeInt, 1);
        let f32 = |t: u32| numeric(t, op::OpTypeFloat, 1);
        let f32x = |t: u32, n: u32| numeric(t, op::OpTypeFloat, n);
        let intersection = |k: usize| {
            let id = m.word(self.i, k);
            (!int32(m.type_of(id)) || !m.def(id).is_some_and(|d| crate::module::is_constant(d.opcode())))
                .then_some("expected Intersection ID to be a constant 32-bit int scalar")
        };
        let operand = |k: usize| self.operand_type(k);
        let name = &inst.info().name[2..];
        match name {
            "RayQueryInitializeKHR" => {
                if m.def_opcode(operand(1)) != Some(op::OpTypeAccelerationStructureKHR) {
                    return Some("Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR");
                }
                let checks: [(bool, &'static str); 6] = [
                    (int32(operand(2)), "Ray Flags must be a 32-bit int scalar"),
                    (int32(operand(3)), "Cull Mask must be a 32-bit int scalar"),
                    (f32x(operand(4), 3), "Ray Origin must be a 32-bit float 3-component vector"),
                    (f32(operand(5)), "Ray TMin must be a 32-bit float scalar"),
                    (f32x(operand(6), 3), "Ray Direction must be a 32-bit float 3-component vector"),
                    (f32(operand(7)), "Ray TMax must be a 32-bit float scalar"),
                ];
                checks.into_iter().find(|(ok, _)| !ok).map(|(_, message)| message)
            }
            "RayQueryGenerateIntersectionKHR" => (!f32(operand(1))).then_some("Hit T must be a 32-bit float scalar"),
            "RayQueryGetIntersectionFrontFaceKHR"
            | "RayQueryProceedKHR"
            | "RayQueryGetIntersectionCandidateAABBOpaqueKHR" => {
                if !shape(m, rt).is_some_and(|s| s.base == op::OpTypeBool && s.count == 1) {
                    return Some("expected Result Type to be bool scalar type");
                }
                (name == "RayQueryGetIntersectionFrontFaceKHR").then(|| intersection(3)).flatten()
            }
            "RayQueryGetIntersectionTKHR" | "RayQueryGetRayTMinKHR" => {
                if !f32(rt) {
                    return Some("expected Result Type to be 32-bit float scalar type");
                }
                (name == "RayQueryGetIntersectionTKHR").then(|| intersection(3)).flatten()
            }
            "RayQueryGetIntersectionTypeKHR"
            | "RayQueryGetIntersectionInstanceCustomIndexKHR"
            | "RayQueryGetIntersectionInstanceIdKHR"
            | "RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR"
            | "RayQueryGetIntersectionGeometryIndexKHR"
            | "RayQueryGetIntersectionPrimitiveIndexKHR"
            | "RayQueryGetRayFlagsKHR" => {
                if !int32(rt) {
                    return Some("expected Result Type to be 32-bit int scalar type");
                }
                (name != "RayQueryGetRayFlagsKHR").then(|| intersection(3)).flatten()
            }
            "RayQueryGetIntersectionObjectRayDirectionKHR"
            | "RayQueryGetIntersectionObjectRayOriginKHR"
            | "RayQueryGetWorldRayDirectionKHR"
            | "RayQueryGetWorldRayOriginKHR" => {
                if !f32x(rt, 3) {
                    return Some("expected Result Type to be 32-bit float 3-component vector type");
                }
                name.contains("Intersection").then(|| intersection(3)).flatten()
            }
            "RayQueryGetIntersectionBarycentricsKHR" => intersection(3).or_else(|| {
                (!f32x(rt, 2)).then_some("expected Result Type to be 32-bit float 2-component vector type")
            }),
            "RayQueryGetIntersectionObjectToWorldKHR" | "RayQueryGetIntersectionWorldToObjectKHR" => {
                intersection(3).or_else(|| ray_query_matrix(m, rt))
            }
            // SPV_NV_linear_swept_spheres and SPV_NV_cluster_acceleration_structure.
            _ => ray_query_nv(m, name, rt).and_then(|result| intersection(3).or(result)),
        }
    }

    /// OpTraceRayKHR, OpReportIntersectionKHR and OpExecuteCallableKHR
    /// (spirv-val's RayTracingPass).
    fn ray_tracing(&self) -> Option<&'static str> {
        let m = self.m;
        let inst = &m.insts[self.i];
        let numeric = |t: u32, base: u16, count: u32| numeric32(m, t, base, count);
        let int32 = |k: usize| numeric(self.operand_type(k), op::OpTypeInt, 1);
        let uint32 = |k: usize| int32(k) && m.def_word(self.operand_type(k), 3) == Some(0);
        let f32 = |k: usize| numeric(self.operand_type(k), op::OpTypeFloat, 1);
        let f32x3 = |k: usize| numeric(self.operand_type(k), op::OpTypeFloat, 3);
        let first = |checks: &[(bool, &'static str)]| checks.iter().find(|(ok, _)| !ok).map(|&(_, message)| message);
        let class_of = |k: usize| {
            let v = m.word(self.i, k);
            (m.def_opcode(v) == Some(op::OpVariable)).then(|| m.def_word(v, 3).unwrap_or(0))
        };
        use crate::grammar::storage_class as c;
        match inst.opcode() {
            op::OpTraceRayKHR => first(&[
                (
                    m.def_opcode(self.operand_type(0)) == Some(op::OpTypeAccelerationStructureKHR),
                    "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR",
                ),
                (int32(1), "Ray Flags must be a 32-bit int scalar"),
                (int32(2), "Cull Mask must be a 32-bit int scalar"),
                (int32(3), "SBT Offset must be a 32-bit int scalar"),
                (int32(4), "SBT Stride must be a 32-bit int scalar"),
                (int32(5), "Miss Index must be a 32-bit int scalar"),
                (f32x3(6), "Ray Origin must be a 32-bit float 3-component vector"),
                (f32(7), "Ray TMin must be a 32-bit float scalar"),
                (f32x3(8), "Ray Direction must be a 32-bit float 3-component vector"),
                (f32(9), "Ray TMax must be a 32-bit float scalar"),
            ])
            .or_else(|| match class_of(10) {
                None => Some("Payload must be the result of a OpVariable"),
                Some(c::RayPayloadKHR | c::IncomingRayPayloadKHR) => None,
                Some(_) => Some("Payload must have storage class RayPayloadKHR or IncomingRayPayloadKHR"),
            }),
            op::OpReportIntersectionKHR => first(&[
                (
                    shape(m, m.result_type_at(inst)).is_some_and(|s| s.base == op::OpTypeBool && s.count == 1),
                    "expected Result Type to be bool scalar type",
                ),
                // spirv-val's words (the operand must be a float).
                (f32(2), "Hit must be a 32-bit int scalar"),
                (uint32(3), "Hit Kind must be a 32-bit unsigned int scalar"),
            ]),
            op::OpExecuteCallableKHR => first(&[(uint32(0), "SBT Index must be a 32-bit unsigned int scalar")])
                .or_else(|| match class_of(1) {
                    None => Some("Callable Data must be the result of a OpVariable"),
                    Some(c::CallableDataKHR | c::IncomingCallableDataKHR) => None,
                    Some(_) => Some("Callable Data must have storage class CallableDataKHR or IncomingCallableDataKHR"),
                }),
            _ => None,
        }
    }

    /// The result type if it is an integer scalar or vector; else reports
    /// it as spirv-val does.
    fn int_result(&self, rep: &mut Report) -> Option<Shape> {
        let r = shape(self.m, self.m.result_type_word(self.i)).filter(|s| s.base == op::OpTypeInt);
        if r.is_none() {
            self.fail(rep, format!("Expected int scalar or vector type as Result Type: {}", self.name()));
        }
        r
    }

    /// OpBitwiseAnd/Or/Xor and OpNot: integer operands of the result's
    /// dimension and width.
    fn bitwise(&self, rep: &mut Report) {
        let m = self.m;
        let name = self.name();
        let int = |t: u32| shape(m, t).filter(|s| s.base == op::OpTypeInt);
        let Some(r) = self.int_result(rep) else { return };
        for k in self.value_operands() {
            let message = match int(self.operand_type(k)) {
                None => "Expected int scalar or vector as operand",
                Some(s) if s.count != r.count => "Expected operands to have the same dimension as Result Type",
                Some(s) if s.width != r.width => "Expected operands to have the same bit width as Result Type",
                Some(_) => continue,
            };
            return self.fail(rep, format!("{message}: {name} operand index {k}"));
        }
    }

    /// Shifts: an integer result, a base like it, a shift of as many
    /// components.
    fn shift(&self, rep: &mut Report) {
        let m = self.m;
        let name = self.name();
        let int = |t: u32| shape(m, t).filter(|s| s.base == op::OpTypeInt);
        let Some(r) = self.int_result(rep) else { return };
        let Some(base) = int(self.operand_type(2)) else {
            return self.fail(rep, format!("Expected Base to be int scalar or vector: {name}"));
        };
        if base.count != r.count {
            return self.fail(rep, format!("Expected Base to have the same dimension as Result Type: {name}"));
        }
        if base.width != r.width {
            return self.fail(rep, format!("Expected Base to have the same bit width as Result Type: {name}"));
        }
        let Some(shift) = int(self.operand_type(3)) else {
            return self.fail(rep, format!("Expected Shift to be int scalar or vector: {name}"));
        };
        if shift.count != r.count {
            self.fail(rep, format!("Expected Shift to have the same dimension as Result Type: {name}"));
        }
    }

    /// OpVectorShuffle, in spirv-val's order and words.
    fn vector_shuffle(&self, rep: &mut Report) {
        let m = self.m;
        let rt = m.result_type_word(self.i);
        if m.def_opcode(rt) != Some(op::OpTypeVector) {
            let found = m.def_opcode(rt).and_then(crate::grammar::instruction).map_or("?", |i| i.name);
            return self.fail(rep, format!("The Result Type of OpVectorShuffle must be OpTypeVector. Found {found}."));
        }
        let components = m.operands(self.i).len() - 4;
        if m.def_word(rt, 3) != Some(components as u32) {
            let t = rep.id(rt);
            return self.fail(
                rep,
                format!(
                    "OpVectorShuffle component literals count does not match Result Type <id> {t}s vector component count."
                ),
            );
        }
        let component_type = m.def_word(rt, 2);
        let mut total = 0u32;
        for (k, which) in [(2, 1), (3, 2)] {
            let ty = self.operand_type(k);
            if m.def_opcode(ty) != Some(op::OpTypeVector) {
                return self.fail(rep, format!("The type of Vector {which} must be OpTypeVector."));
            }
            if m.def_word(ty, 2) != component_type {
                return self.fail(rep, format!("The Component Type of Vector {which} must be the same as ResultType."));
            }
            // spirv-val adds two uint32_t counts: a wrapping sum, as there.
            total = u32::wrapping_add(total, m.def_word(ty, 3).unwrap_or(0));
        }
        for k in 4..m.operands(self.i).len() {
            let c = m.word(self.i, k);
            if c != u32::MAX && c >= total {
                return self.fail(
                    rep,
                    format!("Component index {c} is out of bounds for combined (Vector1 + Vector2) size of {total}."),
                );
            }
        }
    }

    fn bitcast(&self, rep: &mut Report) {
        let m = self.m;
        let rt = m.result_type_word(self.i);
        let input = self.operand_type(2);
        if input == 0 {
            return self.fail(rep, "Expected input to have a type: Bitcast".into());
        }
        let pointer = |t: u32| matches!(m.def_opcode(t), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR));
        let numeric = |t: u32| shape(m, t).is_some_and(|s| s.base != op::OpTypeBool);
        let int_scalar = |t: u32| shape(m, t).is_some_and(|s| s.base == op::OpTypeInt && s.count == 1);
        let int32_vector =
            |t: u32| shape(m, t).is_some_and(|s| s.base == op::OpTypeInt && s.count > 1 && s.width == 32);
        if !pointer(rt) && !numeric(rt) {
            return self.fail(
                rep,
                "Expected Result Type to be a pointer or int or float vector or scalar type: Bitcast".into(),
            );
        }
        if !pointer(input) && !numeric(input) {
            return self.fail(rep, "Expected input to be a pointer or int or float vector or scalar: Bitcast".into());
        }
        if self.psb_bitcasts {
            if pointer(rt) && !pointer(input) && !int_scalar(input) && !int32_vector(input) {
                return self.fail(rep, "In SPIR-V 1.5 or later (or with SPV_KHR_physical_storage_buffer), expected input to be a pointer, int scalar or 32-bit int vector if Result Type is pointer: Bitcast".into());
            }
            if pointer(input) && !pointer(rt) && !int_scalar(rt) && !int32_vector(rt) {
                return self.fail(rep, "In SPIR-V 1.5 or later (or with SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer, int scalar or 32-bit int vector: Bitcast".into());
            }
        } else {
            if pointer(rt) && !pointer(input) && !int_scalar(input) {
                return self.fail(rep, "In SPIR-V 1.4 or earlier (and without SPV_KHR_physical_storage_buffer), expected input to be a pointer or int scalar if Result Type is pointer: Bitcast".into());
            }
            if pointer(input) && !pointer(rt) && !int_scalar(rt) {
                return self.fail(rep, "In SPIR-V 1.4 or earlier (and without SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer or int scalar: Bitcast".into());
            }
        }
        if let (Some(r), Some(a)) = (shape(m, rt), shape(m, input)) {
            // In 32 bits, wrapping, as spirv-val computes them.
            if r.width.wrapping_mul(r.count) != a.width.wrapping_mul(a.count) {
                self.fail(rep, "Expected input to have the same total bit width as Result Type: Bitcast".into());
            }
        }
    }

    /// OpCompositeExtract/Insert: indexing `ty` by literal `indexes` must
    /// reach `want`.
    fn indexed(&self, rep: &mut Report, mut ty: u32, indexes: &[u32], want: u32) {
        let m = self.m;
        let name = self.name();
        if indexes.is_empty() {
            return self.fail(rep, format!("Expected at least one index to Op{name}, zero found"));
        }
        if indexes.len() > 255 {
            let n = indexes.len();
            return self.fail(rep, format!("The number of indexes in Op{name} may not exceed 255. Found {n} indexes."));
        }
        for &index in indexes {
            let count = m.element_count(ty);
            let message = match m.def_opcode(ty) {
                Some(op::OpTypeVector) => format!(
                    "Vector access is out of bounds, vector size is {}, but access index is {index}",
                    count.unwrap_or(0)
                ),
                Some(op::OpTypeMatrix) => format!(
                    "Matrix access is out of bounds, matrix has {} columns, but access index is {index}",
                    count.unwrap_or(0)
                ),
                // Arrays of specialised length have no bound to check.
                Some(op::OpTypeArray) => format!(
                    "Array access is out of bounds, array size is {}, but access index is {index}",
                    count.unwrap_or(0)
                ),
                Some(op::OpTypeStruct) => {
                    let n = count.unwrap_or(0);
                    format!(
                        "Index is out of bounds, can not find index {index} in the structure <id> '{ty}'. This \
                         structure has {n} members. Largest valid index is {}.",
                        // spirv-val's count is a size_t: none wraps.
                        (n as u64).wrapping_sub(1)
                    )
                }
                // No bound to check: the element type is the second word.
                Some(
                    op::OpTypeRuntimeArray
                    | op::OpTypeNodePayloadArrayAMDX
                    | op::OpTypeCooperativeMatrixKHR
                    | op::OpTypeCooperativeMatrixNV
                    | op::OpTypeCooperativeVectorNV,
                ) => {
                    let Some(next) = m.def_word(ty, 2) else { return };
                    ty = next;
                    continue;
                }
                None => return,
                _ => {
                    return self
                        .fail(rep, "Reached non-composite type while indexes still remain to be traversed.".into());
                }
            };
            if index >= count.unwrap_or(u32::MAX) {
                return self.fail(rep, message);
            }
            let Some(next) = m.element_type(ty, index as usize) else { return };
            ty = next;
        }
        if ty != want {
            let opcode_name =
                |t: u32| m.def_opcode(t).and_then(crate::grammar::instruction).map_or("Unknown", |info| info.name);
            let (wanted, got) = (opcode_name(want), opcode_name(ty));
            let message = if m.insts[self.i].opcode() == op::OpCompositeInsert {
                format!("The Object type ({wanted}) does not match the type that results from indexing into the Composite ({got}).")
            } else {
                format!("Result type ({wanted}) does not match the type that results from indexing into the composite ({got}).")
            };
            self.fail(rep, message);
        }
    }
}

/// An integer scalar of Signedness 0.
fn unsigned_scalar(m: &Module, t: u32) -> bool {
    shape(m, t).is_some_and(|s| s.base == op::OpTypeInt && s.count == 1 && m.def_word(t, 3) == Some(0))
}

/// A 32-bit scalar (`count` 1) or vector of `count` components of `base`.
fn numeric32(m: &Module, t: u32, base: u16, count: u32) -> bool {
    shape(m, t).is_some_and(|s| {
        s.base == base && s.width == 32 && s.count == count && (count == 1 || m.def_opcode(t) == Some(op::OpTypeVector))
    })
}

fn exotic_operand(m: &Module, i: usize, k: usize) -> bool {
    let o = m.operands(i)[k];
    if o.kind.info().category != crate::grammar::Category::Id {
        return false;
    }
    let t = m.type_of(m.word(i, k));
    t != 0 && exotic(m, t)
}

/// Whether two types are the same or are arrays (of the same length id) or
/// structs (of as many members) whose parts logically match, decorations
/// aside: what OpCopyLogical may copy between.
fn logically_match(m: &Module, a: u32, b: u32, depth: u32) -> bool {
    if a == b {
        return true;
    }
    let opcode = m.def_opcode(a);
    if depth > 64 || opcode != m.def_opcode(b) {
        return false;
    }
    match opcode {
        Some(op::OpTypeArray) => {
            m.def_word(a, 3) == m.def_word(b, 3)
                && matches!((m.def_word(a, 2), m.def_word(b, 2)), (Some(x), Some(y)) if logically_match(m, x, y, depth + 1))
        }
        Some(op::OpTypeStruct) => {
            let n = m.operands_len_of(a);
            n == m.operands_len_of(b)
                && (2..n + 1).all(|k| matches!((m.def_word(a, k), m.def_word(b, k)), (Some(x), Some(y)) if logically_match(m, x, y, depth + 1)))
        }
        _ => false,
    }
}

pub(crate) fn check(m: &Module, env: TargetEnv, r: &mut Report) {
    // The 8- and 16-bit rules apply to Shader modules that declare such types
    // for storage only.
    let caps = super::capabilities::with_implied(m);
    let shader = caps.contains(&crate::grammar::capability::Shader) && super::small_types::any_limited(m);
    let psb_bitcasts = m.header.version_parts() >= (1, 5)
        || (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpExtension).any(|i| {
            let o = m.operands(i)[0];
            let start = m.insts[i].offset as usize + o.offset as usize;
            crate::binary::literal_string_bytes(&m.words[start..start + o.num_words as usize])
                == b"SPV_KHR_physical_storage_buffer"
        });
    // Logical addressing without variable pointers: no pointer is returned.
    let logical_returns = m.addressing_model() == Some(crate::grammar::addressing_model::Logical)
        && !caps.contains(&crate::grammar::capability::VariablePointersStorageBuffer);
    let mut return_type = 0;
    let mut fn_type = 0;
    let mut fn_id = 0;
    // Every block's predecessors, only for a module with phis (most
    // compiled shaders before optimisation have none).
    let phis = m.uses(op::OpPhi).then(|| super::phi::Phis::new(m));
    let exotic_types = declares_exotic(m);
    let mut param = 0;
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        match inst.opcode() {
            op::OpFunction => {
                return_type = m.result_type_at(inst);
                fn_type = m.word(i, 3);
                fn_id = m.result_id_at(inst);
                param = 0;
            }
            op::OpFunctionParameter => {
                let want = m.def_word(fn_type, 3 + param);
                if want.is_none() && m.def_opcode(fn_type) == Some(op::OpTypeFunction) {
                    let expected = m.operands_len_of(fn_type).saturating_sub(2);
                    r.error(
                        ErrorKind::FunctionStructure,
                        i,
                        format!("Too many OpFunctionParameters for {fn_id}: expected {expected} based on the function's type"),
                    );
                }
                if want.is_some_and(|t| t != m.result_type_at(inst)) {
                    let t = r.id(m.result_type_at(inst));
                    r.error(
                        ErrorKind::OperandType,
                        i,
                        format!("OpFunctionParameter Result Type <id> {t} does not match the OpTypeFunction parameter type of the same index."),
                    );
                }
                param += 1;
            }
            op::OpPhi => {
                if let Some(phis) = &phis {
                    phis.check(m, r, i)
                }
            }
            op::OpArrayLength => {
                let rt = m.result_type_at(inst);
                let ok = m.def_opcode(rt) == Some(op::OpTypeInt)
                    && matches!(m.def_word(rt, 2), Some(32 | 64))
                    && m.def_word(rt, 3) == Some(0);
                if !ok {
                    let id = r.id(m.result_id_at(inst));
                    r.error(
                        ErrorKind::OperandType,
                        i,
                        format!(
                            "The Result Type of OpArrayLength <id> {id} must be OpTypeInt with width 32 or 64 and \
                             signedness 0."
                        ),
                    );
                }
            }
            op::OpReturnValue => {
                let value = m.word(i, 0);
                if let Some(message) = return_value_problem(m, r, value, return_type, logical_returns) {
                    r.error(ErrorKind::OperandType, i, message);
                }
            }
            _ => {
                let before = r.errors.len();
                Checker { m, i, psb_bitcasts, caps, env, exotic_types }.check(r);
                if shader && r.errors.len() == before {
                    if let Some(message) = super::small_types::instruction_error(m, i, |k| m.type_of(m.word(i, k))) {
                        r.error(ErrorKind::OperandType, i, message);
                    }
                }
            }
        }
        if r.full() {
            return;
        }
    }
}

/// OpReturnValue's value, in spirv-val's order (`ValidateReturnValue`): a
/// value, of a type that is not void, not a pointer under Logical
/// addressing without variable pointers (unless relaxed), of the
/// function's return type.
fn return_value_problem(m: &Module, r: &mut Report, value: u32, return_type: u32, logical: bool) -> Option<String> {
    m.def(value)?;
    let ty = m.type_of(value);
    if ty == 0 {
        let v = r.id(value);
        return Some(format!("OpReturnValue Value <id> {v} does not represent a value."));
    }
    match m.def_opcode(ty) {
        None | Some(op::OpTypeVoid) => {
            let t = r.id(ty);
            return Some(format!("OpReturnValue value's type <id> {t} is missing or void."));
        }
        Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR) if logical && !r.options.relax_logical_pointer => {
            let t = r.id(ty);
            return Some(format!(
                "OpReturnValue value's type <id> {t} is a pointer, which is invalid in the Logical addressing model."
            ));
        }
        _ => {}
    }
    (ty != return_type).then(|| {
        let v = r.id(value);
        format!("OpReturnValue Value <id> {v}s type does not match OpFunction's return type.")
    })
}

/// The result of OpRayQueryGetIntersectionObjectToWorldKHR and
/// WorldToObjectKHR: a matrix of 4 columns of 3-component 32-bit floats.
fn ray_query_matrix(m: &Module, rt: u32) -> Option<&'static str> {
    if m.def_opcode(rt) != Some(op::OpTypeMatrix) {
        return Some("expected matrix type as Result Type");
    }
    if m.def_word(rt, 3) != Some(4) {
        return Some("expected Result Type matrix to have a Column Count of 4");
    }
    let column = m.def_word(rt, 2).unwrap_or(0);
    let component = m.def_word(column, 2).unwrap_or(0);
    let float32 = m.def_opcode(component) == Some(op::OpTypeFloat) && m.def_word(component, 2) == Some(32);
    (!float32 || m.def_word(column, 3) != Some(3))
        .then_some("expected Result Type matrix to have a Column Type of 3-component 32-bit float vectors")
}

/// The NV ray-query getters that take an intersection: `None` for other
/// instructions, else what is wrong with the result type, if anything.
fn ray_query_nv(m: &Module, name: &str, rt: u32) -> Option<Option<&'static str>> {
    let float32 = |t: u32| m.def_opcode(t) == Some(op::OpTypeFloat) && m.def_word(t, 2) == Some(32);
    let float = |t: u32| m.def_opcode(t) == Some(op::OpTypeFloat);
    let element = m.def_word(rt, 2).unwrap_or(0);
    let pair = m.def_opcode(rt) == Some(op::OpTypeArray) && m.constant_value(m.def_word(rt, 3).unwrap_or(0)) == Some(2);
    let (ok, message) = match name {
        "RayQueryGetClusterIdNV" => (
            m.def_opcode(rt) == Some(op::OpTypeInt) && m.def_word(rt, 2) == Some(32),
            "expected Result Type to be 32-bit int scalar type",
        ),
        "RayQueryGetIntersectionSpherePositionNV" => (
            m.def_opcode(rt) == Some(op::OpTypeVector) && float32(element) && m.def_word(rt, 3) == Some(3),
            "expected Result Type to be 32-bit float 3-component vector type",
        ),
        "RayQueryGetIntersectionLSSPositionsNV" => (
            pair && m.def_opcode(element) == Some(op::OpTypeVector)
                && float(m.def_word(element, 2).unwrap_or(0))
                && m.def_word(element, 3) == Some(3),
            "Expected 2 element array of 32-bit 3 component float point vector as Result Type: \
             RayQueryGetIntersectionLSSPositionsNV",
        ),
        "RayQueryGetIntersectionLSSRadiiNV" => (
            pair && float(element),
            "Expected 32-bit floating point scalar as Result Type: RayQueryGetIntersectionLSSRadiiNV",
        ),
        "RayQueryGetIntersectionSphereRadiusNV" | "RayQueryGetIntersectionLSSHitValueNV" => {
            (float32(rt), "expected Result Type to be 32-bit floating point scalar type")
        }
        "RayQueryIsSphereHitNV" | "RayQueryIsLSSHitNV" => {
            (m.def_opcode(rt) == Some(op::OpTypeBool), "expected Result Type to be Boolean scalar type")
        }
        _ => return None,
    };
    Some((!ok).then_some(message))
}
