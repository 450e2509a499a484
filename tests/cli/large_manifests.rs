//! Manifests above 8 MB are read once, while the workers merge them (src/cli/deferred.rs): the
//! output must be what the same objects give when read whole, and bad input must still stop
//! everything with every error reported.

use super::support::kssa_in as kssa;

/// `n` ConfigMaps starting at `first`, with an empty and a comment-only document among them.
fn config_maps(first: usize, n: usize) -> String {
    let mut out = String::new();
    for i in first..first + n {
        out.push_str(&format!(
            "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-{i}\n  \
             namespace: team-{}\n  labels:\n    app.kubernetes.io/name: settings\n\
             data:\n  mode: production\n  index: \"{i}\"\n  padding: {}\n",
            i % 7,
            "x".repeat(120)
        ));
        if i % 1000 == 0 {
            out.push_str("---\n~\n---\n# nothing here\n");
        }
    }
    out
}

const OBJECTS: usize = 36_000;

#[test]
fn a_large_manifest_gives_what_its_parts_give() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (
        config_maps(0, OBJECTS / 2),
        config_maps(OBJECTS / 2, OBJECTS / 2),
    );
    assert!(a.len() + b.len() > 8 << 20 && a.len() < 8 << 20);
    std::fs::write(dir.path().join("big.yaml"), format!("{a}{b}")).unwrap();
    std::fs::write(dir.path().join("a.yaml"), &a).unwrap();
    std::fs::write(dir.path().join("b.yaml"), &b).unwrap();
    let whole = kssa(dir.path(), &["diff", "-f", "big.yaml"]);
    let parts = kssa(dir.path(), &["diff", "-f", "a.yaml", "-f", "b.yaml"]);
    assert_eq!(whole.0, 1, "{}", whole.2);
    assert_eq!(whole, parts);
    assert!(whole.2.ends_with(&format!(
        "{OBJECTS} created, 0 changed, 0 unchanged, 0 with conflicts\n"
    )));
}

#[test]
fn a_large_manifest_with_bad_documents_prints_nothing_and_reports_them_all() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-5\n  namespace: team-5\n{}\
         ---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: [\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: after-the-error}}\n",
        config_maps(0, OBJECTS / 2),
        config_maps(OBJECTS / 2, OBJECTS / 2),
    );
    std::fs::write(dir.path().join("big.yaml"), text).unwrap();
    let (code, stdout, stderr) = kssa(dir.path(), &["diff", "-f", "big.yaml"]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    let duplicate = stderr
        .find("the same object is also given at big.yaml:")
        .unwrap();
    let yaml = stderr.find("invalid YAML").unwrap();
    // Both errors, the document's own first (as when the manifest is checked whole).
    assert_eq!(stderr.matches("error: ").count(), 2, "{stderr}");
    assert!(yaml < duplicate, "{stderr}");
    assert!(!stderr.contains("after-the-error"), "{stderr}");
}

/// A `List` of `n` ConfigMaps starting at `first`.
fn config_map_list(first: usize, n: usize) -> String {
    let mut out = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for i in first..first + n {
        out.push_str(&format!(
            "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: settings-{i}\n    \
             namespace: team-{}\n  data:\n    index: \"{i}\"\n    padding: {}\n",
            i % 7,
            "x".repeat(160)
        ));
    }
    out
}

/// A large `List` is one document: its items are still merged on every core, in order.
#[test]
fn a_large_list_gives_what_its_parts_give() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.yaml"), config_map_list(0, OBJECTS)).unwrap();
    let (a, b) = (
        config_map_list(0, OBJECTS / 2),
        config_map_list(OBJECTS / 2, OBJECTS / 2),
    );
    assert!(a.len() < 8 << 20 && a.len() + b.len() > 8 << 20);
    std::fs::write(dir.path().join("a.yaml"), a).unwrap();
    std::fs::write(dir.path().join("b.yaml"), b).unwrap();
    let whole = kssa(dir.path(), &["diff", "-f", "big.yaml"]);
    let parts = kssa(dir.path(), &["diff", "-f", "a.yaml", "-f", "b.yaml"]);
    assert_eq!(whole.0, 1, "{}", whole.2);
    assert_eq!(whole, parts);
}
