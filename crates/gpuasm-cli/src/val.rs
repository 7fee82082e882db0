//! `gpuasm val`: validate a SPIR-V module; silent and exit 0 when valid.

use crate::io::read_input;
use anyhow::Result;
use clap::Args;
use gpuasm_spirv::binary::words_of_bytes;
use gpuasm_spirv::validate::{validate, BlockLayout, Limits, ValOptions};
use gpuasm_spirv::TargetEnv;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ValArgs {
    /// Input module; `-` or none for stdin. A folder: every `*.spv` below
    /// it, on all cores, one line per invalid file and a summary.
    input: Option<PathBuf>,
    /// Target environment (default spv1.6, as spirv-val).
    #[arg(long, value_name = "ENV")]
    target_env: Option<String>,
    /// Stop after this many errors (0: no limit).
    #[arg(long, default_value_t = 100)]
    max_errors: usize,
    /// Allow pointers under Logical addressing to be used as any other
    /// value (spirv-val's option of the same name).
    #[arg(long)]
    relax_logical_pointer: bool,
    /// Allow storing a struct into a pointer to a different struct type
    /// whose layout and members are compatible
    #[arg(long)]
    relax_struct_store: bool,
    /// Allow the LocalSizeId execution mode where the target environment
    /// does not (Vulkan before 1.3: the maintenance4 feature)
    #[arg(long)]
    allow_localsizeid: bool,
    /// Allow the Offset image operand on Vulkan image instructions other
    /// than gathers (the maintenance8 feature)
    #[arg(long)]
    allow_offset_texture_operand: bool,
    /// Allow a Base operand other than 32-bit on Vulkan bit-field and
    /// bit-count instructions (the maintenance9 feature)
    #[arg(long)]
    allow_vulkan_32_bit_bitwise: bool,
    /// Allow code patterns that spirv-opt's HLSL legalization passes fix
    /// (implies --relax-logical-pointer)
    #[arg(long)]
    before_hlsl_legalization: bool,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    layout: LayoutArgs,
}

/// Block layout rules: the Vulkan device features the application enables
/// (spirv-val's options, same names and meaning).
#[derive(Args)]
#[command(next_help_heading = "Block layout")]
struct LayoutArgs {
    /// VK_KHR_relaxed_block_layout for uniform, storage and push-constant blocks (default from Vulkan 1.1)
    #[arg(long)]
    relax_block_layout: bool,
    /// VK_KHR_uniform_buffer_standard_layout: uniform blocks follow the storage-buffer rules
    #[arg(long)]
    uniform_buffer_standard_layout: bool,
    /// VK_EXT_scalar_block_layout for uniform, storage and push-constant blocks (overrides relaxed layout)
    #[arg(long)]
    scalar_block_layout: bool,
    /// Scalar layout for Workgroup blocks
    #[arg(long)]
    workgroup_scalar_block_layout: bool,
    /// Do not check block offsets and strides (overrides the options above)
    #[arg(long)]
    skip_block_layout: bool,
}

impl LayoutArgs {
    fn block_layout(&self) -> BlockLayout {
        BlockLayout::default()
            .relax(self.relax_block_layout)
            .uniform_buffer_standard(self.uniform_buffer_standard_layout)
            .scalar(self.scalar_block_layout)
            .workgroup_scalar(self.workgroup_scalar_block_layout)
            .skip(self.skip_block_layout)
    }
}

/// Universal limits (spec 2.17); each defaults to the specification's
/// minimum, as in spirv-val.
#[derive(Args)]
#[command(next_help_heading = "Universal limits")]
struct LimitArgs {
    /// Most members of an OpTypeStruct [default: 16383]
    #[arg(long, value_name = "N")]
    max_struct_members: Option<u32>,
    /// Deepest nesting of structs in structs [default: 255]
    #[arg(long, value_name = "N")]
    max_struct_depth: Option<u32>,
    /// Most Function-storage variables in the module [default: 524287]
    #[arg(long, value_name = "N")]
    max_local_variables: Option<u32>,
    /// Most variables of other storage classes [default: 65535]
    #[arg(long, value_name = "N")]
    max_global_variables: Option<u32>,
    /// Most (literal, label) pairs of an OpSwitch [default: 16383]
    #[arg(long, value_name = "N")]
    max_switch_branches: Option<u32>,
    /// Most parameters of an OpTypeFunction [default: 255]
    #[arg(long, value_name = "N")]
    max_function_args: Option<u32>,
    /// Deepest structured control-flow nesting [default: 1023]
    #[arg(long, value_name = "N")]
    max_control_flow_nesting_depth: Option<u32>,
    /// Most indexes of an access chain [default: 255]
    #[arg(long, value_name = "N")]
    max_access_chain_indexes: Option<u32>,
    /// Largest id bound of the header [default: 4194303]
    #[arg(long, value_name = "N")]
    max_id_bound: Option<u32>,
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        // Each flag given replaces its default.
        let mut l = Limits::default();
        let set = |value: Option<u32>, field: &mut u32| {
            if let Some(v) = value {
                *field = v;
            }
        };
        set(self.max_struct_members, &mut l.max_struct_members);
        set(self.max_struct_depth, &mut l.max_struct_depth);
        set(self.max_local_variables, &mut l.max_local_variables);
        set(self.max_global_variables, &mut l.max_global_variables);
        set(self.max_switch_branches, &mut l.max_switch_branches);
        set(self.max_function_args, &mut l.max_function_args);
        set(self.max_control_flow_nesting_depth, &mut l.max_control_flow_nesting_depth);
        set(self.max_access_chain_indexes, &mut l.max_access_chain_indexes);
        set(self.max_id_bound, &mut l.max_id_bound);
        l
    }
}

pub fn run(args: ValArgs) -> Result<ExitCode> {
    let target_env = args.target_env.as_deref().map_or(Ok(TargetEnv::Universal(6)), str::parse)?;
    let options = ValOptions::default()
        .target_env(target_env)
        .max_errors(args.max_errors)
        .limits(args.limits.limits())
        .block_layout(args.layout.block_layout())
        .relax_logical_pointer(args.relax_logical_pointer)
        .relax_struct_store(args.relax_struct_store)
        .allow_localsizeid(args.allow_localsizeid)
        .allow_offset_texture_operand(args.allow_offset_texture_operand)
        .allow_vulkan_32_bit_bitwise(args.allow_vulkan_32_bit_bitwise)
        .before_hlsl_legalization(args.before_hlsl_legalization);
    if let Some(dir) = args.input.as_deref().filter(|p| p.is_dir()) {
        return crate::val_dir::run(dir, &options);
    }
    // One module: large tables read from several threads. (A directory's
    // files are validated on all cores at once, each on one thread, with
    // small tables: one shared heap would be contended.)
    crate::alloc::use_huge_pages();
    let (bytes, name) = read_input(args.input.as_deref())?;
    let words = match words_of_bytes(&bytes) {
        Ok((w, _)) => w,
        Err(e) => {
            messageln!("gpuasm: error: {name}: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    match validate(&words, &options) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(errors) => {
            for e in &errors {
                messageln!("gpuasm: error: {name}: word {}: {} [{:?}]", e.word_offset, e.message, e.kind);
                if let Some(i) = &e.instruction {
                    messageln!("  {i}");
                }
            }
            Ok(ExitCode::from(1))
        }
    }
}
