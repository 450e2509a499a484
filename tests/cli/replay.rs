//! `kssa replay`: every server conformance vector runs through the real binary and passes; a
//! mismatch exits 1 with a diff, bad input exits 2.

use super::support::Scratch;
use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};

fn server_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/server")
}

fn kssa() -> Command {
    // The server vectors were produced by Kubernetes 1.36.
    let mut cmd = Command::cargo_bin("kssa").expect("the kssa binary is built");
    cmd.env("KSSA_KUBE_VERSION", "1.36");
    cmd
}

#[track_caller]
fn replay_passes(name: &str) {
    let file = server_dir().join(format!("{name}.json"));
    kssa()
        .arg("replay")
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with(format!("PASS {name} (")))
        .stdout(predicate::str::ends_with(
            "1 scenarios, 1 passed, 0 failed\n",
        ));
}

macro_rules! vectors {
    ($($test:ident => $name:literal,)*) => {
        $(#[test] fn $test() { replay_passes($name); })*
        const VECTORS: &[&str] = &[$($name),*];
    };
}

vectors! {
    v01_create_by_apply => "01-create-by-apply",
    v02_reapply_identical_noop => "02-reapply-identical-noop",
    v03_prune_dropped_field => "03-prune-dropped-field",
    v04_prune_map_list_item => "04-prune-map-list-item",
    v05_prune_set_item_finalizers => "05-prune-set-item-finalizers",
    v06_shared_value_one_drops => "06-shared-value-one-drops",
    v07_update_then_conflicting_apply => "07-update-then-conflicting-apply",
    v08_forced_apply_moves_ownership => "08-forced-apply-moves-ownership",
    v09_apply_same_value_shares => "09-apply-same-value-shares",
    v10_update_owns_only_changed_fields => "10-update-owns-only-changed-fields",
    v11_before_first_apply => "11-before-first-apply",
    v12_ancient_changes_cap => "12-ancient-changes-cap",
    v13_kubectl_last_applied_upgrade => "13-kubectl-last-applied-upgrade",
    v14_kubectl_last_applied_disallowed => "14-kubectl-last-applied-disallowed",
    v15_last_applied_other_manager => "15-last-applied-other-manager",
    v16_status_subresource_update => "16-status-subresource-update",
    v17_reset_managed_fields => "17-reset-managed-fields",
    v18_reset_with_empty_list => "18-reset-with-empty-list",
    v19_update_rewrites_managed_fields => "19-update-rewrites-managed-fields",
    v20_apply_with_managed_fields_error => "20-apply-with-managed-fields-error",
    v21_apply_duplicate_keys_error => "21-apply-duplicate-keys-error",
    v22_live_duplicate_env_then_apply => "22-live-duplicate-env-then-apply",
    v23_atomic_list_args => "23-atomic-list-args",
    v24_granular_labels => "24-granular-labels",
    v25_atomic_selector => "25-atomic-selector",
    v26_null_values => "26-null-values",
    v27_empty_list_and_map => "27-empty-list-and-map",
    v28_unknown_field_error => "28-unknown-field-error",
    v29_type_mismatch_error => "29-type-mismatch-error",
    v30_labels_annotations_ownership => "30-labels-annotations-ownership",
    v31_entry_order_apply_before_update => "31-entry-order-apply-before-update",
    v32_entry_order_same_second_by_name => "32-entry-order-same-second-by-name",
    v33_service_port_protocol_key_default => "33-service-port-protocol-key-default",
    v34_intorstring_targetport => "34-intorstring-targetport",
    v35_clusterrole_rules_atomic => "35-clusterrole-rules-atomic",
    v36_cr_deduced_schema_maps => "36-cr-deduced-schema-maps",
    v37_cr_deduced_schema_lists => "37-cr-deduced-schema-lists",
    v38_secret_data_ownership => "38-secret-data-ownership",
    v39_update_removes_applied_field => "39-update-removes-applied-field",
    v40_multi_manager_conflict_message => "40-multi-manager-conflict-message",
    v41_update_noop_no_entry => "41-update-noop-no-entry",
    v42_update_untracked_stays_untracked => "42-update-untracked-stays-untracked",
    v43_apply_status_subresource => "43-apply-status-subresource",
    v44_create_by_update_then_apply => "44-create-by-update-then-apply",
    v45_apply_drop_field_owned_by_other => "45-apply-drop-field-owned-by-other",
    v46_keyed_list_reorder => "46-keyed-list-reorder",
    v47_pod_env_two_appliers => "47-pod-env-two-appliers",
    v48_fractional_now_truncated => "48-fractional-now-truncated",
    v49_update_echoes_managed_fields => "49-update-echoes-managed-fields",
    v50_update_invalid_managed_fields_ignored => "50-update-invalid-managed-fields-ignored",
}

#[test]
fn every_vector_file_has_a_test() {
    let mut files: Vec<String> = std::fs::read_dir(server_dir())
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "json")
                .then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    files.sort();
    assert_eq!(files, VECTORS);
}

