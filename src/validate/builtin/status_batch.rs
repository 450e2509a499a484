//! Status writes of Jobs, as k8s.io/kubernetes pkg/apis/batch/validation
//! `ValidateJobUpdateStatus` (`validateJobStatus`, `ValidateJobStatusUpdate`) checks them with
//! the options pkg/registry/batch/job/strategy.go `getStatusValidationOptions` picks per
//! release: with JobManagedBy (beta and on by default from 1.32) the terminal conditions,
//! counters, times and indexes are guarded, each rule only when the fields it reads change.

use super::super::{BadValue, FieldError, Write};
use super::fields::{items, present, spec, text};
use super::meta_update::time_value;
use super::status::{int, invalid_int, non_negative, status};
use crate::kube::VersionRange;
use crate::validate::goprint::go_quote;
use crate::value::Value;

/// JobManagedBy on by default: the strengthened status transitions.
const MANAGED_BY_RULES: VersionRange = VersionRange::since(32);

/// Whether a condition of `cond_type` is `True` (`IsConditionTrue`).
fn condition(job: &Value, cond_type: &str) -> bool {
    items(status(job).get("conditions"))
        .iter()
        .any(|c| text(c, "type") == cond_type && text(c, "status") == "True")
}

fn complete(job: &Value) -> bool {
    condition(job, "Complete")
}
fn failed(job: &Value) -> bool {
    condition(job, "Failed")
}
fn finished(job: &Value) -> bool {
    complete(job) || failed(job)
}
fn success_criteria_met(job: &Value) -> bool {
    condition(job, "SuccessCriteriaMet")
}
fn failure_target(job: &Value) -> bool {
    condition(job, "FailureTarget")
}

fn conditions_error(detail: &str) -> FieldError {
    FieldError::invalid("status.conditions", BadValue::Omitted, detail)
}

/// `getStatusValidationOptions`: which guarded rules run. All off before 1.32.
#[derive(Default)]
struct Options {
    decreasing_succeeded: bool,
    decreasing_failed: bool,
    disabling_terminal_condition: bool,
    invalid_completed_indexes: bool,
    invalid_failed_indexes: bool,
    completed_indexes_non_indexed: bool,
    failed_indexes_without_backoff_per_index: bool,
    failed_indexes_overlapping: bool,
    finished_with_active: bool,
    finished_without_start_time: bool,
    finished_with_uncounted_pods: bool,
    /// The release's wording of that refusal.
    uncounted_pods_detail: &'static str,
    start_time_update_unsuspended: bool,
    completion_before_start: bool,
    mutating_completion_time: bool,
    complete_without_completion_time: bool,
    not_complete_with_completion_time: bool,
    complete_with_failed: bool,
    complete_with_failure_target: bool,
}

impl Options {
    fn of(w: &Write, job: &Value, old: &Value) -> Options {
        if !MANAGED_BY_RULES.contains(w.version()) {
            return Options::default();
        }
        let (new_s, old_s) = (status(job), status(old));
        let changed = |key: &str| {
            new_s.get(key).filter(|v| !v.is_null()) != old_s.get(key).filter(|v| !v.is_null())
        };
        let completed_indexes = text(new_s, "completedIndexes") != text(old_s, "completedIndexes");
        let failed_indexes = changed("failedIndexes");
        let finished_changed = finished(job) != finished(old);
        let complete_changed = complete(job) != complete(old);
        let start = changed("startTime");
        let completion = changed("completionTime");
        let s = spec(job);
        let indexed = text(s, "completionMode") == "Indexed";
        Options {
            decreasing_succeeded: !indexed
                || present(s, "completions") != present(s, "parallelism"),
            decreasing_failed: true,
            disabling_terminal_condition: true,
            invalid_completed_indexes: completed_indexes,
            invalid_failed_indexes: failed_indexes,
            completed_indexes_non_indexed: completed_indexes,
            failed_indexes_without_backoff_per_index: failed_indexes,
            failed_indexes_overlapping: failed_indexes || completed_indexes,
            finished_with_active: finished_changed || int(new_s, "active") != int(old_s, "active"),
            finished_without_start_time: finished_changed || start,
            finished_with_uncounted_pods: finished_changed
                || !same_uncounted(
                    new_s.get("uncountedTerminatedPods"),
                    old_s.get("uncountedTerminatedPods"),
                ),
            uncounted_pods_detail: w.version().pick(UNCOUNTED_PODS_DETAIL),
            start_time_update_unsuspended: start,
            completion_before_start: start || completion,
            mutating_completion_time: true,
            complete_without_completion_time: complete_changed || completion,
            not_complete_with_completion_time: complete_changed || completion,
            complete_with_failed: complete_changed || failed(job) != failed(old),
            complete_with_failure_target: complete_changed
                || failure_target(job) != failure_target(old),
        }
    }
}

