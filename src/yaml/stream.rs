//! kubectl's file path: a BOM-aware UTF-8 reader, JSON-or-YAML stream detection, the `---` line
//! splitter, and skipping of empty and `null` documents.

use super::compose::first_document;
use super::json::next_value;
use super::{Document, ErrorKind, YamlError};
use crate::value::Value;
use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

/// How far kubectl looks for a leading `{` to choose the JSON path.
const SNIFF_LEN: usize = 4096;

/// The documents of a manifest stream, in order; iteration ends after the first error.
pub struct Documents {
    /// Shared with the [`Pending`] documents split off it.
    text: SharedText,
    mode: Mode,
    kept: usize,
    done: bool,
}

enum Mode {
    /// Reading JSON values from byte `pos`; `read` values decoded so far.
    Json { pos: usize, read: usize },
    /// YAML documents still to split off from byte `pos`, which starts 1-based line `line`.
    Yaml { pos: usize, line: usize },
}

impl Documents {
    pub fn new(bytes: &[u8]) -> Self {
        Documents::shared(Arc::from(bytes))
    }

    /// [`Documents::new`] over bytes held elsewhere too: UTF-8 (nearly every manifest) is
    /// read where it is, not copied.
    pub fn shared(bytes: Arc<[u8]>) -> Self {
        let text = SharedText::decode(bytes);
        let sniff = &text[..floor_char_boundary(&text, SNIFF_LEN)];
        let mode = if sniff.trim_start().starts_with('{') {
            Mode::Json { pos: 0, read: 0 }
        } else {
            yaml_mode(&text, 0)
        };
        Documents {
            text,
            mode,
            kept: 0,
            done: false,
        }
    }

    /// Ends the stream with an error at a 1-based line and column.
    fn error(&mut self, kind: ErrorKind, line: usize, column: usize) -> Split {
        self.done = true;
        Split::Read(Err(YamlError {
            document: self.kept,
            line,
            column,
            kind,
        }))
    }

    fn keep(&mut self, value: Value, line: usize) -> Split {
        let index = self.kept;
        self.kept += 1;
        Split::Read(Ok(Document { index, line, value }))
    }
}

impl Documents {
    /// The next document, parsed here unless it may be parsed on another thread: a YAML
    /// document that surely counts (see [`Pending`]). Unlike [`Iterator::next`], the split
    /// goes on after a pending document that turns out to be an error; the documents split off
    /// after it are not part of the stream.
    pub fn next_split(&mut self) -> Option<Split> {
        if self.done {
            return None;
        }
        loop {
            match &mut self.mode {
                Mode::Json { pos, read } => {
                    let start = *pos;
                    match next_value(&self.text, start) {
                        Ok(None) => {
                            self.done = true;
                            return None;
                        }
                        Ok(Some((value, end))) => {
                            *pos = end;
                            *read += 1;
                            let skipped =
                                self.text[start..].len() - self.text[start..].trim_start().len();
                            let line = line_of(&self.text, start + skipped);
                            if value.is_null() {
                                continue;
                            }
                            return Some(self.keep(value, line));
                        }
                        Err(e) if *read > 1 || !e.syntax => {
                            let line = line_of(&self.text, e.offset);
                            let column = column_of(&self.text, e.offset);
                            return Some(self.error(ErrorKind::Json(e.message), line, column));
                        }
                        // Like kubectl, one JSON value followed by YAML (or JSON that is really
                        // YAML) is read on as YAML from where the JSON stopped.
                        Err(_) => self.mode = yaml_mode(&self.text, start),
                    }
                }
                Mode::Yaml { pos, line } => {
                    let (chunk, first_line) = match next_chunk(&self.text, pos, line) {
                        None => {
                            self.done = true;
                            return None;
                        }
                        Some(Err((found, line, column))) => {
                            return Some(self.error(ErrorKind::BadSeparator(found), line, column))
                        }
                        Some(Ok(chunk)) => chunk,
                    };
                    if surely_counts(&chunk) {
                        let (text, range) = match chunk {
                            Cow::Borrowed(c) => {
                                // A borrowed chunk is a slice of the text: its place in it.
                                let start = c.as_ptr() as usize - self.text.as_ptr() as usize;
                                (self.text.clone(), start..start + c.len())
                            }
                            Cow::Owned(c) => (SharedText::from(c.as_str()), 0..c.len()),
                        };
                        let index = self.kept;
                        self.kept += 1;
                        return Some(Split::Pending(Pending {
                            text,
                            range,
                            index,
                            first_line,
                        }));
                    }
                    match read_chunk(&chunk, first_line) {
                        Ok(None) | Ok(Some((Value::Null, _))) => continue,
                        Ok(Some((value, line))) => return Some(self.keep(value, line)),
                        Err((kind, line, column)) => return Some(self.error(kind, line, column)),
                    }
                }
            }
        }
    }
}

