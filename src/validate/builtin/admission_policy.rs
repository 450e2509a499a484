//! ValidatingAdmissionPolicy, as k8s.io/kubernetes pkg/apis/admissionregistration/validation
//! checks it (`ValidateValidatingAdmissionPolicy`, `validateValidatingAdmissionPolicySpec`,
//! `validateParamKind`, `validateVariable`, `validateValidation`, `validateAuditAnnotation`, and
//! `ValidateValidatingAdmissionPolicyUpdate`'s `ignoreValidatingAdmissionPolicyMatchConditions`).
//!
//! The CEL expressions are compiled as the server compiles them (`admission_cel`). An absent
//! `failurePolicy` stands for its v1 default `Fail`.

use super::super::formats;
use super::super::goprint::go_quote;
use super::super::{BadValue, FieldError, Write};
use super::admission::{match_conditions, FAILURE_POLICIES};
use super::admission_cel::{compile, Decls, Returns};
use super::affinity::label_name;
use super::fields::{items, present, spec, text};
use super::match_resources::match_resources;
use crate::kube::{KubeVersion, VersionRange};
use crate::validate::crd::cel_compile::Ty;
use crate::validate::crd::cel_values::CEL_RESERVED;
use crate::validate::field::{indexed, join};
use crate::value::{Map, Value};
use std::collections::HashSet;

/// `maxAuditAnnotations`.
const MAX_AUDIT_ANNOTATIONS: usize = 20;
/// `maxAuditAnnotationValueExpressionLength`: 5 KiB.
const MAX_VALUE_EXPRESSION_LEN: usize = 5 * 1024;
/// `supportedValidationPolicyReason`, sorted.
const REASONS: &[&str] = &["Forbidden", "Invalid", "RequestEntityTooLarge"];
/// Both messages of a policy with neither validations nor audit annotations.
const NOTHING_TO_DO: &str = "validations or auditAnnotations must contain at least one item";

/// `ValidateValidatingAdmissionPolicy` / `…Update` (the metadata is checked apart).
pub fn validating_admission_policy(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let at = "spec";
    policy_head(w, spec, &|_, _| {}, errors);
    let composited = !items(spec.get("variables")).is_empty();
    let cel = conditions_and_variables(w, spec, composited, errors);
    let validations = items(spec.get("validations"));
    let annotations = items(spec.get("auditAnnotations"));
    if validations.is_empty() && annotations.is_empty() {
        errors.push(FieldError::required("spec.validations", NOTHING_TO_DO));
        errors.push(FieldError::required("spec.auditAnnotations", NOTHING_TO_DO));
        return;
    }
    for (i, v) in validations.iter().enumerate() {
        validation(&cel, v, &indexed("spec.validations", i), errors);
    }
    audit_annotations(
        w,
        &cel,
        object,
        annotations,
        &join(at, ".auditAnnotations"),
        errors,
    );
}

/// A policy's `matchConditions` (unless the update keeps them) and `variables`, compiled as
/// `validateValidatingAdmissionPolicySpec` and `validateMutatingAdmissionPolicySpec` compile
/// them: match conditions by the stateless compiler (`params` with a `paramKind`, no
/// `variables`), variables by the composited one, which declares `variables` when
/// `composited` (a validating policy with variables; every mutating policy,
/// `createCompiler(true)`). Returns the compiler, with the variables declared, for the rest.
pub(super) fn conditions_and_variables(
    w: &Write,
    spec: &Value,
    composited: bool,
    errors: &mut Vec<FieldError>,
) -> PolicyCel {
    let old = w.live.map(|o| Preexisting::of(super::fields::spec(o)));
    let old = old.unwrap_or_default();
    let params = present(spec, "paramKind").is_some();
    if !unchanged_match_conditions(w, spec) {
        let conditions = items(spec.get("matchConditions"));
        let decls = Decls {
            params,
            authorizer: true,
            variables: None,
        };
        let stored: Vec<&str> = old.match_conditions.iter().map(String::as_str).collect();
        match_conditions(
            w,
            conditions,
            "spec.matchConditions",
            Some(decls),
            &stored,
            errors,
        );
    }
    let mut cel = PolicyCel {
        version: w.version(),
        params,
        variables: composited.then(Vec::new),
        old,
    };
    for (i, v) in items(spec.get("variables")).iter().enumerate() {
        let at = indexed("spec.variables", i);
        self::variable(v, &at, w.version(), errors);
        cel.variable(v, &at, errors);
    }
    cel
}

