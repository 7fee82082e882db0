//! Linking several SPIR-V modules into one, with the output of
//! SPIRV-Tools' `spirv-link` (2025.5): the same header, section merge,
//! duplicate removal, import/export resolution, id compaction and entry
//! point interfaces, and the same rejections in the same words.
//!
//! The steps follow the peer's phases in order, because its output order
//! (which duplicate survives, which id comes first) is a product of them:
//! `ir` splits each module into sections and shifts its ids,
//! `dedup` removes duplicate capabilities, extensions, imports, types and
//! decorations, `resolve` pairs imports with exports and removes the
//! imported declarations, and `finish` compacts ids and recomputes entry
//! point interfaces. `fnvar` makes multitarget modules
//! (SPV_INTEL_function_variants) at the peer's three points: on the inputs
//! before the merge, at its start, and after duplicate removal.

mod dedup;
mod finish;
mod fnvar;
mod ir;
mod resolve;

use std::fmt;

pub use fnvar::FnVarOptions;

/// What `spirv-link`'s options choose.
#[derive(Debug, Clone, Copy, Default)]
pub struct LinkOptions {
    /// Leave imports without an export in place (`--allow-partial-linkage`).
    pub allow_partial_linkage: bool,
    /// Accept an import whose function parameters are pointers to other
    /// types than the export's (`--allow-pointer-mismatch`).
    pub allow_pointer_mismatch: bool,
    /// Keep export decorations and the Linkage capability (`--create-library`).
    pub create_library: bool,
    /// Take the highest input version instead of rejecting differing ones
    /// (`--use-highest-version`).
    pub use_highest_version: bool,
}

/// Why linking failed: `spirv-link`'s message, the word index it reports,
/// and notes saying where the ids it names come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkError {
    /// The peer's message, word for word.
    pub message: String,
    /// The position index the peer prints (`error: INDEX: message`).
    pub index: usize,
    /// Which input module and original id each id in the message is.
    pub notes: Vec<String>,
}

impl LinkError {
    fn new(message: impl Into<String>) -> LinkError {
        LinkError { message: message.into(), index: 0, notes: Vec::new() }
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LinkError {}

/// Links `modules` (each a module's words, host order) into one module's
/// words, as `spirv-link` does.
pub fn link(modules: &[&[u32]], options: &LinkOptions) -> Result<Vec<u32>, LinkError> {
    link_variants(modules, options, &FnVarOptions::default())
}

/// Links `modules` as `link` does, making a multitarget module when
/// `variants` asks for one (`spirv-link --fnvar-*`).
pub fn link_variants(
    modules: &[&[u32]],
    options: &LinkOptions,
    variants: &FnVarOptions,
) -> Result<Vec<u32>, LinkError> {
    if modules.is_empty() {
        return Err(LinkError::new("No modules were given."));
    }
    let mut inputs = ir::read(modules)?;
    let prepared = if variants.multitarget() { Some(fnvar::prepare(&mut inputs, variants)?) } else { None };
    let leading = if prepared.is_some() { fnvar::header() } else { Default::default() };
    let mut linked = ir::merge(inputs, options, leading)?;
    dedup::remove_duplicates(&mut linked);
    if let Some(v) = &prepared {
        fnvar::combine(&mut linked, v);
    }
    resolve::link_symbols(&mut linked, options)?;
    Ok(finish::finish(linked))
}
