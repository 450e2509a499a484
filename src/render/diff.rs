//! Unified diffs of two renderings of an object, named as `kubectl diff` names them.

use super::Style;
use similar::TextDiff;

/// kubectl diff's file name for an object: `[group.]version.Kind.namespace.name`.
pub fn object_file_name(
    group: &str,
    version: &str,
    kind: &str,
    namespace: &str,
    name: &str,
) -> String {
    let group_dot = if group.is_empty() { "" } else { "." };
    [
        group, group_dot, version, ".", kind, ".", namespace, ".", name,
    ]
    .concat()
}

/// A unified diff (3 lines of context) from `old` to `new`, with a `diff -u -N` header naming
/// `LIVE/<name>` and `MERGED/<name>`; empty when the texts are equal.
pub fn unified_diff(name: &str, old: &str, new: &str, style: Style) -> String {
    let mut out = String::new();
    write_unified_diff(&mut out, name, old, new, style);
    out
}

/// [`unified_diff`] appended to `out`. A created object needs no line diff: every line is
/// added, in one hunk.
pub fn write_unified_diff(out: &mut String, name: &str, old: &str, new: &str, style: Style) {
    if old == new {
        return;
    }
    // Plain concatenation: a stream of creates writes these headers for every object.
    let (a, b) = (["LIVE/", name].concat(), ["MERGED/", name].concat());
    paint_line(out, &["diff -u -N ", &a, " ", &b].concat(), style);
    if old.is_empty() && new.ends_with('\n') {
        paint_line(out, &["--- ", &a].concat(), style);
        paint_line(out, &["+++ ", &b].concat(), style);
        let lines = crate::search::byte_positions(b'\n', new.as_bytes()).count();
        let mut count = itoa::Buffer::new();
        let range = if lines == 1 {
            "1".to_string()
        } else {
            ["1,", count.format(lines)].concat()
        };
        paint_line(out, &["@@ -0,0 +", &range, " @@"].concat(), style);
        out.reserve(new.len() + lines * if style.color { 10 } else { 1 });
        let mut start = 0;
        for end in crate::search::byte_positions(b'\n', new.as_bytes()) {
            let text = &new[start..end];
            start = end + 1;
            if style.color {
                out.push_str("\x1b[32m+");
                out.push_str(text);
                out.push_str("\x1b[0m\n");
            } else {
                out.push('+');
                out.push_str(text);
                out.push('\n');
            }
        }
        return;
    }
    write_line_diff(out, &a, &b, old, new, style);
}

/// The hunks of a line diff, after the `diff` line.
fn write_line_diff(out: &mut String, a: &str, b: &str, old: &str, new: &str, style: Style) {
    let diff = TextDiff::from_lines(old, new);
    let body = diff
        .unified_diff()
        .context_radius(3)
        .header(a, b)
        .to_string();
    for line in body.split_inclusive('\n') {
        paint_line(out, line.strip_suffix('\n').unwrap_or(line), style);
    }
}

/// Appends one line of a diff, coloured by what it is, and its newline.
fn paint_line(out: &mut String, text: &str, style: Style) {
    let code = if text.starts_with("---") || text.starts_with("+++") || text.starts_with("diff ") {
        "1"
    } else if text.starts_with("@@") {
        "36"
    } else if text.starts_with('+') {
        "32"
    } else if text.starts_with('-') {
        "31"
    } else {
        ""
    };
    if style.color && !code.is_empty() {
        out.push_str("\x1b[");
        out.push_str(code);
        out.push('m');
        out.push_str(text);
        out.push_str("\x1b[0m");
    } else {
        out.push_str(text);
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_lines_in_a_hunk() {
        let d = unified_diff(
            "v1.ConfigMap.default.x",
            "a: 1\nb: 2\n",
            "a: 1\nb: 3\n",
            Style::default(),
        );
        assert_eq!(
            d,
            "diff -u -N LIVE/v1.ConfigMap.default.x MERGED/v1.ConfigMap.default.x\n\
             --- LIVE/v1.ConfigMap.default.x\n+++ MERGED/v1.ConfigMap.default.x\n\
             @@ -1,2 +1,2 @@\n a: 1\n-b: 2\n+b: 3\n"
        );
    }

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified_diff("x", "a\n", "a\n", Style { color: true }), "");
    }

    #[test]
    fn created_objects_are_shown_whole() {
        let d = unified_diff("x", "", "a: 1\n", Style::default());
        assert!(d.ends_with("@@ -0,0 +1 @@\n+a: 1\n"), "{d}");
    }

    #[test]
    fn created_objects_read_as_the_line_diff_shows_them() {
        for new in ["a: 1\n", "a: 1\nb:\n- ++x\n-- y\n", "\n\n", "a\n\nb\n"] {
            for color in [false, true] {
                let style = Style { color };
                let mut general = String::new();
                paint_line(&mut general, "diff -u -N LIVE/x MERGED/x", style);
                write_line_diff(&mut general, "LIVE/x", "MERGED/x", "", new, style);
                assert_eq!(unified_diff("x", "", new, style), general, "{new:?}");
            }
        }
    }

    #[test]
    fn names_like_kubectl() {
        assert_eq!(
            object_file_name("apps", "v1", "Deployment", "default", "web"),
            "apps.v1.Deployment.default.web"
        );
        assert_eq!(
            object_file_name("", "v1", "Namespace", "", "web"),
            "v1.Namespace..web"
        );
    }
}
