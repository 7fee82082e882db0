//! Explicit layout of interface blocks: a Block or BufferBlock struct used
//! by a Uniform, StorageBuffer or PushConstant variable gives every member
//! an Offset, every array member an ArrayStride, every matrix member a
//! MatrixStride and a RowMajor or ColMajor, nested structs included
//! (spec 2.16.2, as spirv-val checks it in every environment).
//!
//! In Vulkan environments the offsets and strides themselves must follow
//! the standard uniform-buffer (std140) or storage-buffer (std430) rules,
//! relaxed from Vulkan 1.1 on (vectors aligned to their components, not
//! straddling 16 bytes), computed as spirv-val computes them.

use super::{ErrorKind, Report};
use crate::grammar::{decoration, op, storage_class};
use crate::module::Module;
use rustc_hash::{FxHashMap, FxHashSet};

/// Decorations by target: whole-id ones, and (member, decoration, first
/// parameter) for struct members; those of decoration groups included, in
/// spirv-val's order (by member, then decoration and parameters), so that
/// the last of a kind is the one it finds last.
#[derive(Default)]
pub(super) struct Decorations {
    pub on_id: FxHashMap<u32, Vec<(u32, Option<u32>)>>,
    pub on_member: FxHashMap<u32, Vec<(u32, u32, Option<u32>)>>,
}

impl Decorations {
    pub fn read(m: &Module) -> Self {
        let mut d = Decorations::default();
        for (&target, list) in m.decorations() {
            for (dec, member, params) in list {
                let param = params.first().copied();
                match u32::try_from(*member) {
                    Ok(member) => d.on_member.entry(target).or_default().push((member, *dec, param)),
                    Err(_) => d.on_id.entry(target).or_default().push((*dec, param)),
                }
            }
        }
        d
    }

    pub fn has(&self, id: u32, dec: u32) -> bool {
        self.on_id.get(&id).is_some_and(|v| v.iter().any(|&(d, _)| d == dec))
    }

    /// Whether `dec` is on `id` or on one of its members.
    pub fn has_anywhere(&self, id: u32, dec: u32) -> bool {
        self.has(id, dec) || self.on_member.get(&id).is_some_and(|v| v.iter().any(|&(_, d, _)| d == dec))
    }

    /// The parameter of the (last) decoration `dec` on `id`.
    fn param(&self, id: u32, dec: u32) -> Option<u32> {
        self.on_id.get(&id)?.iter().rev().find(|&&(d, _)| d == dec)?.1
    }

    /// The parameter of the (last) member decoration `dec` of `id`'s member.
    fn member_param(&self, id: u32, member: usize, dec: u32) -> Option<u32> {
        self.on_member.get(&id)?.iter().rev().find(|&&(k, d, _)| k as usize == member && d == dec)?.2
    }

    /// Majorness and matrix stride of a struct member (column-major and 0
    /// unless decorated).
    fn constraint(&self, id: u32, member: usize) -> Constraint {
        let mut c = Constraint { row_major: false, matrix_stride: 0 };
        for &(k, d, p) in self.on_member.get(&id).into_iter().flatten() {
            if k as usize != member {
                continue;
            }
            match d {
                decoration::RowMajor => c.row_major = true,
                decoration::ColMajor => c.row_major = false,
                decoration::MatrixStride => c.matrix_stride = p.unwrap_or(0),
                _ => {}
            }
        }
        c
    }

    fn member_has(&self, id: u32, member: usize, dec: impl Fn(u32) -> bool) -> bool {
        self.on_member.get(&id).is_some_and(|v| v.iter().any(|&(k, d, _)| k as usize == member && dec(d)))
    }
}

fn members(m: &Module, id: u32) -> Vec<u32> {
    match m.def(id) {
        Some(s) if s.opcode() == op::OpTypeStruct => {
            let i = m.defs.at(id);
            (1..m.operands(i).len()).map(|k| m.word(i, k)).collect()
        }
        _ => Vec::new(),
    }
}

