//! Reading manifests and live-object snapshots from files, directories and stdin; pairing
//! manifests with live objects; writing files atomically. The only module that touches the
//! filesystem.

mod diagnose;
mod documents;
mod load;
mod objects;
pub mod positions;
mod read;
mod skip;
mod write;

pub use diagnose::{managed_fields_error, validation_error, validation_node};
pub use documents::read_documents;
pub use load::{expand_paths, read_source, Source, SourceText};
pub use objects::{
    check_manifest, documents_of, each_object, objects_of, DocumentObjects, DocumentSplit,
    DocumentSplits, Object, ObjectDocument, ObjectKey, Origin, SourceRead, DEFAULT_EXTENSIONS,
};
pub use positions::{Anchor, Position};
pub use read::{read_document, read_inputs, read_text, Inputs, ReadOptions, SourceInput, Stdin};
pub use skip::{is_non_object, skipped_file};
pub use write::{new_object_path, rewrite_documents, write_atomic};

use std::fmt;

/// A problem with one input: a file that cannot be read, a document that does not parse, or an
/// object that is not a valid manifest. Every message names the file, and when there is one the
/// `LINE:COLUMN` of the offending node, the document (counted from 1) and the field path.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{path}: {message}")]
    Read { path: String, message: String },
    #[error("{file}:{error}")]
    Yaml {
        file: String,
        error: crate::yaml::YamlError,
    },
    #[error("{file}:{at}: not a text file (binary data at byte {offset})")]
    Binary {
        file: String,
        offset: usize,
        at: Position,
    },
    #[error("{}: {path}{sep}{message}", origin.at(node, *anchor), sep = if path.is_empty() { "" } else { ": " })]
    Invalid {
        origin: Box<Origin>,
        /// The field path, e.g. `.spec.replicas`; empty for the whole object.
        path: String,
        message: String,
        /// The path of the node the position points at (usually `path`, or below it).
        node: String,
        anchor: Anchor,
    },
    #[error("{0}")]
    Other(String),
}

impl InputError {
    /// A problem with a field itself (positioned at its key) or with the whole object.
    pub fn invalid(origin: &Origin, path: impl fmt::Display, message: impl fmt::Display) -> Self {
        Self::invalid_at(origin, path, Anchor::Key, message)
    }

    /// A value of the wrong type or form (positioned at the value).
    pub fn invalid_value(
        origin: &Origin,
        path: impl fmt::Display,
        message: impl fmt::Display,
    ) -> Self {
        Self::invalid_at(origin, path, Anchor::Value, message)
    }

    pub fn invalid_at(
        origin: &Origin,
        path: impl fmt::Display,
        anchor: Anchor,
        message: impl fmt::Display,
    ) -> Self {
        let path = path.to_string();
        InputError::Invalid {
            origin: Box::new(origin.clone()),
            node: path.clone(),
            path,
            message: message.to_string(),
            anchor,
        }
    }

    /// Adds to the message of an [`InputError::Invalid`].
    pub fn with_note(mut self, note: &str) -> Self {
        if let InputError::Invalid { message, .. } = &mut self {
            message.push_str(note);
        }
        self
    }

    /// Points the position of an [`InputError::Invalid`] at another node.
    pub fn pointing_at(mut self, to: impl fmt::Display, to_anchor: Anchor) -> Self {
        if let InputError::Invalid { node, anchor, .. } = &mut self {
            *node = to.to_string();
            *anchor = to_anchor;
        }
        self
    }

    /// The file and, when known, the position the error is about (for SARIF and annotations).
    pub fn location(&self) -> Option<(String, Option<Position>)> {
        match self {
            InputError::Read { path, .. } => Some((path.clone(), None)),
            InputError::Yaml { file, error } => Some((
                file.clone(),
                Some(Position {
                    line: error.line,
                    column: error.column,
                }),
            )),
            InputError::Binary { file, at, .. } => Some((file.clone(), Some(*at))),
            InputError::Invalid {
                origin,
                node,
                anchor,
                ..
            } => Some((
                origin.source.to_string(),
                Some(origin.position(node, *anchor)),
            )),
            InputError::Other(_) => None,
        }
    }

    /// The message without its location prefix.
    pub fn message(&self) -> String {
        match self {
            InputError::Read { message, .. } => message.clone(),
            InputError::Yaml { error, .. } => {
                format!("document {}: {}", error.document + 1, error.kind)
            }
            InputError::Binary { offset, .. } => {
                format!("not a text file (binary data at byte {offset})")
            }
            InputError::Invalid {
                origin,
                path,
                message,
                ..
            } => {
                let item = origin
                    .item
                    .map(|i| format!(", items[{i}]"))
                    .unwrap_or_default();
                let sep = if path.is_empty() { "" } else { ": " };
                format!(
                    "document {}{item}: {path}{sep}{message}",
                    origin.document + 1
                )
            }
            InputError::Other(m) => m.clone(),
        }
    }
}
