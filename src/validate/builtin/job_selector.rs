//! The selector of a Job: the one k8s.io/kubernetes pkg/registry/batch/job/strategy.go
//! generates on create (`PrepareForCreate` → `generateSelector`, unless `manualSelector: true`)
//! and how pkg/apis/batch/validation/validation.go checks it (`validateGeneratedSelector`, and
//! the selector half of `ValidateJobSpec`).

use super::super::{FieldError, Write};
use super::selector::{self, quoted, quoted_labels, Selector};
use super::workloads::SELECTOR_MISMATCH;
use crate::value::{Map, Value};
use std::borrow::Cow;

/// The uid kssa gives a created Job where the server would put the one it generates (the
/// create handler's `FillObjectMetaSystemFields`, a random UUID): the nil UUID, so messages
/// that quote the generated selector or labels say plainly that the value is a stand-in.
pub const GENERATED_UID: &str = "00000000-0000-0000-0000-000000000000";

/// `batch.LegacyJobNameLabel`, `batch.LegacyControllerUidLabel` and the prefixed
/// `batch.JobNameLabel`, `batch.ControllerUidLabel` (both pairs in every release kssa knows,
/// 1.30–1.37; the prefixed ones exist since 1.27).
const LEGACY_JOB_NAME: &str = "job-name";
const LEGACY_CONTROLLER_UID: &str = "controller-uid";
const JOB_NAME: &str = "batch.kubernetes.io/job-name";
const CONTROLLER_UID: &str = "batch.kubernetes.io/controller-uid";

const NOT_AUTO_GENERATED: &str = "`selector` not auto-generated";

fn manual(object: &Value) -> bool {
    object
        .get_path(&["spec", "manualSelector"])
        .and_then(Value::as_bool)
        == Some(true)
}

fn meta<'v>(object: &'v Value, key: &str) -> &'v str {
    object
        .get_path(&["metadata", key])
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// The Job as the strategy's `Validate` sees it: on a create without `manualSelector: true`,
/// with a uid ([`GENERATED_UID`]) and the selector and template labels `generateSelector`
/// adds; otherwise as it is (an update generates nothing).
pub fn prepared<'v>(w: &Write, object: &'v Value) -> Cow<'v, Value> {
    if w.is_update() || manual(object) {
        return Cow::Borrowed(object);
    }
    let mut job = object.clone();
    let name = Value::String(meta(object, "name").to_string());
    let uid = Value::String(GENERATED_UID.into());
    map_at(&mut job, &["metadata"]).insert("uid".into(), uid.clone());
    // Labels the user already set are kept: a conflicting value is refused below.
    let labels = map_at(&mut job, &["spec", "template", "metadata", "labels"]);
    for (key, value) in [
        (LEGACY_JOB_NAME, &name),
        (JOB_NAME, &name),
        (LEGACY_CONTROLLER_UID, &uid),
        (CONTROLLER_UID, &uid),
    ] {
        labels.entry(key.into()).or_insert_with(|| value.clone());
    }
    // The selector gets the prefixed controller-uid label only.
    map_at(&mut job, &["spec", "selector", "matchLabels"])
        .entry(CONTROLLER_UID.into())
        .or_insert(uid);
    Cow::Owned(job)
}

/// The map at `path` in `value`, made (over a missing field or `null`) where absent.
fn map_at<'v>(value: &'v mut Value, path: &[&str]) -> &'v mut Map {
    let mut node = value;
    for key in path {
        if !matches!(node, Value::Map(_)) {
            *node = Value::Map(Map::default());
        }
        let Value::Map(m) = node else { unreachable!() };
        let child = m
            .entry((*key).to_string())
            .or_insert_with(|| Value::Map(Map::default()));
        if !matches!(child, Value::Map(_)) {
            *child = Value::Map(Map::default());
        }
        node = child;
    }
    match node {
        Value::Map(m) => m,
        _ => unreachable!("made a map above"),
    }
}

/// `validateGeneratedSelector` of the [`prepared`] Job: without `manualSelector: true`, the
/// template must carry the generated labels with the Job's uid and name, and the selector must
/// select exactly those. The prefixed labels are required on create and on an update of a Job
/// whose stored template has both (the strategy's `RequirePrefixedLabels`).
pub fn validate_generated(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = object.get("spec");
    let sel = spec
        .and_then(|s| s.get("selector"))
        .filter(|s| !s.is_null());
    let Some(sel) = sel.filter(|_| !manual(object)) else {
        return;
    };
    let uid = meta(object, "uid");
    // A stored Job always has a uid; a live snapshot without one gives nothing to compare.
    if uid.is_empty() {
        return;
    }
    let name = meta(object, "name");
    let labels = spec.and_then(|s| s.get_path(&["template", "metadata", "labels"]));
    let mut expected = vec![(LEGACY_CONTROLLER_UID, uid), (LEGACY_JOB_NAME, name)];
    if require_prefixed(w) {
        expected.extend([(CONTROLLER_UID, uid), (JOB_NAME, name)]);
    }
    for (key, value) in &expected {
        has_label(labels, key, value, errors);
    }
    let expected: Map = expected
        .iter()
        .map(|(k, v)| ((*k).to_string(), Value::String((*v).to_string())))
        .collect();
    let converted = Selector::of(Some(sel));
    if converted.converts() && !converted.matches(Some(&Value::Map(expected))) {
        errors.push(FieldError::invalid(
            "spec.selector",
            quoted(Some(sel)),
            NOT_AUTO_GENERATED,
        ));
    }
}

