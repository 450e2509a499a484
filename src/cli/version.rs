//! `--kube-version` (the Kubernetes version a run predicts for, on every command that merges or
//! reads live objects) and `kssa version` / `--version` (the embedded versions).

use super::Status;
use kssa::kube::KubeVersion;

/// `--kube-version`, shared by the commands that merge or read live objects.
#[derive(Debug, Clone, clap::Args)]
pub struct KubeVersionArgs {
    /// Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas,
    /// served API versions and defaults.
    #[arg(
        long = "kube-version",
        env = "KSSA_KUBE_VERSION",
        value_name = "1.MINOR",
        default_value_t = KubeVersion::NEWEST
    )]
    pub kube_version: KubeVersion,
}

/// What `--version` prints after the program name.
pub const SHORT: &str = concat!(env!("CARGO_PKG_VERSION"), " (Kubernetes 1.30 to 1.37)");

/// `kssa version` and `--version`: the program and the embedded Kubernetes versions.
pub fn text() -> String {
    let versions: Vec<String> = KubeVersion::all().map(|v| v.to_string()).collect();
    format!(
        "kssa {}\nKubernetes versions: {} (default {})\n",
        env!("CARGO_PKG_VERSION"),
        versions.join(" "),
        KubeVersion::default()
    )
}

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<Status> {
    print!("{}", text());
    Ok(Status::Clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_short_version_names_the_embedded_range() {
        let range = format!(
            "(Kubernetes {} to {})",
            KubeVersion::OLDEST,
            KubeVersion::NEWEST
        );
        assert!(SHORT.ends_with(&range), "{SHORT}");
        assert!(text().contains("1.30 1.31 1.32 1.33 1.34 1.35 1.36 1.37 (default 1.37)"));
    }
}
