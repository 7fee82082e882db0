//! Friendly names for ids (`%int`, `%_ptr_Function_float`, `%main`), built
//! the way spirv-dis builds them: one pass over the module, where the first rule that fires for an id wins (`OpName`,
//! then `BuiltIn` decorations, then names derived from types and constants),
//! and every other result id keeps its number so that an `OpName "1"` cannot
//! collide with it. Clashes get `_0`, `_1`, ... suffixes.
//!
//! Owns the names table ([`IdNames`]). A [`Module`](super::Module) computes
//! it on first use ([`Module::names`](super::Module::names)); the
//! disassembler, which streams and builds no module, runs the same pass on
//! its words; the validator's messages read the module's.
//!
//! ```
//! let src = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
//! let words = gpuasm_spirv::text::assemble(src, &Default::default()).unwrap();
//! let module = gpuasm_spirv::module::Module::read(&words).unwrap();
//! let names = module.names();
//! // As spirv-dis prints it: `%void = OpTypeVoid`, `%3 = OpTypeFunction
//! // %void`, `%1 = OpFunction` (ids numbered in order of appearance).
//! assert_eq!(names.get(2), Some("void"));
//! assert_eq!(names.get(3), None);
//! assert_eq!(names.get(1), None);
//! ```

use crate::binary::{IdMap, InstructionParser, NumberKind, ParserOptions};
use crate::grammar::{fp_encoding, op, OperandKind};
use crate::number;
use hashbrown::hash_table::Entry;
use hashbrown::HashTable;
use rustc_hash::FxHashMap;
use std::hash::{BuildHasher, BuildHasherDefault};

/// Marks an id whose name is its own number (the common case, stored
/// without text).
const OWN_NUMBER: (u32, u32) = (u32::MAX, 0);

/// How ids are shown: by number, or by friendly name.
///
/// ```
/// use gpuasm_spirv::module::Module;
/// let words = gpuasm_spirv::text::assemble(
///     "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpName %f \"main\"\n%void = OpTypeVoid\n\
///      %fn = OpTypeFunction %void\n%f = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n",
///     &Default::default(),
/// )
/// .unwrap();
/// let module = Module::read(&words).unwrap();
/// let named: Vec<_> = (0..module.insts().len()).filter_map(|i| module.result_id(i)).map(|id| module.name(id)).collect();
/// // Function types and labels keep their numbers (`%2`, `%4`).
/// assert_eq!(named, [Some("void"), None, Some("main"), None]);
/// ```
pub struct IdNames {
    /// Byte range of each named id's text in `arena`.
    ranges: IdMap<(u32, u32)>,
    /// Names, back to back; all ASCII (names are sanitized).
    arena: Vec<u8>,
    /// `--raw-id`: every id is its number, without a look-up.
    numbers_only: bool,
    /// False if the names outgrew [`IdNames::limit`] and the pass stopped:
    /// ids from there on keep their numbers, unlike in spirv-dis.
    complete: bool,
}

impl IdNames {
    /// Numbers only (`--raw-id`).
    pub(crate) fn raw() -> IdNames {
        IdNames { ranges: IdMap::with_cap(0), arena: Vec::new(), numbers_only: true, complete: true }
    }

    /// How many bytes the names of a module of `words` may take: 256 MiB
    /// and 16 bytes a word. A type's name spells out its element type's
    /// (`%_arr__arr_int_uint_2_uint_2`), so a chain of nested types has
    /// names quadratic in its length: 20,000 nested arrays, a 320 KB
    /// module, would take 2.4 GB of names (and spirv-dis more than 10 GB).
    /// Real modules stay far below: 1.5 MB of names on a 19 MB module.
    pub fn limit(words: usize) -> usize {
        // Offsets in the arena are u32.
        (256usize << 20).saturating_add(words.saturating_mul(16)).min(u32::MAX as usize - (1 << 20))
    }

