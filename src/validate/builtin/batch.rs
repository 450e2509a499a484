//! Jobs and CronJobs, as k8s.io/kubernetes pkg/apis/batch/validation/validation.go checks them
//! (`ValidateJob`, `validateJobSpec`, `validatePodFailurePolicy`, `ValidateJobSpecUpdate`,
//! `ValidateCronJobCreate`/`Update`, `validateCronJobSpec`, `validateScheduleFormat`,
//! `validateTimeZone`, `ValidateJobTemplateSpec`), read at a recent release (1.34–1.35) and
//! gated by the default feature gates of each version.

use super::super::{BadValue, FieldError, Write};
use super::fields::spec;
use super::job_selector;
use super::pod;
use super::selector::{quoted, semantic_eq};
use super::success_policy::SUCCESS_POLICY;
use super::workloads::{non_negative, IMMUTABLE};
use crate::kube::VersionRange;
use crate::validate::field::join;
use crate::validate::formats;
use crate::value::Value;

/// A Job's `spec.managedBy` is kept on create (and so checked) from 1.32, when JobManagedBy
/// went beta; before, `PrepareForCreate` drops it. Updates keep it in every release (no drop
/// in `PrepareForUpdate`), and a CronJob's job template is never dropped from.
const MANAGED_BY: VersionRange = VersionRange::since(32);

/// Whose Job spec `validateJobSpec` checks: a Job's (`spec`) or a CronJob's job template
/// (`spec.jobTemplate.spec`, which the CronJob strategy drops nothing from).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum JobSpecOf {
    Job,
    CronJobTemplate,
}

impl JobSpecOf {
    fn path(self) -> &'static str {
        match self {
            JobSpecOf::Job => "spec",
            JobSpecOf::CronJobTemplate => "spec.jobTemplate.spec",
        }
    }

    /// Whether the strategy left `field` for validation to see, by its gate's `kept` range.
    fn keeps(self, w: &Write, kept: VersionRange, updated_too: bool) -> bool {
        self == JobSpecOf::CronJobTemplate
            || kept.contains(w.version())
            || (updated_too && w.is_update())
    }
}
const MAX_MANAGED_BY: usize = 63;
/// Indexed Jobs: `maxParallelismForIndexedJob`, `maxFailedIndexesForIndexedJob`.
const MAX_INDEXED_PARALLELISM: i64 = 100_000;
const MAX_FAILED_INDEXES: i64 = 100_000;
/// Above `completionsSoftLimit` with a per-index backoff limit, tighter limits apply.
const COMPLETIONS_SOFT_LIMIT: i64 = 100_000;
const HIGH_COMPLETIONS_LIMIT: i64 = 10_000;
const REPLACEMENT_POLICIES: &[&str] = &["Failed", "TerminatingOrFailed"];
const JOB_RESTART_POLICIES: &[&str] = &["OnFailure", "Never"];

pub(super) fn int(spec: &Value, key: &str) -> Option<i64> {
    spec.get(key).and_then(Value::as_i64)
}

pub(super) fn text<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

pub(super) fn set(v: &Value, key: &str) -> bool {
    v.get(key).is_some_and(|x| !x.is_null())
}

pub(super) fn int_value(n: i64) -> BadValue {
    BadValue::Value(Value::Int(n))
}