/// A member (or nested member) without an Offset.
fn missing_offset(m: &Module, d: &Decorations, id: u32, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    let (inner, all_set) = match m.def_opcode(id) {
        Some(op::OpTypeStruct) => {
            let inner = members(m, id);
            let decs = d.on_member.get(&id);
            if decs.is_some_and(|v| v.iter().any(|&(_, dec, p)| dec == decoration::Offset && p == Some(u32::MAX))) {
                return true;
            }
            let all = (0..inner.len()).all(|k| d.member_has(id, k, |dec| dec == decoration::Offset));
            (inner, all)
        }
        Some(op::OpTypeArray | op::OpTypeRuntimeArray) => (m.def_word(id, 2).into_iter().collect(), true),
        _ => return false,
    };
    !all_set || inner.iter().any(|&x| missing_offset(m, d, x, depth + 1))
}

/// Every member of type `kind` (matrices seen through arrays) carries a
/// decoration `dec` accepts, on its type or as a member decoration; nested
/// struct members likewise.
fn has_required(m: &Module, d: &Decorations, id: u32, kind: u16, dec: &dyn Fn(u32) -> bool, depth: u32) -> bool {
    if depth > 64 {
        return true;
    }
    let inner = members(m, id);
    for (k, &member) in inner.iter().enumerate() {
        let mut ty = member;
        if kind == op::OpTypeMatrix {
            let mut guard = 0;
            while matches!(m.def_opcode(ty), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) && guard < 64 {
                ty = m.def_word(ty, 2).unwrap_or(0);
                guard += 1;
            }
        }
        if m.def_opcode(ty) != Some(kind) {
            continue;
        }
        let on_type = d.on_id.get(&ty).is_some_and(|v| v.iter().any(|&(x, _)| dec(x)));
        if !on_type && !d.member_has(id, k, dec) {
            return false;
        }
    }
    inner
        .iter()
        .filter(|&&x| m.def_opcode(x) == Some(op::OpTypeStruct))
        .all(|&x| has_required(m, d, x, kind, dec, depth + 1))
}