    /// Whether every id has the name spirv-dis gives it: false where the
    /// names would outgrow [`IdNames::limit`] (ids past that point keep
    /// their numbers).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Friendly names for every id of the module, in at most `limit`
    /// bytes ([`IdNames::is_complete`]). A parse error stops the pass;
    /// names found before it are kept.
    pub(crate) fn friendly(words: &[u32], options: ParserOptions, limit: usize) -> IdNames {
        IdNames::friendly_walk(words, options, true, limit)
    }

    /// The pass, stopping early where it may (`early`) or walking every
    /// instruction as spirv-dis does (to check that stopping changes
    /// nothing).
    fn friendly_walk(words: &[u32], options: ParserOptions, early: bool, limit: usize) -> IdNames {
        let mut b = Builder {
            names: IdNames {
                // Grown as ids come: made to the bound at once, it cost
                // more where few ids are named (1mb-ssa 5% slower).
                ranges: IdMap::with_cap(words.len() + 1),
                // Half a byte a word: room for the 108 KB of names of the
                // 1 MB benchmark module (354K words) without growing.
                arena: Vec::with_capacity(words.len() / 2),
                numbers_only: false,
                complete: true,
            },
            limit,
            // About one name per 32 words on large modules; growing the
            // table rehashes every name given out.
            used: HashTable::with_capacity(words.len() / 32),
            next_suffix: Vec::with_capacity(words.len() / 32),
            next_numeric_suffix: FxHashMap::default(),
            scratch: Vec::new(),
            candidate: Vec::new(),
            suggestion: Vec::new(),
            numeric: IdMap::with_cap(words.len() + 1),
            numbers_given: false,
        };
        let Ok(mut parser) = InstructionParser::new(words, options) else {
            return b.names;
        };
        let mut scanned = !early;
        loop {
            // The usual `OpName`, read without the general path: as
            // `visit` takes it.
            if !b.names.complete {
                break;
            }
            if let Some((id, name)) = parser.next_name() {
                b.save(id, name);
                continue;
            }
            let Some(Ok(inst)) = parser.next() else { break };
            // Function bodies usually name nothing: their results keep
            // their numbers. Once that is sure, the pass stops (it was a
            // fifth of spirv-dis-style printing, before the first line).
            if inst.opcode == op::OpFunction && !scanned {
                scanned = true;
                if !b.numbers_given && !names_anything_from(words, inst.offset + inst.words.len()) {
                    break;
                }
            }
            // A raw instruction names nothing, as in spirv-dis.
            if !inst.raw {
                b.visit(&inst);
            }
        }
        b.names
    }

    /// Whether stopping the pass early gives every id below `words.len()`
    /// the name walking every instruction gives it; the first id that
    /// differs otherwise (for the fuzz targets and tests).
    #[cfg(feature = "test-switches")]
    #[doc(hidden)]
    pub fn check_early_stop(words: &[u32]) -> Result<(), u32> {
        let options = ParserOptions::default().check_bound(false);
        let limit = IdNames::limit(words.len());
        let (early, full) =
            (Self::friendly_walk(words, options, true, limit), Self::friendly_walk(words, options, false, limit));
        match (0..words.len() as u32).find(|&id| early.get(id) != full.get(id)) {
            Some(id) => Err(id),
            None => Ok(()),
        }
    }

    /// Makes `name` the name of `id`; where it lies in the arena.
    fn give(&mut self, id: u32, name: &[u8]) -> (u32, u32) {
        let range = (self.arena.len() as u32, name.len() as u32);
        self.arena.extend_from_slice(name);
        self.ranges.insert(id, range);
        range
    }

    /// Appends the name of `id` (without `%`).
    #[inline(always)]
    pub(crate) fn write(&self, out: &mut Vec<u8>, id: u32) {
        if self.numbers_only {
            return number::write_u32(out, id);
        }
        match self.ranges.get(id) {
            Some((start, len)) if (start, len) != OWN_NUMBER => {
                number::push_bytes(out, &self.arena[start as usize..(start + len) as usize])
            }
            _ => number::write_u32(out, id),
        }
    }

    /// The name of `id` (without `%`), unless it is shown as its own
    /// number.
    pub fn get(&self, id: u32) -> Option<&str> {
        if self.ranges.get(id) == Some(OWN_NUMBER) {
            return None;
        }
        self.ranges.get(id).map(|(s, l)| std::str::from_utf8(&self.arena[s as usize..(s + l) as usize]).unwrap_or(""))
    }

