//! The validator: checks a module against the rules of the SPIR-V
//! specification (2.4 logical layout, 2.16 validation rules, instruction
//! "must" sentences) and answers as spirv-val 2025.5 does.
//!
//! The module is read once into a [`crate::module::Module`]; each pass is a small
//! module of its own that reports every independent error it finds.
//!
//! The first error is the one spirv-val reports, in its words. With
//! [`ValOptions::max_errors`] above 1, every pass runs once the structural
//! ones (layout, ids, functions and blocks) pass, and the other errors
//! follow the first in module order, each reported once: the same message
//! at the same instruction, the same message naming the same ids (an
//! undefined id used ten times), and an error naming an id whose
//! definition already has an error (a consequence of that one) are left
//! out.
//!
//! ```
//! use gpuasm_spirv::validate::{validate, ValOptions};
//! let words = gpuasm_spirv::text::assemble(
//!     "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n", &Default::default()).unwrap();
//! assert!(validate(&words, &ValOptions::default()).is_ok());
//! ```

mod adjacency;
mod annotations;
mod arithmetics;
mod atomic_opcodes;
mod atomics;
mod binary_words;
mod bit_fields;
mod block_layout;
mod block_roles;
mod builtins;
mod call_pointers;
mod capabilities;
mod cfg;
mod clspv_reflection;
mod composites;
mod constant_decls;
mod constructs;
mod control_flow;
mod conversions;
mod cooperative;
mod debug_info;
mod decorations;
mod dominance;
mod encoded_floats;
mod entry_points;
mod entry_references;
mod env_capabilities;
mod error;
mod execution_limits;
mod first_walk;
mod glsl;
mod graph;
mod ids;
mod image_context;
mod image_operands;
mod images;
mod interfaces;
mod layout;
mod layout_classes;
mod limitations;
mod limits;
mod locations;
mod logical_match;
mod logical_pointers;
mod logicals;
mod memory;
mod memory_semantics;
mod mesh_builtins;
mod misc;
mod modes;
mod non_uniform;
mod numeric_conversions;
mod opencl;
mod operands;
use crate::peer_opcodes;
mod phi;
mod raw_access_chains;
mod ray_reorder;
mod rounding_modes;
mod schedule;
mod scopes;
mod shapes;
mod small_types;
mod stage_ops;
mod storage_models;
mod struct_store;
mod structure;
mod tensors;
mod tile_attachments;
mod traversal_roots;
mod type_decls;
mod types;
mod variable_contents;
mod variable_pointers;
mod vulkan_interfaces;
mod workgroup_size;

use crate::binary::BinaryError;
use crate::dis;
use crate::module::Module;
use crate::TargetEnv;
pub use block_layout::BlockLayout;
pub use error::{ErrorKind, ValidationError, ValidationErrors};
pub use limits::Limits;

/// Validator switches (spirv-val's options). Built from the default with
/// one method per field:
///
/// ```
/// use gpuasm_spirv::{validate::ValOptions, TargetEnv};
/// let options = ValOptions::default().target_env(TargetEnv::Vulkan(2)).max_errors(1);
/// assert_eq!(options.max_errors, 1);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ValOptions {
    /// The client environment (spirv-val's default is SPIR-V 1.6).
    pub target_env: TargetEnv,
    /// Stop after this many errors (0: no limit). At 1, validation stops
    /// at the first failing pass, as spirv-val does.
    pub max_errors: usize,
    /// Universal limits (spirv-val's `--max-*` options).
    pub limits: Limits,
    /// Block layout rules beyond the environment's (spirv-val's
    /// `--relax-block-layout`, `--scalar-block-layout`...).
    pub block_layout: BlockLayout,
    /// spirv-val's `--relax-logical-pointer`: under Logical addressing,
    /// pointers may be used as any other value.
    pub relax_logical_pointer: bool,
    /// spirv-val's `--relax-struct-store`: OpStore may store a struct into
    /// a pointer to another struct type of compatible layout.
    pub relax_struct_store: bool,
    /// spirv-val's `--allow-localsizeid`: the LocalSizeId execution mode
    /// in Vulkan 1.0 to 1.2 (the maintenance4 feature).
    pub allow_localsizeid: bool,
    /// spirv-val's `--allow-offset-texture-operand`: the Offset image
    /// operand on Vulkan image instructions other than gathers (the
    /// maintenance8 feature).
    pub allow_offset_texture_operand: bool,
    /// spirv-val's `--allow-vulkan-32-bit-bitwise`: bit-field and bit-count
    /// instructions on non-32-bit integers in Vulkan (the maintenance9
    /// feature).
    pub allow_vulkan_32_bit_bitwise: bool,
    /// spirv-val's `--before-hlsl-legalization`: HLSL code patterns that
    /// spirv-opt's legalization passes remove (opaque types in structs and
    /// stores, unbound unused resources, logically matching call
    /// arguments...); implies `relax_logical_pointer`.
    pub before_hlsl_legalization: bool,
}