pub(crate) fn check(m: &Module, env: crate::TargetEnv, options: &BlockLayout, r: &mut Report) {
    // Decoration groups are not followed: leave such modules alone rather
    // than miss a decoration they apply.
    if m.insts.iter().any(|i| i.opcode() == op::OpDecorationGroup) {
        return;
    }
    let d = Decorations::read(m);
    let explicit_workgroup =
        super::capabilities::with_implied(m).contains(&crate::grammar::capability::WorkgroupMemoryExplicitLayoutKHR);
    let vulkan = env.is_vulkan();
    let untyped = vulkan && m.declared_capabilities.contains(&crate::grammar::capability::UntypedPointersKHR);
    let mut done = FxHashSet::default();
    // (instruction, type laid out, decoration, storage class, uniform-buffer
    // rules), the variables' in Vulkan only.
    let mut checked = Vec::new();
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        if !matches!(inst.opcode(), op::OpVariable | op::OpUntypedVariableKHR) {
            // Any value of a PhysicalStorageBuffer pointer type has its
            // pointee laid out (spirv-val's rule; the declaration of the
            // pointer type alone does not count).
            let ty = m.result_type_at(inst);
            if ty != 0
                && m.def_opcode(ty) == Some(op::OpTypePointer)
                && m.def_word(ty, 2) == Some(storage_class::PhysicalStorageBuffer)
            {
                if let Some(id) = m.def_word(ty, 3) {
                    if done.insert((id, "PSB")) {
                        checked.push((i, id, "Block", "PhysicalStorageBuffer", false));
                    }
                }
            } else if untyped {
                if let Some(job) = untyped_access(m, &d, i) {
                    if done.insert((job.1, job.3)) {
                        checked.push(job);
                    }
                }
            }
            continue;
        }
        let class = m.word(i, 2);
        let workgroup = class == storage_class::Workgroup && explicit_workgroup;
        if !workgroup
            && !matches!(
                class,
                storage_class::Uniform
                    | storage_class::StorageBuffer
                    | storage_class::PushConstant
                    | storage_class::PhysicalStorageBuffer
            )
        {
            continue;
        }
        // Typed variables by their pointer type, untyped ones by their data
        // type (if they give one).
        let ptr = m.result_type_at(inst);
        let data = if inst.opcode() == op::OpUntypedVariableKHR {
            (m.operands(i).len() > 3).then(|| m.word(i, 3))
        } else if m.def_opcode(ptr) == Some(op::OpTypePointer) {
            m.def_word(ptr, 3)
        } else {
            None
        };
        let Some(mut id) = data else { continue };
        if !workgroup && matches!(m.def_opcode(id), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) {
            id = m.def_word(id, 2).unwrap_or(0);
        }
        if m.def_opcode(id) != Some(op::OpTypeStruct) {
            continue;
        }
        let uniform = class == storage_class::Uniform;
        // Which rules a decoration brings in this storage class; others
        // (a BufferBlock StorageBuffer struct, say) are not laid out here.
        let rules = if d.has(id, decoration::Block) {
            Some(("Block", uniform))
        } else if d.has(id, decoration::BufferBlock) && uniform {
            Some(("BufferBlock", false))
        } else {
            None
        };
        let Some((deco, uniform_rules)) = rules else { continue };
        let class_name = class_name(class);
        if !done.insert((id, class_name)) {
            continue;
        }
        let missing = if missing_offset(m, &d, id, 0) {
            "Offset"
        } else if !has_required(m, &d, id, op::OpTypeArray, &|x| x == decoration::ArrayStride, 0) {
            "ArrayStride"
        } else if !has_required(m, &d, id, op::OpTypeMatrix, &|x| x == decoration::MatrixStride, 0) {
            "MatrixStride"
        } else if !has_required(
            m,
            &d,
            id,
            op::OpTypeMatrix,
            &|x| x == decoration::RowMajor || x == decoration::ColMajor,
            0,
        ) {
            "RowMajor or ColMajor"
        } else {
            if vulkan {
                checked.push((i, id, deco, class_name, uniform_rules));
            }
            continue;
        };
        r.error(
            ErrorKind::Decoration,
            m.defs.at(id),
            format!("Structure id {id} decorated as {deco} must be explicitly laid out with {missing} decorations."),
        );
        return;
    }
    if matches!(env, crate::TargetEnv::OpenCl { .. }) || options.skip {
        return;
    }
    // Vulkan lays out every buffer variable and what untyped pointers
    // access; every environment lays out what PhysicalStorageBuffer
    // pointers point to, by the storage-buffer rules. spirv-val goes in
    // instruction order.
    // Vulkan 1.1 and later relax the rules (VK_KHR_relaxed_block_layout).
    let relaxed = options.relax || matches!(env, crate::TargetEnv::Vulkan(1..) | crate::TargetEnv::Vulkan11Spv14);
    checked.sort_by_key(|job| job.0);
    for (_, id, deco, class_name, uniform_rules) in checked {
        // VK_KHR_uniform_buffer_standard_layout makes uniform blocks std430.
        let uniform_rules = uniform_rules && !options.uniform_buffer_standard;
        // Scalar layout is the more permissive: it overrides the relaxed
        // rules where both apply, as in spirv-val.
        let scalar = if class_name == "Workgroup" { options.workgroup_scalar } else { options.scalar };
        let layout = Layout { m, d: &d, uniform_rules, relaxed: relaxed && !scalar, scalar };
        if let Err(failure) = layout.check(id, 0, 0) {
            let (id, member, what) = match failure {
                Failure::Member(id, member, what) => (id, member, what),
                Failure::RuntimeArrayNotLast(id, offset) => {
                    let vuid = if vulkan { "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] " } else { "" };
                    r.error(
                        ErrorKind::Decoration,
                        m.defs.at(id),
                        format!(
                            "{vuid}Structure id {id} has a runtime array at offset {offset}, but other members at \
                             larger offsets"
                        ),
                    );
                    return;
                }
            };
            let rules = format!(
                "{} {} layout rules",
                if scalar {
                    "scalar"
                } else if relaxed {
                    "relaxed"
                } else {
                    "standard"
                },
                if uniform_rules { "uniform buffer" } else { "storage buffer" }
            );
            r.error(
                ErrorKind::Decoration,
                m.defs.at(id),
                format!(
                    "Structure id {id} decorated as {deco} for variable in {class_name} storage class must follow {rules}: member {member} {what}"
                ),
            );
            return;
        }
    }
}

