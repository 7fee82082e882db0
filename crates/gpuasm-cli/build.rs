//! Links `gpuasm` at a fixed address on Linux: a position-independent
//! executable has the loader relocate every pointer of the grammar tables
//! (13,000 relocations, a page fault for each page they touch) at every
//! start, which for a tool run once per file is most of its start-up.
fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    if target.contains("linux") && target.starts_with("x86_64") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
