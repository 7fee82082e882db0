//! Static tables of the SPIR-V grammar: instructions, operand kinds,
//! enumerants and extended instruction sets, with constants for every opcode
//! ([`op`]) and core enumerant (e.g. [`storage_class`]).
//!
//! The tables are generated at build time from the JSON grammars vendored in
//! `grammar/` (see `build.rs`); this module only defines their shape and the
//! lookups over them.
//!
//! ```
//! use gpuasm_spirv::grammar::{self, op, storage_class, OperandKind, Quantifier};
//!
//! let int = grammar::instruction_by_name("OpTypeInt").unwrap();
//! assert_eq!(int.opcode, op::OpTypeInt);
//! let names: Vec<_> = int.operands.iter().map(|o| o.name).collect();
//! assert_eq!(names, ["", "Width", "Signedness"]);
//! assert_eq!(int.operands[1].kind, OperandKind::LiteralInteger);
//! assert_eq!(int.operands[1].quantifier, Quantifier::One);
//!
//! let function = OperandKind::StorageClass.enumerant_by_name("Function").unwrap();
//! assert_eq!(function.value, storage_class::Function);
//!
//! let glsl = grammar::ext_inst_set("GLSL.std.450").unwrap();
//! assert_eq!(glsl.instruction(31).unwrap().name, "Sqrt");
//! ```

#![allow(clippy::all)]

// Every public item in the generated tables carries a doc comment written by
// build.rs from the grammar (`missing_docs` holds for them too).
mod generated {
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}

pub use generated::*;

/// A SPIR-V version, `major.minor`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(pub u8, pub u8);

impl Version {
    /// The version as encoded in the module header word.
    pub const fn word(self) -> u32 {
        ((self.0 as u32) << 16) | ((self.1 as u32) << 8)
    }
}

/// How often an operand may appear.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// Exactly once.
    One,
    /// Zero or one time (`?` in the grammar).
    Optional,
    /// Zero or more times (`*` in the grammar).
    Variadic,
}

/// The grammar's category of an operand kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Category {
    /// A value enumeration: one named value per word.
    ValueEnum,
    /// A bit mask: names combine with `|`.
    BitEnum,
    /// An `<id>`.
    Id,
    /// A literal number or string.
    Literal,
    /// A pair of other kinds (`bases`).
    Composite,
}

/// One operand slot of an instruction or enumerant parameter list.
#[derive(Copy, Clone, Debug)]
pub struct OperandSpec {
    /// What the operand is.
    pub kind: OperandKind,
    /// How often it may appear.
    pub quantifier: Quantifier,
    /// The grammar's descriptive name (may be empty).
    pub name: &'static str,
}

/// One named value of a value or bit enumeration.
#[derive(Debug)]
pub struct Enumerant {
    /// The grammar's name, e.g. `Function`.
    pub name: &'static str,
    /// The value (a single bit, or 0, for bit enums).
    pub value: u32,
    /// Operands that follow the enumerant when it is used.
    pub parameters: &'static [OperandSpec],
    /// `Capability` values, any of which enables this enumerant.
    pub capabilities: &'static [u32],
    /// Extensions, any of which enables this enumerant.
    pub extensions: &'static [&'static str],
    /// First SPIR-V version that has it in core (`None`: extension only, or
    /// no version in the grammar).
    pub version: Option<Version>,
    /// Last SPIR-V version that has it in core (`None`: still there).
    pub last_version: Option<Version>,
    /// Other names the grammar accepts for it.
    pub aliases: &'static [&'static str],
    /// Marked provisional in the grammar (from a provisional extension).
    pub provisional: bool,
}

/// Information about one operand kind.
#[derive(Debug)]
pub struct KindInfo {
    /// The grammar's name, e.g. `StorageClass` (without the prefix of an
    /// extended set's [`OperandKind`] variant).
    pub name: &'static str,
    /// What sort of kind it is.
    pub category: Category,
    /// Sorted by value.
    pub enumerants: &'static [Enumerant],
    /// For composite kinds, the kinds of the pair.
    pub bases: &'static [OperandKind],
    /// The enumerants that take no parameters: for value enums bit `v` for
    /// each value `v < 64`; for bit enums each such single bit, and bit 32
    /// when the value 0 is one (or is not an enumerant at all).
    pub(crate) plain_mask: u64,
}

