//! Reading inputs and writing outputs atomically.

use anyhow::{Context, Result};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A whole input, read into memory or mapped.
pub enum Input {
    Read(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl std::ops::Deref for Input {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Input::Read(v) => v,
            Input::Mapped(m) => m,
        }
    }
}

/// Files at least this big are mapped rather than read: no copy, and far
/// fewer page faults (which dominate once the tools themselves are fast).
/// Measured against plain reads (`scripts/bench-vs-spirv-tools --variant`):
/// `as` 23-31% faster, `dis` 3-6%, `dis --raw-id` 5-18%.
const MAP_AT_LEAST: u64 = 1 << 20;

/// Reads a whole input: a path, or standard input for `-` or no path.
pub fn read_input(path: Option<&Path>) -> Result<(Input, String)> {
    match path {
        None => read_stdin(),
        Some(p) if p == Path::new("-") => read_stdin(),
        Some(p) => {
            let context = || format!("cannot read {}", p.display());
            let file = std::fs::File::open(p).with_context(context)?;
            let meta = file.metadata().with_context(context)?;
            if meta.is_file() && meta.len() >= MAP_AT_LEAST {
                // SAFETY: the map is read-only and private. Another process
                // truncating the file while we read it makes the access fault
                // (SIGBUS); `shrink_guard` turns that into an error message.
                if let Ok(map) = unsafe { memmap2::MmapOptions::new().populate().map(&file) } {
                    shrink_guard::watch(&map, &p.display().to_string());
                    if std::env::var_os("GPUASM_TEST_SHRINK_INPUT").is_some() {
                        // For the CLI test: another process shrinking the file.
                        std::fs::OpenOptions::new().write(true).open(p).and_then(|f| f.set_len(0)).ok();
                    }
                    return Ok((Input::Mapped(map), p.display().to_string()));
                }
            }
            let mut bytes = Vec::with_capacity(meta.len() as usize);
            (&file).read_to_end(&mut bytes).with_context(context)?;
            Ok((Input::Read(bytes), p.display().to_string()))
        }
    }
}

fn read_stdin() -> Result<(Input, String)> {
    let mut bytes = Vec::new();
    std::io::stdin().lock().read_to_end(&mut bytes).context("cannot read standard input")?;
    Ok((Input::Read(bytes), "<stdin>".into()))
}

/// Prints a message on standard error. When standard error itself cannot
/// be written (a full disk, a closed pipe) there is nowhere left to say so:
/// the message is dropped and the exit status still tells.
pub fn write_message(args: std::fmt::Arguments<'_>) {
    let held = HELD.with_borrow_mut(|held| {
        held.as_mut().map(|buf| {
            let _ = buf.write_fmt(args);
            buf.len() >= HOLD_AT_MOST
        })
    });
    match held {
        Some(true) => flush_held(),
        Some(false) => {}
        // Standard error is unbuffered: written piece by piece, a message
        // took a system call per argument. Formatted first, it is one.
        None => {
            let text = match args.as_str() {
                Some(s) => std::borrow::Cow::Borrowed(s),
                None => std::borrow::Cow::Owned(args.to_string()),
            };
            let _ = std::io::stderr().lock().write_all(text.as_bytes());
        }
    }
}

thread_local! {
    /// Messages held by [`hold_messages`], not yet written.
    static HELD: std::cell::RefCell<Option<Vec<u8>>> = const { std::cell::RefCell::new(None) };
}

/// How many bytes of messages are held before they are written.
const HOLD_AT_MOST: usize = 64 << 10;

/// Writes the held messages (if any), keeping the hold.
fn flush_held() {
    let bytes = HELD.with_borrow_mut(|held| held.as_mut().map(std::mem::take));
    if let Some(bytes) = bytes.filter(|b| !b.is_empty()) {
        let _ = std::io::stderr().lock().write_all(&bytes);
    }
}

