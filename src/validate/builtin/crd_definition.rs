//! CustomResourceDefinitions themselves, as k8s.io/apiextensions-apiserver
//! pkg/apis/apiextensions/validation/validation.go checks them on the internal type the v1
//! object converts to (`ValidateCustomResourceDefinition`, `validateCustomResourceDefinitionSpec`,
//! `ValidateCustomResourceDefinitionNames`, `validateCustomResourceConversion`,
//! `ValidateCustomResourceDefinitionStoredVersions`, `validateAPIApproval`,
//! `validatePreserveUnknownFields`, `ValidateCustomResourceDefinitionUpdate`).
//!
//! The v1 to internal conversion (pkg/apis/apiextensions/v1/conversion.go) moves per-version
//! schemas, subresources and columns that are identical in every version to the top level, so
//! their errors are reported at `spec.validation`, `spec.subresources` and
//! `spec.additionalPrinterColumns` then; [`Hoisted`] models that.

use super::super::formats;
use super::super::goprint::go_quote;
use super::super::{BadValue, FieldError, Write};
use super::crd_columns::{columns, subresources};
use super::crd_conversion::conversion;
use super::crd_names::{accepted_names, names};
use super::crd_schema;
use super::crd_selectable;
use super::crd_update;
use super::crd_versions::{versions_value, PerVersion};
use super::fields::{items, present, spec, text};
use crate::validate::field::{indexed, join, keyed};
use crate::value::Value;

/// `ClusterScoped`, `NamespaceScoped`, in upstream's order.
const SCOPES: &[&str] = &["Cluster", "Namespaced"];
/// `KubeAPIApprovedAnnotation`.
const APPROVAL: &str = "api-approved.kubernetes.io";

/// Which per-version fields the conversion moved to the top level.
pub(super) struct Hoisted {
    pub schema: bool,
    pub subresources: bool,
    pub columns: bool,
    pub selectable: bool,
}

impl Hoisted {
    /// `Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec`:
    /// a field is hoisted when every version holds the same value (absent counts as a value).
    pub fn of(versions: &[Value]) -> Hoisted {
        let same = |key: &str| {
            let first = versions.first().and_then(|v| field_value(v, key));
            versions.iter().all(|v| field_value(v, key) == first)
        };
        Hoisted {
            schema: same("schema"),
            subresources: same("subresources"),
            columns: same("additionalPrinterColumns"),
            selectable: same("selectableFields"),
        }
    }
}

/// A per-version field, absent when null or (for lists) empty, as `Semantic.DeepEqual` sees it.
pub(super) fn field_value<'v>(version: &'v Value, key: &str) -> Option<&'v Value> {
    present(version, key).filter(|v| !matches!(v, Value::List(l) if l.is_empty()))
}

/// `ValidateCustomResourceDefinition`, or `ValidateCustomResourceDefinitionUpdate` when the
/// object is stored.
pub fn custom_resource_definition(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let group = text(spec, "group");
    let plural = text(spec.get("names").unwrap_or(&Value::Null), "plural");
    if !w.is_update() {
        name_matches(object, plural, group, errors);
    }
    spec_rules(w, spec, errors);
    if let Some(old) = w.live {
        crd_update::spec_update(spec, super::fields::spec(old), old, errors);
        // The strategy keeps the stored status on update (and clears it on create).
        accepted_names(old, errors);
    }
    crd_update::stored_versions(w, spec, errors);
    api_approval(w, object, group, errors);
    preserve_unknown_fields(w, spec, errors);
}

/// Whether the CRD lacks what names its custom resources: `spec.group`, `spec.names.kind` or a
/// version's name. `validateCustomResourceDefinitionSpec` refuses each (`Required value`, or the
/// DNS-1035 messages of an empty version name), and without them no schema can be built.
pub(super) fn lacks_identity(crd: &Value) -> bool {
    let spec = spec(crd);
    let missing = |path: &[&str]| spec.get_path(path).and_then(Value::as_str).is_none();
    let unnamed_version = super::fields::items(spec.get("versions"))
        .iter()
        .any(|v| v.get("name").and_then(Value::as_str).is_none());
    missing(&["group"]) || missing(&["names", "kind"]) || unnamed_version
}

/// `ValidateUpdateCustomResourceDefinitionStatus` after the object metadata: the accepted
/// names of the status written.
pub(super) fn status(_w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    accepted_names(object, errors);
}

