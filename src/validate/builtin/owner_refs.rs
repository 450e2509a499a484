//! `metadata.ownerReferences`, as apimachinery checks them for every kind on create and update
//! (pkg/api/validation/objectmeta.go `ValidateOwnerReferences`, `validateOwnerReference`):
//! apiVersion, kind, name and uid present, no core/v1 Event as owner, at most one controller.
//! The wording and the paths changed twice (`OWNER_REF_STYLE`).

use super::super::field::{BadValue, FieldError};
use super::super::goprint::go_quote;
use super::fields::{items, text};
use crate::kube::{KubeVersion, VersionRange};
use crate::value::{Map, Value};

/// How a release reports a reference's missing fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// v0.30–v0.33: `Invalid value: ""` at `ownerReferences.kind` (no index), details naming
    /// the field (`kind must not be empty`); the apiVersion parsed by
    /// `schema.FromAPIVersionAndKind` (`version must not be empty`).
    Named,
    /// v0.34–v0.36: as [`Style::Named`] with the details `must not be empty`.
    Unnamed,
    /// v0.37: `Required value: must not be empty` at `ownerReferences[i].kind`; an apiVersion
    /// that does not parse or has no version is `must be <group>/<version> or <version>`.
    Required,
}

const OWNER_REF_STYLE: &[(VersionRange, Style)] = &[
    (VersionRange::until(33), Style::Named),
    (
        VersionRange {
            since: Some(34),
            until: Some(36),
        },
        Style::Unnamed,
    ),
    (VersionRange::since(37), Style::Required),
];

fn style(version: KubeVersion) -> Style {
    version.pick(OWNER_REF_STYLE)
}

/// `BannedOwners`: kinds that may not own anything.
const BANNED_OWNERS: &[(&str, &str, &str)] = &[("", "v1", "Event")];

/// `schema.ParseGroupVersion`: `(group, version)`, or `None` for more than one `/`.
fn parse_group_version(api_version: &str) -> Option<(&str, &str)> {
    if api_version.is_empty() || api_version == "/" {
        return Some(("", ""));
    }
    match api_version.split_once('/') {
        None => Some(("", api_version)),
        Some((g, v)) if !v.contains('/') => Some((g, v)),
        Some(_) => None,
    }
}

/// `ValidateOwnerReferences` of `metadata.ownerReferences` at `path`.
pub fn check(refs: Option<&Value>, path: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let refs = items(refs);
    let style = style(version);
    let mut first_controller: Option<String> = None;
    for (i, r) in refs.iter().enumerate() {
        let at = if style == Style::Required {
            super::super::field::indexed(path, i)
        } else {
            super::super::field::PathText::concat(&[path])
        };
        reference(r, &at, style, errors);
        if r.get("controller").and_then(Value::as_bool) == Some(true) {
            let current = format!("{}/{}", text(r, "kind"), text(r, "name"));
            match &first_controller {
                Some(first) => errors.push(FieldError::invalid(
                    path,
                    list_value(refs),
                    format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first} and {current}"
                    ),
                )),
                None => first_controller = Some(current),
            }
        }
    }
}

/// `validateOwnerReference` of one reference, reported at `at`.
fn reference(r: &Value, at: &str, style: Style, errors: &mut Vec<FieldError>) {
    let child = |f: &str| super::super::field::join(at, &[".", f].concat());
    let api_version = text(r, "apiVersion");
    let parsed = parse_group_version(api_version);
    let (group, gv_version) = parsed.unwrap_or(("", ""));
    match style {
        Style::Named | Style::Unnamed => {
            if gv_version.is_empty() {
                errors.push(FieldError::invalid(
                    child("apiVersion"),
                    FieldError::string_value(api_version),
                    "version must not be empty",
                ));
            }
        }
        Style::Required => {
            if api_version.is_empty() {
                errors.push(FieldError::required(
                    child("apiVersion"),
                    "must not be empty",
                ));
            } else if parsed.is_none() || gv_version.is_empty() {
                errors.push(FieldError::invalid(
                    child("apiVersion"),
                    FieldError::string_value(api_version),
                    "must be <group>/<version> or <version>",
                ));
            }
        }
    }
    for field in ["kind", "name", "uid"] {
        let value = text(r, field);
        if !value.is_empty() {
            continue;
        }
        errors.push(match style {
            Style::Named => FieldError::invalid(
                child(field),
                FieldError::string_value(""),
                format!("{field} must not be empty"),
            ),
            Style::Unnamed => FieldError::invalid(
                child(field),
                FieldError::string_value(""),
                "must not be empty",
            ),
            Style::Required => FieldError::required(child(field), "must not be empty"),
        });
    }
    let kind = text(r, "kind");
    if BANNED_OWNERS
        .iter()
        .any(|(g, v, k)| *g == group && *v == gv_version && *k == kind)
    {
        errors.push(FieldError::invalid(
            at,
            ref_value(r),
            // `GroupVersionKind.String()`.
            format!("{group}/{gv_version}, Kind={kind} is disallowed from being an owner"),
        ));
    }
}

/// A reference as JSON (the `metav1.OwnerReference` tags: the pointers omitted when nil).
fn ref_json(r: &Value) -> Value {
    let mut m = Map::default();
    for key in ["apiVersion", "kind", "name", "uid"] {
        m.insert(key.into(), Value::from(text(r, key)));
    }
    for key in ["controller", "blockOwnerDeletion"] {
        if let Some(b) = r.get(key).and_then(Value::as_bool) {
            m.insert(key.into(), Value::Bool(b));
        }
    }
    Value::Map(m)
}

