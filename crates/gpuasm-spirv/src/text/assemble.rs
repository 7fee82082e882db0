//! The assembler: SPIR-V assembly text to a binary module, byte-identical to
//! what spirv-as 2025.5 makes of the same text (apart from the generator
//! word), rejecting what it rejects.
//!
//! Operands are read against a stack of expected operands built from the
//! grammar, which enumerant parameters, extended instructions and
//! OpSpecConstantOp extend as they are read (as spirv-as does). After an
//! error the assembler skips to the next instruction and goes on, so that
//! independent errors are all reported in one run.
//!
//! The parts: words come from the lexer (`text/lex`); this file reads an
//! instruction's opcode and result, `expect.rs` keeps the operands still
//! expected, `operand.rs` encodes one operand word, `untyped.rs` reads
//! instructions without a grammar (`!<integer>`, `OpUnknown`), `ids.rs`
//! numbers id names, `known_types.rs` remembers types for literal widths,
//! `emit.rs` hands finished words to the encoder (`binary/encode.rs`) and,
//! for `text::parse` only, notes where each token that wrote them stands,
//! `report.rs` places diagnostics; `fast.rs` is the shortcut for the common
//! instruction and `split.rs` reads a large text on several threads.

use super::diagnostic::{nearest, Diagnostic, Diagnostics, Severity};
use super::lex::{Cursor, Position};
use super::literal;
use crate::binary::encode::{Encoder, Sink};
use crate::grammar::{self, op, ExtInstSet, InstructionInfo, OperandKind};
use crate::module::spans::TextSpans;
use crate::target_env::TargetEnv;

mod emit;
mod expect;
mod fast;
mod ids;
mod known_types;
mod numbers;
mod opcodes;
mod operand;
mod report;
mod split;
mod untyped;
use expect::{Expected, Operand};
use ids::Ids;
use rustc_hash::{FxHashMap, FxHashSet};

/// Assembler switches, one per spirv-as option (plus ours). Built from the
/// default with one method per field:
///
/// ```
/// use gpuasm_spirv::{text::AsmOptions, TargetEnv};
/// let options = AsmOptions::default().target_env(Some(TargetEnv::Vulkan(1))).preserve_numeric_ids(true);
/// assert!(options.preserve_numeric_ids);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct AsmOptions {
    /// Sets the header version. `None`: a leading `; Version: 1.N` comment,
    /// else SPIR-V 1.6 (as spirv-as).
    pub target_env: Option<TargetEnv>,
    /// Numeric ids (`%12`) keep their number; other names fill the gaps.
    pub preserve_numeric_ids: bool,
    /// The header's generator word. spirv-as writes its own registered id
    /// (`0x00070000`); we have none yet, so 0 by default.
    pub generator: u32,
    /// Stop after this many errors.
    pub max_errors: usize,
    /// Threads to assemble with: 0 (the default) for as many as the
    /// machine has, up to 8; at most 64 are used. Texts under a megabyte, texts without a
    /// function, and texts assembled with `preserve_numeric_ids` are read
    /// on the calling thread. The result (words, warnings, errors) never
    /// depends on this.
    pub threads: usize,
    /// Read every instruction the general way (set only through the
    /// `test-switches` feature).
    pub(crate) general_only: bool,
    /// The text came from bytes that are not all UTF-8 through
    /// [`super::text_from_bytes`]: string literals get the original bytes
    /// back, as spirv-as copies them.
    pub raw_bytes: Option<super::RawBytes>,
    /// Split the text here whatever its size (set only through the
    /// `test-switches` feature).
    pub(crate) split_at: Option<(usize, Vec<usize>)>,
}

impl AsmOptions {
    /// Sets the `target_env` field.
    pub fn target_env(mut self, target_env: Option<TargetEnv>) -> Self {
        self.target_env = target_env;
        self
    }

    /// Sets the `preserve_numeric_ids` field.
    pub fn preserve_numeric_ids(mut self, preserve_numeric_ids: bool) -> Self {
        self.preserve_numeric_ids = preserve_numeric_ids;
        self
    }

    /// Sets the `generator` field.
    pub fn generator(mut self, generator: u32) -> Self {
        self.generator = generator;
        self
    }

    /// Sets the `max_errors` field.
    pub fn max_errors(mut self, max_errors: usize) -> Self {
        self.max_errors = max_errors;
        self
    }

