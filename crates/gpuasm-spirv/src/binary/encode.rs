//! Writing SPIR-V binaries: the [`Encoder`] owns a module's header (magic,
//! version, generator, bound, schema), its words and where they go, and
//! writes the bound itself once it is known.
//!
//! A module is built in memory, or streamed to a [`Sink`] (a file, say) a
//! chunk at a time so that the whole binary is never held: the header's
//! five words are written as zeros first and fixed at the end by seeking
//! back, since the bound is known only when every id has been read.
//!
//! ```
//! use gpuasm_spirv::binary::encode::Encoder;
//! let mut e = Encoder::new(0x0001_0600, 0);
//! e.push(0x0002_0011); // OpCapability
//! e.push(1); // Shader
//! let words = e.finish(1).unwrap();
//! assert_eq!(words, [0x0723_0203, 0x0001_0600, 0, 1, 0, 0x0002_0011, 1]);
//!
//! let mut file = std::io::Cursor::new(Vec::new());
//! let mut e = Encoder::streaming(0x0001_0600, 0, &mut file);
//! e.extend_from_slice(&[0x0002_0011, 1]);
//! e.finish(1).unwrap();
//! assert_eq!(file.into_inner(), gpuasm_spirv::binary::words_as_le_bytes(&words));
//! ```

use super::{words_as_le_bytes, HEADER_WORDS, MAGIC};
use std::io::{Seek, SeekFrom, Write};

/// Where a streaming [`Encoder`] writes: bytes in order, then the header
/// over the first 20 of them.
pub trait Sink: Write + Seek {}

impl<T: Write + Seek + ?Sized> Sink for T {}

/// A module's words on their way out; see the [module documentation](self).
pub struct Encoder<'o> {
    /// The header's version and generator words; `None` for a fragment
    /// (words with no header of their own).
    header: Option<(u32, u32)>,
    /// Words not yet written to the sink (all of them, in memory).
    words: Vec<u32>,
    sink: Option<&'o mut dyn Sink>,
    /// Words already written to the sink (or dropped).
    flushed: usize,
    /// Bytes written to the sink.
    written: u64,
    /// The output will be thrown away: words are no longer written.
    discarding: bool,
    error: Option<std::io::Error>,
}

impl<'o> Encoder<'o> {
    /// A module built in memory, with room kept for its header.
    pub fn new(version: u32, generator: u32) -> Self {
        Self::with_capacity(version, generator, 0)
    }

    /// A module built in memory, with room for `capacity` words.
    pub fn with_capacity(version: u32, generator: u32, capacity: usize) -> Self {
        Self::start(Some((version, generator)), Vec::with_capacity(capacity.max(HEADER_WORDS)), None)
    }

    /// A module streamed to `sink` from its current position.
    pub fn streaming(version: u32, generator: u32, sink: &'o mut dyn Sink) -> Self {
        Self::start(Some((version, generator)), Vec::with_capacity(Self::CHUNK + 0x1_0000), Some(sink))
    }

    /// Words without a header (a piece of a module), collected in `buffer`
    /// or streamed to `sink`.
    pub fn fragment(buffer: Vec<u32>, sink: Option<&'o mut dyn Sink>) -> Self {
        Self::start(None, buffer, sink)
    }

    fn start(header: Option<(u32, u32)>, words: Vec<u32>, sink: Option<&'o mut dyn Sink>) -> Self {
        let mut e = Encoder { header, words, sink, flushed: 0, written: 0, discarding: false, error: None };
        if e.header.is_some() {
            e.words.resize(HEADER_WORDS, 0);
        }
        e
    }

    /// Words a streaming encoder collects before writing them out.
    pub const CHUNK: usize = 1 << 14;

    /// Reserves room for `more` words.
    pub fn reserve(&mut self, more: usize) {
        self.words.reserve(more);
    }

    /// Appends a word.
    #[inline(always)]
    pub fn push(&mut self, word: u32) {
        self.words.push(word);
    }

    /// Appends words.
    #[inline]
    pub fn extend_from_slice(&mut self, words: &[u32]) {
        self.words.extend_from_slice(words);
    }

    /// The words not yet written out (the header's place included, until
    /// it is): indices into [`Encoder::pending`] and [`Encoder::truncate`]
    /// count from the first of them.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether no word is waiting to be written out.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Words in all: written out and waiting (the header's five included).
    #[inline(always)]
    pub fn position(&self) -> usize {
        self.flushed + self.words.len()
    }

    /// The words not yet written out, to read or change.
    #[inline(always)]
    pub fn pending(&mut self) -> &mut [u32] {
        &mut self.words
    }

    /// The buffer of words not yet written out, for functions that append
    /// to a `Vec<u32>`.
    #[inline(always)]
    pub fn buffer(&mut self) -> &mut Vec<u32> {
        &mut self.words
    }