/// `%#v` of a `metav1.OwnerReference`; a set pointer prints as an address kssa cannot know.
fn ref_go(r: &Value) -> String {
    let pointer = |key: &str| match r.get(key).and_then(Value::as_bool) {
        Some(_) => "(*bool)(0xc000000000)",
        None => "(*bool)(nil)",
    };
    format!(
        "v1.OwnerReference{{APIVersion:{}, Kind:{}, Name:{}, UID:{}, Controller:{}, BlockOwnerDeletion:{}}}",
        go_quote(text(r, "apiVersion")),
        go_quote(text(r, "kind")),
        go_quote(text(r, "name")),
        go_quote(text(r, "uid")),
        pointer("controller"),
        pointer("blockOwnerDeletion"),
    )
}

fn ref_value(r: &Value) -> BadValue {
    BadValue::GoValue {
        value: ref_json(r),
        go_syntax: ref_go(r),
    }
}

fn list_value(refs: &[Value]) -> BadValue {
    let go: Vec<String> = refs.iter().map(ref_go).collect();
    BadValue::GoValue {
        value: Value::List(refs.iter().map(ref_json).collect()),
        go_syntax: format!("[]v1.OwnerReference{{{}}}", go.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::messages_of;

    fn refs(list: &str, minor: u8) -> Vec<String> {
        let object = format!(r#"{{"ownerReferences":{list}}}"#);
        messages_of(&object, minor, |o, v, errors| {
            super::check(
                o.get("ownerReferences"),
                "metadata.ownerReferences",
                v,
                errors,
            )
        })
    }

    const OWNER: &str = r#"{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-5d4","uid":"8f1c","controller":true,"blockOwnerDeletion":true}"#;

    #[test]
    fn complete_references_pass() {
        assert!(refs(&format!("[{OWNER}]"), 30).is_empty());
        assert!(refs(&format!("[{OWNER}]"), 37).is_empty());
    }

    #[test]
    fn missing_fields_are_worded_per_release() {
        let bare = r#"[{"apiVersion":"","kind":"","name":"","uid":""}]"#;
        assert_eq!(
            refs(bare, 33),
            [
                "metadata.ownerReferences.apiVersion: Invalid value: \"\": version must not be empty",
                "metadata.ownerReferences.kind: Invalid value: \"\": kind must not be empty",
                "metadata.ownerReferences.name: Invalid value: \"\": name must not be empty",
                "metadata.ownerReferences.uid: Invalid value: \"\": uid must not be empty",
            ]
        );
        assert_eq!(
            refs(bare, 34)[1],
            "metadata.ownerReferences.kind: Invalid value: \"\": must not be empty"
        );
        assert_eq!(
            refs(bare, 37),
            [
                "metadata.ownerReferences[0].apiVersion: Required value: must not be empty",
                "metadata.ownerReferences[0].kind: Required value: must not be empty",
                "metadata.ownerReferences[0].name: Required value: must not be empty",
                "metadata.ownerReferences[0].uid: Required value: must not be empty",
            ]
        );
    }

    #[test]
    fn api_versions_must_name_a_version() {
        let odd = OWNER.replace("apps/v1", "apps/");
        assert_eq!(
            refs(&format!("[{odd}]"), 36),
            ["metadata.ownerReferences.apiVersion: Invalid value: \"apps/\": version must not be empty"]
        );
        let three = OWNER.replace("apps/v1", "a/b/c");
        assert_eq!(
            refs(&format!("[{three}]"), 37),
            ["metadata.ownerReferences[0].apiVersion: Invalid value: \"a/b/c\": must be <group>/<version> or <version>"]
        );
    }

    #[test]
    fn events_may_not_own() {
        let event = r#"[{"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}]"#;
        assert_eq!(
            refs(event, 33),
            ["metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:\"v1\", Kind:\"Event\", Name:\"e\", UID:\"u\", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an owner"]
        );
        assert_eq!(
            refs(event, 37),
            ["metadata.ownerReferences[0]: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u\"}: /v1, Kind=Event is disallowed from being an owner"]
        );
        // Only the core group's Events.
        let events_k8s = event.replace("\"v1\"", "\"events.k8s.io/v1\"");
        assert!(refs(&events_k8s, 37).is_empty());
    }

    #[test]
    fn one_controller_only() {
        let second = OWNER
            .replace("ReplicaSet", "StatefulSet")
            .replace("web-5d4", "db");
        let list = format!("[{OWNER},{second}]");
        assert_eq!(
            refs(&list, 35),
            ["metadata.ownerReferences: Invalid value: [{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"web-5d4\",\"uid\":\"8f1c\",\"controller\":true,\"blockOwnerDeletion\":true},{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"name\":\"db\",\"uid\":\"8f1c\",\"controller\":true,\"blockOwnerDeletion\":true}]: Only one reference can have Controller set to true. Found \"true\" in references for ReplicaSet/web-5d4 and StatefulSet/db"]
        );
        assert!(refs(&list, 31)[0].starts_with(
            "metadata.ownerReferences: Invalid value: []v1.OwnerReference{v1.OwnerReference{APIVersion:\"apps/v1\", Kind:\"ReplicaSet\", Name:\"web-5d4\", UID:\"8f1c\", Controller:(*bool)(0xc000000000), BlockOwnerDeletion:(*bool)(0xc000000000)}, v1.OwnerReference{"
        ));
        let off = second.replace("\"controller\":true", "\"controller\":false");
        assert!(refs(&format!("[{OWNER},{off}]"), 35).is_empty());
    }
}
