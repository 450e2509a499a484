//! Where a field path is in a manifest's text. Only a diagnostic asks: the one document is then
//! re-read from its first line with the YAML reader's events, which carry every node's mark, into
//! a small node tree; a clean run never builds one.

use crate::value::Value;
use crate::yaml::events::{Event, EventReader, Mark};
use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

/// A 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Which node of a path a diagnostic is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// The key of the last field (a field that should not be there, or a missing one's parent).
    Key,
    /// The value (a value of the wrong type).
    Value,
    /// The list item the last `[key=…]` selector names a second time: the duplicate.
    Duplicate,
}

enum Kind {
    Scalar(String),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
    /// An alias, a merge or anything else the walk does not descend into.
    Opaque,
}

struct Node {
    at: Mark,
    kind: Kind,
}

struct Entry {
    key: String,
    at: Mark,
    value: Node,
}

/// One document's nodes with their marks, lines counted in the whole source.
pub struct DocumentIndex {
    root: Node,
}

/// The text of the document that starts on 1-based `line`: that line up to the next `---` line,
/// where kubectl's splitter ends it. Marks in it are then offset by `line - 1`.
fn document_text(text: &str, line: usize) -> &str {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return "",
        }
    }
    let rest = &text[start..];
    let mut end = 0;
    for l in rest.split_inclusive('\n') {
        if end > 0 && l.starts_with("---") {
            break;
        }
        end += l.len();
    }
    &rest[..end]
}

enum Open {
    Seq(Mark, Vec<Node>),
    Map(Mark, Vec<Entry>, Option<(String, Mark)>),
}

impl DocumentIndex {
    /// Reads the document starting on 1-based `line` of `text` (decoded as the YAML reader
    /// decodes it). `None` when it does not parse.
    pub fn build(text: &str, line: usize) -> Option<DocumentIndex> {
        let doc = document_text(text, line);
        let mut reader = EventReader::new(doc.as_bytes());
        let shift = |m: Mark| Mark {
            line: m.line + line,
            column: m.column + 1,
        };
        let mut stack: Vec<Open> = Vec::new();
        loop {
            let (event, mark) = reader.next_event().ok()?;
            let at = shift(mark);
            let node = match event {
                Event::StreamStart | Event::DocumentStart => continue,
                Event::StreamEnd | Event::DocumentEnd => return None,
                Event::SequenceStart { .. } => {
                    stack.push(Open::Seq(at, Vec::new()));
                    continue;
                }
                Event::MappingStart { .. } => {
                    stack.push(Open::Map(at, Vec::new(), None));
                    continue;
                }
                Event::SequenceEnd | Event::MappingEnd => match stack.pop()? {
                    Open::Seq(at, items) => Node {
                        at,
                        kind: Kind::Seq(items),
                    },
                    Open::Map(at, entries, _) => Node {
                        at,
                        kind: Kind::Map(entries),
                    },
                },
                Event::Scalar { value, .. } => Node {
                    at,
                    kind: Kind::Scalar(value),
                },
                Event::Alias(_) => Node {
                    at,
                    kind: Kind::Opaque,
                },
            };
            match stack.last_mut() {
                None => return Some(DocumentIndex { root: node }),
                Some(Open::Seq(_, items)) => items.push(node),
                Some(Open::Map(_, entries, key)) => match key.take() {
                    Some((key, at)) => entries.push(Entry {
                        key,
                        at,
                        value: node,
                    }),
                    None => {
                        let text = match node.kind {
                            Kind::Scalar(s) => s,
                            _ => String::new(),
                        };
                        *key = Some((text, node.at));
                    }
                },
            }
        }
    }

    /// The position of `path` (as kssa prints paths: `.spec.containers[name="a"].ports[0]`).
    /// A path that is not all there gives the deepest node that is.
    pub fn locate(&self, path: &str, anchor: Anchor) -> Position {
        let (position, whole) = self.walk(path, anchor);
        if whole {
            return position;
        }
        // The server folds a Secret's `stringData` into `data` before it validates, so its
        // errors name `data[key]` for a key the manifest wrote under `stringData`.
        if let Some(key) = path.strip_prefix(".data[") {
            let (folded, found) = self.walk(&format!(".stringData[{key}"), anchor);
            if found {
                return folded;
            }
        }
        position
    }

