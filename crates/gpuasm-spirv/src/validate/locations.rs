//! Vulkan interface locations (spirv-val's ValidateLocations): every user
//! Input and Output variable of a vertex, tessellation, geometry or
//! fragment entry point has a location (on the variable, or on each member
//! of its Block), members of a located variable have none, and no two
//! variables of one entry point share a location and component.

use super::block_layout::Decorations;
use super::{ErrorKind, Report};
use crate::grammar::{addressing_model, decoration as d, execution_model as em, op, storage_class as sc};
use crate::module::Module;
use rustc_hash::FxHashSet;

/// spirv-val stops counting at this many locations (times four components).
const MAX_LOCATIONS: u32 = 4096 * 4;

struct Ctx<'m> {
    m: &'m Module<'m>,
    decs: Decorations,
    psb: bool,
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    let psb = m.addressing_model() == Some(addressing_model::PhysicalStorageBuffer64);
    let cx = Ctx { m, decs: Decorations::read(m), psb };
    for i in 0..m.insts.len() {
        if m.opcode(i) == op::OpEntryPoint {
            if let Err((at, message)) = cx.entry_point(i) {
                r.error(ErrorKind::EntryPoint, at, message);
                return;
            }
        }
    }
}

type Failure = (usize, String);

impl Ctx<'_> {
    fn index_of(&self, id: u32, fallback: usize) -> usize {
        self.m.def_index(id).unwrap_or(fallback)
    }

    fn entry_point(&self, i: usize) -> Result<(), Failure> {
        let m = self.m;
        let model = m.word(i, 0);
        if !matches!(
            model,
            em::Vertex | em::TessellationControl | em::TessellationEvaluation | em::Geometry | em::Fragment
        ) {
            return Ok(());
        }
        let mut inputs = FxHashSet::default();
        let mut outputs = FxHashSet::default();
        let mut outputs_index1 = FxHashSet::default();
        // Patch variables (tessellation) have locations of their own.
        let (mut patch, mut patch_index1) = (FxHashSet::default(), FxHashSet::default());
        let mut seen = FxHashSet::default();
        for k in 3..m.operands(i).len() {
            let var = m.word(i, k);
            let Some(v) = m.def_index(var) else { continue };
            if m.opcode(v) != op::OpVariable {
                continue;
            }
            let class = m.word(v, 2);
            if (class != sc::Input && class != sc::Output) || !seen.insert(var) {
                continue;
            }
            if m.has_decoration(var, crate::grammar::decoration::Patch) {
                self.variable(i, model, v, &mut patch, &mut patch_index1)?;
                continue;
            }
            let set = if class == sc::Input { &mut inputs } else { &mut outputs };
            self.variable(i, model, v, set, &mut outputs_index1)?;
        }
        Ok(())
    }

    /// GetLocationsForVariable.
    fn variable(
        &self,
        ep: usize,
        model: u32,
        v: usize,
        locations: &mut FxHashSet<u32>,
        index1: &mut FxHashSet<u32>,
    ) -> Result<(), Failure> {
        let m = self.m;
        let var = m.result_id_word(v);
        let is_output = m.word(v, 2) == sc::Output;
        let is_fragment = model == em::Fragment;
        let mut ty = m.def_word(m.result_type_word(v), 3).unwrap_or(0);
        let fail = |message: &str| Err((v, message.to_string()));
        let (mut location, mut component, mut index) = (None, None, None);
        let (mut patch, mut per_task, mut per_vertex) = (false, false, false);
        for &(dec, param) in self.decs.on_id.get(&var).into_iter().flatten() {
            let p = param.unwrap_or(0);
            match dec {
                d::Location => {
                    if location.is_some_and(|l| l != p) {
                        return fail("Variable has conflicting location decorations");
                    }
                    location = Some(p);
                }
                d::Component => {
                    if component.is_some_and(|c| c != p) {
                        return fail("Variable has conflicting component decorations");
                    }
                    component = Some(p);
                }
                d::Index => {
                    if !is_output || !is_fragment {
                        return fail("Index can only be applied to Fragment output variables");
                    }
                    if index.is_some_and(|x| x != p) {
                        return fail("Variable has conflicting index decorations");
                    }
                    index = Some(p);
                }
                d::BuiltIn => return Ok(()),
                d::Patch => patch = true,
                d::PerTaskNV => per_task = true,
                d::PerVertexKHR => {
                    if !is_fragment {
                        return fail(
                            "[VUID-StandaloneSpirv-PerVertexKHR-06777] PerVertexKHR can only be applied to Fragment Execution Models",
                        );
                    }
                    if !matches!(m.def_opcode(ty), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) {
                        return fail("[VUID-StandaloneSpirv-Input-06778] PerVertexKHR must be declared as arrays");
                    }
                    per_vertex = true;
                }
                _ => {}
            }
        }
        // A layer of arraying that interface matching ignores.
        let arrayed = match model {
            em::TessellationControl => !patch,
            em::TessellationEvaluation => !is_output && !patch,
            em::Geometry => !is_output,
            em::Fragment => !is_output && per_vertex,
            em::MeshNV => is_output && !per_task,
            _ => false,
        };
        if arrayed && matches!(m.def_opcode(ty), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) {
            ty = m.def_word(ty, 2).unwrap_or(0);
        }
        let is_struct = m.def_opcode(ty) == Some(op::OpTypeStruct);
        if is_struct && self.decs.has_anywhere(ty, d::BuiltIn) {
            return Ok(());
        }
        let is_block = self.decs.has_anywhere(ty, d::Block);
        let Some(location) = location else {
            if !is_block {
                let vuid = if is_struct { "04917" } else { "04916" };
                return fail(&format!(
                    "[VUID-StandaloneSpirv-Location-{vuid}] Variable must be decorated with a location"
                ));
            }
            return self.block_members(ep, v, ty, is_output, locations);
        };
        let component = component.unwrap_or(0);
        let (mut sub, mut array_size) = (ty, 1);
        if m.def_opcode(ty) == Some(op::OpTypeArray) {
            array_size = self.int32_constant(m.def_word(ty, 3).unwrap_or(0)).unwrap_or(1);
            sub = m.def_word(ty, 2).unwrap_or(0);
        }
        let num_locations = self.consumed_locations(sub, v)?;
        let num_components = self.consumed_components(sub);
        let set = if index == Some(1) { index1 } else { locations };
        for a in 0..array_size {
            let at = location.wrapping_add(num_locations.wrapping_mul(a));
            // spirv-val's 32-bit arithmetic: a location past 2^30 wraps.
            if at.wrapping_mul(4) >= MAX_LOCATIONS {
                break;
            }
            self.claim(set, (ep, is_output), at, component, num_locations, num_components)?;
        }
        Ok(())
    }

    /// A Block without a location: each member needs one.
    fn block_members(
        &self,
        ep: usize,
        v: usize,
        ty: u32,
        is_output: bool,
        locations: &mut FxHashSet<u32>,
    ) -> Result<(), Failure> {
        let m = self.m;
        let at_type = self.index_of(ty, v);
        let mut member_locations = rustc_hash::FxHashMap::default();
        let mut member_components = rustc_hash::FxHashMap::default();
        for &(member, dec, param) in self.decs.on_member.get(&ty).into_iter().flatten() {
            let p = param.unwrap_or(0);
            let (map, what) = match dec {
                d::Location => (&mut member_locations, "location"),
                d::Component => (&mut member_components, "component"),
                _ => continue,
            };
            if *map.entry(member).or_insert(p) != p {
                return Err((at_type, format!("Member index {member} has conflicting {what} assignments")));
            }
        }
        let members = m.operands_len_of(ty).saturating_sub(1);
        for k in 0..members as u32 {
            let Some(&location) = member_locations.get(&k) else {
                return Err((
                    at_type,
                    format!("[VUID-StandaloneSpirv-Location-04919] Member index {k} is missing a location assignment"),
                ));
            };
            let member = m.def_word(ty, 2 + k as usize).unwrap_or(0);
            let num_locations = self.consumed_locations(member, at_type)?;
            let num_components = self.consumed_components(member);
            let component = member_components.get(&k).copied().unwrap_or(0);
            if location.wrapping_mul(4) >= MAX_LOCATIONS {
                continue;
            }
            if m.def_opcode(member) == Some(op::OpTypeArray) && (1..4).contains(&num_components) {
                for l in (location..location.wrapping_add(num_locations)).take(MAX_LOCATIONS as usize) {
                    for c in component..component.wrapping_add(num_components) {
                        if !locations.insert(l.wrapping_mul(4).wrapping_add(c)) {
                            return Err(self.conflict(ep, is_output, l, c));
                        }
                    }
                }
            } else {
                self.claim(locations, (ep, is_output), location, component, num_locations, num_components)?;
            }
        }
        Ok(())
    }

    /// Takes the components a value uses from `location` (all four of each
    /// location, or `num_components` from `component` when it counts them).
    fn claim(
        &self,
        set: &mut FxHashSet<u32>,
        (ep, is_output): (usize, bool),
        location: u32,
        component: u32,
        num_locations: u32,
        num_components: u32,
    ) -> Result<(), Failure> {
        // 32-bit arithmetic that wraps, as spirv-val's.
        let mut start = location.wrapping_mul(4);
        let mut end = location.wrapping_add(num_locations).wrapping_mul(4);
        if num_components != 0 {
            start = start.wrapping_add(component);
            end = location.wrapping_mul(4).wrapping_add(component).wrapping_add(num_components);
        }
        for c in start..end.min(start.saturating_add(MAX_LOCATIONS)) {
            if !set.insert(c) {
                return Err(self.conflict(ep, is_output, c / 4, c % 4));
            }
        }
        Ok(())
    }

    fn conflict(&self, ep: usize, is_output: bool, location: u32, component: u32) -> Failure {
        let (vuid, class) = if is_output { ("08722", "output") } else { ("08721", "input") };
        (
            ep,
            format!(
                "[VUID-StandaloneSpirv-OpEntryPoint-{vuid}] Entry-point has conflicting {class} location assignment at location {location}, component {component}"
            ),
        )
    }

    /// The value of a 32-bit integer OpConstant.
    fn int32_constant(&self, id: u32) -> Option<u32> {
        let m = self.m;
        let ty = m.type_of(id);
        (m.def_opcode(ty) == Some(op::OpTypeInt) && m.def_word(ty, 2) == Some(32))
            .then(|| m.constant_value(id))
            .flatten()
    }

    /// NumConsumedLocations.
    fn consumed_locations(&self, ty: u32, at: usize) -> Result<u32, Failure> {
        let m = self.m;
        let at_type = self.index_of(ty, at);
        Ok(match m.def_opcode(ty) {
            Some(op::OpTypeInt | op::OpTypeFloat) => 1,
            Some(op::OpTypeVector) => {
                let component = m.def_word(ty, 2).unwrap_or(0);
                let wide = matches!(m.def_opcode(component), Some(op::OpTypeInt | op::OpTypeFloat))
                    && m.def_word(component, 2) == Some(64);
                if wide && m.def_word(ty, 3).unwrap_or(0) > 2 {
                    2
                } else {
                    1
                }
            }
            Some(op::OpTypeMatrix) => {
                // As spirv-val: an error in the column type is not passed on.
                let column = self.consumed_locations(m.def_word(ty, 2).unwrap_or(0), at).unwrap_or(0);
                column.wrapping_mul(m.def_word(ty, 3).unwrap_or(0))
            }
            Some(op::OpTypeArray) => {
                let element = self.consumed_locations(m.def_word(ty, 2).unwrap_or(0), at).unwrap_or(0);
                match self.int32_constant(m.def_word(ty, 3).unwrap_or(0)) {
                    Some(n) => element.wrapping_mul(n),
                    None => element,
                }
            }
            Some(op::OpTypeStruct) => {
                if self.decs.has_anywhere(ty, d::Location) {
                    return Err((
                        at_type,
                        "[VUID-StandaloneSpirv-Location-04918] Members cannot be assigned a location".into(),
                    ));
                }
                let mut total = 0u32;
                for w in 2..=m.operands_len_of(ty) {
                    total = total.wrapping_add(self.consumed_locations(m.def_word(ty, w).unwrap_or(0), at)?);
                }
                total
            }
            Some(op::OpTypePointer) if self.psb && m.def_word(ty, 2) == Some(sc::PhysicalStorageBuffer) => 1,
            _ => return Err((at_type, "Invalid type to assign a location".into())),
        })
    }

    /// NumConsumedComponents.
    fn consumed_components(&self, ty: u32) -> u32 {
        let m = self.m;
        match m.def_opcode(ty) {
            Some(op::OpTypeInt | op::OpTypeFloat) => {
                if m.def_word(ty, 2) == Some(64) {
                    2
                } else {
                    1
                }
            }
            Some(op::OpTypeVector) => {
                self.consumed_components(m.def_word(ty, 2).unwrap_or(0)).wrapping_mul(m.def_word(ty, 3).unwrap_or(0))
            }
            Some(op::OpTypeArray) => self.consumed_components(m.def_word(ty, 2).unwrap_or(0)),
            Some(op::OpTypePointer) if self.psb && m.def_word(ty, 2) == Some(sc::PhysicalStorageBuffer) => 2,
            _ => 0,
        }
    }
}
