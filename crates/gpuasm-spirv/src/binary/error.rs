//! Errors found while reading a binary, each with the word offset where it
//! happened.

use std::fmt;

/// An error in a SPIR-V binary. Boxed so that `Result<_, BinaryError>` stays
/// one pointer wide on the hot path.
#[derive(Debug)]
pub struct BinaryError {
    inner: Box<Inner>,
}

#[derive(Debug)]
struct Inner {
    kind: BinaryErrorKind,
    word_offset: usize,
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BinaryErrorKind {
    /// The byte length is not a multiple of four.
    NotWordAligned { bytes: usize },
    /// Fewer than five words.
    IncompleteHeader { words: usize },
    /// The first word is not the magic number in either byte order.
    BadMagic { found: u32 },
    /// A hex-text input that could not be read.
    BadHexText { line: usize, column: usize, message: String },
    /// An instruction whose word count is zero.
    ZeroWordCount { opcode: u16 },
    /// An instruction whose word count runs past the end of the module.
    TruncatedInstruction { opcode: u16, word_count: u32, available: usize },
    /// An opcode the grammar does not know.
    UnknownOpcode { opcode: u16 },
    /// A required operand is missing.
    MissingOperand { opname: &'static str, operand: &'static str, index: usize },
    /// More words than the grammar allows.
    ExtraWords { opname: &'static str, expected: usize, word_count: usize },
    /// A literal string without its terminating NUL inside the instruction.
    UnterminatedString { opname: &'static str },
    /// A number operand that needs more words than remain.
    TruncatedNumber { opname: &'static str, needed: usize },
    /// An enumerant value the grammar does not know for this operand kind.
    UnknownEnumerant { kind: &'static str, value: u32 },
    /// An operand kind SPIRV-Tools 2025.5's binary parser cannot read.
    UnreadableOperandKind { kind: &'static str },
    /// A mask with bits the grammar does not know for this operand kind.
    UnknownMaskBits { kind: &'static str, value: u32, bits: u32 },
    /// An id operand of zero.
    ZeroId { what: &'static str },
    /// An id at or above the header's bound.
    IdOutOfBound { id: u32, bound: u32 },
    /// A result id defined twice.
    DuplicateResultId { id: u32 },
    /// A literal number whose type is not a known scalar numeric type.
    NotANumericType { type_id: u32 },
    /// OpSwitch whose selector has no integer type.
    BadSwitchSelector { id: u32, reason: &'static str },
    /// A module of 2^31 words (8 GiB) or more, which the validator's
    /// tables do not index.
    TooLarge { words: usize },
    /// OpExtInst whose set operand is not an OpExtInstImport result.
    NotAnImport { id: u32 },
    /// OpExtInstImport naming a set we do not know (and not `NonSemantic.*`).
    UnknownImport { name: String },
    /// An extended instruction number the set does not have.
    UnknownExtInst { set: &'static str, number: u32 },
    /// OpSpecConstantOp naming an opcode that does not exist.
    UnknownSpecConstantOp { opcode: u32 },
}

impl BinaryError {
    /// Creates an error at a word offset from the start of the module.
    pub fn new(kind: BinaryErrorKind, word_offset: usize) -> BinaryError {
        BinaryError { inner: Box::new(Inner { kind, word_offset }) }
    }

    /// What went wrong.
    pub fn kind(&self) -> &BinaryErrorKind {
        &self.inner.kind
    }

    /// Word offset from the start of the module (the header is words 0-4).
    pub fn word_offset(&self) -> usize {
        self.inner.word_offset
    }
}

impl std::error::Error for BinaryError {}

impl fmt::Display for BinaryErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use BinaryErrorKind::*;
        match self {
            NotWordAligned { bytes } => write!(f, "file size {bytes} is not a multiple of 4 bytes"),
            IncompleteHeader { words } => write!(f, "module has an incomplete header: {words} words instead of 5"),
            BadMagic { found } => write!(f, "invalid SPIR-V magic number 0x{found:08x}"),
            BadHexText { line, column, message } => write!(f, "hex text {line}:{column}: {message}"),
            ZeroWordCount { opcode } => write!(f, "instruction (opcode {opcode}) has a word count of 0"),
            TruncatedInstruction { opcode, word_count, available } => {
                write!(f, "instruction (opcode {opcode}) says it has {word_count} words but only {available} remain")
            }
            UnknownOpcode { opcode } => write!(f, "invalid opcode {opcode}"),
            MissingOperand { opname, operand, index } => {
                write!(f, "{opname}: missing operand {index}")?;
                if !operand.is_empty() {
                    write!(f, " ({operand})")?;
                }
                Ok(())
            }
            ExtraWords { opname, expected, word_count } => write!(
                f,
                "{opname}: expected no more operands after {expected} words, but the word count is {word_count}"
            ),
            UnterminatedString { opname } => write!(f, "{opname}: literal string has no terminating NUL"),
            TruncatedNumber { opname, needed } => {
                write!(f, "{opname}: literal number needs {needed} words, past the end of the instruction")
            }
            UnknownEnumerant { kind, value } => write!(f, "invalid {kind} operand: {value}"),
            UnreadableOperandKind { kind } => write!(
                f,
                "operand kind {kind} cannot be read: SPIRV-Tools 2025.5 stops here too (\"Internal error: Unhandled operand type\")"
            ),
            UnknownMaskBits { kind, value, bits } => {
                write!(f, "invalid {kind} operand: 0x{value:x} has unknown bits 0x{bits:x}")
            }
            ZeroId { what } => write!(f, "{what} is 0"),
            IdOutOfBound { id, bound } => write!(f, "id {id} is not less than the bound {bound}"),
            DuplicateResultId { id } => write!(f, "id {id} is defined more than once"),
            NotANumericType { type_id } => write!(f, "type id {type_id} is not a scalar numeric type"),
            BadSwitchSelector { id, reason } => write!(f, "invalid OpSwitch: selector id {id} {reason}"),
            TooLarge { words } => write!(f, "module too large to validate: {words} words (at most 2^31 - 1)"),
            NotAnImport { id } => write!(f, "OpExtInst set id {id} does not reference an OpExtInstImport result id"),
            UnknownImport { name } => write!(f, "invalid extended instruction import \"{name}\""),
            UnknownExtInst { set, number } => write!(f, "invalid extended instruction number {number} for set {set}"),
            UnknownSpecConstantOp { opcode } => write!(f, "invalid OpSpecConstantOp opcode {opcode}"),
        }
    }
}

impl fmt::Display for BinaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at word {})", self.inner.kind, self.inner.word_offset)
    }
}
