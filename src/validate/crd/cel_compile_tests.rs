//! The compilation of CRD rules: cel-go's messages for what kssa reproduces, nothing where it
//! cannot tell, and every rule of the real CRDs accepted.

use super::*;
use crate::value::Value;

fn widget() -> Ty {
    let schema: Value = serde_yaml::from_str(
        "type: object
properties:
  replicas: {type: integer}
  labels: {type: object, additionalProperties: {type: string}}
  extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
  name: {type: string}
  my-field: {type: string}
  items:
    type: array
    items: {type: object, properties: {name: {type: string}}}",
    )
    .unwrap();
    decl_type(&schema, false).unwrap()
}

fn at(minor: u8, source: &str) -> Compiled {
    compile(
        source,
        &widget(),
        Scalar::Bool,
        KubeVersion::new(minor).unwrap(),
        false,
    )
    .result
}

fn failed(minor: u8, source: &str) -> String {
    match at(minor, source) {
        Compiled::Failed(text) => text,
        other => panic!("{source}: {other:?}"),
    }
}

#[test]
fn undefined_fields_of_declared_objects() {
    assert_eq!(
        failed(37, "self.replica > 0 && has(self.items[0].nam)"),
        "ERROR: <input>:1:5: undefined field 'replica'\n | self.replica > 0 && has(self.items[0].nam)\n | ....^\n\
         ERROR: <input>:1:38: undefined field 'nam'\n | self.replica > 0 && has(self.items[0].nam)\n | .....................................^"
    );
    // Escaped property names, map values, objects keeping unknown fields, optional selection.
    assert_eq!(at(37, "self.my__dash__field == 'a'"), Compiled::Clean);
    assert_eq!(
        at(37, "self.labels.app == 'a' && self.extra.x.y == 1"),
        Compiled::Clean
    );
    assert_eq!(
        failed(37, "self.?replica.orValue(1) > 0"),
        "ERROR: <input>:1:5: undefined field 'replica'\n | self.?replica.orValue(1) > 0\n | ....^"
    );
    assert_eq!(
        failed(37, "self.items.all(i, i.name != '' && i.nme != '')"),
        "ERROR: <input>:1:36: undefined field 'nme'\n | self.items.all(i, i.name != '' && i.nme != '')\n | ...................................^"
    );
}

#[test]
fn undeclared_references() {
    assert_eq!(
        failed(37, "spec.replicas > 0 ||\n  size(spec) == 0"),
        "ERROR: <input>:1:1: undeclared reference to 'spec' (in container '')\n | spec.replicas > 0 ||\n | ^\n\
         ERROR: <input>:2:8: undeclared reference to 'spec' (in container '')\n |   size(spec) == 0\n | .......^"
    );
    assert_eq!(
        at(37, "self.items.exists(x, x.name == self.name)"),
        Compiled::Clean
    );
    assert_eq!(at(37, "type(self.replicas) == int"), Compiled::Clean);
}

#[test]
fn resource_roots_expose_only_name_and_generate_name() {
    let root: Value = serde_yaml::from_str(
        "type: object\nproperties:\n  metadata: {type: object}\n  spec: {type: object}",
    )
    .unwrap();
    let ty = decl_type(&root, true).unwrap();
    let v = KubeVersion::NEWEST;
    assert_eq!(
        compile(
            "self.metadata.name.size() < 10",
            &ty,
            Scalar::Bool,
            v,
            false
        )
        .result,
        Compiled::Clean
    );
    assert_eq!(
        compile("has(self.metadata.labels)", &ty, Scalar::Bool, v, false).result,
        Compiled::Failed(
            "ERROR: <input>:1:18: undefined field 'labels'\n | has(self.metadata.labels)\n | .................^"
                .into()
        )
    );
}

#[test]
fn syntax_errors_and_the_escaped_identifier_token() {
    assert_eq!(
        failed(37, "self.replicas >"),
        "ERROR: <input>:1:16: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.replicas >\n | ...............^"
    );
    // Where the ANTLR runtimes' expected tokens differ (cel-go: `expecting <EOF>`).
    assert_eq!(at(37, "1 + 2\n3 +"), Compiled::Unknown);
    assert_eq!(at(37, "{a}"), Compiled::Unknown);
    // cel-go's rewrite of a reserved word after a dot.
    assert!(
        failed(37, "self.true == 1")
            .contains("Syntax error: mismatched input 'true' expecting IDENTIFIER"),
        "{}",
        failed(37, "self.true == 1")
    );
    let select = "self == msg{:a}";
    assert!(
        failed(33, select).contains("ESC_IDENTIFIER}"),
        "{}",
        failed(33, select)
    );
    assert!(!failed(32, select).contains("ESC_IDENTIFIER"));
}

