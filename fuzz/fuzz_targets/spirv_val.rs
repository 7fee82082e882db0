//! Bytes → words → validate, in two target environments, with tight
//! universal limits and with every option that lifts a rule. Must never panic or hang; every error must point
//! inside the module.
#![no_main]
use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::validate::{validate, Limits, ValOptions};
use gpuasm_spirv::TargetEnv;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok((words, _)) = words_from_bytes(data) else { return };
    let tight = Limits::default()
        .max_struct_members(2)
        .max_struct_depth(1)
        .max_local_variables(1)
        .max_global_variables(1)
        .max_switch_branches(1)
        .max_function_args(1)
        .max_control_flow_nesting_depth(1)
        .max_access_chain_indexes(1)
        .max_id_bound(64);
    let relaxed = ValOptions::default()
        .target_env(TargetEnv::Vulkan(2))
        .max_errors(8)
        .relax_struct_store(true)
        .allow_localsizeid(true)
        .allow_offset_texture_operand(true)
        .allow_vulkan_32_bit_bitwise(true)
        .before_hlsl_legalization(true);
    let configurations = [
        (TargetEnv::Universal(6), Limits::default()),
        (TargetEnv::Vulkan(0), Limits::default()),
        (TargetEnv::Universal(5), tight),
    ]
    .map(|(target_env, limits)| ValOptions::default().target_env(target_env).max_errors(8).limits(limits));
    for options in configurations.iter().chain([&relaxed]) {
        if let Err(errors) = validate(&words, options) {
            assert!(!errors.is_empty() && errors.len() <= 8);
            for e in errors {
                assert!(e.word_offset <= words.len());
            }
        }
    }
});