    /// Length of the name of `id` as printed.
    #[inline]
    pub(crate) fn len(&self, id: u32) -> usize {
        if self.numbers_only {
            return number::decimal_len(id);
        }
        match self.ranges.get(id) {
            Some(r) if r != OWN_NUMBER => r.1 as usize,
            _ => number::decimal_len(id),
        }
    }
}

/// An entry of [`Builder::used`]: a name given out, as a range of the
/// arena, and its slot in [`Builder::next_suffix`].
#[derive(Copy, Clone)]
struct Used {
    start: u32,
    len: u32,
    slot: u32,
}

impl Used {
    /// The name, in the names' arena.
    fn text(self, arena: &[u8]) -> &[u8] {
        &arena[self.start as usize..(self.start + self.len) as usize]
    }
}

struct Builder {
    names: IdNames,
    /// At most this many bytes of names ([`IdNames::limit`]).
    limit: usize,
    /// Every name given out other than canonical numbers, as a range of
    /// the arena (an interner that allocates nothing per name).
    used: HashTable<Used>,
    /// For each entry of `used`, the next suffix to try when its name is
    /// asked for again. The smallest free suffix of a base name never
    /// decreases (names are only added), so resuming there is exact and
    /// avoids the quadratic rescan spirv-dis does on repeated names. Kept
    /// apart so that it is updated without a second look-up.
    next_suffix: Vec<u32>,
    /// The next suffix to try for base names that are canonical numbers
    /// (those are not in `used`).
    next_numeric_suffix: FxHashMap<Vec<u8>, u32>,
    scratch: Vec<u8>,
    candidate: Vec<u8>,
    /// The name [`Builder::visit`] makes for a type or constant.
    suggestion: Vec<u8>,
    /// Names that are canonical decimal numbers, kept by value: the default
    /// name of most ids is its own number, and only such names can clash
    /// with it.
    numeric: IdMap<()>,
    /// Whether some id was given a canonical decimal name other than its
    /// own number: a later result with that number then gets a suffix.
    numbers_given: bool,
}

/// Whether an instruction from word `at` on can name an id: spirv-dis's
/// naming rules ([`Builder::visit`]) give names only through these opcodes.
/// Any other instruction's result keeps its number, which it has without
/// being visited unless the number was given away (`numbers_given`).
/// Reads opcodes and word counts only; stops where the parser would fail
/// on a word count of zero (no name is found past that point).
fn names_anything_from(words: &[u32], mut at: usize) -> bool {
    while let Some(&first) = words.get(at) {
        if names_something(first as u16) {
            return true;
        }
        match (first >> 16) as usize {
            0 => return false,
            wc => at += wc,
        }
    }
    false
}

fn names_something(opcode: u16) -> bool {
    matches!(opcode, op::OpName | op::OpDecorate | op::OpConstant | op::OpConstantTrue | op::OpConstantFalse)
        || crate::grammar::instruction_index(opcode).is_some_and(|i| crate::grammar::INSTRUCTIONS[i].declares_type)
}

/// The value of a name that is a canonical decimal `u32` ("0", "17"; not
/// "017" or "4294967296").
fn canonical_number(name: &[u8]) -> Option<u32> {
    if name.is_empty() || name.len() > 10 || (name[0] == b'0' && name.len() > 1) {
        return None;
    }
    let mut v: u64 = 0;
    for &c in name {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + (c - b'0') as u64;
    }
    u32::try_from(v).ok()
}

fn hash_name(name: &[u8]) -> u64 {
    BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(name)
}

