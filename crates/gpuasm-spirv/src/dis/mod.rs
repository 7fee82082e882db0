//! The disassembler: binary to SPIR-V assembly text, byte-identical to
//! SPIRV-Tools' `spirv-dis` for every option it has.
//!
//! The default layout streams: text is produced instruction by instruction,
//! so a partial listing is available before a parse error, as with
//! spirv-dis. `--nested-indent` and `--reorder-blocks` buffer one function at
//! a time (see [`cfg`]).
//!
//! The module owns [`DisOptions`] (one switch per spirv-dis option), the
//! entry points ([`disassemble`] to a string, [`disassemble_to`] a writer,
//! [`disassemble_into`] a byte buffer) and [`DisError`].
//!
//! ```
//! use gpuasm_spirv::dis::{disassemble, DisOptions};
//! // Header (bound 3), `OpCapability Shader`, `%2 = OpTypeVoid`.
//! let words = [0x0723_0203, 0x0001_0600, 0, 3, 0, 0x0002_0011, 1, 0x0002_0013, 2];
//! let text = disassemble(&words, &DisOptions::default().header(false)).unwrap();
//! assert_eq!(text, "               OpCapability Shader\n       %void = OpTypeVoid\n");
//! let raw = disassemble(&words, &DisOptions::default().header(false).indent(false).friendly_names(false));
//! assert_eq!(raw.unwrap(), "OpCapability Shader\n%2 = OpTypeVoid\n");
//! ```

mod cfg;
mod split;

use crate::binary::{
    BinaryError, BinaryErrorKind, ExtSet, Header, Instruction, InstructionParser, ParsedOperand, ParserOptions,
};
use crate::grammar::{self, op, Category, OperandKind};
use crate::module::names::IdNames;
use crate::number;
use rustc_hash::FxHashMap;
use std::io::{self, Write};

pub use crate::binary::ExtSet as ImportedSet;

/// Disassembler switches, one per `spirv-dis` option. Built from the
/// default with one method per field:
///
/// ```
/// use gpuasm_spirv::dis::DisOptions;
/// let options = DisOptions::default().friendly_names(false).indent(false);
/// assert!(!options.friendly_names);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct DisOptions {
    /// Indent instructions to column 15 (off: `--no-indent`).
    pub indent: bool,
    /// Print the `; SPIR-V` header comment (off: `--no-header`).
    pub header: bool,
    /// Friendly names for ids (off: `--raw-id`).
    pub friendly_names: bool,
    /// Byte offset of each instruction in a trailing comment (`--offsets`).
    pub offsets: bool,
    /// Section banners and explanatory comments (`--comment`).
    pub comment: bool,
    /// Indent blocks by structured nesting (`--nested-indent`).
    pub nested_indent: bool,
    /// Print blocks in structured order (`--reorder-blocks`).
    pub reorder_blocks: bool,
    /// ANSI colours, as spirv-dis prints them on a terminal (`--color`).
    pub color: bool,
    /// Reject ids at or above the header's bound. Off by default: spirv-dis
    /// prints them (see [`Listed::first_id_past_bound`]).
    pub check_bound: bool,
    /// Name instructions of every vendored extended set, including those
    /// spirv-dis 2025.5 prints as numbers (`NonSemantic.DebugPrintf`, ...).
    pub all_ext_inst_names: bool,
    /// Print an instruction the grammar cannot decode (unknown opcode,
    /// enumerant or mask bit, unknown instruction of a semantic or unknown
    /// extended set) as `OpUnknown(opcode, word count)` and its words, as
    /// newer spirv-dis does with `--handle-unknown-opcodes`, instead of
    /// failing as spirv-dis 2025.5 does. See [`Listed::undecoded`].
    pub handle_unknown_opcodes: bool,
    /// At most this many bytes of friendly names, else
    /// [`DisError::NamesTooLarge`]; `None`: [`IdNames::limit`] of the
    /// module (256 MiB and more).
    pub names_limit: Option<usize>,
}

impl DisOptions {
    /// Sets the `indent` field.
    pub fn indent(mut self, indent: bool) -> Self {
        self.indent = indent;
        self
    }

    /// Sets the `header` field.
    pub fn header(mut self, header: bool) -> Self {
        self.header = header;
        self
    }

    /// Sets the `friendly_names` field.
    pub fn friendly_names(mut self, friendly_names: bool) -> Self {
        self.friendly_names = friendly_names;
        self
    }

