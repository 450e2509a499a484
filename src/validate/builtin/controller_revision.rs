//! ControllerRevisions (apps), as k8s.io/kubernetes pkg/apis/apps/validation checks them
//! through the registry strategy (pkg/registry/apps/controllerrevision/strategy.go):
//! `revision` not negative, `data` required (a JSON object on create from 1.31), and on
//! update `data` immutable (quoting the internal `runtime.RawExtension` from 1.31, 1.30's
//! `runtime.Object` holding a `*runtime.Unknown` before).

use super::super::{BadValue, FieldError, Write};
use super::fields::present;
use crate::kube::VersionRange;
use crate::value::{to_json_string, Value};

/// Releases whose update validation still checks that `data` is present: until 1.30 both
/// create and update ran `ValidateControllerRevision` (`Data == nil`); from 1.31
/// (kubernetes#125549) only `ValidateControllerRevisionCreate` does.
const DATA_REQUIRED_ON_UPDATE: VersionRange = VersionRange::until(30);

/// Releases whose create validation parses `data` as a JSON object (kubernetes#125549).
const DATA_IS_AN_OBJECT: VersionRange = VersionRange::since(31);

/// `ValidateControllerRevisionCreate` (`ValidateControllerRevision` until 1.30), or on update
/// `ValidateControllerRevisionUpdate`: the shared rules, then `data` compared with the stored
/// revision's (`ValidateImmutableField`). Until 1.30 `data` is required before `revision` is
/// checked; from 1.31 the create rules check `data` after it, unmarshalling the raw bytes into
/// an `any`: `null` counts as missing, any other non-object is refused.
pub fn controller_revision(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let data = present(object, "data");
    let legacy = DATA_REQUIRED_ON_UPDATE.contains(w.version());
    if legacy && data.is_none() {
        errors.push(FieldError::required("data", "data is mandatory"));
    }
    // `ValidateNonnegativeField(revision)`.
    if let Some(n) = present(object, "revision").and_then(Value::as_i64) {
        if n < 0 {
            errors.push(FieldError::invalid(
                "revision",
                BadValue::Value(Value::Int(n)),
                "must be greater than or equal to 0",
            ));
        }
    }
    if w.live.is_none() && DATA_IS_AN_OBJECT.contains(w.version()) {
        match data {
            None => errors.push(FieldError::required("data", "data is mandatory")),
            Some(Value::Map(_)) => {}
            Some(_) => errors.push(FieldError::required(
                "data",
                "data must be a valid JSON object",
            )),
        }
    }
    let Some(old) = w.live else {
        return;
    };
    let old_data = present(old, "data");
    if data != old_data {
        let quoted = if DATA_IS_AN_OBJECT.contains(w.version()) {
            raw_extension(data)
        } else {
            unknown_object(data)
        };
        errors.push(FieldError::invalid("data", quoted, "field is immutable"));
    }
}

/// The internal `runtime.RawExtension` the server quotes (1.31–): its bytes are the JSON the
/// unstructured converter writes (keys sorted, compact). From 1.34 `json.Marshal` prints the
/// bytes themselves; before, `%#v` dumps them as a byte slice.
fn raw_extension(data: Option<&Value>) -> BadValue {
    let (value, raw) = match data {
        Some(v) => {
            let sorted = v.with_sorted_keys();
            let raw = go_bytes(&sorted);
            (sorted, raw)
        }
        None => (Value::Null, "[]uint8(nil)".to_string()),
    };
    BadValue::GoValue {
        value,
        go_syntax: format!("runtime.RawExtension{{Raw:{raw}, Object:runtime.Object(nil)}}"),
    }
}

/// 1.30's internal `Data runtime.Object`: apimachinery `Convert_runtime_RawExtension_To_runtime_Object`
/// makes it a `*runtime.Unknown` holding the bytes (nil for none or `null`). `ErrorBody`
/// dereferences the pointer, and the value (`String` has a pointer receiver) prints with
/// `%#v`; a nil one prints as `"null"`.
fn unknown_object(data: Option<&Value>) -> BadValue {
    let Some(v) = data.filter(|v| !v.is_null()) else {
        return FieldError::string_value("null");
    };
    let sorted = v.with_sorted_keys();
    let go_syntax = format!(
        "runtime.Unknown{{TypeMeta:runtime.TypeMeta{{APIVersion:\"\", Kind:\"\"}}, Raw:{}, ContentEncoding:\"\", ContentType:\"application/json\"}}",
        go_bytes(&sorted)
    );
    BadValue::GoValue {
        value: sorted,
        go_syntax,
    }
}

