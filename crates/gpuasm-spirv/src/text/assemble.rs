//! The assembler: SPIR-V assembly text to a binary module, byte-identical to
//! what spirv-as 2025.5 makes of the same text (apart from the generator
//! word), rejecting what it rejects.
//!
//! Operands are read against a stack of expected operands built from the
//! grammar, which enumerant parameters, extended instructions and
//! OpSpecConstantOp extend as they are read (as spirv-as does). After an
//! error the assembler skips to the next instruction and goes on, so that
//! independent errors are all reported in one run.

use super::diagnostic::{nearest, Diagnostic, Diagnostics, Severity};
use super::lex::{Cursor, Position};
use super::literal::{self, NumberError, NumberType};
use crate::binary::encode::{Encoder, Sink};
use crate::grammar::{self, op, Category, ExtInstSet, InstructionInfo, OperandKind, OperandSpec, Quantifier};
use crate::target_env::TargetEnv;

mod fast;
mod ids;
mod known_types;
mod opcodes;
mod split;
use ids::{first_number_uses, scan_id_name, Ids};
use rustc_hash::{FxHashMap, FxHashSet};

/// At most this many ids used but never defined are reported.
const MAX_UNDEFINED_REPORTED: usize = 20;

/// Assembler switches, one per spirv-as option (plus ours).
#[derive(Clone, Debug)]
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
    /// Read every instruction the general way, skipping the shortcut for
    /// common instructions. The result is the same; tests and fuzzing use
    /// this to prove it.
    #[doc(hidden)]
    pub general_only: bool,
    /// The text came from bytes that are not all UTF-8 through
    /// [`super::text_from_bytes`]: string literals get the original bytes
    /// back, as spirv-as copies them.
    pub raw_bytes: Option<super::RawBytes>,
    /// Split the text here whatever its size: read up to the first byte
    /// offset, then a segment from each of the others on its own thread.
    /// The result is the same; tests and fuzzing use this to prove it.
    #[doc(hidden)]
    pub split_at: Option<(usize, Vec<usize>)>,
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
    pub words: Vec<u32>,
    /// Things spirv-as accepts silently but that are likely mistakes (ids
    /// used but never defined, results defined twice).
    pub warnings: Diagnostics,
}

/// How many segments read by worker threads were taken over so far in this
/// process (the rest were read again on the calling thread). For tests.
#[doc(hidden)]
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
    let a = run_assembler(text, options, None).map_err(|e| match e {
        StreamError::Assembly(d) => d,
        StreamError::Io(_) => unreachable!("no sink, no I/O"),
    })?;
    let words = a.out.finish(a.ids.bound).expect("in memory, no I/O");
    Ok(Assembled { words, warnings: a.diags })
}

/// A module assembled by [`assemble_to_writer`]: its header and the
/// warnings.
#[derive(Clone, Debug)]
pub struct Streamed {
    /// The five header words, as written at the start of the output.
    pub header: [u32; 5],
    pub warnings: Diagnostics,
}

/// Why [`assemble_to_writer`] failed.
#[derive(Debug)]
pub enum StreamError {
    /// The text has errors. What was written is incomplete: discard it.
    Assembly(Diagnostics),
    Io(std::io::Error),
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
    let a = run_assembler(text, options, Some(out))?;
    let header = a.out.header(a.ids.bound);
    a.out.finish(a.ids.bound).map_err(StreamError::Io)?;
    Ok(Streamed { header, warnings: a.diags })
}