/// `findValidatingPolicyPreexistingExpressions` (and `findMutatingPolicyPreexistingExpressions`,
/// whose policies have no validations): the expressions of the stored policy, which the server
/// compiles with the libraries of its own release. A variable counts as stored when a stored
/// validation has its expression, as upstream looks it up.
#[derive(Default)]
struct Preexisting {
    match_conditions: Vec<String>,
    validations: Vec<String>,
    messages: Vec<String>,
    audit_values: Vec<String>,
    /// A mutating policy's `applyConfiguration` expressions, which upstream also looks a
    /// `jsonPatch` expression up in.
    apply_configurations: Vec<String>,
}

impl Preexisting {
    fn of(spec: &Value) -> Preexisting {
        let all = |list: &str, key: &str| -> Vec<String> {
            items(spec.get(list))
                .iter()
                .map(|v| text(v, key).to_string())
                .collect()
        };
        Preexisting {
            match_conditions: all("matchConditions", "expression"),
            validations: all("validations", "expression"),
            messages: all("validations", "messageExpression"),
            audit_values: all("auditAnnotations", "valueExpression"),
            apply_configurations: items(spec.get("mutations"))
                .iter()
                .filter_map(|m| present(m, "applyConfiguration"))
                .map(|a| text(a, "expression").to_string())
                .collect(),
        }
    }
}

/// The policy's compiler: its declarations and the variables compiled so far
/// (`CompositedCompiler.CompileAndStoreVariable`).
pub(super) struct PolicyCel {
    version: KubeVersion,
    params: bool,
    /// `None` when the policy has no variables (`variables` is then undeclared).
    variables: Option<Vec<(String, Ty)>>,
    old: Preexisting,
}

impl PolicyCel {
    fn decls(&self, authorizer: bool) -> Decls<'_> {
        Decls {
            params: self.params,
            authorizer,
            variables: self.variables.as_deref(),
        }
    }

    /// `validateVariable`'s compilation; the variable is declared with the type it compiles
    /// to (dyn when it does not). Upstream looks the expression up among the stored
    /// validations' expressions.
    fn variable(&mut self, v: &Value, at: &str, errors: &mut Vec<FieldError>) {
        let expression = text(v, "expression");
        if expression.trim().is_empty() {
            return;
        }
        let stored = self.old.validations.iter().any(|e| e == expression);
        let (error, ty) = compile(
            expression,
            expression,
            &join(at, ".expression"),
            self.decls(true),
            Returns::Unchecked,
            self.version,
            stored,
        );
        errors.extend(error);
        if let Some(vars) = &mut self.variables {
            vars.push((text(v, "name").to_string(), ty));
        }
    }

    /// Whether the stored policy has `expression` as an `applyConfiguration` expression
    /// (`applyConfigurationExpressions`, which `validateJSONPatch` consults too).
    pub(super) fn stored_apply_configuration(&self, expression: &str) -> bool {
        self.old
            .apply_configurations
            .iter()
            .any(|e| e == expression)
    }

    /// Compiles one expression at `at` with the policy's declarations.
    pub(super) fn check(
        &self,
        source: &str,
        quoted: &str,
        at: &str,
        authorizer: bool,
        returns: Returns,
        stored: bool,
    ) -> Option<FieldError> {
        let decls = self.decls(authorizer);
        compile(source, quoted, at, decls, returns, self.version, stored).0
    }
}

/// `ignoreValidatingAdmissionPolicyMatchConditions`: an update that keeps the stored
/// `paramKind` and `matchConditions` does not have them checked again.
pub(super) fn unchanged_match_conditions(w: &Write, spec: &Value) -> bool {
    let Some(live) = w.live else {
        return false;
    };
    let old = super::fields::spec(live);
    let same = |key: &str| present(spec, key) == present(old, key);
    same("paramKind") && same("matchConditions")
}

/// `validateParamKind`: `apiVersion` a group/version, `kind` a DNS-1035 label in any case.
pub(super) fn param_kind(kind: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let api_version = text(kind, "apiVersion");
    let version_at = join(at, ".apiVersion");
    let invalid = |value: &str, msg: String| {
        FieldError::invalid(version_at.as_str(), FieldError::string_value(value), msg)
    };
    if api_version.is_empty() {
        errors.push(FieldError::required(version_at.as_str(), ""));
    } else if api_version.matches('/').count() > 1 {
        errors.push(invalid(
            api_version,
            format!("unexpected GroupVersion string: {api_version}"),
        ));
    } else {
        // `parseGroupVersion`: "/" is the empty group version.
        let (group, version) = match api_version {
            "/" => ("", ""),
            gv => gv.split_once('/').unwrap_or(("", gv)),
        };
        if !group.is_empty() {
            let msgs = formats::dns1123_subdomain(group);
            if !msgs.is_empty() {
                errors.push(invalid(group, msgs.join(",")));
            }
        }
        if version.is_empty() {
            errors.push(invalid(api_version, "version must be specified".into()));
        } else {
            let msgs = formats::dns1035_label(version);
            if !msgs.is_empty() {
                errors.push(invalid(version, msgs.join(",")));
            }
        }
    }
    let kind_name = text(kind, "kind");
    let kind_at = join(at, ".kind");
    if kind_name.is_empty() {
        errors.push(FieldError::required(kind_at, ""));
    } else {
        let msgs = formats::dns1035_label(&kind_name.to_lowercase());
        if !msgs.is_empty() {
            errors.push(FieldError::invalid(
                kind_at,
                FieldError::string_value(kind_name),
                format!(
                    "may have mixed case, but should otherwise match: {}",
                    msgs.join(",")
                ),
            ));
        }
    }
}

