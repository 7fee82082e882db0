//! What the assembler remembers of earlier instructions to read later
//! literals: the class of each type id (literal widths of OpConstant) and
//! the integer type of each value (literal widths of OpSwitch).

use super::TypeClass;
use rustc_hash::FxHashMap;

/// Ids below this are kept in a bitset for the per-instruction question
/// "is this an integer type?"; larger ones (rare: preserved numeric ids)
/// are looked up in the map.
const DENSE: u32 = 1 << 24;

#[derive(Clone, Default)]
pub(super) struct KnownTypes {
    classes: FxHashMap<u32, TypeClass>,
    /// Integer type ids below [`DENSE`], as bits.
    int_ids: Vec<u64>,
    /// Integer-typed values and their types.
    value_types: FxHashMap<u32, u32>,
    /// In a worker thread: what it added to the state it started from, in
    /// order, for the main thread to check against its own.
    log: Option<Additions>,
}

/// What a worker declared, in text order, for the main thread to replay.
#[derive(Copy, Clone, Debug)]
pub(super) enum Added {
    Type(u32, TypeClass),
    /// A value and its type: of an integer type, or of a type the worker
    /// did not know (one pass records it if that is an integer type).
    Value(u32, u32),
}

/// Types and values a worker declared.
#[derive(Clone, Default)]
pub(super) struct Additions {
    pub entries: Vec<Added>,
}

impl KnownTypes {
    /// A copy that logs what is added to it from now on.
    pub fn logging(&self) -> Self {
        KnownTypes { log: Some(Additions::default()), ..self.clone() }
    }

    /// What was added since [`KnownTypes::logging`].
    pub fn additions(&mut self) -> Additions {
        self.log.take().unwrap_or_default()
    }

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
        if let Some(log) = &mut self.log {
            log.entries.push(Added::Type(id, class));
        }
    }

    /// Undoes [`KnownTypes::declare`].
    pub fn forget(&mut self, id: u32) {
        if let Some(w) = self.int_ids.get_mut(id as usize / 64) {
            *w &= !(1 << (id % 64));
        }
        self.classes.remove(&id);
        if let Some(log) = &mut self.log {
            if matches!(log.entries.last(), Some(&Added::Type(t, _)) if t == id) {
                log.entries.pop();
            }
        }
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
            if let Some(log) = self.log.as_mut().filter(|_| !self.classes.contains_key(&ty)) {
                log.entries.push(Added::Value(value, ty));
                return true;
            }
            return false;
        }
        match self.value_types.entry(value) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(ty);
                if let Some(log) = &mut self.log {
                    log.entries.push(Added::Value(value, ty));
                }
                true
            }
            std::collections::hash_map::Entry::Occupied(_) => false,
        }
    }

    /// Undoes [`KnownTypes::note_value`].
    pub fn forget_value(&mut self, value: u32) {
        self.value_types.remove(&value);
        if let Some(log) = &mut self.log {
            if matches!(log.entries.last(), Some(&Added::Value(v, _)) if v == value) {
                log.entries.pop();
            }
        }
    }

    /// The class of a value's type, if it is an integer type.
    pub fn value_class(&self, value: u32) -> Option<&TypeClass> {
        self.value_types.get(&value).and_then(|t| self.classes.get(t))
    }
}
