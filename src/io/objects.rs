//! Objects read from a source: documents split into objects (`List` items take a missing `kind`
//! and `apiVersion` from the list, as in real dumps), where each came from, and their identity.

use super::load::{Source, SourceText};
use super::positions::{locate, Anchor, Position};
use super::read::ReadOptions;
use super::skip::is_non_object;
use super::InputError;
use crate::value::Value;
use crate::yaml::{Documents, Split};
use std::fmt;
use std::sync::Arc;

/// The file extensions read from directories, as kubectl reads them.
pub const DEFAULT_EXTENSIONS: &[&str] = &["yaml", "yml", "json"];

/// Where an object came from. Shown as `FILE:LINE:COLUMN: document N` (N from 1), with
/// `, items[I]` for a list item; the position is found only when it is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub source: Arc<Source>,
    /// The source's bytes, read again for positions when a diagnostic needs one.
    pub bytes: Arc<[u8]>,
    /// 0-based, as the YAML reader counts documents.
    pub document: usize,
    /// 1-based line where the document starts.
    pub line: usize,
    /// The position in the document's `items` when the document is a list.
    pub item: Option<usize>,
}

impl Origin {
    /// Where a field path of this object is in its file (see [`Anchor`] for which node).
    pub fn position(&self, path: &str, anchor: Anchor) -> Position {
        let path = match self.item {
            Some(i) => format!(".items[{i}]{path}"),
            None => path.to_string(),
        };
        locate(&self.bytes, self.line, &path, anchor)
    }

    /// `FILE:LINE:COLUMN: document N[, items[I]]` for a node of this object.
    pub fn at(&self, path: &str, anchor: Anchor) -> String {
        let p = self.position(path, anchor);
        let mut out = format!(
            "{}:{}:{}: document {}",
            self.source,
            p.line,
            p.column,
            self.document + 1
        );
        if let Some(i) = self.item {
            out.push_str(&format!(", items[{i}]"));
        }
        out
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.at("", Anchor::Value))
    }
}

/// One object and its origin.
#[derive(Debug, Clone)]
pub struct Object {
    pub origin: Origin,
    pub value: Value,
}

fn text<'v>(v: &'v Value, path: &[&str]) -> &'v str {
    v.get_path(path).and_then(Value::as_str).unwrap_or("")
}

impl Object {
    pub fn api_version(&self) -> &str {
        text(&self.value, &["apiVersion"])
    }
    pub fn kind(&self) -> &str {
        text(&self.value, &["kind"])
    }
    pub fn name(&self) -> &str {
        text(&self.value, &["metadata", "name"])
    }
    pub fn namespace(&self) -> &str {
        text(&self.value, &["metadata", "namespace"])
    }
    /// The API group: the part of `apiVersion` before the `/`, empty for the core group.
    pub fn group(&self) -> &str {
        self.api_version().rsplit_once('/').map_or("", |(g, _)| g)
    }
    pub fn version(&self) -> &str {
        let v = self.api_version();
        v.rsplit_once('/').map_or(v, |(_, v)| v)
    }
    /// The identity used to pair manifests with live objects (the version does not count).
    pub fn key(&self) -> ObjectKey {
        ObjectKey {
            group: self.group().to_string(),
            kind: self.kind().to_string(),
            namespace: self.namespace().to_string(),
            name: self.name().to_string(),
        }
    }
}

/// Object identity as the API server sees it: group, kind, namespace, name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectKey {
    pub group: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
}

/// One document of a source that is an object, or a `List` of objects.
#[derive(Debug, Clone)]
pub struct ObjectDocument {
    pub origin: Origin,
    pub value: Value,
}

impl ObjectDocument {
    /// The document's objects: itself, or its list items (which take a missing `kind` and
    /// `apiVersion` from the list).
    pub fn into_objects(self) -> Vec<Object> {
        split_list(self.origin, self.value).unwrap_or_default()
    }
}

