//! Capabilities, extensions and versions: every instruction and every
//! enumerant operand is enabled by a declared capability (or one it
//! implicitly declares), an extension, or the target's SPIR-V version;
//! numeric types of unusual widths need their capability.

use super::{ErrorKind, Report, ValOptions};
use crate::binary::literal_string_bytes;
use crate::grammar::{
    built_in, capability, decoration, group_operation, op, Category, InstructionInfo, OperandKind, Version,
};
use crate::module::capabilities::declare;
use crate::module::opcode_set::OpcodeSet;
use crate::module::Module;
use crate::TargetEnv;
use rustc_hash::FxHashSet;

/// What the module declares, with the implicit capabilities closed over.
#[derive(Clone)]
struct Declared<'m> {
    capabilities: FxHashSet<u32>,
    extensions: FxHashSet<&'m [u8]>,
    env: TargetEnv,
    env_version: Version,
    module_version: Version,
    /// spirv-val's "features": permissions granted by storage capabilities
    /// and vendor extensions rather than by the grammar.
    int8: bool,
    int16: bool,
    float16: bool,
    free_fp_rounding_mode: bool,
    group_ops_reduce_and_scans: bool,
}

impl Declared<'_> {
    fn has_any_capability(&self, caps: &[u32]) -> bool {
        caps.is_empty() || caps.iter().any(|c| self.capabilities.contains(c))
    }

    fn has_any_extension(&self, exts: &[&str]) -> bool {
        exts.iter().any(|e| self.extensions.contains(e.as_bytes()))
    }

    /// Keeps the capabilities that exist in the target environment.
    fn filter(&self, caps: &[u32]) -> Vec<u32> {
        caps.iter()
            .copied()
            .filter(|&c| OperandKind::Capability.enumerant(c).is_some_and(|e| e.available_in(self.env_version)))
            .collect()
    }
}

pub(crate) use crate::module::capabilities::{declared_extensions, with_implied};

fn declared<'m>(m: &'m Module, options: &ValOptions) -> Declared<'m> {
    let mut capabilities = FxHashSet::default();
    for i in 0..m.insts.len() {
        match m.opcode(i) {
            op::OpCapability => declare(&mut capabilities, m.word(i, 0)),
            op::OpConditionalCapabilityINTEL => declare(&mut capabilities, m.word(i, 1)),
            op::OpExtension | op::OpConditionalExtensionINTEL => {}
            // Layout puts both first.
            _ => break,
        }
    }
    let extensions = declared_extensions(m);
    let has = |c: u32| capabilities.contains(&c);
    let ext = |e: &str| extensions.contains(e.as_bytes());
    let storage16 = [
        capability::StorageBuffer16BitAccess,
        capability::UniformAndStorageBuffer16BitAccess,
        capability::StoragePushConstant16,
        capability::StorageInputOutput16,
        capability::WorkgroupMemoryExplicitLayout16BitAccessKHR,
    ]
    .into_iter()
    .any(has);
    let storage8 = [
        capability::StorageBuffer8BitAccess,
        capability::UniformAndStorageBuffer8BitAccess,
        capability::StoragePushConstant8,
        capability::WorkgroupMemoryExplicitLayout8BitAccessKHR,
    ]
    .into_iter()
    .any(has);
    Declared {
        int8: storage8 || has(capability::Int8),
        int16: storage16 || has(capability::Int16),
        float16: storage16
            || has(capability::Float16)
            || has(capability::Float16Buffer)
            || ext("SPV_AMD_gpu_shader_half_float")
            || ext("SPV_AMD_gpu_shader_half_float_fetch"),
        free_fp_rounding_mode: storage16 || ext("SPV_AMD_gpu_shader_half_float"),
        // Kernel also sets it in spirv-val, but Kernel enables these anyway.
        group_ops_reduce_and_scans: ext("SPV_AMD_shader_ballot"),
        env: options.target_env,
        env_version: options.target_env.spirv_version(),
        module_version: {
            let (a, b) = m.header.version_parts();
            Version(a as u8, b as u8)
        },
        capabilities,
        extensions,
    }
}

/// How many instructions the capability section holds.
fn head_capabilities(m: &Module) -> usize {
    (0..m.insts.len())
        .take_while(|&i| matches!(m.opcode(i), op::OpCapability | op::OpConditionalCapabilityINTEL))
        .count()
}

fn names(caps: &[u32]) -> String {
    // In value order, as spirv-val lists a set of capabilities.
    let mut caps = caps.to_vec();
    caps.sort_unstable();
    caps.dedup();
    caps.iter()
        .map(|&c| OperandKind::Capability.enumerant(c).map_or_else(|| c.to_string(), |e| e.name.to_string()) + " ")
        .collect()
}

