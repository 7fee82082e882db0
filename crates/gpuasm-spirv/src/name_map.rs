//! Lookups by short names (opcodes, enumerants, id names), the hot part of
//! reading assembly text.
//!
//! A name is folded into a [`NameKey`]: two words read with two overlapping
//! loads. For names of up to 16 bytes the key (with the length) is the name
//! itself, so a table can compare keys without touching the name's bytes;
//! only longer names need a byte comparison, and only when their keys match.
//! Tables are open-addressed with the keys inline: a lookup touches one
//! slot, not a control byte, an entry and the text.

/// A name folded into two words and its length.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NameKey {
    /// Names up to 16 bytes: their bytes. Longer: the first 8 bytes.
    pub a: u64,
    /// Names of 9 to 16 bytes: their last 8 bytes. Longer: a hash of the
    /// whole name.
    pub b: u64,
    pub len: u32,
}

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl NameKey {
    #[inline]
    pub fn new(name: &[u8]) -> NameKey {
        let n = name.len();
        let (a, b) = if n > 16 {
            let mut h = n as u64;
            let mut i = 0;
            while i + 8 < n {
                h = (h ^ load64(name, i)).wrapping_mul(K).rotate_left(26);
                i += 8;
            }
            h = (h ^ load64(name, n - 8)).wrapping_mul(K).rotate_left(26);
            (load64(name, 0), h)
        } else if n >= 8 {
            (load64(name, 0), load64(name, n - 8))
        } else if n >= 4 {
            (load32(name, 0) as u64 | (load32(name, n - 4) as u64) << 32, 0)
        } else if n > 0 {
            (name[0] as u64 | (name[n / 2] as u64) << 8 | (name[n - 1] as u64) << 16, 0)
        } else {
            (0, 0)
        };
        NameKey { a, b, len: n as u32 }
    }

    /// Whether equal keys mean equal names.
    #[inline]
    pub fn exact(&self) -> bool {
        self.len <= 16
    }

    /// A hash for a table of `1 << bits` slots. For long names it uses only
    /// `b` and the length, so a table may keep something else in `a`.
    #[inline]
    pub fn slot(&self, bits: u32) -> usize {
        let a = if self.exact() { self.a } else { 0 };
        let h = (a ^ self.b.rotate_left(32) ^ self.len as u64).wrapping_mul(K);
        (h >> (64 - bits)) as usize
    }
}

/// Byte equality without a call into libc for names up to 32 bytes
/// (opcode names such as `OpCompositeConstruct` are longer than 16).
#[inline]
pub fn same_bytes(x: &[u8], y: &[u8]) -> bool {
    let n = x.len();
    if n != y.len() {
        return false;
    }
    match n {
        0..=7 => x == y,
        8..=16 => load64(x, 0) == load64(y, 0) && load64(x, n - 8) == load64(y, n - 8),
        17..=32 => {
            load64(x, 0) == load64(y, 0)
                && load64(x, 8) == load64(y, 8)
                && load64(x, n - 16) == load64(y, n - 16)
                && load64(x, n - 8) == load64(y, n - 8)
        }
        _ => x == y,
    }
}

#[inline]
fn load64(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().expect("eight bytes"))
}

#[inline]
fn load32(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[i..i + 4].try_into().expect("four bytes"))
}

/// A read-only map from names to small values, built once.
pub struct NameMap<T: Copy> {
    /// Slots with `len == 0` are empty (no name is empty).
    keys: Box<[NameKey]>,
    values: Box<[Option<(&'static str, T)>]>,
    bits: u32,
}

impl<T: Copy> NameMap<T> {
    /// Builds the map; the first entry of a name wins.
    pub fn new(entries: impl IntoIterator<Item = (&'static str, T)>) -> Self {
        let entries: Vec<_> = entries.into_iter().filter(|(n, _)| !n.is_empty()).collect();
        // At most a quarter full: probes are short and misses end fast.
        let bits = (entries.len() * 4).next_power_of_two().trailing_zeros().max(4);
        let size = 1usize << bits;
        let mut map = NameMap {
            keys: vec![NameKey { a: 0, b: 0, len: 0 }; size].into_boxed_slice(),
            values: vec![None; size].into_boxed_slice(),
            bits,
        };
        for (name, value) in entries {
            let key = NameKey::new(name.as_bytes());
            let mut i = key.slot(bits);
            loop {
                if map.keys[i].len == 0 {
                    map.keys[i] = key;
                    map.values[i] = Some((name, value));
                    break;
                }
                if map.keys[i] == key && map.values[i].is_some_and(|(n, _)| n == name) {
                    break; // a later duplicate
                }
                i = (i + 1) & (size - 1);
            }
        }
        map
    }

    #[inline]
    pub fn get(&self, name: &str) -> Option<T> {
        let key = NameKey::new(name.as_bytes());
        let mask = self.keys.len() - 1;
        let mut i = key.slot(self.bits);
        loop {
            let k = &self.keys[i];
            if k.len == 0 {
                return None;
            }
            if *k == key {
                let (n, v) = self.values[i]?;
                if key.exact() || same_bytes(n.as_bytes(), name.as_bytes()) {
                    return Some(v);
                }
            }
            i = (i + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_tell_short_names_apart() {
        let names = ["a", "ab", "ba", "abc", "acb", "abcd", "abcde", "abcdefgh", "abcdefghi", "bbcdefghi"];
        for x in names {
            for y in names {
                assert_eq!(NameKey::new(x.as_bytes()) == NameKey::new(y.as_bytes()), x == y, "{x} {y}");
            }
        }
    }

    #[test]
    fn map_finds_every_name_and_nothing_else() {
        let names: Vec<String> = (0..500).map(|i| format!("Name{i}{}", "x".repeat(i % 23))).collect();
        let leaked: Vec<&'static str> = names.iter().map(|s| &*s.clone().leak()).collect();
        let map = NameMap::new(leaked.iter().enumerate().map(|(i, n)| (*n, i)));
        for (i, n) in leaked.iter().enumerate() {
            assert_eq!(map.get(n), Some(i));
        }
        assert_eq!(map.get("Name1xx"), None);
        assert_eq!(map.get(""), None);
        // The first of two equal names wins.
        let map = NameMap::new([("dup", 1), ("dup", 2)]);
        assert_eq!(map.get("dup"), Some(1));
    }
}
