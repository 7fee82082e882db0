//! Reading SPIR-V binaries: words from bytes or hex text, the module header,
//! and a grammar-driven instruction parser that borrows the input words.

pub mod encode;
mod error;
mod idmap;
mod parser;
mod words;

pub use error::{BinaryError, BinaryErrorKind};
pub use idmap::IdMap;
pub(crate) use parser::static_layouts;
pub use parser::{
    literal_string_bytes, ExtSet, FloatFormat, Instruction, InstructionParser, NumberKind, ParsedOperand,
    ParserOptions, StoredInstruction,
};
pub use words::{looks_like_hex_text, words_as_le_bytes, words_from_bytes, words_from_hex_text, Endian, Words};

/// The SPIR-V magic number, as read in the module's own byte order.
pub const MAGIC: u32 = 0x0723_0203;

/// Number of words in the module header.
pub const HEADER_WORDS: usize = 5;

/// The five header words of a module (seed 003, "Physical layout").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub magic: u32,
    /// `0x00MMmm00`: major and minor version.
    pub version: u32,
    /// Tool id in the high 16 bits, tool-specific version in the low 16.
    pub generator: u32,
    /// Every id in the module is less than this.
    pub bound: u32,
    pub schema: u32,
}

impl Header {
    /// Reads the header from host-order words.
    pub fn read(words: &[u32]) -> Result<Header, BinaryError> {
        if words.len() < HEADER_WORDS {
            return Err(BinaryError::new(BinaryErrorKind::IncompleteHeader { words: words.len() }, words.len()));
        }
        if words[0] != MAGIC {
            return Err(BinaryError::new(BinaryErrorKind::BadMagic { found: words[0] }, 0));
        }
        Ok(Header { magic: words[0], version: words[1], generator: words[2], bound: words[3], schema: words[4] })
    }

    /// Major and minor version numbers.
    pub fn version_parts(&self) -> (u32, u32) {
        ((self.version >> 16) & 0xff, (self.version >> 8) & 0xff)
    }
}
