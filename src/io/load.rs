//! Where inputs come from: `-` for stdin, files, and directories (their top level, or the whole
//! tree with `recursive`), taking the extensions kubectl takes.

use super::objects::DEFAULT_EXTENSIONS;
use super::InputError;
use std::fmt;
use std::io::{Read, Seek};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One input stream.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Stdin => f.write_str("<stdin>"),
            Source::File(p) => write!(f, "{}", p.display()),
        }
    }
}

/// The bytes of one source.
#[derive(Debug, Clone)]
pub struct SourceText {
    pub source: Arc<Source>,
    pub bytes: Arc<[u8]>,
}

fn has_manifest_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| DEFAULT_EXTENSIONS.contains(&e))
}

/// Expands the given paths in order: files as given, directories into their `.yaml`, `.yml` and
/// `.json` files (sorted by path; subdirectories only with `recursive`), `-` into stdin.
pub fn expand_paths(paths: &[PathBuf], recursive: bool) -> (Vec<Source>, Vec<InputError>) {
    let mut sources = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            sources.push(Source::Stdin);
            continue;
        }
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) => {
                errors.push(read_error(path, &e));
                continue;
            }
        };
        if !meta.is_dir() {
            sources.push(Source::File(path.clone()));
            continue;
        }
        let walk = walkdir::WalkDir::new(path)
            .max_depth(if recursive { usize::MAX } else { 1 })
            .sort_by_file_name();
        for entry in walk {
            match entry {
                Ok(e) if e.file_type().is_file() && has_manifest_extension(e.path()) => {
                    sources.push(Source::File(e.into_path()))
                }
                Ok(_) => {}
                Err(e) => errors.push(InputError::Read {
                    path: e.path().unwrap_or(path).display().to_string(),
                    message: e.io_error().map_or_else(|| e.to_string(), io_message),
                }),
            }
        }
    }
    (sources, errors)
}

fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

fn read_error(path: &Path, e: &std::io::Error) -> InputError {
    InputError::Read {
        path: path.display().to_string(),
        message: io_message(e),
    }
}

/// Reads a source; `stdin` is read when the source is [`Source::Stdin`]. Binary data (a NUL
/// byte, or bytes that are not UTF-8 or UTF-16 text) is refused here.
pub fn read_source(source: &Source, stdin: &mut dyn Read) -> Result<SourceText, InputError> {
    let bytes = match source {
        Source::Stdin => {
            let mut buf = Vec::new();
            stdin.read_to_end(&mut buf).map_err(|e| InputError::Read {
                path: "<stdin>".into(),
                message: io_message(&e),
            })?;
            buf
        }
        Source::File(p) => return checked(source, read_file(p).map_err(|e| read_error(p, &e))?),
    };
    checked(source, bytes.into())
}

/// A file's bytes, read straight into their shared buffer when the file has a size (a large
/// manifest is then in memory once, not also in the vector it was read into).
fn read_file(path: &Path) -> std::io::Result<Arc<[u8]>> {
    let mut file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    let len = usize::try_from(meta.len()).unwrap_or(0);
    if !meta.is_file() || len == 0 {
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        return Ok(bytes.into());
    }
    // SAFETY: zeroed bytes are initialised `u8`s. (Zeroed, not filled: fresh memory from the
    // system is zero already, so nothing touches it before the read does.)
    let mut bytes: Arc<[u8]> = unsafe { Arc::<[u8]>::new_zeroed_slice(len).assume_init() };
    let buf = Arc::get_mut(&mut bytes).expect("a new buffer has no other owner");
    let filled = fill(&file, buf)?;
    // Positioned reads leave the file's offset alone: whatever follows is read from the end.
    file.seek(std::io::SeekFrom::Start(filled as u64))?;
    let mut more = Vec::new();
    if filled == len && file.read_to_end(&mut more)? == 0 {
        return Ok(bytes);
    }
    // The file changed size while it was read: what it holds now, read again whole.
    let mut all = Vec::new();
    file.seek(std::io::SeekFrom::Start(0))?;
    file.read_to_end(&mut all)?;
    Ok(all.into())
}

/// Files from this size on are read in parts, one per core.
const PARALLEL_READ: usize = 8 << 20;

/// Reads the start of `file` into `buf`; returns how many bytes there were (fewer at an early
/// end). A large file is read in parts at once: the first touch of fresh memory (the system
/// clears each page) is most of what reading costs, and that spreads over the cores.
fn fill(file: &std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    let parts = match buf.len() >= PARALLEL_READ {
        true => std::thread::available_parallelism().map_or(1, |n| n.get().min(4)),
        false => 1,
    };
    if parts == 1 {
        return fill_at(file, buf, 0);
    }
    let part_len = buf.len().div_ceil(parts);
    std::thread::scope(|scope| {
        let reads: Vec<_> = buf
            .chunks_mut(part_len)
            .enumerate()
            .map(|(i, part)| scope.spawn(move || fill_at(file, part, (i * part_len) as u64)))
            .collect();
        let mut total = 0;
        for read in reads {
            let n = read
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p))?;
            if n < part_len {
                return Ok(total + n);
            }
            total += n;
        }
        Ok(total)
    })
}

/// Reads `file` from `offset` into `buf` until it is full or the file ends.
fn fill_at(file: &std::fs::File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match read_at(file, &mut buf[filled..], offset + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(unix)]
fn read_at(file: &std::fs::File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &std::fs::File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

/// Refuses binary data (see [`read_source`]).
fn checked(source: &Source, bytes: Arc<[u8]>) -> Result<SourceText, InputError> {
    let utf16 = bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]);
    if !utf16 {
        let nul = crate::search::find_byte(0, &bytes);
        let bad_utf8 = std::str::from_utf8(&bytes).err().map(|e| e.valid_up_to());
        if let Some(offset) = nul.or(bad_utf8) {
            let before = &bytes[..offset];
            let line_start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            return Err(InputError::Binary {
                file: source.to_string(),
                offset,
                at: super::Position {
                    line: before.iter().filter(|&&b| b == b'\n').count() + 1,
                    column: String::from_utf8_lossy(&before[line_start..])
                        .chars()
                        .count()
                        + 1,
                },
            });
        }
    }
    Ok(SourceText {
        source: Arc::new(source.clone()),
        bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Large files are read in parts, each to its own place.
    #[test]
    fn large_files_read_whole_and_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.yaml");
        let text: Vec<u8> = (0..PARALLEL_READ + 12_345)
            .map(|i| b'a' + (i % 23) as u8)
            .collect();
        std::fs::write(&path, &text).unwrap();
        assert_eq!(&*read_file(&path).unwrap(), &text[..]);
        std::fs::write(&path, b"").unwrap();
        assert!(read_file(&path).unwrap().is_empty());
    }

    #[test]
    fn binary_input_is_refused() {
        let err = read_source(&Source::Stdin, &mut &b"kind: \x00\x01"[..]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "<stdin>:1:7: not a text file (binary data at byte 6)"
        );
        let err = read_source(&Source::Stdin, &mut &b"a: \xff"[..]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "<stdin>:1:4: not a text file (binary data at byte 3)"
        );
    }

    #[test]
    fn missing_paths_are_reported() {
        let (sources, errors) = expand_paths(&[PathBuf::from("/nonexistent/x.yaml")], false);
        assert!(sources.is_empty());
        assert_eq!(
            errors[0].to_string(),
            "/nonexistent/x.yaml: no such file or directory"
        );
    }
}