/// The capabilities that enable value `v` of operand kind `kind`, or `None`
/// when the operand needs nothing.
fn operand_needs(d: &Declared, kind: OperandKind, v: u32) -> Option<Vec<u32>> {
    match kind {
        OperandKind::BuiltIn if matches!(v, built_in::PointSize | built_in::ClipDistance | built_in::CullDistance) => {
            return None
        }
        OperandKind::FPRoundingMode if d.free_fp_rounding_mode => return None,
        OperandKind::GroupOperation if d.group_ops_reduce_and_scans && v <= group_operation::ExclusiveScan => {
            return None
        }
        OperandKind::Decoration if v == decoration::FPRoundingMode => {
            if d.free_fp_rounding_mode {
                return None;
            }
            if d.env.is_vulkan() {
                return Some(vec![
                    capability::StorageBuffer16BitAccess,
                    capability::UniformAndStorageBuffer16BitAccess,
                    capability::StoragePushConstant16,
                    capability::StorageInputOutput16,
                ]);
            }
        }
        _ => {}
    }
    let e = kind.enumerant(v)?;
    let caps = d.filter(e.capabilities);
    (!caps.is_empty()).then_some(caps)
}

/// The extensions value `v` of `kind` needs, when the module's version
/// does not include it (the module's, not the target's, as spirv-val).
fn operand_extensions(d: &Declared, kind: OperandKind, v: u32) -> &'static [&'static str] {
    match kind.enumerant(v) {
        Some(e) if e.version.is_none_or(|ver| d.module_version < ver) => e.extensions,
        _ => &[],
    }
}

fn check_operand(m: &Module, d: &Declared, r: &mut Report, i: usize, k: usize, kind: OperandKind, v: u32) -> bool {
    let name = &m.insts[i].info().name[2..];
    // A declared capability enables itself and what it depends on.
    let declaring = m.opcode(i) == op::OpCapability;
    if let Some(caps) = operand_needs(d, kind, v).filter(|_| !declaring) {
        if !d.has_any_capability(&caps) {
            r.error(
                ErrorKind::Capability,
                i,
                format!("Operand {} of {name} requires one of these capabilities: {}", k + 1, names(&caps)),
            );
            return false;
        }
    }
    // Enumerants no extension enables exist only in their core versions.
    if let Some(e) = kind.enumerant(v).filter(|e| e.extensions.is_empty()) {
        let mv = d.module_version;
        let range = match (e.version, e.last_version) {
            (Some(min), _) if mv < min => Some(format!("{}.{} or later", min.0, min.1)),
            (_, Some(last)) if mv > last => Some(format!("{}.{} or earlier", last.0, last.1)),
            _ => None,
        };
        if let Some(range) = range {
            let which = ordinal(k + 1);
            r.error(
                ErrorKind::Capability,
                i,
                format!("{which} operand of {name}: operand {}({v}) requires SPIR-V version {range}", e.name),
            );
            return false;
        }
    }
    let exts = operand_extensions(d, kind, v);
    if !exts.is_empty() && !d.has_any_extension(exts) {
        let (which, ename) = (ordinal(k + 1), kind.enumerant(v).map_or("", |e| e.name));
        r.error(
            ErrorKind::Capability,
            i,
            format!(
                "{which} operand of {name}: operand {ename}({v}) requires one of these extensions: {}",
                extension_list(exts)
            ),
        );
        return false;
    }
    true
}

/// "1st", "2nd", "3rd", "4th", ..., "11th", ..., "21st", as spirv-val counts
/// operands.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Extension names as spirv-val lists them: in byte order, each followed
/// by a space.
fn extension_list(exts: &[&str]) -> String {
    // spirv-val prints a set of its Extension enum, whose values follow
    // the names' byte order (not the grammar's order).
    let mut sorted = exts.to_vec();
    sorted.sort_unstable();
    sorted.iter().map(|e| format!("{e} ")).collect()
}

/// `passed`: the opcodes whose own requirements (not their operands') an
/// earlier instruction met; they depend on nothing else, and most modules
/// repeat a few dozen opcodes many times.
fn check_instruction(m: &Module, d: &Declared, r: &mut Report, i: usize, passed: &mut OpcodeSet) {
    let inst = &m.insts[i];
    let info = inst.info();
    let opc = inst.opcode();
    // Reserved by the specification: spirv-val rejects them by name before
    // their capabilities.
    if matches!(
        opc,
        op::OpImageSparseSampleProjImplicitLod
            | op::OpImageSparseSampleProjExplicitLod
            | op::OpImageSparseSampleProjDrefImplicitLod
            | op::OpImageSparseSampleProjDrefExplicitLod
    ) {
        r.error(ErrorKind::Binary, i, format!("Invalid Opcode name '{}'", info.name));
        return;
    }
    // In spirv-val's order: the opcode's capabilities, the operands', then
    // the opcode's version and extensions.
    let known = passed.contains(opc);
    if !known && !opcode_capabilities_met(d, r, i, info) {
        return;
    }
    if !operands_met(m, d, r, i) {
        return;
    }
    if !known && opcode_version_met(d, r, i, info) {
        passed.insert(opc);
    }
}

