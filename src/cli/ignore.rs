//! `diff --ignore FILE`: reads Argo CD and Flux ignore rules (see `kssa::ignore`).

use kssa::ignore::{rules_of, RuleSet};
use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
pub struct IgnoreArgs {
    /// Ignore rules: an Argo CD Application (`spec.ignoreDifferences`), the argocd-cm ConfigMap
    /// (`resource.customizations.ignoreDifferences.*`) or a Flux HelmRelease
    /// (`spec.driftDetection.ignore`). Repeatable.
    #[arg(long = "ignore", value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

impl IgnoreArgs {
    pub fn load(&self) -> anyhow::Result<RuleSet> {
        let mut rules = Vec::new();
        for file in &self.files {
            for doc in kssa::io::read_documents(file)? {
                let at = format!("{}: document {}", file.display(), doc.index + 1);
                rules.extend(rules_of(&doc.value, &at)?);
            }
        }
        Ok(RuleSet::new(rules))
    }
}
