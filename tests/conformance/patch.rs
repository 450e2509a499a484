//! Patch vectors (testdata/conformance/patch): merge, JSON and strategic merge patch against
//! the outputs of the Kubernetes 1.36 patch libraries.
//!
//! How a vector passes:
//! - `expect.result`: kssa returns a value equal to it as JSON values (ints and floats compare
//!   numerically, map key order is ignored). When `expect.resultText` is given, kssa's Go-style
//!   output with keys sorted (Go sorts map keys when it marshals) must also equal it byte for
//!   byte, since that is where the spelling matters.
//! - `expect.error`: kssa returns an error whose message contains the library's text verbatim
//!   (kssa may prefix it with the field path of a strategic merge patch).
//!
//! Any failing vector must be listed, with a reason, in `KNOWN_DIFFERENCES.md`.
//! Strategic vectors take their patch metadata from the OpenAPI model they name, read here by
//! a minimal loader over `testdata/schemas/kubernetes-1.36-openapi-v2.json` that mirrors
//! apimachinery's `PatchMetaFromOpenAPI` (kube-openapi `proto` models).

use kssa::patch::{
    json_patch, merge_patch, parse_input, strategic_merge_patch, FieldPatchMeta, Input,
    NoPatchMeta, PatchError, PatchMetaLookup, PatchType,
};
use kssa::value::{from_json_str, to_json_string, Map, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

#[test]
fn patch_vectors() {
    let dir = root().join("conformance/patch");
    let known = known_differences(&dir.join("KNOWN_DIFFERENCES.md"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 172, "vectors missing from {}", dir.display());

    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    let mut unexpected = Vec::new();
    let mut stale = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let vector = from_json_str(&text).unwrap();
        let name = vector
            .get("name")
            .and_then(Value::as_str)
            .unwrap()
            .to_string();
        let kind = vector
            .get("type")
            .and_then(Value::as_str)
            .unwrap()
            .to_string();
        let outcome = run(&vector, &kind);
        let entry = counts.entry(kind).or_default();
        match outcome {
            Ok(()) => {
                entry.0 += 1;
                if known.contains_key(&name) {
                    stale.push(name);
                }
            }
            Err(why) => {
                entry.1 += 1;
                if !known.contains_key(&name) {
                    unexpected.push(format!("{name}: {why}"));
                }
            }
        }
    }
    let mut kinds: Vec<_> = counts.into_iter().collect();
    kinds.sort();
    let (mut passed, mut failed) = (0, 0);
    for (kind, (p, f)) in &kinds {
        println!("patch {kind}: {p} passed, {f} failed");
        passed += p;
        failed += f;
    }
    println!("patch: {passed} passed, {failed} failed");
    for s in &stale {
        println!("listed in KNOWN_DIFFERENCES.md but passes: {s}");
    }
    assert!(
        unexpected.is_empty(),
        "unexpected failures:\n{}",
        unexpected.join("\n\n")
    );
}

/// Vector names listed as `- \`name\`: reason` in KNOWN_DIFFERENCES.md.
fn known_differences(path: &Path) -> HashMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.strip_prefix("- `"))
        .filter_map(|l| l.split_once("`: "))
        .map(|(n, r)| {
            assert!(!r.trim().is_empty(), "{n} is listed without a reason");
            (n.to_string(), r.to_string())
        })
        .collect()
}

fn input(
    vector: &Value,
    key: &str,
    patch_type: PatchType,
    which: Input,
) -> Result<Value, PatchError> {
    match vector.get(&format!("{key}Text")).and_then(Value::as_str) {
        Some(text) => parse_input(patch_type, which, text),
        None => Ok(vector.get(key).cloned().expect("vector without input")),
    }
}

fn run(vector: &Value, kind: &str) -> Result<(), String> {
    let patch_type = match kind {
        "merge" => PatchType::Merge,
        "json" => PatchType::Json,
        "strategic" => PatchType::Strategic,
        other => return Err(format!("unknown vector type {other}")),
    };
    let result = input(vector, "original", patch_type, Input::Document).and_then(|original| {
        let patch = input(vector, "patch", patch_type, Input::Patch)?;
        match patch_type {
            PatchType::Merge => merge_patch(&original, &patch),
            PatchType::Json => json_patch(&original, &patch),
            PatchType::Strategic => match vector.get("openapiModel").and_then(Value::as_str) {
                Some(model) => strategic_merge_patch(&original, &patch, &OpenApiMeta::model(model)),
                None => strategic_merge_patch(&original, &patch, &NoPatchMeta),
            },
        }
    });
    let expect = vector.get("expect").unwrap();
    match (result, expect.get("error"), expect.get("result")) {
        (Err(e), Some(Value::String(want)), _) => {
            let got = e.to_string();
            if got.contains(want.as_str()) {
                Ok(())
            } else {
                Err(format!("error {got:?}, want {want:?}"))
            }
        }
        (Ok(got), _, Some(want)) => {
            if &got != want {
                return Err(format!(
                    "result differs:\n got {}\nwant {}",
                    to_json_string(&got.with_sorted_keys()),
                    to_json_string(&want.with_sorted_keys())
                ));
            }
            if let Some(text) = expect.get("resultText").and_then(Value::as_str) {
                let ours = to_json_string(&got.with_sorted_keys());
                if ours != text {
                    return Err(format!("result text differs:\n got {ours}\nwant {text}"));
                }
            }
            Ok(())
        }
        (Err(e), _, _) => Err(format!("unexpected error: {e}")),
        (Ok(got), _, _) => Err(format!("expected an error, got {}", to_json_string(&got))),
    }
}

