//! Reading SPIR-V binaries: words from bytes or hex text
//! ([`words_from_bytes`], [`words_from_hex_text`]), the module [`Header`],
//! and [`InstructionParser`], a grammar-driven reader that borrows the input
//! words and decodes every operand. Every failure is a [`BinaryError`]
//! carrying the word offset where it happened.
//!
//! ```
//! use gpuasm_spirv::binary::{words_from_bytes, InstructionParser, ParserOptions};
//!
//! // Header, `OpCapability Shader`, `OpMemoryModel Logical GLSL450`.
//! let module = [0x0723_0203, 0x0001_0000, 0, 1, 0, (2 << 16) | 17, 1, (3 << 16) | 14, 0, 1];
//! let bytes: Vec<u8> = module.iter().flat_map(|w: &u32| w.to_le_bytes()).collect();
//!
//! let (words, _endian) = words_from_bytes(&bytes)?;
//! let mut parser = InstructionParser::new(&words, ParserOptions::default())?;
//! assert_eq!(parser.header().version_parts(), (1, 0));
//! let mut names = Vec::new();
//! // Not an `Iterator`: each instruction borrows the parser's operand list.
//! while let Some(inst) = parser.next() {
//!     let inst = inst?;
//!     names.push((inst.info.name, inst.operands.len()));
//! }
//! assert_eq!(names, [("OpCapability", 1), ("OpMemoryModel", 2)]);
//! # Ok::<(), gpuasm_spirv::binary::BinaryError>(())
//! ```

pub mod encode;
mod error;
pub(crate) mod idmap;
mod parser;
mod words;

pub use error::{BinaryError, BinaryErrorKind};
pub(crate) use idmap::IdMap;
pub(crate) use parser::{literal_string_bytes, static_layout, StoredInstruction};
pub use parser::{
    ExtSet, FloatFormat, Instruction, InstructionParser, NumberKind, ParsedOperand, ParserOptions, UNKNOWN_INSTRUCTION,
};
pub use words::{
    looks_like_hex_text, words_as_le_bytes, words_from_bytes, words_from_hex_text, words_of_bytes, Endian,
};

/// The SPIR-V magic number, as read in the module's own byte order.
pub const MAGIC: u32 = 0x0723_0203;

/// Number of words in the module header.
pub const HEADER_WORDS: usize = 5;

/// The five header words of a module (seed 003, "Physical layout").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Always [`MAGIC`] once read (the words are in host order by then).
    pub magic: u32,
    /// `0x00MMmm00`: major and minor version.
    pub version: u32,
    /// Tool id in the high 16 bits, tool-specific version in the low 16.
    pub generator: u32,
    /// Every id in the module is less than this.
    pub bound: u32,
    /// Reserved instruction schema, 0 in the modules SPIR-V defines (the
    /// reader does not check it; the disassembler prints it).
    pub schema: u32,
}

impl Header {
    /// Reads the header from host-order words: an error when there are
    /// fewer than [`HEADER_WORDS`] or the first is not [`MAGIC`].
    pub fn read(words: &[u32]) -> Result<Header, BinaryError> {
        if words.len() < HEADER_WORDS {
            return Err(BinaryError::new(BinaryErrorKind::IncompleteHeader { words: words.len() }, words.len()));
        }
        if words[0] != MAGIC {
            return Err(BinaryError::new(BinaryErrorKind::BadMagic { found: words[0] }, 0));
        }
        Ok(Header { magic: words[0], version: words[1], generator: words[2], bound: words[3], schema: words[4] })
    }

    /// Major and minor version numbers, e.g. `(1, 6)` (the version word's
    /// bits 16-23 and 8-15).
    pub fn version_parts(&self) -> (u32, u32) {
        ((self.version >> 16) & 0xff, (self.version >> 8) & 0xff)
    }
}

/// The disassembler's corpus (`tests/corpus/spv`), for tests: each `.spv`
/// file's place among them in name order, its path and its words (files
/// whose words do not read are left out, keeping their place).
#[cfg(test)]
pub(crate) fn test_corpus() -> Vec<(usize, std::path::PathBuf, Vec<u32>)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/spv");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .enumerate()
        .filter_map(|(n, path)| {
            let (words, _) = words_from_bytes(&std::fs::read(&path).unwrap()).ok()?;
            Some((n, path, words))
        })
        .collect()
}

/// `words` with bit `bit` flipped in every `step`th word after the header,
/// for tests: unknown opcodes and enumerants, wrong ids and word counts.
#[cfg(test)]
pub(crate) fn damaged(words: &[u32], step: usize, bit: usize) -> Vec<u32> {
    let mut damaged = words.to_vec();
    for w in damaged.iter_mut().skip(HEADER_WORDS).step_by(step) {
        *w ^= 1 << bit;
    }
    damaged
}