    /// Sets the `offsets` field.
    pub fn offsets(mut self, offsets: bool) -> Self {
        self.offsets = offsets;
        self
    }

    /// Sets the `comment` field.
    pub fn comment(mut self, comment: bool) -> Self {
        self.comment = comment;
        self
    }

    /// Sets the `nested_indent` field.
    pub fn nested_indent(mut self, nested_indent: bool) -> Self {
        self.nested_indent = nested_indent;
        self
    }

    /// Sets the `reorder_blocks` field.
    pub fn reorder_blocks(mut self, reorder_blocks: bool) -> Self {
        self.reorder_blocks = reorder_blocks;
        self
    }

    /// Sets the `color` field.
    pub fn color(mut self, color: bool) -> Self {
        self.color = color;
        self
    }

    /// Sets the `check_bound` field.
    pub fn check_bound(mut self, check_bound: bool) -> Self {
        self.check_bound = check_bound;
        self
    }

    /// Sets the `handle_unknown_opcodes` field.
    pub fn handle_unknown_opcodes(mut self, handle_unknown_opcodes: bool) -> Self {
        self.handle_unknown_opcodes = handle_unknown_opcodes;
        self
    }

    /// Sets the `names_limit` field.
    pub fn names_limit(mut self, names_limit: Option<usize>) -> Self {
        self.names_limit = names_limit;
        self
    }

    /// The limit on the names of a module of `words`.
    fn names_limit_for(&self, words: &[u32]) -> usize {
        self.names_limit.unwrap_or_else(|| IdNames::limit(words.len()))
    }

    /// Sets the `all_ext_inst_names` field.
    pub fn all_ext_inst_names(mut self, all_ext_inst_names: bool) -> Self {
        self.all_ext_inst_names = all_ext_inst_names;
        self
    }
}

impl Default for DisOptions {
    fn default() -> Self {
        DisOptions {
            indent: true,
            header: true,
            friendly_names: true,
            offsets: false,
            comment: false,
            nested_indent: false,
            reorder_blocks: false,
            color: false,
            check_bound: false,
            all_ext_inst_names: false,
            handle_unknown_opcodes: false,
            names_limit: None,
        }
    }
}

/// A failure while disassembling: bad input or a failed write.
#[derive(Debug, thiserror::Error)]
pub enum DisError {
    /// The module does not parse.
    #[error(transparent)]
    Binary(#[from] BinaryError),
    /// The sink failed; the cause is the error's source.
    #[error("write failed")]
    Io(#[from] io::Error),
    /// The friendly names would take more than `limit` bytes
    /// ([`IdNames::limit`]); nothing was written. Types nested thousands
    /// deep do this: each name spells out the one inside it.
    #[error(
        "the friendly names of this module would take more than {} MiB (a type's name spells out the types \
         inside it, and this module nests types thousands deep); disassemble with --raw-id",
        limit >> 20
    )]
    NamesTooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
}

