//! `-o sarif` output checked against the SARIF 2.1.0 JSON schema (`testdata/sarif/`): every
//! golden case whose name starts with `sarif-` is run again and its stdout validated, and each
//! result must be located at a line and column.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("testdata/sarif/sarif-schema-2.1.0.json"))
        .expect("the SARIF schema");
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).expect("the SARIF schema compiles")
}

fn sarif_of(case: &Path) -> serde_json::Value {
    let cmd = std::fs::read_to_string(case.join("cmd")).unwrap();
    let out = Command::cargo_bin("kssa")
        .unwrap()
        .current_dir(case)
        .args(cmd.split_whitespace())
        .env_remove("KSSA_KUBE_VERSION")
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{}: stdout is not JSON: {e}", case.display()))
}

#[test]
fn sarif_output_is_valid_against_the_schema() {
    let validator = schema();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root().join("testdata/cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("sarif-")
        })
        .collect();
    cases.sort();
    assert!(cases.len() >= 3, "the sarif-* golden cases");
    for case in cases {
        let log = sarif_of(&case);
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", case.display());
        let results = log["runs"][0]["results"].as_array().unwrap();
        assert!(!results.is_empty(), "{}: no results", case.display());
        for r in results {
            let region = &r["locations"][0]["physicalLocation"]["region"];
            assert!(region["startLine"].as_u64().unwrap() >= 1, "{r}");
            assert!(region["startColumn"].as_u64().unwrap() >= 1, "{r}");
        }
    }
}

/// The validator is not vacuous: a log without `version` is refused.
#[test]
fn the_schema_refuses_a_broken_log() {
    let broken = serde_json::json!({"runs": []});
    assert!(!schema().is_valid(&broken));
}
