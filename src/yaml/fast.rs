//! A fast reader for the block-style YAML that manifests are made of: indented maps and lists,
//! one-line plain and quoted scalars, literal block scalars, `{}` and `[]`. It produces the
//! same events libyaml does for that subset and gives up (returns `None`) on anything else —
//! flow collections, anchors, tags, multi-line scalars, tabs, odd characters, any error — so
//! libyaml's reader still decides every such document, and every error message.

use super::compose::Composer;
use super::events::{Event, ScalarStyle};
use crate::value::Value;

/// Why the fast reader stopped; the document is then read by libyaml.
struct GiveUp;

type Step<T> = Result<T, GiveUp>;

/// Compact nesting (`- - - a`) recurses once per level; deeper input goes to libyaml.
const MAX_COMPACT_DEPTH: usize = 256;

/// libyaml refuses a simple key longer than this.
const MAX_SIMPLE_KEY: usize = 1024;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Map,
    Seq,
}

struct Open {
    kind: Kind,
    /// The column of the keys or of the `-` indicators.
    indent: usize,
}

/// A node whose value has not been seen yet: after `key:` or `-` at the end of a line.
struct Pending {
    /// The indentation of the collection the node belongs to.
    indent: usize,
}

struct Reader<'t> {
    lines: Vec<&'t str>,
    /// Index of the line being read.
    at: usize,
    stack: Vec<Open>,
    pending: Option<Pending>,
    composer: Composer,
    root: Option<Value>,
    root_line: Option<usize>,
}

/// The first document of `text` and the 0-based line of its root, as `first_document` reads
/// it; `None` when the text is outside the subset this reader knows.
pub(crate) fn document(text: &[u8]) -> Option<Option<(Value, usize)>> {
    let text = std::str::from_utf8(text).ok()?;
    if !text.ends_with('\n') || !plain_characters(text) {
        return None;
    }
    let mut r = Reader {
        lines: lines_of(&text[..text.len() - 1]),
        at: 0,
        stack: Vec::new(),
        pending: None,
        composer: Composer::default(),
        root: None,
        root_line: None,
    };
    r.read().ok()?;
    let root = r.root.take()?;
    Some(Some((root, r.root_line.unwrap_or(0))))
}

/// The lines of `text`, found with the vectorized search (`str::split` tests its pattern one
/// byte at a time, which was a tenth of the reader's instructions).
fn lines_of(text: &str) -> Vec<&str> {
    let mut lines = Vec::with_capacity(text.len() / 24 + 1);
    let mut start = 0;
    for end in crate::search::byte_positions(b'\n', text.as_bytes()) {
        lines.push(&text[start..end]);
        start = end + 1;
    }
    lines.push(&text[start..]);
    lines
}