/// Disassembles a module given as host-order words into text. Literal
/// strings that are not UTF-8 are replaced lossily; use [`disassemble_to`]
/// for the exact bytes.
pub fn disassemble(words: &[u32], options: &DisOptions) -> Result<String, DisError> {
    let mut out = Vec::with_capacity(words.len() * 12);
    disassemble_into(words, options, &mut out)?;
    Ok(match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// What [`disassemble_to`] noticed in a module it printed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listed {
    /// Without [`DisOptions::check_bound`]: the first id at or above the
    /// header's bound (printed, as spirv-dis does, though the module is
    /// invalid) and the word it is at.
    pub first_id_past_bound: Option<(u32, usize)>,
    /// With [`DisOptions::handle_unknown_opcodes`]: how many instructions
    /// were printed as `OpUnknown`, and for the first one, the error
    /// spirv-dis 2025.5 stops with there and its word offset.
    pub undecoded: (usize, Option<(BinaryErrorKind, usize)>),
    /// The header's version word when spirv-dis refuses it (not 1.0 to
    /// 1.6, or its low or high byte set); the module is printed anyway.
    pub unsupported_version: Option<u32>,
}

impl Listed {
    /// What `parser` noticed in the instructions it read.
    fn noticed(parser: &InstructionParser<'_>) -> Listed {
        let (count, first) = parser.undecoded();
        let version = parser.header().version;
        let supported = version & 0xff00_00ff == 0 && (0x0001_0000..=0x0001_0600).contains(&version);
        Listed {
            first_id_past_bound: parser.first_id_past_bound(),
            undecoded: (count, first.cloned()),
            unsupported_version: (!supported).then_some(version),
        }
    }

    /// What this reader and another (which read the rest of the same
    /// module, if `other` is there) noticed together: the earliest of each
    /// first, and the counts added up.
    pub(crate) fn merged(self, other: Option<Listed>) -> Listed {
        /// The one at the lower word offset.
        fn earliest<T>(a: Option<(T, usize)>, b: Option<(T, usize)>) -> Option<(T, usize)> {
            match (a, b) {
                (Some(a), Some(b)) => Some(if b.1 < a.1 { b } else { a }),
                (a, b) => a.or(b),
            }
        }
        let Some(other) = other else { return self };
        let (count, first) = self.undecoded;
        let (other_count, other_first) = other.undecoded;
        Listed {
            first_id_past_bound: earliest(self.first_id_past_bound, other.first_id_past_bound),
            undecoded: (count + other_count, earliest(first, other_first)),
            unsupported_version: self.unsupported_version,
        }
    }
}

/// Disassembles into a writer. On a parse error, the text of every
/// instruction before it has been written (as spirv-dis does in its default
/// layout) and the error is returned.
pub fn disassemble_to(words: &[u32], options: &DisOptions, sink: &mut dyn Write) -> Result<Listed, DisError> {
    let mut buffer = Vec::with_capacity(1 << 16);
    run(words, options, &mut buffer, Some(sink))
}

/// Appends the text to `out`, which serves as the output buffer itself (no
/// copies). On a parse error, `out` holds the text of every instruction
/// before it.
pub fn disassemble_into(words: &[u32], options: &DisOptions, out: &mut Vec<u8>) -> Result<(), DisError> {
    run(words, options, out, None).map(|_| ())
}

fn run<'a>(
    words: &[u32],
    options: &'a DisOptions,
    out: &mut Vec<u8>,
    sink: Option<&'a mut dyn Write>,
) -> Result<Listed, DisError> {
    let header = Header::read(words)?;
    let parser_options = ParserOptions {
        check_bound: options.check_bound,
        spirv_tools_ext_sets: !options.all_ext_inst_names,
        raw_unknown: options.handle_unknown_opcodes,
        ..ParserOptions::default()
    };
    if split::applies(words, options) {
        let cuts = split::cuts(words.len(), options.friendly_names);
        return split::run(words, &header, options, parser_options, out, sink, &cuts);
    }
    run_serial(words, &header, options, parser_options, out, sink)
}

/// [`run`] on this thread alone.
fn run_serial<'a>(
    words: &[u32],
    header: &Header,
    options: &'a DisOptions,
    parser_options: ParserOptions,
    out: &mut Vec<u8>,
    sink: Option<&'a mut dyn Write>,
) -> Result<Listed, DisError> {
    let limit = options.names_limit_for(words);
    let names = if options.friendly_names { IdNames::friendly(words, parser_options, limit) } else { IdNames::raw() };
    if !names.is_complete() {
        return Err(DisError::NamesTooLarge { limit });
    }
    let mut p = Printer::new(options, &names, std::mem::take(out), sink);
    if options.header {
        p.header(header);
    }
    let mut parser = InstructionParser::new(words, parser_options)?;
    let buffered = options.nested_indent || options.reorder_blocks;
    let mut function = cfg::FunctionBuffer::default();
    let result = loop {
        let inst = match parser.next() {
            None => break Ok(()),
            Some(Err(e)) => break Err(e),
            Some(Ok(inst)) => inst,
        };
        p.section_comment(&inst);
        if buffered {
            if inst.opcode == op::OpLabel {
                function.start_block(&inst);
            } else {
                if inst.opcode == op::OpFunctionEnd {
                    function.emit(&mut p, words)?;
                }
                if function.in_block() {
                    function.push(&inst);
                } else {
                    p.instruction(&inst, None);
                }
            }
        } else {
            p.instruction(&inst, None);
        }
        p.flush_if_large()?;
    };
    let flushed = p.flush();
    *out = std::mem::take(&mut p.out);
    flushed?;
    result?;
    Ok(Listed::noticed(&parser))
}