/// `isCELIdentifier`: `[_a-zA-Z][_a-zA-Z0-9]*` and not a reserved word.
fn is_cel_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
        && !CEL_RESERVED.contains(&name)
}

/// Messages 1.34 reworded without the field name in front (read in the 1.33 and 1.34 sources).
#[derive(Clone, Copy)]
struct PolicyWording {
    cel_identifier: &'static str,
    message_empty: &'static str,
    message_line_breaks: &'static str,
}
const POLICY_WORDING: &[(VersionRange, PolicyWording)] = &[
    (
        VersionRange::until(33),
        PolicyWording {
            cel_identifier: "name is not a valid CEL identifier",
            message_empty: "message must be non-empty if specified",
            message_line_breaks: "message must not contain line breaks",
        },
    ),
    (
        VersionRange::since(34),
        PolicyWording {
            cel_identifier: "must be a valid CEL identifier",
            message_empty: "must be non-empty if specified",
            message_line_breaks: "must not contain line breaks",
        },
    ),
];

/// `validateVariable`: the name and the presence of the expression (compiled by
/// `PolicyCel::variable` for a validating policy).
pub(super) fn variable(v: &Value, at: &str, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let name = text(v, "name");
    if name.trim().is_empty() {
        errors.push(FieldError::required(
            join(at, ".name"),
            "name is not specified",
        ));
    } else if !is_cel_identifier(name) {
        errors.push(FieldError::invalid(
            join(at, ".name"),
            FieldError::string_value(name),
            version.pick(POLICY_WORDING).cel_identifier,
        ));
    }
    if text(v, "expression").trim().is_empty() {
        errors.push(FieldError::required(
            join(at, ".expression"),
            "expression is not specified",
        ));
    }
}

/// `hasNewlines`: the line breaks of CEL's grammar.
fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// `validateValidation`: the expression must compile to a bool, the message expression (with
/// no authorizer declared) to a string.
fn validation(cel: &PolicyCel, v: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let expression = text(v, "expression");
    if expression.trim().is_empty() {
        errors.push(FieldError::required(
            join(at, ".expression"),
            "expression is not specified",
        ));
    } else {
        let stored = cel.old.validations.iter().any(|e| e == expression);
        let at = join(at, ".expression");
        errors.extend(cel.check(expression, expression, &at, true, Returns::Bool, stored));
    }
    let message_expression = text(v, "messageExpression");
    if !message_expression.is_empty() && message_expression.trim().is_empty() {
        errors.push(FieldError::invalid(
            join(at, ".messageExpression"),
            FieldError::string_value(message_expression),
            "must be non-empty if specified",
        ));
    } else if !message_expression.is_empty() {
        let stored = cel.old.messages.iter().any(|e| e == message_expression);
        let at = join(at, ".messageExpression");
        let (source, returns) = (message_expression, Returns::String);
        errors.extend(cel.check(source, source, &at, false, returns, stored));
    }
    let message = text(v, "message");
    let wording = cel.version.pick(POLICY_WORDING);
    let detail = if !message.is_empty() && message.trim().is_empty() {
        Some(wording.message_empty)
    } else if has_newlines(message.trim()) {
        Some(wording.message_line_breaks)
    } else {
        None
    };
    if let Some(detail) = detail {
        errors.push(FieldError::invalid(
            join(at, ".message"),
            FieldError::string_value(message),
            detail,
        ));
    }
    if let Some(reason) = present(v, "reason") {
        let reason = reason.as_str().unwrap_or("");
        if !REASONS.contains(&reason) {
            errors.push(FieldError::not_supported(
                join(at, ".reason"),
                FieldError::string_value(reason),
                REASONS,
            ));
        }
    }
}

