//! The Dockerfile builds a working image: built and run only when a docker engine answers
//! (`docker info`); otherwise the test says it skipped and passes.

use std::path::Path;
use std::process::Command;

fn engine_available() -> bool {
    Command::new("docker")
        .arg("info")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn dockerfile_builds_a_non_root_image_running_kssa() {
    if !engine_available() {
        eprintln!("skipped: no docker engine");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tag = "kssa-test:dockerfile";
    let build = Command::new("docker")
        .args(["build", "-q", "-t", tag, "."])
        .current_dir(root)
        .status()
        .unwrap();
    assert!(build.success(), "docker build failed");
    let run = Command::new("docker")
        .args(["run", "--rm", tag, "--version"])
        .output()
        .unwrap();
    assert!(run.status.success());
    assert!(String::from_utf8_lossy(&run.stdout).starts_with("kssa "));
    let user = Command::new("docker")
        .args(["image", "inspect", "-f", "{{.Config.User}}", tag])
        .output()
        .unwrap();
    let user = String::from_utf8_lossy(&user.stdout).trim().to_string();
    assert!(
        !user.is_empty() && user != "root" && user != "0",
        "user {user:?}"
    );
}
