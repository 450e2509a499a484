//! The transition-rule checks of `x-kubernetes-validations` entries, as
//! k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
//! `ValidateCustomResourceDefinitionOpenAPISchema` runs them with the compiled rules: a rule
//! using `oldSelf` below the items of a list that is not `x-kubernetes-list-type: map`
//! (`withForbidOldSelfValidations`), and `optionalOldSelf` on a rule not using `oldSelf`.
//!
//! Whether a rule uses `oldSelf` is upstream's compiled reference map; here it is read from
//! the rule's text (an `oldSelf` identifier outside string literals and not a field name).

use super::super::{BadValue, FieldError};
use crate::value::Value;

/// The errors of rule `rule` (its entry of `x-kubernetes-validations`) at `rule_at`, below the
/// uncorrelatable path `uncorrelatable` (the first list of the walk down that is not a map
/// list), if any.
pub(super) fn check(rule: &Value, rule_at: &str, uncorrelatable: Option<&str>) -> Vec<FieldError> {
    let expression = rule.get("rule").and_then(Value::as_str).unwrap_or("");
    if expression.trim().is_empty() {
        return Vec::new();
    }
    let optional = rule.get("optionalOldSelf").and_then(Value::as_bool);
    match (uses_old_self(expression), uncorrelatable, optional) {
        (true, Some(within), _) => vec![FieldError::invalid(
            format!("{rule_at}.rule"),
            FieldError::string_value(expression),
            format!("oldSelf cannot be used on the uncorrelatable portion of the schema within {within}"),
        )],
        (false, _, Some(optional)) => vec![FieldError::invalid(
            format!("{rule_at}.optionalOldSelf"),
            BadValue::Value(Value::Bool(optional)),
            "may not be set if oldSelf is not used in rule",
        )],
        _ => Vec::new(),
    }
}

/// Whether the CEL expression refers to the variable `oldSelf`: the identifier, outside
/// string and bytes literals, not selected as a field (`self.oldSelf`).
pub(super) fn uses_old_self(expression: &str) -> bool {
    let b = expression.as_bytes();
    let mut i = 0;
    let mut after_dot = false;
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i = skip_string(b, i);
            after_dot = false;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &expression[start..i];
            // A raw or bytes string prefix (`r'…'`, `b"…"`, `rb'…'`).
            if i < b.len() && (b[i] == b'"' || b[i] == b'\'') && is_string_prefix(word) {
                i = skip_string(b, i);
            } else if word == "oldSelf" && !after_dot {
                return true;
            }
            after_dot = false;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else {
            if !c.is_ascii_whitespace() {
                after_dot = c == b'.';
            }
            i += 1;
        }
    }
    false
}

fn is_string_prefix(word: &str) -> bool {
    matches!(word.to_ascii_lowercase().as_str(), "r" | "b" | "rb" | "br")
}

/// The index after the string literal starting at `i` (triple-quoted or not; an escaped
/// quote does not end it).
fn skip_string(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let triple = b.len() >= i + 3 && b[i + 1] == q && b[i + 2] == q;
    let mut j = if triple { i + 3 } else { i + 1 };
    while j < b.len() {
        if b[j] == b'\\' {
            j += 2;
            continue;
        }
        if b[j] == q && (!triple || (b.len() >= j + 3 && b[j + 1] == q && b[j + 2] == q)) {
            return j + if triple { 3 } else { 1 };
        }
        j += 1;
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::super::tests::json;
    use super::*;

    #[test]
    fn old_self_references() {
        for (rule, uses) in [
            ("self == oldSelf", true),
            ("!has(oldSelf.x) || self.x == oldSelf.x", true),
            ("oldSelf.hasValue()", true),
            ("self.oldSelf == 1", false),
            ("self.x == 'oldSelf'", false),
            (r#"self.x == "a\"oldSelf""#, false),
            ("self.x == '''oldSelf'''", false),
            ("self.x == r'oldSelf'", false),
            ("self.oldSelfie == 1", false),
            ("self.x // oldSelf\n == 1", false),
            ("self . oldSelf", false),
        ] {
            assert_eq!(uses_old_self(rule), uses, "{rule}");
        }
    }

    #[test]
    fn transition_rules_need_a_correlatable_place() {
        let messages = |rule: &str, within: Option<&str>| -> Vec<String> {
            let v = crate::kube::KubeVersion::new(37).unwrap();
            check(&json(rule), "s.x-kubernetes-validations[0]", within)
                .iter()
                .map(|e| e.message(v))
                .collect()
        };
        assert_eq!(
            messages(r#"{"rule":"self == oldSelf"}"#, Some("s.properties[list]")),
            ["s.x-kubernetes-validations[0].rule: Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within s.properties[list]"]
        );
        assert!(messages(r#"{"rule":"self == oldSelf"}"#, None).is_empty());
        assert_eq!(
            messages(r#"{"rule":"self.a > 0","optionalOldSelf":true}"#, None),
            ["s.x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule"]
        );
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
            cel: true,
        };
        let v = crate::kube::KubeVersion::new(minor).unwrap();
        let mut errors = Vec::new();
        check(&json(s), "s", opts, v, &mut errors);
        errors.iter().map(|e| e.message(v)).collect()
    }

    #[test]
    fn transition_rules_below_lists_and_after_schema_errors() {
        let s = r#"{"type":"object","properties":{
            "atomic":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string",
                "x-kubernetes-validations":[{"rule":"self == oldSelf"}]}}}},
            "keyed":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a"],
                "items":{"type":"object","required":["a"],"properties":{"a":{"type":"string"}},
                "x-kubernetes-validations":[{"rule":"self == oldSelf"},{"rule":"self.a != ''","optionalOldSelf":false}]}},
            "bad":{"type":"object","uniqueItems":true,"x-kubernetes-validations":[{"rule":"true","optionalOldSelf":true}]}}}"#;
        assert_eq!(
            messages(s, 37),
            [
                "s.properties[bad].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
                "s.properties[atomic].items.properties[a].x-kubernetes-validations[0].rule: Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within s.properties[atomic]",
                "s.properties[keyed].items.x-kubernetes-validations[1].optionalOldSelf: Invalid value: false: may not be set if oldSelf is not used in rule",
            ]
        );
    }
}