/// `RequirePrefixedLabels` of the strategy's `validationOptionsForJob`.
fn require_prefixed(w: &Write) -> bool {
    let Some(live) = w.live else {
        return true;
    };
    let labels = live.get_path(&["spec", "template", "metadata", "labels"]);
    let has = |k: &str| labels.and_then(|l| l.get(k)).is_some();
    has(JOB_NAME) && has(CONTROLLER_UID)
}

/// pkg/apis/core/validation `ValidateHasLabel` on the template's metadata.
fn has_label(labels: Option<&Value>, key: &str, want: &str, errors: &mut Vec<FieldError>) {
    let path = format!("spec.template.metadata.labels[{key}]");
    let detail = format!("must be '{want}'");
    match labels.and_then(|l| l.get(key)) {
        None => errors.push(FieldError::required(path, detail)),
        Some(v) if v.as_str() != Some(want) => {
            errors.push(FieldError::invalid(path, quoted_labels(labels), detail));
        }
        Some(_) => {}
    }
}

/// The selector checks that close `ValidateJobSpec`: a selector is required and valid, and it
/// must match the template's labels. An update over a live snapshot without the selector the
/// server would have generated (and without `manualSelector: true`) is not checked.
pub fn spec_selector(w: &Write, object: &Value, errors: &mut Vec<FieldError>) {
    let spec = object.get("spec");
    let sel = spec
        .and_then(|s| s.get("selector"))
        .filter(|s| !s.is_null());
    let live_sel = w
        .live
        .and_then(|l| l.get_path(&["spec", "selector"]))
        .is_some_and(|s| !s.is_null());
    if sel.is_none() && !manual(object) && w.is_update() && !live_sel {
        return;
    }
    match sel {
        None => errors.push(FieldError::required("spec.selector", "")),
        Some(s) => {
            let stored = w.live.and_then(|l| l.get_path(&["spec", "selector"]));
            let values = selector::values_after(stored, w.version());
            selector::validate_with(s, "spec.selector", values, w.version(), errors)
        }
    }
    let converted = Selector::of(sel);
    let labels = spec.and_then(|s| s.get_path(&["template", "metadata", "labels"]));
    // A missing selector converts to one that matches nothing.
    if converted.converts() && !converted.matches(labels) {
        errors.push(FieldError::invalid(
            "spec.template.metadata.labels",
            quoted_labels(labels),
            SELECTOR_MISMATCH,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::refusal_over_stored as refusal;
    use super::GENERATED_UID;

    const JOB: &str = r#"{"apiVersion":"batch/v1","kind":"Job",
      "metadata":{"name":"pi","namespace":"default"},
      "spec":{SELECTOR"template":{"metadata":{"labels":{"app":"pi"}},"spec":{
        "containers":[{"name":"pi","image":"perl"}],"restartPolicy":"Never"}}}}"#;

    fn job(selector: &str) -> String {
        JOB.replace("SELECTOR", selector)
    }

    #[test]
    fn a_job_without_selector_gets_one() {
        assert_eq!(refusal(&job(""), None, 37), None);
        assert_eq!(refusal(&job(""), None, 30), None);
        // An empty selector is completed by the generated label.
        assert_eq!(refusal(&job(r#""selector":{},"#), None, 37), None);
    }

    #[test]
    fn a_manual_selector_must_match() {
        let manual = job(r#""manualSelector":true,"selector":{"matchLabels":{"app":"pi"}},"#);
        assert_eq!(refusal(&manual, None, 37), None);
        assert_eq!(
            refusal(
                &manual.replace(r#"Labels":{"app":"pi"}"#, r#"Labels":{"app":"x"}"#),
                None,
                37
            )
            .unwrap(),
            r#"The Job "pi" is invalid: spec.template.metadata.labels: Invalid value: {"app":"pi"}: `selector` does not match template `labels`"#
        );
        assert_eq!(
            refusal(&job(r#""manualSelector":true,"#), None, 37).unwrap(),
            "The Job \"pi\" is invalid: \n* spec.selector: Required value\n* spec.template.metadata.labels: Invalid value: {\"app\":\"pi\"}: `selector` does not match template `labels`"
        );
    }

    #[test]
    fn a_user_selector_is_not_auto_generated() {
        let sel = job(r#""selector":{"matchLabels":{"app":"pi"}},"#);
        let u = GENERATED_UID;
        assert_eq!(
            refusal(&sel, None, 37).unwrap(),
            format!("The Job \"pi\" is invalid: spec.selector: Invalid value: {{\"matchLabels\":{{\"app\":\"pi\",\"batch.kubernetes.io/controller-uid\":\"{u}\"}}}}: `selector` not auto-generated")
        );
        assert_eq!(
            refusal(&sel, None, 33).unwrap(),
            format!("The Job \"pi\" is invalid: spec.selector: Invalid value: v1.LabelSelector{{MatchLabels:map[string]string{{\"app\":\"pi\", \"batch.kubernetes.io/controller-uid\":\"{u}\"}}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}}: `selector` not auto-generated")
        );
        // Labels the template lacks: the template, with the generated labels, is quoted too.
        let other = job(r#""selector":{"matchLabels":{"tier":"x"}},"#);
        assert_eq!(
            refusal(&other, None, 37).unwrap(),
            format!("The Job \"pi\" is invalid: \n* spec.selector: Invalid value: {{\"matchLabels\":{{\"batch.kubernetes.io/controller-uid\":\"{u}\",\"tier\":\"x\"}}}}: `selector` not auto-generated\n* spec.template.metadata.labels: Invalid value: {{\"app\":\"pi\",\"batch.kubernetes.io/controller-uid\":\"{u}\",\"batch.kubernetes.io/job-name\":\"pi\",\"controller-uid\":\"{u}\",\"job-name\":\"pi\"}}: `selector` does not match template `labels`")
        );
    }

    #[test]
    fn template_labels_must_be_the_generated_ones() {
        let named = JOB
            .replace("SELECTOR", "")
            .replace(r#"{"app":"pi"}"#, r#"{"app":"pi","job-name":"other"}"#);
        assert_eq!(
            refusal(&named, None, 37).unwrap(),
            r#"The Job "pi" is invalid: spec.template.metadata.labels[job-name]: Invalid value: {"app":"pi","batch.kubernetes.io/controller-uid":"00000000-0000-0000-0000-000000000000","batch.kubernetes.io/job-name":"pi","controller-uid":"00000000-0000-0000-0000-000000000000","job-name":"other"}: must be 'pi'"#
        );
    }

    const LIVE: &str = r#"{"apiVersion":"batch/v1","kind":"Job",
      "metadata":{"name":"pi","namespace":"default","uid":"u-1"},
      "spec":{"selector":{"matchLabels":{"controller-uid":"u-1"}},
        "template":{"metadata":{"labels":{"controller-uid":"u-1","job-name":"pi"}},"spec":{
        "containers":[{"name":"pi","image":"perl"}],"restartPolicy":"Never"}}}}"#;

    #[test]
    fn an_update_keeps_the_stored_selector() {
        // A Job stored before the prefixed labels: only the legacy ones are required.
        assert_eq!(refusal(LIVE, Some(LIVE), 37), None);
        let prefixed = LIVE
            .replace(
                r#"{"controller-uid":"u-1"}}"#,
                r#"{"batch.kubernetes.io/controller-uid":"u-1"}}"#,
            )
            .replace(
                r#""job-name":"pi""#,
                r#""job-name":"pi","batch.kubernetes.io/job-name":"pi","batch.kubernetes.io/controller-uid":"u-1""#,
            );
        assert_eq!(refusal(&prefixed, Some(&prefixed), 37), None);
        // Dropping a prefixed label the stored template had.
        let dropped = prefixed.replace(r#","batch.kubernetes.io/job-name":"pi""#, "");
        assert_eq!(
            refusal(&dropped, Some(&prefixed), 37)
                .unwrap()
                .lines()
                .next()
                .unwrap(),
            "The Job \"pi\" is invalid: "
        );
        assert!(refusal(&dropped, Some(&prefixed), 37)
            .unwrap()
            .contains("spec.template.metadata.labels[batch.kubernetes.io/job-name]: Required value: must be 'pi'"));
        // A selector added over the stored one.
        let added = LIVE.replace(
            r#"{"controller-uid":"u-1"}}"#,
            r#"{"controller-uid":"u-1","app":"pi"}}"#,
        );
        assert!(refusal(&added, Some(LIVE), 37)
            .unwrap()
            .contains("* spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"pi\",\"controller-uid\":\"u-1\"}}: `selector` not auto-generated\n"));
    }
}