/// `Semantic.DeepEqual` of two `*UncountedTerminatedPods`: both nil, or both set with the same
/// UIDs (a missing list equal to an empty one).
fn same_uncounted(new: Option<&Value>, old: Option<&Value>) -> bool {
    fn set(v: Option<&Value>) -> Option<&Value> {
        v.filter(|v| !v.is_null())
    }
    match (set(new), set(old)) {
        (None, None) => true,
        (Some(n), Some(o)) => ["succeeded", "failed"]
            .iter()
            .all(|list| items(n.get(list)) == items(o.get(list))),
        _ => false,
    }
}

/// The refusal of a finished Job that still lists uncounted pods (worded `uncountedTerminatedPods
/// needs to be empty for finished job` until 1.33), quoting the internal
/// `batch.UncountedTerminatedPods`.
fn uncounted_pods_left(s: &Value, detail: &str, errors: &mut Vec<FieldError>) {
    let Some(uncounted) = present(s, "uncountedTerminatedPods") else {
        return;
    };
    let (succeeded, failed) = (uncounted.get("succeeded"), uncounted.get("failed"));
    if items(succeeded).is_empty() && items(failed).is_empty() {
        return;
    }
    let mut json = crate::value::Map::default();
    let mut go = Vec::new();
    for (key, list) in [("Succeeded", succeeded), ("Failed", failed)] {
        let list = list.filter(|v| !v.is_null());
        json.insert(key.into(), list.cloned().unwrap_or(Value::Null));
        let uids: Vec<String> = items(list)
            .iter()
            .map(|u| go_quote(u.as_str().unwrap_or("")))
            .collect();
        go.push(match list {
            Some(_) => format!("{key}:[]types.UID{{{}}}", uids.join(", ")),
            None => format!("{key}:[]types.UID(nil)"),
        });
    }
    errors.push(FieldError::invalid(
        "status.uncountedTerminatedPods",
        BadValue::GoValue {
            value: Value::Map(json),
            go_syntax: format!("batch.UncountedTerminatedPods{{{}}}", go.join(", ")),
        },
        detail,
    ));
}

const UNCOUNTED_PODS_DETAIL: &[(VersionRange, &str)] = &[
    (
        VersionRange::until(33),
        "uncountedTerminatedPods needs to be empty for finished job",
    ),
    (VersionRange::since(34), "must be empty for finished job"),
];