impl Builder {
    fn visit(&mut self, inst: &crate::binary::Instruction<'_>) {
        let words = inst.words;
        let result = inst.result_id;
        match inst.opcode {
            op::OpName if words.len() >= 3 => self.save(words[1], inst.string(1)),
            op::OpDecorate if words.len() >= 4 && words[2] == crate::grammar::decoration::BuiltIn => {
                if let Some(name) = builtin_name(words[3]) {
                    self.save(words[1], name.as_bytes());
                }
            }
            op::OpTypeVoid => self.save(result, b"void"),
            op::OpTypeBool => self.save(result, b"bool"),
            op::OpTypeInt if words.len() >= 4 => {
                let width = words[2];
                let mut s = Vec::new();
                let root: &[u8] = match width {
                    8 => b"char",
                    16 => b"short",
                    32 => b"int",
                    64 => b"long",
                    _ => b"",
                };
                if words[3] == 0 {
                    s.push(b'u');
                } else if root.is_empty() {
                    s.push(b'i');
                }
                if root.is_empty() {
                    number::write_uint(&mut s, width as u64);
                } else {
                    s.extend_from_slice(root);
                }
                self.save(result, &s);
            }
            op::OpTypeFloat if words.len() >= 3 => {
                let s: Vec<u8> = match (words.get(3).copied(), words[2]) {
                    (Some(fp_encoding::BFloat16KHR), _) => b"bfloat16".to_vec(),
                    (Some(fp_encoding::Float8E4M3EXT), _) => b"fp8e4m3".to_vec(),
                    (Some(fp_encoding::Float8E5M2EXT), _) => b"fp8e5m2".to_vec(),
                    (_, 16) => b"half".to_vec(),
                    (_, 32) => b"float".to_vec(),
                    (_, 64) => b"double".to_vec(),
                    (_, w) => {
                        let mut s = b"fp".to_vec();
                        number::write_uint(&mut s, w as u64);
                        s
                    }
                };
                self.save(result, &s);
            }
            op::OpTypeVector | op::OpTypeMatrix if words.len() >= 4 => {
                let mut s = if inst.opcode == op::OpTypeVector { b"v".to_vec() } else { b"mat".to_vec() };
                number::write_uint(&mut s, words[3] as u64);
                self.names.write(&mut s, words[2]);
                self.save(result, &s);
            }
            op::OpTypeArray if words.len() >= 4 => {
                let mut s = b"_arr_".to_vec();
                self.names.write(&mut s, words[2]);
                s.push(b'_');
                self.names.write(&mut s, words[3]);
                self.save(result, &s);
            }
            op::OpTypeRuntimeArray if words.len() >= 3 => {
                let mut s = b"_runtimearr_".to_vec();
                self.names.write(&mut s, words[2]);
                self.save(result, &s);
            }
            op::OpTypeNodePayloadArrayAMDX if words.len() >= 3 => {
                let mut s = b"_payloadarr_".to_vec();
                self.names.write(&mut s, words[2]);
                self.save(result, &s);
            }
            op::OpTypePointer if words.len() >= 4 => {
                let mut s = b"_ptr_".to_vec();
                s.extend_from_slice(enum_name(OperandKind::StorageClass, words[2]).as_bytes());
                s.push(b'_');
                self.names.write(&mut s, words[3]);
                self.save(result, &s);
            }
            op::OpTypeUntypedPointerKHR if words.len() >= 3 => {
                let mut s = b"_ptr_".to_vec();
                s.extend_from_slice(enum_name(OperandKind::StorageClass, words[2]).as_bytes());
                self.save(result, &s);
            }
            op::OpTypePipe if words.len() >= 3 => {
                let mut s = b"Pipe".to_vec();
                s.extend_from_slice(enum_name(OperandKind::AccessQualifier, words[2]).as_bytes());
                self.save(result, &s);
            }
            op::OpTypeEvent => self.save(result, b"Event"),
            op::OpTypeDeviceEvent => self.save(result, b"DeviceEvent"),
            op::OpTypeReserveId => self.save(result, b"ReserveId"),
            op::OpTypeQueue => self.save(result, b"Queue"),
            op::OpTypeOpaque if words.len() >= 3 => {
                // spirv-dis sanitizes the name first, and "" becomes "_".
                let name = inst.string(1);
                let mut s = b"Opaque_".to_vec();
                if name.is_empty() {
                    s.push(b'_');
                }
                s.extend(name.iter().map(|&c| sanitize_byte(c)));
                self.save(result, &s);
            }
            op::OpTypePipeStorage => self.save(result, b"PipeStorage"),
            op::OpTypeNamedBarrier => self.save(result, b"NamedBarrier"),
            op::OpTypeStruct => {
                let mut s = b"_struct_".to_vec();
                number::write_uint(&mut s, result as u64);
                self.save(result, &s);
            }
            op::OpConstantTrue => self.save(result, b"true"),
            op::OpConstantFalse => self.save(result, b"false"),
            op::OpConstant if inst.operands.len() >= 3 => {
                // The most frequent name made here: built in a buffer kept
                // from one to the next.
                let mut s = std::mem::take(&mut self.suggestion);
                s.clear();
                self.names.write(&mut s, inst.result_type);
                s.push(b'_');
                let o = inst.operands[2];
                let start = s.len();
                if o.number != NumberKind::None {
                    number::write_number(&mut s, o.number, inst.operand_words(2));
                }
                for c in &mut s[start..] {
                    if *c == b'-' {
                        *c = b'n';
                    }
                }
                self.save(result, &s);
                self.suggestion = s;
            }
            _ => {
                if result != 0 && !self.names.ranges.contains(result) {
                    if !self.numeric.contains(result) {
                        self.numeric.insert(result, ());
                        self.names.ranges.insert(result, OWN_NUMBER);
                    } else {
                        let mut s = std::mem::take(&mut self.scratch);
                        s.clear();
                        number::write_uint(&mut s, result as u64);
                        self.save(result, &s);
                        self.scratch = s;
                    }
                }
            }
        }
    }