    /// Sets the `threads` field.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Read every instruction the general way, skipping the shortcut for
    /// common instructions. The result is the same; tests and fuzzing use
    /// this to prove it. Only with the `test-switches` feature, which is not
    /// part of the stable API.
    #[cfg(feature = "test-switches")]
    pub fn general_only(mut self, general_only: bool) -> Self {
        self.general_only = general_only;
        self
    }

    /// Sets the `raw_bytes` field.
    pub fn raw_bytes(mut self, raw_bytes: Option<super::RawBytes>) -> Self {
        self.raw_bytes = raw_bytes;
        self
    }

    /// Split the text here whatever its size: read up to the first byte
    /// offset, then a segment from each of the others on its own thread.
    /// The result is the same; tests and fuzzing use this to prove it. Only
    /// with the `test-switches` feature, which is not part of the stable API.
    #[cfg(feature = "test-switches")]
    pub fn split_at(mut self, split_at: Option<(usize, Vec<usize>)>) -> Self {
        self.split_at = split_at;
        self
    }
}

impl Default for AsmOptions {
    fn default() -> Self {
        AsmOptions {
            target_env: None,
            preserve_numeric_ids: false,
            generator: 0,
            max_errors: 50,
            threads: 0,
            general_only: false,
            raw_bytes: None,
            split_at: None,
        }
    }
}

/// A successful assembly: the module and any warnings.
#[derive(Clone, Debug)]
pub struct Assembled {
    /// The module's words, header included.
    pub words: Vec<u32>,
    /// Things spirv-as accepts silently but that are likely mistakes (ids
    /// used but never defined, results defined twice).
    pub warnings: Diagnostics,
}

/// How many segments read by worker threads were taken over so far in this
/// process (the rest were read again on the calling thread). For tests:
/// only with the `test-switches` feature, which is not part of the stable
/// API.
#[cfg(feature = "test-switches")]
pub fn segments_adopted() -> usize {
    split::ADOPTED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Assembles `text`. On failure, every error found is returned.
///
/// ```
/// use gpuasm_spirv::text::{assemble, AsmOptions};
/// let words = assemble("OpCapability Shader\n%void = OpTypeVoid\n", &AsmOptions::default()).unwrap();
/// assert_eq!(words[3], 2); // bound
/// assert_eq!(&words[5..], &[0x0002_0011, 1, 0x0002_0013, 1]);
/// ```
pub fn assemble(text: &str, options: &AsmOptions) -> Result<Vec<u32>, Diagnostics> {
    assemble_with_warnings(text, options).map(|a| a.words)
}

/// Like [`assemble`], also returning warnings.
pub fn assemble_with_warnings(text: &str, options: &AsmOptions) -> Result<Assembled, Diagnostics> {
    let a = run_assembler(text, options, None, false).map_err(|e| match e {
        StreamError::Assembly(d) => d,
        StreamError::Io(_) => unreachable!("no sink, no I/O"),
    })?;
    let words = a.out.finish(a.ids.bound).expect("in memory, no I/O");
    Ok(Assembled { words, warnings: a.diags })
}

/// Like [`assemble_with_warnings`], also recording where each
/// instruction's tokens stand (for `text::parse`). The text is read the
/// general way on this thread: the shortcut and the split write words
/// without passing the places where spans are recorded.
pub(super) fn assemble_with_spans<'t>(
    text: &'t str,
    options: &AsmOptions,
) -> Result<(Vec<u32>, Diagnostics, TextSpans<'t>), Diagnostics> {
    let mut options = options.clone();
    options.general_only = true;
    options.split_at = None;
    let mut a = run_assembler(text, &options, None, true).map_err(|e| match e {
        StreamError::Assembly(d) => d,
        StreamError::Io(_) => unreachable!("no sink, no I/O"),
    })?;
    let spans = *a.spans.take().expect("recorded");
    let words = a.out.finish(a.ids.bound).expect("in memory, no I/O");
    Ok((words, a.diags, spans))
}

/// A module assembled by [`assemble_to_writer`]: its header and the
/// warnings.
#[derive(Clone, Debug)]
pub struct Streamed {
    /// The five header words, as written at the start of the output.
    pub header: [u32; 5],
    /// Things spirv-as accepts silently but that are likely mistakes.
    pub warnings: Diagnostics,
}

/// Why [`assemble_to_writer`] failed.
#[derive(Debug)]
pub enum StreamError {
    /// The text has errors. What was written is incomplete: discard it.
    Assembly(Diagnostics),
    /// Writing to the sink failed.
    Io(std::io::Error),
}