impl Default for ValOptions {
    fn default() -> Self {
        ValOptions {
            target_env: TargetEnv::Universal(6),
            max_errors: 100,
            limits: Limits::default(),
            block_layout: BlockLayout::default(),
            relax_logical_pointer: false,
            relax_struct_store: false,
            allow_localsizeid: false,
            allow_offset_texture_operand: false,
            allow_vulkan_32_bit_bitwise: false,
            before_hlsl_legalization: false,
        }
    }
}

impl ValOptions {
    /// The client environment.
    pub fn target_env(mut self, target_env: TargetEnv) -> Self {
        self.target_env = target_env;
        self
    }

    /// Stop after this many errors (0: no limit).
    pub fn max_errors(mut self, max_errors: usize) -> Self {
        self.max_errors = max_errors;
        self
    }

    /// Universal limits (`--max-*`).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Block layout rules beyond the environment's.
    pub fn block_layout(mut self, block_layout: BlockLayout) -> Self {
        self.block_layout = block_layout;
        self
    }

    /// `--relax-logical-pointer`.
    pub fn relax_logical_pointer(mut self, relax_logical_pointer: bool) -> Self {
        self.relax_logical_pointer = relax_logical_pointer;
        self
    }

    /// `--relax-struct-store`.
    pub fn relax_struct_store(mut self, relax_struct_store: bool) -> Self {
        self.relax_struct_store = relax_struct_store;
        self
    }

    /// `--allow-localsizeid`.
    pub fn allow_localsizeid(mut self, allow_localsizeid: bool) -> Self {
        self.allow_localsizeid = allow_localsizeid;
        self
    }

    /// `--allow-offset-texture-operand`.
    pub fn allow_offset_texture_operand(mut self, allow_offset_texture_operand: bool) -> Self {
        self.allow_offset_texture_operand = allow_offset_texture_operand;
        self
    }

    /// `--allow-vulkan-32-bit-bitwise`.
    pub fn allow_vulkan_32_bit_bitwise(mut self, allow_vulkan_32_bit_bitwise: bool) -> Self {
        self.allow_vulkan_32_bit_bitwise = allow_vulkan_32_bit_bitwise;
        self
    }

    /// `--before-hlsl-legalization`.
    pub fn before_hlsl_legalization(mut self, before_hlsl_legalization: bool) -> Self {
        self.before_hlsl_legalization = before_hlsl_legalization;
        self
    }
}

/// Collects errors with the instruction each concerns.
pub(crate) struct Report<'m, 'w> {
    module: &'m Module<'w>,
    /// The options in force (`before_hlsl_legalization` already implies
    /// `relax_logical_pointer` here).
    pub options: &'m ValOptions,
    pub errors: Vec<ValidationError>,
    limit: usize,
}

