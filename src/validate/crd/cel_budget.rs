//! The cost limits apiextensions puts on a CRD's CEL rules when the CRD is written
//! (`pkg/apis/apiextensions/validation/validation.go`: `StaticEstimatedCostLimit` per rule and
//! per `messageExpression`, `StaticEstimatedCRDCostLimit` for the whole schema, with
//! `getCostErrorMessage`'s wording; `cel_validation.go` `TotalCost.ObserveExpressionCost`).

use crate::validate::FieldError;

/// `StaticEstimatedCostLimit`: one expression, times how often it can run.
const EXPRESSION_LIMIT: u64 = 10_000_000;
/// `StaticEstimatedCRDCostLimit`: every expression of a schema together.
const SCHEMA_LIMIT: u64 = 100_000_000;
/// How many of the costliest expressions the total's refusal names.
const NAMED: usize = 4;

/// The costs observed over one schema.
pub struct CostBudget {
    /// The schema is the stored one: only the total is limited
    /// (`suppressExpressionCostForUnchangedSchema`).
    unchanged: bool,
    total: u64,
    /// The costliest expressions (at least 1% of the schema limit), most costly first.
    costliest: Vec<(String, u64)>,
}

impl CostBudget {
    pub fn new(unchanged: bool) -> Self {
        CostBudget {
            unchanged,
            total: 0,
            costliest: Vec::new(),
        }
    }

    /// A rule at `path` costing `cost` (already times its cardinality); `None`: not estimated.
    pub fn observe_rule(&mut self, path: String, cost: Option<u64>, errors: &mut Vec<FieldError>) {
        self.observe("estimated rule cost", path, cost, errors);
    }

    /// A `messageExpression` at `path`.
    pub fn observe_message(
        &mut self,
        path: String,
        cost: Option<u64>,
        errors: &mut Vec<FieldError>,
    ) {
        self.observe("estimated messageExpression cost", path, cost, errors);
    }

    fn observe(
        &mut self,
        name: &str,
        path: String,
        cost: Option<u64>,
        errors: &mut Vec<FieldError>,
    ) {
        let Some(cost) = cost else { return };
        if !self.unchanged && cost > EXPRESSION_LIMIT {
            let detail = over_budget(name, cost, EXPRESSION_LIMIT);
            errors.push(FieldError::forbidden(path.as_str(), detail));
        }
        self.total = self.total.saturating_add(cost);
        if cost < SCHEMA_LIMIT / 100 {
            return;
        }
        // Stable: of equal costs the first observed stays first, as Go's insertion sort of
        // so few entries keeps them.
        let at = self.costliest.partition_point(|(_, c)| *c >= cost);
        self.costliest.insert(at, (path, cost));
        self.costliest.truncate(NAMED);
    }

    /// The refusal of a schema whose rules together exceed the limit, after its other errors.
    pub fn check_total(&self, schema_at: &str, errors: &mut Vec<FieldError>) {
        if self.total <= SCHEMA_LIMIT {
            return;
        }
        for (path, _) in &self.costliest {
            errors.push(FieldError::forbidden(
                path.as_str(),
                "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
            ));
        }
        let name = "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema";
        errors.push(FieldError::forbidden(
            schema_at,
            over_budget(name, self.total, SCHEMA_LIMIT),
        ));
    }
}

/// `getCostErrorMessage`: the factor with six decimals below 1.5, one up to 100, then only
/// "more than 100x".
fn over_budget(name: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        "more than 100x".to_string()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!(
        "{name} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_are_worded_as_the_server_words_them() {
        let msg = |cost| over_budget("estimated rule cost", cost, EXPRESSION_LIMIT);
        assert!(msg(12_000_000).contains("factor of 1.200000x (try"));
        assert!(msg(25_500_000).contains("factor of 2.5x (try"));
        assert!(msg(u64::MAX).contains("factor of more than 100x (try"));
    }

    #[test]
    fn the_total_names_the_four_costliest_in_order() {
        let mut budget = CostBudget::new(false);
        let mut errors = Vec::new();
        for (i, cost) in [
            2_000_000u64,
            9_000_000,
            30_000_000,
            9_000_000,
            50_000_000,
            20_000_000,
        ]
        .into_iter()
        .enumerate()
        {
            budget.observe_rule(format!("r{i}"), Some(cost), &mut errors);
        }
        assert_eq!(errors.len(), 3, "each rule over 1e7: {errors:?}");
        errors.clear();
        budget.check_total("s", &mut errors);
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["r4", "r2", "r5", "r1", "s"]);
        assert!(errors[4].detail.contains("factor of 1.200000x"));
    }
}
