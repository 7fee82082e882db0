//! Programs as instructions: the control word and the unit fields packed
//! back to back, LSB first, after it (spec sections 1.2, 1.3). The module
//! owns [`Instruction`], its encoding and [`decode`]; it knows the fields'
//! widths, not their meaning (the assembler and disassembler do).
//!
//! ```
//! use gpuasm_mali::program::{decode, unit, Instruction};
//!
//! let mut inst = Instruction { stop: true, ..Default::default() };
//! inst.fields[unit::CONST0] = Some(0x3c00); // const0 1 0 0 0
//! let mut words = Vec::new();
//! inst.encode(&mut words);
//! assert_eq!(words.len(), inst.len());
//! assert_eq!(decode(&words).unwrap(), (inst, 3));
//! ```

/// Field widths in bits of the twelve units, in field order (= control
/// bit 7 + number).
pub const UNIT_WIDTHS: [u32; 12] = [34, 62, 41, 43, 30, 44, 31, 30, 41, 73, 64, 64];

/// Names of units 0-9 in `raw.<unit>` items.
pub(crate) const RAW_NAMES: [&str; 10] = ["var", "tex", "uni", "v0", "s0", "v1", "s1", "s2", "store", "branch"];

/// The branch unit's discard pattern (spec 3.10).
pub(crate) const DISCARD: u128 = 0x007f_0003;

/// Unit numbers (indices into [`Instruction::fields`]), by name.
///
/// ```
/// use gpuasm_mali::program::{unit, Instruction};
/// let mut inst = Instruction::default();
/// inst.fields[unit::VMUL] = Some(0);
/// assert_eq!(inst.fields.iter().position(Option::is_some), Some(unit::VMUL));
/// ```
pub mod unit {
    /// Varying load, `load.v` and friends.
    pub const VARYING: usize = 0;
    /// Texture sampler, `texld`.
    pub const SAMPLER: usize = 1;
    /// Uniform or temporary load, `load.u` / `load.t`.
    pub const UNIFORM: usize = 2;
    /// Vec4 multiplier, `.v0`.
    pub const VMUL: usize = 3;
    /// Scalar multiplier, `.s0`.
    pub const FMUL: usize = 4;
    /// Vec4 adder, `.v1`.
    pub const VADD: usize = 5;
    /// Scalar adder, `.s1`.
    pub const FADD: usize = 6;
    /// Combiner (transcendentals), `.s2`.
    pub const COMBINER: usize = 7;
    /// Temporary and framebuffer store, `store.t`.
    pub const STORE: usize = 8;
    /// Branch or discard.
    pub const BRANCH: usize = 9;
    /// First embedded constant, four binary16 values.
    pub const CONST0: usize = 10;
    /// Second embedded constant.
    pub const CONST1: usize = 11;
}

/// One instruction, decoded into its control bits and raw unit fields.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Instruction {
    /// Bit 5: the program ends after this instruction.
    pub stop: bool,
    /// Bit 6: needed by an instruction that samples a texture (`texld`) or
    /// takes a derivative (`dFdx`, `dFdy`).
    pub sync: bool,
    /// `next_count` (bits 19-24).
    pub next_count: u32,
    /// Bit 25.
    pub prefetch: bool,
    /// Bits 26-31.
    pub ctrl_unknown: u32,
    /// Each present unit's field bits (bit 0 = the field's first bit).
    pub fields: [Option<u128>; 12],
}

impl Instruction {
    /// Length in words: 1 + ceil(field bits / 32).
    pub fn len(&self) -> usize {
        length_for(&self.fields)
    }

    /// True for an instruction with no unit at all.
    pub fn is_empty(&self) -> bool {
        self.fields.iter().all(Option::is_none)
    }

    /// Packs the instruction into words.
    pub fn encode(&self, out: &mut Vec<u32>) {
        let len = self.len();
        let mut bitmap = 0u32;
        for (i, f) in self.fields.iter().enumerate() {
            if f.is_some() {
                bitmap |= 1 << i;
            }
        }
        let count = if self.is_empty() { 1 } else { len as u32 };
        out.push(
            count
                | (self.stop as u32) << 5
                | (self.sync as u32) << 6
                | bitmap << 7
                | (self.next_count & 63) << 19
                | (self.prefetch as u32) << 25
                | (self.ctrl_unknown & 63) << 26,
        );
        let start = out.len();
        out.resize(start + len - 1, 0);
        let mut pos = 0usize;
        for (i, f) in self.fields.iter().enumerate() {
            if let Some(v) = f {
                put_bits(&mut out[start..], pos, UNIT_WIDTHS[i], *v);
                pos += UNIT_WIDTHS[i] as usize;
            }
        }
    }
}

/// Length in words of an instruction with these fields present.
pub(crate) fn length_for(fields: &[Option<u128>; 12]) -> usize {
    let bits: u32 = fields.iter().zip(UNIT_WIDTHS).filter(|(f, _)| f.is_some()).map(|(_, w)| w).sum();
    1 + bits.div_ceil(32) as usize
}