    /// Records `suggested` (sanitized, made unique) for `id` unless the id
    /// already has a name.
    fn save(&mut self, id: u32, suggested: &[u8]) {
        if self.names.ranges.contains(id) {
            return;
        }
        // Room for the name and a suffix; else the pass ends here.
        if self.names.arena.len() + suggested.len() + 16 > self.limit {
            self.names.complete = false;
            return;
        }
        let mut base = std::mem::take(&mut self.scratch);
        base.clear();
        if suggested.is_empty() {
            base.push(b'_');
        } else {
            base.extend(suggested.iter().map(|&c| sanitize_byte(c)));
        }
        if canonical_number(&base).is_some() {
            if !self.claim(id, &base) {
                let i = self.next_numeric_suffix.get(&base).copied().unwrap_or(0);
                let next = self.claim_suffixed(id, &base, i);
                self.next_numeric_suffix.insert(base.clone(), next);
            }
        } else {
            // One look-up of the base: given out already, its slot holds
            // where its suffixes resume; else it is taken.
            if let Err(slot) = self.claim_hashed(id, &base, hash_name(&base)) {
                let from = self.next_suffix[slot as usize];
                self.next_suffix[slot as usize] = self.claim_suffixed(id, &base, from);
            }
        }
        self.scratch = base;
    }

    /// Gives `id` the first free name `base_i` for `i` from `from` on;
    /// returns the suffix after it.
    fn claim_suffixed(&mut self, id: u32, base: &[u8], from: u32) -> u32 {
        let mut candidate = std::mem::take(&mut self.candidate);
        let mut i = from;
        loop {
            candidate.clear();
            candidate.extend_from_slice(base);
            candidate.push(b'_');
            number::write_uint(&mut candidate, i as u64);
            i += 1;
            if self.claim(id, &candidate) {
                break;
            }
        }
        self.candidate = candidate;
        i
    }

    /// Gives `name` (not a canonical number; `hash` is its hash) to `id`
    /// unless another id has it; then the slot of its entry. One probe of
    /// the table either way.
    fn claim_hashed(&mut self, id: u32, name: &[u8], hash: u64) -> Result<(), u32> {
        let arena = &self.names.arena;
        let entry = self.used.entry(hash, |u| u.text(arena) == name, |u| hash_name(u.text(arena)));
        match entry {
            Entry::Occupied(taken) => Err(taken.get().slot),
            Entry::Vacant(free) => {
                let (start, len) = self.names.give(id, name);
                let slot = self.next_suffix.len() as u32;
                free.insert(Used { start, len, slot });
                self.next_suffix.push(0);
                Ok(())
            }
        }
    }

