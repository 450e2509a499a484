//! The one input path every command takes: paths expanded (files, directories, `-` for stdin,
//! which is read at most once per run), each source read and split into documents and objects,
//! and files and documents that are not Kubernetes objects skipped with a notice.

use super::load::{expand_paths, read_source, Source, SourceText};
use super::objects::{documents_of, Object, ObjectDocument};
use super::skip::skipped_file;
use super::InputError;
use crate::value::Value;
use crate::yaml::Documents;
use std::path::{Path, PathBuf};

/// How to read inputs.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// Read directories recursively.
    pub recursive: bool,
    /// Skip documents with neither `apiVersion` nor `kind` (with a notice) instead of refusing them.
    pub skip_non_objects: bool,
    /// Keep documents that are not objects as they are (a reader that needs only metadata).
    pub any_documents: bool,
}

/// Stdin, which only one `-` of a run may read.
#[derive(Debug, Default)]
pub struct Stdin {
    used: bool,
}

impl Stdin {
    /// Claims stdin for one reader.
    pub fn take(&mut self) -> Result<(), InputError> {
        if self.used {
            return Err(InputError::Other(
                "stdin (`-`) can only be read once".into(),
            ));
        }
        self.used = true;
        Ok(())
    }
}

/// One source as read: its text (for writing back) and its object documents.
#[derive(Debug)]
pub struct SourceInput {
    pub source: Source,
    /// The source's text (invalid UTF-8 replaced), as read.
    pub text: String,
    pub documents: Vec<ObjectDocument>,
}

impl SourceInput {
    /// The objects of every document, list items split out.
    pub fn objects(&self) -> Vec<Object> {
        self.documents
            .iter()
            .cloned()
            .flat_map(ObjectDocument::into_objects)
            .collect()
    }
}

/// Everything read from some paths.
#[derive(Debug, Default)]
pub struct Inputs {
    pub sources: Vec<SourceInput>,
    pub errors: Vec<InputError>,
    /// One line each, `notice: …`: what was skipped and why.
    pub notices: Vec<String>,
}

impl Inputs {
    /// The objects of every source, in order.
    pub fn objects(&self) -> Vec<Object> {
        self.sources.iter().flat_map(SourceInput::objects).collect()
    }

    /// The first error, for commands that stop at one.
    pub fn check(mut self) -> Result<Inputs, InputError> {
        if self.errors.is_empty() {
            return Ok(self);
        }
        Err(self.errors.swap_remove(0))
    }
}

/// Reads every source of `paths`. Kustomization and Helm chart files are skipped by name.
pub fn read_inputs(paths: &[PathBuf], options: ReadOptions, stdin: &mut Stdin) -> Inputs {
    let (sources, errors) = expand_paths(paths, options.recursive);
    let mut inputs = Inputs {
        errors,
        ..Inputs::default()
    };
    for source in sources {
        if let Some(why) = skipped_file(&source) {
            inputs
                .notices
                .push(format!("notice: {source}: skipped: {why}"));
            continue;
        }
        if source == Source::Stdin {
            if let Err(e) = stdin.take() {
                inputs.errors.push(e);
                continue;
            }
        }
        match read_source(&source, &mut std::io::stdin().lock()) {
            Ok(text) => {
                let read = documents_of(&text, options);
                inputs.errors.extend(read.errors);
                inputs.notices.extend(read.notices);
                inputs.sources.push(SourceInput {
                    source,
                    text: String::from_utf8_lossy(&text.bytes).into_owned(),
                    documents: read.documents,
                });
            }
            Err(e) => inputs.errors.push(e),
        }
    }
    inputs
}

/// Reads the first document of one file (or `-`) as a plain value, whatever it holds (a patch,
/// a scenario): `null` when there is none. YAML errors are positioned as for manifests.
pub fn read_document(path: &Path, stdin: &mut Stdin) -> Result<Value, InputError> {
    let text = read_one(path, stdin)?;
    let source = &text.source;
    match Documents::shared(text.bytes.clone()).next() {
        None => Ok(Value::Null),
        Some(Ok(doc)) => Ok(doc.value),
        Some(Err(error)) => Err(InputError::Yaml {
            file: source.to_string(),
            error,
        }),
    }
}

/// Reads one file (or `-`) as text, for readers of other formats.
pub fn read_text(path: &Path, stdin: &mut Stdin) -> Result<String, InputError> {
    let text = read_one(path, stdin)?;
    Ok(String::from_utf8_lossy(&text.bytes).into_owned())
}

/// Reads one path that names a file or `-`.
fn read_one(path: &Path, stdin: &mut Stdin) -> Result<SourceText, InputError> {
    let source = if path.as_os_str() == "-" {
        stdin.take()?;
        Source::Stdin
    } else {
        Source::File(path.to_path_buf())
    };
    read_source(&source, &mut std::io::stdin().lock())
}