/// An instruction that cannot be decoded into fields (the disassembler then
/// prints it as raw `words`): why, and how many words to take as one raw
/// instruction to go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
#[non_exhaustive]
pub struct DecodeError {
    /// Why the words are not an instruction.
    pub reason: Undecodable,
    /// Words to skip, at least one: the control word's count when it is
    /// wrong, else what the fields present need (or what is left).
    pub len: usize,
}

/// Why an instruction cannot be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Undecodable {
    /// The control word's `count` does not match the fields present.
    BadCount {
        /// The count written.
        count: u32,
        /// The count the fields present need.
        expected: u32,
    },
    /// The program ends inside the instruction.
    Truncated,
    /// Bits after the last field are not zero.
    Padding,
}

impl std::fmt::Display for Undecodable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Undecodable::BadCount { count, expected } => {
                write!(f, "the control word says {count} words, its units take {expected}")
            }
            Undecodable::Truncated => f.write_str("the program ends inside the instruction"),
            Undecodable::Padding => f.write_str("bits after the last unit field are not zero"),
        }
    }
}

/// Decodes the instruction starting at `words[0]` (`words` must not be
/// empty). Returns it and its length in words.
pub fn decode(words: &[u32]) -> Result<(Instruction, usize), DecodeError> {
    let c = words[0];
    let count = c & 31;
    let bitmap = (c >> 7) & 0xfff;
    let mut present = [None; 12];
    for (i, p) in present.iter_mut().enumerate() {
        if bitmap & (1 << i) != 0 {
            *p = Some(0u128);
        }
    }
    let len = length_for(&present);
    let expected = if bitmap == 0 { 1 } else { len as u32 };
    // A count of 0 would never advance: take one word.
    let raw_len = (count.max(1) as usize).min(words.len());
    if count != expected {
        return Err(DecodeError { reason: Undecodable::BadCount { count, expected }, len: raw_len });
    }
    if words.len() < len {
        return Err(DecodeError { reason: Undecodable::Truncated, len: words.len() });
    }
    let data = &words[1..len];
    let mut fields = [None; 12];
    let mut pos = 0usize;
    for i in 0..12 {
        if present[i].is_some() {
            fields[i] = Some(get_bits(data, pos, UNIT_WIDTHS[i]));
            pos += UNIT_WIDTHS[i] as usize;
        }
    }
    // Padding bits must be zero for the fields to say everything.
    let total = data.len() * 32;
    let mut p = pos;
    while p < total {
        let n = (total - p).min(64) as u32;
        if get_bits(data, p, n) != 0 {
            return Err(DecodeError { reason: Undecodable::Padding, len });
        }
        p += n as usize;
    }
    let inst = Instruction {
        stop: c & (1 << 5) != 0,
        sync: c & (1 << 6) != 0,
        next_count: (c >> 19) & 63,
        prefetch: c & (1 << 25) != 0,
        ctrl_unknown: c >> 26,
        fields,
    };
    Ok((inst, len))
}

/// Reads `width` (≤ 128) bits at bit `pos` of a little-endian word string.
fn get_bits(words: &[u32], pos: usize, width: u32) -> u128 {
    let mut v = 0u128;
    for i in 0..width as usize {
        let b = pos + i;
        if (words[b / 32] >> (b % 32)) & 1 != 0 {
            v |= 1 << i;
        }
    }
    v
}

/// Writes `width` bits of `value` at bit `pos`.
fn put_bits(words: &mut [u32], pos: usize, width: u32, value: u128) {
    for i in 0..width as usize {
        let b = pos + i;
        if (value >> i) & 1 != 0 {
            words[b / 32] |= 1 << (b % 32);
        } else {
            words[b / 32] &= !(1 << (b % 32));
        }
    }
}

/// Extracts `width` bits at `lo` of a field value.
#[inline]
pub(crate) fn bits(v: u128, lo: u32, width: u32) -> u32 {
    ((v >> lo) & ((1u128 << width) - 1)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_1_control_and_packing() {
        // Spec example 1: stop, mov.v0 $0 ^const0.yyyx, const0 1 0 0 0
        let words = [0x0002_0425, 0x0000_015c, 0x01e0_07cf, 0, 0];
        let (inst, len) = decode(&words).unwrap();
        assert_eq!(len, 5);
        assert!(inst.stop && !inst.sync);
        assert_eq!(inst.fields[unit::CONST0], Some(0x3c00));
        let mut out = Vec::new();
        inst.encode(&mut out);
        assert_eq!(out, words);
    }

    #[test]
    fn empty_instruction_is_one_word() {
        let inst = Instruction { stop: true, ..Default::default() };
        let mut out = Vec::new();
        inst.encode(&mut out);
        assert_eq!(out, [0x21]);
        assert_eq!(decode(&out).unwrap().1, 1);
    }
}