    /// The position of the deepest node of `path` the document has, and whether that is all
    /// of it.
    fn walk(&self, path: &str, anchor: Anchor) -> (Position, bool) {
        let mut node = &self.root;
        let mut key_at = None;
        let mut rest = path;
        while !rest.is_empty() {
            let last = next_segment_end(rest) == rest.len();
            let second = anchor == Anchor::Duplicate && last;
            match step(node, rest, second) {
                Some((child, at, used)) => {
                    node = child;
                    key_at = Some(at);
                    rest = &rest[used..];
                }
                None => break,
            }
        }
        let mark = match anchor {
            Anchor::Key => key_at.unwrap_or(node.at),
            Anchor::Value | Anchor::Duplicate => node.at,
        };
        let position = Position {
            line: mark.line,
            column: mark.column,
        };
        (position, rest.is_empty())
    }
}

/// The length of the first segment of a path: `.name` up to the next `.` or `[` (a rough cut,
/// used only to tell the last segment), or a bracketed selector.
fn next_segment_end(path: &str) -> usize {
    if path.starts_with('[') {
        return bracket_end(path).map_or(path.len(), |e| e + 1);
    }
    path[1..].find(['.', '[']).map_or(path.len(), |i| i + 1)
}

/// The index of the `]` closing the selector `path` starts with, skipping JSON strings.
fn bracket_end(path: &str) -> Option<usize> {
    let mut in_string = false;
    let mut escaped = false;
    let mut depth = 0usize;
    for (i, c) in path.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '[' | '{' if !in_string => depth += 1,
            ']' | '}' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits `a=1,b="x"` at the commas between fields.
fn split_fields(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut in_string, mut escaped, mut depth, mut start) = (false, false, 0usize, 0);
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '[' | '{' if !in_string => depth += 1,
            ']' | '}' if !in_string => depth = depth.saturating_sub(1),
            ',' if !in_string && depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// Whether a scalar's text is the JSON value a selector names.
fn scalar_is(node: &Node, want: &Value) -> bool {
    let Kind::Scalar(text) = &node.kind else {
        return false;
    };
    match want {
        Value::String(s) => text == s,
        Value::Null => matches!(text.as_str(), "" | "~" | "null" | "Null" | "NULL"),
        other => *text == crate::value::to_json_string(other),
    }
}

/// One step down `node` along the start of `path`: the child, the mark of its key (or item),
/// and how much of the path it used. `second` picks a selector's second match.
fn step<'n>(node: &'n Node, path: &str, second: bool) -> Option<(&'n Node, Mark, usize)> {
    if let Some(rest) = path.strip_prefix('.') {
        let Kind::Map(entries) = &node.kind else {
            return None;
        };
        // Field names may hold dots (`kubernetes.io/name`): take the longest key that fits,
        // and of equal keys the last, which is the one a YAML reader keeps.
        let fits = |e: &&Entry| {
            rest.strip_prefix(e.key.as_str())
                .is_some_and(|after| after.is_empty() || after.starts_with(['.', '[']))
        };
        let best = entries
            .iter()
            .filter(fits)
            .max_by_key(|e| e.key.len())
            .map(|e| e.key.len())?;
        let entry = entries
            .iter()
            .rev()
            .find(|e| e.key.len() == best && fits(e))?;
        return Some((&entry.value, entry.at, 1 + entry.key.len()));
    }
    let end = bracket_end(path)?;
    let inner = &path[1..end];
    let items = match &node.kind {
        Kind::Seq(items) => items,
        // The server names a map's key in brackets, as written: `metadata.labels[app]`.
        Kind::Map(entries) => {
            let entry = entries.iter().rev().find(|e| e.key == inner)?;
            return Some((&entry.value, entry.at, end + 1));
        }
        Kind::Scalar(_) | Kind::Opaque => return None,
    };
    let item = if let Ok(i) = inner.parse::<usize>() {
        items.get(i)?
    } else {
        let wanted: Vec<(&str, Value)> = match inner.strip_prefix('=') {
            Some(v) => vec![("", crate::value::from_json_str(v).ok()?)],
            None => split_fields(inner)
                .into_iter()
                .map(|f| {
                    let (name, v) = f.split_once('=')?;
                    Some((name, crate::value::from_json_str(v).ok()?))
                })
                .collect::<Option<_>>()?,
        };
        let matches = |item: &&Node| {
            wanted
                .iter()
                .all(|(name, v)| match (&item.kind, name.is_empty()) {
                    (_, true) => scalar_is(item, v),
                    (Kind::Map(entries), false) => entries
                        .iter()
                        .rev()
                        .find(|e| e.key == *name)
                        .is_some_and(|e| scalar_is(&e.value, v)),
                    _ => false,
                })
        };
        let mut found = items.iter().filter(matches);
        let first = found.next()?;
        if second {
            found.next().unwrap_or(first)
        } else {
            first
        }
    };
    Some((item, item.at, end + 1))
}