#[test]
fn functions_and_macros_by_release() {
    // Two-variable comprehensions: introduced at 1.32, for new expressions from 1.33.
    let two = "self.items.all(i, v, v.name != '')";
    assert_eq!(at(33, two), Compiled::Clean);
    assert_eq!(
        failed(32, two),
        "ERROR: <input>:1:15: undeclared reference to 'all' (in container '')\n | self.items.all(i, v, v.name != '')\n | ..............^\n\
         ERROR: <input>:1:16: undeclared reference to 'i' (in container '')\n | self.items.all(i, v, v.name != '')\n | ...............^\n\
         ERROR: <input>:1:19: undeclared reference to 'v' (in container '')\n | self.items.all(i, v, v.name != '')\n | ..................^\n\
         ERROR: <input>:1:22: undeclared reference to 'v' (in container '')\n | self.items.all(i, v, v.name != '')\n | .....................^"
    );
    // A rule the stored CRD already had compiles with every library of the release.
    let v32 = KubeVersion::new(32).unwrap();
    assert_eq!(
        compile(two, &widget(), Scalar::Bool, v32, true).result,
        Compiled::Clean
    );
    assert_eq!(at(34, "isSemver(self.name)"), Compiled::Clean);
    assert_eq!(
        failed(33, "isSemver(self.name)"),
        "ERROR: <input>:1:9: undeclared reference to 'isSemver' (in container '')\n | isSemver(self.name)\n | ........^"
    );
    assert_eq!(at(31, "isIP(self.name)"), Compiled::Clean);
    assert!(matches!(at(30, "isIP(self.name)"), Compiled::Failed(_)));
    // sortBy: ext.Lists(3), introduced at 1.34.
    assert_eq!(
        at(35, "self.items.sortBy(i, i.name) == self.items"),
        Compiled::Clean
    );
    assert!(matches!(
        at(34, "self.items.sortBy(i, i.name) == self.items"),
        Compiled::Failed(_)
    ));
}

#[test]
fn results_of_the_wrong_type() {
    for source in [
        "self.replicas",
        "size(self.items)",
        "self.name.startsWith('a') ? 'x' : 'y'",
        "self",
    ] {
        assert_eq!(at(37, source), Compiled::Mistyped, "{source}");
    }
    for source in [
        "self.items.all(i, i.name != '')",
        "self.replicas + 1",
        "self.extra.x",
    ] {
        assert_eq!(at(37, source), Compiled::Clean, "{source}");
    }
    let message = |source: &str| {
        let v = KubeVersion::NEWEST;
        compile(source, &widget(), Scalar::String, v, false).result
    };
    assert_eq!(message("self.replicas"), Compiled::Mistyped);
    assert_eq!(message("string(self.replicas)"), Compiled::Clean);
    assert_eq!(
        message("'replicas: ' + string(self.replicas)"),
        Compiled::Clean
    );
}

#[test]
fn gives_up_where_it_cannot_be_sure() {
    for source in [
        // Type errors kssa does not reproduce.
        "self.name.first == 'a'",
        "self.items.foo == 1",
        // Message construction, qualified names, cel.bind.
        "google.protobuf.Int64Value{value: 1} == 1",
        "cel.bind(x, self.name, x == 'a')",
        // Namespaced functions (`format.dns1123Label()`, `ip.isCanonical`).
        "!format.dns1123Label().validate(self.name).hasValue()",
        "ip.isCanonical(self.name)",
        // An undeclared name also bound elsewhere.
        "self.items.all(x, x.name != '') && x == 1",
    ] {
        assert_eq!(at(37, source), Compiled::Unknown, "{source}");
    }
}

/// Every rule and messageExpression of the real CRDs compiles, at the oldest and newest release.
#[test]
fn real_crds_compile() {
    let dirs = [
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/crds"),
        std::path::PathBuf::from("/work/shared/corpus/real"),
    ];
    let mut compiled = 0;
    for dir in dirs.iter().filter(|d| d.exists()) {
        for entry in walkdir::WalkDir::new(dir) {
            let entry = entry.unwrap();
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
            if !text.contains("x-kubernetes-validations") {
                continue;
            }
            for doc in serde_yaml::Deserializer::from_str(&text) {
                let Ok(doc) = <Value as serde::Deserialize>::deserialize(doc) else {
                    continue;
                };
                compiled += compile_all(&doc, true, entry.path());
            }
        }
    }
    assert!(compiled > 50, "{compiled}");
}

fn compile_all(s: &Value, root: bool, file: &std::path::Path) -> usize {
    let mut n = 0;
    if let Some(Value::List(versions)) = s.get_path(&["spec", "versions"]) {
        for v in versions.iter() {
            if let Some(schema) = v.get_path(&["schema", "openAPIV3Schema"]) {
                n += compile_all(schema, true, file);
            }
        }
        return n;
    }
    let Some(map) = s.as_map() else { return 0 };
    let embedded = |c: &Value| c.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
    for (k, c) in map.iter() {
        match (k.as_str(), c) {
            ("properties", Value::Map(m)) => {
                n += m
                    .iter()
                    .map(|(_, p)| compile_all(p, embedded(p), file))
                    .sum::<usize>();
            }
            ("items" | "additionalProperties", c) => n += compile_all(c, embedded(c), file),
            _ => {}
        }
    }
    let Some(Value::List(rules)) = s.get("x-kubernetes-validations") else {
        return n;
    };
    let Some(ty) = decl_type(s, root) else {
        return n;
    };
    for rule in rules.iter() {
        for key in ["rule", "messageExpression"] {
            let Some(source) = rule.get(key).and_then(Value::as_str) else {
                continue;
            };
            for minor in [30, 37] {
                let v = KubeVersion::new(minor).unwrap();
                let output = match key {
                    "rule" => Scalar::Bool,
                    _ => Scalar::String,
                };
                let out = compile(source, &ty, output, v, false).result;
                assert!(
                    matches!(out, Compiled::Clean | Compiled::Unknown),
                    "{}: {source} at 1.{minor}: {out:?}",
                    file.display()
                );
                n += usize::from(out == Compiled::Clean);
            }
        }
    }
    n
}