/// A document split off a stream by [`Documents::next_split`].
pub enum Split {
    /// Read where it was split: JSON values, errors, and documents that may turn out empty
    /// (those are skipped and do not count, so the next ones can only be numbered after them).
    Read(Result<Document, YamlError>),
    Pending(Pending),
}

/// A YAML document not parsed yet, numbered already: its first line is a mapping key, so it
/// cannot be empty or `null` (it reads as a map, or as an error).
pub struct Pending {
    text: SharedText,
    range: Range<usize>,
    index: usize,
    first_line: usize,
}

impl Pending {
    pub fn parse(&self) -> Result<Document, YamlError> {
        match read_chunk(&self.text[self.range.clone()], self.first_line) {
            Ok(read) => {
                // `None` is ruled out by `surely_counts`; it would be the empty document.
                let (value, line) = read.unwrap_or((Value::Null, self.first_line));
                Ok(Document {
                    index: self.index,
                    line,
                    value,
                })
            }
            Err((kind, line, column)) => Err(YamlError {
                document: self.index,
                line,
                column,
                kind,
            }),
        }
    }
}

/// The document of a chunk that starts at 1-based line `first_line`: its value and the line
/// where it starts, or the error and its 1-based line and column, all counted in the stream.
fn read_chunk(
    chunk: &str,
    first_line: usize,
) -> Result<Option<(Value, usize)>, (ErrorKind, usize, usize)> {
    match first_document(chunk.as_bytes()) {
        Ok(read) => Ok(read.map(|(value, line)| (value, first_line + line))),
        Err((kind, mark)) => Err((kind, first_line + mark.line, mark.column + 1)),
    }
}

/// Whether a chunk's document surely counts: its first line that is not blank or a comment
/// starts with a letter in the first column and has a `:`, so it reads as a map (an implicit
/// key) or fails; never as an empty or `null` document, which no `:` can spell.
fn surely_counts(chunk: &str) -> bool {
    let first = chunk.lines().find(|l| {
        let t = l.trim_start();
        !t.is_empty() && !t.starts_with('#')
    });
    first.is_some_and(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()) && l.contains(':'))
}

impl Iterator for Documents {
    type Item = Result<Document, YamlError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.next_split()? {
            Split::Read(read) => Some(read),
            Split::Pending(pending) => {
                let read = pending.parse();
                self.done |= read.is_err();
                Some(read)
            }
        }
    }
}

/// kubectl's reader: strip a UTF-8 BOM, convert UTF-16 that has a BOM, replace invalid bytes.
/// Lines and columns of documents and errors count in this text.
pub fn decode_text(bytes: &[u8]) -> String {
    let utf16 = |units: Vec<u16>| String::from_utf16_lossy(&units);
    match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => utf8(rest),
        [0xFF, 0xFE, rest @ ..] => utf16(
            rest.chunks(2)
                .map(|c| u16::from_le_bytes([c[0], *c.get(1).unwrap_or(&0)]))
                .collect(),
        ),
        [0xFE, 0xFF, rest @ ..] => utf16(
            rest.chunks(2)
                .map(|c| u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]))
                .collect(),
        ),
        _ => utf8(bytes),
    }
}

/// Text in a shared buffer: a source's own bytes where they are UTF-8 without a BOM (checked
/// once, never copied), else their decoded copy.
#[derive(Clone)]
struct SharedText(Arc<[u8]>);

impl SharedText {
    fn decode(bytes: Arc<[u8]>) -> SharedText {
        match std::str::from_utf8(&bytes) {
            Ok(text) if !text.starts_with('\u{FEFF}') => SharedText(bytes),
            _ => SharedText::from(decode_text(&bytes).as_str()),
        }
    }
}