impl<'m, 'w> Report<'m, 'w> {
    pub fn error(&mut self, kind: ErrorKind, inst: usize, message: impl Into<String>) {
        if self.errors.len() >= self.limit {
            return;
        }
        let text = dis::instruction_text(&self.module.view(inst), self.names());
        self.errors.push(ValidationError {
            kind,
            word_offset: self.module.insts[inst].offset as usize,
            instruction_index: Some(inst),
            message: message.into(),
            instruction: Some(text),
            met: None,
        });
    }

    /// Instruction `inst` as spirv-val's messages quote it: disassembled
    /// with friendly names, without indentation.
    pub fn disassemble(&self, inst: usize) -> String {
        quote(self.module, inst)
    }

    /// An error about instruction `inst` that spirv-val's per-instruction
    /// walk meets at instruction `met` (a rule it checks at a definition
    /// about the definition's uses): in that walk, `met` decides which
    /// error comes first.
    pub fn error_met_at(&mut self, kind: ErrorKind, inst: usize, met: usize, message: impl Into<String>) {
        let before = self.errors.len();
        self.error(kind, inst, message);
        self.met_at(before, met);
    }

    /// Marks the error pushed at `index`, if the limit let it in, as met at
    /// instruction `met`.
    fn met_at(&mut self, index: usize, met: usize) {
        if let Some(e) = self.errors.get_mut(index) {
            e.met = Some(met);
        }
    }

    /// `'12[%name]'`, the way spirv-val names an id in messages.
    pub fn id(&mut self, id: u32) -> String {
        match self.names().get(id) {
            Some(n) => format!("'{id}[%{n}]'"),
            None => format!("'{id}[%{id}]'"),
        }
    }

    /// The module's friendly names (computed on the first error only).
    fn names(&self) -> &crate::module::names::IdNames {
        self.module.names()
    }

    /// An error about the whole module that spirv-val's walk meets at
    /// instruction `met` (a count passing its limit there).
    pub fn module_error_met_at(&mut self, kind: ErrorKind, met: usize, message: impl Into<String>) {
        let before = self.errors.len();
        self.module_error(kind, message);
        self.met_at(before, met);
    }

    pub fn module_error(&mut self, kind: ErrorKind, message: impl Into<String>) {
        if self.errors.len() < self.limit {
            self.errors.push(ValidationError {
                kind,
                word_offset: 0,
                instruction_index: None,
                message: message.into(),
                instruction: None,
                met: None,
            });
        }
    }

    fn full(&self) -> bool {
        self.errors.len() >= self.limit
    }
}

/// Validates a module given as host-order words.
pub fn validate(words: &[u32], options: &ValOptions) -> Result<(), ValidationErrors> {
    validate_words(words, options).map_err(ValidationErrors::new)
}

/// Instruction `inst` as spirv-val's messages quote it (see
/// [`Report::disassemble`]), for rules that build a message without a
/// report at hand.
pub(crate) fn quote(m: &Module, inst: usize) -> String {
    dis::instruction_text(&m.view(inst), m.names())
}

/// spirv-val's message for a constant scope of no known value: the
/// constant quoted on a line of its own.
pub(crate) fn invalid_scope(m: &Module, id: u32) -> String {
    let quoted = m.def_index(id).map(|d| quote(m, d)).unwrap_or_default();
    format!("Invalid scope value:\n {quoted}")
}

fn validate_words(words: &[u32], options: &ValOptions) -> Result<(), Vec<ValidationError>> {
    // spirv-val judges the header (its version for the target environment,
    // its bound) before it reads an instruction.
    if let Some(error) = header_error(words, options) {
        return Err(vec![error]);
    }
    let threads = schedule::threads_for(words.len());
    if threads == 1 {
        let module = read(words).map_err(|e| vec![binary_error(&e, words)])?;
        return validate_on(&module, options, None, &ids::Misuses::new());
    }
    // A large module: the other threads start while it is read. Every
    // thread validates it, sharing out the passes: what one pass hands
    // another must be shared too.
    let misuses = ids::Misuses::new();
    schedule::with_helpers(
        threads,
        || read(words),
        |read, board| match read {
            Ok(module) => validate_on(module, options, Some(board), &misuses),
            Err(e) => Err(vec![binary_error(e, words)]),
        },
    )
}