/// Why a layout fails, naming the (innermost) struct that breaks it, as
/// spirv-val reports it.
enum Failure {
    /// A member breaks the rules.
    Member(u32, usize, String),
    /// A runtime array member is not the last by offset.
    RuntimeArrayNotLast(u32, u32),
}

/// spirv-val's names of the storage classes laid out.
fn class_name(class: u32) -> &'static str {
    match class {
        storage_class::Uniform => "Uniform",
        storage_class::UniformConstant => "UniformConstant",
        storage_class::PushConstant => "PushConstant",
        storage_class::Workgroup => "Workgroup",
        storage_class::PhysicalStorageBuffer => "PhysicalStorageBuffer",
        _ => "StorageBuffer",
    }
}

/// What an instruction accesses through an untyped pointer (the base type
/// of an untyped access chain or OpUntypedArrayLengthKHR, the data an
/// OpLoad or OpStore moves) is laid out by its storage class's rules: as a
/// buffer's (a Block struct's) in all classes but Uniform, where only a
/// BufferBlock struct is. An array of Block structs is a descriptor array:
/// its struct is laid out instead.
fn untyped_access<'a>(m: &Module, d: &Decorations, i: usize) -> Option<(usize, u32, &'a str, &'a str, bool)> {
    let untyped_type_of =
        |id: u32| Some(m.type_of(id)).filter(|&t| m.def_opcode(t) == Some(op::OpTypeUntypedPointerKHR));
    let (ptr_type, mut data) = match m.opcode(i) {
        op::OpUntypedAccessChainKHR
        | op::OpUntypedInBoundsAccessChainKHR
        | op::OpUntypedPtrAccessChainKHR
        | op::OpUntypedInBoundsPtrAccessChainKHR => (m.result_type_word(i), m.word(i, 2)),
        op::OpLoad => (untyped_type_of(m.word(i, 2))?, m.result_type_word(i)),
        op::OpStore => (untyped_type_of(m.word(i, 0))?, m.type_of(m.word(i, 1))),
        op::OpUntypedArrayLengthKHR => (m.type_of(m.word(i, 3)), m.word(i, 2)),
        _ => return None,
    };
    let class = m.def_word(ptr_type, 2)?;
    if matches!(m.def_opcode(data)?, op::OpTypeArray | op::OpTypeRuntimeArray) {
        let element = m.def_word(data, 2)?;
        if m.def_opcode(element) == Some(op::OpTypeStruct)
            && (d.has(element, decoration::Block) || d.has(element, decoration::BufferBlock))
        {
            data = element;
        }
    }
    let uniform = class == storage_class::Uniform;
    let buffer_rules = !uniform || d.has(data, decoration::BufferBlock) && m.def_opcode(data) == Some(op::OpTypeStruct);
    let deco = if buffer_rules && uniform { "BufferBlock" } else { "Block" };
    Some((i, data, deco, class_name(class), !buffer_rules))
}

/// Majorness and matrix stride, as a struct member's decorations give them.
#[derive(Copy, Clone)]
struct Constraint {
    row_major: bool,
    matrix_stride: u32,
}

fn align_up(x: u32, a: u32) -> u32 {
    if a == 0 {
        x
    } else {
        x.div_ceil(a).saturating_mul(a)
    }
}

fn aligned(x: u32, a: u32) -> bool {
    a == 0 || x.is_multiple_of(a)
}

/// The layout rules of one block.
struct Layout<'a, 'w> {
    m: &'a Module<'w>,
    d: &'a Decorations,
    /// std140: arrays, structs and matrices round their alignment up to 16.
    uniform_rules: bool,
    /// VK_KHR_relaxed_block_layout: vectors aligned to their components,
    /// without straddling 16-byte boundaries.
    relaxed: bool,
    /// VK_EXT_scalar_block_layout: everything aligned to its scalars, and
    /// members may sit in the padding of the one before.
    scalar: bool,
}