    /// Drops the words waiting from `len` on.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.words.truncate(len);
    }

    /// Writes out the words waiting, if at least [`Encoder::CHUNK`] are.
    #[inline]
    pub fn flush_if_full(&mut self) {
        if self.words.len() >= Self::CHUNK {
            self.flush();
        }
    }

    /// Writes out the words waiting (when streaming; in memory they stay).
    pub fn flush(&mut self) {
        let Some(sink) = self.sink.as_mut() else { return };
        if !self.discarding && self.error.is_none() {
            let bytes = words_as_le_bytes(&self.words);
            match sink.write_all(bytes) {
                Ok(()) => self.written += bytes.len() as u64,
                Err(e) => self.error = Some(e),
            }
        }
        self.flushed += self.words.len();
        self.words.clear();
    }

    /// Appends `words` after those waiting; when streaming they go straight
    /// to the sink.
    pub fn append(&mut self, words: &[u32]) {
        if self.sink.is_none() {
            self.words.extend_from_slice(words);
            return;
        }
        self.flush();
        self.write_bytes(words_as_le_bytes(words));
    }

    /// Streams whole words, as little-endian bytes, straight after the
    /// words written out (call [`Encoder::flush`] first). Nothing is written
    /// once discarding or after a failure.
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        debug_assert!(self.words.is_empty() && bytes.len().is_multiple_of(4));
        if let (Some(sink), false, None) = (self.sink.as_mut(), self.discarding, &self.error) {
            match sink.write_all(bytes) {
                Ok(()) => self.written += bytes.len() as u64,
                Err(e) => self.error = Some(e),
            }
        }
        self.flushed += bytes.len() / 4;
    }

    /// Whether this encoder streams to a sink.
    pub fn is_streaming(&self) -> bool {
        self.sink.is_some()
    }

    /// The output will be thrown away (the text has errors): write nothing
    /// more.
    pub fn discard(&mut self) {
        self.discarding = true;
    }

    /// Records a failure met while producing words (reading a spill file,
    /// say): the encoder writes nothing more and reports it.
    pub fn fail(&mut self, error: std::io::Error) {
        self.error.get_or_insert(error);
    }

    /// Whether a write failed.
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Takes the first write error, if any.
    pub fn take_error(&mut self) -> Option<std::io::Error> {
        self.error.take()
    }

    /// The module's header, with `bound` (zeros but the magic for a
    /// fragment).
    pub fn header(&self, bound: u32) -> [u32; HEADER_WORDS] {
        let (version, generator) = self.header.unwrap_or_default();
        [MAGIC, version, generator, bound, 0]
    }

    /// Ends the module: writes the header with `bound`. In memory, returns
    /// the whole module; streaming, writes out the words waiting, fixes the
    /// header at the start of the sink, leaves the sink at the end of the
    /// module, and returns no words.
    pub fn finish(mut self, bound: u32) -> std::io::Result<Vec<u32>> {
        let header = self.header(bound);
        if self.sink.is_none() {
            let mut words = std::mem::take(&mut self.words);
            if self.header.is_some() {
                words[..HEADER_WORDS].copy_from_slice(&header);
            }
            return Ok(words);
        }
        self.flush();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let sink = self.sink.take().expect("streaming");
        if self.discarding {
            return Err(std::io::Error::other("the output was discarded"));
        }
        if self.header.is_some() {
            // Written as zeros where the sink stood when streaming began.
            let end = sink.stream_position()?;
            let start = end - self.written;
            sink.seek(SeekFrom::Start(start))?;
            sink.write_all(words_as_le_bytes(&header))?;
            sink.seek(SeekFrom::Start(end))?;
        }
        Ok(Vec::new())
    }

    /// Ends a fragment: the words still in memory, how many words were
    /// written in all, and the first write error.
    pub fn finish_fragment(mut self) -> (Vec<u32>, usize, Option<std::io::Error>) {
        self.flush();
        (std::mem::take(&mut self.words), self.flushed, self.error.take())
    }
}

impl std::fmt::Debug for Encoder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Encoder")
            .field("header", &self.header)
            .field("pending", &self.words.len())
            .field("flushed", &self.flushed)
            .field("streaming", &self.sink.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_in_chunks_and_fixes_the_header_last() {
        let mut file = std::io::Cursor::new(b"keep".to_vec());
        file.set_position(4);
        let mut e = Encoder::streaming(0x0001_0300, 7, &mut file);
        for i in 0..3 * Encoder::CHUNK as u32 {
            e.push(i);
            e.flush_if_full();
        }
        e.append(&[1, 2]);
        assert_eq!(e.position(), 5 + 3 * Encoder::CHUNK + 2);
        e.finish(9).unwrap();
        let end = file.position();
        let bytes = file.into_inner();
        assert_eq!(end as usize, bytes.len());
        assert_eq!(&bytes[..4], b"keep");
        assert_eq!(&bytes[4..24], words_as_le_bytes(&[MAGIC, 0x0001_0300, 7, 9, 0]));
        assert_eq!(&bytes[24..28], &0u32.to_le_bytes());
        assert_eq!(&bytes[bytes.len() - 8..], words_as_le_bytes(&[1, 2]));
    }

    #[test]
    fn a_discarded_stream_writes_nothing_more() {
        let mut file = std::io::Cursor::new(Vec::new());
        let mut e = Encoder::streaming(0x0001_0000, 0, &mut file);
        e.push(1);
        e.flush();
        e.discard();
        e.push(2);
        e.flush();
        assert_eq!(e.position(), 7);
        drop(e);
        assert_eq!(file.into_inner().len(), 24);
    }

    #[test]
    fn fragments_have_no_header() {
        let mut e = Encoder::fragment(Vec::new(), None);
        e.extend_from_slice(&[4, 5]);
        assert_eq!(e.finish_fragment().0, [4, 5]);
        let e = Encoder::new(0x0001_0000, 0);
        assert_eq!(e.finish(1).unwrap(), [MAGIC, 0x0001_0000, 0, 1, 0]);
    }
}