/// Reads a module to validate. spirv-val takes ids at or past the header's
/// bound: an operand there is an id never defined, a result there is an
/// error of its own (`limits`), each met where spirv-val meets it.
fn read(words: &[u32]) -> Result<Module<'_>, BinaryError> {
    Module::read_with(words, crate::binary::ParserOptions::default().check_bound(false))
}

fn binary_error(e: &BinaryError, words: &[u32]) -> ValidationError {
    ValidationError {
        kind: ErrorKind::Binary,
        word_offset: e.word_offset(),
        instruction_index: None,
        message: binary_words::message(e, words).unwrap_or_else(|| e.kind().to_string()),
        instruction: None,
        met: None,
    }
}

/// What spirv-val finds wrong with the header words before it reads the
/// instructions: the version (outside 1.0–1.6, or newer than the target
/// environment's) and the id bound. A module too short for a header, or
/// with another magic number, is left to the reader.
fn header_error(words: &[u32], options: &ValOptions) -> Option<ValidationError> {
    if words.len() < 5 || words[0] != crate::binary::MAGIC {
        return None;
    }
    let error = |kind, message: String| ValidationError {
        kind,
        word_offset: 0,
        instruction_index: None,
        message,
        instruction: None,
        met: None,
    };
    let (version, bound) = (words[1], words[3]);
    if version & 0xff00_00ff != 0 || !(0x0001_0000..=0x0001_0600).contains(&version) {
        return Some(error(ErrorKind::Binary, "Invalid SPIR-V header.".into()));
    }
    let (major, minor) = (version >> 16 & 0xff, version >> 8 & 0xff);
    if minor > options.target_env.spirv_version().1 as u32 {
        let env = options.target_env.description();
        let message = format!("Invalid SPIR-V binary version {major}.{minor} for target environment {env}.");
        return Some(error(ErrorKind::Version, message));
    }
    let max = options.limits.max_id_bound;
    (bound > max).then(|| {
        error(ErrorKind::Limit, format!("Invalid SPIR-V.  The id bound is larger than the max id bound {max}."))
    })
}

/// Validates an already read module.
pub fn validate_module(module: &Module<'_>, options: &ValOptions) -> Result<(), ValidationErrors> {
    validate_on(module, options, None, &ids::Misuses::new()).map_err(ValidationErrors::new)
}

