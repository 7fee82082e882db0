//! Links the `gpuasm` executable at a fixed address (not position
//! independent) on Linux with glibc.
//!
//! A position-independent executable has its pointer tables (the grammar's
//! names and operand lists, clap's command tree) patched by the dynamic
//! loader at every start: about 16,000 relocations that copy 440 KB of
//! pages. That was a fifth of the run on a small module (2.2 ms → 1.8 ms
//! for `gpuasm --version`, 0.7 MB less memory); see the README's speed
//! section. The price is that the executable's own image is not placed at
//! a random address (the libraries, heap and stacks still are). Set
//! `GPUASM_PIE=1` when building to keep the default.

fn main() {
    println!("cargo:rerun-if-env-changed=GPUASM_PIE");
    let linux_gnu = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
        && std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu");
    if linux_gnu && std::env::var_os("GPUASM_PIE").is_none() {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
