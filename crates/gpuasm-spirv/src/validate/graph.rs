//! Graphs (SPV_ARM_graph): graph types, constants, entry points, inputs
//! and outputs agree with each other, as spirv-val's graph pass checks them
//! (the section a graph stands in is checked with the layout).

use super::{ErrorKind, Report};
use crate::grammar::{capability, op};
use crate::module::Module;
use rustc_hash::FxHashSet;

/// A graph's I/O types are tensors or arrays of tensors.
fn is_interface_type(m: &Module, id: u32) -> bool {
    match m.def_opcode(id) {
        Some(op::OpTypeTensorARM) => true,
        Some(op::OpTypeArray | op::OpTypeRuntimeArray) => is_tensor_array(m, id),
        _ => false,
    }
}

fn is_tensor_array(m: &Module, id: u32) -> bool {
    matches!(m.def_opcode(id), Some(op::OpTypeArray | op::OpTypeRuntimeArray))
        && m.def_word(id, 2).and_then(|e| m.def_opcode(e)) == Some(op::OpTypeTensorARM)
}

fn is_int32(m: &Module, id: u32) -> bool {
    let t = m.type_of(id);
    m.def_opcode(t) == Some(op::OpTypeInt) && m.def_word(t, 2) == Some(32)
}

/// The value of an integer OpConstant or OpConstantNull (spec constants
/// cannot be evaluated).
fn value(m: &Module, id: u32) -> Option<u64> {
    let d = m.def(id)?;
    if m.def_opcode(m.result_type_at(d)) != Some(op::OpTypeInt) {
        return None;
    }
    match d.opcode() {
        op::OpConstantNull => Some(0),
        op::OpConstant => {
            let low = u64::from(m.def_word(id, 3)?);
            Some(low | m.def_word(id, 4).map_or(0, |h| u64::from(h) << 32))
        }
        _ => None,
    }
}

/// A graph type's inputs count and its I/O types.
fn graph_type(m: &Module, ty: u32) -> Option<(usize, Vec<u32>)> {
    let i = m.def_index(ty)?;
    if m.opcode(i) != op::OpTypeGraphARM {
        return None;
    }
    let inputs = m.word(i, 1) as usize;
    Some((inputs, (2..m.operands(i).len()).map(|k| m.word(i, k)).collect()))
}

/// Where an input or output index selects: the checked I/O type.
struct Io<'a> {
    what: &'a str,
    /// "InputIndex" or "OutputIndex".
    index_name: &'a str,
    /// Operand positions of the index and of the optional element index.
    index: usize,
    element: usize,
}

const INPUT: Io = Io { what: "input", index_name: "InputIndex", index: 2, element: 3 };
const OUTPUT: Io = Io { what: "output", index_name: "OutputIndex", index: 1, element: 2 };