/// Runs the assembler (twice with `preserve_numeric_ids`) and checks the
/// definitions; the assembler is returned for its output and warnings.
fn run_assembler<'t, 'o>(
    text: &'t str,
    options: &'o AsmOptions,
    sink: Option<&'o mut dyn Sink>,
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

/// An entry of the expected-operand stack.
#[derive(Copy, Clone, Debug)]
enum Expect {
    /// One operand of a kind; an optional one may be absent.
    One { kind: OperandKind, optional: bool, name: &'static str },
    /// Zero or more of a kind (expands lazily into itself plus an optional).
    Repeat(OperandKind),
    /// Zero or more pairs of a composite kind.
    RepeatPair(OperandKind),
    /// After `!<integer>`: a number, string or id, whatever comes.
    AnyValue,
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
    expected: Vec<Expect>,
    info: Option<&'static InstructionInfo>,
    result: Option<(&'t str, Position)>,
    /// Where the current instruction's opcode name stands.
    opcode_at: Option<(Position, usize)>,
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
            expected: Vec::with_capacity(16),
            info: None,
            result: None,
            opcode_at: None,
            result_type_id: 0,
            ext_set: None,
            stop: usize::MAX,
            gave_up: false,
            worker: false,
            marks: Vec::new(),
            words_local: Vec::new(),
            imports_added: Vec::new(),
            switch_selectors: Vec::new(),
        }
    }

    /// Appends an id word to the output (the shortcut's way).
    #[inline(always)]
    fn push_out_id(&mut self, id: u32) {
        if id & ids::LOCAL != 0 {
            self.mark_local(self.out.position());
        }
        self.out.push(id);
    }

    /// Appends an id word to the current instruction (the general way).
    fn push_word_id(&mut self, id: u32) {
        if id & ids::LOCAL != 0 && self.worker {
            self.words_local.push(self.words.len() as u32);
        }
        self.words.push(id);
    }

    /// Records that word `i` of the output (counting words flushed) holds a
    /// worker's local id.
    #[inline]
    fn mark_local(&mut self, i: usize) {
        if self.worker {
            if i / 64 >= self.marks.len() {
                self.marks.resize((i / 64 + 1).max(self.marks.len() * 2), 0);
            }
            self.marks[i / 64] |= 1 << (i % 64);
        }
    }

    /// Drops output words from `len` on (and their marks).
    fn truncate_out(&mut self, len: usize) {
        if self.worker {
            let flushed = self.out.position() - self.out.len();
            for i in flushed + len..self.out.position() {
                if let Some(m) = self.marks.get_mut(i / 64) {
                    *m &= !(1 << (i % 64));
                }
            }
        }
        self.out.truncate(len);
    }

    /// Appends the current instruction's words to the output.
    fn emit_words(&mut self) {
        let at = self.out.position();
        self.out.extend_from_slice(&self.words);
        for k in 0..self.words_local.len() {
            self.mark_local(at + self.words_local[k] as usize);
        }
    }

    /// Streaming: writes out the buffered words. Once the text has an error
    /// (the output will be discarded) or a write failed, words are dropped.
    fn flush_out(&mut self) {
        if !self.out.is_streaming() {
            return;
        }
        if self.diags.has_errors() {
            self.out.discard();
        }
        self.out.flush();
    }

    /// Streaming: writes out the buffered words once they fill a chunk.
    #[inline]
    fn flush_if_full(&mut self) {
        if self.out.len() >= Encoder::CHUNK && self.out.is_streaming() {
            self.flush_out();
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
            if self.cur.pos.index > start.index && self.cur.is_start_of_new_inst() {
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

    fn error_at(&self, pos: Position, len: usize, message: impl Into<String>) -> Diagnostic {
        let (line, column) = Cursor::line_col(self.text, pos.index);
        Diagnostic {
            severity: Severity::Error,
            line: line + 1,
            column: column + 1,
            span: pos.index..pos.index + len,
            message: message.into(),
            help: None,
        }
    }

    fn error_here(&self, message: impl Into<String>) -> Diagnostic {
        let (w, _) = self.cur.word();
        self.error_at(self.cur.pos, w.len(), message)
    }

    fn opname(&self) -> &'static str {
        self.info.map_or("instruction", |i| i.name)
    }

    fn instruction(&mut self) -> Result<(), Diagnostic> {
        self.words.clear();
        self.words_local.clear();
        self.expected.clear();
        self.info = None;
        self.result = None;
        self.opcode_at = None;
        self.result_type_id = 0;
        self.ext_set = None;

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
        let ops: &'static [OperandSpec] = info.operands;
        self.push_specs(ops);

        while let Some(exp) = self.expected.pop() {
            let (kind, optional, name) = match exp {
                Expect::Repeat(kind) => {
                    self.expected.push(exp);
                    self.expected.push(Expect::One { kind, optional: true, name: "" });
                    continue;
                }
                Expect::RepeatPair(kind) => {
                    self.expected.push(exp);
                    let b = kind.info().bases;
                    // The first half of each pair is optional, the second not.
                    self.expected.push(Expect::One { kind: b[1], optional: false, name: "" });
                    self.expected.push(Expect::One { kind: b[0], optional: true, name: "" });
                    continue;
                }
                Expect::AnyValue => (OperandKind::IdRef, true, ""),
                Expect::One { kind, optional, name } => (kind, optional, name),
            };
            if kind == OperandKind::IdResult {
                if let Some((name, pos)) = self.result {
                    let id = self.id_word(&name[1..], pos)?;
                    self.ids.define(id);
                    self.push_word_id(id);
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
            let r = if matches!(exp, Expect::AnyValue) { self.any_value(w) } else { self.operand(kind, optional, w) };
            match r {
                Ok(()) => self.cur.pos = next,
                Err(OperandError::NoMatch(d)) | Err(OperandError::Hard(d)) => return Err(d),
            }
        }
        self.finish(info)
    }

    fn missing_operand(&self, kind: OperandKind, name: &str, found: &str) -> Diagnostic {
        let what = if name.is_empty() { kind.name().to_string() } else { format!("'{name}' ({})", kind.name()) };
        let mut d =
            self.error_at(self.cur.pos, 1, format!("{} expects an operand {what}, but found {found}", self.opname()));
        if let Some(info) = self.info {
            let required = info.operands.iter().filter(|o| o.quantifier == Quantifier::One).count();
            let given = self.words.len().saturating_sub(1);
            d.help =
                Some(format!("{} takes at least {required} operands; {given} operand words were given", info.name));
        }
        // Point at the instruction that lacks the operand.
        if let Some((p, n)) = self.opcode_at {
            d = Diagnostic { help: d.help, ..self.error_at(p, n, d.message) };
        }
        d
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

    fn result_error(&self, message: impl Into<String>) -> Diagnostic {
        match self.result {
            Some((n, p)) => self.error_at(p, n.len(), message),
            None => self.error_here(message),
        }
    }

    /// Pushes grammar operand specs (in text order) onto the stack.
    fn push_specs(&mut self, specs: &'static [OperandSpec]) {
        for s in specs.iter().rev() {
            let e = match s.quantifier {
                Quantifier::One => Expect::One { kind: s.kind, optional: false, name: s.name },
                Quantifier::Optional => Expect::One { kind: s.kind, optional: true, name: s.name },
                Quantifier::Variadic => match s.kind {
                    // spirv-as reads `PairIdRefIdRef*` as any number of ids.
                    OperandKind::PairIdRefIdRef => Expect::Repeat(OperandKind::IdRef),
                    k if k.info().category == Category::Composite => Expect::RepeatPair(k),
                    k => Expect::Repeat(k),
                },
            };
            self.expected.push(e);
        }
    }

    /// Assigns or looks up the number of an id name (without `%`).
    fn id_word(&mut self, name: &'t str, pos: Position) -> Result<u32, Diagnostic> {
        let Some(small) = scan_id_name(name, self.ids.numeric_cap) else {
            return Err(self.error_at(
                pos,
                name.len() + 1,
                format!("invalid id '%{name}': ids are '%' followed by letters, digits and '_'"),
            ));
        };
        Ok(self.ids.get_scanned(name.as_bytes(), pos.index + 1, small))
    }

    fn operand(&mut self, kind: OperandKind, optional: bool, w: &'t str) -> Result<(), OperandError> {
        if w.starts_with('!') {
            self.immediate_word(w).map_err(OperandError::Hard)?;
            self.alternate_pattern();
            return Ok(());
        }
        let pos = self.cur.pos;
        let hard = OperandError::Hard;
        match kind.info().category {
            Category::Id => {
                let Some(name) = w.strip_prefix('%') else {
                    return Err(hard(self.error_here(format!(
                        "expected an id for {} operand of {}, found '{w}'",
                        kind.name(),
                        self.opname()
                    ))));
                };
                let id = self.id_word(name, pos).map_err(hard)?;
                if kind == OperandKind::IdResultType {
                    self.result_type_id = id;
                }
                self.push_word_id(id);
                let opcode = self.info.map_or(0, |i| i.opcode);
                if self.words.len() == 4 && (opcode == op::OpExtInst || opcode == op::OpExtInstWithForwardRefsKHR) {
                    match self.imports.get(&id) {
                        Some(&set) => self.ext_set = Some(set),
                        None => {
                            return Err(hard(self.error_here(format!(
                                "{w} is not the result of an OpExtInstImport (of a known instruction set)"
                            ))))
                        }
                    }
                }
                Ok(())
            }
            Category::Literal => self.literal(kind, optional, w),
            Category::ValueEnum => {
                // Any enumerant of the grammar is accepted whatever the
                // version (as spirv-as does): the validator checks use.
                let e = kind.enumerant_by_name(w).ok_or_else(|| hard(self.bad_enumerant(kind, w)))?;
                self.words.push(e.value);
                self.push_specs(e.parameters);
                Ok(())
            }
            Category::BitEnum => {
                if kind == OperandKind::MemoryAccess && !optional && w.contains('|') {
                    // spirv-as reads a required (not optional) MemoryAccess
                    // operand as a single name, unlike every other mask.
                    let mut d = self.error_here(format!("'{w}' is not a MemoryAccess for {}", self.opname()));
                    d.help = Some("spirv-as takes one MemoryAccess name here, not a combination".into());
                    return Err(hard(d));
                }
                let mut value = 0u32;
                for part in w.split('|') {
                    let e = kind.enumerant_by_name(part).ok_or_else(|| hard(self.bad_enumerant(kind, part)))?;
                    value |= e.value;
                }
                self.words.push(value);
                // Parameters follow in order of increasing bit.
                let mut bits = value;
                while bits != 0 {
                    let bit = 1u32 << (31 - bits.leading_zeros());
                    bits ^= bit;
                    if let Some(e) = kind.enumerant(bit) {
                        self.push_specs(e.parameters);
                    }
                }
                Ok(())
            }
            Category::Composite => {
                for &b in kind.info().bases.iter().rev() {
                    self.expected.push(Expect::One { kind: b, optional: false, name: "" });
                }
                // The composite itself consumed no word: re-read this one.
                let first = self.expected.pop().expect("pushed above");
                if let Expect::One { kind, optional, .. } = first {
                    return self.operand(kind, optional, w);
                }
                Ok(())
            }
        }
    }

    fn bad_enumerant(&self, kind: OperandKind, w: &str) -> Diagnostic {
        let info = kind.info();
        let mut d = self.error_here(format!("'{w}' is not a {} for {}", info.name, self.opname()));
        d.help = match nearest(w, info.enumerants.iter().map(|e| e.name)) {
            Some(n) => Some(format!("did you mean '{n}'?")),
            None if info.enumerants.len() <= 12 => Some(format!(
                "valid {} values: {}",
                info.name,
                info.enumerants.iter().map(|e| e.name).collect::<Vec<_>>().join(", ")
            )),
            None => None,
        };
        d
    }

    fn number(&mut self, w: &str, ty: NumberType, optional: bool) -> Result<(), OperandError> {
        match literal::encode_number(w, ty, &mut self.words) {
            Ok(()) => Ok(()),
            Err(NumberError::InvalidText(m)) if optional => Err(OperandError::NoMatch(self.error_here(m))),
            Err(NumberError::InvalidText(m) | NumberError::InvalidUsage(m) | NumberError::Unsupported(m)) => {
                Err(OperandError::Hard(self.error_here(m)))
            }
        }
    }

    /// A literal string's words, with the bytes of a non-UTF-8 text restored.
    fn push_string(&mut self, bytes: &[u8]) {
        match self.options.raw_bytes {
            Some(raw) => literal::push_string_words(&raw.restore(bytes), &mut self.words),
            None => literal::push_string_words(bytes, &mut self.words),
        }
    }

    fn literal(&mut self, kind: OperandKind, optional: bool, w: &'t str) -> Result<(), OperandError> {
        let hard = OperandError::Hard;
        let opcode = self.info.map_or(0, |i| i.opcode);
        match kind {
            OperandKind::LiteralString => {
                if literal::looks_like_number(w) {
                    return Err(hard(self.error_here(format!("expected a literal string, found the number '{w}'"))));
                }
                let Some(bytes) = literal::unescape_string(w) else {
                    let d =
                        self.error_here(format!("invalid literal string '{w}': strings are written in double quotes"));
                    return Err(if optional { OperandError::NoMatch(d) } else { hard(d) });
                };
                if opcode == op::OpExtInstImport {
                    let name = String::from_utf8_lossy(&bytes);
                    let import = match grammar::ext_inst_set(&name) {
                        Some(s) if s.known_to_spirv_tools => Import::Known(s),
                        _ if name.starts_with("NonSemantic.") => Import::UnknownNonSemantic,
                        _ => {
                            return Err(hard(self.error_here(format!("unknown extended instruction set \"{name}\""))));
                        }
                    };
                    if self.words.len() >= 2 {
                        if self.imports.insert(self.words[1], import).is_some() {
                            return Err(hard(self.error_here("this id already names an imported instruction set")));
                        }
                        if self.worker {
                            self.imports_added.push((self.words[1], import));
                        }
                    }
                }
                self.push_string(&bytes);
                Ok(())
            }
            OperandKind::LiteralFloat => self.number(w, NumberType::Float { width: 32, encoding: None }, optional),
            OperandKind::LiteralContextDependentNumber => {
                let ty = match self.known.class(self.result_type_id) {
                    Some(TypeClass::Int { width, signed }) => NumberType::Int { width: *width, signed: *signed },
                    Some(TypeClass::Float { width, encoding }) => {
                        NumberType::Float { width: *width, encoding: *encoding }
                    }
                    _ => {
                        let msg =
                            format!("the type of {} must be a scalar integer or floating-point type", self.opname());
                        let mut d = self.error_here(msg);
                        if self.poisoned.contains(&self.result_type_id) {
                            d.severity = Severity::Warning; // follows from an earlier error
                        }
                        return Err(hard(d));
                    }
                };
                self.number(w, ty, optional)
            }
            OperandKind::LiteralExtInstInteger => {
                // The extended instruction's operands replace OpExtInst's
                // trailing `IdRef*` (spirv-as rejects extra operands);
                // OpExtInstWithForwardRefsKHR keeps it after them.
                let keep_ids = opcode != op::OpExtInst;
                if !keep_ids {
                    self.expected.clear();
                }
                match self.ext_set {
                    Some(Import::Known(set)) => {
                        if let Some(ei) = set.instruction_by_name(w) {
                            self.words.push(ei.opcode);
                            self.push_specs(ei.operands);
                            return Ok(());
                        }
                        if !set.non_semantic {
                            let mut d = self.error_here(format!("'{w}' is not an instruction of {}", set.import_name));
                            d.help = nearest(w, set.instructions.iter().map(|i| i.name))
                                .map(|n| format!("did you mean '{n}'?"));
                            return Err(hard(d));
                        }
                    }
                    Some(Import::UnknownNonSemantic) => {}
                    None => return Err(hard(self.error_here("OpExtInst without an imported set"))),
                }
                // Non-semantic sets: a number, then any number of ids.
                match w.parse::<u32>() {
                    Ok(n) if w.bytes().all(|c| c.is_ascii_digit()) => {
                        self.words.push(n);
                        if !keep_ids {
                            self.expected.push(Expect::Repeat(OperandKind::IdRef));
                        }
                        Ok(())
                    }
                    _ => Err(hard(self.error_here(format!(
                        "'{w}' is not a known instruction of this non-semantic set, nor an instruction number"
                    )))),
                }
            }
            OperandKind::LiteralSpecConstantOpInteger => {
                let embedded = grammar::instruction_by_name(&format!("Op{w}"))
                    .filter(|i| grammar::spec_constant_op_allowed(i.opcode) && i.available_in(self.version))
                    .ok_or_else(|| {
                        let mut d = self.error_here(format!("'{w}' is not an opcode usable in OpSpecConstantOp"));
                        d.help = nearest(w, grammar::SPEC_CONSTANT_OP_OPCODES.iter().map(|n| &n[2..]))
                            .map(|n| format!("did you mean '{n}'?"));
                        hard(d)
                    })?;
                self.words.push(embedded.opcode as u32);
                let ops = embedded.operands;
                let skip = ops
                    .iter()
                    .take_while(|o| matches!(o.kind, OperandKind::IdResultType | OperandKind::IdResult))
                    .count();
                self.push_specs(&ops[skip..]);
                Ok(())
            }
            _ => {
                // LiteralInteger: an unsigned 32-bit number, except the case
                // values of OpSwitch, which take the selector's type.
                if opcode == op::OpSwitch && self.words.len() >= 3 {
                    let selector = self.words[1];
                    let ty = self.known.value_class(selector).copied();
                    if let (true, Some(class)) = (self.worker, ty) {
                        self.switch_selectors.push((selector, class));
                    }
                    return match ty {
                        Some(TypeClass::Int { width, signed }) => {
                            self.number(w, NumberType::Int { width, signed }, optional)
                        }
                        _ => Err(hard(self.error_here(
                            "the OpSwitch selector must be the result of an instruction of integer scalar type",
                        ))),
                    };
                }
                self.number(w, NumberType::Int { width: 32, signed: false }, optional)
            }
        }
    }

    /// `!<integer>`: one raw word.
    fn immediate_word(&mut self, w: &str) -> Result<(), Diagnostic> {
        match literal::parse_c_u32(&w[1..]) {
            Some(v) => {
                self.words.push(v);
                Ok(())
            }
            None => {
                Err(self.error_here(format!("invalid immediate integer '{w}': expected a 32-bit number after '!'")))
            }
        }
    }

    /// After `!<integer>`, the rest of the instruction is read without the
    /// grammar (seed 000), except that a pending result id is still placed.
    fn alternate_pattern(&mut self) {
        let result_at =
            self.expected.iter().rposition(|e| matches!(e, Expect::One { kind: OperandKind::IdResult, .. }));
        match result_at {
            Some(i) => {
                let above = self.expected.len() - 1 - i;
                self.expected.clear();
                self.expected.push(Expect::AnyValue);
                self.expected.push(Expect::One { kind: OperandKind::IdResult, optional: false, name: "" });
                for _ in 0..above {
                    self.expected.push(Expect::AnyValue);
                }
            }
            None => {
                self.expected.clear();
                self.expected.push(Expect::AnyValue);
            }
        }
    }

    /// A word in alternate parsing mode: a number (32-bit), a string, an id
    /// or another `!<integer>`.
    fn any_value(&mut self, w: &'t str) -> Result<(), OperandError> {
        if w.starts_with('!') {
            self.immediate_word(w).map_err(OperandError::Hard)?;
        } else if literal::encode_number(w, literal::inferred_type(w), &mut self.words).is_ok() {
        } else if let Some(bytes) = (!literal::looks_like_number(w)).then(|| literal::unescape_string(w)).flatten() {
            self.push_string(&bytes);
        } else if let Some(name) = w.strip_prefix('%') {
            let id = self.id_word(name, self.cur.pos).map_err(OperandError::Hard)?;
            self.push_word_id(id);
        } else {
            return Err(OperandError::Hard(self.error_here(format!(
                "invalid word '{w}' after !<integer>: expected a number, a string, an id or !<integer>"
            ))));
        }
        if self.expected.is_empty() {
            self.expected.push(Expect::AnyValue);
        }
        Ok(())
    }

    /// An instruction written as `!<integer>` words: emitted as written.
    fn immediate_instruction(&mut self) -> Result<(), Diagnostic> {
        let (w, next) = self.cur.word();
        self.immediate_word(w)?;
        self.cur.pos = next;
        loop {
            if !self.cur.advance() || self.cur.is_start_of_new_inst() {
                break;
            }
            let (w, next) = self.cur.word();
            if w == "=" {
                return Err(self.error_here("'=' cannot follow an instruction written with !<integer>"));
            }
            self.untyped_operand(w, next)?;
        }
        self.emit_words();
        Ok(())
    }

    /// One operand of an instruction without a grammar (`!<integer>` or
    /// `OpUnknown`): any literal or id, then step past it.
    fn untyped_operand(&mut self, w: &'t str, next: Position) -> Result<(), Diagnostic> {
        self.expected.clear();
        match self.any_value(w) {
            Ok(()) => {}
            Err(OperandError::Hard(d) | OperandError::NoMatch(d)) => return Err(d),
        }
        self.cur.pos = next;
        Ok(())
    }

    /// `OpUnknown(opcode, word count)` followed by its operands.
    fn unknown_instruction(&mut self) -> Result<(), Diagnostic> {
        let expect_char = |s: &mut Self, c: u8, what: &str| -> Result<(), Diagnostic> {
            if !s.cur.advance() {
                return Err(s.error_here(format!("expected '{}' {what}, found the end", c as char)));
            }
            if s.cur.peek() != c {
                return Err(s.error_here(format!("expected '{}' {what}", c as char)));
            }
            s.cur.bump();
            Ok(())
        };
        let number = |s: &mut Self, what: &str| -> Result<u32, Diagnostic> {
            if !s.cur.advance() {
                return Err(s.error_here(format!("expected the {what}, found the end")));
            }
            let (w, next) = s.cur.word();
            let v = literal::parse_c_u32(w)
                .filter(|&v| v <= 0xffff)
                .ok_or_else(|| s.error_here(format!("invalid {what} '{w}': expected a 16-bit number")))?;
            s.cur.pos = next;
            Ok(v)
        };
        expect_char(self, b'(', "after OpUnknown")?;
        let opcode = number(self, "opcode")?;
        expect_char(self, b',', "after the opcode")?;
        let count = number(self, "word count")?;
        if count == 0 {
            return Err(self.error_here("the word count (which includes the opcode word) must be at least 1"));
        }
        expect_char(self, b')', "after the word count")?;
        self.words.push((count << 16) | opcode);
        for i in 1..count {
            let left = count - i;
            if !self.cur.advance() {
                return Err(self.error_here(format!("expected {left} more operands, found the end")));
            }
            if self.cur.is_start_of_new_inst() {
                return Err(self.error_here(format!("expected {left} more operands, found the next instruction")));
            }
            let (w, next) = self.cur.word();
            self.untyped_operand(w, next)?;
        }
        self.emit_words();
        Ok(())
    }

    /// Warnings for ids that are used but never defined.
    fn check_definitions(&mut self) {
        let ids = &self.ids;
        if ids.all_defined() {
            return;
        }
        // Numbers keep no position: find the first uses in the text, in one
        // pass (only the earliest are reported).
        let numbers: FxHashSet<u32> = ids.numbered().filter(|&(id, _)| !ids.is_defined(id)).map(|(_, v)| v).collect();
        let numbered = first_number_uses(self.text, &numbers, MAX_UNDEFINED_REPORTED);
        let mut undefined: Vec<usize> =
            ids.named().filter(|&(id, _)| !ids.is_defined(id)).map(|(_, at)| at).chain(numbered).collect();
        undefined.sort_unstable();
        for start in undefined.into_iter().take(MAX_UNDEFINED_REPORTED) {
            // The name's first occurrence; its '%' is one byte before.
            let len = self.ids.name_at(start).len();
            let at = start - 1;
            let name = &self.text[at..at + len + 1];
            let mut d = self.error_at(Position { index: at }, len + 1, format!("{name} is used but never defined"));
            d.severity = Severity::Warning;
            self.diags.items.push(d);
        }
    }
}