/// An indexed document: the source's bytes, its first line, its index if it parses.
type Indexed = (Arc<[u8]>, usize, Arc<Option<DocumentIndex>>);

thread_local! {
    /// The last document indexed: diagnostics come in runs about the same document.
    static LAST: RefCell<Option<Indexed>> = const { RefCell::new(None) };
}

/// The position of `path` in the document starting on 1-based `line` of a source's bytes;
/// the document's start when the document cannot be read again.
pub fn locate(bytes: &Arc<[u8]>, line: usize, path: &str, anchor: Anchor) -> Position {
    let index = LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((b, l, index)) = last.as_ref() {
            if Arc::ptr_eq(b, bytes) && *l == line {
                return index.clone();
            }
        }
        let text = crate::yaml::decode_text(bytes);
        let index = Arc::new(DocumentIndex::build(&text, line));
        *last = Some((bytes.clone(), line, index.clone()));
        index
    });
    match index.as_ref() {
        Some(i) => i.locate(path, anchor),
        None => Position { line, column: 1 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "# head\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\n    kubernetes.io/a.b: x\nspec:\n  replicas: three\n  template:\n    spec:\n      containers:\n      - name: app\n        ports:\n        - containerPort: 80\n      - name: app\n";

    fn at(path: &str, anchor: Anchor) -> String {
        DocumentIndex::build(DOC, 3)
            .unwrap()
            .locate(path, anchor)
            .to_string()
    }

    #[test]
    fn keys_values_items_and_duplicates() {
        assert_eq!(at("", Anchor::Value), "3:1");
        assert_eq!(at(".spec.replicas", Anchor::Value), "10:13");
        assert_eq!(at(".spec.replicas", Anchor::Key), "10:3");
        assert_eq!(
            at(".metadata.annotations.kubernetes.io/a.b", Anchor::Key),
            "8:5"
        );
        let c = ".spec.template.spec.containers";
        assert_eq!(at(&format!("{c}[name=\"app\"]"), Anchor::Value), "14:9");
        assert_eq!(at(&format!("{c}[name=\"app\"]"), Anchor::Duplicate), "17:9");
        assert_eq!(
            at(&format!("{c}[0].ports[containerPort=80]"), Anchor::Value),
            "16:11"
        );
        assert_eq!(at(&format!("{c}[1]"), Anchor::Key), "17:9");
        assert_eq!(
            at(".metadata.annotations[kubernetes.io/a.b]", Anchor::Key),
            "8:5"
        );
        assert_eq!(at(".metadata.annotations[other]", Anchor::Key), "7:3");
    }

    #[test]
    fn secret_data_errors_find_string_data_keys() {
        let text = "kind: Secret\nstringData:\n  .dockerconfigjson: '{'\ndata:\n  a: eA==\n";
        let index = DocumentIndex::build(text, 1).unwrap();
        let at = |p: &str| index.locate(p, Anchor::Key).to_string();
        assert_eq!(at(".data[.dockerconfigjson]"), "3:3");
        assert_eq!(at(".data[a]"), "5:3");
        assert_eq!(at(".data[missing]"), "4:1");
    }

    #[test]
    fn a_missing_field_points_at_its_parent() {
        assert_eq!(at(".metadata.namespace", Anchor::Key), "5:1");
        assert_eq!(at(".status.x", Anchor::Key), "3:1");
    }

    #[test]
    fn documents_end_at_the_next_separator() {
        let text = "a: 1\n---\nb:\n  c: [1, 2]\n---\nb: 2\n";
        let index = DocumentIndex::build(text, 3).unwrap();
        assert_eq!(index.locate(".b.c[1]", Anchor::Value).to_string(), "4:10");
        assert!(DocumentIndex::build(text, 40).is_none());
    }
}
