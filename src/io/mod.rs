//! Reading manifests and live-object snapshots from files, directories and stdin; pairing
//! manifests with live objects; writing files atomically. The only module that touches the
//! filesystem.

mod documents;
mod load;
mod objects;
mod write;

pub use documents::read_documents;
pub use load::{expand_paths, read_source, Source, SourceText};
pub use objects::{
    check_manifest, each_object, objects_of, Object, ObjectKey, Origin, DEFAULT_EXTENSIONS,
};
pub use write::{new_object_path, rewrite_documents, write_atomic};

use std::fmt;

/// A problem with one input: a file that cannot be read, a document that does not parse, or an
/// object that is not a valid manifest. Every message names the file, and the document and field
/// path when there is one.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{path}: {message}")]
    Read { path: String, message: String },
    #[error("{file}: {error}")]
    Yaml {
        file: String,
        error: crate::yaml::YamlError,
    },
    #[error("{file}: not a text file (binary data at byte {offset})")]
    Binary { file: String, offset: usize },
    #[error("{origin}: {path}{sep}{message}", sep = if path.is_empty() { "" } else { ": " })]
    Invalid {
        origin: Origin,
        /// The field path, e.g. `.spec.replicas`; empty for the whole object.
        path: String,
        message: String,
    },
    #[error("{0}")]
    Other(String),
}

impl InputError {
    pub fn invalid(origin: &Origin, path: impl fmt::Display, message: impl fmt::Display) -> Self {
        InputError::Invalid {
            origin: origin.clone(),
            path: path.to_string(),
            message: message.to_string(),
        }
    }
}
