//! Argo CD's `jqPathExpressions`, evaluated with jaq (a maintained jq implementation in Rust):
//! Argo CD deletes `del(EXPR)` from both sides (util/argo/normalizers/diff_normalizer.go); kssa
//! asks for `[path(EXPR)]` instead, to know which fields the expression names.

use super::IgnoreError;
use crate::changes::Step;
use crate::value::{from_json_str, to_json_string, Value};
use jaq_core::data::JustLut;
use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars};
use jaq_json::Val;

type Filter = jaq_core::Filter<JustLut<Val>>;

/// A compiled path expression.
pub struct PathExpression {
    pub text: String,
    filter: Filter,
}

impl std::fmt::Debug for PathExpression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("PathExpression").field(&self.text).finish()
    }
}

impl PathExpression {
    pub fn compile(text: &str) -> Result<PathExpression, IgnoreError> {
        let code = format!("[path({text})]");
        let fail = |message: String| IgnoreError::Jq {
            expression: text.to_string(),
            message,
        };
        let defs = jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs());
        let funs = jaq_core::funs()
            .chain(jaq_std::funs())
            .chain(jaq_json::funs());
        let loader = Loader::new(defs);
        let arena = Arena::default();
        let modules = loader
            .load(
                &arena,
                File {
                    code: &code,
                    path: (),
                },
            )
            .map_err(|errs| fail(format!("does not parse ({} error(s))", errs.len())))?;
        let filter = Compiler::default()
            .with_funs(funs)
            .compile(modules)
            .map_err(|errs| {
                let names: Vec<String> = errs
                    .into_iter()
                    .flat_map(|(_, es)| es.into_iter().map(|(name, _)| name.to_string()))
                    .collect();
                fail(format!("does not compile: unknown {}", names.join(", ")))
            })?;
        Ok(PathExpression {
            text: text.to_string(),
            filter,
        })
    }

    /// The locations the expression names in `value`. An expression that fails on this value
    /// (say `.webhooks[]` where there are none) names nothing, as Argo CD skips failed patches.
    pub fn paths(&self, value: &Value) -> Vec<Vec<Step>> {
        let Ok(input) = jaq_json::read::parse_single(to_json_string(value).as_bytes()) else {
            return Vec::new();
        };
        let ctx = Ctx::<JustLut<Val>>::new(&self.filter.lut, Vars::new([]));
        let Some(Ok(out)) = self
            .filter
            .id
            .run((ctx, input))
            .map(jaq_core::unwrap_valr)
            .next()
        else {
            return Vec::new();
        };
        let Ok(Value::List(paths)) = from_json_str(&out.to_string()) else {
            return Vec::new();
        };
        paths
            .iter()
            .filter_map(|p| {
                p.as_list()?
                    .iter()
                    .map(|s| match s {
                        Value::String(f) => Some(Step::Field(f.clone())),
                        Value::Int(i) => usize::try_from(*i).ok().map(Step::Index),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_names_list_items() {
        let e = PathExpression::compile(
            r#".spec.template.spec.initContainers[] | select(.name == "injected")"#,
        )
        .unwrap();
        let v = from_json_str(
            r#"{"spec":{"template":{"spec":{"initContainers":[{"name":"mine"},{"name":"injected"}]}}}}"#,
        )
        .unwrap();
        let f = |s: &str| Step::Field(s.into());
        assert_eq!(
            e.paths(&v),
            vec![vec![
                f("spec"),
                f("template"),
                f("spec"),
                f("initContainers"),
                Step::Index(1)
            ]]
        );
    }

    #[test]
    fn optional_iteration_and_failures() {
        let e = PathExpression::compile(".webhooks[]?.clientConfig.caBundle").unwrap();
        let v = from_json_str(r#"{"webhooks":[{"clientConfig":{"caBundle":"x"}}]}"#).unwrap();
        assert_eq!(e.paths(&v).len(), 1);
        let strict = PathExpression::compile(".webhooks[].x").unwrap();
        assert!(strict.paths(&from_json_str("{}").unwrap()).is_empty());
        assert!(PathExpression::compile(".a | nosuchfn").is_err());
        assert!(PathExpression::compile(".a[").is_err());
    }
}