const RESET: &[u8] = b"\x1b[0m";
const GREY: &[u8] = b"\x1b[1;30m";
const RED: &[u8] = b"\x1b[31m";
const GREEN: &[u8] = b"\x1b[32m";
const YELLOW: &[u8] = b"\x1b[33m";
const BLUE: &[u8] = b"\x1b[34m";

/// spirv-dis's layout constants.
/// A printer with a sink writes its text out once it holds this much.
pub(super) const FLUSH_AT: usize = 1 << 16;

const STANDARD_INDENT: usize = 15;
const BLOCK_NEST_INDENT: usize = 2;
const BLOCK_BODY_INDENT_OFFSET: usize = 2;
const COMMENT_COLUMN: usize = 50;
/// A long line's comment column is not carried to the next line past this.
const MAX_CARRIED_COMMENT_COLUMN: usize = 256;

/// Formats instructions into an output buffer.
pub(crate) struct Printer<'a, 'n> {
    opts: &'a DisOptions,
    names: &'n IdNames,
    indent: usize,
    /// Where full buffers go; `None` keeps everything in `out`.
    sink: Option<&'a mut dyn Write>,
    out: Vec<u8>,
    comments: Vec<u8>,
    last_comment_align: usize,
    /// `--comment`: decorations of each id, shown on its definition.
    id_comments: FxHashMap<u32, Vec<u8>>,
    inserted_decoration: bool,
    inserted_debug: bool,
    inserted_type: bool,
    /// No comments, offsets or nesting: a line depends on its instruction
    /// alone ([`Printer::plain_instruction`]).
    plain: bool,
    /// Whether OpExtInstWithForwardRefsKHR's instruction number is named
    /// (spirv-diff prints nothing there: see [`Printer::printing_like_spirv_diff`]).
    forward_ref_ext_names: bool,
}

impl<'a, 'n> Printer<'a, 'n> {
    pub(crate) fn new(opts: &'a DisOptions, names: &'n IdNames, out: Vec<u8>, sink: Option<&'a mut dyn Write>) -> Self {
        Printer {
            opts,
            names,
            indent: if opts.indent { STANDARD_INDENT } else { 0 },
            sink,
            out,
            comments: Vec::new(),
            last_comment_align: 0,
            id_comments: FxHashMap::default(),
            inserted_decoration: false,
            inserted_debug: false,
            inserted_type: false,
            plain: !opts.comment && !opts.offsets && !opts.nested_indent,
            forward_ref_ext_names: true,
        }
    }

    /// Prints as spirv-diff does, which knows the extended set only of an
    /// OpExtInst: OpExtInstWithForwardRefsKHR's instruction number prints
    /// as nothing (its colour codes aside).
    pub(crate) fn printing_like_spirv_diff(mut self) -> Self {
        self.forward_ref_ext_names = false;
        self
    }

