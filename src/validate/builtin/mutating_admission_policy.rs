//! MutatingAdmissionPolicy and its bindings, as k8s.io/kubernetes
//! pkg/apis/admissionregistration/validation checks them (`validateMutatingAdmissionPolicySpec`,
//! `validateMutation`, `validateApplyConfiguration`, `validateJSONPatch`,
//! `validateMutatingAdmissionPolicyBindingSpec`), sharing the ValidatingAdmissionPolicy rules
//! where upstream shares them. The match conditions and variables are compiled as a validating
//! policy's, the mutations' expressions with the variables too; what builds `Object{…}` /
//! `JSONPatch{…}` values is checked for syntax only (see the docs).

use super::super::{FieldError, Write};
use super::admission::strings;
use super::admission_cel::Returns;
use super::admission_policy::{conditions_and_variables, policy_head, PolicyCel};
use super::admission_policy_binding::{param_ref, policy_name};
use super::fields::{items, present, spec, text};
use super::match_resources::match_resources;
use crate::validate::field::{indexed, join};
use crate::value::Value;

/// `supportedReinvocationPolicies`, sorted.
const REINVOCATION_POLICIES: &[&str] = &["IfNeeded", "Never"];
/// `supportedPatchType`, sorted.
const PATCH_TYPES: &[&str] = &["ApplyConfiguration", "JSONPatch"];
/// `supportedMutatingOperations`, sorted: a policy cannot mutate a DELETE.
const MUTATING_OPERATIONS: &[&str] = &["*", "CONNECT", "CREATE", "UPDATE"];

/// `ValidateMutatingAdmissionPolicy` / `…Update` (the metadata is checked apart). An absent
/// `failurePolicy` stands for its default `Fail` (`SetDefaults_MutatingAdmissionPolicySpec`);
/// `reinvocationPolicy` has no default.
pub fn mutating_admission_policy(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    policy_head(
        w,
        spec,
        &|mc, errors| mutating_operations(mc, "spec.matchConstraints", errors),
        errors,
    );
    // `ignoreMutatingAdmissionPolicyMatchConditions` is as for the validating policy; the
    // compiler is always composited (`createCompiler(true)`).
    let cel = conditions_and_variables(w, spec, true, errors);
    let mutations = items(spec.get("mutations"));
    if mutations.is_empty() {
        errors.push(FieldError::required(
            "spec.mutations",
            "mutations must contain at least one item",
        ));
    }
    for (i, m) in mutations.iter().enumerate() {
        mutation(&cel, m, &indexed("spec.mutations", i), errors);
    }
    match text(spec, "reinvocationPolicy") {
        "" => errors.push(FieldError::required("spec.reinvocationPolicy", "")),
        p if !REINVOCATION_POLICIES.contains(&p) => errors.push(FieldError::not_supported(
            "spec.reinvocationPolicy",
            FieldError::string_value(p),
            REINVOCATION_POLICIES,
        )),
        _ => {}
    }
}

/// The mutating-only operation rule of `validateMutatingAdmissionPolicySpec` and
/// `validateMutatingAdmissionPolicyBindingSpec`: each operation of each resource rule, reported
/// at `<at>.resourceRules.operations` without the indexes (as upstream reports it).
fn mutating_operations(mr: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let ops_at = join(at, ".resourceRules.operations");
    for rule in items(mr.get("resourceRules")) {
        for op in strings(rule.get("operations")) {
            if !MUTATING_OPERATIONS.contains(&op) {
                errors.push(FieldError::not_supported(
                    ops_at.as_str(),
                    FieldError::string_value(op),
                    MUTATING_OPERATIONS,
                ));
            }
        }
    }
}

/// `validateMutation`: a known `patchType`, its own patch set with an expression that compiles
/// (`validateApplyConfiguration`, `validateJSONPatch`: trimmed, with the policy's variables,
/// `params` and the authorizer) and not the other one. Upstream also declares the patch types
/// (`Object{…}`, `JSONPatch{…}`) and the `jsonpatch` library, which kssa's checker does not:
/// an expression that builds one is left unchecked (`Checked::Unknown`), and its result type is
/// not compared.
fn mutation(cel: &PolicyCel, m: &Value, at: &str, errors: &mut Vec<FieldError>) {
    let patch_type = text(m, "patchType");
    let (own, other) = match patch_type {
        "" => {
            errors.push(FieldError::required(join(at, ".patchType"), ""));
            return;
        }
        "JSONPatch" => ("jsonPatch", "applyConfiguration"),
        "ApplyConfiguration" => ("applyConfiguration", "jsonPatch"),
        _ => {
            errors.push(FieldError::not_supported(
                join(at, ".patchType"),
                FieldError::string_value(patch_type),
                PATCH_TYPES,
            ));
            return;
        }
    };
    match present(m, own) {
        None => errors.push(FieldError::required(
            join(at, &format!(".{own}")),
            format!("must be specified when patchType is {patch_type}"),
        )),
        Some(patch) => {
            let expression = text(patch, "expression");
            let trimmed = expression.trim();
            let expression_at = join(at, &format!(".{own}.expression"));
            if trimmed.is_empty() {
                errors.push(FieldError::required(expression_at, ""));
            } else {
                let stored = cel.stored_apply_configuration(expression);
                let returns = Returns::Unchecked;
                errors.extend(cel.check(trimmed, trimmed, &expression_at, true, returns, stored));
            }
        }
    }
    if present(m, other).is_some() {
        // Upstream quotes the field's name in braces, not its value.
        errors.push(FieldError::invalid(
            join(at, &format!(".{other}")),
            FieldError::string_value(&format!("{{{other}}}")),
            format!("must not be specified when patchType is {patch_type}"),
        ));
    }
}

/// `ValidateMutatingAdmissionPolicyBinding` / `…Update`: as a validating policy's binding
/// without `validationActions`, plus the mutating operation rule. The v1alpha1 API defaults
/// `paramRef.parameterNotFoundAction` to `Deny` (`SetDefaults_ParamRef`); v1beta1 and v1 do not.
pub fn mutating_admission_policy_binding(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    policy_name(spec, errors);
    if let Some(pr) = present(spec, "paramRef") {
        let defaulted = alpha_param_ref_default(w, pr);
        param_ref(w, defaulted.as_ref().unwrap_or(pr), "spec.paramRef", errors);
    }
    if let Some(mr) = present(spec, "matchResources") {
        match_resources(w, mr, "spec.matchResources", errors);
        mutating_operations(mr, "spec.matchResources", errors);
    }
}

/// The v1alpha1 `paramRef` with its `parameterNotFoundAction` defaulted, when it lacks one.
fn alpha_param_ref_default(w: &Write, pr: &Value) -> Option<Value> {
    if w.kind.gvk.version != "v1alpha1" || present(pr, "parameterNotFoundAction").is_some() {
        return None;
    }
    let mut pr = pr.clone();
    if let Value::Map(m) = &mut pr {
        m.insert("parameterNotFoundAction".into(), Value::from("Deny"));
    }
    Some(pr)
}

#[cfg(test)]
#[path = "mutating_admission_policy_tests.rs"]
mod tests;