/// One core instruction.
#[derive(Debug)]
pub struct InstructionInfo {
    /// Name with its `Op` prefix, e.g. `OpTypeInt`.
    pub name: &'static str,
    /// The opcode (the low 16 bits of the instruction's first word).
    pub opcode: u16,
    /// The grammar's class, e.g. `Type-Declaration` or `Arithmetic`.
    pub class: &'static str,
    /// The operands in order, result type and result id included.
    pub operands: &'static [OperandSpec],
    /// `Capability` values, any of which enables this instruction.
    pub capabilities: &'static [u32],
    /// Extensions, any of which enables this instruction.
    pub extensions: &'static [&'static str],
    /// First SPIR-V version that has it in core (`None`: extension only).
    pub version: Option<Version>,
    /// Last SPIR-V version that has it in core (`None`: still there).
    pub last_version: Option<Version>,
    /// Other names the grammar accepts for it.
    pub aliases: &'static [&'static str],
    /// Marked provisional in the grammar (from a provisional extension).
    pub provisional: bool,
    /// The first operand is an `IdResultType`.
    pub has_result_type: bool,
    /// It has an `IdResult` (first or second operand).
    pub has_result: bool,
    /// Declares a type (class Type-Declaration, with a result): SPIRV-Tools'
    /// `spvOpcodeGeneratesType`.
    pub declares_type: bool,
    /// How many leading operands are one word each (ids, one-word integers,
    /// enumerants) and appear exactly once: the reader takes them on a fast
    /// path (enumerants with parameters divert it to the general one).
    pub(crate) fast_prefix: u8,
    /// The only operand after the fast prefix is an optional or repeated
    /// one-word operand, also taken on the fast path.
    pub(crate) fast_tail: bool,
    /// The only operand after the fast prefix is a literal string.
    pub(crate) string_tail: bool,
}

/// One instruction of an extended instruction set.
#[derive(Debug)]
pub struct ExtInstInfo {
    /// The grammar's name, e.g. `Sqrt`.
    pub name: &'static str,
    /// The instruction number (`OpExtInst`'s `Instruction` operand).
    pub opcode: u32,
    /// The operands after `OpExtInst`'s set and instruction number.
    pub operands: &'static [OperandSpec],
    /// `Capability` values, any of which enables this instruction.
    pub capabilities: &'static [u32],
    /// Extensions, any of which enables this instruction.
    pub extensions: &'static [&'static str],
    /// Every operand is exactly one id (no literals, enumerants or
    /// quantifiers), so its layout follows from the word count.
    pub(crate) all_ids: bool,
}

/// An extended instruction set grammar.
#[derive(Debug)]
pub struct ExtInstSet {
    /// The `OpExtInstImport` string that selects it.
    pub import_name: &'static str,
    /// Whether `import_name` is a prefix (versioned names such as
    /// `NonSemantic.ClspvReflection.6`).
    pub match_prefix: bool,
    /// A `NonSemantic.*` set: its instructions may be removed without
    /// changing the module's meaning.
    pub non_semantic: bool,
    /// Whether SPIRV-Tools 2025.5 has this grammar built in (it treats the
    /// others as unknown `NonSemantic.*` sets).
    pub known_to_spirv_tools: bool,
    /// The grammar file's `revision` (0 when it has none).
    pub revision: u32,
    /// Sorted by opcode.
    pub instructions: &'static [ExtInstInfo],
}

impl OperandKind {
    /// The table entry for this kind.
    #[inline]
    pub fn info(self) -> &'static KindInfo {
        &KINDS[self as usize]
    }

    /// The kind's grammar name, e.g. `StorageClass`.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Looks up an enumerant by value (exact value for value enums, one bit
    /// or zero for bit enums).
    #[inline]
    pub fn enumerant(self, value: u32) -> Option<&'static Enumerant> {
        let e = self.info().enumerants;
        e.binary_search_by_key(&value, |e| e.value).ok().map(|i| &e[i])
    }

    /// Looks up an enumerant by its name or one of its aliases.
    pub fn enumerant_by_name(self, name: &str) -> Option<&'static Enumerant> {
        // Each kind's table is built on first use: building all of them was
        // a fifth of assembling a small text.
        type Map = crate::name_map::NameMap<&'static Enumerant>;
        static MAPS: [std::sync::OnceLock<Map>; KIND_COUNT] = [const { std::sync::OnceLock::new() }; KIND_COUNT];
        let map = MAPS[self as usize].get_or_init(|| {
            Map::new(
                KINDS[self as usize]
                    .enumerants
                    .iter()
                    .flat_map(|e| std::iter::once((e.name, e)).chain(e.aliases.iter().map(move |a| (*a, e)))),
            )
        });
        map.get(name)
    }
}