/// spirv-val's block layout options (`--relax-block-layout`,
/// `--uniform-buffer-standard-layout`, `--scalar-block-layout`,
/// `--workgroup-scalar-block-layout`, `--skip-block-layout`): the device
/// features a Vulkan application enabled. Built from the default with one
/// method per field:
///
/// ```
/// use gpuasm_spirv::validate::{BlockLayout, ValOptions};
/// let options = ValOptions::default().block_layout(BlockLayout::default().scalar(true));
/// assert!(options.block_layout.scalar && !options.block_layout.skip);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct BlockLayout {
    /// VK_KHR_relaxed_block_layout (always on from Vulkan 1.1).
    pub relax: bool,
    /// VK_KHR_uniform_buffer_standard_layout: uniform blocks follow the
    /// storage-buffer rules.
    pub uniform_buffer_standard: bool,
    /// VK_EXT_scalar_block_layout for uniform, storage and push-constant
    /// blocks.
    pub scalar: bool,
    /// Scalar layout for Workgroup blocks
    /// (workgroupMemoryExplicitLayoutScalarBlockLayout).
    pub workgroup_scalar: bool,
    /// Do not check offsets and strides at all (their presence still is).
    pub skip: bool,
}

impl BlockLayout {
    /// Sets [`BlockLayout::relax`] (spirv-val's `--relax-block-layout`).
    pub fn relax(mut self, relax: bool) -> Self {
        self.relax = relax;
        self
    }

    /// Sets [`BlockLayout::uniform_buffer_standard`] (spirv-val's `--uniform-buffer-standard-layout`).
    pub fn uniform_buffer_standard(mut self, uniform_buffer_standard: bool) -> Self {
        self.uniform_buffer_standard = uniform_buffer_standard;
        self
    }

    /// Sets [`BlockLayout::scalar`] (spirv-val's `--scalar-block-layout`).
    pub fn scalar(mut self, scalar: bool) -> Self {
        self.scalar = scalar;
        self
    }

    /// Sets [`BlockLayout::workgroup_scalar`] (spirv-val's `--workgroup-scalar-block-layout`).
    pub fn workgroup_scalar(mut self, workgroup_scalar: bool) -> Self {
        self.workgroup_scalar = workgroup_scalar;
        self
    }

    /// Sets [`BlockLayout::skip`] (spirv-val's `--skip-block-layout`).
    pub fn skip(mut self, skip: bool) -> Self {
        self.skip = skip;
        self
    }
}

impl Layout<'_, '_> {
    fn word(&self, id: u32, k: usize) -> u32 {
        self.m.def_word(id, k).unwrap_or(0)
    }

    /// The alignment a member or array element needs under these rules.
    fn alignment(&self, id: u32, c: Constraint) -> u32 {
        if self.scalar {
            self.scalar_alignment(id, 0)
        } else {
            self.base_alignment(id, c, 0)
        }
    }

    fn scalar_alignment(&self, id: u32, depth: u32) -> u32 {
        if depth > 64 {
            return 1;
        }
        match self.m.def_opcode(id) {
            Some(op::OpTypeInt | op::OpTypeFloat) => self.word(id, 2) / 8,
            Some(op::OpTypeVector | op::OpTypeMatrix | op::OpTypeArray | op::OpTypeRuntimeArray) => {
                self.scalar_alignment(self.word(id, 2), depth + 1)
            }
            Some(op::OpTypeStruct) => {
                members(self.m, id).iter().map(|&x| self.scalar_alignment(x, depth + 1)).max().unwrap_or(1)
            }
            Some(op::OpTypePointer) => 8,
            _ => 1,
        }
    }

