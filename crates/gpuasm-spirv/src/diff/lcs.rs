//! The longest common subsequence of two instruction lists, walked the way
//! spirv-diff walks it: the table is filled on demand from `(0, 0)` (a
//! matching pair advances both sides; otherwise the longer of "skip src"
//! and "skip dst" wins), and the match is read back preferring to skip a
//! src element when both choices are equally long.

use rustc_hash::FxHashMap;

/// One table cell: the best length from here (30 bits), whether the pair
/// matched, and whether the cell is filled.
#[derive(Copy, Clone, Default)]
struct Cell(u32);

impl Cell {
    const MATCHED: u32 = 1 << 30;
    const VALID: u32 = 1 << 31;

    fn length(self) -> u32 {
        self.0 & (Self::MATCHED - 1)
    }
}

/// Cells up to which the table is one array of every cell (256 MB): the
/// fill visits a fraction of them, but reads and writes of an array cost
/// least.
pub(crate) const MAX_CELLS: usize = 1 << 26;

/// Cells a comparison of larger functions may fill, kept in a hash map of
/// the filled ones: past this the functions are reported as too large
/// rather than allocating without bound. spirv-diff allocates every cell
/// whatever the size. The fill from `(0, 0)` visits one cell per element
/// while the two sides match (a function of 63,000 instructions against
/// itself: 0.09 s, where spirv-diff takes 32 s), and after the first
/// mismatch a band that widens to the ends (the same function with 12
/// instructions changed passes this cap in 2.2 s at 175 MB; spirv-diff
/// takes 3 min 45 s).
pub(crate) const MAX_FILLED: usize = 1 << 22;

/// The table's cells, by src and dst position: unfilled ones read as
/// [`Cell::default`].
trait Table {
    fn get(&self, i: usize, j: usize) -> Cell;
    /// False when the cell cannot be kept (the sparse table is full).
    fn set(&mut self, i: usize, j: usize, cell: Cell) -> bool;
}

/// Every cell, row by row.
struct Dense {
    cells: Vec<Cell>,
    dst_len: usize,
}

impl Table for Dense {
    #[inline]
    fn get(&self, i: usize, j: usize) -> Cell {
        self.cells[i * self.dst_len + j]
    }

    #[inline]
    fn set(&mut self, i: usize, j: usize, cell: Cell) -> bool {
        self.cells[i * self.dst_len + j] = cell;
        true
    }
}

/// The filled cells only, at most `cap` of them.
struct Sparse {
    cells: FxHashMap<(u32, u32), Cell>,
    cap: usize,
}

impl Sparse {
    fn with_cap(cap: usize) -> Self {
        Sparse { cells: FxHashMap::default(), cap }
    }
}

impl Table for Sparse {
    #[inline]
    fn get(&self, i: usize, j: usize) -> Cell {
        self.cells.get(&(i as u32, j as u32)).copied().unwrap_or_default()
    }

    #[inline]
    fn set(&mut self, i: usize, j: usize, cell: Cell) -> bool {
        if self.cells.len() >= self.cap {
            return false;
        }
        self.cells.insert((i as u32, j as u32), cell);
        true
    }
}

/// Which elements of each side belong to the subsequence.
pub(crate) struct Matched {
    pub src: Vec<bool>,
    pub dst: Vec<bool>,
    /// The subsequence's length.
    pub length: u32,
}

/// Matches `src_len` elements against `dst_len` with `matches(i, j)`.
/// `None` when the fill would pass [`MAX_FILLED`] cells of a table larger
/// than [`MAX_CELLS`].
pub(crate) fn longest_common_subsequence(
    src_len: usize,
    dst_len: usize,
    matches: impl FnMut(usize, usize) -> bool,
) -> Option<Matched> {
    match src_len.checked_mul(dst_len) {
        Some(cells) if cells <= MAX_CELLS => {
            let mut table = Dense { cells: vec![Cell::default(); cells], dst_len };
            fill_and_read(&mut table, src_len, dst_len, matches)
        }
        // Positions are kept as u32 (a module has fewer words than that).
        _ if src_len <= u32::MAX as usize && dst_len <= u32::MAX as usize => {
            fill_and_read(&mut Sparse::with_cap(MAX_FILLED), src_len, dst_len, matches)
        }
        _ => None,
    }
}

