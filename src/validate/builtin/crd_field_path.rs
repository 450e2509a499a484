//! Whether an `x-kubernetes-validations` rule's `fieldPath` names a field of the schema it sits
//! on: k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
//! `pathValid`, which converts the node to a structural schema and walks the path with
//! pkg/apiserver/schema/cel/validation.go `ValidFieldPath` (`.name` and `['name']` steps through
//! properties, or through an `additionalProperties` map by key).

use super::crd_value_validation::convert_error;
use crate::value::Value;

/// Where a walk ends: a node of the schema, or under an `additionalProperties: true` (or
/// `false`) map, which has no schema (Go dereferences a nil schema if the path goes on).
#[derive(Debug, Clone, Copy)]
enum Step<'v> {
    Node(&'v Value),
    NoSchema,
}

/// `pathValid`: a node that does not convert to a structural schema accepts every path, and so
/// does kssa for a path going on below a map without a schema (upstream panics there).
pub(super) fn valid(node: &Value, path: &str) -> bool {
    convert_error(node).is_some() || !matches!(resolve(node, path, true), Err(Some(_)))
}

/// Where `ValidFieldPath` ends for a selectable field (array notation not allowed): the
/// schema found (`None` below an `additionalProperties: true` map), the path as
/// `field.Path.String()` prints it and its first step's name; `Err(None)` when upstream would
/// panic.
pub(super) type Found<'v> = (Option<&'v Value>, String, String);

pub(super) fn selectable<'v>(schema: &'v Value, path: &str) -> Result<Found<'v>, Option<String>> {
    let mut walked = Walked::default();
    let at = resolve_walk(schema, path, false, &mut walked)?;
    let found = match at {
        Step::Node(n) => Some(n),
        Step::NoSchema => None,
    };
    Ok((found, walked.path, walked.root))
}

/// The `field.Path` a walk builds: `Child` for a property, `Key` for a map key.
#[derive(Default)]
struct Walked {
    path: String,
    root: String,
}

impl Walked {
    fn push(&mut self, name: &str, named: bool) {
        let elem = if named {
            if self.path.is_empty() {
                name.to_string()
            } else {
                format!(".{name}")
            }
        } else {
            format!("[{name}]")
        };
        if self.path.is_empty() {
            self.root = elem.clone();
        }
        self.path.push_str(&elem);
    }
}

/// `ValidFieldPath`'s error for `path` from `schema`: `Err(None)` when upstream would panic.
/// (`array` false: `WithFieldPathAllowArrayNotation(false)`, as selectable fields use it.)
fn resolve<'v>(schema: &'v Value, path: &str, array: bool) -> Result<Step<'v>, Option<String>> {
    resolve_walk(schema, path, array, &mut Walked::default())
}

fn resolve_walk<'v>(
    schema: &'v Value,
    path: &str,
    array: bool,
    walked: &mut Walked,
) -> Result<Step<'v>, Option<String>> {
    let mut at = Step::Node(schema);
    let mut tokens = Tokens(path);
    let fail = |s: String| Err(Some(s));
    let end = || Err(Some("unexpected end of JSON path".to_string()));
    while let Some(tok) = tokens.next() {
        match tok {
            "[" => {
                if !array {
                    return fail("array notation is not allowed".into());
                }
                let Some(tok) = tokens.next() else {
                    return end();
                };
                if tok.len() < 2 || !tok.starts_with('\'') || !tok.ends_with('\'') {
                    return fail(format!("expected single quoted string but got {tok}"));
                }
                let name = unescape(&tok[1..tok.len() - 1])
                    .map_err(|e| Some(format!("invalid string literal: {e}")))?;
                at = step(at, &name, walked)?;
                match tokens.next() {
                    None => return end(),
                    Some("]") => {}
                    Some(tok) => return fail(format!("expected ] but got {tok}")),
                }
            }
            "." => {
                let Some(tok) = tokens.next() else {
                    return end();
                };
                at = step(at, tok, walked)?;
            }
            _ => return fail(format!("expected [ or . but got: {tok}")),
        }
    }
    Ok(at)
}

/// One step to `name`: a property when the node has properties, else a key of its
/// `additionalProperties` map.
fn step<'v>(at: Step<'v>, name: &str, walked: &mut Walked) -> Result<Step<'v>, Option<String>> {
    let Step::Node(s) = at else {
        return Err(None);
    };
    let invalid = || Err(Some("does not refer to a valid field".to_string()));
    let props = s.get("properties").and_then(Value::as_map);
    let named = props.is_some_and(|p| !p.is_empty());
    if !named && matches!(s.get("additionalProperties"), None | Some(Value::Null)) {
        return invalid();
    }
    walked.push(name, named);
    if let Some(props) = props.filter(|p| !p.is_empty()) {
        return match props.get(name) {
            Some(p) => Ok(Step::Node(p)),
            None => invalid(),
        };
    }
    match s.get("additionalProperties") {
        None | Some(Value::Null) => invalid(),
        Some(a) if a.as_map().is_some() => Ok(Step::Node(a)),
        Some(_) => Ok(Step::NoSchema),
    }
}

/// The tokens of `ValidFieldPath`'s scanner: `.`, `[` and `]` alone, a single-quoted string
/// (to the first quote not after a backslash, or to the end), or the text up to a delimiter.
struct Tokens<'p>(&'p str);

impl<'p> Iterator for Tokens<'p> {
    type Item = &'p str;

