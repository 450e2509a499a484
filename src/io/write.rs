//! Writing results back: atomic replacement (temp file + rename in the same directory), and
//! rewriting only the changed documents of a multi-document file so the rest keeps its
//! formatting and comments.

use crate::yaml::Documents;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Replaces `path` with `bytes` atomically: a temporary file in the same directory, then a
/// rename. An existing file's permissions are kept.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".kssa-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    if let Ok(meta) = std::fs::metadata(path) {
        tmp.as_file().set_permissions(meta.permissions())?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Splits YAML text at `---` separator lines, keeping each chunk's text including its
/// separator line.
fn chunks(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("---") && pos > 0 {
            out.push(&text[start..pos]);
            start = pos;
        }
        pos += line.len();
    }
    out.push(&text[start..]);
    out
}

/// Rewrites the documents of `text` whose index (as the YAML reader counts) is in
/// `replacements`, leaving every other byte alone. `None` when the text cannot be split so
/// that each document is its own chunk (JSON streams, documents sharing a chunk): the caller
/// then writes the whole file anew.
pub fn rewrite_documents(text: &str, replacements: &[(usize, String)]) -> Option<String> {
    if text.trim_start().starts_with('{') {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut index = 0;
    for chunk in chunks(text) {
        let body = chunk.strip_prefix("---").map_or(chunk, |rest| {
            // Keep the separator line itself (and any comment on it).
            rest.split_once('\n').map_or("", |(_, b)| b)
        });
        let header = &chunk[..chunk.len() - body.len()];
        let docs = Documents::new(body.as_bytes())
            .collect::<Result<Vec<_>, _>>()
            .ok()?;
        match docs.len() {
            0 => out.push_str(chunk),
            1 => {
                match replacements.iter().find(|(i, _)| *i == index) {
                    Some((_, new)) => {
                        out.push_str(header);
                        if !header.is_empty() && !header.ends_with('\n') {
                            out.push('\n');
                        }
                        out.push_str(new);
                        if !new.ends_with('\n') {
                            out.push('\n');
                        }
                    }
                    None => out.push_str(chunk),
                }
                index += 1;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Where a new object goes in a snapshot directory: `<kind>[.<group>]-[<namespace>-]<name>.yaml`,
/// lowercased, with characters that are awkward in file names replaced.
pub fn new_object_path(
    dir: &Path,
    group: &str,
    kind: &str,
    namespace: &str,
    name: &str,
) -> PathBuf {
    let mut stem = kind.to_lowercase();
    if !group.is_empty() {
        stem.push('.');
        stem.push_str(group);
    }
    for part in [namespace, name] {
        if !part.is_empty() {
            stem.push('-');
            stem.push_str(part);
        }
    }
    let stem: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!("{stem}.yaml"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_replaced_documents_change() {
        let text = "# head\na: 1 # keep\n---\nb: 2\n--- # sep\nc:   3\n";
        let out = rewrite_documents(text, &[(1, "b: 20\n".into())]).unwrap();
        assert_eq!(out, "# head\na: 1 # keep\n---\nb: 20\n--- # sep\nc:   3\n");
        let out = rewrite_documents(text, &[(2, "c: 4\n".into())]).unwrap();
        assert_eq!(out, "# head\na: 1 # keep\n---\nb: 2\n--- # sep\nc: 4\n");
    }

    #[test]
    fn json_is_rewritten_whole() {
        assert_eq!(rewrite_documents("{\"a\": 1}", &[]), None);
    }

    #[test]
    fn atomic_write_replaces_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.yaml");
        std::fs::write(&p, "old").unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn new_object_names() {
        let p = new_object_path(Path::new("d"), "apps", "Deployment", "default", "web");
        assert_eq!(p, Path::new("d/deployment.apps-default-web.yaml"));
    }
}