/// The name rule `ValidateCustomResourceDefinition` adds to the DNS subdomain one: its message
/// follows the subdomain messages of `metadata.generateName` and of `metadata.name`.
fn name_matches(object: &Value, plural: &str, group: &str, errors: &mut Vec<FieldError>) {
    let required = format!("{plural}.{group}");
    for field in ["metadata.generateName", "metadata.name"] {
        let key = &field["metadata.".len()..];
        let name = object
            .get_path(&["metadata", key])
            .and_then(Value::as_str)
            .unwrap_or("");
        if name.is_empty() || name == required {
            continue;
        }
        let at = errors
            .iter()
            .rposition(|e| e.field == field || e.field == "metadata.generateName")
            .map_or(0, |i| i + 1);
        errors.insert(
            at,
            FieldError::invalid(
                field,
                FieldError::string_value(name),
                r#"must be spec.names.plural+"."+spec.group"#,
            ),
        );
    }
}

/// `validateCustomResourceDefinitionSpec`, in its order.
fn spec_rules(w: &Write, spec: &Value, errors: &mut Vec<FieldError>) {
    let group = text(spec, "group");
    if group.is_empty() {
        errors.push(FieldError::required("spec.group", ""));
    } else {
        let msgs = formats::dns1123_subdomain(group);
        if !msgs.is_empty() {
            errors.push(FieldError::invalid(
                "spec.group",
                FieldError::string_value(group),
                msgs.join(","),
            ));
        } else if !group.contains('.') {
            errors.push(FieldError::invalid(
                "spec.group",
                FieldError::string_value(group),
                "should be a domain with at least one dot",
            ));
        }
    }
    enum_string("spec.scope", text(spec, "scope"), SCOPES, errors);
    let versions = items(spec.get("versions"));
    let hoisted = Hoisted::of(versions);
    let has_schema = |v: &Value| {
        field_value(v, "schema").is_some_and(|s| present(s, "openAPIV3Schema").is_some())
    };
    // requireOpenAPISchema: on update only when the stored object had schemas everywhere.
    let require_schema = w.live.is_none_or(|old| {
        items(super::fields::spec(old).get("versions"))
            .iter()
            .all(has_schema)
    });
    let top_schema = hoisted.schema && versions.first().is_some_and(has_schema);
    if require_schema && !top_schema {
        for (i, v) in versions.iter().enumerate() {
            if !has_schema(v) {
                errors.push(FieldError::required(
                    join(&indexed("spec.versions", i), ".schema.openAPIV3Schema"),
                    "",
                ));
            }
        }
    }
    // Defaults need pruning: not with `spec.preserveUnknownFields: true`.
    let has_default = |n: &Value| present(n, "default").is_some();
    if preserves_unknown(spec)
        && versions.iter().any(|v| {
            v.get_path(&["schema", "openAPIV3Schema"])
                .is_some_and(|s| crd_schema::schema_has(s, &has_default))
        })
    {
        errors.push(FieldError::invalid(
            "spec.preserveUnknownFields",
            BadValue::Value(Value::Bool(true)),
            "must be false in order to use defaults in the schema",
        ));
    }
    let mut storage = 0;
    let mut seen = Vec::new();
    let mut unique = true;
    for (i, v) in versions.iter().enumerate() {
        let at = indexed("spec.versions", i);
        let name = text(v, "name");
        if v.get("storage").and_then(Value::as_bool) == Some(true) {
            storage += 1;
        }
        if seen.contains(&name) {
            unique = false;
        } else {
            seen.push(name);
        }
        let msgs = formats::dns1035_label(name);
        if !msgs.is_empty() {
            errors.push(FieldError::invalid(
                join(&at, ".name"),
                FieldError::string_value(name),
                msgs.join(","),
            ));
        }
        version_rules(w, v, &at, &hoisted, errors);
    }
    let per_version = PerVersion {
        schema: !hoisted.schema,
        subresources: !hoisted.subresources,
        columns: !hoisted.columns,
        selectable: !hoisted.selectable,
    };
    for (broken, detail) in [
        (!unique, "must contain unique version names"),
        (
            storage != 1,
            "must have exactly one version marked as storage version",
        ),
    ] {
        if broken {
            // The bad value is the internal versions list; kssa cannot print a per-version
            // schema as JSON (see crd_versions), and then leaves the error out.
            let nil = present(spec, "versions").is_none();
            if let Some(value) = versions_value(versions, nil, &per_version, w.version()) {
                errors.push(FieldError::invalid("spec.versions", value, detail));
            }
        }
    }
    if let Some(first) = versions.first() {
        // spec.version, the internal type's copy of the first version's name.
        let name = text(first, "name");
        let msgs = formats::dns1035_label(name);
        if !name.is_empty() && !msgs.is_empty() {
            errors.push(FieldError::invalid(
                "spec.version",
                FieldError::string_value(name),
                msgs.join(","),
            ));
        }
    }
    names(spec.get("names").unwrap_or(&Value::Null), errors);
    if hoisted.schema {
        if let Some(first) = versions.first() {
            // hasAnyStatusEnabled
            let status = versions.iter().any(status_enabled);
            schema(w, first, "spec.validation", status, errors);
        }
    }
    if hoisted.subresources {
        if let Some(sub) = versions
            .first()
            .and_then(|v| field_value(v, "subresources"))
        {
            subresources(sub, "spec.subresources", errors);
        }
    }
    if hoisted.columns {
        if let Some(first) = versions.first() {
            columns(first, "spec.additionalPrinterColumns", errors);
        }
    }
    if hoisted.selectable && crd_selectable::enabled(w) {
        if let Some(first) = versions.first() {
            // spec.validation: the first version's schema when hoisted, else none.
            let schema = (hoisted.schema && field_value(first, "schema").is_some()).then(|| {
                first
                    .get_path(&["schema", "openAPIV3Schema"])
                    .unwrap_or(&Value::Null)
            });
            let fields = items(field_value(first, "selectableFields"));
            crd_selectable::check(w, fields, schema, None, "spec.selectableFields", errors);
        }
    }
    conversion(w, spec, errors);
}

