//! The unified line diff the API server appends to some messages since Kubernetes 1.34
//! (k8s.io/apimachinery `pkg/util/diff.Diff`: both values as indented JSON, compared by
//! github.com/pmezard/go-difflib with three lines of context and no file header). go-difflib
//! ports Python's `difflib.SequenceMatcher` (longest matching blocks, "popular" lines of a
//! long second sequence ignored); the rules here follow its `findLongestMatch`,
//! `GetMatchingBlocks`, `GetOpCodes`, `GetGroupedOpCodes` and `WriteUnifiedDiff`.

use std::collections::HashMap;

/// Lines as go-difflib's `SplitLines` cuts them: each keeps its `\n`, and the last gets one.
pub fn split_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
    match lines.last_mut() {
        Some(last) if !text.ends_with('\n') => last.push('\n'),
        _ => lines.push("\n".to_string()),
    }
    lines
}

/// `difflib.GetUnifiedDiffString` of `a` and `b` (as [`split_lines`] gives them) with
/// `context` lines around each change; empty when they are equal.
pub fn unified_diff(a: &[String], b: &[String], context: usize) -> String {
    let mut out = String::new();
    for group in grouped_opcodes(a, b, context) {
        let (first, last) = (group[0], group[group.len() - 1]);
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            unified_range(first.i1, last.i2),
            unified_range(first.j1, last.j2)
        ));
        for op in group {
            let lines = |prefix: char, side: &[String], out: &mut String| {
                for line in side {
                    out.push(prefix);
                    out.push_str(line);
                }
            };
            match op.tag {
                Tag::Equal => lines(' ', &a[op.i1..op.i2], &mut out),
                Tag::Delete => lines('-', &a[op.i1..op.i2], &mut out),
                Tag::Insert => lines('+', &b[op.j1..op.j2], &mut out),
                Tag::Replace => {
                    lines('-', &a[op.i1..op.i2], &mut out);
                    lines('+', &b[op.j1..op.j2], &mut out);
                }
            }
        }
    }
    out
}

