//! Kubernetes YAML: reading manifests exactly as `kubectl apply -f` does, and writing YAML that
//! reads back.
//!
//! # Approach
//!
//! kubectl reads YAML with go-yaml v2, a Go port of libyaml, under YAML 1.1 rules. kssa parses
//! with [`unsafe-libyaml`](https://docs.rs/unsafe-libyaml), the Rust port of the same C library,
//! so tokenising, indentation, flow syntax and syntax errors behave as kubectl's do. Only libyaml's
//! event layer is used (scalar text, style, tag, anchors); everything Kubernetes-specific is kssa's
//! own code on top: YAML 1.1 typing (`yes`, `0644`, `1_000`), tag checks, merge keys, key
//! stringification, the alias-bomb guard, the nesting limit, kubectl's `---` document splitter
//! and its JSON-or-YAML stream detection. YAML 1.2 libraries (serde_yaml, yaml-rust) were ruled
//! out because they type scalars differently, and a hand-written scanner would have to re-derive
//! libyaml's many syntax corner cases. The unsafe code is confined to `events.rs`, and to one
//! line in `stream.rs` that reads shared bytes checked once as UTF-8 as text.

mod compose;
mod emit;
pub(crate) mod events;
mod fast;
mod go_quote;
mod json;
mod resolve;
mod stream;

use crate::value::Value;

/// Whether a scalar starting with `bytes` starts with an indicator, so that it cannot be
/// plain: `-`, `?` or `:` before a space or the end, or any of `,[]{}#&*!|>'"%@` and the
/// backquote. The indicators are ASCII, so a character's first byte decides. Shared by the
/// reader (what it may read as a plain scalar) and the writer (what it must quote).
fn starts_with_indicator(bytes: &[u8]) -> bool {
    match bytes.first() {
        Some(b'-' | b'?' | b':') => bytes.get(1).is_none_or(|&c| c == b' '),
        Some(
            b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\''
            | b'"' | b'%' | b'@' | b'`',
        ) => true,
        _ => false,
    }
}

pub use compose::MAX_DEPTH;
pub use emit::to_yaml_string;
pub use stream::{decode_text, Documents, Pending, Split};

/// One document of a manifest stream, as kubectl keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// 0-based position among the documents kept (empty and `null` documents are skipped).
    pub index: usize,
    /// 1-based line where the document's content starts.
    pub line: usize,
    pub value: Value,
}

/// A manifest that kubectl would reject, and where: shown as `LINE:COLUMN: document N: …`
/// (N counted from 1) to follow a file name.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{line}:{column}: document {}: {kind}", document + 1)]
pub struct YamlError {
    /// 0-based index the failing document would have had.
    pub document: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    pub kind: ErrorKind,
}

/// What is wrong with the input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ErrorKind {
    #[error("invalid YAML: {0}")]
    Syntax(String),
    #[error("invalid JSON: {0}")]
    Json(String),
    #[error("only a comment may follow a `---` document separator, found {0:?}")]
    BadSeparator(String),
    #[error("{value:?} is a {found} and cannot be read as {tag}")]
    TagMismatch {
        value: String,
        found: &'static str,
        tag: String,
    },
    #[error("a !!binary value is not valid base64")]
    Binary,
    #[error("{0} cannot be represented in JSON")]
    NonFinite(f64),
    #[error("alias *{0} refers to an anchor that is not defined before it")]
    UnknownAnchor(String),
    #[error("alias *{0} is used inside the value of its own anchor")]
    RecursiveAlias(String),
    #[error("aliases expand to too many nodes (an alias bomb?)")]
    ExcessiveAliasing,
    #[error("nesting is deeper than {MAX_DEPTH} levels")]
    TooDeep,
    #[error("a merge key `<<` needs a map or a list of maps")]
    BadMerge,
    #[error("a {0} cannot be a map key")]
    BadKey(&'static str),
}

/// Reads a manifest file's bytes into its documents, as `kubectl apply -f` does.
pub fn parse_stream(bytes: &[u8]) -> Result<Vec<Document>, YamlError> {
    Documents::new(bytes).collect()
}

/// Reads text that must hold exactly one document (an empty one reads as `null`).
pub fn parse_document(text: &str) -> Result<Value, YamlError> {
    let mut docs = Documents::new(text.as_bytes());
    Ok(docs.next().transpose()?.map_or(Value::Null, |d| d.value))
}
