//! Multitarget modules (SPV_INTEL_function_variants), as `spirv-link
//! --fnvar-targets/--fnvar-architectures [--fnvar-capabilities]` makes
//! them: each input is a variant of the first (the base), guarded by a
//! boolean spec constant built from its CSV rows (and capabilities) and
//! named after its file; what only some variants declare becomes
//! conditional on them, base functions with variants become conditional,
//! and calls to them are duplicated per variant and joined by
//! OpConditionalCopyObjectINTEL.
//!
//! The peer works in three places of its pipeline, and so does this:
//! `prepare` on each input before the ids are shifted, `header` for the
//! instructions the linked module starts with, and `combine` on the merged
//! module after duplicate removal. Its quirks are kept where they show in
//! the output: variant functions are decorated once per base function
//! (duplicate removal leaves one), an entry point may be made conditional
//! twice when a module has several, and only uses of a call's result in
//! its own block take the joined value.

mod csv;
mod keys;

use super::ir::{string_at, Input, Ins, Linked, Section, SECTIONS};
use super::LinkError;
use crate::grammar::op;
use crate::peer_opcodes::is_spec_constant;
use keys::{combinable, Key, TypeKeys, FNVAR_EXTENSION};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The function-variant options: the CSV texts (empty when not given), the
/// capabilities switch, and the inputs' names as the CSV files name them
/// (spirv-link's command-line paths).
#[derive(Debug, Clone, Default)]
pub struct FnVarOptions {
    /// The `--fnvar-targets` file's text.
    pub targets_csv: String,
    /// The `--fnvar-architectures` file's text.
    pub architectures_csv: String,
    /// `--fnvar-capabilities`: each variant also requires its capabilities.
    pub capabilities: bool,
    /// Each input's name, in input order.
    pub names: Vec<String>,
}

impl FnVarOptions {
    /// Whether a multitarget module is asked for: the peer's test, either
    /// CSV text non-empty (`--fnvar-capabilities` alone does nothing).
    pub fn multitarget(&self) -> bool {
        !self.targets_csv.is_empty() || !self.architectures_csv.is_empty()
    }
}

use crate::grammar::{capability, decoration, linkage_type};

const CONDITIONAL: u32 = decoration::ConditionalINTEL;
const LINKAGE_ATTRIBUTES: u32 = decoration::LinkageAttributes;
const EXPORT: u32 = linkage_type::Export;
const SPEC_CONDITIONAL: u32 = capability::SpecConditionalINTEL;
const FUNCTION_VARIANTS: u32 = capability::FunctionVariantsINTEL;
// OpSpecConstantOp's operation operands.
const LOGICAL_OR: u32 = op::OpLogicalOr as u32;
const LOGICAL_AND: u32 = op::OpLogicalAnd as u32;
const LOGICAL_NOT: u32 = op::OpLogicalNot as u32;

/// Modules before and after merging, as the steps see them.
pub(super) trait Sections {
    fn sec(&self, s: Section) -> &[Ins];
    fn sec_mut(&mut self, s: Section) -> &mut Vec<Ins>;
    fn take_id(&mut self) -> u32;
}

impl Sections for Input {
    fn sec(&self, s: Section) -> &[Ins] {
        &self.sections[s as usize]
    }
    fn sec_mut(&mut self, s: Section) -> &mut Vec<Ins> {
        &mut self.sections[s as usize]
    }
    fn take_id(&mut self) -> u32 {
        let id = self.bound;
        self.bound = self.bound.wrapping_add(1);
        id
    }
}

impl Sections for Linked {
    fn sec(&self, s: Section) -> &[Ins] {
        self.get(s)
    }
    fn sec_mut(&mut self, s: Section) -> &mut Vec<Ins> {
        self.section(s)
    }
    fn take_id(&mut self) -> u32 {
        let id = self.bound;
        self.bound = self.bound.wrapping_add(1);
        id
    }
}

