//! Jobs and CronJobs on small objects: schedules, time zones, Indexed Jobs, pod failure
//! policies, and what an update may change.

use super::super::tests::refusal_over_stored as refusal;

const CRONJOB: &str = r#"{"apiVersion":"batch/v1","kind":"CronJob",
  "metadata":{"name":"hello","namespace":"default"},
  "spec":{"schedule":"*/1 * * * *","jobTemplate":{"spec":{"template":{"spec":{
    "containers":[{"name":"hello","image":"busybox"}],"restartPolicy":"OnFailure"}}}}}}"#;

const JOB: &str = r#"{"apiVersion":"batch/v1","kind":"Job",
  "metadata":{"name":"pi","namespace":"default"},
  "spec":{"template":{"spec":{
    "containers":[{"name":"pi","image":"perl"}],"restartPolicy":"Never"}}}}"#;

fn cron_with(schedule: &str) -> String {
    CRONJOB.replace("*/1 * * * *", schedule)
}

#[test]
fn valid_batch_objects_pass() {
    assert_eq!(refusal(CRONJOB, None, 37), None);
    assert_eq!(refusal(JOB, None, 30), None);
    let zoned = CRONJOB.replace(r#""schedule""#, r#""timeZone":"Europe/Paris","schedule""#);
    assert_eq!(refusal(&zoned, None, 37), None);
}

#[test]
fn schedules_are_parsed_as_robfig_cron() {
    assert_eq!(
        refusal(&cron_with("61 * * * *"), None, 37).unwrap(),
        "The CronJob \"hello\" is invalid: spec.schedule: Invalid value: \"61 * * * *\": end of range (61) above maximum (59): 61"
    );
    assert_eq!(
        refusal(&cron_with("0 0 * *"), None, 30).unwrap(),
        "The CronJob \"hello\" is invalid: spec.schedule: Invalid value: \"0 0 * *\": expected exactly 5 fields, found 4: [0 0 * *]"
    );
}

#[test]
fn tz_in_schedule_is_refused_unless_already_stored() {
    let tz = cron_with("CRON_TZ=UTC 0 * * * *");
    assert_eq!(
        refusal(&tz, None, 37).unwrap(),
        "The CronJob \"hello\" is invalid: spec.schedule: Invalid value: \"CRON_TZ=UTC 0 * * * *\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead"
    );
    // An update that keeps a TZ the stored schedule had is accepted, not with timeZone too.
    assert_eq!(refusal(&tz, Some(&tz), 37), None);
    let both = tz.replace(r#""schedule""#, r#""timeZone":"UTC","schedule""#);
    assert_eq!(
        refusal(&both, Some(&tz), 37).unwrap(),
        "The CronJob \"hello\" is invalid: spec.schedule: Invalid value: \"CRON_TZ=UTC 0 * * * *\": cannot use both timeZone field and TZ or CRON_TZ in schedule"
    );
    // An unknown zone: the parser's error, then the TZ rule.
    assert_eq!(
        refusal(&cron_with("TZ=Mars/Base 0 * * * *"), None, 37).unwrap(),
        "The CronJob \"hello\" is invalid: \n* spec.schedule: Invalid value: \"TZ=Mars/Base 0 * * * *\": provided bad location Mars/Base: unknown time zone Mars/Base\n* spec.schedule: Invalid value: \"TZ=Mars/Base 0 * * * *\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead"
    );
}

#[test]
fn time_zones_are_checked_on_create_and_change() {
    let zone =
        |z: &str| CRONJOB.replace(r#""schedule""#, &format!(r#""timeZone":"{z}","schedule""#));
    let message = |z: &str| refusal(&zone(z), None, 37).unwrap();
    assert_eq!(
        message("Europe/Pariss"),
        "The CronJob \"hello\" is invalid: spec.timeZone: Invalid value: \"Europe/Pariss\": unknown time zone Europe/Pariss"
    );
    assert_eq!(
        message(""),
        "The CronJob \"hello\" is invalid: spec.timeZone: Invalid value: \"\": timeZone must be nil or non-empty string"
    );
    assert_eq!(
        message("Local"),
        "The CronJob \"hello\" is invalid: spec.timeZone: Invalid value: \"Local\": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"
    );
    assert_eq!(
        message("UTC+2"),
        "The CronJob \"hello\" is invalid: spec.timeZone: Invalid value: \"UTC+2\": unknown time zone UTC+2"
    );
    assert_eq!(
        message("America/Very_Long_City_Name"),
        "The CronJob \"hello\" is invalid: spec.timeZone: Invalid value: \"America/Very_Long_City_Name\": unknown time zone America/Very_Long_City_Name"
    );
    // An unchanged zone is not checked again on update.
    assert_eq!(
        refusal(&zone("Mars/Base"), Some(&zone("Mars/Base")), 37),
        None
    );
}

#[test]
fn cronjob_template_rules() {
    let bad = CRONJOB
        .replace(r#""jobTemplate":{"spec":{"#, r#""successfulJobsHistoryLimit":-1,"jobTemplate":{"spec":{"manualSelector":true,"ttlSecondsAfterFinished":-5,"#)
        .replace("OnFailure", "Always");
    assert_eq!(
        refusal(&bad, None, 37).unwrap(),
        "The CronJob \"hello\" is invalid: \n* spec.jobTemplate.spec.ttlSecondsAfterFinished: Invalid value: -5: must be greater than or equal to 0\n* spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"\n* spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: \"nil\", \"false\"\n* spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0"
    );
}

#[test]
fn indexed_jobs() {
    let indexed = JOB.replace(r#""template""#, r#""completionMode":"Indexed","template""#);
    // Defaulting sets completions to 1 when neither count is given.
    assert_eq!(refusal(&indexed, None, 37), None);
    let no_completions =
        indexed.replace(r#""completionMode""#, r#""parallelism":3,"completionMode""#);
    assert_eq!(
        refusal(&no_completions, None, 37).unwrap(),
        "The Job \"pi\" is invalid: spec.completions: Required value: when completion mode is Indexed"
    );
    let per_index = JOB.replace(
        r#""template""#,
        r#""backoffLimitPerIndex":1,"maxFailedIndexes":2,"template""#,
    );
    assert_eq!(
        refusal(&per_index, None, 37).unwrap(),
        "The Job \"pi\" is invalid: \n* spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode\n* spec.maxFailedIndexes: Invalid value: 2: requires indexed completion mode"
    );
    let mode = JOB.replace(r#""template""#, r#""completionMode":"indexed","template""#);
    assert_eq!(
        refusal(&mode, None, 37).unwrap(),
        "The Job \"pi\" is invalid: spec.completionMode: Unsupported value: \"indexed\": supported values: \"NonIndexed\", \"Indexed\""
    );
    let long = indexed
        .replace(r#""name":"pi""#, &format!(r#""name":"{}""#, "p".repeat(60)))
        .replace(
            r#""completionMode""#,
            r#""completions":1000,"parallelism":1,"completionMode""#,
        );
    assert!(refusal(&long, None, 37)
        .unwrap()
        .ends_with("will not able to create pod with invalid DNS label: pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp-999"));
}

#[test]
fn pod_failure_policies() {
    let policy = |rules: &str| {
        JOB.replace(
            r#""template""#,
            &format!(r#""podFailurePolicy":{{"rules":[{rules}]}},"template""#),
        )
    };
    let ok = policy(
        r#"{"action":"FailJob","onExitCodes":{"containerName":"pi","operator":"In","values":[1,42]}}"#,
    );
    assert_eq!(refusal(&ok, None, 37), None);
    let bad = policy(
        r#"{"action":"Retry","onExitCodes":{"containerName":"main","operator":"In","values":[0,3,3,1]}}"#,
    );
    assert_eq!(
        refusal(&bad, None, 34).unwrap(),
        "The Job \"pi\" is invalid: \n* spec.podFailurePolicy.rules[0].action: Unsupported value: \"Retry\": supported values: \"Count\", \"FailIndex\", \"FailJob\", \"Ignore\"\n* spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: \"main\": must be one of the container or initContainer names in the pod template\n* spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator\n* spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3\n* spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,3,3,1]: must be ordered"
    );
    let neither = policy(r#"{"action":"Ignore"}"#).replace("Never", "OnFailure");
    assert_eq!(
        refusal(&neither, None, 33).unwrap(),
        "The Job \"pi\" is invalid: \n* spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required\n* spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported when podFailurePolicy is specified"
    );
    let empty = policy(r#"{"action":"Count","onExitCodes":{"operator":"NotIn","values":[]}}"#);
    assert!(refusal(&empty, None, 33)
        .unwrap()
        .ends_with("spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{}: at least one value is required"));
}

#[test]
fn job_updates_keep_what_is_immutable() {
    let indexed = JOB.replace(
        r#""template""#,
        r#""completionMode":"Indexed","completions":3,"parallelism":3,"template""#,
    );
    let scaled = indexed.replace(
        r#""completions":3,"parallelism":3"#,
        r#""completions":5,"parallelism":5"#,
    );
    assert_eq!(refusal(&scaled, Some(&indexed), 37), None);
    let alone = indexed.replace(r#""completions":3"#, r#""completions":5"#);
    assert_eq!(
        refusal(&alone, Some(&indexed), 37).unwrap(),
        "The Job \"pi\" is invalid: spec.completions: Invalid value: 5: can only be modified in tandem with spec.parallelism"
    );
    let mode = indexed.replace("Indexed", "NonIndexed");
    assert_eq!(
        refusal(&mode, Some(&indexed), 37).unwrap(),
        "The Job \"pi\" is invalid: spec.completionMode: Invalid value: \"NonIndexed\": field is immutable"
    );
    // A suspended Job that never started may change its node selector.
    let suspended = JOB.replace(r#""template""#, r#""suspend":true,"template""#);
    let moved = suspended.replace(
        r#""restartPolicy""#,
        r#""nodeSelector":{"pool":"b"},"restartPolicy""#,
    );
    assert_eq!(refusal(&moved, Some(&suspended), 37), None);
    assert!(refusal(
        &moved.replace("true", "false"),
        Some(&suspended.replace("true", "false")),
        37
    )
    .unwrap()
    .contains("spec.template: Invalid value"));
}

fn job_with(fields: &str) -> String {
    JOB.replace(
        r#""spec":{"template""#,
        &format!(r#""spec":{{{fields},"template""#),
    )
}

#[test]
fn success_policies_need_an_indexed_job_and_valid_rules() {
    let plain = job_with(r#""successPolicy":{"rules":[{"succeededIndexes":"0"}]}"#);
    assert_eq!(
        refusal(&plain, None, 37).unwrap(),
        "The Job \"pi\" is invalid: spec.successPolicy: Invalid value: {\"Rules\":[{\"SucceededIndexes\":\"0\",\"SucceededCount\":null}]}: requires indexed completion mode"
    );
    // 1.30 drops the field (JobSuccessPolicy alpha).
    assert_eq!(refusal(&plain, None, 30), None);
    let indexed = |policy: &str| {
        job_with(&format!(
            r#""completionMode":"Indexed","completions":5,"parallelism":5,"successPolicy":{policy}"#
        ))
    };
    assert_eq!(
        refusal(
            &indexed(r#"{"rules":[{"succeededIndexes":"0-2,4","succeededCount":2}]}"#),
            None,
            37
        ),
        None
    );
    assert_eq!(
        refusal(&indexed(r#"{"rules":[]}"#), None, 37).unwrap(),
        "The Job \"pi\" is invalid: spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified"
    );
    assert_eq!(
        refusal(&indexed(r#"{"rules":[{"succeededIndexes":"1,5","succeededCount":6},{}]}"#), None, 37).unwrap(),
        "The Job \"pi\" is invalid: \n* spec.successPolicy.rules[0].succeededIndexes: Invalid value: \"1,5\": error parsing succeededIndexes: too large index: \"5\"\n* spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of specified completions)\n* spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 0 (the number of indexes in the specified succeededIndexes field)\n* spec.successPolicy.rules[1]: Required value: at least one of succeededCount or succeededIndexes must be specified"
    );
    // Immutable once stored.
    let stored = indexed(r#"{"rules":[{"succeededCount":1}]}"#);
    assert_eq!(
        refusal(&indexed(r#"{"rules":[{"succeededCount":2}]}"#), Some(&stored), 37).unwrap(),
        "The Job \"pi\" is invalid: spec.successPolicy: Invalid value: {\"Rules\":[{\"SucceededIndexes\":null,\"SucceededCount\":2}]}: field is immutable"
    );
}

#[test]
fn pod_condition_types_are_qualified_names() {
    let job = job_with(
        r#""podFailurePolicy":{"rules":[{"action":"Ignore","onPodConditions":[{"type":"Disruption/Target/X","status":"True"}]}]}"#,
    );
    assert_eq!(
        refusal(&job, None, 34).unwrap(),
        "The Job \"pi\" is invalid: spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: \"Disruption/Target/X\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
    );
}