/// `hasStatusEnabled` of a version's subresources.
fn status_enabled(v: &Value) -> bool {
    field_value(v, "subresources").is_some_and(|s| present(s, "status").is_some())
}

/// `validateEnumStrings` with `required`.
pub(super) fn enum_string(at: &str, value: &str, accepted: &[&str], errors: &mut Vec<FieldError>) {
    if value.is_empty() {
        errors.push(FieldError::required(at, ""));
    } else if !accepted.contains(&value) {
        errors.push(FieldError::not_supported(
            at,
            FieldError::string_value(value),
            accepted,
        ));
    }
}

/// `validateCustomResourceDefinitionVersion`: deprecation warning, then the fields the
/// conversion left in the version.
fn version_rules(w: &Write, v: &Value, at: &str, hoisted: &Hoisted, errors: &mut Vec<FieldError>) {
    deprecation_warning(v, &join(at, ".deprecationWarning"), errors);
    if !hoisted.schema {
        // getSubresourcesForVersion: the version's own, or the hoisted identical ones.
        schema(w, v, &join(at, ".schema"), status_enabled(v), errors);
    }
    if !hoisted.subresources {
        if let Some(sub) = field_value(v, "subresources") {
            subresources(sub, &join(at, ".subresources"), errors);
        }
    }
    if !hoisted.columns {
        columns(v, &join(at, ".additionalPrinterColumns"), errors);
    }
    if !hoisted.selectable && crd_selectable::enabled(w) {
        let schema = v
            .get_path(&["schema", "openAPIV3Schema"])
            .filter(|s| !hoisted.schema && !s.is_null());
        let fields = items(field_value(v, "selectableFields"));
        let name = Some(text(v, "name"));
        let fields_at = join(at, ".selectableFields");
        crd_selectable::check(w, fields, schema, name, &fields_at, errors);
    }
}

/// The schema of a version (or the hoisted one) at `at` (`….schema` or `spec.validation`).
fn schema(w: &Write, v: &Value, at: &str, status: bool, errors: &mut Vec<FieldError>) {
    let Some(root) = v.get_path(&["schema", "openAPIV3Schema"]) else {
        return;
    };
    if root.is_null() {
        return;
    }
    crd_schema::check(w, root, at, status, errors);
}

/// `validateDeprecationWarning`.
fn deprecation_warning(v: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let Some(warning) = present(v, "deprecationWarning") else {
        return;
    };
    let warning = warning.as_str().unwrap_or("");
    let deprecated = v.get("deprecated").and_then(Value::as_bool) == Some(true);
    let mut msgs = Vec::new();
    if !deprecated {
        msgs.push("can only be set for deprecated versions".to_string());
    } else {
        if warning.len() > 256 {
            msgs.push("must be <= 256 characters long".to_string());
        }
        if warning.is_empty() {
            msgs.push("must not be an empty string".to_string());
        }
        for (i, c) in warning.char_indices() {
            if !crate::value::go_unicode::is_print(c) {
                msgs.push(format!("must only contain printable UTF-8 characters; non-printable character found at index {i}"));
                break;
            }
        }
    }
    for msg in msgs {
        errors.push(FieldError::invalid(
            at,
            FieldError::string_value(warning),
            msg,
        ));
    }
}

pub(super) fn preserves_unknown(spec: &Value) -> bool {
    spec.get("preserveUnknownFields").and_then(Value::as_bool) == Some(true)
}

