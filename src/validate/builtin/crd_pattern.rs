//! The `pattern` of every node of a CRD schema must compile as a Go regular expression:
//! k8s.io/apiextensions-apiserver pkg/apiserver/schema/validation.go `validateValueValidation`
//! (reached from `validateStructuralInvariants` and, inside `allOf`/`anyOf`/`oneOf`/`not`,
//! `validateNestedValueValidation`) runs `regexp.Compile` and quotes its error.

use super::super::FieldError;
use super::crd_value_validation::sorted_properties;
use super::fields::present;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::crd::go_regexp::{self, UnicodeNames};
use crate::validate::field::{indexed, join, keyed};
use crate::value::Value;
use std::collections::HashMap;

/// The Go release of each Kubernetes version decides the names `\p{…}` takes: Go 1.22–1.24
/// built 1.30–1.34 (go.mod of each release branch), Go 1.25 and 1.26 built 1.35–1.37.
const UNICODE_NAMES: &[(VersionRange, UnicodeNames)] = &[
    (VersionRange::until(34), UnicodeNames::Exact),
    (VersionRange::since(35), UnicodeNames::Canonical),
];

fn names(version: KubeVersion) -> UnicodeNames {
    UNICODE_NAMES
        .iter()
        .find(|(r, _)| r.contains(version))
        .map_or(UnicodeNames::Canonical, |(_, n)| *n)
}

/// The pattern errors of a schema that converts to a structural one, in the traversal of
/// `validateStructuralInvariants` (the caller sorts them with the other structural errors).
pub(super) fn check(root: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let mut patterns = Patterns {
        names: names(version),
        verdicts: HashMap::new(),
    };
    structural(root, at, &mut patterns, errors);
}

/// Go's verdict on each pattern of one schema, worked out once: a large CRD repeats the same
/// few patterns (durations, quantities, names) hundreds of times.
struct Patterns<'v> {
    names: UnicodeNames,
    verdicts: HashMap<&'v str, Option<String>>,
}

impl<'v> Patterns<'v> {
    /// Why Go refuses `pattern`, if it does.
    fn refusal(&mut self, pattern: &'v str) -> Option<&str> {
        let names = self.names;
        self.verdicts
            .entry(pattern)
            .or_insert_with(|| {
                go_regexp::compile(pattern, names)
                    .err()
                    .map(|e| e.to_string())
            })
            .as_deref()
    }
}

/// A node of the structural schema: its value validation, then items, properties and an
/// `additionalProperties` schema.
fn structural<'v>(
    s: &'v Value,
    at: &str,
    patterns: &mut Patterns<'v>,
    errors: &mut Vec<FieldError>,
) {
    if s.as_map().is_none() {
        return;
    }
    value_validation(s, at, patterns, errors);
    if let Some(items) = present(s, "items") {
        structural(items, &join(at, ".items"), patterns, errors);
    }
    for (k, p) in sorted_properties(s) {
        structural(p, &keyed(&join(at, ".properties"), k), patterns, errors);
    }
    if let Some(a) = present(s, "additionalProperties") {
        structural(a, &join(at, ".additionalProperties"), patterns, errors);
    }
}

/// `validateValueValidation`: the junctors, then the node's own pattern.
fn value_validation<'v>(
    v: &'v Value,
    at: &str,
    patterns: &mut Patterns<'v>,
    errors: &mut Vec<FieldError>,
) {
    for key in ["anyOf", "allOf", "oneOf"] {
        let list = v.get(key).and_then(Value::as_list);
        for (i, n) in list.into_iter().flatten().enumerate() {
            nested(
                n,
                &indexed(&join(at, &format!(".{key}")), i),
                patterns,
                errors,
            );
        }
    }
    if let Some(not) = present(v, "not") {
        nested(not, &join(at, ".not"), patterns, errors);
    }
    let pattern = v.get("pattern").and_then(Value::as_str).unwrap_or("");
    if pattern.is_empty() {
        return;
    }
    if let Some(e) = patterns.refusal(pattern) {
        errors.push(FieldError::invalid(
            join(at, ".pattern"),
            FieldError::string_value(pattern),
            format!("must be a valid regular expression, but isn't: {e}"),
        ));
    }
}

/// `validateNestedValueValidation`: inside a junctor, items and properties (an
/// `additionalProperties` there is refused, not followed).
fn nested<'v>(v: &'v Value, at: &str, patterns: &mut Patterns<'v>, errors: &mut Vec<FieldError>) {
    if v.as_map().is_none() {
        return;
    }
    value_validation(v, at, patterns, errors);
    if let Some(items) = present(v, "items") {
        nested(items, &join(at, ".items"), patterns, errors);
    }
    for (k, p) in sorted_properties(v) {
        nested(p, &keyed(&join(at, ".properties"), k), patterns, errors);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::json;
    use super::*;

    fn messages(s: &str, minor: u8) -> Vec<String> {
        let v = KubeVersion::new(minor).unwrap();
        let mut errors = Vec::new();
        check(&json(s), "s", v, &mut errors);
        errors.iter().map(|e| e.message(v)).collect()
    }

    #[test]
    fn patterns_of_nodes_and_junctors() {
        let s = r#"{"type":"object","properties":{
            "a":{"type":"string","pattern":"^[a-z]+(-[a-z]+*$"},
            "b":{"type":"array","items":{"type":"string","pattern":"(?=x)"}},
            "c":{"type":"string","anyOf":[{"pattern":"[z-a]"}],"not":{"pattern":"a{1001}"}},
            "d":{"type":"string","pattern":"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"}}}"#;
        assert_eq!(
            messages(s, 37),
            [
                "s.properties[a].pattern: Invalid value: \"^[a-z]+(-[a-z]+*$\": must be a valid regular expression, but isn't: error parsing regexp: invalid nested repetition operator: `+*`",
                "s.properties[b].items.pattern: Invalid value: \"(?=x)\": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
                "s.properties[c].anyOf[0].pattern: Invalid value: \"[z-a]\": must be a valid regular expression, but isn't: error parsing regexp: invalid character class range: `z-a`",
                "s.properties[c].not.pattern: Invalid value: \"a{1001}\": must be a valid regular expression, but isn't: error parsing regexp: invalid repeat count: `{1001}`",
            ]
        );
    }

    #[test]
    fn unicode_names_follow_the_go_release() {
        let s = r#"{"type":"string","pattern":"^\\p{Letter}+$"}"#;
        assert_eq!(
            messages(s, 34),
            ["s.pattern: Invalid value: \"^\\\\p{Letter}+$\": must be a valid regular expression, but isn't: error parsing regexp: invalid character class range: `\\p{Letter}`"]
        );
        assert!(messages(s, 35).is_empty());
        let old_italic = r#"{"type":"string","pattern":"\\p{Old_Italic}"}"#;
        assert!(messages(old_italic, 30).is_empty());
        assert_eq!(messages(old_italic, 37).len(), 1);
    }
}