/// What reading one source found.
#[derive(Debug, Default)]
pub struct SourceRead {
    pub documents: Vec<ObjectDocument>,
    pub errors: Vec<InputError>,
    /// One line each, `notice: …`: documents skipped as not Kubernetes objects.
    pub notices: Vec<String>,
}

/// What reading one document of a source found, before any check of its content.
enum DocumentRead {
    Document(Origin, Value),
    Error(InputError),
    /// `notice: …`: a document skipped as not a Kubernetes object.
    Notice(String),
}

/// The documents of a source split off one by one: the splitting is quick, and most documents
/// are parsed only by [`DocumentSplit::objects`], on whichever thread calls it.
pub struct DocumentSplits {
    source: Arc<Source>,
    bytes: Arc<[u8]>,
    options: ReadOptions,
    documents: Documents,
}

impl DocumentSplits {
    pub fn new(text: &SourceText, options: ReadOptions) -> Self {
        DocumentSplits {
            source: text.source.clone(),
            bytes: text.bytes.clone(),
            options,
            documents: Documents::shared(text.bytes.clone()),
        }
    }
}

impl Iterator for DocumentSplits {
    type Item = DocumentSplit;

    /// The next document. After one whose reading ends the source (a YAML error), the ones
    /// split off behind it are no part of the source.
    fn next(&mut self) -> Option<DocumentSplit> {
        Some(DocumentSplit {
            source: self.source.clone(),
            bytes: self.bytes.clone(),
            options: self.options,
            split: self.documents.next_split()?,
        })
    }
}

/// One document of a source, not read yet.
pub struct DocumentSplit {
    source: Arc<Source>,
    bytes: Arc<[u8]>,
    options: ReadOptions,
    split: Split,
}

/// What a document holds as objects.
pub enum DocumentObjects {
    /// Its objects (itself, or a list's items), or the error that replaces them.
    Objects(Result<Vec<Object>, InputError>),
    /// `notice: …`: a document skipped as not a Kubernetes object.
    Notice(String),
    /// A YAML error, which ends the source as it ends kubectl's reader.
    End(InputError),
}

impl DocumentSplit {
    fn read(self) -> DocumentRead {
        let doc = match self.split {
            Split::Read(read) => read,
            Split::Pending(pending) => pending.parse(),
        };
        let doc = match doc {
            Ok(d) => d,
            Err(error) => {
                return DocumentRead::Error(InputError::Yaml {
                    file: self.source.to_string(),
                    error,
                })
            }
        };
        let origin = Origin {
            source: self.source,
            bytes: self.bytes,
            document: doc.index,
            line: doc.line,
            item: None,
        };
        if self.options.skip_non_objects && is_non_object(&doc.value) {
            return DocumentRead::Notice(format!(
                "notice: {origin}: skipped: not a Kubernetes object (no apiVersion or kind)"
            ));
        }
        DocumentRead::Document(origin, doc.value)
    }

    /// Parses the document (unless that was done while splitting) and splits it into objects.
    pub fn objects(self) -> DocumentObjects {
        match self.read() {
            DocumentRead::Document(origin, value) => {
                DocumentObjects::Objects(split_list(origin, value))
            }
            DocumentRead::Error(e) => DocumentObjects::End(e),
            DocumentRead::Notice(n) => DocumentObjects::Notice(n),
        }
    }
}

/// Hands every document of a source to `f` in order, so a large stream is never held whole.
/// With `skip_non_objects`, a document with neither `apiVersion` nor `kind` is replaced by a
/// notice; a YAML error ends the file, as it ends kubectl's reader.
fn each_document(text: &SourceText, options: ReadOptions, mut f: impl FnMut(DocumentRead)) {
    for split in DocumentSplits::new(text, options) {
        let read = split.read();
        let end = matches!(read, DocumentRead::Error(_));
        f(read);
        if end {
            break;
        }
    }
}

