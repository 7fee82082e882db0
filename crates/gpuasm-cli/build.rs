//! Links the `gpuasm` executable statically, at a fixed address, on Linux
//! with glibc.
//!
//! Start-up is a large part of a run on a small module, and most of it was
//! the dynamic loader's:
//! - A position-independent executable has its pointer tables (the
//!   grammar's names and operand lists, clap's command tree) patched by the
//!   loader at every start: about 16,000 relocations that copy 440 KB of
//!   pages. Linking with `-no-pie` took `gpuasm --version` from 2.2 to
//!   1.8 ms and 0.7 MB less memory.
//! - Loading libc, libm, libgcc_s and the loader itself (mapping them,
//!   resolving their symbols, their pages) took another 0.5 ms of the
//!   remaining 1.7 ms, and 1.2 MB of memory; see the README's speed
//!   section.
//!
//! Rust links statically with `-C target-feature=+crt-static`, but only as
//! a flag for every crate of the build, which proc-macro crates refuse
//! unless `--target` is given. Only the link line of the executable needs
//! to change, so this script does what that flag does to it: `-static
//! -no-pie`, and a search directory, first of all, where each system
//! library the standard library names (`-lc`, `-lm`, `-lgcc_s`, ...)
//! finds its static archive (`libgcc_s` finds `libgcc_eh`, its static
//! counterpart) before the linker reaches the shared one. The standard
//! library is the same code either way.
//!
//! When an archive is missing (no `libc.a`, say), the executable is linked
//! dynamically with `-no-pie`, as before. `GPUASM_DYNAMIC=1` asks for that;
//! `GPUASM_PIE=1` keeps the toolchain's default (dynamic, position
//! independent).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The libraries the standard library links on Linux with glibc, and the
/// static archive each is given.
const ARCHIVES: &[(&str, &str)] = &[
    ("gcc_s", "libgcc_eh.a"),
    ("util", "libutil.a"),
    ("rt", "librt.a"),
    ("pthread", "libpthread.a"),
    ("m", "libm.a"),
    ("dl", "libdl.a"),
    ("c", "libc.a"),
];

fn main() {
    println!("cargo:rerun-if-env-changed=GPUASM_PIE");
    println!("cargo:rerun-if-env-changed=GPUASM_DYNAMIC");
    println!("cargo:rerun-if-env-changed=CC");
    let env = |name: &str| std::env::var(name).unwrap_or_default();
    let linux_gnu = env("CARGO_CFG_TARGET_OS") == "linux" && env("CARGO_CFG_TARGET_ENV") == "gnu";
    if !linux_gnu || std::env::var_os("GPUASM_PIE").is_some() {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-no-pie");
    // A build that asks for crt-static already links statically.
    let crt_static = env("CARGO_CFG_TARGET_FEATURE").split(',').any(|f| f == "crt-static");
    // Cross builds would need the target's archives, which the host's C
    // compiler does not name.
    if crt_static || std::env::var_os("GPUASM_DYNAMIC").is_some() || env("HOST") != env("TARGET") {
        return;
    }
    let dir = PathBuf::from(env("OUT_DIR")).join("static-libs");
    match archive_dir(&dir) {
        Ok(()) => {
            // A `-L` given to the compiler driver comes before its own
            // system directories, wherever it stands on the line.
            println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
            println!("cargo:rustc-link-arg-bins=-static");
        }
        Err(why) => println!("cargo:warning=gpuasm is linked dynamically: {why}"),
    }
}

/// Fills `dir` with a link `lib<name>.a` to each library's static archive.
fn archive_dir(dir: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (name, archive) in ARCHIVES {
        let found = find_archive(archive).ok_or_else(|| format!("the C compiler finds no {archive}"))?;
        let link = dir.join(format!("lib{name}.a"));
        symlink(&found, &link).map_err(|e| format!("{}: {e}", link.display()))?;
    }
    Ok(())
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(not(unix))]
fn symlink(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other("the build host is not Unix"))
}

/// Where the C compiler (the linker driver Rust uses by default) finds
/// `archive`, if it does.
fn find_archive(archive: &str) -> Option<PathBuf> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(cc).arg(format!("-print-file-name={archive}")).output().ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    // Without it, the compiler prints the name back unchanged.
    (path.is_absolute() && path.is_file()).then(|| path.canonicalize().unwrap_or(path))
}