/// Looks up a core instruction by opcode.
#[inline]
pub fn instruction(opcode: u16) -> Option<&'static InstructionInfo> {
    match OPCODE_INDEX.get(opcode as usize) {
        Some(&i) if i != u16::MAX => Some(&INSTRUCTIONS[i as usize]),
        _ => None,
    }
}

/// Position of an opcode's entry in [`INSTRUCTIONS`].
#[inline]
pub(crate) fn instruction_index(opcode: u16) -> Option<usize> {
    match OPCODE_INDEX.get(opcode as usize) {
        Some(&i) if i != u16::MAX => Some(i as usize),
        _ => None,
    }
}

/// Whether a name introduced in `version` (and dropped after `last`) can be
/// used in a module of version `module`: in range, or enabled by some
/// extension or capability (which the module is assumed to declare; the
/// validator checks that). This is SPIRV-Tools' rule for names in text.
pub(crate) fn available(
    module: Version,
    version: Option<Version>,
    last: Option<Version>,
    extensions: &[&str],
    capabilities: &[u32],
) -> bool {
    let in_range = version.is_some_and(|v| v <= module) && last.is_none_or(|l| module <= l);
    in_range || !extensions.is_empty() || !capabilities.is_empty()
}

impl InstructionInfo {
    /// Whether the instruction's name can be used in a module of `version`:
    /// in core at that version, or enabled by an extension or capability
    /// (SPIRV-Tools' rule for names in assembly text).
    pub fn available_in(&self, version: Version) -> bool {
        available(version, self.version, self.last_version, self.extensions, self.capabilities)
    }
}

impl Enumerant {
    /// Whether the enumerant's name can be used in a module of `version`, by
    /// the rule of [`InstructionInfo::available_in`].
    pub fn available_in(&self, version: Version) -> bool {
        available(version, self.version, self.last_version, self.extensions, self.capabilities)
    }
}

/// Looks up a core instruction by name (with `Op` prefix) or alias.
pub fn instruction_by_name(name: &str) -> Option<&'static InstructionInfo> {
    static MAP: std::sync::OnceLock<crate::name_map::NameMap<u16>> = std::sync::OnceLock::new();
    let map = MAP.get_or_init(|| crate::name_map::NameMap::new(OPCODE_NAMES.iter().copied()));
    map.get(name).map(|i| &INSTRUCTIONS[i as usize])
}

/// Finds the extended instruction set an `OpExtInstImport` string selects.
pub fn ext_inst_set(import_name: &str) -> Option<&'static ExtInstSet> {
    EXT_INST_SETS.iter().find(|s| {
        if s.match_prefix {
            import_name.starts_with(s.import_name)
        } else {
            import_name == s.import_name
        }
    })
}

impl ExtInstSet {
    /// Looks up an instruction of the set by number.
    #[inline]
    pub fn instruction(&self, opcode: u32) -> Option<&'static ExtInstInfo> {
        let v = self.instructions;
        // Most sets number their instructions densely: try the direct slot.
        let first = v.first().map_or(0, |i| i.opcode);
        if let Some(i) = v.get(opcode.wrapping_sub(first) as usize) {
            if i.opcode == opcode {
                return Some(i);
            }
        }
        v.binary_search_by_key(&opcode, |i| i.opcode).ok().map(|i| &v[i])
    }

    /// Looks up an instruction of the set by name.
    pub fn instruction_by_name(&self, name: &str) -> Option<&'static ExtInstInfo> {
        type Map = crate::name_map::NameMap<u16>;
        static MAPS: std::sync::OnceLock<Vec<Map>> = std::sync::OnceLock::new();
        let maps = MAPS.get_or_init(|| {
            EXT_INST_SETS
                .iter()
                .map(|s| Map::new(s.instructions.iter().enumerate().map(|(i, e)| (e.name, i as u16))))
                .collect()
        });
        // Sets are the entries of EXT_INST_SETS; any other (there are none
        // today) is searched.
        match EXT_INST_SETS.iter().position(|s| std::ptr::eq(s, self)) {
            Some(set) => maps[set].get(name).map(|i| &self.instructions[i as usize]),
            None => self.instructions.iter().find(|i| i.name == name),
        }
    }
}

