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
    let group = if group.is_empty() {
        String::new()
    } else {
        format!("{group}.")
    };
    format!("{group}{version}.{kind}.{namespace}.{name}")
}

/// A unified diff (3 lines of context) from `old` to `new`, with a `diff -u -N` header naming
/// `LIVE/<name>` and `MERGED/<name>`; empty when the texts are equal.
pub fn unified_diff(name: &str, old: &str, new: &str, style: Style) -> String {
    if old == new {
        return String::new();
    }
    let (a, b) = (format!("LIVE/{name}"), format!("MERGED/{name}"));
    let diff = TextDiff::from_lines(old, new);
    let body = diff
        .unified_diff()
        .context_radius(3)
        .header(&a, &b)
        .to_string();
    let mut out = style.bold(&format!("diff -u -N {a} {b}"));
    out.push('\n');
    for line in body.split_inclusive('\n') {
        let (text, nl) = match line.strip_suffix('\n') {
            Some(t) => (t, "\n"),
            None => (line, ""),
        };
        let painted = if text.starts_with("---") || text.starts_with("+++") {
            style.bold(text)
        } else if text.starts_with("@@") {
            style.cyan(text)
        } else if text.starts_with('+') {
            style.green(text)
        } else if text.starts_with('-') {
            style.red(text)
        } else {
            text.to_string()
        };
        out.push_str(&painted);
        out.push_str(nl);
        if nl.is_empty() {
            out.push('\n');
        }
    }
    out
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
