//! Finished words on their way to the encoder: whole instructions from the
//! general path, and, for a worker thread reading part of a large text,
//! marks on the words that hold its local ids (see `split.rs`).

use super::{ids, Assembler};
use crate::binary::encode::Encoder;

impl<'t> Assembler<'t, '_> {
    /// Appends an id word to the output (the shortcut's way).
    #[inline(always)]
    pub(super) fn push_out_id(&mut self, id: u32) {
        if id & ids::LOCAL != 0 {
            self.mark_local(self.out.position());
        }
        self.out.push(id);
    }

    /// Appends an id word to the current instruction (the general way).
    pub(super) fn push_word_id(&mut self, id: u32) {
        if id & ids::LOCAL != 0 && self.worker {
            self.words_local.push(self.words.len() as u32);
        }
        self.words.push(id);
    }

    /// Records that word `i` of the output (counting words flushed) holds a
    /// worker's local id.
    #[inline]
    pub(super) fn mark_local(&mut self, i: usize) {
        if self.worker {
            if i / 64 >= self.marks.len() {
                self.marks.resize((i / 64 + 1).max(self.marks.len() * 2), 0);
            }
            self.marks[i / 64] |= 1 << (i % 64);
        }
    }

    /// Drops output words from `len` on (and their marks).
    pub(super) fn truncate_out(&mut self, len: usize) {
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

    /// Notes, when spans are recorded, that bytes `start..end` wrote the
    /// current instruction's words from `word` on (nothing if they wrote
    /// none).
    #[inline]
    pub(super) fn record(&mut self, word: usize, start: usize, end: usize) {
        if let Some(spans) = &mut self.spans {
            if self.words.len() > word {
                spans.token(word, start, end);
            }
        }
    }

    /// Appends the current instruction's words to the output.
    pub(super) fn emit_words(&mut self) {
        let at = self.out.position();
        if let Some(spans) = &mut self.spans {
            spans.commit(at, self.words.len());
        }
        self.out.extend_from_slice(&self.words);
        for k in 0..self.words_local.len() {
            self.mark_local(at + self.words_local[k] as usize);
        }
    }

    /// Streaming: writes out the buffered words. Once the text has an error
    /// (the output will be discarded) or a write failed, words are dropped.
    pub(super) fn flush_out(&mut self) {
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
    pub(super) fn flush_if_full(&mut self) {
        if self.out.len() >= Encoder::CHUNK && self.out.is_streaming() {
            self.flush_out();
        }
    }
}