/// Reads every document of a source whole (see [`each_document`]). A document that is not an
/// object is reported (or kept as it is with `any_documents`) and the others are still read.
pub fn documents_of(text: &SourceText, options: ReadOptions) -> SourceRead {
    let mut read = SourceRead::default();
    each_document(text, options, |d| match d {
        DocumentRead::Document(origin, value) => {
            let checked = match options.any_documents {
                true => Ok(()),
                false => check_document(&origin, &value),
            };
            match checked {
                Ok(()) => read.documents.push(ObjectDocument { origin, value }),
                Err(e) => read.errors.push(e),
            }
        }
        DocumentRead::Error(e) => read.errors.push(e),
        DocumentRead::Notice(n) => read.notices.push(n),
    });
    read
}

/// Reads every object of a source (see [`each_object`]), list items split out.
pub fn objects_of(
    text: &SourceText,
    options: ReadOptions,
    notices: &mut Vec<String>,
) -> (Vec<Object>, Vec<InputError>) {
    let mut objects = Vec::new();
    let mut errors = Vec::new();
    each_object(text, options, notices, |o| match o {
        Ok(o) => objects.push(o),
        Err(e) => errors.push(e),
    });
    (objects, errors)
}

/// [`objects_of`] one document at a time, so a large stream is never held whole: each object
/// (or the error that replaces it) is handed to `f` in order; skip notices go to `notices`.
pub fn each_object(
    text: &SourceText,
    options: ReadOptions,
    notices: &mut Vec<String>,
    mut f: impl FnMut(Result<Object, InputError>),
) {
    for split in DocumentSplits::new(text, options) {
        match split.objects() {
            DocumentObjects::Objects(Ok(objects)) => objects.into_iter().for_each(|o| f(Ok(o))),
            DocumentObjects::Objects(Err(e)) => f(Err(e)),
            DocumentObjects::Notice(n) => notices.push(n),
            DocumentObjects::End(e) => {
                f(Err(e));
                break;
            }
        }
    }
}

/// Checks a document as [`split_list`] does, keeping it whole.
fn check_document(origin: &Origin, value: &Value) -> Result<(), InputError> {
    check_type(origin, value)?;
    if is_list(value) {
        split_list(origin.clone(), value.clone())?;
    }
    Ok(())
}

/// Checks `apiVersion` and `kind`: present, non-empty strings.
fn check_type(origin: &Origin, v: &Value) -> Result<(), InputError> {
    if !matches!(v, Value::Map(_)) {
        return Err(InputError::invalid_value(
            origin,
            "",
            format!("expected an object, got a {}", v.kind_name()),
        ));
    }
    for field in ["apiVersion", "kind"] {
        match v.get(field) {
            Some(Value::String(s)) if !s.is_empty() => {}
            None | Some(Value::Null) => {
                let name = if field == "kind" {
                    "Kind"
                } else {
                    "apiVersion"
                };
                return Err(InputError::invalid_value(
                    origin,
                    "",
                    format!("Object '{name}' is missing"),
                ));
            }
            Some(Value::String(_)) => {
                return Err(InputError::invalid_value(
                    origin,
                    format!(".{field}"),
                    "must not be empty",
                ))
            }
            Some(other) => {
                return Err(InputError::invalid_value(
                    origin,
                    format!(".{field}"),
                    format!("expected a string, got a {}", other.kind_name()),
                ))
            }
        }
    }
    Ok(())
}

fn is_list(v: &Value) -> bool {
    text(v, &["kind"]).ends_with("List") && matches!(v.get("items"), Some(Value::List(_)))
}

fn split_list(origin: Origin, mut value: Value) -> Result<Vec<Object>, InputError> {
    check_type(&origin, &value)?;
    if !is_list(&value) {
        return Ok(vec![Object { origin, value }]);
    }
    let list_kind = text(&value, &["kind"]);
    let item_kind = list_kind
        .strip_suffix("List")
        .unwrap_or_default()
        .to_string();
    let api_version = text(&value, &["apiVersion"]).to_string();
    // Moved out, not cloned: a large List is held once.
    let items = value
        .as_map_mut()
        .and_then(|m| m.get_mut("items"))
        .map(std::mem::take);
    let Some(Value::List(items)) = items else {
        unreachable!("is_list checked items")
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, mut item) in items.into_iter().enumerate() {
        let origin = Origin {
            item: Some(i),
            ..origin.clone()
        };
        if let Value::Map(m) = &mut item {
            if !item_kind.is_empty() && m.get("kind").is_none_or(Value::is_null) {
                m.insert("kind".into(), Value::from(item_kind.as_str()));
            }
            if m.get("apiVersion").is_none_or(Value::is_null) {
                m.insert("apiVersion".into(), Value::from(api_version.as_str()));
            }
        }
        check_type(&origin, &item)?;
        out.push(Object {
            origin,
            value: item,
        });
    }
    Ok(out)
}

