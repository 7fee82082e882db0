//! What validation reports: one [`ValidationError`] per broken rule,
//! gathered in [`ValidationErrors`].

use std::fmt;

/// Which rule an error breaks. Stable: tools may match on it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The binary itself does not parse (seed 003).
    Binary,
    /// The module's version is newer than the target environment allows.
    Version,
    /// Logical layout (spec 2.4): section order, one memory model.
    Layout,
    /// Functions and blocks: OpFunction/OpLabel/terminators/OpFunctionEnd.
    FunctionStructure,
    /// An id used but never defined.
    UndefinedId,
    /// A forward reference where the operand needs an earlier definition.
    ForwardReference,
    /// A type used where a value is needed, or the reverse.
    TypeValueMismatch,
    /// A capability, extension or version needed and not declared.
    Capability,
    /// Operand types of an instruction (loads, stores, access chains,
    /// arithmetic, composites, calls...).
    OperandType,
    /// A definition that does not dominate a use, or a use in another function.
    Dominance,
    /// Entry points and execution modes.
    EntryPoint,
    /// Decoration targets.
    Decoration,
    /// A BuiltIn variable of the wrong type or storage class (Vulkan).
    BuiltIn,
    /// A universal limit (spec 2.17) or its `--max-*` override.
    Limit,
    /// Structured control flow (spec 2.11): constructs, merges, back-edges.
    StructuredControlFlow,
}

/// One broken rule.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ValidationError {
    /// Which family of rules it breaks.
    pub kind: ErrorKind,
    /// Word offset of the offending instruction (or of the binary error).
    pub word_offset: usize,
    /// Index of the offending instruction in [`Module::insts`](crate::module::Module::insts),
    /// when the error concerns one: with a module read from text,
    /// [`Module::span`](crate::module::Module::span) gives its place there.
    pub instruction_index: Option<usize>,
    /// What is wrong, in spirv-val's words where it reports the same error.
    pub message: String,
    /// The offending instruction, disassembled with friendly names.
    pub instruction: Option<String>,
    /// Where spirv-val's per-instruction walk meets it, when not at
    /// `instruction_index` (see `Report::error_met_at`).
    pub(crate) met: Option<usize>,
}

impl ValidationError {
    /// The ids the message names, in spirv-val's `'12[%name]'` form, each
    /// once, in the order the message names them: the operands and
    /// definitions a rule involves, for tools that point at them.
    ///
    /// ```
    /// use gpuasm_spirv::validate::{validate, ValOptions};
    /// let words = gpuasm_spirv::text::assemble(
    ///     "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n\
    ///      %int = OpTypeInt 32 1\n%float = OpTypeFloat 32\n%one = OpConstant %int 1\n\
    ///      %bad = OpConstantComposite %float %one\n",
    ///     &Default::default(),
    /// )
    /// .unwrap();
    /// let errors = validate(&words, &ValOptions::default()).unwrap_err();
    /// let first = errors.first();
    /// assert_eq!(first.message, "OpConstantComposite Result Type <id> '2[%float]' is not a composite type.");
    /// assert_eq!(first.named_ids(), [2]);
    /// ```
    pub fn named_ids(&self) -> Vec<u32> {
        named_ids(&self.message)
    }
}

/// The ids `message` names as `'12[%name]'`, each once, in order.
pub(crate) fn named_ids(message: &str) -> Vec<u32> {
    let bytes = message.as_bytes();
    let mut ids = Vec::new();
    let mut at = 0;
    while let Some(quote) = memchr::memchr(b'\'', &bytes[at..]) {
        let start = at + quote + 1;
        let digits = bytes[start..].iter().take_while(|b| b.is_ascii_digit()).count();
        at = start;
        if digits == 0 || !bytes[start + digits..].starts_with(b"[%") {
            continue;
        }
        if let Ok(id) = message[start..start + digits].parse::<u32>() {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        at = start + digits;
    }
    ids
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "word {}: {}", self.word_offset, self.message)?;
        if let Some(i) = &self.instruction {
            write!(f, "\n  {}", i.trim())?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationError {}

/// Every error one validation found (never empty): the error type of
/// [`validate`](super::validate). The first is the one spirv-val reports,
/// in its words; it derefs to a slice for the rest.
#[derive(Clone, Debug)]
pub struct ValidationErrors {
    errors: Vec<ValidationError>,
}

impl ValidationErrors {
    /// Wraps a non-empty list.
    pub(crate) fn new(errors: Vec<ValidationError>) -> Self {
        debug_assert!(!errors.is_empty());
        ValidationErrors { errors }
    }

    /// The first error: the one spirv-val reports.
    pub fn first(&self) -> &ValidationError {
        &self.errors[0]
    }

    /// The errors as a vector.
    pub fn into_vec(self) -> Vec<ValidationError> {
        self.errors
    }
}

impl std::ops::Deref for ValidationErrors {
    type Target = [ValidationError];

    fn deref(&self) -> &[ValidationError] {
        &self.errors
    }
}

impl IntoIterator for ValidationErrors {
    type Item = ValidationError;
    type IntoIter = std::vec::IntoIter<ValidationError>;

    fn into_iter(self) -> Self::IntoIter {
        self.errors.into_iter()
    }
}

impl<'a> IntoIterator for &'a ValidationErrors {
    type Item = &'a ValidationError;
    type IntoIter = std::slice::Iter<'a, ValidationError>;

    fn into_iter(self) -> Self::IntoIter {
        self.errors.iter()
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.first(), f)?;
        match self.errors.len() {
            1 => Ok(()),
            n => write!(f, "\n(and {} more error{})", n - 1, if n == 2 { "" } else { "s" }),
        }
    }
}

impl std::error::Error for ValidationErrors {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.first())
    }
}

#[cfg(test)]
mod tests {
    use super::named_ids;

    #[test]
    fn ids_named_in_spirv_val_form() {
        let m = "OpLoad Result Type <id> '2[%int]' does not match Pointer <id> '4[%4]'s type.";
        assert_eq!(named_ids(m), [2, 4]);
        assert_eq!(named_ids("ID '7[%x]' and again '7[%x]', not '8' nor 9[%y]"), [7]);
        assert!(named_ids("Expected int scalar as Result Type: IAdd").is_empty());
    }
}
