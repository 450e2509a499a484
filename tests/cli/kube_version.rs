//! `--kube-version`, `KSSA_KUBE_VERSION` and `kssa version` through the real binary (the golden
//! cases `testdata/cases/kube-version-*` show the per-version results).

use assert_cmd::Command;
use std::path::Path;

fn case(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/cases")
        .join(name)
}

/// `kssa diff -f <manifest> <args>` with `KSSA_KUBE_VERSION` set: exit code and stderr.
fn diff_with_env(env_version: &str, args: &[&str]) -> (Option<i32>, String) {
    let manifest = case("kube-version-kind-not-in-1.31").join("manifest.yaml");
    let out = Command::cargo_bin("kssa")
        .unwrap()
        .env("KSSA_KUBE_VERSION", env_version)
        .args(["diff", "-f"])
        .arg(&manifest)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), stderr)
}

#[test]
fn the_environment_chooses_the_version_and_the_flag_overrides_it() {
    let (code, stderr) = diff_with_env("1.31", &[]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("(Kubernetes 1.31)"), "{stderr}");
    let (code, _) = diff_with_env("1.31", &["--kube-version", "1.37"]);
    assert_eq!(code, Some(1), "a creation on 1.37");
    let (code, stderr) = diff_with_env("1.29", &[]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("Kubernetes 1.29 is not embedded"),
        "{stderr}"
    );
}

#[test]
fn version_prints_the_embedded_kubernetes_versions() {
    for args in [&["version"][..], &["--version"]] {
        let out = Command::cargo_bin("kssa")
            .unwrap()
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("1.30") && stdout.contains("1.37"),
            "{stdout}"
        );
    }
}

#[test]
fn a_scenario_names_its_kubernetes_version() {
    let dir = std::env::temp_dir().join(format!("kssa-kube-version-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = |version: &str| {
        format!(
            r#"{{"options": {{"kubeVersion": "{version}"}}, "steps": [{{"op": "apply", "manager": "m", "now": "2024-01-01T00:00:00Z",
                "object": {{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {{"name": "d"}},
                  "spec": {{"template": {{"spec": {{"containers": [{{"name": "c",
                    "lifecycle": {{"stopSignal": "SIGTERM"}}}}]}}}}}}}},
                "expect": {{"error": null}}}}]}}"#
        )
    };
    for (version, code) in [("1.33", 0), ("1.32", 1)] {
        let file = dir.join(format!("{version}.json"));
        std::fs::write(&file, scenario(version)).unwrap();
        let out = Command::cargo_bin("kssa")
            .unwrap()
            .arg("replay")
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(code),
            "{version}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
