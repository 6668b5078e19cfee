//! Writing the user's files so that no failure loses one or leaves a cut one behind: a file
//! written over is replaced whole or not at all ([`replace`]), a record added to a file is
//! added whole or not at all ([`append`]), and a file size limit (`ulimit -f`) is an error
//! like a full disk, not the end of the process ([`catch_file_size_signal`]).

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Links followed before a path is taken for a loop, as Linux's `ELOOP` limit.
const MAX_LINKS: usize = 40;

/// Names tried for a temporary file before giving up: each has a fresh counter and random
/// part, so only a folder full of other processes' files could use them all.
const TEMP_TRIES: u32 = 100;

/// Writes `contents` to `path` so that `path` holds either its old contents or all of the
/// new ones, whatever happens: a full disk, a file size limit (`ulimit -f`), a crash. The
/// text goes to a new temporary file in the same folder (so that the rename cannot cross
/// file systems), which is flushed to disk and then renamed over `path`; on any error that
/// temporary file is removed and `path` is untouched. Nothing else is ever removed: a
/// leftover of another process beside `path` stays as it is.
///
/// A symbolic link is written through, dangling or not: the file it names is replaced (or
/// made), the link stays. An existing file keeps its permissions. A `path` that exists but
/// is not a regular file (a terminal, `/dev/stdout`, a named pipe) cannot be replaced and is
/// written to directly.
pub fn replace(path: &Path, contents: &[u8]) -> io::Result<()> {
    let target = resolve_links(path)?;
    let old = match fs::metadata(&target) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if let Some(m) = &old
        && !m.is_file()
    {
        return OpenOptions::new()
            .write(true)
            .open(&target)
            .and_then(|mut f| f.write_all(contents).and_then(|()| f.flush()));
    }
    let (temp, mut file) = create_temp(&target)?;
    let written = (|| {
        if let Some(m) = &old {
            file.set_permissions(m.permissions())?;
        }
        file.write_all(contents)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temp, &target)
    })();
    match written {
        Ok(()) => sync_folder(&target),
        // Only the file this call made: its name was free when it was created.
        Err(_) => {
            let _ = fs::remove_file(&temp);
        }
    }
    written
}

/// Writes `contents` to a new file beside `path` and renames it over `path` itself, so that
/// `path` holds either what it held or all of `contents`, as [`replace`] does, but without
/// following anything at `path`: a symbolic link there is replaced by the file, never
/// written through, and whatever is at `path` (a link, a FIFO, an old file) is never opened.
/// So nothing outside `path`'s folder is written, whatever was planted in it (the endgame
/// tables `egdb build` writes, which engines read while it runs: an engine that has the old
/// file open goes on reading the old file).
pub fn replace_entry(path: &Path, contents: &[u8]) -> io::Result<()> {
    let (temp, mut file) = create_temp(path)?;
    let written = (|| {
        file.write_all(contents)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temp, path)
    })();
    match written {
        Ok(()) => sync_folder(path),
        // Only the file this call made: its name was free when it was created.
        Err(_) => {
            let _ = fs::remove_file(&temp);
        }
    }
    written
}

/// The path that writing to `path` reaches: `path` itself, or the end of the chain of
/// symbolic links that starts there, whether or not that end exists. A relative link is
/// read from the folder that holds it.
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&at)?;
                // `join` keeps an absolute `to` as it is.
                at = match at.parent() {
                    Some(folder) => folder.join(to),
                    None => to,
                };
            }
            Ok(_) => return Ok(at),
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(at),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        ErrorKind::InvalidInput,
        format!(
            "more than {MAX_LINKS} symbolic links from '{}'",
            path.display()
        ),
    ))
}

/// Creates a new temporary file beside `target`, `.<name>.<pid>.<count>.<random>.tmp`:
/// hidden, and a name no file has, as it is created only if it does not exist (`O_EXCL`,
/// and `O_NOFOLLOW`: a link planted at the name is never followed), so that neither another
/// run writing the same file nor a leftover of a stopped one is ever opened, written or
/// removed. A name taken is retried with the next one.
fn create_temp(target: &Path) -> io::Result<(PathBuf, File)> {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let name = target.file_name().ok_or_else(|| {
        io::Error::new(
            ErrorKind::InvalidInput,
            format!("'{}' is not a file name", target.display()),
        )
    })?;
    for _ in 0..TEMP_TRIES {
        let mut temp = OsString::from(".");
        temp.push(name);
        temp.push(format!(
            ".{}.{}.{:08x}.tmp",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed),
            crate::platform::fresh_seed() as u32
        ));
        let temp = target.with_file_name(temp);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NOFOLLOW);
        }
        match options.open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        ErrorKind::AlreadyExists,
        format!(
            "no free name for a temporary file beside '{}'",
            target.display()
        ),
    ))
}