/// Checks what kubectl needs of a manifest before it sends a request: a `metadata` map and a
/// name. (`managedFields` in an applied configuration are the server's 400, reported as a
/// refused object by the field manager.)
pub fn check_manifest(obj: &Object) -> Result<(), InputError> {
    let origin = &obj.origin;
    match obj.value.get("metadata") {
        Some(Value::Map(_)) => {}
        None | Some(Value::Null) => {
            return Err(InputError::invalid(
                origin,
                ".metadata.name",
                "name is required",
            ))
        }
        Some(other) => {
            return Err(InputError::invalid_value(
                origin,
                ".metadata",
                format!("expected a map, got a {}", other.kind_name()),
            ))
        }
    }
    match obj.value.get_path(&["metadata", "name"]) {
        Some(Value::String(s)) if !s.is_empty() => {}
        Some(Value::String(_)) | None | Some(Value::Null) => {
            let generate = obj.value.get_path(&["metadata", "generateName"]).is_some();
            let message = if generate {
                "name is required (server-side apply does not support generateName)"
            } else {
                "name is required"
            };
            return Err(InputError::invalid(origin, ".metadata.name", message));
        }
        Some(other) => {
            return Err(InputError::invalid_value(
                origin,
                ".metadata.name",
                format!("expected a string, got a {}", other.kind_name()),
            ))
        }
    }
    if let Some(v) = obj.value.get_path(&["metadata", "namespace"]) {
        if !matches!(v, Value::String(_) | Value::Null) {
            return Err(InputError::invalid_value(
                origin,
                ".metadata.namespace",
                format!("expected a string, got a {}", v.kind_name()),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Vec<Object>, Vec<InputError>) {
        let text = SourceText {
            source: Arc::new(Source::File("m.yaml".into())),
            bytes: text.as_bytes().into(),
        };
        objects_of(&text, ReadOptions::default(), &mut Vec::new())
    }

    #[test]
    fn list_items_take_kind_and_api_version_from_the_list() {
        let (objs, errs) = read(
            "apiVersion: v1\nkind: ConfigMapList\nitems:\n- metadata: {name: a}\n- kind: Secret\n  metadata: {name: b}\n",
        );
        assert!(errs.is_empty());
        assert_eq!(objs[0].kind(), "ConfigMap");
        assert_eq!(objs[0].api_version(), "v1");
        assert_eq!(objs[1].kind(), "Secret");
        assert_eq!(
            objs[1].origin.to_string(),
            "m.yaml:5:3: document 1, items[1]"
        );
    }

    #[test]
    fn a_bad_document_does_not_hide_the_others() {
        let (objs, errs) = read("kind: A\n---\napiVersion: v1\nkind: B\nmetadata: {name: b}\n");
        assert_eq!(objs.len(), 1);
        assert_eq!(
            errs[0].to_string(),
            "m.yaml:1:1: document 1: Object 'apiVersion' is missing"
        );
    }

    #[test]
    fn managed_fields_in_a_manifest_are_left_to_the_server() {
        let (objs, _) =
            read("apiVersion: v1\nkind: B\nmetadata:\n  name: b\n  managedFields: []\n");
        assert!(check_manifest(&objs[0]).is_ok());
    }

    #[test]
    fn group_and_version_split_api_version() {
        let (objs, _) = read("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n");
        assert_eq!((objs[0].group(), objs[0].version()), ("apps", "v1"));
    }
}
