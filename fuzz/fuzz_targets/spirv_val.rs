//! Bytes → words → validate, in two target environments and with tight
//! universal limits. Must never panic or hang; every error must point
//! inside the module.
#![no_main]
use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::validate::{validate, Limits, ValidatorOptions};
use gpuasm_spirv::TargetEnv;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok((words, _)) = words_from_bytes(data) else { return };
    let tight = Limits {
        max_struct_members: 2,
        max_struct_depth: 1,
        max_local_variables: 1,
        max_global_variables: 1,
        max_switch_branches: 1,
        max_function_args: 1,
        max_control_flow_nesting_depth: 1,
        max_access_chain_indexes: 1,
        max_id_bound: 64,
    };
    for (target_env, limits) in
        [(TargetEnv::Universal(6), Limits::default()), (TargetEnv::Vulkan(0), Limits::default()), (TargetEnv::Universal(5), tight)]
    {
        if let Err(errors) = validate(&words, &ValidatorOptions { target_env, max_errors: 8, limits, ..Default::default() }) {
            assert!(!errors.is_empty() && errors.len() <= 8);
            for e in errors {
                assert!(e.word_offset <= words.len());
            }
        }
    }
});