/// `validateAPIApproval`: groups under k8s.io and kubernetes.io need the approval annotation
/// (unless the stored object's approval state is the same). apiextensions' `GetAPIApprovalState`
/// takes `unapproved…` as a bypass and a string Go's `url.ParseRequestURI` reads with a scheme
/// and a host as an approval.
fn api_approval(w: &Write, object: &Value, group: &str, errors: &mut Vec<FieldError>) {
    let protected = group == "k8s.io"
        || group.ends_with(".k8s.io")
        || group == "kubernetes.io"
        || group.ends_with(".kubernetes.io");
    if !protected {
        return;
    }
    let state = |o: &Value| -> (u8, String) {
        let a = o
            .get_path(&["metadata", "annotations", APPROVAL])
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let state = if a.is_empty() {
            0
        } else if a.starts_with("unapproved") || is_approval_url(&a) {
            1
        } else {
            2
        };
        (state, a)
    };
    let (new, annotation) = state(object);
    if w.live.is_some_and(|old| state(old).0 == new) {
        return;
    }
    let at = keyed("metadata.annotations", APPROVAL);
    match new {
        0 => errors.push(FieldError::required(
            at,
            format!("protected groups must have approval annotation {}, see https://github.com/kubernetes/enhancements/pull/1111", go_quote(APPROVAL)),
        )),
        2 => errors.push(FieldError::invalid(
            at,
            FieldError::string_value(&annotation),
            format!("protected groups must have approval annotation {} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111", go_quote(APPROVAL)),
        )),
        _ => {}
    }
}

fn is_approval_url(annotation: &str) -> bool {
    crate::validate::crd::go_url::parse_request_uri(annotation)
        .is_ok_and(|url| !url.scheme.is_empty() && !url.host.is_empty())
}

/// `validatePreserveUnknownFields`: v1 may not turn `spec.preserveUnknownFields` on.
fn preserve_unknown_fields(w: &Write, spec: &Value, errors: &mut Vec<FieldError>) {
    if w.live
        .is_some_and(|old| preserves_unknown(super::fields::spec(old)))
    {
        return;
    }
    if preserves_unknown(spec) {
        errors.push(FieldError::invalid(
            "spec.preserveUnknownFields",
            // ErrorBody dereferences the *bool.
            BadValue::Value(Value::Bool(true)),
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal;

    const CRD: &str = r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
      "metadata":{"name":"widgets.example.com"},
      "spec":{"group":"example.com","scope":"Namespaced",
        "names":{"plural":"widgets","kind":"Widget"},
        "versions":[{"name":"v1","served":true,"storage":true,
          "schema":{"openAPIV3Schema":{"type":"object"}}}]}}"#;

    #[test]
    fn a_valid_definition_passes() {
        assert_eq!(refusal(CRD, None, 37), None);
        assert_eq!(refusal(CRD, Some(CRD), 30), None);
    }

    #[test]
    fn webhook_conversion_needs_review_versions() {
        let webhook = CRD.replace(
            r#""scope""#,
            r#""conversion":{"strategy":"Webhook","webhook":{"clientConfig":{"url":"https://conv.example.com/x"}}},"scope""#,
        );
        assert_eq!(
            refusal(&webhook, None, 37).unwrap(),
            "The CustomResourceDefinition \"widgets.example.com\" is invalid: spec.conversion.conversionReviewVersions: Required value"
        );
    }

    #[test]
    fn scale_paths_columns_and_approval() {
        let scale = CRD.replace(
            r#""served":true"#,
            r#""served":true,"subresources":{"scale":{"specReplicasPath":".status.n","statusReplicasPath":"status.n"}},"additionalPrinterColumns":[{"name":"N","type":"integer"}]"#,
        );
        assert_eq!(
            refusal(&scale, None, 37).unwrap(),
            "The CustomResourceDefinition \"widgets.example.com\" is invalid: \n\
             * spec.subresources.scale.specReplicasPath: Invalid value: \".status.n\": should be a json path under .spec\n\
             * spec.subresources.scale.statusReplicasPath: Invalid value: \"status.n\": must be a simple json path starting with .\n\
             * spec.additionalPrinterColumns[0].JSONPath: Required value"
        );
        let k8s = CRD.replace("example.com", "example.k8s.io");
        assert_eq!(
            refusal(&k8s, None, 37).unwrap(),
            "The CustomResourceDefinition \"widgets.example.k8s.io\" is invalid: metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation \"api-approved.kubernetes.io\", see https://github.com/kubernetes/enhancements/pull/1111"
        );
    }

    #[test]
    fn deprecation_warning_needs_deprecated() {
        let warned = CRD.replace(
            r#""served":true"#,
            r#""served":true,"deprecationWarning":"old""#,
        );
        assert_eq!(
            refusal(&warned, None, 37).unwrap(),
            "The CustomResourceDefinition \"widgets.example.com\" is invalid: spec.versions[0].deprecationWarning: Invalid value: \"old\": can only be set for deprecated versions"
        );
    }
}