/// Runs `f` with the messages it prints written in blocks of up to 64 KB
/// rather than one by one (a list of 20,000 validation errors took 40,000
/// system calls); all are written when `f` ends, even by a panic.
pub fn hold_messages<R>(f: impl FnOnce() -> R) -> R {
    struct Release;
    impl Drop for Release {
        fn drop(&mut self) {
            flush_held();
            HELD.with_borrow_mut(|held| *held = None);
        }
    }
    if HELD.with_borrow(Option::is_some) {
        return f();
    }
    HELD.with_borrow_mut(|held| *held = Some(Vec::new()));
    let _release = Release;
    f()
}

/// `eprint!` that never panics; see [`write_message`].
macro_rules! message {
    ($($arg:tt)*) => { $crate::io::write_message(format_args!($($arg)*)) };
}

/// `eprintln!` that never panics; see [`write_message`].
macro_rules! messageln {
    ($($arg:tt)*) => { $crate::io::write_message(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Writes `bytes` to standard output; failing is an error that says so.
pub fn write_stdout(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|()| out.flush()).context("cannot write standard output")
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
        w.write_all(gpuasm_spirv::binary::words_as_le_bytes(words))?;
        w.flush()
    };
    match output {
        Output::Stdout => emit(&mut std::io::stdout().lock()).context("cannot write standard output"),
        Output::File(path) => write_atomically_with(path, emit),
    }
}

/// [`write_atomically`] with the content produced by `fill`.
pub fn write_atomically_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    write_atomically_file(path, 0, |f| fill(f).map(|()| true)).map(|_| ())
}

/// [`write_atomically`] with a file `fill` may also seek in. When `fill`
/// returns false the file is discarded and `path` left as it was.
///
/// Only a regular file (or a path that does not exist yet) is replaced by a
/// rename. Anything else, `/dev/null`, `/dev/stdout`, a FIFO, is written in
/// place once the output is complete, as `spirv-as -o /dev/null` does: a
/// rename would put a regular file where the device was. A symbolic link to
/// a regular file stays a link; its target is what gets replaced.
///
/// `size_hint`, about how many bytes will be written (0: unknown), reserves
/// the space first: on ext4, renaming over an existing file otherwise makes
/// the rename itself allocate and start writing back every block, which
/// took longer than writing them (measured without it: `dis` 15-22% and
/// `as` 9-12% slower on the 5 MB modules).
pub fn write_atomically_file(
    path: &Path,
    size_hint: u64,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<bool>,
) -> Result<bool> {
    let target = match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => return write_in_place(path, fill),
        Ok(_) if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) => {
            std::fs::canonicalize(path).with_context(|| format!("cannot resolve {}", path.display()))?
        }
        _ => path.to_path_buf(),
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Mode 0666 before the umask, as for a file created by `open`; an
    // existing file keeps its own permissions.
    let permissions = match std::fs::metadata(&target) {
        Ok(m) => m.permissions(),
        Err(_) => default_permissions(),
    };
    let mut tmp = tempfile::Builder::new()
        .permissions(permissions)
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    let _cleanup = shrink_guard::remove_on_fault(tmp.path());
    let reserved = reserve(tmp.as_file(), size_hint);
    if !fill(tmp.as_file_mut()).with_context(|| format!("cannot write {}", path.display()))? {
        return Ok(false);
    }
    if reserved {
        // Gives back what was reserved past the end.
        let file = tmp.as_file();
        file.metadata()
            .and_then(|m| file.set_len(m.len()))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    // The rename is atomic for readers; no fsync (spirv-as/dis do not
    // either, and it would dominate the run time).
    tmp.persist(&target).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(true)
}

/// Reserves `len` bytes of disk for `file` without changing its size; a
/// hint only, so failure (no such call, no space) is ignored.
#[cfg(target_os = "linux")]
fn reserve(file: &std::fs::File, len: u64) -> bool {
    len > 0 && rustix::fs::fallocate(file, rustix::fs::FallocateFlags::KEEP_SIZE, 0, len).is_ok()
}

#[cfg(not(target_os = "linux"))]
fn reserve(_: &std::fs::File, _: u64) -> bool {
    false
}

