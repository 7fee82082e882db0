//! Where a module read from assembly text came from: the byte range of each
//! instruction's text and of each token that made its words, and the name
//! each id had in the text.
//!
//! Owns [`TextSpans`]. The assembler records it when asked
//! (`text::parse`); a [`Module`](super::Module) built from the
//! result answers [`Module::span`](super::Module::span),
//! [`Module::operand_span`](super::Module::operand_span) and the like from
//! it. A module read from a binary has none, and its reader never looks at
//! this file.
//!
//! Tokens are keyed by the word they start in the instruction, not by their
//! place in the text: the result id is written before the opcode but is the
//! instruction's second or third word, and a decoded operand is found by its
//! word offset whatever the order. Every operand the grammar decodes starts
//! at the first word of the token that wrote it (a mask and each of its
//! parameters, each half of an `OpSwitch` or `OpPhi` pair, a string however
//! many words long), so the alignment is exact.
//!
//! ```
//! let src = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%uint = OpTypeInt 32 0\n%one = OpConstant %uint 1\n";
//! let parsed = gpuasm_spirv::text::parse(src, &Default::default()).unwrap();
//! let module = parsed.module().unwrap();
//! // Instruction 3, operand 2 (after result type and result): the literal.
//! let at = module.operand_span(3, 2).unwrap();
//! assert_eq!(&src[at], "1");
//! let one = module.id_named("one").unwrap();
//! assert_eq!(module.text_name(one), Some("one"));
//! ```

use rustc_hash::FxHashMap;
use std::ops::Range;

/// The text behind a module: byte spans of its instructions and their
/// tokens, and each id's name in the text. Made by `text::parse`.
#[derive(Clone, Debug, Default)]
pub struct TextSpans<'t> {
    text: &'t str,
    /// One per instruction written, in text order (which is word order).
    insts: Vec<InstSpan>,
    /// The tokens of every instruction, instruction after instruction.
    tokens: Vec<TokenSpan>,
    /// Id → its first `%name` token (with the `%`).
    names: FxHashMap<u32, (u32, u32)>,
    /// Name (without `%`) → id.
    ids: FxHashMap<&'t str, u32>,
}

/// Byte offsets are kept as `u32`: `text::parse` refuses texts of
/// 4 GiB or more.
#[derive(Copy, Clone, Debug)]
pub(crate) struct InstSpan {
    /// Where the instruction's words start in the module, header included.
    offset: u32,
    word_count: u32,
    start: u32,
    end: u32,
    /// Its tokens: `tokens[tokens_at..tokens_at + tokens_len]`.
    tokens_at: u32,
    tokens_len: u32,
}

/// One token that wrote words: the opcode (word 0), the result id, an
/// operand.
#[derive(Copy, Clone, Debug)]
pub(crate) struct TokenSpan {
    /// The first word it wrote, counted from the instruction's first.
    word: u32,
    start: u32,
    end: u32,
}

impl<'t> TextSpans<'t> {
    /// Nothing recorded yet, over `text`.
    pub(crate) fn new(text: &'t str) -> Self {
        TextSpans { text, ..Default::default() }
    }

    /// Drops the tokens of an instruction that was not written (an error).
    pub(crate) fn begin(&mut self) {
        let kept = self.insts.last().map_or(0, |i| (i.tokens_at + i.tokens_len) as usize);
        self.tokens.truncate(kept);
    }

    /// Records a token of the current instruction: bytes `start..end`,
    /// which wrote from the instruction's word `word` on. Tokens come in
    /// word order.
    pub(crate) fn token(&mut self, word: usize, start: usize, end: usize) {
        self.tokens.push(TokenSpan { word: word as u32, start: start as u32, end: end as u32 });
    }

    /// The current instruction was written at word `offset` of the module
    /// (header included), `word_count` words long.
    pub(crate) fn commit(&mut self, offset: usize, word_count: usize) {
        let tokens_at = self.insts.last().map_or(0, |i| i.tokens_at + i.tokens_len);
        let tokens = &self.tokens[tokens_at as usize..];
        let start = tokens.iter().map(|t| t.start).min().unwrap_or(0);
        let end = tokens.iter().map(|t| t.end).max().unwrap_or(0);
        self.insts.push(InstSpan {
            offset: offset as u32,
            word_count: word_count as u32,
            start,
            end,
            tokens_at,
            tokens_len: tokens.len() as u32,
        });
    }

    /// Notes every id's name, given the module's words.
    pub(crate) fn name_ids(&mut self, words: &[u32]) {
        let text = self.text;
        for inst in &self.insts {
            for t in &self.tokens[inst.tokens_at as usize..(inst.tokens_at + inst.tokens_len) as usize] {
                let token = &text[t.start as usize..t.end as usize];
                if let (Some(name), Some(&id)) = (token.strip_prefix('%'), words.get((inst.offset + t.word) as usize)) {
                    self.names.entry(id).or_insert((t.start, t.end));
                    self.ids.entry(name).or_insert(id);
                }
            }
        }
    }

    /// The text the spans are in.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// The name `id` had in the text, without `%` (`foo` for `%foo`).
    pub fn text_name(&self, id: u32) -> Option<&'t str> {
        self.names.get(&id).map(|&(s, e)| &self.text[s as usize + 1..e as usize])
    }

    /// The id that `name` (without `%`) stood for in the text.
    pub fn id_named(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    /// The instruction written at word `offset`, `word_count` words long.
    pub(crate) fn inst(&self, offset: usize, word_count: usize) -> Option<&InstSpan> {
        let k = self.insts.binary_search_by_key(&offset, |i| i.offset as usize).ok()?;
        let inst = &self.insts[k];
        (inst.word_count as usize == word_count).then_some(inst)
    }

    /// The token that wrote from word `word` of `inst` on.
    pub(crate) fn token_at_word(&self, inst: &InstSpan, word: usize) -> Option<Range<usize>> {
        let tokens = &self.tokens[inst.tokens_at as usize..(inst.tokens_at + inst.tokens_len) as usize];
        let k = tokens.binary_search_by_key(&word, |t| t.word as usize).ok()?;
        Some(tokens[k].start as usize..tokens[k].end as usize)
    }

    /// The word offset of the instruction whose text holds byte `at`: from
    /// its result id (or opcode) to the end of its last operand.
    pub(crate) fn inst_offset_at(&self, at: usize) -> Option<usize> {
        let k = self.insts.partition_point(|i| i.start as usize <= at).checked_sub(1)?;
        let inst = &self.insts[k];
        (at < inst.end as usize).then_some(inst.offset as usize)
    }
}

impl InstSpan {
    /// Its bytes, from its result id (or opcode) to the end of its last
    /// operand.
    pub(crate) fn bytes(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}