/// `validateJobSpec` of a Job's spec or a CronJob's job template.
pub(super) fn job_spec(w: &Write, spec: &Value, of: JobSpecOf, errors: &mut Vec<FieldError>) {
    let path = of.path();
    for key in [
        "parallelism",
        "completions",
        "activeDeadlineSeconds",
        "backoffLimit",
        "ttlSecondsAfterFinished",
        "backoffLimitPerIndex",
    ] {
        non_negative(spec.get(key), &format!("{path}.{key}"), errors);
    }
    let per_index = int(spec, "backoffLimitPerIndex");
    let max_failed = int(spec, "maxFailedIndexes");
    if max_failed.is_some() {
        non_negative(
            spec.get("maxFailedIndexes"),
            &join(path, ".maxFailedIndexes"),
            errors,
        );
        if per_index.is_none() {
            errors.push(FieldError::required(
                join(path, ".backoffLimitPerIndex"),
                "when maxFailedIndexes is specified",
            ));
        }
    }
    if of.keeps(w, MANAGED_BY, true) {
        if let Some(by) = text(spec, "managedBy") {
            managed_by(by, &join(path, ".managedBy"), w, errors);
        }
    }
    let mode = text(spec, "completionMode");
    if let Some(mode) = mode {
        if mode != "NonIndexed" && mode != "Indexed" {
            errors.push(FieldError::not_supported(
                join(path, ".completionMode"),
                FieldError::string_value(mode),
                &["NonIndexed", "Indexed"],
            ));
        }
        if mode == "Indexed" {
            indexed_limits(spec, path, errors);
        }
    }
    if mode.is_none_or(|m| m == "NonIndexed") {
        for (key, value) in [
            ("backoffLimitPerIndex", per_index),
            ("maxFailedIndexes", max_failed),
        ] {
            if let Some(n) = value {
                errors.push(FieldError::invalid(
                    format!("{path}.{key}"),
                    int_value(n),
                    "requires indexed completion mode",
                ));
            }
        }
    }
    let failure_policy = spec.get("podFailurePolicy").filter(|p| !p.is_null());
    if let Some(policy) = failure_policy {
        super::failure_policy::pod_failure_policy(
            w,
            spec,
            policy,
            &join(path, ".podFailurePolicy"),
            errors,
        );
    }
    if of.keeps(w, SUCCESS_POLICY, false) {
        if let Some(policy) = spec.get("successPolicy").filter(|p| !p.is_null()) {
            super::success_policy::success_policy(w, spec, policy, path, errors);
        }
    }
    if let Some(replacement) = text(spec, "podReplacementPolicy") {
        let allowed: &[&str] = if failure_policy.is_some() {
            &["Failed"]
        } else {
            REPLACEMENT_POLICIES
        };
        if !allowed.contains(&replacement) {
            errors.push(FieldError::not_supported(
                join(path, ".podReplacementPolicy"),
                FieldError::string_value(replacement),
                allowed,
            ));
        }
    }
    let empty = Value::Null;
    let template_path = join(path, ".template");
    pod::template(
        spec.get("template").unwrap_or(&empty),
        pod::stored(w.live, &template_path),
        &template_path,
        w.version(),
        errors,
    );
    let restart_path = join(path, ".template.spec.restartPolicy");
    let restart = spec
        .get_path(&["template", "spec", "restartPolicy"])
        .and_then(Value::as_str)
        .unwrap_or("");
    // The pod defaults turn a missing policy into Always: both answer `Required`.
    if restart.is_empty() || restart == "Always" {
        errors.push(FieldError::required(
            restart_path,
            "valid values: \"OnFailure\", \"Never\"",
        ));
    } else if !JOB_RESTART_POLICIES.contains(&restart) {
        errors.push(FieldError::not_supported(
            restart_path,
            FieldError::string_value(restart),
            JOB_RESTART_POLICIES,
        ));
    } else if failure_policy.is_some() && restart != "Never" {
        errors.push(FieldError::invalid(
            restart_path,
            FieldError::string_value(restart),
            "only \"Never\" is supported when podFailurePolicy is specified",
        ));
    }
}

/// The limits of an Indexed Job (`validateJobSpec`, `CompletionMode == Indexed`).
fn indexed_limits(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let completions = int(spec, "completions");
    let parallelism = int(spec, "parallelism");
    let max_failed = int(spec, "maxFailedIndexes");
    let at_most = |n: i64, key: &str, limit: i64, why: &str| {
        FieldError::invalid(
            format!("{path}.{key}"),
            int_value(n),
            format!("must be less than or equal to {limit}{why}"),
        )
    };
    if completions.is_none() {
        errors.push(FieldError::required(
            join(path, ".completions"),
            "when completion mode is Indexed",
        ));
    }
    if let Some(p) = parallelism.filter(|p| *p > MAX_INDEXED_PARALLELISM) {
        errors.push(at_most(
            p,
            "parallelism",
            MAX_INDEXED_PARALLELISM,
            " when completion mode is Indexed",
        ));
    }
    if let (Some(c), Some(m)) = (completions, max_failed) {
        if m > c {
            errors.push(FieldError::invalid(
                join(path, ".maxFailedIndexes"),
                int_value(m),
                "must be less than or equal to completions",
            ));
        }
    }
    if let Some(m) = max_failed.filter(|m| *m > MAX_FAILED_INDEXES) {
        errors.push(at_most(m, "maxFailedIndexes", MAX_FAILED_INDEXES, ""));
    }
    let high = completions.is_some_and(|c| c > COMPLETIONS_SOFT_LIMIT);
    if high && set(spec, "backoffLimitPerIndex") {
        let why = format!(
            " when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index"
        );
        if max_failed.is_none() {
            errors.push(FieldError::required(
                join(path, ".maxFailedIndexes"),
                format!("must be specified when completions is above {COMPLETIONS_SOFT_LIMIT}"),
            ));
        }
        if let Some(p) = parallelism.filter(|p| *p > HIGH_COMPLETIONS_LIMIT) {
            errors.push(at_most(p, "parallelism", HIGH_COMPLETIONS_LIMIT, &why));
        }
        if let Some(m) = max_failed.filter(|m| *m > HIGH_COMPLETIONS_LIMIT) {
            errors.push(at_most(m, "maxFailedIndexes", HIGH_COMPLETIONS_LIMIT, &why));
        }
    }
}

