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