/// Fills an unnamed temporary file, then copies it into `path` (a device,
/// FIFO or the like), so that a failed run still writes nothing.
fn write_in_place(path: &Path, fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<bool>) -> Result<bool> {
    let context = || format!("cannot write {}", path.display());
    let mut tmp = tempfile::tempfile().context("cannot create a temporary file")?;
    if !fill(&mut tmp).with_context(context)? {
        return Ok(false);
    }
    tmp.seek(SeekFrom::Start(0)).with_context(context)?;
    let mut out = std::fs::OpenOptions::new().write(true).truncate(true).open(path).with_context(context)?;
    std::io::copy(&mut tmp, &mut out).with_context(context)?;
    out.flush().with_context(context)?;
    Ok(true)
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

/// A mapped input that another process shrinks while we read it makes the
/// read fault with SIGBUS. This turns that fault into an error message, after
/// removing the temporary output file being written (if any), and exit
/// status 1, so nothing is left half-written.
#[cfg(unix)]
mod shrink_guard {
    use std::ffi::CString;
    use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
    use std::sync::Once;

    static START: AtomicUsize = AtomicUsize::new(0);
    static LEN: AtomicUsize = AtomicUsize::new(0);
    /// The message to print, made before the fault can happen (a handler may
    /// not allocate). Leaked: one per process.
    static MESSAGE: AtomicPtr<Vec<u8>> = AtomicPtr::new(std::ptr::null_mut());
    /// The temporary output file to remove, if one is being written.
    static TEMPORARY: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());
    static INSTALL: Once = Once::new();

    extern "C" fn on_sigbus(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: only async-signal-safe calls (write, unlink, _exit, signal)
        // on data prepared before the fault.
        unsafe {
            let addr = (*info).si_addr() as usize;
            let (start, len) = (START.load(Ordering::SeqCst), LEN.load(Ordering::SeqCst));
            if len == 0 || addr < start || addr >= start + len {
                // Not our input: fault as usual once the handler returns.
                libc::signal(libc::SIGBUS, libc::SIG_DFL);
                return;
            }
            let tmp = TEMPORARY.load(Ordering::SeqCst);
            if !tmp.is_null() {
                libc::unlink(tmp);
            }
            let message = MESSAGE.load(Ordering::SeqCst);
            if !message.is_null() {
                let m = &*message;
                libc::write(2, m.as_ptr().cast(), m.len());
            }
            libc::_exit(1);
        }
    }

    /// Watches the mapping of the input named `name`.
    pub fn watch(map: &[u8], name: &str) {
        let text = format!("gpuasm: error: {name}: the file shrank while it was being read; nothing written\n");
        MESSAGE.store(Box::into_raw(Box::new(text.into_bytes())), Ordering::SeqCst);
        START.store(map.as_ptr() as usize, Ordering::SeqCst);
        LEN.store(map.len(), Ordering::SeqCst);
        INSTALL.call_once(|| {
            // SAFETY: installs a handler that only touches the atomics above.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_sigbus as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
            }
        });
    }

    /// While the guard lives, a fault on the input removes `path`.
    pub fn remove_on_fault(path: &std::path::Path) -> Option<Guard> {
        use std::os::unix::ffi::OsStrExt;
        let c = CString::new(path.as_os_str().as_bytes()).ok()?;
        let old = TEMPORARY.swap(c.into_raw(), Ordering::SeqCst);
        if !old.is_null() {
            // SAFETY: made by `CString::into_raw` below or above.
            drop(unsafe { CString::from_raw(old) });
        }
        Some(Guard)
    }

    pub struct Guard;

    impl Drop for Guard {
        fn drop(&mut self) {
            let old = TEMPORARY.swap(std::ptr::null_mut(), Ordering::SeqCst);
            if !old.is_null() {
                // SAFETY: made by `CString::into_raw` in `remove_on_fault`.
                drop(unsafe { CString::from_raw(old) });
            }
        }
    }
}

#[cfg(not(unix))]
mod shrink_guard {
    pub fn watch(_: &[u8], _: &str) {}
    pub fn remove_on_fault(_: &std::path::Path) -> Option<()> {
        None
    }
}