// --- OpenAPI patch metadata, as kube-openapi's proto models and apimachinery's
// --- PatchMetaFromOpenAPI see it (only what strategic merge patch reads).

enum Node {
    Kind(HashMap<String, Field>),
    Map,
    Array(Box<Node>),
    Primitive,
    Arbitrary,
    Ref(String),
}

struct Field {
    node: Node,
    meta: FieldPatchMeta,
}

fn definitions() -> &'static HashMap<String, Node> {
    static DEFS: OnceLock<HashMap<String, Node>> = OnceLock::new();
    DEFS.get_or_init(|| {
        let path = root().join("schemas/kubernetes-1.36-openapi-v2.json");
        let doc = from_json_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let defs = doc.get("definitions").and_then(Value::as_map).unwrap();
        defs.iter().map(|(k, v)| (k.clone(), node(v))).collect()
    })
}

fn node(s: &Value) -> Node {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        return Node::Ref(r.trim_start_matches("#/definitions/").to_string());
    }
    let fields = |props: &Map| {
        props
            .iter()
            .map(|(k, v)| {
                let ext = |name: &str| v.get(name).and_then(Value::as_str);
                let meta = FieldPatchMeta::new(
                    ext("x-kubernetes-patch-strategy"),
                    ext("x-kubernetes-patch-merge-key"),
                );
                (
                    k.clone(),
                    Field {
                        node: node(v),
                        meta,
                    },
                )
            })
            .collect()
    };
    let props = s.get("properties").and_then(Value::as_map);
    match s.get("type").and_then(Value::as_str) {
        None | Some("object") if props.is_some() => Node::Kind(fields(props.unwrap())),
        None => Node::Arbitrary,
        Some("object") => Node::Map,
        Some("array") => Node::Array(Box::new(
            s.get("items").map(node).unwrap_or(Node::Arbitrary),
        )),
        Some(_) => Node::Primitive,
    }
}

#[derive(Clone, Copy)]
struct OpenApiMeta {
    node: &'static Node,
}

impl OpenApiMeta {
    fn model(name: &str) -> OpenApiMeta {
        let node = definitions()
            .get(name)
            .unwrap_or_else(|| panic!("no OpenAPI model {name}"));
        OpenApiMeta { node }
    }
}

fn deref(mut n: &'static Node) -> &'static Node {
    while let Node::Ref(name) = n {
        n = &definitions()[name];
    }
    n
}

fn field_of(n: &'static Node, key: &str, expected: &str) -> Result<&'static Field, String> {
    match deref(n) {
        Node::Kind(fields) => fields
            .get(key)
            .ok_or_else(|| format!("unable to find api field {key:?}")),
        Node::Map => Err(format!("expected {expected}, but got map")),
        Node::Array(_) => Err(format!("expected {expected}, but got slice")),
        Node::Primitive => Err(format!("expected {expected}, but got primitive")),
        Node::Arbitrary | Node::Ref(_) => unreachable!("handled by callers"),
    }
}

impl PatchMetaLookup for OpenApiMeta {
    fn lookup_map_field(&self, key: &str) -> Result<(Option<Self>, FieldPatchMeta), String> {
        if matches!(deref(self.node), Node::Arbitrary) {
            return Ok((None, FieldPatchMeta::default()));
        }
        let f = field_of(self.node, key, "kind")?;
        Ok((Some(OpenApiMeta { node: &f.node }), f.meta.clone()))
    }

    fn lookup_list_field(&self, key: &str) -> Result<(Option<Self>, FieldPatchMeta), String> {
        match deref(self.node) {
            Node::Arbitrary => return Ok((None, FieldPatchMeta::default())),
            Node::Array(_) => return Err("expected visit kind first, then visit array".into()),
            _ => {}
        }
        let f = field_of(self.node, key, "slice")?;
        let items = match &f.node {
            Node::Array(items) => Some(OpenApiMeta { node: items }),
            Node::Ref(name) => Some(OpenApiMeta {
                node: &definitions()[name],
            }),
            Node::Arbitrary => None,
            Node::Map => return Err("expected slice, but got map".into()),
            Node::Primitive => return Err("expected slice, but got primitive".into()),
            Node::Kind(_) => return Err(format!("unable to find api field {key:?}")),
        };
        Ok((items, f.meta.clone()))
    }

    fn name(&self) -> String {
        "OpenAPI model".into()
    }
}
