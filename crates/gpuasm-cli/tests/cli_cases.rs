//! The CLI's behaviour as data: every folder `tests/cases/<subcommand>/<case>/`
//! is one run of `gpuasm` (see `tests/cases/README.md`), one trial named
//! `<subcommand>/<case>`.
//!
//! `BLESS=1 cargo test -p gpuasm --test cli_cases` rewrites the expected
//! files of our own behaviour (`stdout`, `stderr`, `status`, `out/`); the
//! peers' recorded outputs (`peer.stdout`, `peer.out/`) are never rewritten.

use libtest_mimic::{Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

fn bless() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| v != "0")
}

/// Copies the files below `from` into `to`.
fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// The files below `dir`, by `/`-separated path relative to it.
fn files_below(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            out.extend(files_below(&path).into_iter().map(|f| format!("{name}/{f}")));
        } else {
            out.push(name);
        }
    }
    out.sort();
    out
}

/// Where two outputs first differ, line by line.
fn first_difference(want: &[u8], got: &[u8]) -> String {
    let (want, got) = (String::from_utf8_lossy(want), String::from_utf8_lossy(got));
    let (mut w, mut g) = (want.split_inclusive('\n'), got.split_inclusive('\n'));
    for line in 1.. {
        match (w.next(), g.next()) {
            (None, None) => return "a difference in bytes only".into(),
            (a, b) if a == b => continue,
            (a, b) => return format!("line {line}:\n    want: {a:?}\n    got:  {b:?}"),
        }
    }
    unreachable!()
}

/// Replaces every occurrence of `from` in `bytes` with `to`.
fn replace(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if !from.is_empty() && bytes[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

/// Compares one output with its expected file: `peer` files are the
/// peers' recorded outputs and are never blessed.
fn expect(case: &Path, file: &str, got: &[u8], peer: bool, failures: &mut Vec<String>) {
    let path = case.join(file);
    let want = std::fs::read(&path).ok();
    if want.as_deref() == Some(got) {
        return;
    }
    if bless() && !peer {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(&path, got).unwrap();
        return;
    }
    match want {
        None => failures.push(format!("{file}: missing (BLESS=1 writes it)")),
        Some(want) => {
            let whose = if peer { "the peer's recorded output" } else { "expected (BLESS=1 rewrites it)" };
            failures.push(format!("{file} differs from {whose} at {}", first_difference(&want, got)));
        }
    }
}

fn run_case(case: &Path) -> Result<(), Failed> {
    let cmd = std::fs::read_to_string(case.join("cmd")).map_err(|e| format!("{}/cmd: {e}", case.display()))?;
    let args: Vec<&str> = cmd.lines().filter(|l| !l.is_empty()).collect();
    let work = tempfile::tempdir().unwrap();
    if case.join("in").is_dir() {
        copy_tree(&case.join("in"), work.path());
    }
    let stdin = match std::fs::File::open(case.join("stdin")) {
        Ok(f) => Stdio::from(f),
        Err(_) => Stdio::null(),
    };
    let out = Command::new(env!("CARGO_BIN_EXE_gpuasm"))
        .args(&args)
        .current_dir(work.path())
        .stdin(stdin)
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    // The working folder's path, where a message names it, reads `$DIR`.
    let dir = work.path().to_string_lossy().into_owned();
    let stdout = replace(&out.stdout, dir.as_bytes(), b"$DIR");
    let stderr = replace(&out.stderr, dir.as_bytes(), b"$DIR");
    let status = match out.status.code() {
        Some(code) => format!("{code}\n"),
        None => format!("{:?}\n", out.status),
    };
    let mut failures = Vec::new();
    expect(case, "status", status.as_bytes(), false, &mut failures);
    expect(case, "stderr", &stderr, false, &mut failures);
    let peer_stdout = case.join("peer.stdout").exists();
    expect(case, if peer_stdout { "peer.stdout" } else { "stdout" }, &stdout, peer_stdout, &mut failures);
    for (folder, peer) in [("out", false), ("peer.out", true)] {
        for file in files_below(&case.join(folder)) {
            let got = std::fs::read(work.path().join(&file)).unwrap_or_default();
            expect(case, &format!("{folder}/{file}"), &got, peer, &mut failures);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("gpuasm {}\n  {}", args.join(" "), failures.join("\n  ")).into())
    }
}

fn main() {
    let mut trials = Vec::new();
    let mut groups: Vec<PathBuf> = std::fs::read_dir(cases_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    groups.retain(|p| p.is_dir());
    groups.sort();
    for group in groups {
        let mut cases: Vec<PathBuf> = std::fs::read_dir(&group).unwrap().map(|e| e.unwrap().path()).collect();
        cases.retain(|p| p.join("cmd").is_file());
        cases.sort();
        let group_name = group.file_name().unwrap().to_string_lossy().into_owned();
        for case in cases {
            let name = format!("{group_name}/{}", case.file_name().unwrap().to_string_lossy());
            trials.push(Trial::test(name, move || run_case(&case)));
        }
    }
    libtest_mimic::run(&libtest_mimic::Arguments::from_args(), trials).exit()
}
