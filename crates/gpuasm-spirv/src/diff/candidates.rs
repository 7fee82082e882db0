//! spirv-diff pairs many things by "the first dst entry, in order, not yet
//! taken, that matches": a scan that is quadratic once thousands of entries
//! are alike. [`Candidates`] gives the same answer faster: entries are
//! bucketed by a key that every match implies equal, so only one bucket is
//! scanned, and taken entries are skipped through a [`FreeList`] rather
//! than visited again.

use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};

/// Positions `0..n`, each free until taken, with the first free one at or
/// after a position found in amortized near-constant time (path halving).
pub(crate) struct FreeList {
    /// `next[k] == k` when `k` is free (or `k == n`); otherwise a position
    /// no later than the first free one after `k`.
    next: Vec<u32>,
}

impl FreeList {
    pub fn new(n: usize) -> FreeList {
        FreeList { next: (0..=n as u32).collect() }
    }

    /// The first free position at or after `k`; `n` when none.
    pub fn find(&mut self, mut k: usize) -> usize {
        while self.next[k] as usize != k {
            let skip = self.next[self.next[k] as usize];
            self.next[k] = skip;
            k = skip as usize;
        }
        k
    }

    pub fn take(&mut self, k: usize) {
        self.next[k] = k as u32 + 1;
    }
}

/// What a src entry may match.
pub(crate) enum Want {
    /// Nothing (the match rule rejects it against every dst entry).
    Never,
    /// Any entry, whatever its key.
    Any,
    /// Only entries with this key.
    Key(u64),
}

/// One bucket: positions (in the whole list) of the entries with a key.
struct Bucket {
    positions: Vec<u32>,
    free: FreeList,
}

/// The dst entries of a scan, by key, with the ones taken so far.
pub(crate) struct Candidates {
    /// Over the whole list, for [`Want::Any`].
    all: FreeList,
    buckets: FxHashMap<u64, Bucket>,
    /// Each position's bucket key and index in it.
    place: Vec<(u64, u32)>,
}

impl Candidates {
    /// `keys[p]` is the key of entry `p`, `None` for an entry no scan may
    /// return (it is taken from the start).
    pub fn new(keys: impl ExactSizeIterator<Item = Option<u64>>) -> Candidates {
        let n = keys.len();
        let mut c = Candidates { all: FreeList::new(n), buckets: FxHashMap::default(), place: Vec::with_capacity(n) };
        let mut skipped = Vec::new();
        for (p, key) in keys.enumerate() {
            let key = key.unwrap_or_else(|| {
                skipped.push(p);
                0
            });
            let bucket =
                c.buckets.entry(key).or_insert_with(|| Bucket { positions: Vec::new(), free: FreeList::new(0) });
            c.place.push((key, bucket.positions.len() as u32));
            bucket.positions.push(p as u32);
        }
        for bucket in c.buckets.values_mut() {
            bucket.free = FreeList::new(bucket.positions.len());
        }
        for p in skipped {
            c.take(p);
        }
        c
    }

    /// Marks entry `p` as taken.
    pub fn take(&mut self, p: usize) {
        self.all.take(p);
        let (key, k) = self.place[p];
        if let Some(bucket) = self.buckets.get_mut(&key) {
            bucket.free.take(k as usize);
        }
    }

    /// The first free entry, in list order, that `want` allows and `accept`
    /// takes (it is then taken); what a scan of the whole list would find,
    /// provided `accept` rejects every entry `want` excludes.
    pub fn take_first(&mut self, want: Want, mut accept: impl FnMut(usize) -> bool) -> Option<usize> {
        let found = match want {
            Want::Never => None,
            Want::Any => {
                let n = self.place.len();
                let mut p = self.all.find(0);
                while p < n && !accept(p) {
                    p = self.all.find(p + 1);
                }
                (p < n).then_some(p)
            }
            Want::Key(key) => {
                let bucket = self.buckets.get_mut(&key)?;
                let n = bucket.positions.len();
                let mut k = bucket.free.find(0);
                while k < n && !accept(bucket.positions[k] as usize) {
                    k = bucket.free.find(k + 1);
                }
                (k < n).then(|| bucket.positions[k] as usize)
            }
        };
        if let Some(p) = found {
            self.take(p);
        }
        found
    }
}

/// A bucket key of anything hashable (a collision only widens a scan).
pub(crate) fn key_of(value: impl Hash) -> u64 {
    let mut h = FxHasher::default();
    value.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_list_skips_taken() {
        let mut f = FreeList::new(5);
        f.take(0);
        f.take(1);
        f.take(3);
        assert_eq!((f.find(0), f.find(3)), (2, 4));
        f.take(4);
        assert_eq!(f.find(3), 5);
    }

    #[test]
    fn first_free_match_in_order() {
        let keys = [Some(1), Some(2), Some(1), None, Some(1)];
        let mut c = Candidates::new(keys.into_iter());
        assert_eq!(c.take_first(Want::Key(1), |_| true), Some(0));
        assert_eq!(c.take_first(Want::Key(1), |p| p == 4), Some(4));
        assert_eq!(c.take_first(Want::Any, |_| true), Some(1));
        assert_eq!(c.take_first(Want::Any, |p| p == 3), None);
        assert_eq!(c.take_first(Want::Key(9), |_| true), None);
        assert_eq!(c.take_first(Want::Never, |_| true), None);
    }
}
