//! Universal limits (spec 2.17), with spirv-val's `--max-*` overrides:
//! struct members and nesting, OpSwitch pairs, local and global variables
//! and the id bound, which spirv-val checks in its first walk. (Function
//! parameters and access-chain indexes are checked with their instructions'
//! other rules, in `type_decls.rs` and `memory.rs`; control-flow nesting
//! depth needs the dominator tree: see `dominance.rs`.)

use super::{ErrorKind, Report};
use crate::grammar::{op, storage_class};
use crate::module::Module;
use rustc_hash::FxHashMap;

/// The limits, defaulting to the minimums of spec 2.17 that spirv-val uses.
/// Each field is the largest value allowed and mirrors the spirv-val option
/// of the same name (`--max-struct-members` and so on). Built from the
/// default with one method per field:
///
/// ```
/// use gpuasm_spirv::validate::{Limits, ValOptions};
/// let limits = Limits::default().max_struct_members(8).max_id_bound(1000);
/// let options = ValOptions::default().limits(limits);
/// assert_eq!(options.limits.max_struct_members, 8);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Members of an `OpTypeStruct` (default 16383). Compared, as spirv-val
    /// does, after cutting it to 16 bits.
    pub max_struct_members: u32,
    /// Nesting depth of structs in structs, a struct without struct members
    /// being 1 (default 255).
    pub max_struct_depth: u32,
    /// `OpVariable`s in the `Function` storage class, in the whole module
    /// (default 524287).
    pub max_local_variables: u32,
    /// `OpVariable`s in any other storage class (default 65535).
    pub max_global_variables: u32,
    /// (literal, label) pairs of an `OpSwitch` (default 16383).
    pub max_switch_branches: u32,
    /// Parameters of an `OpTypeFunction` (default 255).
    pub max_function_args: u32,
    /// Depth of structured control-flow nesting (default 1023).
    pub max_control_flow_nesting_depth: u32,
    /// Indexes of an access chain, not counting the element operand of the
    /// `Ptr` forms (default 255).
    pub max_access_chain_indexes: u32,
    /// The header's id bound (default 0x3fffff, 4194303).
    pub max_id_bound: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_struct_members: 16383,
            max_struct_depth: 255,
            max_local_variables: 524287,
            max_global_variables: 65535,
            max_switch_branches: 16383,
            max_function_args: 255,
            max_control_flow_nesting_depth: 1023,
            max_access_chain_indexes: 255,
            max_id_bound: 0x3f_ffff,
        }
    }
}

impl Limits {
    /// Sets [`Limits::max_struct_members`] (spirv-val's `--max-struct-members`).
    pub fn max_struct_members(mut self, max_struct_members: u32) -> Self {
        self.max_struct_members = max_struct_members;
        self
    }

    /// Sets [`Limits::max_struct_depth`] (spirv-val's `--max-struct-depth`).
    pub fn max_struct_depth(mut self, max_struct_depth: u32) -> Self {
        self.max_struct_depth = max_struct_depth;
        self
    }

    /// Sets [`Limits::max_local_variables`] (spirv-val's `--max-local-variables`).
    pub fn max_local_variables(mut self, max_local_variables: u32) -> Self {
        self.max_local_variables = max_local_variables;
        self
    }

    /// Sets [`Limits::max_global_variables`] (spirv-val's `--max-global-variables`).
    pub fn max_global_variables(mut self, max_global_variables: u32) -> Self {
        self.max_global_variables = max_global_variables;
        self
    }

    /// Sets [`Limits::max_switch_branches`] (spirv-val's `--max-switch-branches`).
    pub fn max_switch_branches(mut self, max_switch_branches: u32) -> Self {
        self.max_switch_branches = max_switch_branches;
        self
    }

    /// Sets [`Limits::max_function_args`] (spirv-val's `--max-function-args`).
    pub fn max_function_args(mut self, max_function_args: u32) -> Self {
        self.max_function_args = max_function_args;
        self
    }

