//! The warnings of the kinds that hold a pod spec: Pods, pod templates and the workload
//! controllers (k8s.io/kubernetes pkg/registry/{core/pod,core/podtemplate,
//! core/replicationcontroller,apps/*,batch/*}/strategy.go `WarningsOnCreate`,
//! `WarningsOnUpdate`; pkg/api/job/warnings.go `WarningsForJobSpec`).
//!
//! On update the controllers warn about their template only when the write bumps the
//! generation (`PrepareForUpdate`: a changed spec; for Deployments also changed annotations;
//! for DaemonSets a changed template, the template generation).

use super::super::super::{formats, Write};
use super::super::fields::{child, items, present, spec};
use super::pod::{self, Template};
use crate::kube::VersionRange;
use crate::value::Value;

/// The StatefulSet warning for a negative `revisionHistoryLimit` (1.33–).
const NEGATIVE_HISTORY_LIMIT: VersionRange = VersionRange::since(33);
/// `completionsSoftLimit`, `parallelismSoftLimitForUnlimitedCompletions`.
const COMPLETIONS_SOFT_LIMIT: i64 = 100_000;
const PARALLELISM_SOFT_LIMIT: i64 = 10_000;

/// The pod template under `at` (`spec.template`, `template`, …) of `object`.
fn template<'v>(object: &'v Value, path: &[&str], at: &'v str) -> Template<'v> {
    let template = object.get_path(path).unwrap_or(&Value::Null);
    Template {
        at,
        spec: child(template, "spec"),
        meta: child(template, "metadata"),
    }
}

/// `metadata.name: this is used in … a DNS label is recommended: [<messages>]` for names that
/// are subdomains but no DNS labels (Go prints the message list with `%v`).
fn name_warning(object: &Value, used_in: &str, out: &mut Vec<String>) {
    let name = object
        .get_path(&["metadata", "name"])
        .and_then(Value::as_str)
        .unwrap_or("");
    let messages = formats::dns1123_label(name);
    if !messages.is_empty() {
        out.push(format!(
            "metadata.name: this is used in {used_in}, which can result in surprising behavior; a DNS label is recommended: [{}]",
            messages.join(" ")
        ));
    }
}

/// Whether an update bumps the generation: the spec (or `extra` field of the object)
/// changed.
fn generation_bumped(w: &Write, object: &Value, path: &[&str], extra: Option<&[&str]>) -> bool {
    let Some(live) = w.live else {
        return true;
    };
    // The stored object as read lacks the type of StatefulSet claim templates, which the
    // write's result has (the server's typed objects always carry it).
    let typed;
    let live = if w.kind.gvk.kind == "StatefulSet" {
        let mut copy = live.clone();
        crate::kube::storage::type_claim_templates(&mut copy);
        typed = copy;
        &typed
    } else {
        live
    };
    let changed = |p: &[&str]| object.get_path(p) != live.get_path(p);
    changed(path) || extra.is_some_and(changed)
}

pub fn pod(w: &Write, object: &Value, out: &mut Vec<String>) {
    if w.is_update() {
        return;
    }
    super::pod_containers::pod_apparmor_skew(w.body, w.version(), out);
    name_warning(object, "the Pod's hostname", out);
    let t = Template {
        at: "",
        spec: spec(object),
        meta: child(object, "metadata"),
    };
    pod::spec_and_meta(&t, w.version(), out);
}

pub fn pod_template(w: &Write, object: &Value, out: &mut Vec<String>) {
    if generation_bumped(w, object, &["template"], None) {
        pod::spec_and_meta(
            &template(object, &["template"], "template"),
            w.version(),
            out,
        );
    }
}

/// Deployments and ReplicaSets.
pub fn deployment(w: &Write, object: &Value, out: &mut Vec<String>) {
    let annotations: &[&str] = &["metadata", "annotations"];
    let extra = (w.kind.gvk.kind == "Deployment").then_some(annotations);
    if !w.is_update() {
        name_warning(object, "Pod names and hostnames", out);
    }
    if generation_bumped(w, object, &["spec"], extra) {
        let t = template(object, &["spec", "template"], "spec.template");
        pod::spec_and_meta(&t, w.version(), out);
    }
}