pub(crate) fn check(m: &Module, r: &mut Report) {
    let mut constant_ids = FxHashSet::default();
    let mut graph = 0u32;
    let mut entry_points = 0;
    // The inputs and outputs of the current graph, for duplicate indices.
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        // spirv-val names instructions here without their `Op`.
        let name = &inst.info().name[2..];
        match inst.opcode() {
            op::OpTypeGraphARM => {
                let inputs = m.word(i, 1) as usize;
                let io = m.operands(i).len() - 2;
                if io < inputs {
                    r.error(
                        ErrorKind::OperandType,
                        i,
                        format!("{io} I/O types were provided but the graph has {inputs} inputs."),
                    );
                    return;
                }
                if io == inputs {
                    r.error(ErrorKind::OperandType, i, "A graph type must have at least one output.");
                    return;
                }
                if let Some(t) = (2..m.operands(i).len()).map(|k| m.word(i, k)).find(|&t| !is_interface_type(m, t)) {
                    let t = r.id(t);
                    r.error(ErrorKind::OperandType, i, format!("I/O type {t} is not a Graph Interface Type."));
                    return;
                }
            }
            op::OpGraphConstantARM => {
                if m.def_opcode(m.result_type_at(inst)) != Some(op::OpTypeTensorARM) {
                    r.error(
                        ErrorKind::OperandType,
                        i,
                        format!("{name} must have a Result Type that is a tensor type."),
                    );
                    return;
                }
                if !constant_ids.insert(m.word(i, 2)) {
                    r.error(
                        ErrorKind::OperandType,
                        i,
                        "No two OpGraphConstantARM instructions may have the same GraphConstantID",
                    );
                    return;
                }
            }
            op::OpGraphEntryPointARM => {
                entry_points += 1;
                if !check_entry_point(m, r, i) {
                    return;
                }
            }
            op::OpGraphARM => {
                if m.def_opcode(m.result_type_at(inst)) != Some(op::OpTypeGraphARM) {
                    r.error(ErrorKind::OperandType, i, format!("{name} Result Type must be an OpTypeGraphARM."));
                    return;
                }
                graph = m.result_id_at(inst);
                inputs.clear();
                outputs.clear();
            }
            op::OpGraphInputARM => {
                inputs.push(i);
                if !check_io(m, r, i, graph, &INPUT) {
                    return;
                }
            }
            op::OpGraphSetOutputARM => {
                outputs.push(i);
                if !check_io(m, r, i, graph, &OUTPUT) {
                    return;
                }
            }
            op::OpGraphEndARM => {
                for (list, io, kind) in
                    [(&inputs, &INPUT, "OpGraphInputARM"), (&outputs, &OUTPUT, "OpGraphSetOutputARM")]
                {
                    if let Some(dup) = first_duplicate(m, list, io) {
                        r.error(
                            ErrorKind::Layout,
                            dup,
                            format!(
                                "Two {kind} instructions with the same {} must not be part of the same graph \
                                 definition unless ElementIndex is present in both with different values.",
                                io.index_name
                            ),
                        );
                        return;
                    }
                }
            }
            _ => {}
        }
    }
    if entry_points == 0 && super::capabilities::with_implied(m).contains(&capability::GraphARM) {
        r.module_error(
            ErrorKind::EntryPoint,
            "No OpGraphEntryPointARM instruction was found but the GraphARM capability is declared.",
        );
    }
}

/// An OpGraphEntryPointARM names a graph and lists one UniformConstant
/// variable of each of its I/O types.
fn check_entry_point(m: &Module, r: &mut Report, i: usize) -> bool {
    let name = &m.insts[i].info().name[2..];
    let g = m.word(i, 0);
    let Some(gi) = m.def_index(g) else { return true };
    if m.opcode(gi) != op::OpGraphARM {
        let found = &m.insts[gi].info().name[2..];
        r.error(ErrorKind::EntryPoint, i, format!("{name} Graph must be a OpGraphARM but found {found}."));
        return false;
    }
    let gt = m.result_type_word(gi);
    // A graph of another type is reported at the graph.
    let Some((_, io)) = graph_type(m, gt) else { return true };
    let listed = m.operands(i).len() - 2;
    if listed != io.len() {
        let t = r.id(gt);
        r.error(
            ErrorKind::EntryPoint,
            i,
            format!(
                "{name} Interface list contains {listed} IDs but Graph's type {t} has {} inputs and outputs.",
                io.len()
            ),
        );
        return false;
    }
    for (k, &expected) in (2..m.operands(i).len()).zip(&io) {
        let v = m.word(i, k);
        let Some(vi) = m.def_index(v) else { continue };
        if m.opcode(vi) != op::OpVariable || m.word(vi, 2) != crate::grammar::storage_class::UniformConstant {
            // Reported at the variable, met at the entry point.
            let t = r.id(v);
            r.error_met_at(
                ErrorKind::EntryPoint,
                vi,
                i,
                format!("{name} Interface ID {t} must come from OpVariable with UniformConstant Storage Class."),
            );
            return false;
        }
        let pointee = m.def_word(m.result_type_word(vi), 3).unwrap_or(0);
        if pointee != expected {
            let (p, e) = (r.id(pointee), r.id(expected));
            r.error(
                ErrorKind::EntryPoint,
                i,
                format!("{name} Interface ID type {p} must match the type of the corresponding graph I/O {e}"),
            );
            return false;
        }
    }
    true
}

