//! Comparing two modules, byte-identical to SPIRV-Tools' `spirv-diff`: the
//! instructions of both are paired up (ids by what they define, functions
//! by name, signature and body), and the disassembly of src is printed
//! with removed lines marked `-` and added ones `+`, in src's ids.
//!
//! The module owns [`DiffOptions`], [`diff`] and [`DiffError`]; the work is
//! split into `layout` (a module as the optimizer's IR holds it), `side`
//! (one module's lookups), `idmap` (the pairing), `lcs` (the longest common
//! subsequence of two function bodies), `matching` (the pairing rules),
//! `candidates` (its "first free match" scans, bucketed), `best_effort`
//! (pairing leftover functions by body, by classes of alike bodies) and
//! `output` (the text).
//!
//! ```
//! use gpuasm_spirv::diff::{diff, DiffOptions};
//! use gpuasm_spirv::module::Module;
//! let asm = |extra: &str| {
//!     let text = format!("OpCapability Shader\n{extra}OpMemoryModel Logical GLSL450\n%1 = OpTypeVoid\n");
//!     gpuasm_spirv::text::assemble(&text, &Default::default()).unwrap()
//! };
//! let (a, b) = (asm(""), asm("OpCapability Float64\n"));
//! let (a, b) = (Module::read(&a).unwrap(), Module::read(&b).unwrap());
//! let text = diff(&a, &b, &DiffOptions::default().header(false).indent(false)).unwrap();
//! assert_eq!(String::from_utf8(text).unwrap(), " OpCapability Shader\n+OpCapability Float64\n OpMemoryModel Logical GLSL450\n %1 = OpTypeVoid\n");
//! ```

mod best_effort;
mod candidates;
mod idmap;
mod layout;
mod lcs;
mod matching;
mod output;
mod side;

use crate::module::Module;

/// spirv-diff's switches.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct DiffOptions {
    /// Don't pair variables by their DescriptorSet/Binding decorations
    /// (`--ignore-set-binding`).
    pub ignore_set_binding: bool,
    /// Don't pair variables by their Location decorations
    /// (`--ignore-location`).
    pub ignore_location: bool,
    /// Indent instructions as spirv-dis does (off: `--no-indent`).
    pub indent: bool,
    /// Leave out the header comment lines (`--no-header`).
    pub no_header: bool,
    /// Colour the `-` and `+` lines (`--color`).
    pub color: bool,
    /// Append the src to dst id pairing (`--with-id-map`).
    pub dump_id_map: bool,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            ignore_set_binding: false,
            ignore_location: false,
            indent: true,
            no_header: false,
            color: false,
            dump_id_map: false,
        }
    }
}

impl DiffOptions {
    /// Sets `indent`.
    pub fn indent(mut self, indent: bool) -> Self {
        self.indent = indent;
        self
    }

    /// Sets `no_header` to the opposite of `header`.
    pub fn header(mut self, header: bool) -> Self {
        self.no_header = !header;
        self
    }

    /// Sets `color`.
    pub fn color(mut self, color: bool) -> Self {
        self.color = color;
        self
    }

    /// Sets `dump_id_map`.
    pub fn id_map(mut self, id_map: bool) -> Self {
        self.dump_id_map = id_map;
        self
    }

    /// Sets `ignore_set_binding`.
    pub fn ignore_set_binding(mut self, ignore: bool) -> Self {
        self.ignore_set_binding = ignore;
        self
    }

    /// Sets `ignore_location`.
    pub fn ignore_location(mut self, ignore: bool) -> Self {
        self.ignore_location = ignore;
        self
    }
}

/// Why two modules could not be compared.
#[derive(Debug, Clone, thiserror::Error)]
pub enum DiffError {
    /// The module's layout is one SPIRV-Tools' optimizer does not load
    /// (spirv-diff reports "error: Loading src file").
    #[error("instruction {}: {message}", inst + 1)]
    Layout {
        /// Index of the offending instruction, from 0 (the count, for the
        /// end); shown from 1.
        inst: usize,
        /// What is wrong.
        message: String,
    },
    /// The header's id bound is far past the module's size.
    #[error("id bound {bound} is too large for a module of {words} words")]
    Bound {
        /// The header's bound.
        bound: u32,
        /// The module's size.
        words: usize,
    },
    /// Two functions are too large to compare instruction by instruction.
    #[error("functions of {src} and {dst} instructions are too large to compare")]
    TooLarge {
        /// Instructions in the src function.
        src: usize,
        /// Instructions in the dst function.
        dst: usize,
    },
}

/// Which module a [`DiffError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// The first module.
    Src,
    /// The second module.
    Dst,
    /// Both.
    Both,
}

/// Compares `src` with `dst`, returning spirv-diff's text. An error names
/// the module it is about.
pub fn diff(src: &Module, dst: &Module, options: &DiffOptions) -> Result<Vec<u8>, (Input, DiffError)> {
    let src_side = side::Side::new(src).map_err(|e| (Input::Src, e))?;
    let dst_side = side::Side::new(dst).map_err(|e| (Input::Dst, e))?;
    let mut differ = matching::Differ::new(src_side, dst_side, options.clone());
    differ.match_all();
    if let Some(e) = differ.failed.take() {
        return Err((Input::Both, e));
    }
    Ok(differ.output())
}