pub fn daemon_set(w: &Write, object: &Value, out: &mut Vec<String>) {
    if generation_bumped(w, object, &["spec", "template"], None) {
        let t = template(object, &["spec", "template"], "spec.template");
        pod::spec_and_meta(&t, w.version(), out);
    }
}

pub fn stateful_set(w: &Write, object: &Value, out: &mut Vec<String>) {
    if generation_bumped(w, object, &["spec"], None) {
        let t = template(object, &["spec", "template"], "spec.template");
        pod::spec_and_meta(&t, w.version(), out);
    }
    // On update upstream names the claim's spec with the Go field name (`….Spec`).
    let spec_suffix = if w.is_update() { ".Spec" } else { "" };
    for (i, claim) in items(spec(object).get("volumeClaimTemplates"))
        .iter()
        .enumerate()
    {
        let at = format!("spec.volumeClaimTemplates[{i}]{spec_suffix}");
        let claim_spec = claim.get("spec").unwrap_or(&Value::Null);
        super::claims::claim_spec(claim_spec, &at, w.version(), out);
    }
    let negative = present(spec(object), "revisionHistoryLimit")
        .and_then(Value::as_i64)
        .is_some_and(|l| l < 0);
    if negative && NEGATIVE_HISTORY_LIMIT.contains(w.version()) {
        out.push(
            "spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended"
                .into(),
        );
    }
}

pub fn replication_controller(w: &Write, object: &Value, out: &mut Vec<String>) {
    if !w.is_update() {
        name_warning(object, "Pod names and hostnames", out);
    }
    // On update upstream passes the stored template where the new one belongs
    // (`GetWarningsForPodTemplate(…, oldRc.Spec.Template, newRc.Spec.Template)`): the
    // warnings are the stored template's.
    let source = w.live.unwrap_or(object);
    if generation_bumped(w, object, &["spec"], None) {
        let t = template(source, &["spec", "template"], "spec.template");
        pod::spec_and_meta(&t, w.version(), out);
    }
}

pub fn job(w: &Write, object: &Value, out: &mut Vec<String>) {
    if !w.is_update() {
        name_warning(object, "Pod names and hostnames", out);
    }
    if generation_bumped(w, object, &["spec"], None) {
        job_spec(w, object, &["spec"], "spec", out);
    }
}

pub fn cron_job(w: &Write, object: &Value, out: &mut Vec<String>) {
    if !w.is_update() {
        name_warning(object, "Pod names and hostnames", out);
    }
    if generation_bumped(w, object, &["spec"], None) {
        job_spec(
            w,
            object,
            &["spec", "jobTemplate", "spec"],
            "spec.jobTemplate.spec",
            out,
        );
    }
    let schedule = spec(object)
        .get("schedule")
        .and_then(Value::as_str)
        .unwrap_or("");
    // On create a time zone in the schedule is refused by validation.
    if w.is_update() && schedule.contains("TZ") {
        out.push("cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details".into());
    }
}

/// `WarningsForJobSpec`: large indexed jobs, then the pod template.
fn job_spec(w: &Write, object: &Value, path: &[&str], at: &str, out: &mut Vec<String>) {
    let job_spec = object.get_path(path).unwrap_or(&Value::Null);
    let number = |k: &str| present(job_spec, k).and_then(Value::as_i64).unwrap_or(0);
    let indexed = job_spec.get("completionMode").and_then(Value::as_str) == Some("Indexed");
    if indexed
        && number("completions") > COMPLETIONS_SOFT_LIMIT
        && number("parallelism") > PARALLELISM_SOFT_LIMIT
    {
        out.push(format!("{at}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail"));
    }
    let template_at = format!("{at}.template");
    let mut template_path = path.to_vec();
    template_path.push("template");
    let t = template(object, &template_path, &template_at);
    pod::spec_and_meta(&t, w.version(), out);
}