#[test]
fn a_directory_runs_every_scenario() {
    kssa()
        .arg("replay")
        .arg(server_dir())
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with(
            "50 scenarios, 50 passed, 0 failed\n",
        ));
}

#[test]
fn a_mismatch_exits_1_with_a_diff() {
    let text =
        std::fs::read_to_string(server_dir().join("02-reapply-identical-noop.json")).unwrap();
    let changed = text.replacen(
        "\"time\": \"2024-05-01T10:00:00Z\"",
        "\"time\": \"2024-05-01T10:00:01Z\"",
        1,
    );
    assert_ne!(text, changed);
    let dir = tempdir("mismatch");
    let file = dir.join("02.json");
    std::fs::write(&file, changed).unwrap();
    kssa()
        .arg("replay")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with(
            "FAIL 02-reapply-identical-noop (",
        ))
        .stdout(predicate::str::contains(
            "  step 1 apply by kubectl: changed\n    object mismatch (- expected, + actual):\n",
        ))
        .stdout(predicate::str::contains(
            "    -                 \"time\": \"2024-05-01T10:00:01Z\"\n",
        ))
        .stdout(predicate::str::contains(
            "    +                 \"time\": \"2024-05-01T10:00:00Z\"\n",
        ))
        .stdout(predicate::str::ends_with(
            "1 scenarios, 0 passed, 1 failed\n",
        ));
}

#[test]
fn an_unexpected_error_text_is_a_mismatch() {
    let text =
        std::fs::read_to_string(server_dir().join("20-apply-with-managed-fields-error.json"))
            .unwrap();
    let changed = text.replace("metadata.managedFields must be nil\"", "something else\"");
    let dir = tempdir("error-text");
    let file = dir.join("20.json");
    std::fs::write(&file, changed).unwrap();
    kssa()
        .arg("replay")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "  step 2 apply by kubectl: error: metadata.managedFields must be nil\n    error mismatch (- expected, + actual):\n    - something else\n    + metadata.managedFields must be nil\n",
        ));
}

#[test]
fn bad_input_exits_2() {
    let dir = tempdir("bad");
    let file = dir.join("bad.json");
    std::fs::write(&file, r#"{"name":"x","steps":[{"op":"patch","manager":"m","now":"2024-05-01T10:00:00Z","object":{}}]}"#).unwrap();
    kssa()
        .arg("replay")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "steps[0]: op must be \"apply\" or \"update\", got Some(\"patch\")",
        ));
    kssa()
        .args(["replay", "/nonexistent/scenario.json"])
        .assert()
        .code(2)
        .stderr("error: /nonexistent/scenario.json: no such file or directory\n");
}

#[test]
fn json_output_reports_each_step() {
    let file = server_dir().join("07-update-then-conflicting-apply.json");
    let out = kssa()
        .args(["replay", "--json"])
        .arg(&file)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let steps = &v[0]["steps"];
    assert_eq!(v[0]["passed"], true);
    assert_eq!(steps[2]["result"], "conflicts");
    assert_eq!(
        steps[2]["error"],
        "Apply failed with 1 conflict: conflict with \"hpa-controller\" using apps/v1: .spec.replicas"
    );
    assert_eq!(steps[2]["conflicts"][0]["path"], ".spec.replicas");
}

#[test]
fn custom_resources_use_added_crds() {
    let dir = tempdir("crd");
    let file = dir.join("cert.json");
    std::fs::write(
        &file,
        r#"{"name":"cert","options":{"resetFields":true},"live":null,"steps":[
          {"op":"apply","manager":"a","now":"2024-05-01T10:00:00Z","object":{"apiVersion":"cert-manager.io/v1","kind":"Certificate","metadata":{"name":"c","namespace":"d"},"spec":{"dnsNames":["a.example.com"]}}},
          {"op":"apply","manager":"b","now":"2024-05-01T10:01:00Z","object":{"apiVersion":"cert-manager.io/v1","kind":"Certificate","metadata":{"name":"c","namespace":"d"},"spec":{"dnsNames":["b.example.com"]}},
           "expect":{"error":"Apply failed with 1 conflict: conflict with \"a\": .spec.dnsNames"}}]}"#,
    )
    .unwrap();
    let crd = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/crds/cert-manager.io_certificates.yaml");
    kssa()
        .arg("replay")
        .arg("--schema")
        .arg(&crd)
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("note:").not());
    // Without the CRD the deduced schema is used, and the caller is told.
    kssa()
        .arg("replay")
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "    note: no schema for cert-manager.io/v1, Kind=Certificate: using the deduced schema (maps granular, lists atomic)\n",
        ));
}

fn tempdir(name: &str) -> Scratch {
    Scratch::new(&format!("replay-{name}"))
}
