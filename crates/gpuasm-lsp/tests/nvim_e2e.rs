//! Runs `scripts/lsp-e2e` (headless Neovim as the client) against this
//! crate's server binary; skipped when `nvim` is not installed.

use std::process::Command;

#[test]
fn neovim_drives_the_server() {
    if Command::new("nvim").arg("--version").output().is_err() {
        eprintln!("skipped: nvim is not installed (apt-get install -y neovim)");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/lsp-e2e");
    let out = Command::new(script).arg(env!("CARGO_BIN_EXE_gpuasm-lsp")).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("lsp-e2e: 4 passed, 0 failed"), "{stdout}");
}