/// The capabilities instruction `i`'s opcode needs.
fn opcode_capabilities_met(d: &Declared, r: &mut Report, i: usize, info: &InstructionInfo) -> bool {
    let opc = info.opcode;
    let amd_ballot = (op::OpGroupIAddNonUniformAMD..=op::OpGroupSMaxNonUniformAMD).contains(&opc)
        && d.extensions.contains(&b"SPV_AMD_shader_ballot"[..]);
    let caps = if amd_ballot { Vec::new() } else { d.filter(info.capabilities) };
    if !d.has_any_capability(&caps) {
        r.error(
            ErrorKind::Capability,
            i,
            format!("Opcode {} requires one of these capabilities: {}", &info.name[2..], names(&caps)),
        );
        return false;
    }
    true
}

/// The version and extensions instruction `i`'s opcode needs.
fn opcode_version_met(d: &Declared, r: &mut Report, i: usize, info: &InstructionInfo) -> bool {
    let opc = info.opcode;
    if let Some(Version(a, b)) = info.last_version.filter(|&last| d.module_version > last) {
        r.error(ErrorKind::Capability, i, format!("{} requires SPIR-V version {a}.{b} or earlier", &info.name[2..]));
        return false;
    }
    // A capability is enough, except for OpTerminateInvocation, which
    // spirv-val also checks for its version or extension.
    if info.capabilities.is_empty() || opc == op::OpTerminateInvocation {
        let in_core = info.version.is_some_and(|v| v <= d.module_version);
        if !in_core && !d.has_any_extension(info.extensions) {
            let name = &info.name[2..];
            let exts = extension_list(info.extensions);
            let message = match (info.version, exts.is_empty()) {
                (Some(Version(a, b)), true) => format!("{name} requires SPIR-V version {a}.{b} at minimum."),
                (Some(Version(a, b)), false) => format!(
                    "{name} requires SPIR-V version {a}.{b} at minimum or one of the following extensions: {exts}"
                ),
                (None, _) => format!("{name} requires one of the following extensions: {exts}"),
            };
            r.error(ErrorKind::Capability, i, message);
            return false;
        }
    }
    true
}

/// The capabilities, versions and extensions instruction `i`'s operands need.
fn operands_met(m: &Module, d: &Declared, r: &mut Report, i: usize) -> bool {
    for (k, o) in m.operands(i).iter().enumerate() {
        let cat = o.kind.info().category;
        if !matches!(cat, Category::ValueEnum | Category::BitEnum) {
            continue;
        }
        let v = m.word(i, k);
        let ok = if cat == Category::BitEnum {
            (0..32).rev().map(|b| 1u32 << b).filter(|b| v & b != 0).all(|b| check_operand(m, d, r, i, k, o.kind, b))
        } else {
            check_operand(m, d, r, i, k, o.kind, v)
        };
        if !ok {
            return false;
        }
    }
    true
}

/// What the capabilities declared allow of type `i`'s width.
fn width(m: &Module, d: &Declared, r: &mut Report, i: usize) {
    match m.opcode(i) {
        op::OpTypeInt => {
            let need = match m.word(i, 1) {
                8 if !d.int8 => "Using an 8-bit integer type requires the Int8 capability, or an extension that explicitly enables 8-bit integers.".into(),
                16 if !d.int16 => "Using a 16-bit integer type requires the Int16 capability, or an extension that explicitly enables 16-bit integers.".into(),
                64 if !d.capabilities.contains(&capability::Int64) => "Using a 64-bit integer type requires the Int64 capability.".into(),
                8 | 16 | 32 | 64 => return,
                n => format!("Invalid number of bits ({n}) used for OpTypeInt."),
            };
            r.error(ErrorKind::Capability, i, need);
        }
        op::OpTypeFloat => {
            if let Some(need) = float_width_problem(m, d, i) {
                r.error(ErrorKind::Capability, i, need);
            }
        }
        _ => {}
    }
}