    /// Sets [`Limits::max_control_flow_nesting_depth`] (spirv-val's `--max-control-flow-nesting-depth`).
    pub fn max_control_flow_nesting_depth(mut self, max_control_flow_nesting_depth: u32) -> Self {
        self.max_control_flow_nesting_depth = max_control_flow_nesting_depth;
        self
    }

    /// Sets [`Limits::max_access_chain_indexes`] (spirv-val's `--max-access-chain-indexes`).
    pub fn max_access_chain_indexes(mut self, max_access_chain_indexes: u32) -> Self {
        self.max_access_chain_indexes = max_access_chain_indexes;
        self
    }

    /// Sets [`Limits::max_id_bound`] (spirv-val's `--max-id-bound`).
    pub fn max_id_bound(mut self, max_id_bound: u32) -> Self {
        self.max_id_bound = max_id_bound;
        self
    }
}

/// The id bound, checked before anything else (as spirv-val does).
pub(crate) fn check_bound(m: &Module, limits: &Limits, r: &mut Report) {
    if m.header.bound > limits.max_id_bound {
        r.module_error(
            ErrorKind::Limit,
            format!("Invalid SPIR-V.  The id bound is larger than the max id bound {}.", limits.max_id_bound),
        );
    }
}

pub(crate) fn check(m: &Module, limits: &Limits, r: &mut Report) {
    let mut depth: FxHashMap<u32, u32> = FxHashMap::default();
    let bound = m.header.bound;
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        let n = m.operands(i).len();
        // An instruction without a result counts as id 0 (so under a
        // bound of 0, the first instruction is out of bounds), as in
        // spirv-val.
        let id = m.result_id_at(inst);
        if id >= bound {
            r.error(ErrorKind::Limit, i, format!("Result <id> '{id}' must be less than the ID bound '{bound}'."));
            continue;
        }
        match inst.opcode() {
            op::OpTypeStruct => {
                // spirv-val compares against the limit cut to 16 bits.
                let limit = limits.max_struct_members as u16;
                if n - 1 > limit as usize {
                    r.error(
                        ErrorKind::Limit,
                        i,
                        format!("Number of OpTypeStruct members ({}) has exceeded the limit ({limit}).", n - 1),
                    );
                    continue;
                }
                // Nesting: 1 + the deepest struct member (arrays and pointers
                // are not followed).
                let members = (1..n).filter_map(|k| depth.get(&m.word(i, k)).copied()).max().unwrap_or(0);
                let d = members + 1;
                depth.insert(m.result_id_at(inst), d);
                if d > limits.max_struct_depth {
                    r.error(
                        ErrorKind::Limit,
                        i,
                        format!(
                            "Structure Nesting Depth may not be larger than {}. Found {d}.",
                            limits.max_struct_depth
                        ),
                    );
                }
            }
            op::OpSwitch => {
                let pairs = (n - 2) / 2;
                if pairs > limits.max_switch_branches as usize {
                    r.error(
                        ErrorKind::Limit,
                        i,
                        format!(
                            "Number of (literal, label) pairs in OpSwitch ({pairs}) exceeds the limit ({}).",
                            limits.max_switch_branches
                        ),
                    );
                }
            }
            _ => {}
        }
    }
}

/// The counts of local and global variables, which spirv-val checks at each
/// OpVariable before the instruction's capabilities (the other limits come
/// after them).
pub(crate) fn check_variables(m: &Module, limits: &Limits, r: &mut Report) {
    let mut vars = [
        (0u64, false, limits.max_local_variables, "local variables ('Function' Storage Class)"),
        (0u64, false, limits.max_global_variables, "Global Variables (Storage Class other than 'Function')"),
    ];
    for i in (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpVariable) {
        // Reported once each, without an instruction, as spirv-val
        // does, but met at the variable past the limit.
        let k = usize::from(m.word(i, 2) != storage_class::Function);
        let (count, reported, limit, what) = &mut vars[k];
        *count += 1;
        if *count > u64::from(*limit) && !*reported {
            *reported = true;
            let message = format!("Number of {what} exceeded the valid limit ({limit}).");
            r.module_error_met_at(ErrorKind::Limit, i, message);
        }
    }
}
