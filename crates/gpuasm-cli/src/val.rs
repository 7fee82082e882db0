//! `gpuasm val`: validate a SPIR-V module, a binary or a text (assembled
//! first, its errors then shown in the text); silent and exit 0 when valid.

use crate::io::read_input;
use crate::report::{self, ErrorFormat};
use anyhow::Result;
use clap::Args;
use gpuasm_diag::Severity;
use gpuasm_spirv::binary::{words_of_bytes, MAGIC};
use gpuasm_spirv::text::{parse, text_from_bytes, AsmOptions};
use gpuasm_spirv::validate::{validate, validate_module, BlockLayout, Limits, ValOptions};
use gpuasm_spirv::TargetEnv;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ValArgs {
    /// Input module: a binary, or assembly text (told by its content); `-`
    /// or none for stdin. A folder: every `*.spv` below it, on all cores,
    /// one line per invalid file and a summary.
    input: Option<PathBuf>,
    /// Target environment (default spv1.6, as spirv-val); a text is also
    /// assembled for it (as `gpuasm as --target-env`).
    #[arg(long, value_name = "ENV")]
    target_env: Option<String>,
    /// How errors are printed: `human`, or `json`: one object a line (docs/error-format-json.md)
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "human")]
    error_format: ErrorFormat,
    #[command(flatten)]
    checks: ValChecks,
}

/// The validator's switches other than the environment: `gpuasm val`'s,
/// and `gpuasm as --validate`'s.
#[derive(Args)]
pub struct ValChecks {
    /// Report at most this many errors (0: all). The first is spirv-val's;
    /// the others follow in module order, each independent error once.
    #[arg(long, value_name = "N", default_value_t = 0)]
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
    // spirv-val 2025.5 knows this option only as `--max-struct_depth`:
    // command lines written for it keep working.
    #[arg(long, value_name = "N", alias = "max-struct_depth")]
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

impl ValChecks {
    /// The validator's options for `target_env`.
    pub fn options(&self, target_env: TargetEnv) -> ValOptions {
        ValOptions::default()
            .target_env(target_env)
            .max_errors(self.max_errors)
            .limits(self.limits.limits())
            .block_layout(self.layout.block_layout())
            .relax_logical_pointer(self.relax_logical_pointer)
            .relax_struct_store(self.relax_struct_store)
            .allow_localsizeid(self.allow_localsizeid)
            .allow_offset_texture_operand(self.allow_offset_texture_operand)
            .allow_vulkan_32_bit_bitwise(self.allow_vulkan_32_bit_bitwise)
            .before_hlsl_legalization(self.before_hlsl_legalization)
    }
}

/// The input size (binary or text) from which `gpuasm val` asks for huge
/// pages.
const HUGE_PAGES_FROM: usize = 16 << 20;

pub fn run(args: ValArgs) -> Result<ExitCode> {
    report::set_format(args.error_format);
    let asm_env = args.target_env.as_deref().map(str::parse::<TargetEnv>).transpose()?;
    let options = args.checks.options(asm_env.unwrap_or(TargetEnv::Universal(6)));
    if let Some(dir) = args.input.as_deref().filter(|p| p.is_dir()) {
        return crate::val_dir::run(dir, &options);
    }
    let (bytes, name) = read_input(args.input.as_deref())?;
    // One large module: large tables read from several threads. Below
    // HUGE_PAGES_FROM, the memory a half-used 2 MiB page wastes is a tenth
    // of the peak and more, for 5–10% of the time. (A directory's files are
    // validated on all cores at once, each on one thread, with small
    // tables: one shared heap would be contended.)
    if bytes.len() >= HUGE_PAGES_FROM {
        crate::alloc::use_huge_pages();
    }
    if is_text(&bytes) {
        let (text, raw_bytes) = text_from_bytes(&bytes);
        let asm_options = AsmOptions::default().raw_bytes(raw_bytes).target_env(asm_env);
        return Ok(validate_text(&name, &text, &asm_options, &options, true, None));
    }
    let words = match words_of_bytes(&bytes) {
        Ok((w, _)) => w,
        Err(e) => {
            report::plain(Severity::Error, &name, "Binary", &e.to_string(), Some(e.word_offset()));
            return Ok(ExitCode::from(1));
        }
    };
    match validate(&words, &options) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(errors) => {
            crate::io::hold_messages(|| crate::val_report::binary_errors(&name, &words, &errors));
            Ok(ExitCode::from(1))
        }
    }
}

/// Writes a valid module's words (`gpuasm as --validate`'s output).
pub type Writer<'a> = &'a dyn Fn(&[u32]) -> Result<()>;

/// Assembly text rather than a binary: it does not start with the magic
/// number (in either byte order) and has no NUL byte near its start (every
/// module's header has some). An empty input is read as a binary, which
/// reports it.
pub(crate) fn is_text(bytes: &[u8]) -> bool {
    if bytes.len() >= 4 {
        let w = [bytes[0], bytes[1], bytes[2], bytes[3]];
        if u32::from_le_bytes(w) == MAGIC || u32::from_be_bytes(w) == MAGIC {
            return false;
        }
    }
    !bytes.is_empty() && !bytes[..bytes.len().min(4096)].contains(&0)
}

/// Assembles `text` as `gpuasm as` does (its errors printed as `gpuasm as`
/// prints them), then validates the module, printing each error at its
/// place in the text; the assembler's warnings too, if `warnings`. With `written`, a valid module's words are handed to
/// it (for `gpuasm as --validate`); its failure is the command's.
pub fn validate_text(
    name: &str,
    text: &str,
    asm_options: &AsmOptions,
    options: &ValOptions,
    warnings: bool,
    written: Option<Writer<'_>>,
) -> ExitCode {
    let not_written = if written.is_some() { "; nothing written" } else { "" };
    let parsed = match parse(text, asm_options) {
        Ok(parsed) => parsed,
        Err(diags) => {
            report::text_diagnostics(name, text, &diags, "Assembly");
            let n = diags.errors().count();
            let what = if written.is_some() { "nothing written" } else { "not validated" };
            report::summary(format_args!("gpuasm: {} in {name}; {what}", report::errors(n)));
            return ExitCode::from(1);
        }
    };
    if warnings && !parsed.warnings().items.is_empty() {
        report::text_diagnostics(name, text, parsed.warnings(), "Assembly");
    }
    // Only `!<integer>` words can make a text whose module does not read.
    let module = match parsed.module() {
        Ok(module) => module,
        Err(e) => {
            report::plain(Severity::Error, name, "Binary", &e.to_string(), Some(e.word_offset()));
            return ExitCode::from(1);
        }
    };
    match validate_module(&module, options) {
        Ok(()) => match written.map(|write| write(parsed.words())) {
            Some(Err(e)) => {
                report::plain(Severity::Error, name, "Command", &format!("{e:#}"), None);
                ExitCode::from(1)
            }
            _ => ExitCode::SUCCESS,
        },
        Err(errors) => {
            crate::io::hold_messages(|| crate::val_report::text_errors(name, text, &module, &errors));
            report::summary(format_args!("gpuasm: {} in {name}{not_written}", report::errors(errors.len())));
            ExitCode::from(1)
        }
    }
}