/// Compact JSON as Go's `%#v` prints a `[]uint8`.
fn go_bytes(v: &Value) -> String {
    let bytes: Vec<String> = to_json_string(v)
        .bytes()
        .map(|b| format!("{b:#x}"))
        .collect();
    format!("[]uint8{{{}}}", bytes.join(", "))
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_causes;

    const REVISION: &str = r#"{"apiVersion":"apps/v1","kind":"ControllerRevision",
      "metadata":{"name":"web-7b9f5c6d4","namespace":"default"},
      "data":{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}}}}},
      "revision":2}"#;

    #[test]
    fn a_valid_revision_passes() {
        for minor in [30, 34, 37] {
            assert!(refusal_causes(REVISION, None, minor).is_empty());
            assert!(refusal_causes(REVISION, Some(REVISION), minor).is_empty());
        }
    }

    #[test]
    fn the_name_rule_follows_the_metadata_update_rules() {
        let stored = REVISION.replace(
            r#""namespace":"default"}"#,
            r#""namespace":"default","deletionTimestamp":"2026-11-01T10:00:00Z"}"#,
        );
        let updated = stored
            .replace(
                r#""name":"web-7b9f5c6d4","#,
                r#""name":"web-7b9f5c6d4","generateName":"Web_","finalizers":["example.com/keep"],"#,
            )
            .replace(r#""revision":2"#, r#""revision":-1"#);
        let causes = refusal_causes(&updated, Some(&stored), 36);
        let paths: Vec<&str> = causes
            .iter()
            .map(|c| c.split(':').next().unwrap())
            .collect();
        assert_eq!(
            paths,
            ["metadata.finalizers", "metadata.generateName", "revision"]
        );
    }

    #[test]
    fn revision_is_not_negative_and_data_is_required() {
        let bad = REVISION
            .replace(r#""revision":2"#, r#""revision":-1"#)
            .replace(
                r#""data":{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}}}}},"#,
                "",
            );
        assert_eq!(
            refusal_causes(&bad, None, 37),
            [
                "revision: Invalid value: -1: must be greater than or equal to 0",
                "data: Required value: data is mandatory",
            ]
        );
        // 1.30's `ValidateControllerRevision` checks `data` first.
        assert_eq!(
            refusal_causes(&bad, None, 30),
            [
                "data: Required value: data is mandatory",
                "revision: Invalid value: -1: must be greater than or equal to 0",
            ]
        );
    }

    #[test]
    fn data_is_a_json_object_on_create_from_1_31() {
        let text = REVISION.replace(
            r#""data":{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}}}}}"#,
            r#""data":"x""#,
        );
        assert_eq!(
            refusal_causes(&text, None, 31),
            ["data: Required value: data must be a valid JSON object"]
        );
        assert!(refusal_causes(&text, None, 30).is_empty());
        assert!(refusal_causes(&text, Some(&text), 37).is_empty());
        let list = text.replace(r#""x""#, "[1]");
        assert_eq!(
            refusal_causes(&list, None, 37),
            ["data: Required value: data must be a valid JSON object"]
        );
        // A JSON null is no data.
        let null = text.replace(r#""x""#, "null");
        assert_eq!(
            refusal_causes(&null, None, 37),
            ["data: Required value: data is mandatory"]
        );
    }

    #[test]
    fn data_is_immutable() {
        let changed = REVISION.replace(r#""app":"web""#, r#""app":"api""#);
        assert_eq!(
            refusal_causes(&changed, Some(REVISION), 37),
            [
                r#"data: Invalid value: {"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"api"}}}}}: field is immutable"#
            ]
        );
        let small = r#"{"apiVersion":"apps/v1","kind":"ControllerRevision",
          "metadata":{"name":"r","namespace":"default"},"data":{"b":1,"a":"<"},"revision":1}"#;
        let old = small.replace(r#""b":1"#, r#""b":2"#);
        assert_eq!(
            refusal_causes(small, Some(&old), 33),
            ["data: Invalid value: runtime.RawExtension{Raw:[]uint8{0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x5c, 0x75, 0x30, 0x30, 0x33, 0x63, 0x22, 0x2c, 0x22, 0x62, 0x22, 0x3a, 0x31, 0x7d}, Object:runtime.Object(nil)}: field is immutable"]
        );
        assert_eq!(
            refusal_causes(small, Some(&old), 30),
            ["data: Invalid value: runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:\"\", Kind:\"\"}, Raw:[]uint8{0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x5c, 0x75, 0x30, 0x30, 0x33, 0x63, 0x22, 0x2c, 0x22, 0x62, 0x22, 0x3a, 0x31, 0x7d}, ContentEncoding:\"\", ContentType:\"application/json\"}: field is immutable"]
        );
        // Revision numbers may change.
        let renumbered = REVISION.replace(r#""revision":2"#, r#""revision":3"#);
        assert!(refusal_causes(&renumbered, Some(REVISION), 37).is_empty());
    }

    #[test]
    fn a_removed_data_is_required_on_update_only_until_1_30() {
        let without = REVISION.replace(
            r#""data":{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}}}}},"#,
            "",
        );
        assert_eq!(
            refusal_causes(&without, Some(REVISION), 37),
            ["data: Invalid value: null: field is immutable"]
        );
        assert_eq!(
            refusal_causes(&without, Some(REVISION), 30),
            [
                "data: Required value: data is mandatory",
                "data: Invalid value: \"null\": field is immutable",
            ]
        );
    }
}
