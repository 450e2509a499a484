//! Input that once crashed the CLI: each case must end with a clear result or error (exit 0, 1
//! or 2), never a panic (101) or a stack overflow (134).

use std::path::Path;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/robustness");

fn kssa(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let (code, stdout, stderr) = super::support::kssa_in(dir, args);
    // Messages name deep paths in full: keep failure reports readable.
    let stderr: String = stderr.chars().take(600).collect();
    assert!(
        (0..=2).contains(&code),
        "kssa {args:?} exited {code}: {stderr}"
    );
    (code, stdout, stderr)
}

#[test]
fn a_fields_v1_key_with_a_multi_byte_character_is_an_error() {
    let dir = Path::new(DATA);
    for args in [
        &["managers", "fieldsv1-multibyte-live.yaml"][..],
        &["managers", "--blame", "fieldsv1-multibyte-live.yaml"],
        &[
            "apply",
            "-f",
            "fieldsv1-multibyte.yaml",
            "--live",
            "fieldsv1-multibyte-live.yaml",
        ],
    ] {
        let (code, _, stderr) = kssa(dir, args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains("fƟ"), "{args:?}: {stderr}");
    }
}

#[test]
fn float_keys_beyond_float32_print_as_go_does() {
    let dir = Path::new(DATA);
    let (code, out, stderr) = kssa(
        dir,
        &[
            "apply",
            "-f",
            "float-key-beyond-float32.yaml",
            "--no-defaults",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    for line in ["  \".inf\": a\n", "  \"-.inf\": b\n", "  \"0\": c\n"] {
        assert!(out.contains(line), "{line:?} missing in:\n{out}");
    }
    let (code, _, stderr) = kssa(dir, &["diff", "-f", "float-key-unterminated.yaml"]);
    assert_eq!(code, 2, "{stderr}");
}

/// A custom resource whose `spec` nests maps `depth` levels deep, with a managedFields entry
/// owning the deepest leaf.
fn deep_thing(depth: usize, leaf: &str, managed: bool) -> String {
    let value = format!("{}{leaf}{}", "{a: ".repeat(depth), "}".repeat(depth));
    let mut meta = String::from("  name: deep\n  namespace: default\n");
    if managed {
        let fields = format!("{}{{}}{}", "{\"f:a\":".repeat(depth), "}".repeat(depth));
        meta.push_str(&format!(
            "  managedFields:\n  - manager: kubectl\n    operation: Apply\n    apiVersion: example.com/v1\n    time: \"2024-01-01T00:00:00Z\"\n    fieldsType: FieldsV1\n    fieldsV1: {{\"f:spec\": {fields}}}\n"
        ));
    }
    format!("apiVersion: example.com/v1\nkind: Thing\nmetadata:\n{meta}spec: {value}\n")
}

#[test]
fn nesting_as_deep_as_the_reader_allows_does_not_overflow_the_stack() {
    // The reader stops at 10,000 levels; the document's own levels come on top of `depth`.
    let depth = kssa::yaml::MAX_DEPTH - 10;
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| std::fs::write(dir.path().join(name), text).unwrap();
    write("manifest.yaml", deep_thing(depth, "x", false));
    write("live.yaml", deep_thing(depth, "x", true));
    write("changed.yaml", deep_thing(depth, "y", false));
    write(
        "patch.json",
        format!(
            "{{\"spec\": {}\"z\"{}}}",
            "{\"a\": ".repeat(depth),
            "}".repeat(depth)
        ),
    );
    let d = dir.path();
    let (code, _, stderr) = kssa(d, &["diff", "-f", "manifest.yaml", "--live", "live.yaml"]);
    assert_eq!(code, 0, "{stderr}");
    let (code, out, stderr) = kssa(
        d,
        &[
            "apply",
            "-f",
            "changed.yaml",
            "--live",
            "live.yaml",
            "-o",
            "name",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(out.contains("deep"), "{out}");
    let (code, out, _) = kssa(
        d,
        &[
            "conflicts",
            "-f",
            "changed.yaml",
            "--live",
            "live.yaml",
            "--field-manager",
            "other",
        ],
    );
    assert_eq!(code, 1);
    assert!(out.contains("kubectl"), "{out}");
    let (code, out, stderr) = kssa(d, &["managers", "live.yaml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.contains("kubectl"), "{out}");
    let (code, out, stderr) = kssa(d, &["managers", "--fields", "live.yaml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.contains(".a.a.a"), "{out}");
    let (code, _, stderr) = kssa(
        d,
        &[
            "update",
            "--live",
            "live.yaml",
            "--patch",
            "patch.json",
            "--type",
            "merge",
            "-o",
            "name",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = kssa(
        d,
        &[
            "update",
            "--live",
            "live.yaml",
            "--object",
            "changed.yaml",
            "-o",
            "name",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    // Nested lists print compactly (`- - - 1`), so blame can show the whole object.
    let lists = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    write(
        "lists.yaml",
        deep_thing(1, "1", true).replace("spec: {a: 1}", &format!("spec: {{a: {lists}}}")),
    );
    let (code, out, stderr) = kssa(d, &["managers", "--blame", "lists.yaml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.contains("- - - 1"), "{out}");
}