impl From<&str> for SharedText {
    fn from(text: &str) -> SharedText {
        SharedText(Arc::<str>::from(text).into())
    }
}

impl std::ops::Deref for SharedText {
    type Target = str;

    fn deref(&self) -> &str {
        // SAFETY: both constructors hold UTF-8 only (`decode` checks it), and bytes behind a
        // shared `Arc` that this type never hands out cannot change.
        unsafe { std::str::from_utf8_unchecked(&self.0) }
    }
}

/// UTF-8 text, invalid bytes replaced; valid text (the usual case) is checked at full speed.
fn utf8(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The 1-based column, in characters, of a byte offset.
fn column_of(text: &str, offset: usize) -> usize {
    let offset = floor_char_boundary(text, offset);
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    text[start..offset].chars().count() + 1
}

fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

fn yaml_mode(text: &str, from: usize) -> Mode {
    Mode::Yaml {
        pos: from,
        line: line_of(text, from),
    }
}

/// A bad `---` separator: the text after it, its 1-based line and the column of that text.
pub(super) type BadSeparator = (String, usize, usize);

/// Splits the next document off `text[*pos..]` the way kubectl's YAMLReader does: line by line
/// (CRLF read as LF, a final newline added), on lines that begin with `---`, which may carry
/// only a comment after the marker. Returns the document's text and 1-based first line, or the
/// text after a bad separator and its line. One document at a time, so a large stream is never
/// copied whole.
pub(super) fn next_chunk<'t>(
    text: &'t str,
    pos: &mut usize,
    line: &mut usize,
) -> Option<Result<(Cow<'t, str>, usize), BadSeparator>> {
    // The chunk's first byte and line, and whether a line of it ends in `\r`.
    let mut first: Option<(usize, usize)> = None;
    let mut carriage_return = false;
    while *pos < text.len() {
        let at = *pos;
        let end =
            crate::search::find_byte(b'\n', &text.as_bytes()[at..]).map_or(text.len(), |i| at + i);
        let raw = &text[at..end];
        let line_no = *line;
        *pos = end + 1;
        *line += 1;
        let l = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some(after) = l.strip_prefix("---") {
            let after = after.trim();
            if !after.is_empty() && !after.starts_with('#') {
                *pos = text.len();
                let column = 4 + raw[3..].chars().take_while(|c| c.is_whitespace()).count();
                return Some(Err((after.to_string(), line_no, column)));
            }
            if let Some((start, first_line)) = first {
                return Some(Ok((chunk(&text[start..at], carriage_return), first_line)));
            }
            continue;
        }
        first.get_or_insert((at, line_no));
        carriage_return |= l.len() != raw.len();
    }
    first.map(|(start, first_line)| Ok((chunk(&text[start..], carriage_return), first_line)))
}