    /// Gives `name` to `id` if no other id has it.
    fn claim(&mut self, id: u32, name: &[u8]) -> bool {
        if let Some(v) = canonical_number(name) {
            if self.numeric.contains(v) {
                return false;
            }
            self.numeric.insert(v, ());
            self.numbers_given |= v != id;
            if v == id {
                self.names.ranges.insert(id, OWN_NUMBER);
                return true;
            }
            self.names.give(id, name);
            return true;
        }
        self.claim_hashed(id, name, hash_name(name)).is_ok()
    }
}

#[inline]
fn sanitize_byte(c: u8) -> u8 {
    if c.is_ascii_alphanumeric() || c == b'_' {
        c
    } else {
        b'_'
    }
}

fn enum_name(kind: OperandKind, value: u32) -> String {
    match kind.enumerant(value) {
        Some(e) => e.name.to_string(),
        // spirv-dis says "StorageClass<N>" here whatever the kind.
        None => format!("StorageClass{value}"),
    }
}

/// The GLSL-style names spirv-dis gives to `BuiltIn` decorations, keyed by
/// the grammar's enumerant name. Builtins not listed get no name from their
/// decoration.
const BUILTIN_NAMES: &[(&str, &str)] = &[
    ("Position", "gl_Position"),
    ("PointSize", "gl_PointSize"),
    ("ClipDistance", "gl_ClipDistance"),
    ("CullDistance", "gl_CullDistance"),
    ("VertexId", "gl_VertexID"),
    ("InstanceId", "gl_InstanceID"),
    ("PrimitiveId", "gl_PrimitiveID"),
    ("InvocationId", "gl_InvocationID"),
    ("Layer", "gl_Layer"),
    ("ViewportIndex", "gl_ViewportIndex"),
    ("TessLevelOuter", "gl_TessLevelOuter"),
    ("TessLevelInner", "gl_TessLevelInner"),
    ("TessCoord", "gl_TessCoord"),
    ("PatchVertices", "gl_PatchVertices"),
    ("FragCoord", "gl_FragCoord"),
    ("PointCoord", "gl_PointCoord"),
    ("FrontFacing", "gl_FrontFacing"),
    ("SampleId", "gl_SampleID"),
    ("SamplePosition", "gl_SamplePosition"),
    ("SampleMask", "gl_SampleMask"),
    ("FragDepth", "gl_FragDepth"),
    ("HelperInvocation", "gl_HelperInvocation"),
    ("NumWorkgroups", "gl_NumWorkGroups"),
    ("WorkgroupSize", "gl_WorkGroupSize"),
    ("WorkgroupId", "gl_WorkGroupID"),
    ("LocalInvocationId", "gl_LocalInvocationID"),
    ("GlobalInvocationId", "gl_GlobalInvocationID"),
    ("LocalInvocationIndex", "gl_LocalInvocationIndex"),
    ("WorkDim", "WorkDim"),
    ("GlobalSize", "GlobalSize"),
    ("EnqueuedWorkgroupSize", "EnqueuedWorkgroupSize"),
    ("GlobalOffset", "GlobalOffset"),
    ("GlobalLinearId", "GlobalLinearId"),
    ("SubgroupSize", "SubgroupSize"),
    ("SubgroupMaxSize", "SubgroupMaxSize"),
    ("NumSubgroups", "NumSubgroups"),
    ("NumEnqueuedSubgroups", "NumEnqueuedSubgroups"),
    ("SubgroupId", "SubgroupId"),
    ("SubgroupLocalInvocationId", "SubgroupLocalInvocationId"),
    ("VertexIndex", "gl_VertexIndex"),
    ("InstanceIndex", "gl_InstanceIndex"),
    ("BaseInstance", "gl_BaseInstance"),
    ("SubgroupEqMask", "SubgroupEqMaskKHR"),
    ("SubgroupGeMask", "SubgroupGeMaskKHR"),
    ("SubgroupGtMask", "SubgroupGtMaskKHR"),
    ("SubgroupLeMask", "SubgroupLeMaskKHR"),
    ("SubgroupLtMask", "SubgroupLtMaskKHR"),
];

