//! The interval lists of a Job's `status.completedIndexes` and `status.failedIndexes`
//! (`1,3-5,7`), parsed as k8s.io/kubernetes pkg/apis/batch/validation `validateIndexesFormat`,
//! `parseIndexInterval` and `validateFailedIndexesNotOverlapCompleted` do, with their errors.

/// One interval `x` or `x-y`, each index below `completions`, `x < y`.
fn interval(s: &str, completions: i64) -> Result<(i64, i64), String> {
    let limits: Vec<&str> = s.split('-').collect();
    if limits.len() > 2 {
        return Err(format!(
            "the fragment {} violates the requirement that an index interval can have at most two parts separated by '-'",
            crate::validate::goprint::go_quote(s)
        ));
    }
    let number = |t: &str| -> Result<i64, String> {
        let n = atoi(t).ok_or_else(|| {
            format!(
                "cannot convert string to integer for index: {}",
                crate::validate::goprint::go_quote(t)
            )
        })?;
        if n >= completions {
            return Err(format!(
                "too large index: {}",
                crate::validate::goprint::go_quote(t)
            ));
        }
        Ok(n)
    };
    let x = number(limits[0])?;
    let Some(second) = limits.get(1) else {
        return Ok((x, x));
    };
    let y = number(second)?;
    if x >= y {
        return Err(format!("non-increasing order, previous: {x}, current: {y}"));
    }
    Ok((x, y))
}

/// Go's `strconv.Atoi`: an optional sign and decimal digits.
fn atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `validateIndexesFormat`: every interval valid and in increasing order.
pub fn validate_format(indexes: &str, completions: i64) -> Result<(), String> {
    if indexes.is_empty() {
        return Ok(());
    }
    let mut last: Option<i64> = None;
    for part in indexes.split(',') {
        let (x, y) = interval(part, completions)?;
        if let Some(l) = last.filter(|l| *l >= x) {
            return Err(format!("non-increasing order, previous: {l}, current: {x}"));
        }
        last = Some(y);
    }
    Ok(())
}

/// `validateFailedIndexesNotOverlapCompleted`: the first index both lists hold (intervals
/// that do not parse are skipped; their format errors are reported elsewhere).
pub fn not_overlapping(completed: &str, failed: &str, completions: i64) -> Result<(), String> {
    if completed.is_empty() || failed.is_empty() {
        return Ok(());
    }
    let c: Vec<&str> = completed.split(',').collect();
    let f: Vec<&str> = failed.split(',').collect();
    let (mut ci, mut fi) = (0, 0);
    let mut cur_c = interval(c[0], completions);
    let mut cur_f = interval(f[0], completions);
    while ci < c.len() && fi < f.len() {
        match (&cur_c, &cur_f) {
            (Err(_), _) => {
                ci += 1;
                if ci < c.len() {
                    cur_c = interval(c[ci], completions);
                }
            }
            (_, Err(_)) => {
                fi += 1;
                if fi < f.len() {
                    cur_f = interval(f[fi], completions);
                }
            }
            (Ok((cx, cy)), Ok((fx, fy))) => {
                if cx <= fy && fx <= cy {
                    return Err(format!(
                        "failedIndexes and completedIndexes overlap at index: {}",
                        (*cx).max(*fx)
                    ));
                }
                if cx <= fx {
                    ci += 1;
                    if ci < c.len() {
                        cur_c = interval(c[ci], completions);
                    }
                } else {
                    fi += 1;
                    if fi < f.len() {
                        cur_f = interval(f[fi], completions);
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(validate_format("0,2-4,7", 10), Ok(()));
        assert_eq!(
            validate_format("0,2-4,3", 10).unwrap_err(),
            "non-increasing order, previous: 4, current: 3"
        );
        assert_eq!(
            validate_format("1-2-3", 10).unwrap_err(),
            "the fragment \"1-2-3\" violates the requirement that an index interval can have at most two parts separated by '-'"
        );
        assert_eq!(
            validate_format("12", 10).unwrap_err(),
            "too large index: \"12\""
        );
        assert_eq!(
            validate_format("a", 10).unwrap_err(),
            "cannot convert string to integer for index: \"a\""
        );
    }

    #[test]
    fn overlaps() {
        assert_eq!(not_overlapping("0-2,5", "3-4", 10), Ok(()));
        assert_eq!(
            not_overlapping("0-2,5", "4-6", 10).unwrap_err(),
            "failedIndexes and completedIndexes overlap at index: 5"
        );
    }
}
