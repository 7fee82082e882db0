//! Programs as instructions: the control word and the unit fields packed
//! back to back, LSB first, after it (spec sections 1.2, 1.3).

/// The twelve units, in field order (= control bit 7 + number).
pub const UNIT_WIDTHS: [u32; 12] = [34, 62, 41, 43, 30, 44, 31, 30, 41, 73, 64, 64];

/// Names of units 0-9 in `raw.<unit>` items.
pub const RAW_NAMES: [&str; 10] = ["var", "tex", "uni", "v0", "s0", "v1", "s1", "s2", "store", "branch"];

/// The discard pattern (spec 3.10).
pub const DISCARD: u128 = 0x007f_0003;

/// Unit numbers, by name.
pub mod unit {
    pub const VARYING: usize = 0;
    pub const SAMPLER: usize = 1;
    pub const UNIFORM: usize = 2;
    pub const VMUL: usize = 3;
    pub const FMUL: usize = 4;
    pub const VADD: usize = 5;
    pub const FADD: usize = 6;
    pub const COMBINER: usize = 7;
    pub const STORE: usize = 8;
    pub const BRANCH: usize = 9;
    pub const CONST0: usize = 10;
    pub const CONST1: usize = 11;
}

/// One instruction, decoded into its control bits and raw unit fields.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Instruction {
    pub stop: bool,
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
pub fn length_for(fields: &[Option<u128>; 12]) -> usize {
    let bits: u32 = fields.iter().zip(UNIT_WIDTHS).filter(|(f, _)| f.is_some()).map(|(_, w)| w).sum();
    1 + bits.div_ceil(32) as usize
}

/// Why an instruction cannot be decoded into fields (the disassembler then
/// prints it as raw `words`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undecodable {
    /// `count` does not match the fields present.
    BadCount { count: u32, expected: u32 },
    /// The program ends inside the instruction.
    Truncated,
    /// Bits after the last field are not zero.
    Padding,
}

/// Decodes the instruction starting at `words[0]`. Returns it and its
/// length, or why it cannot be decoded (with the number of words to take
/// as a raw instruction).
pub fn decode(words: &[u32]) -> Result<(Instruction, usize), (Undecodable, usize)> {
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
        return Err((Undecodable::BadCount { count, expected }, raw_len));
    }
    if words.len() < len {
        return Err((Undecodable::Truncated, words.len()));
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
            return Err((Undecodable::Padding, len));
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
pub fn get_bits(words: &[u32], pos: usize, width: u32) -> u128 {
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
pub fn put_bits(words: &mut [u32], pos: usize, width: u32, value: u128) {
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
pub fn bits(v: u128, lo: u32, width: u32) -> u32 {
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