/// The audit annotations: at most 20, each valid, keys unique.
fn audit_annotations(
    w: &Write,
    cel: &PolicyCel,
    object: &Value,
    list: &[Value],
    at: &str,
    errors: &mut Vec<FieldError>,
) {
    if list.len() > MAX_AUDIT_ANNOTATIONS {
        errors.push(FieldError::invalid(
            at,
            annotations_value(list),
            format!("must not have more than {MAX_AUDIT_ANNOTATIONS} auditAnnotations"),
        ));
    }
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut keys = HashSet::new();
    for (i, annotation) in list.iter().enumerate() {
        let item_at = indexed(at, i);
        audit_annotation(w, cel, name, annotation, &item_at, errors);
        let key = text(annotation, "key");
        if !keys.insert(key) {
            errors.push(FieldError::duplicate(
                join(&item_at, ".key"),
                FieldError::string_value(key),
            ));
        }
    }
}

/// `validateAuditAnnotation`: `<policy name>/<key>` must be a qualified name; the value
/// expression is compiled trimmed (and quoted as written).
fn audit_annotation(
    w: &Write,
    cel: &PolicyCel,
    policy: &str,
    annotation: &Value,
    at: &str,
    errors: &mut Vec<FieldError>,
) {
    let key = text(annotation, "key");
    let key_at = join(at, ".key");
    if policy.is_empty() {
        errors.push(FieldError::invalid(
            key_at,
            FieldError::string_value(key),
            "requires metadata.name be non-empty",
        ));
    } else {
        label_name(&format!("{policy}/{key}"), &key_at, w.version(), errors);
    }
    let value_at = join(at, ".valueExpression");
    let value = text(annotation, "valueExpression");
    let trimmed = value.trim();
    if trimmed.is_empty() {
        errors.push(FieldError::required(
            value_at,
            "valueExpression is not specified",
        ));
    } else if trimmed.len() > MAX_VALUE_EXPRESSION_LEN {
        // Upstream reports the length as a `Required value`.
        errors.push(FieldError::required(
            value_at,
            format!("must not exceed {MAX_VALUE_EXPRESSION_LEN} bytes in length"),
        ));
    } else {
        let stored = cel.old.audit_values.iter().any(|e| e == value);
        let returns = Returns::Unchecked;
        errors.extend(cel.check(trimmed, value, &value_at, true, returns, stored));
    }
}

/// `spec.AuditAnnotations` as the server quotes it: JSON of the internal (untagged) structs
/// from 1.34, `%#v` before.
fn annotations_value(list: &[Value]) -> BadValue {
    let mut json = Vec::new();
    let mut go = Vec::new();
    for a in list {
        let (key, expr) = (text(a, "key"), text(a, "valueExpression"));
        let mut m = Map::default();
        m.insert("Key".into(), Value::from(key));
        m.insert("ValueExpression".into(), Value::from(expr));
        json.push(Value::Map(m));
        go.push(format!(
            "admissionregistration.AuditAnnotation{{Key:{}, ValueExpression:{}}}",
            go_quote(key),
            go_quote(expr)
        ));
    }
    BadValue::GoValue {
        value: Value::List(json.into_iter().collect()),
        go_syntax: format!(
            "[]admissionregistration.AuditAnnotation{{{}}}",
            go.join(", ")
        ),
    }
}

/// What both admission policy kinds check first (`validateValidatingAdmissionPolicySpec`,
/// `validateMutatingAdmissionPolicySpec`): `failurePolicy`, `paramKind`, and
/// `matchConstraints` with at least one resource rule, then `constraints`, the kind's own
/// rules on the match constraints.
pub(super) fn policy_head(
    w: &Write,
    spec: &Value,
    constraints: &dyn Fn(&Value, &mut Vec<FieldError>),
    errors: &mut Vec<FieldError>,
) {
    if let Some(policy) = present(spec, "failurePolicy") {
        let policy = policy.as_str().unwrap_or("");
        if !FAILURE_POLICIES.contains(&policy) {
            errors.push(FieldError::not_supported(
                "spec.failurePolicy",
                FieldError::string_value(policy),
                FAILURE_POLICIES,
            ));
        }
    }
    if let Some(kind) = present(spec, "paramKind") {
        param_kind(kind, "spec.paramKind", errors);
    }
    match present(spec, "matchConstraints") {
        None => errors.push(FieldError::required("spec.matchConstraints", "")),
        Some(mc) => {
            match_resources(w, mc, "spec.matchConstraints", errors);
            // At least one resource rule, for the type checker.
            if items(mc.get("resourceRules")).is_empty() {
                errors.push(FieldError::required(
                    "spec.matchConstraints.resourceRules",
                    "",
                ));
            }
            constraints(mc, errors);
        }
    }
}

#[cfg(test)]
#[path = "admission_policy_tests.rs"]
mod tests;
