//! Decorations by target: every id's decorations, group decorations
//! copied to the group's targets, found once on first use.

use super::Module;
use crate::grammar::op;
use rustc_hash::FxHashMap;

/// One decoration as applied to an id: (decoration, member or -1, parameter
/// words).
pub(crate) type Applied = (u32, i64, Vec<u32>);

/// Every id's decorations, sorted as spirv-val keeps them (members after the
/// whole id, then by decoration), group decorations copied to the targets.
/// As in spirv-val, OpDecorateString and OpMemberDecorateString register
/// none: their decorations (strings: semantics, user types) bear on no
/// rule, and a decoration they carry that does (Block, BuiltIn) counts as
/// absent.
pub(crate) fn find(m: &Module) -> FxHashMap<u32, Vec<Applied>> {
    let mut map: FxHashMap<u32, Vec<Applied>> = FxHashMap::default();
    let words = |i: usize, from: usize| -> Vec<u32> {
        let inst = &m.insts[i];
        m.words[inst.offset as usize + from..inst.offset as usize + inst.word_count as usize].to_vec()
    };
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        match inst.opcode() {
            op::OpDecorate | op::OpDecorateId if m.operands(i).len() > 1 => {
                map.entry(m.word(i, 0)).or_default().push((m.word(i, 1), -1, words(i, 3)));
            }
            op::OpMemberDecorate if m.operands(i).len() > 2 => {
                let member = i64::from(m.word(i, 1));
                map.entry(m.word(i, 0)).or_default().push((m.word(i, 2), member, words(i, 4)));
            }
            op::OpGroupDecorate => {
                let group: Vec<Applied> = map.get(&m.word(i, 0)).cloned().unwrap_or_default();
                for k in 1..m.operands(i).len() {
                    map.entry(m.word(i, k)).or_default().extend(group.iter().cloned());
                }
            }
            op::OpGroupMemberDecorate => {
                let group: Vec<Applied> = map.get(&m.word(i, 0)).cloned().unwrap_or_default();
                let n = m.operands(i).len();
                for k in (1..n.saturating_sub(1)).step_by(2) {
                    let member = i64::from(m.word(i, k + 1));
                    let list = map.entry(m.word(i, k)).or_default();
                    list.extend(group.iter().map(|(dec, _, p)| (*dec, member, p.clone())));
                }
            }
            op::OpFunction => break,
            _ => {}
        }
    }
    for list in map.values_mut() {
        list.sort_by(|a, b| (a.1, a.0, &a.2).cmp(&(b.1, b.0, &b.2)));
        list.dedup();
    }
    map
}
