//! Splitting text into lines with `memchr`: `str::split('\n')` searches for each line end anew,
//! which costs more than the line itself on the short lines of the embedded tables and
//! manifests read at every start.

/// The lines of `text` between `\n`s, as `text.split('\n')` yields them (a final empty line
/// when `text` ends with `\n`).
pub(crate) fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', text.as_bytes())
        .chain([text.len()])
        .map(move |end| {
            let line = &text[start..end];
            start = end + 1;
            line
        })
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
}