/// An OpGraphInputARM or OpGraphSetOutputARM: 32-bit indices selecting an
/// I/O of the graph's type, an element index only into arrays of tensors,
/// and the type of the I/O (or of its element).
fn check_io(m: &Module, r: &mut Report, i: usize, graph: u32, io: &Io) -> bool {
    let name = &m.insts[i].info().name[2..];
    let has_element = m.operands(i).len() > io.element;
    if !is_int32(m, m.word(i, io.index)) {
        r.error(ErrorKind::OperandType, i, format!("{name} {} must be a 32-bit integer.", io.index_name));
        return false;
    }
    if has_element && !is_int32(m, m.word(i, io.element)) {
        r.error(ErrorKind::OperandType, i, format!("{name} ElementIndex must be a 32-bit integer."));
        return false;
    }
    let Some(index) = value(m, m.word(i, io.index)) else { return true };
    let gt = m.type_of(graph);
    let Some((inputs, types)) = graph_type(m, gt) else { return true };
    let (count, selected) = if io.what == "input" {
        (inputs, types.get(..inputs.min(types.len())).unwrap_or_default())
    } else {
        (types.len() - inputs.min(types.len()), types.get(inputs..).unwrap_or_default())
    };
    if index >= count as u64 {
        if io.what == "input" {
            let (t, g, text) = (r.id(gt), r.id(graph), r.disassemble(i));
            r.module_error(
                ErrorKind::OperandType,
                format!(
                    "Type {t} for graph {g} has {count} inputs but found an OpGraphInputARM instruction with an \
                     InputIndex that is {index}: {text}"
                ),
            );
        } else {
            r.error(
                ErrorKind::OperandType,
                i,
                format!("{name} setting OutputIndex {index} but graph only has {count} outputs."),
            );
        }
        return false;
    }
    let ty = selected[index as usize];
    let opname = if io.what == "input" { "OpGraphInputARM" } else { "OpGraphSetOutputARM" };
    let mut expected = ty;
    if has_element {
        if !is_tensor_array(m, ty) {
            r.error(
                ErrorKind::OperandType,
                i,
                format!(
                    "{opname} ElementIndex not allowed when the graph {} selected by {} is not an OpTypeArray or \
                     OpTypeRuntimeArray",
                    io.what, io.index_name
                ),
            );
            return false;
        }
        if m.def_opcode(ty) == Some(op::OpTypeArray) {
            let length = m.def_word(ty, 3).and_then(|l| value(m, l));
            if let (Some(e), Some(length)) = (value(m, m.word(i, io.element)), length) {
                if e >= length {
                    let t = r.id(ty);
                    r.error(
                        ErrorKind::OperandType,
                        i,
                        format!(
                            "{opname} ElementIndex out of range. The type of the graph {} being accessed {t} is an \
                             array of {length} elements but ElementIndex is {e}",
                            io.what
                        ),
                    );
                    return false;
                }
            }
        }
        expected = m.def_word(ty, 2).unwrap_or(0);
    }
    let which = if has_element { "component type" } else { "type" };
    if io.what == "input" {
        let result_type = m.result_type_word(i);
        if result_type != expected {
            let (t, v, e) = (r.id(result_type), r.id(m.result_id_word(i)), r.id(expected));
            r.error(
                ErrorKind::OperandType,
                i,
                format!(
                    "Result Type {t} of graph input instruction {v} does not match the {which} {e} of input {index} \
                     in the graph type."
                ),
            );
            return false;
        }
    } else {
        let value_id = m.word(i, 0);
        let value_type = m.type_of(value_id);
        if value_type != expected {
            let (t, v, e) = (r.id(value_type), r.id(value_id), r.id(expected));
            r.error(
                ErrorKind::OperandType,
                i,
                format!(
                    "The type {t} of Value provided to the graph output instruction {v} does not match the {which} \
                     {e} of output {index} in the graph type."
                ),
            );
            return false;
        }
    }
    true
}

/// The first input (output) whose evaluable index, and element index when
/// it has one, repeats an earlier one's (or an earlier whole I/O's).
fn first_duplicate(m: &Module, list: &[usize], io: &Io) -> Option<usize> {
    let mut seen = FxHashSet::default();
    for &i in list {
        let Some(index) = value(m, m.word(i, io.index)) else { continue };
        let element = if m.operands(i).len() > io.element {
            let Some(e) = value(m, m.word(i, io.element)) else { continue };
            Some(e)
        } else {
            None
        };
        if seen.contains(&(index, element)) || seen.contains(&(index, None)) {
            return Some(i);
        }
        seen.insert((index, element));
    }
    None
}
