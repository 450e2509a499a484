//! Splitting text into lines with a vectorized byte search (`crate::search`):
//! `str::split('\n')` searches for each line end anew, which costs more than the line itself
//! on the short lines of the embedded tables and manifests read at every start.

/// The lines of `text` between `\n`s, as `text.split('\n')` yields them (a final empty line
/// when `text` ends with `\n`).
pub(crate) fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    crate::search::byte_positions(b'\n', text.as_bytes())
        .chain([text.len()])
        .map(move |end| {
            let line = &text[start..end];
            start = end + 1;
            line
        })
}

/// The words of `line` between single spaces, as `line.split(' ')` yields them: the tokens of
/// the embedded tables are a few bytes long, shorter than a vectorized search's setup.
pub(crate) fn split_spaces(line: &str) -> Words<'_> {
    Words { rest: Some(line) }
}

/// The iterator of [`split_spaces`].
#[derive(Debug, Clone)]
pub(crate) struct Words<'a> {
    rest: Option<&'a str>,
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let text = self.rest?;
        match text.bytes().position(|b| b == b' ') {
            Some(i) => {
                self.rest = Some(&text[i + 1..]);
                Some(&text[..i])
            }
            None => {
                self.rest = None;
                Some(text)
            }
        }
    }
}

/// The second space-separated word of a line whose first word is one byte (`T name …`), found
/// with one byte search: the embedded tables are looked up by it on every start.
pub(crate) fn second_word(line: &str) -> &str {
    let rest = line.get(2..).unwrap_or("");
    let end = crate::search::find_byte(b' ', rest.as_bytes()).unwrap_or(rest.len());
    &rest[..end]
}

// The byte offsets of the embedded tables' sorted declaration lines, written by build.rs.
include!(concat!(env!("OUT_DIR"), "/table_lines.rs"));

/// Lines sorted by their second word (`T <name> …`), at known byte offsets of a text: a name is
/// found by binary search without reading the other lines.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SortedLines {
    text: &'static str,
    /// Where each line starts in `text` and where its name (second word) ends; the lines follow
    /// each other up to the end of `text`.
    starts: &'static [(u32, u32)],
}

impl SortedLines {
    pub(crate) fn new(text: &'static str, starts: &'static [(u32, u32)]) -> SortedLines {
        SortedLines { text, starts }
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len()
    }

    /// The text before the first line.
    pub(crate) fn head(&self) -> &'static str {
        let first = self
            .starts
            .first()
            .map_or(self.text.len(), |&(s, _)| s as usize);
        &self.text[..first]
    }

    /// Line `i`, without its `\n`.
    pub(crate) fn line(&self, i: usize) -> &'static str {
        let start = self.starts[i].0 as usize;
        let end = match self.starts.get(i + 1) {
            Some(&(next, _)) => next as usize - 1,
            None => {
                let rest = &self.text.as_bytes()[start..];
                start + crate::search::find_byte(b'\n', rest).unwrap_or(rest.len())
            }
        };
        &self.text[start..end]
    }

    /// Line `i`'s second word.
    pub(crate) fn name(&self, i: usize) -> &'static str {
        let (start, name_end) = self.starts[i];
        self.text
            .get(start as usize + 2..name_end as usize)
            .unwrap_or("")
    }

    /// The index of the line whose second word is `key`.
    pub(crate) fn find(&self, key: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.starts.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.name(mid).cmp(key) {
                std::cmp::Ordering::Equal => return Some(mid),
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
            }
        }
        None
    }

    /// Every line, in order (the tables' tests compare them with a plain scan).
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = &'static str> {
        let lines = *self;
        (0..lines.len()).map(move |i| lines.line(i))
    }

    /// Every line's second word, in order.
    pub(crate) fn names(&self) -> impl Iterator<Item = &'static str> {
        let lines = *self;
        (0..lines.len()).map(move |i| lines.name(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_as_str_split_does() {
        for text in ["", "a", "a\n", "a\nb", "\n\nb\n", "x\r\ny"] {
            let ours: Vec<&str> = split_lines(text).collect();
            let std: Vec<&str> = text.split('\n').collect();
            assert_eq!(ours, std, "{text:?}");
        }
    }

    #[test]
    fn splits_spaces_as_str_split_does() {
        for text in ["", "a", "a b", " a  b ", "T name {list}"] {
            let ours: Vec<&str> = split_spaces(text).collect();
            let std: Vec<&str> = text.split(' ').collect();
            assert_eq!(ours, std, "{text:?}");
        }
        assert_eq!(second_word("T io.k8s.Pod {}"), "io.k8s.Pod");
        assert_eq!(second_word("T alone"), "alone");
        assert_eq!(second_word("T"), "");
    }
}
