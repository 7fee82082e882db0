//! Lookups by short names (opcodes, enumerants, id names), the hot part of
//! reading assembly text: a hash that reads a short name in one or two
//! loads and an equality test that does not call into libc.

use hashbrown::HashTable;

/// A read-only map from names to small values, built once.
pub struct NameMap<T: Copy> {
    table: HashTable<(&'static str, T)>,
}

impl<T: Copy> NameMap<T> {
    /// Builds the map; the first entry of a name wins.
    pub fn new(entries: impl IntoIterator<Item = (&'static str, T)>) -> Self {
        let mut table: HashTable<(&'static str, T)> = HashTable::new();
        for (name, value) in entries {
            let hash = hash_name(name);
            if table.find(hash, |e| same_name(e.0.as_bytes(), name.as_bytes())).is_none() {
                table.insert_unique(hash, (name, value), |e| hash_name(e.0));
            }
        }
        NameMap { table }
    }

    #[inline]
    pub fn get(&self, name: &str) -> Option<T> {
        self.table.find(hash_name(name), |e| same_name(e.0.as_bytes(), name.as_bytes())).map(|e| e.1)
    }
}

/// A hash of a name. Names are short and hashing them is the assembler's
/// hottest work with friendly names, so short names are read with two
/// overlapping loads rather than byte by byte.
#[inline]
pub fn hash_name(name: &str) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let b = name.as_bytes();
    let n = b.len();
    let mix = |h: u64, w: u64| (h ^ w).wrapping_mul(K).rotate_left(26);
    let mut h = n as u64;
    if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            h = mix(h, load64(b, i));
            i += 8;
        }
        h = mix(h, load64(b, n - 8));
    } else if n >= 4 {
        h = mix(h, (load32(b, 0) as u64) << 32 | load32(b, n - 4) as u64);
    } else if n > 0 {
        h = mix(h, (b[0] as u64) << 16 | (b[n / 2] as u64) << 8 | b[n - 1] as u64);
    }
    h.wrapping_mul(K)
}

#[inline]
fn load64(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().expect("eight bytes"))
}

#[inline]
fn load32(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[i..i + 4].try_into().expect("four bytes"))
}

/// Byte equality without a call into libc for the usual short names.
#[inline]
pub fn same_name(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0..=3 => a.iter().zip(b).all(|(x, y)| x == y),
        4..=8 => load32(a, 0) == load32(b, 0) && load32(a, n - 4) == load32(b, n - 4),
        9..=16 => load64(a, 0) == load64(b, 0) && load64(a, n - 8) == load64(b, n - 8),
        _ => a == b,
    }
}
