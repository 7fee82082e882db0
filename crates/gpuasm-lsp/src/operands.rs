//! Which grammar operand each written word of a statement stands for,
//! read from the grammar tables the way the assembler reads them: result
//! ids are written before `=`, composite kinds take two words, an
//! enumerant's parameters follow it, optional operands are skipped when the
//! word is clearly of another form, and `OpExtInst` continues with the
//! operands of the named extended instruction. Works on text that does not
//! assemble; hover and completion read it.

use crate::syntax::{Syntax, WordKind};
use gpuasm_spirv::grammar::{self, Category, OperandKind, OperandSpec, Quantifier};
use std::collections::VecDeque;

/// One operand slot.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// What the operand is.
    pub kind: OperandKind,
    /// The grammar's name for it (may be empty).
    pub name: &'static str,
}

/// The slots of statement `k`'s operand words, in order (`None` past the
/// end of the grammar's list), and the slots the next word could fill.
pub fn slots(text: &str, syntax: &Syntax, k: usize) -> (Vec<Option<Slot>>, Vec<Slot>) {
    slots_of(text, syntax, k, syntax.operands(k))
}

/// As [`slots`], for the operand words `words` of statement `k` (a prefix
/// of its operands).
pub fn slots_of(
    text: &str,
    syntax: &Syntax,
    k: usize,
    words: std::ops::Range<usize>,
) -> (Vec<Option<Slot>>, Vec<Slot>) {
    let Some(info) = grammar::instruction_by_name(syntax.opcode(text, k)) else {
        return (vec![None; words.len()], Vec::new());
    };
    let mut specs: VecDeque<OperandSpec> =
        info.operands.iter().filter(|s| s.kind != OperandKind::IdResult).copied().collect();
    let mut pending: VecDeque<Slot> = VecDeque::new();
    let mut out = Vec::new();
    let mut previous: Option<usize> = None;
    for w in words {
        let word = syntax.text(text, w);
        let is_id = syntax.words[w].kind == WordKind::Id;
        let slot = pending.pop_front().or_else(|| take(&mut specs, &mut pending, Some(is_id)));
        if let Some(slot) = slot {
            match slot.kind.info().category {
                Category::ValueEnum | Category::BitEnum => {
                    // Parameters of each named enumerant follow, in order.
                    let params = word.split('|').filter_map(|n| slot.kind.enumerant_by_name(n.trim()));
                    let params: Vec<Slot> =
                        params.flat_map(|e| e.parameters.iter().map(|p| Slot { kind: p.kind, name: p.name })).collect();
                    for p in params.into_iter().rev() {
                        pending.push_front(p);
                    }
                }
                _ if slot.kind == OperandKind::LiteralExtInstInteger => {
                    if let Some(ext) = previous.and_then(|p| ext_inst_set(text, syntax, p)) {
                        let found = ext.instruction_by_name(word).or_else(|| ext.instruction(word.parse().ok()?));
                        if let Some(inst) = found {
                            specs = inst.operands.iter().copied().collect();
                        }
                    }
                }
                _ => {}
            }
        }
        out.push(slot);
        previous = Some(w);
    }
    let mut next = Vec::new();
    if let Some(p) = pending.front() {
        next.push(*p);
    } else {
        // The next slot, and those after it while each may be left out.
        for spec in &specs {
            let kind = spec.kind.info().bases.first().copied().unwrap_or(spec.kind);
            next.push(Slot { kind, name: spec.name });
            if spec.quantifier == Quantifier::One || next.len() >= 3 {
                break;
            }
        }
    }
    (out, next)
}

/// The next slot from `specs`: composite kinds put their second half in
/// `pending`. With `is_id` known, optional and repeated slots of the other
/// form (an id where a literal goes, or the reverse) are skipped.
fn take(specs: &mut VecDeque<OperandSpec>, pending: &mut VecDeque<Slot>, is_id: Option<bool>) -> Option<Slot> {
    loop {
        let spec = *specs.front()?;
        let bases = spec.kind.info().bases;
        let first = bases.first().copied().unwrap_or(spec.kind);
        let fits = is_id.is_none_or(|id| (first.info().category == Category::Id) == id);
        if !fits && spec.quantifier != Quantifier::One {
            specs.pop_front();
            continue;
        }
        if spec.quantifier != Quantifier::Variadic {
            specs.pop_front();
        }
        pending.extend(bases.iter().skip(1).map(|&kind| Slot { kind, name: spec.name }));
        return Some(Slot { kind: first, name: spec.name });
    }
}

/// The extended instruction set that the `%set` word `w` imports.
pub fn ext_inst_set(text: &str, syntax: &Syntax, w: usize) -> Option<&'static grammar::ExtInstSet> {
    let k = syntax.def(syntax.text(text, w))?;
    let name = syntax.operands(k).next()?;
    grammar::ext_inst_set(syntax.text(text, name).trim_matches('"'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str, k: usize) -> (Vec<Option<OperandKind>>, Vec<OperandKind>) {
        let syntax = Syntax::new(text);
        let (words, next) = slots(text, &syntax, k);
        (words.into_iter().map(|s| s.map(|s| s.kind)).collect(), next.into_iter().map(|s| s.kind).collect())
    }

    #[test]
    fn operands_follow_the_grammar() {
        use OperandKind::*;
        let (words, next) = kinds("%x = OpLoad %t %p Aligned 4", 0);
        assert_eq!(words, [Some(IdResultType), Some(IdRef), Some(MemoryAccess), Some(LiteralInteger)]);
        assert_eq!(next, []);
        let (_, next) = kinds("%x = OpLoad %t %p ", 0);
        assert_eq!(next, [MemoryAccess]);
        let (_, next) = kinds("%v = OpVariable %p ", 0);
        assert_eq!(next, [StorageClass]);
        let (words, _) = kinds("OpSwitch %s %d 1 %a 2 %b", 0);
        assert_eq!(words[2..].to_vec(), [Some(LiteralInteger), Some(IdRef), Some(LiteralInteger), Some(IdRef)]);
        let text = "%g = OpExtInstImport \"GLSL.std.450\"\n%r = OpExtInst %f %g Sqrt %x\n";
        let (words, _) = kinds(text, 1);
        assert_eq!(words, [Some(IdResultType), Some(IdRef), Some(LiteralExtInstInteger), Some(IdRef)]);
        let (words, next) = kinds("OpNop %x", 0);
        assert_eq!((words, next), (vec![None], vec![]));
    }
}
