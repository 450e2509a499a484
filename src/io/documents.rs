//! Reading a file of plain YAML documents that are not necessarily Kubernetes objects (ignore
//! rule files), with the same text checks as manifests.

use super::{read_source, InputError, Source};
use crate::yaml::{parse_stream, Document};
use std::path::Path;

/// Every document of one file.
pub fn read_documents(path: &Path) -> Result<Vec<Document>, InputError> {
    let source = Source::File(path.to_path_buf());
    let text = read_source(&source, &mut std::io::empty())?;
    parse_stream(&text.bytes).map_err(|error| InputError::Yaml {
        file: source.to_string(),
        error,
    })
}