/// apimachinery `IsDomainPrefixedPath` and the 63-byte limit of `spec.managedBy`.
fn managed_by(by: &str, path: &str, w: &Write, errors: &mut Vec<FieldError>) {
    match by.split_once('/') {
        _ if by.is_empty() => errors.push(FieldError::required(path, "")),
        Some((host, rest)) if !host.is_empty() && !rest.is_empty() => {
            for e in formats::dns1123_subdomain(host) {
                errors.push(FieldError::invalid(path, FieldError::string_value(host), e));
            }
            let path_char = |c: char| c.is_ascii_alphanumeric() || "/-._~%!$&'()*+,;=:".contains(c);
            if !rest.chars().all(path_char) {
                errors.push(FieldError::invalid(
                    path,
                    FieldError::string_value(rest),
                    "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
                ));
            }
        }
        _ => errors.push(FieldError::invalid(
            path,
            FieldError::string_value(by),
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        )),
    }
    if by.len() > MAX_MANAGED_BY {
        errors.push(FieldError::too_long(path, MAX_MANAGED_BY, w.version()));
    }
}

/// `ValidateJob` / `ValidateJobUpdate`, on the Job as the strategy has prepared it (the
/// generated selector and labels of [`job_selector::prepared`] on create).
pub fn job(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let object = &*job_selector::prepared(w, object);
    job_selector::validate_generated(w, object, errors);
    let spec = spec(object);
    job_spec(w, spec, JobSpecOf::Job, errors);
    job_selector::spec_selector(w, object, errors);
    indexed_name(object, spec, errors);
    if let Some(old) = w.live {
        job_update(w, spec, self::spec(old), old, errors);
    }
}

/// Indexed pods are named `<job>-<index>`, which must be a DNS label.
fn indexed_name(object: &Value, spec: &Value, errors: &mut Vec<FieldError>) {
    let completions = int(spec, "completions").filter(|c| *c > 0);
    let (Some(completions), Some("Indexed")) = (completions, text(spec, "completionMode")) else {
        return;
    };
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    let host = format!("{name}-{}", completions - 1);
    if !formats::dns1123_label(&host).is_empty() {
        errors.push(FieldError::invalid(
            "metadata.name",
            FieldError::string_value(name),
            format!("will not able to create pod with invalid DNS label: {host}"),
        ));
    }
}

/// An internal struct the server quotes with Go's `%#v` before 1.34 (with pointers kssa cannot
/// know), as JSON since.
pub(super) fn struct_value(value: Option<&Value>, go_type: &str) -> BadValue {
    BadValue::GoValue {
        value: value.cloned().unwrap_or(Value::Null),
        go_syntax: format!("{go_type}{{…}}"),
    }
}

/// `ValidateJobSpecUpdate`: what may not change.
fn job_update(w: &Write, spec: &Value, old: &Value, old_job: &Value, errors: &mut Vec<FieldError>) {
    let changed = |key: &str| !semantic_eq(spec.get(key), old.get(key));
    // Elastic Indexed Jobs (GA in 1.31, on since 1.27) change completions with parallelism.
    if changed("completions") {
        let indexed = text(spec, "completionMode") == Some("Indexed");
        let completions = spec.get("completions").cloned().unwrap_or(Value::Null);
        if !indexed {
            errors.push(FieldError::invalid(
                "spec.completions",
                BadValue::Value(completions),
                IMMUTABLE,
            ));
        } else if let Some(c) = completions.as_i64() {
            if Some(c) != int(spec, "parallelism") {
                errors.push(FieldError::invalid(
                    "spec.completions",
                    int_value(c),
                    "can only be modified in tandem with spec.parallelism",
                ));
            }
        }
    }
    if changed("selector") {
        errors.push(FieldError::invalid(
            "spec.selector",
            quoted(spec.get("selector")),
            IMMUTABLE,
        ));
    }
    super::job_template_update::check(spec, old, old_job, w.version(), errors);
    let mut immutable = vec![
        ("completionMode", ""),
        ("podFailurePolicy", "batch.PodFailurePolicy"),
        ("backoffLimitPerIndex", ""),
    ];
    immutable.push(("managedBy", ""));
    for (key, go_type) in immutable {
        if changed(key) {
            let value = match go_type {
                "" => BadValue::Value(spec.get(key).cloned().unwrap_or(Value::Null)),
                t => struct_value(spec.get(key), t),
            };
            errors.push(FieldError::invalid(format!("spec.{key}"), value, IMMUTABLE));
        }
    }
    if SUCCESS_POLICY.contains(w.version()) && changed("successPolicy") {
        let value = super::success_policy::quoted(spec.get("successPolicy"));
        errors.push(FieldError::invalid("spec.successPolicy", value, IMMUTABLE));
    }
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
