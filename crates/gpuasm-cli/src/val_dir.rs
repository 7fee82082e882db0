//! `gpuasm val DIR`: every `*.spv` file below a folder (as spirv-val takes
//! a folder), validated on all cores: one line per invalid file, in path
//! order, then `N valid, M invalid`; exit 1 if any is invalid.

use crate::io::write_stdout;
use anyhow::{Context, Result};
use gpuasm_spirv::binary::words_of_bytes;
use gpuasm_spirv::validate::{validate, ValOptions};
use is_terminal::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Shows a progress line on a terminal from this many files on.
const PROGRESS_FROM: usize = 200;

/// Every regular `*.spv` file below `dir`, sorted; symbolic links to
/// folders are not followed (no cycles).
fn spv_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).with_context(|| format!("cannot read {}", d.display()))? {
            let entry = entry.with_context(|| format!("cannot read {}", d.display()))?;
            let kind = entry.file_type().with_context(|| format!("cannot read {}", entry.path().display()))?;
            let path = entry.path();
            if kind.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "spv")
                && std::fs::metadata(&path).is_ok_and(|m| m.is_file())
            {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The first problem of one file, or `None` when it is valid.
fn check(path: &Path, options: &ValOptions) -> Option<String> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return Some(format!("cannot read: {e}")),
    };
    let words = match words_of_bytes(&bytes) {
        Ok((w, _)) => w,
        Err(e) => return Some(e.to_string()),
    };
    match validate(&words, &options.clone().max_errors(1)) {
        Ok(()) => None,
        Err(errors) => {
            let e = errors.first();
            Some(format!("word {}: {} [{:?}]", e.word_offset, e.message.lines().next().unwrap_or(""), e.kind))
        }
    }
}

/// Validates every `*.spv` below `dir`.
pub fn run(dir: &Path, options: &ValOptions) -> Result<ExitCode> {
    let files = spv_files(dir)?;
    let results: Vec<Mutex<Option<String>>> = files.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let progress = files.len() >= PROGRESS_FROM && std::io::stderr().is_terminal();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(files.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = files.get(i) else { break };
                let problem = check(path, options);
                *results[i].lock().unwrap_or_else(|e| e.into_inner()) = problem;
                done.fetch_add(1, Ordering::Relaxed);
            });
        }
        if progress {
            while done.load(Ordering::Relaxed) < files.len() {
                messageln_progress(done.load(Ordering::Relaxed), files.len());
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            message!("\r\x1b[K");
        }
    });
    let mut report = String::new();
    let mut invalid = 0;
    for (path, result) in files.iter().zip(results) {
        if let Some(problem) = result.into_inner().unwrap_or_else(|e| e.into_inner()) {
            invalid += 1;
            report += &format!("error: {}: {problem}\n", path.display());
        }
    }
    report += &format!("{} valid, {invalid} invalid\n", files.len() - invalid);
    write_stdout(report.as_bytes())?;
    Ok(if invalid == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn messageln_progress(done: usize, total: usize) {
    message!("\r\x1b[Kvalidating: {done}/{total} files");
}
