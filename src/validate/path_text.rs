//! Field paths as the validation rules build them: every rule names the path it checks before
//! it knows whether anything is wrong there, so a path is built for every field of every object
//! validated. Short ones (nearly all) live on the stack: allocating each one was a twentieth of
//! what validating a workload cost.

use std::fmt;
use std::ops::Deref;

/// Paths up to this many bytes are kept inline.
const INLINE: usize = 118;

/// A field path (`spec.template.spec.containers[0].image`), read as a `&str`.
#[derive(Clone)]
pub struct PathText(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(String),
}

impl PathText {
    /// The parts one after the other.
    pub fn concat(parts: &[&str]) -> PathText {
        let total: usize = parts.iter().map(|p| p.len()).sum();
        if total > INLINE {
            return PathText(Repr::Heap(parts.concat()));
        }
        let mut bytes = [0u8; INLINE];
        let mut at = 0;
        for part in parts {
            bytes[at..at + part.len()].copy_from_slice(part.as_bytes());
            at += part.len();
        }
        PathText(Repr::Inline {
            len: total as u8,
            bytes,
        })
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            // SAFETY: the bytes are whole `&str`s copied one after the other, so UTF-8.
            Repr::Inline { len, bytes } => unsafe {
                std::str::from_utf8_unchecked(&bytes[..*len as usize])
            },
            Repr::Heap(s) => s,
        }
    }
}

impl Deref for PathText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for PathText {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<PathText> for String {
    fn from(p: PathText) -> String {
        match p.0 {
            Repr::Inline { .. } => p.as_str().to_string(),
            Repr::Heap(s) => s,
        }
    }
}

impl From<&PathText> for String {
    fn from(p: &PathText) -> String {
        p.as_str().to_string()
    }
}

impl fmt::Display for PathText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for PathText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for PathText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for PathText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_paths_read_back_whole() {
        let short = PathText::concat(&["spec", ".containers", "[", "0", "]"]);
        assert_eq!(&*short, "spec.containers[0]");
        assert_eq!(String::from(short), "spec.containers[0]");
        let long_part = "ä".repeat(100);
        let long = PathText::concat(&["metadata.annotations[", &long_part, "]"]);
        assert_eq!(long.as_str(), format!("metadata.annotations[{long_part}]"));
        let exact = "x".repeat(INLINE);
        assert_eq!(PathText::concat(&[&exact]).as_str(), exact);
    }
}
