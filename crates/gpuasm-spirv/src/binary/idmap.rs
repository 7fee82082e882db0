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
        IdMap {
            dense: Vec::new(),
            cap,
            sparse: FxHashMap::default(),
        }
    }

    #[inline]
    pub fn get(&self, id: u32) -> Option<T> {
        let i = id as usize;
        if i < self.cap {
            self.dense.get(i).copied().flatten()
        } else {
            self.sparse.get(&id).copied()
        }
    }

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
