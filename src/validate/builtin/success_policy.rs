//! A Job's `spec.successPolicy`, as k8s.io/kubernetes pkg/apis/batch/validation checks it
//! (`validateJobSpec`, `validateSuccessPolicy`, `validateSuccessPolicyRule`,
//! `validateIndexesFormat`, `parseIndexInterval`; immutable in `ValidateJobSpecUpdate`). 1.30
//! drops the field (JobSuccessPolicy alpha, off), so it is checked from 1.31.

use super::super::{BadValue, FieldError, Write};
use super::batch::{int, int_value, text};
use super::fields::items;
use crate::kube::VersionRange;
use crate::validate::field::join;
use crate::value::{Map, Value};

pub(super) const SUCCESS_POLICY: VersionRange = VersionRange::since(31);
const MAX_RULES: usize = 20;
const MAX_SUCCEEDED_INDEXES: usize = 64 * 1024;

/// The internal `batch.SuccessPolicy` the server quotes: JSON with Go field names from 1.34;
/// before, `%#v` with pointer addresses kssa cannot know, approximated.
pub(super) fn quoted(policy: Option<&Value>) -> BadValue {
    let Some(policy) = policy.filter(|p| !p.is_null()) else {
        return BadValue::Value(Value::Null);
    };
    let rules = items(policy.get("rules"))
        .iter()
        .map(|rule| {
            let mut m = Map::default();
            for (go, key) in [
                ("SucceededIndexes", "succeededIndexes"),
                ("SucceededCount", "succeededCount"),
            ] {
                m.insert(go.into(), rule.get(key).cloned().unwrap_or(Value::Null));
            }
            Value::Map(m)
        })
        .collect();
    let mut m = Map::default();
    m.insert("Rules".into(), Value::List(rules));
    BadValue::GoValue {
        value: Value::Map(m),
        go_syntax: "batch.SuccessPolicy{…}".into(),
    }
}

/// The success policy of the Job spec at `path`: only for Indexed Jobs, then its rules.
pub(super) fn success_policy(
    w: &Write,
    spec: &Value,
    policy: &Value,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    let at = join(path, ".successPolicy");
    if text(spec, "completionMode") != Some("Indexed") {
        errors.push(FieldError::invalid(
            at,
            quoted(Some(policy)),
            "requires indexed completion mode",
        ));
        return;
    }
    let rules_path = join(&at, ".rules");
    let rules = items(policy.get("rules"));
    if rules.is_empty() {
        errors.push(FieldError::required(
            &rules_path,
            "at least one rules must be specified when the successPolicy is specified",
        ));
    }
    if rules.len() > MAX_RULES {
        errors.push(FieldError::too_many(
            &rules_path,
            rules.len(),
            MAX_RULES,
            w.version(),
        ));
    }
    // Indexed Jobs need completions (reported by the spec's own rules); without them the
    // server would not get here in one piece.
    let Some(completions) = int(spec, "completions") else {
        return;
    };
    for (i, rule) in rules.iter().enumerate() {
        rule_errors(w, rule, completions, &format!("{rules_path}[{i}]"), errors);
    }
}

/// `validateSuccessPolicyRule`.
fn rule_errors(
    w: &Write,
    rule: &Value,
    completions: i64,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    let indexes = rule.get("succeededIndexes").and_then(Value::as_str);
    let count = rule.get("succeededCount").and_then(Value::as_i64);
    if indexes.is_none() && count.is_none() {
        errors.push(FieldError::required(
            path,
            "at least one of succeededCount or succeededIndexes must be specified",
        ));
    }
    let mut total = 0;
    if let Some(indexes) = indexes {
        let at = join(path, ".succeededIndexes");
        if indexes.len() > MAX_SUCCEEDED_INDEXES {
            errors.push(FieldError::too_long(
                &at,
                MAX_SUCCEEDED_INDEXES,
                w.version(),
            ));
        }
        match indexes_format(indexes, completions) {
            Ok(n) => total = n,
            Err(e) => errors.push(FieldError::invalid(
                at,
                FieldError::string_value(indexes),
                format!("error parsing succeededIndexes: {e}"),
            )),
        }
    }
    if let Some(count) = count {
        let at = join(path, ".succeededCount");
        super::workloads::non_negative(Some(&Value::Int(count)), &at, errors);
        if count > completions {
            errors.push(FieldError::invalid(
                &at,
                int_value(count),
                format!(
                    "must be less than or equal to {completions} (the number of specified completions)"
                ),
            ));
        }
        if indexes.is_some() && count > total {
            errors.push(FieldError::invalid(
                at,
                int_value(count),
                format!("must be less than or equal to {total} (the number of indexes in the specified succeededIndexes field)"),
            ));
        }
    }
}

/// Go's `strconv.Atoi`: an optional sign, then decimal digits.
fn atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `validateIndexesFormat`: comma-separated indexes or `x-y` intervals, increasing, below
/// `completions`; the number of indexes.
fn indexes_format(indexes: &str, completions: i64) -> Result<i64, String> {
    if indexes.is_empty() {
        return Ok(0);
    }
    let mut last: Option<i64> = None;
    let mut total = 0;
    for interval in indexes.split(',') {
        let (x, y) = index_interval(interval, completions)?;
        if let Some(l) = last.filter(|l| *l >= x) {
            return Err(format!("non-increasing order, previous: {l}, current: {x}"));
        }
        total += y - x + 1;
        last = Some(y);
    }
    Ok(total)
}

/// `parseIndexInterval`.
fn index_interval(interval: &str, completions: i64) -> Result<(i64, i64), String> {
    let quote = crate::validate::goprint::go_quote;
    let limits: Vec<&str> = interval.split('-').collect();
    if limits.len() > 2 {
        return Err(format!(
            "the fragment {} violates the requirement that an index interval can have at most two parts separated by '-'",
            quote(interval)
        ));
    }
    let bound = |s: &str| -> Result<i64, String> {
        let n = atoi(s)
            .ok_or_else(|| format!("cannot convert string to integer for index: {}", quote(s)))?;
        if n >= completions {
            return Err(format!("too large index: {}", quote(s)));
        }
        Ok(n)
    };
    let x = bound(limits[0])?;
    let Some(second) = limits.get(1) else {
        return Ok((x, x));
    };
    let y = bound(second)?;
    if x >= y {
        return Err(format!("non-increasing order, previous: {x}, current: {y}"));
    }
    Ok((x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexes_parse_as_the_server_parses_them() {
        assert_eq!(indexes_format("0,2-4,7", 10), Ok(5));
        assert_eq!(indexes_format("", 10), Ok(0));
        assert_eq!(
            indexes_format("1-3-5", 10),
            Err("the fragment \"1-3-5\" violates the requirement that an index interval can have at most two parts separated by '-'".into())
        );
        assert_eq!(
            indexes_format("a", 10),
            Err("cannot convert string to integer for index: \"a\"".into())
        );
        assert_eq!(
            indexes_format("0-10", 10),
            Err("too large index: \"10\"".into())
        );
        assert_eq!(
            indexes_format("3,1", 10),
            Err("non-increasing order, previous: 3, current: 1".into())
        );
        assert_eq!(
            indexes_format("4-2", 10),
            Err("non-increasing order, previous: 4, current: 2".into())
        );
        assert_eq!(
            indexes_format("-1", 10),
            Err("cannot convert string to integer for index: \"\"".into())
        );
    }
}