/// `ValidateJobStatusUpdate` with the release's options (the metadata is checked before).
pub fn job(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    static NULL: Value = Value::Null;
    let old = w.live.unwrap_or(&NULL);
    let opts = Options::of(w, object, old);
    job_status(object, &opts, errors);
    let (new_s, old_s) = (status(object), status(old));
    if opts.disabling_terminal_condition {
        for t in ["Failed", "Complete", "FailureTarget"] {
            if condition(old, t) && !condition(object, t) {
                errors.push(conditions_error(&format!(
                    "cannot disable the terminal {t}=True condition"
                )));
            }
        }
    }
    if opts.decreasing_failed && int(new_s, "failed") < int(old_s, "failed") {
        let n = int(new_s, "failed");
        errors.push(invalid_int(
            "failed",
            n,
            "cannot decrease the failed counter",
        ));
    }
    if opts.decreasing_succeeded && int(new_s, "succeeded") < int(old_s, "succeeded") {
        let n = int(new_s, "succeeded");
        errors.push(invalid_int(
            "succeeded",
            n,
            "cannot decrease the succeeded counter",
        ));
    }
    let time = |s: &'_ Value, key: &str| present(s, key).cloned();
    if opts.mutating_completion_time {
        if let (Some(new), Some(prev)) =
            (time(new_s, "completionTime"), time(old_s, "completionTime"))
        {
            if !same_time(&new, &prev) {
                errors.push(FieldError::invalid(
                    "status.completionTime",
                    time_value(&new),
                    "completionTime cannot be mutated",
                ));
            }
        }
    }
    if opts.start_time_update_unsuspended {
        if let Some(prev) = time(old_s, "startTime") {
            let same = time(new_s, "startTime").is_some_and(|t| same_time(&t, &prev));
            let suspended = spec(object).get("suspend").and_then(Value::as_bool) == Some(true);
            if !same && !suspended {
                errors.push(FieldError::required(
                    "status.startTime",
                    "startTime cannot be removed for unsuspended job",
                ));
            }
        }
    }
    if success_criteria_met(old) && !success_criteria_met(object) {
        errors.push(conditions_error(
            "cannot disable the SuccessCriteriaMet=True condition",
        ));
    }
    if complete(old) && !success_criteria_met(old) && success_criteria_met(object) {
        errors.push(conditions_error(
            "cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions",
        ));
    }
}