    fn base_alignment(&self, id: u32, c: Constraint, depth: u32) -> u32 {
        if depth > 64 {
            return 1;
        }
        let round = |a: u32| if self.uniform_rules { align_up(a, 16) } else { a };
        match self.m.def_opcode(id) {
            Some(op::OpTypeInt | op::OpTypeFloat) => self.word(id, 2) / 8,
            Some(op::OpTypeVector) => {
                let n = self.word(id, 3);
                self.base_alignment(self.word(id, 2), c, depth + 1).saturating_mul(if n == 3 { 4 } else { n })
            }
            Some(op::OpTypeMatrix) => {
                let column = self.word(id, 2);
                let a = if c.row_major {
                    let n = self.word(id, 3);
                    self.base_alignment(self.word(column, 2), c, depth + 1).saturating_mul(if n == 3 { 4 } else { n })
                } else {
                    self.base_alignment(column, c, depth + 1)
                };
                round(a)
            }
            Some(op::OpTypeArray | op::OpTypeRuntimeArray) => {
                round(self.base_alignment(self.word(id, 2), c, depth + 1))
            }
            Some(op::OpTypeStruct) => {
                let a = members(self.m, id)
                    .iter()
                    .enumerate()
                    .map(|(k, &x)| self.base_alignment(x, self.d.constraint(id, k), depth + 1))
                    .fold(1, u32::max);
                round(a)
            }
            Some(op::OpTypePointer) => 8,
            _ => 1,
        }
    }

    fn size(&self, id: u32, c: Constraint, depth: u32) -> u32 {
        if depth > 64 {
            return 0;
        }
        let m = self.m;
        match m.def_opcode(id) {
            Some(op::OpTypeInt | op::OpTypeFloat) => self.word(id, 2) / 8,
            Some(op::OpTypeVector) => self.size(self.word(id, 2), c, depth + 1).saturating_mul(self.word(id, 3)),
            Some(op::OpTypeArray) => {
                let length = self.word(id, 3);
                if m.def_opcode(length) != Some(op::OpConstant) {
                    return 0;
                }
                let n = self.word(length, 3);
                let stride = self.d.param(id, decoration::ArrayStride).unwrap_or(0);
                n.saturating_sub(1).saturating_mul(stride).saturating_add(self.size(self.word(id, 2), c, depth + 1))
            }
            Some(op::OpTypeMatrix) => {
                let columns = self.word(id, 3);
                if c.row_major {
                    let column = self.word(id, 2);
                    let rows = self.word(column, 3);
                    let scalar = self.size(self.word(column, 2), c, depth + 1);
                    rows.saturating_sub(1)
                        .saturating_mul(c.matrix_stride)
                        .saturating_add(columns.saturating_mul(scalar))
                } else {
                    columns.saturating_mul(c.matrix_stride)
                }
            }
            Some(op::OpTypeStruct) => {
                let inner = members(m, id);
                let Some(&last) = inner.last() else { return 0 };
                let k = inner.len() - 1;
                let offset = self.d.member_param(id, k, decoration::Offset).unwrap_or(0);
                // spirv-val looks the last member's constraint up under the
                // member's type id; do the same so sizes agree.
                offset.saturating_add(self.size(last, self.d.constraint(last, k), depth + 1))
            }
            Some(op::OpTypePointer) => 8,
            _ => 0,
        }
    }