/// Whether every character is one libyaml reads without complaint and none is a line break
/// other than `\n` (a carriage return, NEL, LS or PS) or a byte order mark.
fn plain_characters(text: &str) -> bool {
    let ascii_ok = |b: u8| b == b'\n' || b == b'\t' || (0x20..0x7F).contains(&b);
    // Whole blocks folded without an early exit, which the compiler vectorizes: this pass
    // over every byte was a sixth of the reader's own instructions.
    let bytes = text.as_bytes();
    let mut blocks = bytes.chunks_exact(64);
    let all_ascii = blocks.all(|block| block.iter().fold(true, |ok, &b| ok & ascii_ok(b)))
        && blocks.remainder().iter().all(|&b| ascii_ok(b));
    if all_ascii {
        return true;
    }
    text.chars().all(|c| match c {
        '\u{0}'..='\u{7F}' => ascii_ok(c as u8),
        '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}' => {
            !matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
        }
        _ => false,
    })
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// A line with nothing but spaces, or a comment.
fn is_blank(line: &str) -> bool {
    let rest = line.trim_start_matches(' ');
    rest.is_empty() || rest.starts_with('#')
}

/// What may follow a value on its line: spaces, then an end or a comment after a space.
fn rest_is_empty(rest: &str) -> bool {
    let trimmed = rest.trim_start_matches(' ');
    trimmed.is_empty() || (trimmed.starts_with('#') && trimmed.len() < rest.len())
}

fn scalar(value: String, style: ScalarStyle) -> Event {
    Event::Scalar {
        anchor: None,
        tag: None,
        value,
        style,
    }
}

impl Reader<'_> {
    fn emit(&mut self, event: Event, line: usize) -> Step<()> {
        self.root_line.get_or_insert(line);
        if self.root.is_some() {
            return Err(GiveUp);
        }
        self.root = self.composer.event(event).map_err(|_| GiveUp)?;
        Ok(())
    }

    fn read(&mut self) -> Step<()> {
        while self.at < self.lines.len() {
            let line = self.lines[self.at];
            if line.starts_with("...") || line.starts_with('%') {
                return Err(GiveUp);
            }
            let col = indent_of(line);
            if line[col..].starts_with('\t') {
                return Err(GiveUp);
            }
            if is_blank(line) {
                self.at += 1;
                continue;
            }
            self.content_line(col)?;
        }
        if self.pending.take().is_some() {
            self.emit(scalar(String::new(), ScalarStyle::Plain), self.at)?;
        }
        while let Some(open) = self.stack.pop() {
            self.close(open.kind)?;
        }
        Ok(())
    }

    fn close(&mut self, kind: Kind) -> Step<()> {
        let event = match kind {
            Kind::Map => Event::MappingEnd,
            Kind::Seq => Event::SequenceEnd,
        };
        self.emit(event, self.at)
    }

    /// A line whose content starts at column `col`.
    fn content_line(&mut self, col: usize) -> Step<()> {
        let line = self.lines[self.at];
        let item = is_item(&line[col..]);
        if let Some(p) = self.pending.take() {
            // The value of `key:` or `-` is on this line when it is indented further, or a
            // list at the key's own column.
            let top_is_map = self.stack.last().is_some_and(|o| o.kind == Kind::Map);
            if col > p.indent || (col == p.indent && item && top_is_map) {
                return self.node(col, true);
            }
            self.emit(scalar(String::new(), ScalarStyle::Plain), self.at)?;
        }
        while let Some(top) = self.stack.last() {
            let ends = top.indent > col || (top.indent == col && top.kind == Kind::Seq && !item);
            if !ends {
                break;
            }
            let kind = top.kind;
            self.stack.pop();
            self.close(kind)?;
        }
        match self.stack.last() {
            Some(top) if top.indent == col => {
                let expected = if item { Kind::Seq } else { Kind::Map };
                if top.kind != expected {
                    return Err(GiveUp);
                }
                self.entry(col)
            }
            None if self.root.is_none() && self.root_line.is_none() => self.node(col, false),
            _ => Err(GiveUp),
        }
    }

    /// One entry of the open collection at `col`: `- ...` or `key: ...`.
    fn entry(&mut self, col: usize) -> Step<()> {
        match self.stack.last().map(|o| o.kind) {
            Some(Kind::Seq) => self.item(col),
            _ => self.key_value(col),
        }
    }

    /// A node starting at `col`: a new collection, or a scalar. `nested` when it is the value of
    /// a key or item on an earlier line.
    fn node(&mut self, col: usize, nested: bool) -> Step<()> {
        let line = self.lines[self.at];
        let rest = &line[col..];
        if is_item(rest) {
            self.emit(Event::SequenceStart { anchor: None }, self.at)?;
            self.stack.push(Open {
                kind: Kind::Seq,
                indent: col,
            });
            return self.item(col);
        }
        if let Some(span) = key_span(rest)? {
            return self.map_at(col, span);
        }
        if !nested {
            return Err(GiveUp);
        }
        self.value(col)
    }

    /// `- ` at `col`, with what follows on the line.
    fn item(&mut self, col: usize) -> Step<()> {
        let line = self.lines[self.at];
        let after = col + 1;
        let content = after + indent_of(&line[after..]);
        if rest_is_empty(&line[after..]) {
            self.pending = Some(Pending { indent: col });
            self.at += 1;
            return Ok(());
        }
        if line[after..content].is_empty() || line[content..].starts_with('\t') {
            return Err(GiveUp);
        }
        let rest = &line[content..];
        if self.stack.len() > MAX_COMPACT_DEPTH {
            return Err(GiveUp);
        }
        // A compact nested list or map: `- - a`, `- key: value`.
        if is_item(rest) {
            return self.node(content, false);
        }
        if let Some(span) = key_span(rest)? {
            return self.map_at(content, span);
        }
        self.value(content)
    }

    /// A map starting at `col` with the key `span` found there.
    fn map_at(&mut self, col: usize, span: (KeyText<'_>, usize)) -> Step<()> {
        self.emit(Event::MappingStart { anchor: None }, self.at)?;
        self.stack.push(Open {
            kind: Kind::Map,
            indent: col,
        });
        self.key_value_at(col, span)
    }

    /// `key: ...` at `col`.
    fn key_value(&mut self, col: usize) -> Step<()> {
        let line = self.lines[self.at];
        let Some(span) = key_span(&line[col..])? else {
            return Err(GiveUp);
        };
        self.key_value_at(col, span)
    }

    /// `key: ...` at `col`, the key's text and the offset of its `:` already found.
    fn key_value_at(&mut self, col: usize, (text, colon): (KeyText<'_>, usize)) -> Step<()> {
        let line = self.lines[self.at];
        let key = key_event(text);
        let key_line = self.at;
        self.emit(key, key_line)?;
        let after = col + colon + 1;
        if rest_is_empty(&line[after..]) {
            self.pending = Some(Pending { indent: col });
            self.at += 1;
            return Ok(());
        }
        let content = after + indent_of(&line[after..]);
        if content == after || line[content..].starts_with('\t') {
            return Err(GiveUp);
        }
        let rest = &line[content..];
        if is_item(rest) || is_key(rest)? {
            return Err(GiveUp);
        }
        self.value(content)
    }

    /// A scalar (or `{}`/`[]`) starting at `col` of the current line, which it ends.
    fn value(&mut self, col: usize) -> Step<()> {
        let line = self.lines[self.at];
        let rest = &line[col..];
        let at = self.at;
        // Events go out before the rest of the line is checked: giving up drops them all.
        let used = match rest.as_bytes()[0] {
            b'|' => return self.literal(col),
            b'"' => {
                let (text, used) = double_quoted(rest)?;
                self.emit(scalar(text, ScalarStyle::Quoted), at)?;
                used
            }
            b'\'' => {
                let (text, used) = single_quoted(rest)?;
                self.emit(scalar(text, ScalarStyle::Quoted), at)?;
                used
            }
            b'{' if rest.starts_with("{}") => {
                self.emit(Event::MappingStart { anchor: None }, at)?;
                self.emit(Event::MappingEnd, at)?;
                2
            }
            b'[' if rest.starts_with("[]") => {
                self.emit(Event::SequenceStart { anchor: None }, at)?;
                self.emit(Event::SequenceEnd, at)?;
                2
            }
            _ => {
                let (text, used) = plain(rest)?;
                self.emit(scalar(text.to_string(), ScalarStyle::Plain), at)?;
                used
            }
        };
        if !rest_is_empty(&rest[used..]) {
            return Err(GiveUp);
        }
        self.at += 1;
        self.no_continuation()
    }

    /// Gives up when the next line could continue the scalar just read (a multi-line scalar),
    /// which is where libyaml would go on reading it.
    fn no_continuation(&self) -> Step<()> {
        let indent = self.stack.last().map_or(0, |o| o.indent);
        let next = self.lines[self.at..]
            .iter()
            .find(|l| !l.trim_start_matches(' ').is_empty());
        match next {
            Some(l) if l.trim_start_matches(' ').starts_with('#') => Ok(()),
            Some(l) if indent_of(l) > indent || self.stack.is_empty() => Err(GiveUp),
            _ => Ok(()),
        }
    }

    /// A literal block scalar `|`, `|-` or `|+` whose header is at `col`.
    fn literal(&mut self, col: usize) -> Step<()> {
        let line = self.lines[self.at];
        let header = &line[col + 1..];
        let (chomp, after) = match header.as_bytes().first() {
            Some(b'-') => (b'-', &header[1..]),
            Some(b'+') => (b'+', &header[1..]),
            _ => (b' ', header),
        };
        if !rest_is_empty(after) {
            return Err(GiveUp);
        }
        let parent = self.stack.last().map_or(0, |o| o.indent);
        let header_line = self.at;
        let first = self.lines.get(self.at + 1).ok_or(GiveUp)?;
        let indent = indent_of(first);
        if indent <= parent || indent == first.len() || first[indent..].starts_with('\t') {
            return Err(GiveUp);
        }
        let mut text = String::new();
        let mut breaks = 0;
        self.at += 1;
        while let Some(l) = self.lines.get(self.at) {
            let spaces = indent_of(l);
            if spaces == l.len() && spaces <= indent {
                breaks += 1;
            } else if spaces >= indent {
                for _ in 0..breaks {
                    text.push('\n');
                }
                breaks = 1;
                text.push_str(&l[indent..]);
            } else if l[spaces..].starts_with('\t') {
                return Err(GiveUp);
            } else {
                break;
            }
            self.at += 1;
        }
        match chomp {
            b'-' => {}
            b'+' => (0..breaks).for_each(|_| text.push('\n')),
            _ => text.push('\n'),
        }
        self.emit(scalar(text, ScalarStyle::Block), header_line)
    }
}

/// Whether text starts a list item: `-` then a space or the end.
fn is_item(rest: &str) -> bool {
    rest == "-" || rest.starts_with("- ")
}

/// When `rest` starts with a key, its event and the offset of its `:`.
fn key_event(text: KeyText<'_>) -> Event {
    match text {
        KeyText::Plain(text) => scalar(text.to_string(), ScalarStyle::Plain),
        KeyText::Quoted(text) => scalar(text, ScalarStyle::Quoted),
    }
}

/// Whether `rest` starts with a key (a value that does, `a: b: c`, is left to the full parser).
fn is_key(rest: &str) -> Step<bool> {
    Ok(key_span(rest)?.is_some())
}

/// A key's text: a plain key's is a slice of the line.
enum KeyText<'a> {
    Plain(&'a str),
    Quoted(String),
}

/// When `rest` starts with a key, its text and the offset of its `:`.
fn key_span(rest: &str) -> Step<Option<(KeyText<'_>, usize)>> {
    let (text, used) = match rest.as_bytes()[0] {
        b'"' => {
            let Ok((text, used)) = double_quoted(rest) else {
                return Ok(None);
            };
            (KeyText::Quoted(text), used)
        }
        b'\'' => {
            let Ok((text, used)) = single_quoted(rest) else {
                return Ok(None);
            };
            (KeyText::Quoted(text), used)
        }
        _ => {
            let Some(colon) = plain_key_colon(rest).filter(|&c| c > 0) else {
                return Ok(None);
            };
            let (text, _) = plain(&rest[..colon])?;
            (KeyText::Plain(text), colon)
        }
    };
    let colon = used + indent_of(&rest[used..]);
    let after = rest.as_bytes().get(colon + 1);
    if rest.as_bytes().get(colon) != Some(&b':') || !matches!(after, None | Some(b' ')) {
        return Ok(None);
    }
    if colon > MAX_SIMPLE_KEY {
        return Err(GiveUp);
    }
    Ok(Some((text, colon)))
}

/// The offset of the `:` that ends a plain key: the first `: ` or final `:` before a comment.
fn plain_key_colon(rest: &str) -> Option<usize> {
    let b = rest.as_bytes();
    for i in 0..b.len() {
        match b[i] {
            b':' if matches!(b.get(i + 1), None | Some(b' ')) => return Some(i),
            b'#' if i > 0 && b[i - 1] == b' ' => return None,
            _ => {}
        }
    }
    None
}

/// A one-line plain scalar at the start of `rest`: its text (trailing spaces trimmed) and the
/// bytes it spans.
fn plain(rest: &str) -> Step<(&str, usize)> {
    let b = rest.as_bytes();
    if super::starts_with_indicator(b) {
        return Err(GiveUp);
    }
    let mut end = b.len();
    for i in 0..b.len() {
        match b[i] {
            b'\t' => return Err(GiveUp),
            b':' if matches!(b.get(i + 1), None | Some(b' ')) => return Err(GiveUp),
            b'#' if b[i - 1] == b' ' => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    // A tab in the comment too (most scalars have none: no search of an empty rest).
    if end < b.len() && b[end..].contains(&b'\t') {
        return Err(GiveUp);
    }
    let text = rest[..end].trim_end_matches(' ');
    Ok((text, text.len()))
}

/// A one-line `'...'` scalar: its text and the bytes it spans.
fn single_quoted(rest: &str) -> Step<(String, usize)> {
    let mut text = String::new();
    let mut i = 1;
    let b = rest.as_bytes();
    loop {
        let close = rest[i..].find('\'').ok_or(GiveUp)? + i;
        text.push_str(&rest[i..close]);
        if b.get(close + 1) == Some(&b'\'') {
            text.push('\'');
            i = close + 2;
        } else {
            return Ok((text, close + 1));
        }
    }
}

/// A one-line `"..."` scalar with the escapes manifests use: its text and the bytes it spans.
fn double_quoted(rest: &str) -> Step<(String, usize)> {
    let mut text = String::new();
    let mut chars = rest.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((text, i + 1)),
            '\\' => {
                let (_, e) = chars.next().ok_or(GiveUp)?;
                let unicode = |n: usize, chars: &mut dyn Iterator<Item = (usize, char)>| {
                    let hex: String = chars.take(n).map(|(_, c)| c).collect();
                    let digits = hex.len() == n && hex.bytes().all(|b| b.is_ascii_hexdigit());
                    let code = digits.then(|| u32::from_str_radix(&hex, 16).ok()).flatten();
                    code.and_then(char::from_u32).ok_or(GiveUp)
                };
                text.push(match e {
                    '\\' => '\\',
                    '"' => '"',
                    'n' => '\n',
                    't' | '\t' => '\t',
                    'r' => '\r',
                    '0' => '\0',
                    ' ' => ' ',
                    'x' => unicode(2, &mut chars)?,
                    'u' => unicode(4, &mut chars)?,
                    'U' => unicode(8, &mut chars)?,
                    _ => return Err(GiveUp),
                });
            }
            _ => text.push(c),
        }
    }
    Err(GiveUp)
}

#[cfg(test)]
mod tests {
    use super::super::compose::first_document_libyaml;
    use super::*;

    /// The fast reader either agrees with libyaml or gives up.
    fn same(text: &str) -> bool {
        let fast = document(text.as_bytes());
        let slow = first_document_libyaml(text.as_bytes()).ok();
        if let Some(fast) = &fast {
            assert_eq!(Some(fast), slow.as_ref(), "{text:?}");
        }
        fast.is_some()
    }

    #[test]
    fn reads_what_manifests_contain_as_libyaml_does() {
        for text in [
            "a: 1\n",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x # c\n  labels: {}\ndata:\n  k: 'it''s'\n  j: \"a\\tb\\u00e9\"\n",
            "a:\n- 1\n- b: 2\n  c: [ ]\n-\n- - x\n  - y\nz: ~\n",
            "  a: 1\n  b:\n    c: |\n      line\n\n       more\n    d: |-\n      x\n\n    e: |+\n      y\n\n\nf: 1\n",
            "list:\n  - name: a\n    value: \"1\"\n  - name: b\n    valueFrom:\n      secretKeyRef: {}\n",
            "a: yes\nb: 0644\nc: 1_000\nd: -1\ne: \"\"\nf: ''\ng: null\n'q': 1\n\"r\": 2\n",
            "# only a comment\n",
            "a: b:c\nd: http://x/y#z\ne: -x\n",
            "- a\n- b\n",
            "a:\n  # comment\n  b: 1\n",
        ] {
            same(text);
        }
    }

    #[test]
    fn gives_up_outside_the_subset() {
        for text in [
            "a: [1, 2]\n",
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "a: multi\n  line\n",
            "a: \"multi\n  line\"\n",
            "a: >\n  folded\n",
            "a:\tb\n",
            "a: 1\n  b: 2\n",
            "a: b: c\n",
            "a: 1\r\n",
            "? a\n: b\n",
            "a: \"\\/\"\n",
            "a: |2\n   x\n",
            "a: 1\n...\nb: 2\n",
        ] {
            assert!(!same(text), "{text:?}");
        }
    }

    fn yaml_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                yaml_files(&path, out);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("yaml" | "yml")
            ) {
                out.push(path);
            }
        }
    }

    /// Every document of every YAML file in testdata/ (manifests, snapshots, scenarios, bad
    /// input): where the fast reader takes a document, it reads what libyaml reads.
    #[test]
    fn agrees_with_libyaml_on_every_testdata_document() {
        let mut files = Vec::new();
        yaml_files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata"),
            &mut files,
        );
        let (mut taken, mut all) = (0, 0);
        for file in files {
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let (mut pos, mut line) = (0, 1);
            while let Some(Ok((chunk, _))) =
                super::super::stream::next_chunk(&text, &mut pos, &mut line)
            {
                all += 1;
                taken += usize::from(same(&chunk));
            }
        }
        assert!(all > 100 && taken * 2 > all, "{taken} of {all}");
    }

    #[test]
    fn the_subset_covers_typical_manifests() {
        let deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: web\n        image: \"nginx:1.25\"\n        ports:\n        - containerPort: 80\n        resources: {}\n        command:\n        - sh\n        - -c\n        - |\n          echo hi\n";
        assert!(same(deployment));
    }
}