    pub(crate) fn flush_if_large(&mut self) -> io::Result<()> {
        if self.sink.is_some() && self.out.len() >= FLUSH_AT {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(sink) = self.sink.as_mut() {
            sink.write_all(&self.out)?;
            self.out.clear();
        }
        Ok(())
    }

    fn header(&mut self, h: &Header) {
        let o = &mut self.out;
        o.extend_from_slice(b"; SPIR-V\n");
        write_header_version(o, h.version);
        write_header_generator(o, h.generator);
        write_header_number(o, b"; Bound: ", h.bound);
        write_header_number(o, b"; Schema: ", h.schema);
    }

    /// The text built so far (`gpuasm diff` interleaves its own marks).
    pub(crate) fn out(&mut self) -> &mut Vec<u8> {
        &mut self.out
    }

    /// The `--comment` banners that open sections.
    fn section_comment(&mut self, inst: &Instruction<'_>) {
        if !self.opts.comment {
            return;
        }
        let class = inst.info.class;
        if inst.opcode == op::OpFunction {
            self.out.push(b'\n');
            if self.opts.nested_indent {
                self.out.push(b'\n');
            }
            self.push_indent();
            self.out.extend_from_slice(b"; Function ");
            self.names.write(&mut self.out, inst.result_id);
            self.out.push(b'\n');
        }
        if !self.inserted_decoration && is_decoration(inst.opcode) {
            self.inserted_decoration = true;
            self.banner(b"; Annotations\n");
        }
        if !self.inserted_debug && class == "Debug" {
            self.inserted_debug = true;
            self.banner(b"; Debug Information\n");
        }
        if !self.inserted_type && crate::peer_opcodes::generates_type(inst.opcode) {
            self.inserted_type = true;
            self.banner(b"; Types, variables and constants\n");
        }
    }

    fn banner(&mut self, text: &[u8]) {
        self.out.push(b'\n');
        self.push_indent();
        self.out.extend_from_slice(text);
    }

    fn push_indent(&mut self) {
        self.out.resize(self.out.len() + self.indent, b' ');
    }

    /// Prints one instruction. `block_level` is the nesting level when the
    /// instruction is printed as part of a buffered function.
    pub(crate) fn instruction(&mut self, inst: &Instruction<'_>, block_level: Option<u32>) {
        if inst.raw {
            return self.raw_instruction(inst);
        }
        if self.plain {
            return self.plain_instruction(inst);
        }
        let color = self.opts.color;
        if self.opts.nested_indent && inst.opcode == op::OpLabel {
            self.out.push(b'\n');
        }
        // The line is built in place at the end of the output buffer.
        let mut line = std::mem::take(&mut self.out);
        let line_start = line.len();
        line_start_text(&mut line, inst.result_id, self.names, self.indent, color);
        if let (true, Some(level)) = (self.opts.nested_indent, block_level) {
            let body = if inst.opcode != op::OpLabel { BLOCK_BODY_INDENT_OFFSET } else { 0 };
            line.resize(line.len() + level as usize * BLOCK_NEST_INDENT + body, b' ');
        }
        number::push_bytes(&mut line, inst.info.name.as_bytes());
        for (i, o) in inst.operands.iter().enumerate() {
            if o.kind == OperandKind::IdResult {
                continue;
            }
            line.push(b' ');
            self.operand(&mut line, inst, i);
        }

        if self.opts.comment {
            self.record_decoration_comment(inst);
        }
        let mut comments = std::mem::take(&mut self.comments);
        comments.clear();
        let mut sep: &[u8] = b"";
        if self.opts.offsets {
            if color {
                comments.extend_from_slice(GREY);
            }
            comments.extend_from_slice(b"0x");
            let off = inst.offset * 4;
            comments.extend_from_slice(format_hex8(off).as_slice());
            if color {
                comments.extend_from_slice(RESET);
            }
            sep = b", ";
        }
        if self.opts.comment && inst.opcode == op::OpName && !inst.operands.is_empty() {
            comments.extend_from_slice(sep);
            comments.extend_from_slice(b"id %");
            number::write_uint(&mut comments, inst.word(0) as u64);
            sep = b", ";
        }
        if self.opts.comment && inst.result_id != 0 {
            if let Some(c) = self.id_comments.get(&inst.result_id) {
                comments.extend_from_slice(sep);
                comments.extend_from_slice(c);
            }
        }

        if comments.is_empty() {
            self.last_comment_align = 0;
        } else {
            let len = visible_len(&line[line_start..]);
            let align = (len + 2).max(self.last_comment_align).max(COMMENT_COLUMN);
            let align = (align + 3) & !3;
            self.last_comment_align = align.min(MAX_CARRIED_COMMENT_COLUMN);
            line.resize(line.len() + (align - len), b' ');
            line.extend_from_slice(b"; ");
            line.extend_from_slice(&comments);
        }
        line.push(b'\n');
        self.out = line;
        self.comments = comments;
    }

    /// [`Printer::instruction`] in the layouts without comments, offsets or
    /// nesting (the default, and what two threads print): the same text,
    /// with the usual operands (ids) written in the loop rather than
    /// through [`write_operand`], and no comment column to keep.
    #[inline(always)]
    fn plain_instruction(&mut self, inst: &Instruction<'_>) {
        let (color, names, indent, ext_names) = (self.opts.color, self.names, self.indent, self.forward_ref_ext_names);
        let line = &mut self.out;
        line_start_text(line, inst.result_id, names, indent, color);
        number::push_bytes(line, inst.info.name.as_bytes());
        for (i, o) in inst.operands.iter().enumerate() {
            if o.kind.info().category == Category::Id {
                if o.kind == OperandKind::IdResult {
                    continue;
                }
                if !color {
                    number::push_bytes(line, b" %");
                    names.write(line, inst.words[o.offset as usize]);
                    continue;
                }
            }
            line.push(b' ');
            write_operand(color, names, line, inst, i, ext_names);
        }
        line.push(b'\n');
        self.last_comment_align = 0;
    }

    /// An instruction the grammar cannot decode, as spirv-dis
    /// `--handle-unknown-opcodes` prints it: the standard indentation
    /// whatever the layout, every word in decimal, no colour, and a note in
    /// place of any other comment. `gpuasm as` and spirv-as read it back.
    #[cold]
    fn raw_instruction(&mut self, inst: &Instruction<'_>) {
        let o = &mut self.out;
        push_spaces(o, self.indent);
        o.extend_from_slice(b"OpUnknown(");
        number::write_uint(o, inst.opcode as u64);
        o.extend_from_slice(b", ");
        number::write_uint(o, inst.words.len() as u64);
        o.push(b')');
        for &w in &inst.words[1..] {
            o.push(b' ');
            number::write_uint(o, w as u64);
        }
        o.extend_from_slice(b"  ; note: ID bound may be incorrect after reassembly\n");
        self.last_comment_align = 0;
    }

    /// `--comment`: remembers `OpDecorate %id <rest>` to show on `%id`'s line.
    fn record_decoration_comment(&mut self, inst: &Instruction<'_>) {
        if inst.opcode != op::OpDecorate || inst.operands.is_empty() {
            return;
        }
        let id = inst.word(0);
        if id == 0 {
            return;
        }
        let mut partial = Vec::new();
        for i in 1..inst.operands.len() {
            if i > 1 {
                partial.push(b' ');
            }
            self.operand(&mut partial, inst, i);
        }
        let entry = self.id_comments.entry(id).or_default();
        if !entry.is_empty() {
            entry.extend_from_slice(b", ");
        }
        entry.extend_from_slice(&partial);
    }

    fn operand(&self, out: &mut Vec<u8>, inst: &Instruction<'_>, i: usize) {
        write_operand(self.opts.color, self.names, out, inst, i, self.forward_ref_ext_names)
    }
}

/// What a line starts with: `%<result> = ` right-aligned so that the
/// opcode starts at `indent`, or the indentation alone.
#[inline(always)]
fn line_start_text(line: &mut Vec<u8>, result_id: u32, names: &IdNames, indent: usize, color: bool) {
    if result_id == 0 {
        return push_spaces(line, indent);
    }
    if color {
        line.extend_from_slice(BLUE);
    }
    if indent > 0 {
        // `std::setw(indent - 3 - len)` applied to the "%" that follows.
        let width = (indent - 3).saturating_sub(names.len(result_id));
        push_spaces(line, width.saturating_sub(1));
    }
    line.push(b'%');
    names.write(line, result_id);
    if color {
        line.extend_from_slice(RESET);
    }
    line.extend_from_slice(b" = ");
}

/// Appends operand `i` of `inst`.
fn write_operand(
    color: bool,
    names: &IdNames,
    out: &mut Vec<u8>,
    inst: &Instruction<'_>,
    i: usize,
    forward_ref_ext_names: bool,
) {
    let o: ParsedOperand = inst.operands[i];
    let word = inst.words[o.offset as usize];
    let info = o.kind.info();
    match info.category {
        Category::Id => {
            if color {
                out.extend_from_slice(YELLOW);
            }
            out.push(b'%');
            names.write(out, word);
        }
        Category::Literal => match o.kind {
            OperandKind::LiteralExtInstInteger => {
                if color {
                    out.extend_from_slice(RED);
                }
                match inst.ext_set {
                    _ if !forward_ref_ext_names && inst.opcode == op::OpExtInstWithForwardRefsKHR => {}
                    Some(ExtSet::Known(set)) => match set.instruction(word) {
                        Some(ei) => number::push_bytes(out, ei.name.as_bytes()),
                        None => number::write_uint(out, word as u64),
                    },
                    _ => number::write_uint(out, word as u64),
                }
            }
            OperandKind::LiteralSpecConstantOpInteger => {
                if color {
                    out.extend_from_slice(RED);
                }
                if let Some(e) = grammar::instruction(word as u16) {
                    out.extend_from_slice(e.name.strip_prefix("Op").unwrap_or(e.name).as_bytes());
                }
            }
            OperandKind::LiteralString => {
                out.push(b'"');
                if color {
                    out.extend_from_slice(GREEN);
                }
                for &c in crate::binary::literal_string_bytes(inst.operand_words(i)) {
                    if c == b'"' || c == b'\\' {
                        out.push(b'\\');
                    }
                    out.push(c);
                }
                if color {
                    out.extend_from_slice(RESET);
                }
                out.push(b'"');
            }
            _ => {
                if color {
                    out.extend_from_slice(RED);
                }
                number::write_number(out, o.number, inst.operand_words(i));
                if color {
                    out.extend_from_slice(RESET);
                }
            }
        },
        Category::ValueEnum => {
            if let Some(e) = o.kind.enumerant(word) {
                number::push_bytes(out, e.name.as_bytes());
            }
        }
        Category::BitEnum => {
            let mut emitted = false;
            let mut bits = word;
            while bits != 0 {
                let bit = bits & bits.wrapping_neg();
                bits ^= bit;
                if let Some(e) = o.kind.enumerant(bit) {
                    if emitted {
                        out.push(b'|');
                    }
                    number::push_bytes(out, e.name.as_bytes());
                    emitted = true;
                }
            }
            if !emitted {
                if let Some(e) = o.kind.enumerant(0) {
                    out.extend_from_slice(e.name.as_bytes());
                }
            }
        }
        Category::Composite => {}
    }
    if color {
        out.extend_from_slice(RESET);
    }
}

/// The header's `; Version: 1.N` line.
pub(crate) fn write_header_version(o: &mut Vec<u8>, version: u32) {
    o.extend_from_slice(b"; Version: ");
    number::write_uint(o, ((version >> 16) & 0xff) as u64);
    o.push(b'.');
    number::write_uint(o, ((version >> 8) & 0xff) as u64);
    o.push(b'\n');
}

/// The header's `; Generator: <tool>; <version>` line.
pub(crate) fn write_header_generator(o: &mut Vec<u8>, generator: u32) {
    o.extend_from_slice(b"; Generator: ");
    let tool = (generator >> 16) as u16;
    match grammar::generator_name(tool) {
        Some(name) => o.extend_from_slice(name.as_bytes()),
        None => {
            o.extend_from_slice(b"Unknown(");
            number::write_uint(o, tool as u64);
            o.push(b')');
        }
    }
    o.extend_from_slice(b"; ");
    number::write_uint(o, (generator & 0xffff) as u64);
    o.push(b'\n');
}

/// A header line of `label` and a number (`; Bound: `, `; Schema: `).
pub(crate) fn write_header_number(o: &mut Vec<u8>, label: &[u8], value: u32) {
    o.extend_from_slice(label);
    number::write_uint(o, value as u64);
    o.push(b'\n');
}

/// Appends `n` spaces; the usual indentation without a call to `memset`.
#[inline(always)]
fn push_spaces(out: &mut Vec<u8>, n: usize) {
    const SPACES: &[u8; 32] = &[b' '; 32];
    match SPACES.get(..n) {
        Some(spaces) => number::push_bytes(out, spaces),
        None => out.resize(out.len() + n, b' '),
    }
}

/// One instruction as text (friendly names from `names`, no indentation),
/// as validator messages show it.
pub fn instruction_text(inst: &Instruction<'_>, names: &IdNames) -> String {
    let opts = DisOptions::default().indent(false);
    let mut p = Printer::new(&opts, names, Vec::new(), None);
    p.instruction(inst, None);
    String::from_utf8_lossy(&p.out).trim_end().to_string()
}

/// spirv-dis's `spvOpcodeIsDecoration`: the annotation instructions that
/// apply a decoration (not `OpDecorationGroup`).
fn is_decoration(opcode: u16) -> bool {
    matches!(
        opcode,
        op::OpDecorate
            | op::OpDecorateId
            | op::OpMemberDecorate
            | op::OpGroupDecorate
            | op::OpGroupMemberDecorate
            | op::OpDecorateString
            | op::OpMemberDecorateString
    )
}

/// Length of a line as seen on a terminal: ANSI `\x1b...m` sequences count
/// for nothing.
fn visible_len(line: &[u8]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < line.len() {
        if line[i] == 0x1b {
            while i < line.len() && line[i] != b'm' {
                i += 1;
            }
            i += 1;
            continue;
        }
        n += 1;
        i += 1;
    }
    n
}

fn format_hex8(v: usize) -> Vec<u8> {
    let mut s = Vec::with_capacity(16);
    let digits = if v > 0xffff_ffff { (usize::BITS - v.leading_zeros()).div_ceil(4) as usize } else { 8 };
    for i in (0..digits).rev() {
        s.push(b"0123456789abcdef"[(v >> (i * 4)) & 0xf]);
    }
    s
}