fn builtin_name(value: u32) -> Option<&'static str> {
    let e = OperandKind::BuiltIn.enumerant(value)?;
    BUILTIN_NAMES.iter().find(|(k, _)| *k == e.name || e.aliases.contains(k)).map(|&(_, v)| v)
}

#[cfg(test)]
mod tests {
    use crate::module::Module;

    /// The names of `ids` in the module `src` assembles to (ids numbered in
    /// order of appearance). Expected names are spirv-dis 2025.5's.
    fn names(src: &str, ids: &[u32]) -> Vec<Option<String>> {
        let words = crate::text::assemble(src, &Default::default()).unwrap();
        let module = Module::read(&words).unwrap();
        ids.iter().map(|&id| module.name(id).map(str::to_owned)).collect()
    }

    const HEAD: &str = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n";
    const BODY: &str = "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n\
                        %entry = OpLabel\n%x = OpUndef %void\nOpReturn\nOpFunctionEnd\n";

    #[test]
    fn a_number_given_as_a_name_renames_a_result_inside_a_function() {
        // %main is 1, %x is 5: `%5_0 = OpUndef %void`.
        let src = format!("{HEAD}OpName %main \"5\"\n{BODY}");
        assert_eq!(names(&src, &[1, 5]), [Some("5".into()), Some("5_0".into())]);
    }

    /// Nested arrays: each name spells out the one inside it. Past the
    /// limit the pass stops, says so, and the names before stay exact.
    #[test]
    fn names_past_the_limit_stop_the_pass() {
        let mut src =
            format!("{HEAD}%uint = OpTypeInt 32 0\n%two = OpConstant %uint 2\n%t0 = OpTypeArray %uint %two\n");
        for i in 1..200 {
            src += &format!("%t{i} = OpTypeArray %t{} %two\n", i - 1);
        }
        let words = crate::text::assemble(&src, &Default::default()).unwrap();
        let options = crate::binary::ParserOptions::default();
        let whole = super::IdNames::friendly(&words, options, super::IdNames::limit(words.len()));
        assert!(whole.is_complete());
        // %t1 is id 4, %t199 id 202.
        assert_eq!(whole.get(4), Some("_arr__arr_uint_uint_2_uint_2"));
        let total: usize = (1..=202).filter_map(|id| whole.get(id)).map(str::len).sum();
        let cut = super::IdNames::friendly(&words, options, total / 2);
        assert!(!cut.is_complete());
        assert_eq!(cut.get(4), whole.get(4));
        let named = (1..=202).filter(|&id| cut.get(id).is_some()).count();
        assert!((50..202).contains(&named), "{named} ids named");
        assert!(cut.arena.len() <= total / 2);
        // Past the cut: numbers (not names spirv-dis would not give).
        assert_eq!(cut.get(202), None);
    }

    #[test]
    fn types_and_constants_after_the_functions_are_named() {
        let src = format!("{HEAD}OpName %main \"main\"\n{BODY}%int = OpTypeInt 32 1\n%one = OpConstant %int 1\n");
        assert_eq!(names(&src, &[1, 6, 7]), [Some("main".into()), Some("int".into()), Some("int_1".into())]);
    }

    /// Over every module of the disassembler's corpus, whole and cut short.
    #[test]
    fn stopping_early_names_every_id_as_the_whole_walk_does() {
        let mut checked = 0;
        for (_, path, words) in crate::binary::test_corpus() {
            for len in [words.len(), words.len() * 2 / 3] {
                let r = super::IdNames::check_early_stop(&words[..len]);
                assert_eq!(r, Ok(()), "{} cut short to {len} words", path.display());
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn results_inside_functions_keep_their_numbers() {
        let src = format!("{HEAD}{BODY}");
        assert_eq!(names(&src, &[1, 2, 3, 4, 5]), [Some("void".into()), None, None, None, None]);
    }
}
