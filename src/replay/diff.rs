//! A line diff (longest common subsequence) for showing expectation mismatches.

/// One line of a diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffLine {
    Same(String),
    /// Only in the expected text.
    Expected(String),
    /// Only in the actual text.
    Actual(String),
}

/// The lines of `expected` and `actual`, aligned.
pub fn line_diff(expected: &str, actual: &str) -> Vec<DiffLine> {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.push(DiffLine::Same(a[i].to_string()));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(DiffLine::Expected(a[i].to_string()));
            i += 1;
        } else {
            out.push(DiffLine::Actual(b[j].to_string()));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_changed_lines() {
        let d = line_diff("a\nb\nc\n", "a\nx\nc\n");
        assert_eq!(
            d,
            vec![
                DiffLine::Same("a".into()),
                DiffLine::Expected("b".into()),
                DiffLine::Actual("x".into()),
                DiffLine::Same("c".into()),
            ]
        );
    }
}
