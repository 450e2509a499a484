//! `kssa-schemagen`: regenerates the embedded built-in schema topologies of every embedded
//! Kubernetes version (`src/schema/k8s-1.37.topology` + `k8s-older.topology-delta`) from the
//! per-version definitions. The Go types of the typed round trip come from `kssa-gotypesgen`.

use anyhow::Context;
use std::path::PathBuf;

const USAGE: &str = "usage: kssa-schemagen [SCHEMAS_DIR]  (default: ../shared/schemas)";

fn main() -> anyhow::Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let schemas = match args.as_slice() {
        [] => root.join("../shared/schemas"),
        [dir] => dir.clone(),
        _ => anyhow::bail!(USAGE),
    };
    let generated = kssa::schema::generate::generate_from_dir(&schemas)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("generating the embedded schemas")?;
    for (path, text) in [
        ("src/schema/k8s-1.37.topology", &generated.topology),
        (
            "src/schema/k8s-older.topology-delta",
            &generated.topology_deltas,
        ),
    ] {
        let output = root.join(path);
        std::fs::write(&output, text).with_context(|| format!("writing {}", output.display()))?;
        eprintln!("wrote {} ({} bytes)", output.display(), text.len());
    }
    Ok(())
}
