//! What the assembler remembers of earlier instructions to read later
//! literals: the class of each type id (literal widths of OpConstant) and
//! the integer type of each value (literal widths of OpSwitch).

use super::TypeClass;
use rustc_hash::FxHashMap;

/// Ids below this are kept in a bitset for the per-instruction question
/// "is this an integer type?"; larger ones (rare: preserved numeric ids)
/// are looked up in the map.
const DENSE: u32 = 1 << 24;

#[derive(Default)]
pub(super) struct KnownTypes {
    classes: FxHashMap<u32, TypeClass>,
    /// Integer type ids below [`DENSE`], as bits.
    int_ids: Vec<u64>,
    /// Integer-typed values and their types.
    value_types: FxHashMap<u32, u32>,
}

impl KnownTypes {
    pub fn class(&self, id: u32) -> Option<&TypeClass> {
        self.classes.get(&id)
    }

    pub fn is_declared(&self, id: u32) -> bool {
        self.classes.contains_key(&id)
    }

    pub fn declare(&mut self, id: u32, class: TypeClass) {
        if matches!(class, TypeClass::Int { .. }) && id < DENSE {
            let i = id as usize / 64;
            if i >= self.int_ids.len() {
                self.int_ids.resize(i + 1, 0);
            }
            self.int_ids[i] |= 1 << (id % 64);
        }
        self.classes.insert(id, class);
    }

    /// Undoes [`KnownTypes::declare`].
    pub fn forget(&mut self, id: u32) {
        if let Some(w) = self.int_ids.get_mut(id as usize / 64) {
            *w &= !(1 << (id % 64));
        }
        self.classes.remove(&id);
    }

    #[inline]
    fn is_int(&self, ty: u32) -> bool {
        if ty < DENSE {
            self.int_ids.get(ty as usize / 64).is_some_and(|w| w & (1 << (ty % 64)) != 0)
        } else {
            matches!(self.classes.get(&ty), Some(TypeClass::Int { .. }))
        }
    }

    /// Notes the type of a value. spirv-as accepts a value defined twice
    /// (the validator rejects it); only integer-typed values are ever looked
    /// up again, and the first definition's type stays. Returns whether the
    /// value was newly recorded.
    #[inline]
    pub fn note_value(&mut self, value: u32, ty: u32) -> bool {
        if !self.is_int(ty) {
            return false;
        }
        match self.value_types.entry(value) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(ty);
                true
            }
            std::collections::hash_map::Entry::Occupied(_) => false,
        }
    }

    /// Undoes [`KnownTypes::note_value`].
    pub fn forget_value(&mut self, value: u32) {
        self.value_types.remove(&value);
    }

    /// The class of a value's type, if it is an integer type.
    pub fn value_class(&self, value: u32) -> Option<&TypeClass> {
        self.value_types.get(&value).and_then(|t| self.classes.get(t))
    }
}