    /// Checks a struct placed at `base`; the failing member and why.
    fn check(&self, id: u32, base: u32, depth: u32) -> Result<(), Failure> {
        if depth > 64 {
            return Ok(());
        }
        let m = self.m;
        // Another type (what a PhysicalStorageBuffer or untyped pointer
        // reaches) is laid out as a struct's only member, at offset 0.
        let is_struct = m.def_opcode(id) == Some(op::OpTypeStruct);
        let inner = if is_struct { members(m, id) } else { vec![id] };
        let member_offset = |k: usize| if is_struct { self.d.member_param(id, k, decoration::Offset) } else { Some(0) };
        // A member without an Offset sorts last, as spirv-val's 0xffffffff.
        let mut order: Vec<(usize, u32)> = (0..inner.len())
            .map(|k| match member_offset(k) {
                Some(o) => (k, base.saturating_add(o)),
                None => (k, u32::MAX),
            })
            .collect();
        order.sort_by_key(|&(_, offset)| offset);
        let mut next_valid = 0u32;
        for (position, &(k, offset)) in order.iter().enumerate() {
            let ty = inner[k];
            if member_offset(k).is_none() {
                return Err(Failure::Member(id, k, "is missing an Offset decoration".into()));
            }
            let c = self.d.constraint(id, k);
            let alignment = self.alignment(ty, c);
            let opcode = m.def_opcode(ty);
            let size = self.size(ty, c, 0);
            if opcode == Some(op::OpTypeRuntimeArray) && position != order.len() - 1 {
                return Err(Failure::RuntimeArrayNotLast(id, offset));
            }
            if self.relaxed && opcode == Some(op::OpTypeVector) {
                let scalar = self.scalar_alignment(self.word(ty, 2), 0);
                if !aligned(offset, scalar) {
                    return Err(Failure::Member(
                        id,
                        k,
                        format!("at offset {offset} is not aligned to scalar element size {scalar}"),
                    ));
                }
            } else if !aligned(offset, alignment) {
                return Err(Failure::Member(id, k, format!("at offset {offset} is not aligned to {alignment}")));
            }
            if offset < next_valid {
                return Err(Failure::Member(
                    id,
                    k,
                    format!("at offset {offset} overlaps previous member ending at offset {}", next_valid - 1),
                ));
            }
            if self.relaxed && opcode == Some(op::OpTypeVector) {
                let last = offset.saturating_add(size).saturating_sub(1);
                let straddles = if size <= 16 { offset >> 4 != last >> 4 } else { offset % 16 != 0 };
                if straddles {
                    return Err(Failure::Member(
                        id,
                        k,
                        format!("is an improperly straddling vector at offset {offset}"),
                    ));
                }
            }
            if opcode == Some(op::OpTypeStruct) {
                self.check(ty, offset, depth + 1)?;
            }
            if opcode == Some(op::OpTypeMatrix) && !aligned(c.matrix_stride, alignment) {
                return Err(Failure::Member(
                    id,
                    k,
                    format!("is a matrix with stride {} not satisfying alignment to {alignment}", c.matrix_stride),
                ));
            }
            // Arrays, level by level.
            let mut array = ty;
            let mut array_alignment = alignment;
            let mut guard = 0;
            while matches!(m.def_opcode(array), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) && guard < 64 {
                guard += 1;
                let element = self.word(array, 2);
                let mut stride = 0;
                for &(dec, p) in self.d.on_id.get(&array).into_iter().flatten() {
                    if dec != decoration::ArrayStride {
                        continue;
                    }
                    stride = p.unwrap_or(0);
                    if stride == 0 {
                        return Err(Failure::Member(id, k, "contains an array with stride 0".into()));
                    }
                    if !aligned(stride, array_alignment) {
                        return Err(Failure::Member(
                            id,
                            k,
                            format!("contains an array with stride {stride} not satisfying alignment to {alignment}"),
                        ));
                    }
                }
                let count = if m.def_opcode(array) == Some(op::OpTypeArray) {
                    let length = self.word(array, 3);
                    if m.def_opcode(length) == Some(op::OpConstant) {
                        self.word(length, 3)
                    } else {
                        0
                    }
                } else {
                    0
                };
                match m.def_opcode(element) {
                    Some(op::OpTypeStruct) => {
                        let mut seen = [false; 16];
                        for e in 0..count.max(1) {
                            let at = e.saturating_mul(stride).saturating_add(offset);
                            if std::mem::replace(&mut seen[(at % 16) as usize], true) {
                                break;
                            }
                            self.check(element, at, depth + 1)?;
                        }
                    }
                    Some(op::OpTypeMatrix) if !aligned(c.matrix_stride, alignment) => {
                        return Err(Failure::Member(
                            id,
                            k,
                            format!(
                                "is a matrix with stride {} not satisfying alignment to {alignment}",
                                c.matrix_stride
                            ),
                        ));
                    }
                    _ => {}
                }
                array = element;
                array_alignment = self.alignment(array, c);
                let element_size = self.size(element, c, 0);
                if element_size > stride {
                    return Err(Failure::Member(
                        id,
                        k,
                        format!("contains an array with stride {stride}, but with an element size of {element_size}"),
                    ));
                }
            }
            next_valid = offset.saturating_add(size);
            // Only scalar layout lets a member use the padding of the one
            // before it.
            if !self.scalar && matches!(opcode, Some(op::OpTypeArray | op::OpTypeStruct)) {
                next_valid = align_up(next_valid, alignment);
            }
        }
        Ok(())
    }
}