impl std::fmt::Display for StreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamError::Assembly(d) => write!(f, "{} error(s) in the text", d.errors().count()),
            StreamError::Io(e) => write!(f, "writing the module: {e}"),
        }
    }
}

impl std::error::Error for StreamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StreamError::Io(e) => Some(e),
            StreamError::Assembly(_) => None,
        }
    }
}

/// Assembles `text`, writing the module's little-endian bytes to `out` as
/// it goes, so the whole binary is never held in memory (the command line
/// uses this to write files). The header, whose bound is known only at the
/// end, is written as zeros first and then fixed by seeking back; `out` is
/// left at the end of the module.
/// Threads that read later stretches of a large text (see
/// [`AsmOptions::threads`]) keep their words in unnamed temporary files
/// until their turn comes.
///
/// ```
/// use gpuasm_spirv::text::{assemble, assemble_to_writer, AsmOptions};
/// let text = "OpCapability Shader\n%void = OpTypeVoid\n";
/// let mut file = std::io::Cursor::new(Vec::new());
/// assemble_to_writer(text, &AsmOptions::default(), &mut file).unwrap();
/// let words = assemble(text, &AsmOptions::default()).unwrap();
/// assert_eq!(file.into_inner(), words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>());
/// ```
pub fn assemble_to_writer<W: std::io::Write + std::io::Seek>(
    text: &str,
    options: &AsmOptions,
    out: &mut W,
) -> Result<Streamed, StreamError> {
    let a = run_assembler(text, options, Some(out), false)?;
    let header = a.out.header(a.ids.bound);
    a.out.finish(a.ids.bound).map_err(StreamError::Io)?;
    Ok(Streamed { header, warnings: a.diags })
}

/// Runs the assembler (twice with `preserve_numeric_ids`) and checks the
/// definitions; the assembler is returned for its output and warnings.
/// `spans`: record where each instruction's tokens stand (on the general
/// path, which `options` must choose).
fn run_assembler<'t, 'o>(
    text: &'t str,
    options: &'o AsmOptions,
    sink: Option<&'o mut dyn Sink>,
    spans: bool,
) -> Result<Assembler<'t, 'o>, StreamError> {
    let preserve = if options.preserve_numeric_ids {
        // A dry run collects every numeric id name first (spirv-as does the
        // same), so that other names can fill the gaps around them.
        let mut dry = Assembler::new(text, options, FxHashSet::default(), None);
        dry.run();
        if dry.diags.has_errors() {
            return Err(StreamError::Assembly(dry.diags));
        }
        dry.numeric_ids()
    } else {
        FxHashSet::default()
    };
    let mut a = Assembler::new(text, options, preserve, sink);
    if spans {
        debug_assert!(options.general_only && options.split_at.is_none(), "spans are recorded on the general path");
        a.spans = Some(Box::new(TextSpans::new(text)));
    }
    match split::plan(a.cur.text_bytes(), options) {
        Some(plan) if !text.is_empty() => {
            a.cur.advance();
            a.run_split(plan);
        }
        _ => a.run(),
    }
    if a.diags.has_errors() {
        return Err(StreamError::Assembly(std::mem::take(&mut a.diags)));
    }
    a.flush_out();
    if let Some(e) = a.out.take_error() {
        return Err(StreamError::Io(e));
    }
    a.check_definitions();
    Ok(a)
}

/// The module's version: the target environment's, else spirv-as's default.
fn module_version(text: &str, options: &AsmOptions) -> grammar::Version {
    options.target_env.map(|e| e.spirv_version()).unwrap_or_else(|| version_from_comment(text))
}

/// spirv-as's default version: a `; Version: 1.N` line among the comments
/// that open the text, else 1.6.
fn version_from_comment(text: &str) -> grammar::Version {
    for line in text.lines() {
        let t = line.trim_start_matches([' ', '\t', '\r']);
        if t.is_empty() {
            continue;
        }
        if !t.starts_with(';') {
            break;
        }
        // `1.N` with one digit N up to 6; anything but a digit may follow
        // (`; Version: 1.5 ; note` is 1.5).
        if let Some(v) = t.strip_prefix("; Version: 1.") {
            let digits = v.bytes().take_while(u8::is_ascii_digit).count();
            if let (1, Some(m @ b'0'..=b'6')) = (digits, v.bytes().next()) {
                return grammar::Version(1, m - b'0');
            }
        }
    }
    grammar::Version(1, 6)
}

