//! `kssa-schemagen`: regenerates the embedded built-in schema topology
//! (`src/schema/k8s-1.36.topology`) from the Kubernetes OpenAPI v2 document and list-key defaults.
//! The Go types of the typed round trip come from `kssa-gotypesgen`.

use anyhow::Context;
use std::path::{Path, PathBuf};

const USAGE: &str = "usage: kssa-schemagen [OPENAPI_V2_JSON LIST_KEY_DEFAULTS_JSON [OUTPUT]]";

fn read_json(path: &Path) -> anyhow::Result<kssa::value::Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    kssa::value::from_json_str(&text).with_context(|| format!("parsing {}", path.display()))
}

fn main() -> anyhow::Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let shared = root.join("../shared/schemas");
    let (openapi, defaults, output) = match args.as_slice() {
        [] => (
            shared.join("kubernetes-1.36-openapi-v2.json"),
            shared.join("kubernetes-1.36-list-key-defaults.json"),
            root.join("src/schema/k8s-1.36.topology"),
        ),
        [o, d] => (
            o.clone(),
            d.clone(),
            root.join("src/schema/k8s-1.36.topology"),
        ),
        [o, d, out] => (o.clone(), d.clone(), out.clone()),
        _ => anyhow::bail!(USAGE),
    };
    let document = read_json(&openapi)?;
    let text = kssa::schema::builtin::generate(&document, &read_json(&defaults)?)
        .context("converting the OpenAPI document")?;
    std::fs::write(&output, &text).with_context(|| format!("writing {}", output.display()))?;
    eprintln!("wrote {} ({} bytes)", output.display(), text.len());
    Ok(())
}