/// Flushes the folder of a renamed file to disk, so that the new name survives a power cut
/// too. Best effort: the file is already in place, and some systems cannot open a folder.
fn sync_folder(target: &Path) {
    let folder = match target.parent() {
        Some(f) if !f.as_os_str().is_empty() => f,
        _ => Path::new("."),
    };
    if let Ok(f) = File::open(folder) {
        let _ = f.sync_all();
    }
}

/// Appends `bytes` to the end of `file` (opened with `append(true)`) whole or not at all:
/// when a write fails part-way (a full disk, a file size limit), what it wrote is cut off
/// again, so the file ends where it ended before, after its last whole record. The cut is
/// made only if the file has grown by exactly what this call wrote (no other writer added
/// to it meanwhile) and is a regular file.
pub fn append(file: &mut File, bytes: &[u8]) -> io::Result<()> {
    let before = file.metadata()?.len();
    let mut done = 0;
    while done < bytes.len() {
        match file.write(&bytes[done..]) {
            Ok(0) => return Err(undo(file, before, done, ErrorKind::WriteZero.into())),
            Ok(n) => done += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(undo(file, before, done, e)),
        }
    }
    Ok(())
}

/// Cuts `file` back to `before` bytes after a failed append that wrote `done` bytes, if it
/// holds exactly those; returns the error of the write.
fn undo(file: &File, before: u64, done: usize, error: io::Error) -> io::Error {
    if done > 0
        && let Ok(m) = file.metadata()
        && m.is_file()
        && m.len() == before + done as u64
    {
        let _ = file.set_len(before);
    }
    error
}

/// Makes a write past the file size limit (`ulimit -f`) fail with `EFBIG` ("File too
/// large") instead of ending the process: by default the kernel sends `SIGXFSZ`, whose
/// default action kills the process in the middle of the write, leaving a cut temporary file
/// and losing whatever was not saved (a game in `play`). Called once at the start of `main`.
///
/// The signal is caught by a handler that does nothing rather than ignored: a caught signal
/// returns to its default action in every program this one starts (`exec` resets handlers),
/// whereas an ignored one would stay ignored in the engines `match` runs.
#[cfg(unix)]
pub fn catch_file_size_signal() {
    extern "C" fn nothing(_: libc::c_int) {}
    // SAFETY: `action` is a plain C struct for which all bytes zero is a valid value (no
    // handler, no flags, empty mask) before its fields are set; `sigemptyset` and `sigaction`
    // get pointers to this live local and a null old action, which `sigaction` allows. The
    // handler touches nothing, so it is async-signal-safe and cannot break any state of
    // this program. SIGXFSZ is sent to the thread whose write passed the limit, after that
    // write has already failed with EFBIG, so no other call is interrupted (SA_RESTART
    // restarts any that were). If `sigaction` fails, the default action simply stays.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = nothing as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGXFSZ, &action, std::ptr::null_mut());
    }
}