/// The opcodes OpSpecConstantOp may name (SPIR-V spec 3.32.7, "Opcode must
/// be one of the following opcodes", with those allowed under Shader and
/// Kernel), plus the cooperative-matrix length queries SPIRV-Tools accepts.
/// The JSON grammar does not carry this list; names resolve through it.
pub const SPEC_CONSTANT_OP_OPCODES: &[&str] = &[
    "OpSConvert",
    "OpFConvert",
    "OpConvertFToS",
    "OpConvertSToF",
    "OpConvertFToU",
    "OpConvertUToF",
    "OpUConvert",
    "OpConvertPtrToU",
    "OpConvertUToPtr",
    "OpGenericCastToPtr",
    "OpPtrCastToGeneric",
    "OpBitcast",
    "OpQuantizeToF16",
    "OpSNegate",
    "OpNot",
    "OpIAdd",
    "OpISub",
    "OpIMul",
    "OpUDiv",
    "OpSDiv",
    "OpUMod",
    "OpSRem",
    "OpSMod",
    "OpShiftRightLogical",
    "OpShiftRightArithmetic",
    "OpShiftLeftLogical",
    "OpBitwiseOr",
    "OpBitwiseAnd",
    "OpBitwiseXor",
    "OpFNegate",
    "OpFAdd",
    "OpFSub",
    "OpFMul",
    "OpFDiv",
    "OpFRem",
    "OpFMod",
    "OpVectorShuffle",
    "OpCompositeExtract",
    "OpCompositeInsert",
    "OpLogicalOr",
    "OpLogicalAnd",
    "OpLogicalNot",
    "OpLogicalEqual",
    "OpLogicalNotEqual",
    "OpSelect",
    "OpIEqual",
    "OpINotEqual",
    "OpULessThan",
    "OpSLessThan",
    "OpUGreaterThan",
    "OpSGreaterThan",
    "OpULessThanEqual",
    "OpSLessThanEqual",
    "OpUGreaterThanEqual",
    "OpSGreaterThanEqual",
    "OpAccessChain",
    "OpInBoundsAccessChain",
    "OpPtrAccessChain",
    "OpInBoundsPtrAccessChain",
    "OpCooperativeMatrixLengthNV",
    "OpCooperativeMatrixLengthKHR",
];

/// Whether OpSpecConstantOp may name this opcode.
pub fn spec_constant_op_allowed(opcode: u16) -> bool {
    instruction(opcode).is_some_and(|i| SPEC_CONSTANT_OP_OPCODES.contains(&i.name))
}

/// The registered name of a generator tool id, as spirv-dis prints it.
pub fn generator_name(tool: u16) -> Option<&'static str> {
    GENERATORS.binary_search_by_key(&tool, |&(t, _)| t).ok().map(|i| GENERATORS[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_agree_with_the_grammar() {
        let i = instruction(op::OpTypeInt).unwrap();
        assert_eq!(i.name, "OpTypeInt");
        assert!(i.has_result && !i.has_result_type);
        assert_eq!(instruction_by_name("OpTypeInt").unwrap().opcode, op::OpTypeInt);
        assert!(instruction(9999).is_none());
        assert_eq!(OperandKind::StorageClass.enumerant(storage_class::Function).unwrap().name, "Function");
        assert_eq!(OperandKind::Decoration.enumerant_by_name("BuiltIn").unwrap().value, decoration::BuiltIn);
        let glsl = ext_inst_set("GLSL.std.450").unwrap();
        assert_eq!(glsl.instruction(31).unwrap().name, "Sqrt");
        assert!(ext_inst_set("NonSemantic.ClspvReflection.6").is_some());
        assert_eq!(generator_name(8), Some("Khronos Glslang Reference Front End"));
    }

    #[test]
    fn spec_constant_op_names_are_in_the_grammar() {
        for name in SPEC_CONSTANT_OP_OPCODES {
            let i = instruction_by_name(name).unwrap_or_else(|| panic!("{name}"));
            assert!(i.has_result_type && i.has_result, "{name}");
        }
        assert_eq!(SPEC_CONSTANT_OP_OPCODES.len(), 61);
    }

    #[test]
    fn every_opcode_index_points_back() {
        for (n, i) in INSTRUCTIONS.iter().enumerate() {
            assert_eq!(OPCODE_INDEX[i.opcode as usize] as usize, n);
        }
    }
}
