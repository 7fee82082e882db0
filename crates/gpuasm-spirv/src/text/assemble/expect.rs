//! The operands an instruction still expects, as spirv-as keeps them: a
//! stack built from the grammar's operand list, which enumerant parameters,
//! extended instructions and OpSpecConstantOp extend as they are read, and
//! which `!<integer>` turns into "any value".

use crate::grammar::{Category, OperandKind, OperandSpec, Quantifier};

/// An entry of the expected-operand stack.
#[derive(Copy, Clone, Debug)]
enum Expect {
    /// One operand of a kind; an optional one may be absent.
    One { kind: OperandKind, optional: bool, name: &'static str },
    /// Zero or more of a kind (expands lazily into itself plus an optional).
    Repeat(OperandKind),
    /// Zero or more pairs of a composite kind.
    RepeatPair(OperandKind),
    /// After `!<integer>`: a number, string or id, whatever comes.
    AnyValue,
}

/// The next operand to read.
#[derive(Copy, Clone, Debug)]
pub(super) struct Operand {
    pub kind: OperandKind,
    /// It may be absent: the instruction may end before it.
    pub optional: bool,
    /// Its name in the grammar, for messages ("" if none).
    pub name: &'static str,
    /// Any value will do (after `!<integer>`): a number, string or id.
    pub any: bool,
}

/// The expected-operand stack; the top is the next operand.
#[derive(Debug)]
pub(super) struct Expected(Vec<Expect>);

impl Expected {
    pub fn new() -> Self {
        Expected(Vec::with_capacity(16))
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The next operand, expanding repeated ones lazily.
    pub fn next(&mut self) -> Option<Operand> {
        loop {
            let exp = self.0.pop()?;
            let (kind, optional, name, any) = match exp {
                Expect::Repeat(kind) => {
                    self.0.push(exp);
                    self.0.push(Expect::One { kind, optional: true, name: "" });
                    continue;
                }
                Expect::RepeatPair(kind) => {
                    self.0.push(exp);
                    let b = kind.info().bases;
                    // The first half of each pair is optional, the second not.
                    self.0.push(Expect::One { kind: b[1], optional: false, name: "" });
                    self.0.push(Expect::One { kind: b[0], optional: true, name: "" });
                    continue;
                }
                Expect::AnyValue => (OperandKind::IdRef, true, "", true),
                Expect::One { kind, optional, name } => (kind, optional, name, false),
            };
            return Some(Operand { kind, optional, name, any });
        }
    }

    /// Pushes grammar operand specs (in text order) onto the stack.
    pub fn push_specs(&mut self, specs: &'static [OperandSpec]) {
        for s in specs.iter().rev() {
            let e = match s.quantifier {
                Quantifier::One => Expect::One { kind: s.kind, optional: false, name: s.name },
                Quantifier::Optional => Expect::One { kind: s.kind, optional: true, name: s.name },
                Quantifier::Variadic => match s.kind {
                    // spirv-as reads `PairIdRefIdRef*` as any number of ids.
                    OperandKind::PairIdRefIdRef => Expect::Repeat(OperandKind::IdRef),
                    k if k.info().category == Category::Composite => Expect::RepeatPair(k),
                    k => Expect::Repeat(k),
                },
            };
            self.0.push(e);
        }
    }

    /// Any number of operands of `kind` follow.
    pub fn push_repeat(&mut self, kind: OperandKind) {
        self.0.push(Expect::Repeat(kind));
    }

    /// One more value of any kind follows (after `!<integer>`).
    pub fn push_any(&mut self) {
        self.0.push(Expect::AnyValue);
    }

    /// A composite operand (a pair) read from its first word: its later
    /// parts are expected next; returns the first part's kind.
    pub fn split_composite(&mut self, kind: OperandKind) -> OperandKind {
        let bases = kind.info().bases;
        for &b in bases[1..].iter().rev() {
            self.0.push(Expect::One { kind: b, optional: false, name: "" });
        }
        bases[0]
    }

    /// After `!<integer>`, the rest of the instruction is read without the
    /// grammar (seed 000), except that a pending result id is still placed.
    pub fn alternate_pattern(&mut self) {
        let result_at = self.0.iter().rposition(|e| matches!(e, Expect::One { kind: OperandKind::IdResult, .. }));
        match result_at {
            Some(i) => {
                let above = self.0.len() - 1 - i;
                self.0.clear();
                self.0.push(Expect::AnyValue);
                self.0.push(Expect::One { kind: OperandKind::IdResult, optional: false, name: "" });
                for _ in 0..above {
                    self.0.push(Expect::AnyValue);
                }
            }
            None => {
                self.0.clear();
                self.0.push(Expect::AnyValue);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(e: &mut Expected, n: usize) -> Vec<(OperandKind, bool)> {
        (0..n).map_while(|_| e.next()).map(|o| (o.kind, o.optional)).collect()
    }

    #[test]
    fn repeats_expand_lazily() {
        let mut e = Expected::new();
        e.push_repeat(OperandKind::IdRef);
        assert_eq!(kinds(&mut e, 3), [(OperandKind::IdRef, true); 3]);
        e.clear();
        e.0.push(Expect::RepeatPair(OperandKind::PairLiteralIntegerIdRef));
        let pairs = [(OperandKind::LiteralInteger, true), (OperandKind::IdRef, false)];
        assert_eq!(kinds(&mut e, 4), [pairs, pairs].concat());
    }

    #[test]
    fn any_value_keeps_a_pending_result() {
        let mut e = Expected::new();
        e.0.push(Expect::One { kind: OperandKind::IdRef, optional: false, name: "" });
        e.0.push(Expect::One { kind: OperandKind::IdResult, optional: false, name: "" });
        e.0.push(Expect::One { kind: OperandKind::IdResultType, optional: false, name: "" });
        e.alternate_pattern();
        let next: Vec<(OperandKind, bool)> = (0..3).map_while(|_| e.next()).map(|o| (o.kind, o.any)).collect();
        assert_eq!(next, [(OperandKind::IdRef, true), (OperandKind::IdResult, false), (OperandKind::IdRef, true)]);
    }
}