/// The lines of `text`, each ending in `\n` and without a `\r` before it: the text itself
/// when it already is that (nearly always), else a copy.
fn chunk(text: &str, carriage_return: bool) -> Cow<'_, str> {
    if !carriage_return && text.ends_with('\n') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 1);
    for raw in text.split_inclusive('\n') {
        let l = raw.strip_suffix('\n').unwrap_or(raw);
        out.push_str(l.strip_suffix('\r').unwrap_or(l));
        out.push('\n');
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::super::parse_stream;
    use super::*;

    fn chunks(text: &str) -> Vec<(String, usize, bool)> {
        let (mut pos, mut line) = (0, 1);
        let mut out = Vec::new();
        while let Some(Ok((chunk, first))) = next_chunk(text, &mut pos, &mut line) {
            let borrowed = matches!(chunk, Cow::Borrowed(_));
            out.push((chunk.into_owned(), first, borrowed));
        }
        out
    }

    #[test]
    fn chunks_are_borrowed_unless_lines_change() {
        assert_eq!(
            chunks("a: 1\n---\nb: 2\n"),
            [("a: 1\n".into(), 1, true), ("b: 2\n".into(), 3, true)]
        );
        assert_eq!(
            chunks("a: 1\r\n--- # x\r\nb: 2"),
            [("a: 1\n".into(), 1, false), ("b: 2\n".into(), 3, false)]
        );
        assert_eq!(chunks("---\n---\n\n"), [("\n".into(), 3, true)]);
    }

    fn values(text: &str) -> Vec<String> {
        parse_stream(text.as_bytes())
            .unwrap()
            .into_iter()
            .map(|d| d.value.to_string())
            .collect()
    }

    #[test]
    fn splits_on_separator_lines_and_skips_empty_docs() {
        assert_eq!(values("---\n---\na: 1\n---\n~\n---\n"), [r#"{"a":1}"#]);
        assert_eq!(values("a: 1\n...\nb: 2\n"), [r#"{"a":1}"#]);
        assert_eq!(
            values("a: 1\r\n---\r\nb: 2\r\n"),
            [r#"{"a":1}"#, r#"{"b":2}"#]
        );
    }

    #[test]
    fn rejects_content_after_separator() {
        let err = parse_stream(b"a: 1\n--- {a: 1}\n").unwrap_err();
        assert_eq!(err.kind, ErrorKind::BadSeparator("{a: 1}".into()));
        assert_eq!((err.line, err.column), (2, 5));
    }

    #[test]
    fn json_stream_then_yaml() {
        assert_eq!(
            values("{\"a\":1}\n---\nc: 3\n"),
            [r#"{"a":1}"#, r#"{"c":3}"#]
        );
        assert!(parse_stream(b"{\"a\":1}\n{\"b\":2}\n---\nc: 3\n").is_err());
        assert_eq!(values("{\"a\": NaN}"), [r#"{"a":"NaN"}"#]);
    }

    #[test]
    fn documents_know_their_index_and_line() {
        let docs = parse_stream(b"# c\na: 1\n---\n\nb: 2\n").unwrap();
        assert_eq!((docs[1].index, docs[1].line), (1, 5));
        assert_eq!(docs[0].line, 2);
        let err = parse_stream(b"a: 1\n---\nb: [\n").unwrap_err();
        assert_eq!(err.document, 1);
        let err = parse_stream(b"a: 1\nb: !!int x\n").unwrap_err();
        assert_eq!((err.line, err.column), (2, 4));
        assert_eq!(
            err.to_string(),
            "2:4: document 1: \"x\" is a !!str and cannot be read as !!int"
        );
    }

    #[test]
    fn documents_that_surely_count_are_pending_and_numbered_in_order() {
        let mut docs = Documents::new(b"# c\na: 1\n---\n~\n---\n# only\n---\n- x\n---\nb: [\n");
        let mut seen = Vec::new();
        while let Some(split) = docs.next_split() {
            seen.push(match split {
                Split::Read(r) => format!("read {:?}", r.map(|d| d.index).map_err(|e| e.document)),
                Split::Pending(p) => format!(
                    "pending {:?}",
                    p.parse()
                        .map(|d| (d.index, d.line))
                        .map_err(|e| (e.document, e.line))
                ),
            });
        }
        assert_eq!(
            seen,
            ["pending Ok((0, 2))", "read Ok(1)", "pending Err((2, 11))"]
        );
    }

    /// `surely_counts` is sound over every document of the YAML vectors: none it picks reads
    /// as empty or `null`.
    #[test]
    fn documents_picked_as_surely_counting_are_never_empty() {
        // Some vectors nest as deep as the reader allows: a debug build needs the deep stack.
        crate::stack::with_deep_stack(picked_documents_are_never_empty);
    }

    fn picked_documents_are_never_empty() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/conformance/yaml/k8s-yaml-vectors.json"
        );
        let vectors = std::fs::read_to_string(path).unwrap();
        let mut picked = 0;
        // Only the `yaml` strings are read: other fields hold numbers no float holds.
        for (at, _) in vectors.match_indices("\"yaml\":") {
            let mut rest = serde_json::Deserializer::from_str(&vectors[at + 7..]);
            let Ok(yaml) = <String as serde::Deserialize>::deserialize(&mut rest) else {
                continue; // a vector whose input is given as bytes
            };
            let text = decode_text(yaml.as_bytes());
            let (mut pos, mut line) = (0, 1);
            while let Some(Ok((chunk, _))) = next_chunk(&text, &mut pos, &mut line) {
                if surely_counts(&chunk) {
                    picked += 1;
                    let read = first_document(chunk.as_bytes());
                    assert!(
                        !matches!(read, Ok(None) | Ok(Some((Value::Null, _)))),
                        "{yaml:?}"
                    );
                }
            }
        }
        assert!(picked > 500, "{picked}");
    }
}