/// Fills `table` from `(0, 0)` as spirv-diff does, then reads the match
/// back; `None` when the table cannot keep a cell.
fn fill_and_read<T: Table>(
    table: &mut T,
    src_len: usize,
    dst_len: usize,
    mut matches: impl FnMut(usize, usize) -> bool,
) -> Option<Matched> {
    let in_bounds = |i: usize, j: usize| i < src_len && j < dst_len;
    let length = |table: &T, i: usize, j: usize| if in_bounds(i, j) { table.get(i, j).length() } else { 0 };
    let done = |table: &T, i: usize, j: usize| !in_bounds(i, j) || table.get(i, j).0 & Cell::VALID != 0;

    if src_len > 0 && dst_len > 0 {
        let mut stack = vec![(0usize, 0usize)];
        while let Some((i, j)) = stack.pop() {
            if table.get(i, j).0 & Cell::VALID != 0 {
                continue;
            }
            if matches(i, j) {
                if done(table, i + 1, j + 1) {
                    let len = (length(table, i + 1, j + 1) + 1) & (Cell::MATCHED - 1);
                    if !table.set(i, j, Cell(len | Cell::MATCHED | Cell::VALID)) {
                        return None;
                    }
                } else {
                    stack.push((i, j));
                    stack.push((i + 1, j + 1));
                }
                continue;
            }
            let src_done = done(table, i + 1, j);
            let dst_done = done(table, i, j + 1);
            if src_done && dst_done {
                let len = length(table, i + 1, j).max(length(table, i, j + 1));
                if !table.set(i, j, Cell(len | Cell::VALID)) {
                    return None;
                }
                continue;
            }
            stack.push((i, j));
            if !src_done {
                stack.push((i + 1, j));
            }
            if !dst_done {
                stack.push((i, j + 1));
            }
        }
    }

    let mut src = vec![false; src_len];
    let mut dst = vec![false; dst_len];
    let (mut i, mut j) = (0, 0);
    while in_bounds(i, j) {
        if table.get(i, j).0 & Cell::MATCHED != 0 {
            src[i] = true;
            dst[j] = true;
            i += 1;
            j += 1;
        } else if length(table, i + 1, j) >= length(table, i, j + 1) {
            i += 1;
        } else {
            j += 1;
        }
    }
    Some(Matched { src, dst, length: length(table, 0, 0) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_subsequence() {
        let a = b"abcbdab";
        let b = b"bdcaba";
        let m = longest_common_subsequence(a.len(), b.len(), |i, j| a[i] == b[j]).unwrap();
        assert_eq!(m.length, 4);
        assert_eq!(m.src.iter().filter(|&&x| x).count(), 4);
        assert_eq!(m.dst.iter().filter(|&&x| x).count(), 4);
    }

    /// Past the dense table's size, sides that match all along fill one
    /// cell per element; sides that never match fill the sparse table up
    /// to its cap and are refused.
    #[test]
    fn large_alike_sides_are_compared_and_large_unlike_ones_refused() {
        let n = 20_000;
        assert!(n * n > MAX_CELLS);
        let m = longest_common_subsequence(n, n, |i, j| i % 7 == j % 7 && i / 7 == j / 7).unwrap();
        assert_eq!(m.length as usize, n);
        assert!(m.src.iter().chain(&m.dst).all(|&x| x));
        // Filling up to the real cap takes 14 s unoptimised: a smaller one.
        assert!(fill_and_read(&mut Sparse::with_cap(10_000), n, n, |_, _| false).is_none());
    }

    /// The sparse table reads back the match the dense one does.
    #[test]
    fn sparse_and_dense_tables_agree() {
        let a = b"abcbdabxxyzzyabcab";
        let b = b"bdcabazzyxabcbb";
        let matches = |i: usize, j: usize| a[i] == b[j];
        let dense = fill_and_read(
            &mut Dense { cells: vec![Cell::default(); a.len() * b.len()], dst_len: b.len() },
            a.len(),
            b.len(),
            matches,
        )
        .unwrap();
        let sparse = fill_and_read(&mut Sparse::with_cap(MAX_FILLED), a.len(), b.len(), matches).unwrap();
        assert_eq!((dense.src, dense.dst, dense.length), (sparse.src, sparse.dst, sparse.length));
    }

    #[test]
    fn empty_sides() {
        let m = longest_common_subsequence(0, 3, |_, _| true).unwrap();
        assert_eq!((m.length, m.dst.len()), (0, 3));
    }
}