/// Validates a module, sharing the passes with the other threads of
/// `board` if there is one (each of them calls this with the same module
/// and the same `misuses`, which one pass fills for another).
fn validate_on(
    module: &Module<'_>,
    options: &ValOptions,
    board: Option<&schedule::Board>,
    misuses: &ids::Misuses,
) -> Result<(), Vec<ValidationError>> {
    // spirv-val's spvValidatorOptionsSetBeforeHlslLegalization sets both.
    let implied;
    let options = if options.before_hlsl_legalization && !options.relax_logical_pointer {
        implied = ValOptions { relax_logical_pointer: true, ..options.clone() };
        &implied
    } else {
        options
    };
    let limit = if options.max_errors == 0 { usize::MAX } else { options.max_errors };
    let mut report = Report { module, options, errors: Vec::new(), limit };
    // spirv-val's header check: the version's outer bytes zero, and a
    // version from 1.0 to the newest it knows (1.6).
    let version = module.header.version;
    if version & 0xff00_00ff != 0 || !(0x0001_0000..=0x0001_0600).contains(&version) {
        report.module_error(ErrorKind::Binary, "Invalid SPIR-V header.");
        return Err(report.errors);
    }
    let env_version = options.target_env.spirv_version();
    let (major, minor) = module.header.version_parts();
    if major != 1 || minor > env_version.1 as u32 {
        report.module_error(
            ErrorKind::Version,
            format!(
                "Invalid SPIR-V binary version {major}.{minor} for target environment {}.",
                options.target_env.description()
            ),
        );
        return Err(report.errors);
    }
    let limits = &options.limits;
    let vulkan = options.target_env.is_vulkan();
    let shader = || capabilities::with_implied(module).contains(&crate::grammar::capability::Shader);
    // These check the structure every later pass walks. spirv-val makes
    // these checks at each instruction in turn (ids first), then those of
    // the whole module (the memory model and function ends before the
    // forward references).
    use schedule::Met::{Before, During};
    let ordered: &schedule::Structural = &[
        (&|r| limits::check_bound(module, limits, r), Before),
        (&|r| layout::check(module, r), During { each: 3, end: 0 }),
        // At an OpEntryPoint, spirv-val first compares its name and model
        // with the earlier ones', then checks its ids.
        (&|r| entry_points::check_names(module, r), During { each: 0, end: 5 }),
        // Then whether a call stands in a function, before the ids.
        (&|r| first_walk::check_calls(module, r), During { each: 0, end: 5 }),
        (&|r| ids::check(module, r, misuses), During { each: 1, end: 3 }),
        // Its capability pass (what the environment allows) comes between
        // the ids and the layout.
        (&|r| env_capabilities::check(module, options.target_env, r), During { each: 2, end: 5 }),
        // Its instruction pass (the sampler-image addressing mode, then
        // capabilities, then limits) comes after the layout and block
        // checks at each instruction.
        (&|r| first_walk::check(module, vulkan, r), During { each: 5, end: 2 }),
        (&|r| limits::check_variables(module, limits, r), During { each: 5, end: 4 }),
        (&|r| capabilities::check(module, options, r), During { each: 6, end: 4 }),
        (&|r| cfg::check(module, r), During { each: 4, end: 1 }),
        (&|r| limits::check(module, limits, r), During { each: 7, end: 4 }),
    ];
    // The longest passes on large modules, started first when threads share
    // the passes out (the order of their results does not change).
    let memory: schedule::Pass = &|r| memory::check(module, options, vulkan, r);
    let operands: schedule::Pass = &|r| operands::check(module, options.target_env, r);
    let dominance: schedule::Pass = &|r| dominance::check(module, limits, r);
    let logical: schedule::Pass = &|r| {
        if !options.relax_logical_pointer {
            logical_pointers::check(module, r)
        }
    };
    // These only read the module. spirv-val checks, in its second walk over
    // the instructions, what `walk` checks (the error at the earliest
    // instruction is reported); then the rest, in order (the first that
    // fails is reported).
    let walk: &[schedule::Pass] = &[
        &|r| modes::check(module, options.target_env, r),
        &|r| annotations::check(module, vulkan, r),
        // Extension versions (its extension pass) and type widths (its
        // type pass): met at their instructions in the walk.
        &|r| capabilities::check_late(module, options, r),
        &|r| type_decls::check(module, options.target_env, r),
        &|r| images::check_types(module, options.target_env, r),
        &|r| types::check(module, vulkan, r),
        &|r| ids::check_misuses(misuses, r),
        &|r| tensors::check_types(module, r),
        &|r| cooperative::check_types(module, r),
        &|r| debug_info::check(module, r),
        &|r| graph::check(module, r),
        &|r| images::check(module, options.target_env, r),
        memory,
        &|r| raw_access_chains::check(module, r),
        &|r| call_pointers::check(module, options, r),
        operands,
        &|r| atomics::check(module, options.target_env, r),
        &|r| scopes::check(module, options.target_env, r),
        &|r| stage_ops::check(module, options.target_env, r),
        &|r| control_flow::check_instructions(module, r),
        &|r| conversions::check(module, r),
        &|r| composites::check(module, r),
        &|r| ray_reorder::check(module, r),
        &|r| tensors::check(module, r),
        &|r| cooperative::check(module, vulkan, r),
        &|r| encoded_floats::check(module, r),
        &|r| glsl::check(module, r),
        &|r| opencl::check(module, r),
        &|r| clspv_reflection::check(module, r),
    ];
    let rest: &[schedule::Pass] = &[
        &|r| adjacency::check(module, r),
        // spirv-val's entry-point rules, after its per-instruction passes.
        &|r| {
            entry_points::check_present(module, r);
            if r.errors.is_empty() {
                entry_points::check_calls(module, vulkan, r)
            }
            if r.errors.is_empty() {
                entry_points::check_fast_math_defaults(module, r)
            }
            if r.errors.is_empty() {
                modes::check_duplicates(module, r)
            }
        },
        dominance,
        // spirv-val's decoration rules, which lay blocks out, come after
        // its per-instruction passes and dominance, before the interfaces.
        &|r| {
            let layouts = |r: &mut Report| block_layout::check(module, options.target_env, &options.block_layout, r);
            decorations::check(module, vulkan, &layouts, r)
        },
        &|r| layout_classes::check(module, vulkan, r),
        &|r| interfaces::check(module, r),
        &|r| vulkan_interfaces::check_variables(module, vulkan, r),
        &|r| {
            if vulkan {
                locations::check(module, r);
                if r.errors.is_empty() {
                    entry_points::check_interface_classes(module, r)
                }
            }
        },
        &|r| builtins::check(module, vulkan, r),
        &|r| execution_limits::check(module, options.target_env, r),
        &|r| small_types::check_uses(module, shader(), r),
        &|r| images::check_late(module, r),
        logical,
    ];
    let passes = [walk, rest].concat();
    let independent = schedule::Independent { passes: &passes, walk: (0, walk.len()) };
    let new_report = || Report { module, options, errors: Vec::new(), limit };
    let long_first = &[dominance, operands, memory, logical];
    let every = limit > 1;
    let failures = match board {
        Some(board) => board.work(&new_report, ordered, independent, long_first, every),
        None => schedule::run(&new_report, ordered, independent, long_first, schedule::threads(), every),
    };
    failures.map_err(|failures| in_module_order(module, failures, limit))
}

