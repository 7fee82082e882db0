//! A map from ids to small values whose memory is bounded by the input size,
//! not by the header's bound (which is attacker-controlled).

use rustc_hash::FxHashMap;

/// Dense storage for ids below a cap, a hash map above it.
#[derive(Debug, Clone)]
pub struct IdMap<T: Copy> {
    dense: Vec<Option<T>>,
    cap: usize,
    sparse: FxHashMap<u32, T>,
}

impl<T: Copy> IdMap<T> {
    /// `cap` bounds the dense part; pass something proportional to the input
    /// length (every defined id costs at least one word).
    pub fn with_cap(cap: usize) -> Self {
        IdMap { dense: Vec::new(), cap, sparse: FxHashMap::default() }
    }

    /// The value stored for `id`, if any.
    #[inline]
    pub fn get(&self, id: u32) -> Option<T> {
        let i = id as usize;
        if i < self.cap {
            self.dense.get(i).copied().flatten()
        } else {
            self.sparse.get(&id).copied()
        }
    }

    /// Whether a value is stored for `id`.
    #[inline]
    pub fn contains(&self, id: u32) -> bool {
        self.get(id).is_some()
    }

    /// Inserts or replaces.
    #[inline]
    pub fn insert(&mut self, id: u32, value: T) {
        let i = id as usize;
        if i < self.cap {
            if i >= self.dense.len() {
                let new_len = (i + 1).max(self.dense.len() * 2).min(self.cap);
                self.dense.resize(new_len, None);
            }
            self.dense[i] = Some(value);
        } else {
            self.sparse.insert(id, value);
        }
    }
}

/// Which result ids are defined and the type id of each (type ids map to
/// themselves, untyped results to 0). A bitset plus a plain array keeps the
/// per-instruction cost of the reader to one cache-friendly access.
#[derive(Debug, Clone)]
pub struct IdTypes {
    defined: Vec<u64>,
    types: Vec<u32>,
    cap: usize,
    sparse: FxHashMap<u32, u32>,
}

impl IdTypes {
    /// `cap` bounds the dense part, as for [`IdMap::with_cap`].
    pub fn with_cap(cap: usize) -> Self {
        // Zeroed allocations are mapped lazily, so sizing to the cap up front
        // costs only the pages that ids actually touch.
        IdTypes { defined: vec![0; cap.div_ceil(64)], types: vec![0; cap], cap, sparse: FxHashMap::default() }
    }

    /// Whether `id` has been defined.
    #[inline]
    pub fn is_defined(&self, id: u32) -> bool {
        let i = id as usize;
        if i < self.cap {
            self.defined[i / 64] & (1 << (i % 64)) != 0
        } else {
            self.sparse.contains_key(&id)
        }
    }

    /// Records a definition; false if `id` was already defined.
    #[inline]
    pub fn define(&mut self, id: u32, type_id: u32) -> bool {
        let i = id as usize;
        if i >= self.cap {
            return self.sparse.insert(id, type_id).is_none();
        }
        let bit = 1u64 << (i % 64);
        let word = &mut self.defined[i / 64];
        if *word & bit != 0 {
            return false;
        }
        *word |= bit;
        self.types[i] = type_id;
        true
    }

    /// The type id recorded for `id`, 0 if it has none or is not defined:
    /// one load for ids under the cap.
    #[inline(always)]
    pub fn type_or_zero(&self, id: u32) -> u32 {
        match self.types.get(id as usize) {
            Some(&t) => t,
            None => self.sparse_type_or_zero(id),
        }
    }

    #[cold]
    #[inline(never)]
    fn sparse_type_or_zero(&self, id: u32) -> u32 {
        self.sparse.get(&id).copied().unwrap_or(0)
    }

    /// The type id recorded for a defined id.
    #[inline]
    pub fn type_of(&self, id: u32) -> Option<u32> {
        if !self.is_defined(id) {
            return None;
        }
        let i = id as usize;
        if i < self.cap {
            Some(self.types[i])
        } else {
            self.sparse.get(&id).copied()
        }
    }
}