/// What the assembler knows of a type id, for literal widths.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum TypeClass {
    Int { width: u32, signed: bool },
    Float { width: u32, encoding: Option<u32> },
    Other,
}

/// Whether spirv-as records `info`'s result as a type (and rejects a second
/// type under the same id): every type declaration but
/// OpTypeBufferSurfaceINTEL, which SPIRV-Tools does not count as one.
fn records_type(info: &InstructionInfo) -> bool {
    info.declares_type && info.opcode != op::OpTypeBufferSurfaceINTEL
}

/// What an `OpExtInstImport` selected.
#[derive(Copy, Clone, Debug)]
enum Import {
    Known(&'static ExtInstSet),
    UnknownNonSemantic,
}

/// Failure of one operand: a hard error, or (for optional operands) "this
/// word is not one of those", which ends the instruction.
enum OperandError {
    Hard(Diagnostic),
    NoMatch(Diagnostic),
}

struct Assembler<'t, 'o> {
    text: &'t str,
    /// The module's version: names newer than it are not available.
    version: grammar::Version,
    cur: Cursor<'t>,
    options: &'o AsmOptions,
    ids: Ids<'t>,
    known: known_types::KnownTypes,
    /// The shortcut's opcode lookup.
    opcodes: opcodes::OpcodeCache,
    imports: FxHashMap<u32, Import>,
    /// Results of instructions that failed: later errors about them are
    /// consequences, not new problems.
    poisoned: FxHashSet<u32>,
    /// The module's words: the general path appends whole instructions,
    /// the shortcut writes into it directly.
    out: Encoder<'o>,
    diags: Diagnostics,
    // Per-instruction state.
    words: Vec<u32>,
    expected: Expected,
    info: Option<&'static InstructionInfo>,
    result: Option<(&'t str, Position)>,
    /// Where the current instruction's opcode name stands.
    opcode_at: Option<(Position, usize)>,
    /// Where the current instruction's opcode word starts, known or not:
    /// recovery from an error in it must not start over there.
    opname_index: Option<usize>,
    result_type_id: u32,
    ext_set: Option<Import>,
    /// [`Assembler::run_to`]'s end.
    stop: usize,
    /// The error limit was reached.
    gave_up: bool,
    /// A worker thread reading a later part of the text (see `split.rs`):
    /// its new ids are local, and `marks` records which words of `out`
    /// hold them (`words_local`, which words of `words`).
    worker: bool,
    marks: Vec<u64>,
    words_local: Vec<u32>,
    imports_added: Vec<(u32, Import)>,
    /// The OpSwitch selectors a worker looked up, with the type it found.
    switch_selectors: Vec<(u32, TypeClass)>,
    /// Where each instruction's tokens stand, when asked for (general path
    /// only: the shortcut and the split never see it).
    spans: Option<Box<TextSpans<'t>>>,
}

impl<'t, 'o> Assembler<'t, 'o> {
    fn new(text: &'t str, options: &'o AsmOptions, preserve: FxHashSet<u32>, sink: Option<&'o mut dyn Sink>) -> Self {
        let version = module_version(text, options);
        let out = match sink {
            Some(sink) => Encoder::streaming(version.word(), options.generator, sink),
            // Text is about 12 bytes a word.
            None => Encoder::with_capacity(version.word(), options.generator, 5 + text.len() / 10),
        };
        Self::with_cursor(text, Cursor::new(text), options, Ids::new(text, preserve), out)
    }

    /// An assembler over `text` read through `cur`, writing to `out`.
    fn with_cursor(text: &'t str, cur: Cursor<'t>, options: &'o AsmOptions, ids: Ids<'t>, out: Encoder<'o>) -> Self {
        let version = module_version(text, options);
        Assembler {
            text,
            version,
            opcodes: opcodes::OpcodeCache::new(version),
            cur,
            options,
            ids,
            known: known_types::KnownTypes::default(),
            imports: FxHashMap::default(),
            poisoned: FxHashSet::default(),
            out,
            diags: Diagnostics::default(),
            words: Vec::with_capacity(16),
            expected: Expected::new(),
            info: None,
            result: None,
            opcode_at: None,
            opname_index: None,
            result_type_id: 0,
            ext_set: None,
            stop: usize::MAX,
            gave_up: false,
            worker: false,
            marks: Vec::new(),
            words_local: Vec::new(),
            imports_added: Vec::new(),
            switch_selectors: Vec::new(),
            spans: None,
        }
    }