/// The errors of the failing passes as one list: the first failing pass's
/// first error (spirv-val's), then the others by instruction (errors of
/// the whole module last), each independent error once (see the module's
/// documentation), at most `limit`.
fn in_module_order(module: &Module<'_>, failures: schedule::Failures, limit: usize) -> Vec<ValidationError> {
    let mut all = failures.into_iter().flatten();
    let Some(first) = all.next() else { return Vec::new() };
    let mut rest: Vec<ValidationError> = all.collect();
    if rest.is_empty() {
        return vec![first];
    }
    rest.sort_by_key(|e| e.instruction_index.unwrap_or(usize::MAX));
    let mut seen = rustc_hash::FxHashSet::default();
    // Results of the instructions an error was kept at.
    let mut faulty = rustc_hash::FxHashSet::default();
    let mut kept = Vec::with_capacity(rest.len() + 1);
    for e in std::iter::once(first).chain(rest) {
        if kept.len() >= limit {
            break;
        }
        let ids = e.named_ids();
        let consequence = ids.iter().any(|&id| faulty.contains(&id) && module.def_index(id) != e.instruction_index);
        // One instruction breaking one rule, or one rule broken by the
        // same ids wherever they are used.
        let at = if ids.is_empty() { e.instruction_index } else { None };
        if consequence || !seen.insert((e.message.clone(), at)) {
            continue;
        }
        if let Some(result) = e.instruction_index.and_then(|i| module.result_id(i)) {
            faulty.insert(result);
        }
        kept.push(e);
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::{in_module_order, ErrorKind, ValidationError};
    use crate::module::Module;

    fn error(inst: Option<usize>, message: &str) -> ValidationError {
        ValidationError {
            kind: ErrorKind::OperandType,
            word_offset: 0,
            instruction_index: inst,
            message: message.into(),
            instruction: None,
            met: None,
        }
    }

    #[test]
    fn the_first_error_then_the_others_in_module_order_each_once() {
        // Instructions: 0-2 capabilities and memory model, 3 %int, 4 %p,
        // 5 %v (id 3), 6 %w (id 4).
        let text = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n\
                    %int = OpTypeInt 32 1\n%p = OpTypePointer Private %int\n%v = OpVariable %p Private\n\
                    %w = OpVariable %p Private\n";
        let words = crate::text::assemble(text, &Default::default()).unwrap();
        let module = Module::read(&words).unwrap();
        let failures = vec![
            vec![error(Some(6), "first, spirv-val's"), error(Some(5), "bad definition of '3[%v]'")],
            vec![
                error(None, "the whole module"),
                error(Some(6), "uses '3[%v]', a consequence"),
                error(Some(4), "no ids"),
                error(Some(4), "no ids"),
                error(Some(5), "no ids"),
                error(Some(4), "names '2[%p]'"),
                error(Some(6), "names '2[%p]'"),
            ],
        ];
        let kept: Vec<(Option<usize>, String)> = in_module_order(&module, failures, usize::MAX)
            .into_iter()
            .map(|e| (e.instruction_index, e.message))
            .collect();
        let want = [
            (Some(6), "first, spirv-val's"),
            (Some(4), "no ids"),
            (Some(4), "names '2[%p]'"),
            (Some(5), "bad definition of '3[%v]'"),
            (Some(5), "no ids"),
            (None, "the whole module"),
        ];
        assert_eq!(kept, want.map(|(i, m)| (i, m.to_string())));
        let two =
            in_module_order(&module, vec![vec![error(Some(6), "a"), error(Some(4), "b"), error(Some(5), "c")]], 2);
        assert_eq!(two.iter().map(|e| e.message.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    }

    /// spirv-val 2025.5 on the same words: an unknown enumerant of a debug
    /// set's kind is named with the set for OpenCL.DebugInfo.100 only.
    #[test]
    fn debug_set_kinds_are_named_as_spirv_val_names_them() {
        for (set, words) in [
            ("OpenCL.DebugInfo.100", "Invalid OpenCL.DebugInfo.100 debug type qualifier operand: 19"),
            ("DebugInfo", "Invalid debug type qualifier operand: 19"),
        ] {
            let text = format!(
                "OpCapability Shader\nOpCapability Linkage\n%dbg = OpExtInstImport \"{set}\"\n\
                 OpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n%name = OpString \"float\"\n\
                 %uint = OpTypeInt 32 0\n%size = OpConstant %uint 32\n\
                 %bt = OpExtInst %void %dbg DebugTypeBasic %name %size Float\n\
                 %q = OpExtInst %void %dbg DebugTypeQualifier %bt VolatileType\n"
            );
            let mut module = crate::text::assemble(&text, &Default::default()).unwrap();
            *module.last_mut().unwrap() = 19;
            let errors = super::validate(&module, &super::ValOptions::default()).unwrap_err();
            assert_eq!(errors.first().message, words, "{set}");
        }
    }

    /// spirv-val 2025.5 on the same words: the header against the target
    /// environment before any instruction is read; an instruction whose
    /// word count runs past the end after all its operands.
    #[test]
    fn the_header_is_judged_before_the_instructions_are_read() {
        let text = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n\
                    %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f = OpFunction %void None %fn\n\
                    %l = OpLabel\nOpReturn\nOpFunctionEnd\n";
        let mut words = crate::text::assemble(text, &Default::default()).unwrap();
        let last = words.len() - 1;
        words[last] = 3 << 16 | u32::from(crate::grammar::op::OpFunctionEnd);
        let first = |options: &super::ValOptions| super::validate(&words, options).unwrap_err().first().message.clone();
        let vulkan = super::ValOptions::default().target_env("vulkan1.0".parse().unwrap());
        assert_eq!(
            first(&vulkan),
            "Invalid SPIR-V binary version 1.6 for target environment SPIR-V 1.0 (under Vulkan 1.0 semantics)."
        );
        assert_eq!(
            first(&super::ValOptions::default()),
            format!(
                "Invalid instruction OpFunctionEnd starting at word {last}: expected no more operands after 1 words, \
                 but stated word count is 3."
            )
        );
    }
}