/// What `prepare` learns for `combine`.
pub(super) struct Variants {
    names: Vec<String>,
    /// Which inputs (by index, once per occurrence) use each combinable
    /// instruction.
    usage: HashMap<Key, Vec<usize>>,
    /// For each call in the base module (by result id): the variant
    /// functions (input index, id in that input) of the function called.
    calls: BTreeMap<u32, Vec<(usize, u32)>>,
    /// The base module's spec constant as `prepare` left it.
    base_spec: u32,
}

/// A string's words: its bytes, a terminating NUL, zero padding.
fn string_words(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// An instruction from its opcode and operand words; `ids` are operand
/// word positions (1-based, as in `Ins`) holding ids.
fn make(opcode: u16, operands: Vec<u32>, ids: Vec<u16>, result_type: Option<u16>, result: Option<u16>) -> Ins {
    let mut words = Vec::with_capacity(operands.len() + 1);
    words.push(((operands.len() as u32 + 1) << 16) | u32::from(opcode));
    words.extend(operands);
    Ins { words, ids, result, result_type }
}

/// `%bool = OpSomething %bool %id literals...`: a boolean spec constant.
fn spec_constant(opcode: u16, bool_id: u32, id: u32, literals: &[u32]) -> Ins {
    let mut operands = vec![bool_id, id];
    operands.extend(literals);
    make(opcode, operands, vec![1, 2], Some(1), Some(2))
}

fn decorate_conditional(m: &mut impl Sections, target: u32, spec: u32) {
    let ins = make(op::OpDecorate, vec![target, CONDITIONAL, spec], vec![1, 3], None, None);
    m.sec_mut(Section::Annotations).push(ins);
}

fn bool_type(m: &impl Sections) -> u32 {
    m.sec(Section::TypesValues).iter().find(|i| i.opcode() == op::OpTypeBool).and_then(Ins::result_id).unwrap_or(0)
}

/// Joins `ids` with the logical `operation` in a chain of spec constant
/// operations: none for one id (that id), 0 for none.
fn combine_ids(m: &mut impl Sections, ids: &[u32], operation: u32) -> u32 {
    let Some((&first, rest)) = ids.split_first() else { return 0 };
    let bool_id = bool_type(m);
    let mut prev = first;
    for &id in rest {
        let new = m.take_id();
        let mut ins = spec_constant(op::OpSpecConstantOp, bool_id, new, &[operation, prev, id]);
        ins.ids.extend([4, 5]);
        m.sec_mut(Section::TypesValues).push(ins);
        prev = new;
    }
    prev
}

/// The spec constant (in declaration order) an OpName calls `name`, or 0.
fn spec_constant_named(m: &impl Sections, name: &str) -> u32 {
    let names = m.sec(Section::Debug2);
    m.sec(Section::TypesValues)
        .iter()
        .filter(|i| is_spec_constant(i.opcode()))
        .filter_map(Ins::result_id)
        .find(|&id| {
            names.iter().any(|n| {
                n.opcode() == op::OpName
                    && n.words.get(1) == Some(&id)
                    && string_at(n.words.get(2..).unwrap_or_default()).0 == name
            })
        })
        .unwrap_or(0)
}

/// The entry point of function `f`: the first whose function operand
/// (after the condition, for a conditional one) is `f`.
fn entry_point_of(m: &impl Sections, f: u32) -> Option<usize> {
    m.sec(Section::EntryPoints).iter().position(|e| {
        let at = if e.opcode() == op::OpConditionalEntryPointINTEL { 3 } else { 2 };
        e.words.get(at) == Some(&f)
    })
}

/// A function's name for matching variants: its entry point's name, else
/// its export name, else empty.
fn function_name(m: &impl Sections, f: u32) -> String {
    if let Some(k) = entry_point_of(m, f) {
        let e = &m.sec(Section::EntryPoints)[k];
        let at = if e.opcode() == op::OpConditionalEntryPointINTEL { 4 } else { 3 };
        return string_at(e.words.get(at..).unwrap_or_default()).0;
    }
    for d in m.sec(Section::Annotations) {
        if d.opcode() == op::OpDecorate && d.words.get(1) == Some(&f) && d.words.get(2) == Some(&LINKAGE_ATTRIBUTES) {
            let (name, n) = string_at(d.words.get(3..).unwrap_or_default());
            if d.words.get(3 + n) == Some(&EXPORT) {
                return name;
            }
        }
    }
    String::new()
}

/// Makes function `f`'s entry point conditional on `spec`, as the peer
/// does: once for every unconditional entry point the module has at the
/// time it is passed over (so a second one converts `f`'s again).
fn make_entry_point_conditional(m: &mut impl Sections, f: u32, spec: u32) {
    let count = m.sec(Section::EntryPoints).len();
    for k in 0..count {
        if m.sec(Section::EntryPoints)[k].opcode() != op::OpEntryPoint {
            continue;
        }
        let Some(j) = entry_point_of(m, f) else { continue };
        let old = &mut m.sec_mut(Section::EntryPoints)[j];
        let mut operands = vec![spec];
        operands.extend(&old.words[1..]);
        let mut ids = vec![1];
        ids.extend(old.ids.iter().map(|p| p + 1));
        *old = make(op::OpConditionalEntryPointINTEL, operands, ids, None, None);
    }
}

fn functions(m: &impl Sections) -> Vec<u32> {
    m.sec(Section::Functions).iter().filter(|i| i.opcode() == op::OpFunction).filter_map(Ins::result_id).collect()
}

/// The combinable instructions' keys, in the peer's walk order.
fn keys_of(m: &impl Sections) -> Vec<(Section, usize, Key)> {
    let keys = TypeKeys::new(m);
    let mut out = Vec::new();
    for s in [Section::Capabilities, Section::Extensions, Section::ExtInstImports, Section::TypesValues] {
        for (k, ins) in m.sec(s).iter().enumerate() {
            if combinable(ins) {
                out.push((s, k, keys.key(ins)));
            }
        }
    }
    out
}

fn error(message: String) -> LinkError {
    LinkError::new(message)
}

/// The peer's steps on the inputs before their ids are shifted: the CSV
/// files read, a bool type in every input, which inputs use what, each
/// input's spec constant, conditional decorations and entry points, and
/// the base module's calls that have variants.
pub(super) fn prepare(inputs: &mut [Input], options: &FnVarOptions) -> Result<Variants, LinkError> {
    let n = inputs.len();
    let names: Vec<String> = (0..n).map(|i| options.names.get(i).cloned().unwrap_or_default()).collect();
    for (i, m) in inputs.iter().enumerate() {
        let caps = m.sec(Section::Capabilities).iter().filter(|c| c.opcode() == op::OpCapability);
        let has_cap = caps.clone().any(|c| matches!(c.words.get(1), Some(&SPEC_CONDITIONAL | &FUNCTION_VARIANTS)));
        let has_ext = m
            .sec(Section::Extensions)
            .iter()
            .any(|e| e.opcode() == op::OpExtension && string_at(&e.words[1..]).0 == FNVAR_EXTENSION);
        if has_cap || has_ext {
            return Err(error(format!(
                "Creating multitarget modules from multitarget modules is not supported. Offending file: {}",
                names[i]
            )));
        }
    }
    let constraints = csv::read(options, n).map_err(error)?;

    for m in inputs.iter_mut() {
        if bool_type(m) == 0 {
            let id = m.take_id();
            m.sec_mut(Section::TypesValues).push(make(op::OpTypeBool, vec![id], vec![1], None, Some(1)));
        }
    }
    let mut usage: HashMap<Key, Vec<usize>> = HashMap::new();
    for (i, m) in inputs.iter().enumerate() {
        for (_, _, key) in keys_of(m) {
            usage.entry(key).or_default().push(i);
        }
    }
    if n > 1 {
        for (i, m) in inputs.iter_mut().enumerate() {
            let capabilities: BTreeSet<u32> = if options.capabilities {
                m.sec(Section::Capabilities)
                    .iter()
                    .filter(|c| c.opcode() == op::OpCapability)
                    .filter_map(|c| c.words.get(1).copied())
                    .collect()
            } else {
                BTreeSet::new()
            };
            spec_constant_of(m, &names[i], &constraints[i], &capabilities);
        }
        conditional_functions(inputs, &names)?;
    }

    let mut calls = BTreeMap::new();
    let variant_functions: Vec<Vec<(u32, String)>> =
        inputs.iter().map(|m| functions(m).into_iter().map(|f| (f, function_name(m, f))).collect()).collect();
    let base = &inputs[0];
    for call in base.sec(Section::Functions).iter().filter(|i| i.opcode() == op::OpFunctionCall) {
        let (Some(id), Some(&callee)) = (call.result_id(), call.words.get(3)) else { continue };
        let name = function_name(base, callee);
        let found: Vec<(usize, u32)> = (1..n)
            .flat_map(|k| variant_functions[k].iter().filter(|(_, fname)| *fname == name).map(move |(f, _)| (k, *f)))
            .collect();
        if !found.is_empty() {
            calls.insert(id, found);
        }
    }
    let base_spec = spec_constant_named(&inputs[0], &names[0]);
    Ok(Variants { names, usage, calls, base_spec })
}

/// One input's spec constant: its architecture, target and capability
/// constants, architectures of one category and family joined with AND,
/// those groups and the targets each joined with OR, all joined with AND
/// (OpSpecConstantTrue when there is nothing), named after the input; and
/// its declarations other than types and spec constants made conditional
/// on it.
fn spec_constant_of(m: &mut Input, name: &str, c: &csv::Constraints, capabilities: &BTreeSet<u32>) {
    let bool_id = bool_type(m);
    let mut architectures = Vec::new();
    for a in &c.architectures {
        let id = m.take_id();
        architectures.push(id);
        m.sec_mut(Section::TypesValues).push(spec_constant(op::OpSpecConstantArchitectureINTEL, bool_id, id, a));
    }
    let mut targets = Vec::new();
    for (target, features) in &c.targets {
        let id = m.take_id();
        targets.push(id);
        let mut literals = vec![*target];
        literals.extend(features);
        m.sec_mut(Section::TypesValues).push(spec_constant(op::OpSpecConstantTargetINTEL, bool_id, id, &literals));
    }
    let mut parts = Vec::new();
    if !capabilities.is_empty() {
        let id = m.take_id();
        let caps: Vec<u32> = capabilities.iter().copied().collect();
        m.sec_mut(Section::TypesValues).push(spec_constant(op::OpSpecConstantCapabilitiesINTEL, bool_id, id, &caps));
        parts.push(id);
    }
    let mut groups: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
    for (a, &id) in c.architectures.iter().zip(&architectures) {
        groups.entry((a[0], a[1])).or_default().push(id);
    }
    let mut any_group = Vec::new();
    for ids in groups.values() {
        let id = combine_ids(m, ids, LOGICAL_AND);
        if id > 0 {
            any_group.push(id);
        }
    }
    for id in [combine_ids(m, &any_group, LOGICAL_OR), combine_ids(m, &targets, LOGICAL_OR)] {
        if id > 0 {
            parts.push(id);
        }
    }
    let mut spec = combine_ids(m, &parts, LOGICAL_AND);
    if spec == 0 {
        spec = m.take_id();
        m.sec_mut(Section::TypesValues).push(spec_constant(op::OpSpecConstantTrue, bool_id, spec, &[]));
    }
    let mut operands = vec![spec];
    operands.extend(string_words(name));
    m.sec_mut(Section::Debug2).push(make(op::OpName, operands, vec![1], None, None));
    // An instruction without a result (OpTypeForwardPointer) gets its
    // decoration on id 0, as the peer's takes its missing result id; line
    // instructions are no instructions of the section to the peer.
    let conditional: Vec<u32> = m
        .sec(Section::TypesValues)
        .iter()
        .filter(|i| !combinable(i) && !is_spec_constant(i.opcode()))
        .filter(|i| !matches!(i.opcode(), op::OpLine | op::OpNoLine))
        .map(|i| i.result_id().unwrap_or(0))
        .collect();
    for id in conditional {
        decorate_conditional(m, id, spec);
    }
}

fn unnamed(f: u32, module: &str) -> LinkError {
    error(format!(
        "Could not find name of a function {f} in a base module {module}. To be usable by \
         SPV_INTEL_function_variants, a function must either have an entry point or an export LinkAttribute \
         decoration."
    ))
}

/// For each base function: every variant function is decorated (and its
/// entry point made conditional) on its input's constant, and the base
/// function too when some variant function has its name.
fn conditional_functions(inputs: &mut [Input], names: &[String]) -> Result<(), LinkError> {
    for base_fn in functions(&inputs[0]) {
        let base_name = function_name(&inputs[0], base_fn);
        if base_name.is_empty() {
            return Err(unnamed(base_fn, &names[0]));
        }
        let mut has_variant = false;
        for (k, m) in inputs.iter_mut().enumerate().skip(1) {
            for f in functions(m) {
                let name = function_name(m, f);
                if name.is_empty() {
                    return Err(unnamed(f, &names[k]));
                }
                has_variant |= name == base_name;
                let spec = spec_constant_named(m, &names[k]);
                decorate_conditional(m, f, spec);
                make_entry_point_conditional(m, f, spec);
            }
        }
        if has_variant {
            let base = &mut inputs[0];
            let spec = spec_constant_named(base, &names[0]);
            decorate_conditional(base, base_fn, spec);
            make_entry_point_conditional(base, base_fn, spec);
        }
    }
    Ok(())
}

/// The instructions the linked module starts with: the extension's two
/// capabilities, the extension, and the registry version processed.
pub(super) fn header() -> [Vec<Ins>; SECTIONS] {
    let mut s: [Vec<Ins>; SECTIONS] = Default::default();
    for cap in [SPEC_CONDITIONAL, FUNCTION_VARIANTS] {
        s[Section::Capabilities as usize].push(make(op::OpCapability, vec![cap], vec![], None, None));
    }
    s[Section::Extensions as usize].push(make(op::OpExtension, string_words(FNVAR_EXTENSION), vec![], None, None));
    let processed = string_words("SPV_INTEL_function_variants registry version 0");
    s[Section::Debug3 as usize].push(make(op::OpModuleProcessed, processed, vec![], None, None));
    s
}

/// The peer's steps on the merged module, after duplicate removal: calls
/// with variants duplicated and joined, the base constant narrowed to "no
/// variant applies", and what only some inputs use made conditional.
pub(super) fn combine(linked: &mut Linked, v: &Variants) {
    if join_calls(linked, v) {
        narrow_base(linked, v);
    }
    conditional_declarations(linked, v);
}

/// Duplicates each base call with variants, one call per variant function
/// after it, each decorated with its input's constant, and (for a non-void
/// result) joins them with OpConditionalCopyObjectINTEL, which replaces the
/// call's result in the rest of its block. False when a call is missing,
/// where the peer stops.
fn join_calls(linked: &mut Linked, v: &Variants) -> bool {
    for (&call, variants) in &v.calls {
        let funcs = linked.get(Section::Functions);
        let Some(at) = funcs.iter().position(|i| i.result_id() == Some(call)) else { return false };
        let result_type = funcs[at].words.get(1).copied().unwrap_or(0);
        let returns_void = linked
            .get(Section::TypesValues)
            .iter()
            .find(|i| i.result_id() == Some(result_type))
            .is_some_and(|i| i.opcode() == op::OpTypeVoid);
        decorate_conditional(linked, call, v.base_spec);
        let mut last = at;
        let mut joined = vec![v.base_spec, call];
        for &(k, f) in variants {
            let spec = spec_constant_named(linked, &v.names[k]);
            let id = linked.take_id();
            let offset = linked.offsets.get(k).copied().unwrap_or(0);
            let mut copy = linked.get(Section::Functions)[at].clone();
            if let Some(w) = copy.words.get_mut(2) {
                *w = id;
            }
            if let Some(w) = copy.words.get_mut(3) {
                *w = f.wrapping_add(offset);
            }
            last += 1;
            linked.section(Section::Functions).insert(last, copy);
            decorate_conditional(linked, id, spec);
            joined.extend([spec, id]);
        }
        if returns_void {
            continue;
        }
        let result = linked.take_id();
        let count = joined.len() as u16;
        let mut operands = vec![result_type, result];
        operands.extend(joined);
        let ins = make(op::OpConditionalCopyObjectINTEL, operands, (1..=count + 2).collect(), Some(1), Some(2));
        last += 1;
        let funcs = linked.section(Section::Functions);
        funcs.insert(last, ins);
        for ins in funcs.iter_mut().skip(last + 1) {
            let uses: Vec<u16> =
                ins.ids.iter().copied().filter(|&p| Some(p) != ins.result && Some(p) != ins.result_type).collect();
            for p in uses {
                if ins.words[p as usize] == call {
                    ins.words[p as usize] = result;
                }
            }
            if crate::module::functions::TERMINATOR_SET.contains(ins.opcode()) {
                break;
            }
        }
    }
    true
}

/// The base applies only when no variant does: its constant becomes
/// `base AND NOT (variant OR ...)`, which takes over its name, conditions
/// and joined calls.
fn narrow_base(linked: &mut Linked, v: &Variants) {
    let variant_specs: Vec<u32> = v.names.iter().skip(1).map(|n| spec_constant_named(linked, n)).collect();
    let any = combine_ids(linked, &variant_specs, LOGICAL_OR);
    if any == 0 {
        return;
    }
    let bool_id = bool_type(linked);
    let not = linked.take_id();
    let mut ins = spec_constant(op::OpSpecConstantOp, bool_id, not, &[LOGICAL_NOT, any]);
    ins.ids.push(4);
    linked.section(Section::TypesValues).push(ins);
    let old = spec_constant_named(linked, &v.names[0]);
    let new = combine_ids(linked, &[old, not], LOGICAL_AND);
    for a in linked.section(Section::Annotations) {
        if a.words.len() > 3 && a.words[2] == CONDITIONAL && a.words[3] == old {
            a.words[3] = new;
        }
    }
    for n in linked.section(Section::Debug2) {
        if n.opcode() == op::OpName && n.words.get(1) == Some(&old) {
            n.words[1] = new;
        }
    }
    for e in linked.section(Section::EntryPoints) {
        if e.opcode() == op::OpConditionalEntryPointINTEL && e.words.get(1) == Some(&old) {
            e.words[1] = new;
        }
    }
    for i in linked.section(Section::Functions) {
        if i.opcode() == op::OpConditionalCopyObjectINTEL {
            for w in i.words.iter_mut().skip(3) {
                if *w == old {
                    *w = new;
                }
            }
        }
    }
}

/// What only some inputs use (by the counts `prepare` took) is made
/// conditional on those inputs' constants joined with OR (one join per
/// set of inputs): capabilities and extensions become their conditional
/// forms, declarations are decorated.
fn conditional_declarations(linked: &mut Linked, v: &Variants) {
    let mut joins: HashMap<Vec<usize>, u32> = HashMap::new();
    for (s, k, key) in keys_of(linked) {
        let Some(users) = v.usage.get(&key) else { continue };
        if users.len() == v.names.len() {
            continue;
        }
        let spec = match joins.get(users) {
            Some(&spec) => spec,
            None => {
                let specs: Vec<u32> = users.iter().map(|&u| spec_constant_named(linked, &v.names[u])).collect();
                let spec = combine_ids(linked, &specs, LOGICAL_OR);
                joins.insert(users.clone(), spec);
                spec
            }
        };
        if spec == 0 {
            continue;
        }
        let ins = &mut linked.section(s)[k];
        if let Some(id) = ins.result_id() {
            decorate_conditional(linked, id, spec);
        } else if ins.opcode() == op::OpCapability {
            let cap = ins.words.get(1).copied().unwrap_or(0);
            *ins = make(op::OpConditionalCapabilityINTEL, vec![spec, cap], vec![1], None, None);
        } else if ins.opcode() == op::OpExtension {
            let mut operands = vec![spec];
            operands.extend(&ins.words[1..]);
            *ins = make(op::OpConditionalExtensionINTEL, operands, vec![1], None, None);
        }
    }
}
