//! [`BinaryError`], the one error type of [`crate::binary`]: what went wrong
//! reading a module's bytes, header or instructions, and the word offset
//! where it happened.

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

/// What went wrong. Each variant's fields name the values involved; the
/// word offset lives in [`BinaryError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BinaryErrorKind {
    /// The byte length is not a multiple of four.
    NotWordAligned {
        /// Length of the input in bytes.
        bytes: usize,
    },
    /// Fewer than five words.
    IncompleteHeader {
        /// How many words the input has.
        words: usize,
    },
    /// The first word is not the magic number in either byte order.
    BadMagic {
        /// The first word, as read.
        found: u32,
    },
    /// A hex-text input that could not be read.
    BadHexText {
        /// 1-based line of the offending token.
        line: usize,
        /// 1-based byte column of the offending token.
        column: usize,
        /// What is wrong with it.
        message: String,
    },
    /// An instruction whose word count is zero.
    ZeroWordCount {
        /// The low 16 bits of the instruction's first word.
        opcode: u16,
    },
    /// An instruction whose word count runs past the end of the module.
    TruncatedInstruction {
        /// The low 16 bits of the instruction's first word.
        opcode: u16,
        /// The word count the instruction declares.
        word_count: u32,
        /// Words left in the module from the instruction's start.
        available: usize,
    },
    /// An opcode the grammar does not know.
    UnknownOpcode {
        /// The opcode as read.
        opcode: u16,
    },
    /// A required operand is missing.
    MissingOperand {
        /// The instruction's name, e.g. `OpTypeInt`.
        opname: &'static str,
        /// The grammar's name for the operand (empty when it has none).
        operand: &'static str,
        /// 0-based position of the missing operand among the instruction's
        /// operands.
        index: usize,
    },
    /// More words than the grammar allows.
    ExtraWords {
        /// The instruction's name.
        opname: &'static str,
        /// Words the operands took, the opcode word included.
        expected: usize,
        /// The word count the instruction declares.
        word_count: usize,
    },
    /// A literal string without its terminating NUL inside the instruction.
    UnterminatedString {
        /// The instruction's name.
        opname: &'static str,
    },
    /// A number operand that needs more words than remain.
    TruncatedNumber {
        /// The instruction's name.
        opname: &'static str,
        /// Words the number's type calls for.
        needed: usize,
    },
    /// An enumerant value the grammar does not know for this operand kind.
    UnknownEnumerant {
        /// The operand kind's grammar name, e.g. `StorageClass`.
        kind: &'static str,
        /// The value as read.
        value: u32,
    },
    /// An operand kind SPIRV-Tools 2025.5's binary parser cannot read.
    UnreadableOperandKind {
        /// The operand kind's grammar name.
        kind: &'static str,
    },
    /// A mask with bits the grammar does not know for this operand kind.
    UnknownMaskBits {
        /// The operand kind's grammar name, e.g. `MemoryAccess`.
        kind: &'static str,
        /// The whole mask as read.
        value: u32,
        /// The bits of `value` the grammar does not know.
        bits: u32,
    },
    /// An id operand of zero.
    ZeroId {
        /// Which operand: `result type id`, `result id` or `id operand`.
        what: &'static str,
    },
    /// An id at or above the header's bound.
    IdOutOfBound {
        /// The id as read.
        id: u32,
        /// The header's bound.
        bound: u32,
    },
    /// A result id defined twice.
    DuplicateResultId {
        /// The id defined again.
        id: u32,
    },
    /// A literal number whose type is not a known scalar numeric type.
    NotANumericType {
        /// The result type of the constant holding the number.
        type_id: u32,
    },
    /// OpSwitch whose selector has no integer type.
    BadSwitchSelector {
        /// The selector id.
        id: u32,
        /// Why its type does not size the case literals.
        reason: &'static str,
    },
    /// A module of 2^31 words (8 GiB) or more, which the validator's
    /// tables do not index.
    TooLarge {
        /// The module's length in words.
        words: usize,
    },
    /// A module whose instructions have over 2^26 distinct operand lists,
    /// which the module representation does not index (a compiler's module
    /// has a few thousand).
    TooManyOperandLists,
    /// OpExtInst whose set operand is not an OpExtInstImport result.
    NotAnImport {
        /// The set operand; 0 when the instruction number came before any
        /// set operand was read.
        id: u32,
    },
    /// OpExtInstImport naming a set we do not know (and not `NonSemantic.*`).
    UnknownImport {
        /// The import string, lossily decoded as UTF-8.
        name: String,
    },
    /// An extended instruction number the set does not have.
    UnknownExtInst {
        /// The set's import name, e.g. `GLSL.std.450`.
        set: &'static str,
        /// The instruction number as read.
        number: u32,
    },
    /// OpSpecConstantOp naming an opcode that does not exist.
    UnknownSpecConstantOp {
        /// The embedded opcode word as read.
        opcode: u32,
    },
}

impl BinaryError {
    /// Creates an error at a word offset from the start of the module.
    pub(crate) fn new(kind: BinaryErrorKind, word_offset: usize) -> BinaryError {
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
            TooManyOperandLists => write!(f, "module too large to validate: over 2^26 distinct operand lists"),
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