/// `formatRangeUnified`: `start,length` from 1, the length left out when it is 1.
fn unified_range(start: usize, stop: usize) -> String {
    match stop - start {
        1 => format!("{}", start + 1),
        0 => format!("{start},0"),
        length => format!("{},{length}", start + 1),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Equal,
    Delete,
    Insert,
    Replace,
}

#[derive(Debug, Clone, Copy)]
struct OpCode {
    tag: Tag,
    i1: usize,
    i2: usize,
    j1: usize,
    j2: usize,
}

/// `GetGroupedOpCodes`: the opcodes cut into hunks with `n` lines of context.
fn grouped_opcodes(a: &[String], b: &[String], n: usize) -> Vec<Vec<OpCode>> {
    let mut codes = opcodes(a, b);
    if codes.is_empty() {
        codes.push(OpCode {
            tag: Tag::Equal,
            i1: 0,
            i2: 1,
            j1: 0,
            j2: 1,
        });
    }
    if let Some(c) = codes.first_mut().filter(|c| c.tag == Tag::Equal) {
        c.i1 = c.i1.max(c.i2.saturating_sub(n));
        c.j1 = c.j1.max(c.j2.saturating_sub(n));
    }
    if let Some(c) = codes.last_mut().filter(|c| c.tag == Tag::Equal) {
        c.i2 = c.i2.min(c.i1 + n);
        c.j2 = c.j2.min(c.j1 + n);
    }
    let mut groups = Vec::new();
    let mut group = Vec::new();
    for mut c in codes {
        if c.tag == Tag::Equal && c.i2 - c.i1 > 2 * n {
            group.push(OpCode {
                i2: c.i2.min(c.i1 + n),
                j2: c.j2.min(c.j1 + n),
                ..c
            });
            groups.push(std::mem::take(&mut group));
            c.i1 = c.i1.max(c.i2.saturating_sub(n));
            c.j1 = c.j1.max(c.j2.saturating_sub(n));
        }
        group.push(c);
    }
    let only_equal = group.len() == 1 && group[0].tag == Tag::Equal;
    if !group.is_empty() && !only_equal {
        groups.push(group);
    }
    groups
}

/// `GetOpCodes`: how to turn `a` into `b`, from the matching blocks.
fn opcodes(a: &[String], b: &[String]) -> Vec<OpCode> {
    let (mut i, mut j) = (0, 0);
    let mut codes = Vec::new();
    for (ai, bj, size) in matching_blocks(a, b) {
        let tag = match (i < ai, j < bj) {
            (true, true) => Some(Tag::Replace),
            (true, false) => Some(Tag::Delete),
            (false, true) => Some(Tag::Insert),
            (false, false) => None,
        };
        if let Some(tag) = tag {
            codes.push(OpCode {
                tag,
                i1: i,
                i2: ai,
                j1: j,
                j2: bj,
            });
        }
        (i, j) = (ai + size, bj + size);
        if size > 0 {
            codes.push(OpCode {
                tag: Tag::Equal,
                i1: ai,
                i2: i,
                j1: bj,
                j2: j,
            });
        }
    }
    codes
}

/// `GetMatchingBlocks`: (start in a, start in b, length), adjacent blocks joined, ending with
/// the sentinel `(len(a), len(b), 0)`.
fn matching_blocks(a: &[String], b: &[String]) -> Vec<(usize, usize, usize)> {
    let b2j = index_b(b);
    let mut matched = Vec::new();
    // The recursion of go-difflib, in the same (in-order) order, on an explicit stack.
    enum Step {
        Match(usize, usize, usize, usize),
        Emit((usize, usize, usize)),
    }
    let mut stack = vec![Step::Match(0, a.len(), 0, b.len())];
    while let Some(step) = stack.pop() {
        match step {
            Step::Emit(block) => matched.push(block),
            Step::Match(alo, ahi, blo, bhi) => {
                let (i, j, k) = longest_match(a, b, &b2j, alo, ahi, blo, bhi);
                if k == 0 {
                    continue;
                }
                if i + k < ahi && j + k < bhi {
                    stack.push(Step::Match(i + k, ahi, j + k, bhi));
                }
                stack.push(Step::Emit((i, j, k)));
                if alo < i && blo < j {
                    stack.push(Step::Match(alo, i, blo, j));
                }
            }
        }
    }
    let mut blocks = Vec::new();
    let (mut i1, mut j1, mut k1) = (0, 0, 0);
    for (i2, j2, k2) in matched {
        if i1 + k1 == i2 && j1 + k1 == j2 {
            k1 += k2;
        } else {
            if k1 > 0 {
                blocks.push((i1, j1, k1));
            }
            (i1, j1, k1) = (i2, j2, k2);
        }
    }
    if k1 > 0 {
        blocks.push((i1, j1, k1));
    }
    blocks.push((a.len(), b.len(), 0));
    blocks
}

/// `chainB` with autojunk: where each line of `b` is, lines more frequent than 1% of a `b` of
/// 200 lines or more left out.
fn index_b(b: &[String]) -> HashMap<&str, Vec<usize>> {
    let mut b2j: HashMap<&str, Vec<usize>> = HashMap::new();
    for (j, line) in b.iter().enumerate() {
        b2j.entry(line.as_str()).or_default().push(j);
    }
    if b.len() >= 200 {
        let limit = b.len() / 100 + 1;
        b2j.retain(|_, places| places.len() <= limit);
    }
    b2j
}

/// `findLongestMatch` (no junk function: only the extension over popular lines matters).
fn longest_match(
    a: &[String],
    b: &[String],
    b2j: &HashMap<&str, Vec<usize>>,
    alo: usize,
    ahi: usize,
    blo: usize,
    bhi: usize,
) -> (usize, usize, usize) {
    let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0);
    let mut j2len: HashMap<usize, usize> = HashMap::new();
    for (i, line) in a.iter().enumerate().take(ahi).skip(alo) {
        let mut next: HashMap<usize, usize> = HashMap::new();
        for &j in b2j.get(line.as_str()).map_or(&[][..], Vec::as_slice) {
            if j < blo {
                continue;
            }
            if j >= bhi {
                break;
            }
            let k = j.checked_sub(1).and_then(|p| j2len.get(&p)).unwrap_or(&0) + 1;
            next.insert(j, k);
            if k > bestsize {
                (besti, bestj, bestsize) = (i + 1 - k, j + 1 - k, k);
            }
        }
        j2len = next;
    }
    while besti > alo && bestj > blo && a[besti - 1] == b[bestj - 1] {
        (besti, bestj, bestsize) = (besti - 1, bestj - 1, bestsize + 1);
    }
    while besti + bestsize < ahi
        && bestj + bestsize < bhi
        && a[besti + bestsize] == b[bestj + bestsize]
    {
        bestsize += 1;
    }
    (besti, bestj, bestsize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(a: &str, b: &str) -> String {
        unified_diff(&split_lines(a), &split_lines(b), 3)
    }

    #[test]
    fn one_changed_line_with_three_lines_of_context() {
        let a = "{\n \"AccessModes\": [\n  \"ReadWriteMany\"\n ],\n \"Selector\": null,\n \"Resources\": {\n  \"Limits\": null\n }\n}";
        let b = a.replace("ReadWriteMany", "ReadWriteOnce");
        assert_eq!(
            diff(a, &b),
            "@@ -1,6 +1,6 @@\n {\n  \"AccessModes\": [\n-  \"ReadWriteMany\"\n+  \"ReadWriteOnce\"\n  ],\n  \"Selector\": null,\n  \"Resources\": {\n"
        );
    }

    #[test]
    fn far_apart_changes_make_two_hunks_and_equal_texts_none() {
        let a: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let b: String = (1..=20)
            .map(|i| match i {
                2 => "two\n".to_string(),
                19 => "nineteen\n".to_string(),
                i => format!("{i}\n"),
            })
            .collect();
        assert_eq!(
            diff(&a, &b),
            "@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -16,6 +16,6 @@\n 16\n 17\n 18\n-19\n+nineteen\n 20\n \n"
        );
        assert_eq!(diff(&a, &a), "");
    }

    #[test]
    fn ranges_follow_the_unified_format() {
        assert_eq!(unified_range(0, 1), "1");
        assert_eq!(unified_range(3, 3), "3,0");
        assert_eq!(unified_range(0, 6), "1,6");
        assert_eq!(diff("a\nb", "a\nc\nb"), "@@ -1,2 +1,3 @@\n a\n+c\n b\n");
    }
}
