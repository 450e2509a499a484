//! CronJobs, as k8s.io/kubernetes pkg/apis/batch/validation checks them
//! (`ValidateCronJobCreate`/`ValidateCronJobUpdate`, `validateCronJobSpec`,
//! `validateScheduleFormat`, `validateTimeZone`, `ValidateJobTemplateSpec`): the schedule's
//! syntax ([`super::cron`]), its time zone ([`super::tz`]) and the job template.

use super::super::{BadValue, FieldError, Write};
use super::batch::{job_spec, set, text, JobSpecOf};
use super::cron::{self, CronError};
use super::fields::spec;
use super::selector::quoted;
use super::tz;
use super::workloads::non_negative;
use crate::kube::{KubeVersion, VersionRange};
use crate::value::Value;

/// CronJob names leave room for the 11-character suffix of the Jobs they create.
const CRONJOB_NAME_MAX: usize = 52;

/// `ValidateCronJobCreate` / `ValidateCronJobUpdate` (`validateCronJobSpec`).
pub fn cron_job(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = spec(object);
    let old = w.live.map(self::spec);
    schedule(spec, old, w.version(), errors);
    non_negative(
        spec.get("startingDeadlineSeconds"),
        "spec.startingDeadlineSeconds",
        errors,
    );
    let zone = spec.get("timeZone").filter(|z| !z.is_null());
    if old.is_none_or(|o| !semantic_eq_strict(o.get("timeZone"), zone)) {
        if let Some(zone) = zone.and_then(Value::as_str) {
            time_zone(zone, errors);
        }
    }
    match text(spec, "concurrencyPolicy").unwrap_or("") {
        "Allow" | "Forbid" | "Replace" => {}
        "" => errors.push(FieldError::required("spec.concurrencyPolicy", "")),
        other => errors.push(FieldError::not_supported(
            "spec.concurrencyPolicy",
            FieldError::string_value(other),
            &["Allow", "Forbid", "Replace"],
        )),
    }
    job_template(w, spec, errors);
    for key in ["successfulJobsHistoryLimit", "failedJobsHistoryLimit"] {
        non_negative(spec.get(key), &format!("spec.{key}"), errors);
    }
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    if !w.is_update() && name.len() > CRONJOB_NAME_MAX {
        errors.push(FieldError::invalid(
            "metadata.name",
            FieldError::string_value(name),
            format!("must be no more than {CRONJOB_NAME_MAX} characters"),
        ));
    }
}

/// `pointer.StringEqual`: both absent, or both set to the same text.
fn semantic_eq_strict(a: Option<&Value>, b: Option<&Value>) -> bool {
    let a = a.filter(|v| !v.is_null());
    a == b
}

/// `ValidateJobTemplateSpec`: the Job spec, whose selector the controller generates.
fn job_template(w: &Write, spec: &Value, errors: &mut Vec<FieldError>) {
    let empty = Value::Null;
    let job = spec.get_path(&["jobTemplate", "spec"]).unwrap_or(&empty);
    job_spec(w, job, JobSpecOf::CronJobTemplate, errors);
    if let Some(sel) = job.get("selector").filter(|s| !s.is_null()) {
        errors.push(FieldError::invalid(
            "spec.jobTemplate.spec.selector",
            quoted(Some(sel)),
            "`selector` will be auto-generated",
        ));
    }
    if job.get("manualSelector").and_then(Value::as_bool) == Some(true) {
        errors.push(FieldError::not_supported(
            "spec.jobTemplate.spec.manualSelector",
            BadValue::Value(Value::Bool(true)),
            &["nil", "false"],
        ));
    }
}

/// The schedule parser's panics are recovered into a validation error from 1.35.
const PANIC_RECOVERED: VersionRange = VersionRange::since(35);

/// `validateScheduleFormat`: the schedule parses, and has no `TZ=`/`CRON_TZ=` unless the stored
/// schedule already had one (and then not with `timeZone`).
fn schedule(spec: &Value, old: Option<&Value>, version: KubeVersion, errors: &mut Vec<FieldError>) {
    let schedule = text(spec, "schedule").unwrap_or("");
    if schedule.is_empty() {
        errors.push(FieldError::required("spec.schedule", ""));
        return;
    }
    let invalid = |detail: &str| {
        FieldError::invalid("spec.schedule", FieldError::string_value(schedule), detail)
    };
    match cron::parse_standard(schedule) {
        Err(CronError::Invalid(e)) => errors.push(invalid(&e)),
        // robfig/cron slices `spec[eq+1:-1]` for a bare `TZ=…`: from 1.35 the panic is
        // recovered (pkg/util/parsers `ParseCronScheduleWithPanicRecovery`, Go's message checked
        // with Go 1.26); before, it is a 500 and kssa keeps to the TZ rule below.
        Err(CronError::Panics) if PANIC_RECOVERED.contains(version) => errors.push(invalid(
            "invalid schedule format: runtime error: slice bounds out of range [:-1]",
        )),
        _ => {}
    }
    let allow_tz = old
        .and_then(|o| text(o, "schedule"))
        .is_some_and(|s| s.contains("TZ"));
    let has_tz = schedule.contains("TZ");
    if allow_tz && has_tz && set(spec, "timeZone") {
        errors.push(invalid(
            "cannot use both timeZone field and TZ or CRON_TZ in schedule",
        ));
    } else if !allow_tz && has_tz {
        errors.push(invalid(
            "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
        ));
    }
}

/// `validateTimeZone`: not empty, IANA name characters, not `Local`, loadable.
fn time_zone(zone: &str, errors: &mut Vec<FieldError>) {
    let invalid = |detail: String| {
        FieldError::invalid("spec.timeZone", FieldError::string_value(zone), detail)
    };
    if zone.is_empty() {
        errors.push(invalid("timeZone must be nil or non-empty string".into()));
        return;
    }
    let bad_part = |part: &str| {
        part == "."
            || part == ".."
            || part.starts_with('-')
            || !(1..=14).contains(&part.len())
            || !part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-+".contains(c))
    };
    if zone.split('/').any(bad_part) {
        errors.push(invalid(format!("unknown time zone {zone}")));
        return;
    }
    if zone.eq_ignore_ascii_case("Local") {
        errors.push(invalid(
            "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"
                .into(),
        ));
    }
    if let Err(e) = tz::load_location(zone) {
        errors.push(invalid(e));
    }
}