    fn numeric_ids(&self) -> FxHashSet<u32> {
        let named = self.ids.named().filter_map(|(_, at)| literal::parse_c_u32(self.ids.name_at(at)));
        named.chain(self.ids.numbered().map(|(_, v)| v)).collect()
    }

    fn run(&mut self) {
        if self.text.is_empty() {
            // spirv-as refuses an empty text (but not one of only comments).
            let d = self.error_at(Position::default(), 0, "the text is empty: there is nothing to assemble");
            self.diags.items.push(d);
            return;
        }
        self.cur.advance();
        self.run_to(usize::MAX);
    }

    /// Reads instructions from the cursor (at a word or the end) until the
    /// next one would start at or after byte `stop`, which is where the
    /// cursor is left (or at the end of the text).
    fn run_to(&mut self, stop: usize) {
        self.stop = stop;
        while self.cur.has_text() && self.cur.pos.index < stop && !self.gave_up {
            if !self.options.general_only {
                self.fast_run();
                if !self.cur.has_text() || self.cur.pos.index >= stop {
                    break;
                }
            }
            let start = self.cur.pos;
            if let Err(d) = self.instruction() {
                if let Some((name, pos)) = self.result {
                    let id = self.ids.get(&name[1..], pos.index + 1);
                    self.poisoned.insert(id);
                }
                // A diagnostic downgraded to a warning follows from an earlier
                // error (a poisoned id): not worth showing.
                if d.severity == Severity::Error {
                    self.diags.items.push(d);
                }
                if self.diags.errors().count() >= self.options.max_errors {
                    self.gave_up = true;
                    return;
                }
                self.recover(start);
            }
            self.flush_if_full();
            if !self.cur.advance() {
                break;
            }
        }
    }

    /// Skips to the start of the next instruction after the one that began
    /// at `start`.
    fn recover(&mut self, start: Position) {
        loop {
            if !self.cur.advance() {
                return;
            }
            // `%x = OpBad ...`: the opcode word starts an instruction too,
            // but the one that failed.
            if self.cur.pos.index > start.index
                && self.cur.is_start_of_new_inst()
                && Some(self.cur.pos.index) != self.opname_index
            {
                return;
            }
            let (_, next) = self.cur.word();
            if next.index == self.cur.pos.index {
                // A lone delimiter: step over it.
                self.cur.bump();
            } else {
                self.cur.pos = next;
            }
        }
    }

