//! Links the `gpuasm` executable statically, at a fixed address, on Linux
//! with glibc; and, where the linker is LLD, with the code each main
//! subcommand runs laid out together ([`link_order`]).
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
    link_order();
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

/// Lays out the functions `gpuasm val`, `dis` and `as` run each together,
/// in the order `link-order.txt` lists them (`scripts/gen-link-order`),
/// when the linker is LLD. The kernel maps code 64 KiB around each page a
/// process first runs, and the whole of each such window counts in its
/// memory: `val` of a 1 MB module had 3.7 MB of code resident, spread over
/// the executable's 4.7 MB, and 1.7 MB laid out this way (README, speed).
/// Symbols the file names that this build lacks (other code, another
/// compiler's hashes) are skipped; nothing else changes. Rust links
/// x86-64 Linux with its own LLD since 1.90; other linkers (GNU ld has no
/// such option) and builds that choose their linker are left alone, as is
/// any build with `GPUASM_NO_LINK_ORDER` set.
fn link_order() {
    println!("cargo:rerun-if-changed=link-order.txt");
    println!("cargo:rerun-if-env-changed=GPUASM_NO_LINK_ORDER");
    let env = |name: &str| std::env::var(name).unwrap_or_default();
    let flags = env("CARGO_ENCODED_RUSTFLAGS");
    let chosen_linker = std::env::var_os("RUSTC_LINKER").is_some()
        || ["linker", "link-self-contained", "fuse-ld"].iter().any(|f| flags.contains(f));
    if env("TARGET") != "x86_64-unknown-linux-gnu"
        || chosen_linker
        || std::env::var_os("GPUASM_NO_LINK_ORDER").is_some()
        || !rustc_links_with_lld()
    {
        return;
    }
    let file = PathBuf::from(env("CARGO_MANIFEST_DIR")).join("link-order.txt");
    if file.is_file() {
        println!("cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={}", file.display());
        println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    }
}

/// Whether the compiler is Rust 1.90 or later, which links
/// `x86_64-unknown-linux-gnu` with its own LLD by default.
fn rustc_links_with_lld() -> bool {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let Ok(out) = Command::new(rustc).arg("-vV").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(release) = text.lines().find_map(|l| l.strip_prefix("release: ")) else {
        return false;
    };
    let mut parts = release.split(['.', '-']).map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    (major, minor) >= (1, 90)
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