/// What spirv-val finds wrong with a float's width: 16 bits need Float16
/// (or a storage capability) unless an encoding says otherwise, 8 bits
/// need Float8EXT and an E4M3 or E5M2 encoding, 64 bits need Float64.
fn float_width_problem(m: &Module, d: &Declared, i: usize) -> Option<String> {
    let encoding = (m.operands(i).len() > 2).then(|| m.word(i, 2));
    let has = |c| d.capabilities.contains(&c);
    match m.word(i, 1) {
        32 => None,
        16 => (encoding.is_none() && !d.float16).then(|| "Using a 16-bit floating point type requires the Float16 or Float16Buffer capability, or an extension that explicitly enables 16-bit floating point.".into()),
        8 if !has(capability::Float8EXT) => Some("Using a 8-bit floating point type requires the Float8EXT capability.".into()),
        8 => match encoding {
            None => Some("8-bit floating point type requires an encoding.".into()),
            Some(crate::grammar::fp_encoding::Float8E4M3EXT | crate::grammar::fp_encoding::Float8E5M2EXT) => None,
            Some(e) => {
                let name = OperandKind::FPEncoding.enumerant(e).map_or("", |e| e.name);
                Some(format!("Unsupported 8-bit floating point encoding ({name})."))
            }
        },
        64 if !has(capability::Float64) => Some("Using a 64-bit floating point type requires the Float64 capability.".into()),
        64 => None,
        n => Some(format!("Invalid number of bits ({n}) used for OpTypeFloat.")),
    }
}

/// Extensions that only exist from some SPIR-V version on.
const EXTENSION_VERSIONS: &[(&str, Version)] = &[
    ("SPV_KHR_vulkan_memory_model", Version(1, 3)),
    ("SPV_QCOM_cooperative_matrix_conversion", Version(1, 3)),
    ("SPV_KHR_workgroup_memory_explicit_layout", Version(1, 4)),
    ("SPV_EXT_mesh_shader", Version(1, 4)),
    ("SPV_NV_shader_invocation_reorder", Version(1, 4)),
    ("SPV_EXT_shader_invocation_reorder", Version(1, 4)),
    ("SPV_NV_cluster_acceleration_structure", Version(1, 4)),
    ("SPV_NV_linear_swept_spheres", Version(1, 4)),
    ("SPV_QCOM_image_processing", Version(1, 4)),
    ("SPV_QCOM_image_processing2", Version(1, 4)),
];

pub(crate) fn check(m: &Module, options: &ValOptions, r: &mut Report) {
    let d = declared(m, options);
    let mut passed = OpcodeSet::new(&[]);
    // spirv-val registers capabilities in module order, each before its own
    // instruction is checked: in the capability section an instruction sees
    // only those declared up to it (OpConditionalCapabilityINTEL before the
    // SpecConditionalINTEL it needs fails); after it, all of them.
    let mut so_far = Declared { capabilities: FxHashSet::default(), ..d.clone() };
    let head = head_capabilities(m);
    for i in 0..m.insts.len() {
        let now = if i < head {
            let operand = usize::from(m.opcode(i) == op::OpConditionalCapabilityINTEL);
            declare(&mut so_far.capabilities, m.word(i, operand));
            &so_far
        } else {
            &d
        };
        check_instruction(m, now, r, i, &mut passed);
        if r.full() {
            return;
        }
    }
}

/// What spirv-val checks in its later walk, after the structural checks:
/// the module's version against its extensions and imported sets, and the
/// widths of integer and float types.
pub(crate) fn check_late(m: &Module, options: &ValOptions, r: &mut Report) {
    let d = declared(m, options);
    // Extensions and imports come first (the layout pass checks it; these
    // errors are reported only where it passes).
    let head = (0..m.insts.len())
        .take_while(|&i| {
            matches!(
                m.opcode(i),
                op::OpCapability
                    | op::OpConditionalCapabilityINTEL
                    | op::OpExtension
                    | op::OpConditionalExtensionINTEL
                    | op::OpExtInstImport
            )
        })
        .count();
    let string_at = |i: usize, operand: usize| literal_string_bytes(&m.words[m.insts[i].offset as usize + operand..]);
    for i in (0..head).filter(|&i| m.opcode(i) == op::OpExtension) {
        for (name, min) in EXTENSION_VERSIONS {
            if d.module_version < *min && string_at(i, 1) == name.as_bytes() {
                r.error(
                    ErrorKind::Capability,
                    i,
                    format!("{name} extension requires SPIR-V version {}.{} or later.", min.0, min.1),
                );
            }
        }
    }
    if d.module_version < crate::grammar::Version(1, 6)
        && !declared_extensions(m).contains(&b"SPV_KHR_non_semantic_info"[..])
    {
        let non_semantic =
            (0..head).find(|&i| m.opcode(i) == op::OpExtInstImport && string_at(i, 2).starts_with(b"NonSemantic."));
        if let Some(i) = non_semantic {
            r.error(
                ErrorKind::Capability,
                i,
                "NonSemantic extended instruction sets cannot be declared without SPV_KHR_non_semantic_info. \
                 (This can also be fixed having SPIR-V 1.6 or later)"
                    .to_string(),
            );
        }
    }
    for i in 0..m.insts.len() {
        width(m, &d, r, i);
        if r.full() {
            return;
        }
    }
}