    fn instruction(&mut self) -> Result<(), Diagnostic> {
        self.words.clear();
        self.words_local.clear();
        self.expected.clear();
        self.info = None;
        self.result = None;
        self.opcode_at = None;
        self.opname_index = None;
        self.result_type_id = 0;
        self.ext_set = None;
        if let Some(spans) = &mut self.spans {
            spans.begin();
        }

        if self.cur.peek() == b'!' {
            return self.immediate_instruction();
        }
        let (first, next) = self.cur.word();
        let first_pos = self.cur.pos;
        let (opname, opname_pos, after) = if self.cur.starts_with_op() {
            (first, first_pos, next)
        } else {
            if !first.starts_with('%') {
                return Err(self.error_here(format!(
                    "expected an opcode or '%id =' at the beginning of an instruction, found '{first}'"
                )));
            }
            self.result = Some((first, first_pos));
            self.cur.pos = next;
            if !self.cur.advance() {
                return Err(self.error_at(
                    first_pos,
                    first.len(),
                    format!("expected '=' after {first}, found the end"),
                ));
            }
            let (eq, next) = self.cur.word();
            if eq != "=" {
                return Err(self.error_here(format!("expected '=' after result id {first}, found '{eq}'")));
            }
            self.cur.pos = next;
            if !self.cur.advance() {
                return Err(self.error_at(first_pos, first.len(), "expected an opcode after '=', found the end"));
            }
            let (opname, next) = self.cur.word();
            if opname == "OpUnknown" {
                return Err(self.error_here(
                    "OpUnknown cannot be assigned to a result id; write the result id as an operand instead",
                ));
            }
            if !self.cur.starts_with_op() {
                return Err(self.error_here(format!("expected an opcode after '=', found '{opname}'")));
            }
            (opname, self.cur.pos, next)
        };
        self.opname_index = Some(opname_pos.index);
        if opname == "OpUnknown" {
            self.cur.pos = after;
            return self.unknown_instruction();
        }
        let info = match grammar::instruction_by_name(opname) {
            Some(i) if i.available_in(self.version) => i,
            Some(i) => {
                let v = i.version.map_or("an extension".to_string(), |v| format!("SPIR-V {}.{}", v.0, v.1));
                let mut d = self.error_at(
                    opname_pos,
                    opname.len(),
                    format!("{opname} is not available in SPIR-V {}.{}", self.version.0, self.version.1),
                );
                d.help = Some(format!("it needs {v}; choose a newer --target-env"));
                return Err(d);
            }
            None => {
                let mut d = self.error_at(opname_pos, opname.len(), format!("unknown opcode '{opname}'"));
                d.help = nearest(opname, grammar::OPCODE_NAMES.iter().map(|(n, _)| *n))
                    .map(|n| format!("did you mean '{n}'?"));
                return Err(d);
            }
        };
        self.info = Some(info);
        self.opcode_at = Some((opname_pos, opname.len()));
        if info.has_result && self.result.is_none() {
            let mut d =
                self.error_at(opname_pos, opname.len(), format!("{opname} produces a result id, but none is given"));
            d.help = Some(format!("write '%name = {opname} ...'"));
            return Err(d);
        }
        if let (Some((name, pos)), false) = (self.result, info.has_result) {
            return Err(self.error_at(
                pos,
                name.len(),
                format!("{opname} does not produce a result id, but {name} is assigned"),
            ));
        }
        self.cur.pos = after;
        self.words.push(0);
        self.record(0, opname_pos.index, opname_pos.index + opname.len());
        self.expected.push_specs(info.operands);

        while let Some(Operand { kind, optional, name, any }) = self.expected.next() {
            if kind == OperandKind::IdResult {
                if let Some((name, pos)) = self.result {
                    let id = self.id_word(&name[1..], pos)?;
                    self.ids.define(id);
                    self.push_word_id(id);
                    self.record(self.words.len() - 1, pos.index, pos.index + name.len());
                    continue;
                }
            }
            if !self.cur.advance() {
                if optional {
                    break;
                }
                return Err(self.missing_operand(kind, name, "the end of the text"));
            }
            let (w, next) = self.cur.word();
            if self.cur.word_starts_instruction(w, next) {
                if optional {
                    break;
                }
                return Err(self.missing_operand(kind, name, "the next instruction"));
            }
            let at = self.words.len();
            let r = if any { self.any_value(w) } else { self.operand(kind, optional, w) };
            match r {
                Ok(()) => {
                    self.record(at, self.cur.pos.index, next.index);
                    self.cur.pos = next;
                }
                Err(OperandError::NoMatch(d)) | Err(OperandError::Hard(d)) => return Err(d),
            }
        }
        self.finish(info)
    }

    /// Records types and value types, sets the word count, and keeps the
    /// instruction.
    fn finish(&mut self, info: &'static InstructionInfo) -> Result<(), Diagnostic> {
        let is_type = records_type(info);
        if is_type && self.words.len() >= 2 {
            let id = self.words[1];
            if self.known.is_declared(id) {
                return Err(self.result_error(format!("id {id} is already used to declare a type")));
            }
            let class = match info.opcode {
                op::OpTypeInt => {
                    if self.words.len() != 4 {
                        return Err(self.result_error("OpTypeInt takes a width and a signedness"));
                    }
                    TypeClass::Int { width: self.words[2], signed: self.words[3] != 0 }
                }
                op::OpTypeFloat => {
                    if self.words.len() != 3 && self.words.len() != 4 {
                        return Err(self.result_error("OpTypeFloat takes a width and an optional encoding"));
                    }
                    TypeClass::Float { width: self.words[2], encoding: self.words.get(3).copied() }
                }
                _ => TypeClass::Other,
            };
            self.known.declare(id, class);
        } else if info.has_result_type && self.words.len() >= 3 {
            self.known.note_value(self.words[2], self.words[1]);
        }
        if self.words.len() > 0xffff {
            return Err(
                self.result_error(format!("instruction too long: {} words, the limit is 65535", self.words.len()))
            );
        }
        self.words[0] = ((self.words.len() as u32) << 16) | info.opcode as u32;
        self.emit_words();
        Ok(())
    }
}