/// Two `metav1.Time`s are equal to the second (what the server keeps of them).
fn same_time(a: &Value, b: &Value) -> bool {
    let parse = |v: &Value| {
        v.as_str()
            .and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok())
            .map(|t| t.timestamp())
    };
    match (parse(a), parse(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// `validateJobStatus`.
fn job_status(job: &Value, opts: &Options, errors: &mut Vec<FieldError>) {
    let s = status(job);
    for key in ["active", "succeeded", "failed", "ready", "terminating"] {
        non_negative(s, key, errors);
    }
    if let Some(uncounted) = present(s, "uncountedTerminatedPods") {
        let mut seen: Vec<&str> = Vec::new();
        for list in ["succeeded", "failed"] {
            for (i, uid) in items(uncounted.get(list)).iter().enumerate() {
                let uid = uid.as_str().unwrap_or("");
                let path = format!("status.uncountedTerminatedPods.{list}[{i}]");
                if uid.is_empty() {
                    errors.push(FieldError::invalid(
                        path,
                        FieldError::string_value(uid),
                        "must not be empty",
                    ));
                } else if seen.contains(&uid) {
                    errors.push(FieldError::duplicate(path, FieldError::string_value(uid)));
                } else {
                    seen.push(uid);
                }
            }
        }
    }
    let completion_time = present(s, "completionTime");
    let start_time = present(s, "startTime");
    if opts.complete_with_failed && complete(job) && failed(job) {
        errors.push(conditions_error(
            "cannot set Complete=True and Failed=true conditions",
        ));
    }
    if opts.complete_with_failure_target && complete(job) && failure_target(job) {
        errors.push(conditions_error(
            "cannot set Complete=True and FailureTarget=true conditions",
        ));
    }
    if opts.not_complete_with_completion_time && !complete(job) {
        if let Some(t) = completion_time {
            errors.push(FieldError::invalid(
                "status.completionTime",
                time_value(t),
                "cannot set completionTime when there is no Complete=True condition",
            ));
        }
    }
    if opts.complete_without_completion_time && completion_time.is_none() && complete(job) {
        errors.push(FieldError::required(
            "status.completionTime",
            "completionTime is required for Complete jobs",
        ));
    }
    if opts.completion_before_start {
        if let (Some(start), Some(end)) = (start_time, completion_time) {
            if before(end, start) {
                errors.push(FieldError::invalid(
                    "status.completionTime",
                    time_value(end),
                    "completionTime cannot be set before startTime",
                ));
            }
        }
    }
    let is_finished = finished(job);
    if opts.finished_with_active && int(s, "active") > 0 && is_finished {
        errors.push(invalid_int(
            "active",
            int(s, "active"),
            "active>0 is invalid for finished job",
        ));
    }
    if opts.finished_without_start_time && start_time.is_none() && is_finished {
        errors.push(FieldError::required(
            "status.startTime",
            "startTime is required for finished job",
        ));
    }
    if opts.finished_with_uncounted_pods && is_finished {
        uncounted_pods_left(s, opts.uncounted_pods_detail, errors);
    }
    indexes(job, opts, errors);
    let sp = spec(job);
    let scm = success_criteria_met(job);
    if scm && failed(job) {
        errors.push(conditions_error(
            "cannot set SuccessCriteriaMet=True and Failed=true conditions",
        ));
    }
    if scm && failure_target(job) {
        errors.push(conditions_error(
            "cannot set SuccessCriteriaMet=True and FailureTarget=true conditions",
        ));
    }
    if present(sp, "successPolicy").is_some() && !scm && complete(job) {
        errors.push(conditions_error(
            "cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True",
        ));
    }
}

/// `completionTime.Before(startTime)`.
fn before(a: &Value, b: &Value) -> bool {
    let parse = |v: &Value| {
        v.as_str()
            .and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok())
    };
    matches!((parse(a), parse(b)), (Some(x), Some(y)) if x < y)
}

/// The `completedIndexes` / `failedIndexes` rules of `validateJobStatus`.
fn indexes(job: &Value, opts: &Options, errors: &mut Vec<FieldError>) {
    let s = status(job);
    let sp = spec(job);
    let completions = sp.get("completions").and_then(Value::as_i64);
    let completed = text(s, "completedIndexes");
    let failed_indexes = present(s, "failedIndexes").map(|v| v.as_str().unwrap_or(""));
    let per_index = present(sp, "backoffLimitPerIndex").is_some();
    if opts.invalid_completed_indexes {
        if let Some(c) = completions {
            if let Err(e) = super::job_indexes::validate_format(completed, c) {
                errors.push(FieldError::invalid(
                    "status.completedIndexes",
                    FieldError::string_value(completed),
                    format!("error parsing completedIndexes: {e}"),
                ));
            }
        }
    }
    if opts.invalid_failed_indexes && per_index {
        if let (Some(c), Some(f)) = (completions, failed_indexes) {
            if let Err(e) = super::job_indexes::validate_format(f, c) {
                errors.push(FieldError::invalid(
                    "status.failedIndexes",
                    FieldError::string_value(f),
                    format!("error parsing failedIndexes: {e}"),
                ));
            }
        }
    }
    let indexed = text(sp, "completionMode") == "Indexed";
    if opts.completed_indexes_non_indexed && !completed.is_empty() && !indexed {
        errors.push(FieldError::invalid(
            "status.completedIndexes",
            FieldError::string_value(completed),
            "cannot set non-empty completedIndexes when non-indexed completion mode",
        ));
    }
    if opts.failed_indexes_without_backoff_per_index && !per_index {
        if let Some(f) = failed_indexes {
            errors.push(FieldError::invalid(
                "status.failedIndexes",
                FieldError::string_value(f),
                "cannot set non-null failedIndexes when backoffLimitPerIndex is null",
            ));
        }
    }
    if opts.failed_indexes_overlapping {
        if let (Some(c), Some(f)) = (completions, failed_indexes) {
            if let Err(e) = super::job_indexes::not_overlapping(completed, f, c) {
                errors.push(FieldError::invalid(
                    "status.failedIndexes",
                    FieldError::string_value(f),
                    e,
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::status_tests::status_write;

    const JOB: &str = r#"{"apiVersion":"batch/v1","kind":"Job",
      "metadata":{"name":"pi","namespace":"default","resourceVersion":"7"},
      "spec":{"backoffLimit":4,"completions":1,"parallelism":1,"completionMode":"NonIndexed",
        "template":{"spec":{"restartPolicy":"Never",
          "containers":[{"name":"pi","image":"perl:5.34"}]}}},
      "status":{"active":1,"ready":1,"startTime":"2024-05-01T10:00:00Z"}}"#;

    const DONE: &str = r#""status":{"succeeded":1,"startTime":"2024-05-01T10:00:00Z",
        "completionTime":"2024-05-01T10:01:00Z","conditions":[
        {"type":"SuccessCriteriaMet","status":"True"},{"type":"Complete","status":"True"}]}"#;

    fn done() -> String {
        let start = JOB.find(r#""status":"#).unwrap();
        format!("{}{DONE}}}", &JOB[..start])
    }

    #[test]
    fn a_job_completes() {
        assert_eq!(status_write(37, JOB, &done()), None);
        assert_eq!(status_write(37, &done(), &done()), None);
    }

    #[test]
    fn counters_are_not_negative() {
        let bad = JOB.replace(r#""ready":1"#, r#""ready":-1"#);
        assert_eq!(
            status_write(30, JOB, &bad).unwrap(),
            "The Job \"pi\" is invalid: status.ready: Invalid value: -1: must be greater than or equal to 0"
        );
    }

    #[test]
    fn a_complete_job_needs_a_completion_time_from_1_32() {
        let bad = done().replace(r#""completionTime":"2024-05-01T10:01:00Z","#, "");
        assert_eq!(
            status_write(32, JOB, &bad).unwrap(),
            "The Job \"pi\" is invalid: status.completionTime: Required value: completionTime is required for Complete jobs"
        );
        assert_eq!(status_write(31, JOB, &bad), None);
    }

    #[test]
    fn a_finished_job_counts_all_its_pods() {
        let bad = done().replace(
            r#""succeeded":1,"#,
            r#""succeeded":1,"uncountedTerminatedPods":{"succeeded":["9c1f"]},"#,
        );
        assert_eq!(
            status_write(36, JOB, &bad).unwrap(),
            r#"The Job "pi" is invalid: status.uncountedTerminatedPods: Invalid value: {"Succeeded":["9c1f"],"Failed":null}: must be empty for finished job"#
        );
        assert_eq!(
            status_write(33, JOB, &bad).unwrap(),
            r#"The Job "pi" is invalid: status.uncountedTerminatedPods: Invalid value: batch.UncountedTerminatedPods{Succeeded:[]types.UID{"9c1f"}, Failed:[]types.UID(nil)}: uncountedTerminatedPods needs to be empty for finished job"#
        );
        // Only checked when finishing or when the list changes.
        assert_eq!(status_write(36, &bad, &bad), None);
        assert_eq!(status_write(31, JOB, &bad), None);
    }

    #[test]
    fn terminal_conditions_stay() {
        let bad = done().replace(
            r#"{"type":"Complete","status":"True"}"#,
            r#"{"type":"Complete","status":"False"}"#,
        );
        assert_eq!(
            status_write(37, &done(), &bad).unwrap(),
            "The Job \"pi\" is invalid: \n\
             * status.completionTime: Invalid value: \"2024-05-01T10:01:00Z\": cannot set completionTime when there is no Complete=True condition\n\
             * status.conditions: Invalid value: cannot disable the terminal Complete=True condition"
        );
    }
}