    fn next(&mut self) -> Option<&'p str> {
        let data = self.0;
        let b = data.as_bytes();
        let len = if b.is_empty() {
            return None;
        } else if b[0] == b'\'' {
            (1..b.len())
                .find(|&i| b[i] == b'\'' && b[i - 1] != b'\\')
                .map_or(b.len(), |i| i + 1)
        } else {
            match b.iter().position(|c| matches!(c, b'.' | b'[' | b']')) {
                Some(0) => 1,
                Some(i) => i,
                None => b.len(),
            }
        };
        self.0 = &data[len..];
        Some(&data[..len])
    }
}

/// `unescapeSingleQuote`: `\a \b \f \n \r \t \v \' \\`; any other escaped character (not a
/// line break, which the expression `\\.` does not match) is an error, the last one reported.
fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut error = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek().copied()) {
            ('\\', Some(d)) if d != '\n' => {
                chars.next();
                match d {
                    'a' => out.push('\u{7}'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'v' => out.push('\u{b}'),
                    '\'' | '\\' => out.push(d),
                    _ => error = Some(format!("invalid escape char \\{d}")),
                }
            }
            _ => out.push(c),
        }
    }
    error.map_or(Ok(out), Err)
}

#[cfg(test)]
mod tests {
    use super::super::tests::json;
    use super::*;

    fn schema() -> Value {
        json(
            r#"{"type":"object","properties":{
                "spec":{"type":"object","properties":{
                    "a.b":{"type":"string"},
                    "it's":{"type":"string"},
                    "labels":{"type":"object","additionalProperties":{"type":"object","properties":{"x":{"type":"string"}}}},
                    "any":{"type":"object","additionalProperties":true},
                    "list":{"type":"array","items":{"type":"string"}}}},
                "status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}"#,
        )
    }

    fn error(path: &str) -> Option<String> {
        resolve(&schema(), path, true)
            .err()
            .map(|e| e.unwrap_or_default())
    }

    #[test]
    fn paths_through_properties_and_maps() {
        for ok in [
            ".spec",
            ".spec['a.b']",
            r".spec['it\'s']",
            ".spec.labels.anything.x",
            ".spec.labels['any key'].x",
            ".spec.any.k",
            ".spec.list",
        ] {
            assert_eq!(error(ok), None, "{ok}");
        }
        let cases = [
            ("spec", "expected [ or . but got: spec"),
            (".spec.b", "does not refer to a valid field"),
            (".spec.a.b", "does not refer to a valid field"),
            (".spec.list[0]", "expected single quoted string but got 0"),
            (".spec.list.x", "does not refer to a valid field"),
            (".status.phase", "does not refer to a valid field"),
            (".spec.", "unexpected end of JSON path"),
            (".spec[", "unexpected end of JSON path"),
            (".spec['a.b'", "unexpected end of JSON path"),
            (".spec[a]", "expected single quoted string but got a"),
            (".spec['a.b'.", "expected ] but got ."),
            (
                r".spec['\q']",
                r"invalid string literal: invalid escape char \q",
            ),
            (" .spec", "expected [ or . but got:  "),
        ];
        for (path, want) in cases {
            assert_eq!(error(path).as_deref(), Some(want), "{path}");
        }
        assert!(matches!(
            resolve(&schema(), ".spec.any.k.deeper", true),
            Err(None)
        ));
        assert_eq!(
            resolve(&schema(), ".spec['a.b']", false).err(),
            Some(Some("array notation is not allowed".to_string()))
        );
    }

    #[test]
    fn unconvertible_nodes_accept_every_path() {
        let s = json(r#"{"type":"object","$ref":"x","properties":{"a":{"type":"string"}}}"#);
        assert!(valid(&s, ".b"));
        assert!(!valid(&schema(), ".b"));
        assert!(valid(&schema(), ".spec.any.k.deeper"));
    }

    /// The messages of `crd_openapi::check` (the walk these rules are part of) on schema `s`.
    fn messages(s: &str, minor: u8) -> Vec<String> {
        use super::super::crd_list_types::ListRules;
        use super::super::crd_openapi::{check, Options};
        let opts = Options {
            valid_types: true,
            lists: ListRules {
                atomic_sets: true,
                map_keys_required: true,
            },
        };
        let v = crate::kube::KubeVersion::new(minor).unwrap();
        let mut errors = Vec::new();
        check(&json(s), "s", opts, v, &mut errors);
        errors.iter().map(|e| e.message(v)).collect()
    }

    #[test]
    fn field_paths_must_name_a_field() {
        let s = r#"{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"}},
            "x-kubernetes-validations":[{"rule":"true","fieldPath":".a"},{"rule":"true","fieldPath":".spec.a"},
              {"rule":"true","fieldPath":" "}]}}}"#;
        assert_eq!(
            messages(s, 33),
            [
                "s.properties[spec].x-kubernetes-validations[1].fieldPath: Invalid value: \".spec.a\": fieldPath must be a valid path",
                "s.properties[spec].x-kubernetes-validations[2].fieldPath: Invalid value: \" \": fieldPath must be non-empty if specified",
                "s.properties[spec].x-kubernetes-validations[2].fieldPath: Invalid value: \" \": fieldPath must be a valid path",
            ]
        );
        assert_eq!(
            messages(s, 34)[0],
            "s.properties[spec].x-kubernetes-validations[1].fieldPath: Invalid value: \".spec.a\": must be a valid path"
        );
    }
}
