//! What makes two instructions of different modules "the same" for the
//! peer's function variants: it counts which modules use each capability,
//! extension, extended instruction set and type by a hash — a
//! capability's number, a name (extensions and imports share the space),
//! or the type manager's structural hash of a type (its operands, the
//! types it refers to, its decorations). Here the structure itself is the
//! key, so equal keys are what the peer's equal hashes mean, short of
//! collisions.

use super::super::ir::{string_at, Ins, Section};
use super::Sections;
use crate::grammar::{capability, op};
use crate::peer_opcodes::generates_type;
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Key {
    Capability(u32),
    Name(String),
    Type(Vec<u32>),
}

/// Markers in a type's key, outside the range of opcodes and operands
/// that could stand in their places.
const CYCLE: u32 = u32::MAX;
const UNDEFINED: u32 = u32::MAX - 1;
const CONSTANT: u32 = u32::MAX - 2;
const VALUE: u32 = u32::MAX - 3;
const DECORATION: u32 = u32::MAX - 4;
const MEMBER_DECORATION: u32 = u32::MAX - 5;
const END: u32 = u32::MAX - 6;

/// Capabilities the peer always enables (never conditional).
const FNVAR_CAPABILITIES: [u32; 2] = [capability::SpecConditionalINTEL, capability::FunctionVariantsINTEL];
pub(super) const FNVAR_EXTENSION: &str = "SPV_INTEL_function_variants";

/// Whether the peer counts `ins` per module (`CanBeFnVarCombined`):
/// capabilities and extensions other than the extension's own, extended
/// instruction imports and types.
pub(super) fn combinable(ins: &Ins) -> bool {
    match ins.opcode() {
        op::OpCapability => ins.words.get(1).is_some_and(|c| !FNVAR_CAPABILITIES.contains(c)),
        op::OpExtension => string_at(ins.words.get(1..).unwrap_or_default()).0 != FNVAR_EXTENSION,
        op::OpExtInstImport => true,
        o => generates_type(o),
    }
}

/// The types and decorations of one module, to key its types by.
pub(super) struct TypeKeys<'a> {
    defs: HashMap<u32, &'a Ins>,
    decorations: HashMap<u32, Vec<&'a [u32]>>,
    member_decorations: HashMap<u32, Vec<&'a [u32]>>,
}

impl<'a> TypeKeys<'a> {
    pub fn new(m: &'a impl Sections) -> TypeKeys<'a> {
        let defs = m.sec(Section::TypesValues).iter().filter_map(|i| Some((i.result_id()?, i))).collect();
        let mut decorations: HashMap<u32, Vec<&[u32]>> = HashMap::new();
        let mut member_decorations: HashMap<u32, Vec<&[u32]>> = HashMap::new();
        for ins in m.sec(Section::Annotations) {
            let (Some(&target), Some(rest)) = (ins.words.get(1), ins.words.get(2..)) else { continue };
            match ins.opcode() {
                op::OpDecorate | op::OpDecorateId | op::OpDecorateString => {
                    decorations.entry(target).or_default().push(rest)
                }
                op::OpMemberDecorate | op::OpMemberDecorateString => {
                    member_decorations.entry(target).or_default().push(rest)
                }
                _ => {}
            }
        }
        for list in member_decorations.values_mut() {
            list.sort_by_key(|d| d.first().copied());
        }
        TypeKeys { defs, decorations, member_decorations }
    }

    /// The key of a combinable instruction.
    pub fn key(&self, ins: &Ins) -> Key {
        let words = &ins.words;
        match ins.opcode() {
            op::OpCapability => Key::Capability(words.get(1).copied().unwrap_or(0)),
            op::OpExtension => Key::Name(string_at(words.get(1..).unwrap_or_default()).0),
            op::OpExtInstImport => Key::Name(string_at(words.get(2..).unwrap_or_default()).0),
            _ => {
                let mut out = Vec::new();
                self.type_key(ins, &mut ins.result_id().into_iter().collect(), &mut out);
                Key::Type(out)
            }
        }
    }

    fn id_key(&self, id: u32, stack: &mut Vec<u32>, out: &mut Vec<u32>) {
        if stack.contains(&id) {
            out.push(CYCLE);
            return;
        }
        match self.defs.get(&id) {
            None => out.extend([UNDEFINED, id]),
            Some(ins) if generates_type(ins.opcode()) => {
                stack.push(id);
                self.type_key(ins, stack, out);
                stack.pop();
            }
            // An array's length: a constant by its value, else by its id.
            Some(ins) if ins.opcode() == op::OpConstant => {
                out.push(CONSTANT);
                out.extend(ins.words.get(3..).unwrap_or_default());
            }
            Some(_) => out.extend([VALUE, id]),
        }
    }

    fn type_key(&self, ins: &Ins, stack: &mut Vec<u32>, out: &mut Vec<u32>) {
        out.push(u32::from(ins.opcode()));
        for (w, &word) in ins.words.iter().enumerate().skip(1) {
            let w16 = w as u16;
            if Some(w16) == ins.result {
                continue;
            }
            if ins.ids.contains(&w16) {
                self.id_key(word, stack, out);
            } else {
                out.push(word);
            }
        }
        if let Some(id) = ins.result_id() {
            for d in self.decorations.get(&id).into_iter().flatten() {
                out.push(DECORATION);
                out.extend(*d);
            }
            for d in self.member_decorations.get(&id).into_iter().flatten() {
                out.push(MEMBER_DECORATION);
                out.extend(*d);
            }
        }
        out.push(END);
    }
}
