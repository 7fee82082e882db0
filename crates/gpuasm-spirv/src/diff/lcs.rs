//! The longest common subsequence of two instruction lists, walked the way
//! spirv-diff walks it: the table is filled on demand from `(0, 0)` (a
//! matching pair advances both sides; otherwise the longer of "skip src"
//! and "skip dst" wins), and the match is read back preferring to skip a
//! src element when both choices are equally long.

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

/// Cells a comparison may fill; past this the functions are reported as too
/// large rather than allocating without bound.
pub(crate) const MAX_CELLS: usize = 1 << 26;

/// Which elements of each side belong to the subsequence.
pub(crate) struct Matched {
    pub src: Vec<bool>,
    pub dst: Vec<bool>,
    /// The subsequence's length.
    pub length: u32,
}

/// Matches `src_len` elements against `dst_len` with `matches(i, j)`.
/// `None` when the table would exceed [`MAX_CELLS`].
pub(crate) fn longest_common_subsequence(
    src_len: usize,
    dst_len: usize,
    mut matches: impl FnMut(usize, usize) -> bool,
) -> Option<Matched> {
    let cells = src_len.checked_mul(dst_len)?;
    if cells > MAX_CELLS {
        return None;
    }
    let mut table = vec![Cell::default(); cells];
    let at = |i: usize, j: usize| i * dst_len + j;
    let in_bounds = |i: usize, j: usize| i < src_len && j < dst_len;
    let length = |table: &[Cell], i: usize, j: usize| if in_bounds(i, j) { table[at(i, j)].length() } else { 0 };
    let done = |table: &[Cell], i: usize, j: usize| !in_bounds(i, j) || table[at(i, j)].0 & Cell::VALID != 0;

    if cells > 0 {
        let mut stack = vec![(0usize, 0usize)];
        while let Some((i, j)) = stack.pop() {
            if table[at(i, j)].0 & Cell::VALID != 0 {
                continue;
            }
            if matches(i, j) {
                if done(&table, i + 1, j + 1) {
                    let len = (length(&table, i + 1, j + 1) + 1) & (Cell::MATCHED - 1);
                    table[at(i, j)] = Cell(len | Cell::MATCHED | Cell::VALID);
                } else {
                    stack.push((i, j));
                    stack.push((i + 1, j + 1));
                }
                continue;
            }
            let src_done = done(&table, i + 1, j);
            let dst_done = done(&table, i, j + 1);
            if src_done && dst_done {
                let len = length(&table, i + 1, j).max(length(&table, i, j + 1));
                table[at(i, j)] = Cell(len | Cell::VALID);
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
        if table[at(i, j)].0 & Cell::MATCHED != 0 {
            src[i] = true;
            dst[j] = true;
            i += 1;
            j += 1;
        } else if length(&table, i + 1, j) >= length(&table, i, j + 1) {
            i += 1;
        } else {
            j += 1;
        }
    }
    Some(Matched { src, dst, length: length(&table, 0, 0) })
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

    #[test]
    fn empty_sides() {
        let m = longest_common_subsequence(0, 3, |_, _| true).unwrap();
        assert_eq!((m.length, m.dst.len()), (0, 3));
    }
}
