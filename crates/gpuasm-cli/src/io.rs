//! Reading inputs and writing outputs atomically.

use anyhow::{Context, Result};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Reads a whole input: a path, or standard input for `-` or no path.
pub fn read_input(path: Option<&Path>) -> Result<(Vec<u8>, String)> {
    match path {
        None => read_stdin(),
        Some(p) if p == Path::new("-") => read_stdin(),
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?;
            Ok((bytes, p.display().to_string()))
        }
    }
}

fn read_stdin() -> Result<(Vec<u8>, String)> {
    let mut bytes = Vec::new();
    std::io::stdin().lock().read_to_end(&mut bytes).context("cannot read standard input")?;
    Ok((bytes, "<stdin>".into()))
}

/// Where output goes.
pub enum Output {
    Stdout,
    File(PathBuf),
}

impl Output {
    pub fn from_arg(arg: Option<&Path>, default: Option<&str>) -> Output {
        match arg.map(Path::to_path_buf).or_else(|| default.map(PathBuf::from)) {
            None => Output::Stdout,
            Some(p) if p == Path::new("-") => Output::Stdout,
            Some(p) => Output::File(p),
        }
    }

    pub fn is_stdout(&self) -> bool {
        matches!(self, Output::Stdout)
    }
}

/// Writes `bytes` to a file through a temporary file in the same folder and a
/// rename, so a failed run never leaves a partial or clobbered file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomically_with(path, |w| w.write_all(bytes))
}

/// Writes SPIR-V words, little-endian, to standard output or a file.
pub fn write_words(output: &Output, words: &[u32]) -> Result<()> {
    let emit = |w: &mut dyn Write| -> std::io::Result<()> {
        let mut buf = std::io::BufWriter::with_capacity(1 << 16, w);
        for word in words {
            buf.write_all(&word.to_le_bytes())?;
        }
        buf.flush()
    };
    match output {
        Output::Stdout => emit(&mut std::io::stdout().lock()).context("cannot write standard output"),
        Output::File(path) => write_atomically_with(path, emit),
    }
}

/// [`write_atomically`] with the content produced by `fill`.
pub fn write_atomically_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Mode 0666 before the umask, as for a file created by `open`; an
    // existing file keeps its own permissions.
    let permissions = match std::fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => default_permissions(),
    };
    let mut tmp = tempfile::Builder::new()
        .permissions(permissions)
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    fill(tmp.as_file_mut()).with_context(|| format!("cannot write {}", path.display()))?;
    // The rename is atomic for readers; no fsync (spirv-as/dis do not
    // either, and it would dominate the run time).
    tmp.persist(path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

#[cfg(unix)]
fn default_permissions() -> std::fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    std::fs::Permissions::from_mode(0o666)
}

#[cfg(not(unix))]
fn default_permissions() -> std::fs::Permissions {
    tempfile::tempfile().and_then(|f| f.metadata()).map(|m| m.permissions()).expect("temporary file")
}
