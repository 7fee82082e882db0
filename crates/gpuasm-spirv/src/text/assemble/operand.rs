//! Reading one operand word against the kind the grammar expects: ids,
//! literals (numbers take the width of their type; strings the original
//! bytes of a non-UTF-8 text), enumerants and masks with their parameters,
//! extended instructions, and `!<integer>` words.

use super::{Assembler, Import, OperandError, TypeClass};
use crate::grammar::{self, op, Category, OperandKind};
use crate::text::assemble::ids::scan_id_name;
use crate::text::diagnostic::{nearest, Diagnostic, Severity};
use crate::text::lex::Position;
use crate::text::literal::{self, NumberError, NumberType};

impl<'t> Assembler<'t, '_> {
    /// Assigns or looks up the number of an id name (without `%`).
    pub(super) fn id_word(&mut self, name: &'t str, pos: Position) -> Result<u32, Diagnostic> {
        let Some(small) = scan_id_name(name, self.ids.numeric_cap) else {
            return Err(self.error_at(
                pos,
                name.len() + 1,
                format!("invalid id '%{name}': ids are '%' followed by letters, digits and '_'"),
            ));
        };
        Ok(self.ids.get_scanned(name.as_bytes(), pos.index + 1, small))
    }

    pub(super) fn operand(&mut self, kind: OperandKind, optional: bool, w: &'t str) -> Result<(), OperandError> {
        if w.starts_with('!') {
            self.immediate_word(w).map_err(OperandError::Hard)?;
            self.expected.alternate_pattern();
            return Ok(());
        }
        let pos = self.cur.pos;
        let hard = OperandError::Hard;
        match kind.info().category {
            Category::Id => {
                let Some(name) = w.strip_prefix('%') else {
                    return Err(hard(self.error_here(format!(
                        "expected an id for {} operand of {}, found '{w}'",
                        kind.name(),
                        self.opname()
                    ))));
                };
                let id = self.id_word(name, pos).map_err(hard)?;
                if kind == OperandKind::IdResultType {
                    self.result_type_id = id;
                }
                self.push_word_id(id);
                let opcode = self.info.map_or(0, |i| i.opcode);
                if self.words.len() == 4 && (opcode == op::OpExtInst || opcode == op::OpExtInstWithForwardRefsKHR) {
                    match self.imports.get(&id) {
                        Some(&set) => self.ext_set = Some(set),
                        None => {
                            return Err(hard(self.error_here(format!(
                                "{w} is not the result of an OpExtInstImport (of a known instruction set)"
                            ))))
                        }
                    }
                }
                Ok(())
            }
            Category::Literal => self.literal(kind, optional, w),
            Category::ValueEnum => {
                // Any enumerant of the grammar is accepted whatever the
                // version (as spirv-as does): the validator checks use.
                let e = kind.enumerant_by_name(w).ok_or_else(|| hard(self.bad_enumerant(kind, w)))?;
                self.words.push(e.value);
                self.expected.push_specs(e.parameters);
                Ok(())
            }
            Category::BitEnum => {
                if kind == OperandKind::MemoryAccess && !optional && w.contains('|') {
                    // spirv-as reads a required (not optional) MemoryAccess
                    // operand as a single name, unlike every other mask.
                    let mut d = self.error_here(format!("'{w}' is not a MemoryAccess for {}", self.opname()));
                    d.help = Some("spirv-as takes one MemoryAccess name here, not a combination".into());
                    return Err(hard(d));
                }
                let mut value = 0u32;
                for part in w.split('|') {
                    let e = kind.enumerant_by_name(part).ok_or_else(|| hard(self.bad_enumerant(kind, part)))?;
                    value |= e.value;
                }
                self.words.push(value);
                // Parameters follow in order of increasing bit.
                let mut bits = value;
                while bits != 0 {
                    let bit = 1u32 << (31 - bits.leading_zeros());
                    bits ^= bit;
                    if let Some(e) = kind.enumerant(bit) {
                        self.expected.push_specs(e.parameters);
                    }
                }
                Ok(())
            }
            Category::Composite => {
                // The composite itself takes no word: this one is its first
                // part's.
                let first = self.expected.split_composite(kind);
                self.operand(first, false, w)
            }
        }
    }

    pub(super) fn bad_enumerant(&self, kind: OperandKind, w: &str) -> Diagnostic {
        let info = kind.info();
        let mut d = self.error_here(format!("'{w}' is not a {} for {}", info.name, self.opname()));
        d.help = match nearest(w, info.enumerants.iter().map(|e| e.name)) {
            Some(n) => Some(format!("did you mean '{n}'?")),
            None if info.enumerants.len() <= 12 => Some(format!(
                "valid {} values: {}",
                info.name,
                info.enumerants.iter().map(|e| e.name).collect::<Vec<_>>().join(", ")
            )),
            None => None,
        };
        d
    }

    pub(super) fn number(&mut self, w: &str, ty: NumberType, optional: bool) -> Result<(), OperandError> {
        match literal::encode_number(w, ty, &mut self.words) {
            Ok(()) => Ok(()),
            Err(NumberError::InvalidText(m)) if optional => Err(OperandError::NoMatch(self.error_here(m))),
            Err(NumberError::InvalidText(m) | NumberError::InvalidUsage(m) | NumberError::Unsupported(m)) => {
                Err(OperandError::Hard(self.error_here(m)))
            }
        }
    }

    /// A literal string's words, with the bytes of a non-UTF-8 text restored.
    pub(super) fn push_string(&mut self, bytes: &[u8]) {
        match self.options.raw_bytes {
            Some(raw) => literal::push_string_words(&raw.restore(bytes), &mut self.words),
            None => literal::push_string_words(bytes, &mut self.words),
        }
    }

    pub(super) fn literal(&mut self, kind: OperandKind, optional: bool, w: &'t str) -> Result<(), OperandError> {
        let hard = OperandError::Hard;
        let opcode = self.info.map_or(0, |i| i.opcode);
        match kind {
            OperandKind::LiteralString => {
                if literal::looks_like_number(w) {
                    return Err(hard(self.error_here(format!("expected a literal string, found the number '{w}'"))));
                }
                let Some(bytes) = literal::unescape_string(w) else {
                    let d =
                        self.error_here(format!("invalid literal string '{w}': strings are written in double quotes"));
                    return Err(if optional { OperandError::NoMatch(d) } else { hard(d) });
                };
                if opcode == op::OpExtInstImport {
                    let name = String::from_utf8_lossy(&bytes);
                    let import = match grammar::ext_inst_set(&name) {
                        Some(s) if s.known_to_spirv_tools => Import::Known(s),
                        _ if name.starts_with("NonSemantic.") => Import::UnknownNonSemantic,
                        _ => {
                            return Err(hard(self.error_here(format!("unknown extended instruction set \"{name}\""))));
                        }
                    };
                    if self.words.len() >= 2 {
                        if self.imports.insert(self.words[1], import).is_some() {
                            return Err(hard(self.error_here("this id already names an imported instruction set")));
                        }
                        if self.worker {
                            self.imports_added.push((self.words[1], import));
                        }
                    }
                }
                self.push_string(&bytes);
                Ok(())
            }
            OperandKind::LiteralFloat => self.number(w, NumberType::Float { width: 32, encoding: None }, optional),
            OperandKind::LiteralContextDependentNumber => {
                let ty = match self.known.class(self.result_type_id) {
                    Some(TypeClass::Int { width, signed }) => NumberType::Int { width: *width, signed: *signed },
                    Some(TypeClass::Float { width, encoding }) => {
                        NumberType::Float { width: *width, encoding: *encoding }
                    }
                    _ => {
                        let msg =
                            format!("the type of {} must be a scalar integer or floating-point type", self.opname());
                        let mut d = self.error_here(msg);
                        if self.poisoned.contains(&self.result_type_id) {
                            d.severity = Severity::Warning; // follows from an earlier error
                        }
                        return Err(hard(d));
                    }
                };
                self.number(w, ty, optional)
            }
            OperandKind::LiteralExtInstInteger => {
                // The extended instruction's operands replace OpExtInst's
                // trailing `IdRef*` (spirv-as rejects extra operands);
                // OpExtInstWithForwardRefsKHR keeps it after them.
                let keep_ids = opcode != op::OpExtInst;
                if !keep_ids {
                    self.expected.clear();
                }
                match self.ext_set {
                    Some(Import::Known(set)) => {
                        if let Some(ei) = set.instruction_by_name(w) {
                            self.words.push(ei.opcode);
                            self.expected.push_specs(ei.operands);
                            return Ok(());
                        }
                        if !set.non_semantic {
                            let mut d = self.error_here(format!("'{w}' is not an instruction of {}", set.import_name));
                            d.help = nearest(w, set.instructions.iter().map(|i| i.name))
                                .map(|n| format!("did you mean '{n}'?"));
                            return Err(hard(d));
                        }
                    }
                    Some(Import::UnknownNonSemantic) => {}
                    None => return Err(hard(self.error_here("OpExtInst without an imported set"))),
                }
                // Non-semantic sets: a number, then any number of ids.
                match w.parse::<u32>() {
                    Ok(n) if w.bytes().all(|c| c.is_ascii_digit()) => {
                        self.words.push(n);
                        if !keep_ids {
                            self.expected.push_repeat(OperandKind::IdRef);
                        }
                        Ok(())
                    }
                    _ => Err(hard(self.error_here(format!(
                        "'{w}' is not a known instruction of this non-semantic set, nor an instruction number"
                    )))),
                }
            }
            OperandKind::LiteralSpecConstantOpInteger => {
                let embedded = grammar::instruction_by_name(&format!("Op{w}"))
                    .filter(|i| grammar::spec_constant_op_allowed(i.opcode) && i.available_in(self.version))
                    .ok_or_else(|| {
                        let mut d = self.error_here(format!("'{w}' is not an opcode usable in OpSpecConstantOp"));
                        d.help = nearest(w, grammar::SPEC_CONSTANT_OP_OPCODES.iter().map(|n| &n[2..]))
                            .map(|n| format!("did you mean '{n}'?"));
                        hard(d)
                    })?;
                self.words.push(embedded.opcode as u32);
                let ops = embedded.operands;
                let skip = ops
                    .iter()
                    .take_while(|o| matches!(o.kind, OperandKind::IdResultType | OperandKind::IdResult))
                    .count();
                self.expected.push_specs(&ops[skip..]);
                Ok(())
            }
            _ => {
                // LiteralInteger: an unsigned 32-bit number, except the case
                // values of OpSwitch, which take the selector's type.
                if opcode == op::OpSwitch && self.words.len() >= 3 {
                    let selector = self.words[1];
                    let ty = self.known.value_class(selector).copied();
                    if let (true, Some(class)) = (self.worker, ty) {
                        self.switch_selectors.push((selector, class));
                    }
                    return match ty {
                        Some(TypeClass::Int { width, signed }) => {
                            self.number(w, NumberType::Int { width, signed }, optional)
                        }
                        _ => Err(hard(self.error_here(
                            "the OpSwitch selector must be the result of an instruction of integer scalar type",
                        ))),
                    };
                }
                self.number(w, NumberType::Int { width: 32, signed: false }, optional)
            }
        }
    }

    /// `!<integer>`: one raw word.
    pub(super) fn immediate_word(&mut self, w: &str) -> Result<(), Diagnostic> {
        match literal::parse_c_u32(&w[1..]) {
            Some(v) => {
                self.words.push(v);
                Ok(())
            }
            None => {
                Err(self.error_here(format!("invalid immediate integer '{w}': expected a 32-bit number after '!'")))
            }
        }
    }

    /// A word in alternate parsing mode: a number (32-bit), a string, an id
    /// or another `!<integer>`.
    pub(super) fn any_value(&mut self, w: &'t str) -> Result<(), OperandError> {
        if w.starts_with('!') {
            self.immediate_word(w).map_err(OperandError::Hard)?;
        } else if literal::encode_number(w, literal::inferred_type(w), &mut self.words).is_ok() {
        } else if let Some(bytes) = (!literal::looks_like_number(w)).then(|| literal::unescape_string(w)).flatten() {
            self.push_string(&bytes);
        } else if let Some(name) = w.strip_prefix('%') {
            let id = self.id_word(name, self.cur.pos).map_err(OperandError::Hard)?;
            self.push_word_id(id);
        } else {
            return Err(OperandError::Hard(self.error_here(format!(
                "invalid word '{w}' after !<integer>: expected a number, a string, an id or !<integer>"
            ))));
        }
        if self.expected.is_empty() {
            self.expected.push_any();
        }
        Ok(())
    }
}