/// Elsewhere there is no such signal: a write past a limit is an error already.
#[cfg(not(unix))]
pub fn catch_file_size_signal() {}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("bashni-write-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn names(d: &Path) -> Vec<String> {
        let mut n: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    }

    #[test]
    fn replace_writes_new_files_and_replaces_old_ones() {
        let d = temp_dir("replace");
        let p = d.join("out.txt");
        replace(&p, b"first").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"first");
        replace(&p, b"second, longer").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"second, longer");
        // Nothing is left beside it.
        assert_eq!(names(&d), ["out.txt"]);
    }

    #[test]
    fn replace_follows_links_and_keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let d = temp_dir("link");
        let real = d.join("real.txt");
        fs::write(&real, "old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        let link = d.join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        replace(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"new");
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn a_dangling_link_is_written_through_relative_and_chained() {
        let d = temp_dir("dangling");
        fs::create_dir(d.join("sub")).unwrap();
        // first -> sub/second -> ../made.txt (relative to sub/), which does not exist yet.
        std::os::unix::fs::symlink("sub/second", d.join("first")).unwrap();
        std::os::unix::fs::symlink("../made.txt", d.join("sub/second")).unwrap();
        replace(&d.join("first"), b"through").unwrap();
        assert_eq!(fs::read(d.join("made.txt")).unwrap(), b"through");
        assert!(fs::symlink_metadata(d.join("first")).unwrap().is_symlink());
        assert!(
            fs::symlink_metadata(d.join("sub/second"))
                .unwrap()
                .is_symlink()
        );
        // A loop is an error, and nothing is written.
        std::os::unix::fs::symlink("loop", d.join("loop")).unwrap();
        let e = replace(&d.join("loop"), b"x").unwrap_err();
        assert!(e.to_string().contains("more than 40 symbolic links"), "{e}");
        assert_eq!(names(&d), ["first", "loop", "made.txt", "sub"]);
    }

    #[test]
    fn another_process_leftover_is_neither_used_nor_removed() {
        let d = temp_dir("leftover");
        let p = d.join("out.txt");
        fs::write(&p, "old").unwrap();
        // The name the old code gave this process's temporary file, and one of another run.
        let mine = d.join(format!(".out.txt.{}.tmp", std::process::id()));
        let theirs = d.join(".out.txt.1.0.00000000.tmp");
        fs::write(&mine, "not ours").unwrap();
        fs::write(&theirs, "not ours either").unwrap();
        replace(&p, b"new").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"new");
        assert_eq!(fs::read(&mine).unwrap(), b"not ours");
        assert_eq!(fs::read(&theirs).unwrap(), b"not ours either");
        assert_eq!(names(&d).len(), 3);
    }

    #[test]
    fn a_failed_replace_leaves_the_file_and_no_temporary() {
        let d = temp_dir("fail");
        let p = d.join("out.txt");
        fs::write(&p, "precious").unwrap();
        // A folder cannot be written over, and nothing is left beside it.
        let folder = d.join("folder");
        fs::create_dir(&folder).unwrap();
        assert!(replace(&folder, b"new").is_err());
        assert_eq!(names(&d), ["folder", "out.txt"]);
        assert_eq!(fs::read(&p).unwrap(), b"precious");
        // A path with no folder to write into.
        assert!(replace(&d.join("missing/out.txt"), b"x").is_err());
    }

    #[test]
    fn replace_writes_through_what_is_not_a_regular_file() {
        use std::os::unix::fs::FileTypeExt;
        replace(Path::new("/dev/null"), b"gone").unwrap();
        assert!(
            fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
        // A full device is an error, not a panic.
        let e = replace(Path::new("/dev/full"), b"x").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::StorageFull, "{e}");
    }

    #[test]
    fn a_failed_append_is_cut_off_again() {
        let d = temp_dir("append");
        let p = d.join("data.txt");
        fs::write(&p, "one\n").unwrap();
        let mut f = OpenOptions::new().append(true).open(&p).unwrap();
        append(&mut f, b"two\n").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"one\ntwo\n");
        // A write that fails after part of the record: the part is removed.
        let e = undo(&f, 8, 0, ErrorKind::Other.into());
        assert_eq!(e.kind(), ErrorKind::Other);
        f.write_all(b"thr").unwrap();
        undo(&f, 8, 3, ErrorKind::StorageFull.into());
        assert_eq!(fs::read(&p).unwrap(), b"one\ntwo\n");
        // Not when the file holds more than this call wrote.
        f.write_all(b"xyz").unwrap();
        undo(&f, 8, 2, ErrorKind::StorageFull.into());
        assert_eq!(fs::read(&p).unwrap(), b"one\ntwo\nxyz");
        let mut full = OpenOptions::new().append(true).open("/dev/full").unwrap();
        assert!(append(&mut full, b"x").is_err());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_size_signal_is_caught_here_and_default_in_children() {
        catch_file_size_signal();
        // Signal 25's bit in the masks of /proc/<pid>/status.
        let bit = |mask: &str, line: &str| -> bool {
            let hex = line.strip_prefix(mask).unwrap().trim();
            u64::from_str_radix(hex, 16).unwrap() & (1 << (libc::SIGXFSZ - 1)) != 0
        };
        let status = fs::read_to_string("/proc/self/status").unwrap();
        let caught = status.lines().find(|l| l.starts_with("SigCgt:")).unwrap();
        assert!(bit("SigCgt:", caught));
        let child = std::process::Command::new("cat")
            .arg("/proc/self/status")
            .output()
            .unwrap();
        let child = String::from_utf8(child.stdout).unwrap();
        for mask in ["SigIgn:", "SigCgt:"] {
            let line = child.lines().find(|l| l.starts_with(mask)).unwrap();
            assert!(!bit(mask, line), "{line}");
        }
    }
}
