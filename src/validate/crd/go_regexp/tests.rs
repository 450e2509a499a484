//! The port against Go's own `regexp.Compile` errors: `testdata/formats/go_regexp.jsonl` holds
//! `[pattern, error of Go 1.22–1.24, error of Go 1.25–1.26 when it differs]` (`null`: accepted),
//! printed by a small Go program run with each toolchain; the last lines are the patterns of the
//! corpus CRDs (kube-prometheus, cert-manager, Argo CD), all accepted.

use super::{compile, UnicodeNames};
use serde_json::Value as Json;

fn error(pattern: &str, names: UnicodeNames) -> Option<String> {
    compile(pattern, names).err().map(|e| e.to_string())
}

#[test]
fn go_compile_errors() {
    let vectors = include_str!("../../../../testdata/formats/go_regexp.jsonl");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in vectors.lines() {
        let v: Json = serde_json::from_str(line).expect("a JSON line");
        let pattern = v[0].as_str().expect("a pattern");
        let exact = v[1].as_str().map(str::to_string);
        let canonical = match v.get(2) {
            Some(e) => e.as_str().map(str::to_string),
            None => exact.clone(),
        };
        for (names, want) in [
            (UnicodeNames::Exact, exact),
            (UnicodeNames::Canonical, canonical),
        ] {
            count += 1;
            let got = error(pattern, names);
            if got != want {
                let short: String = pattern.chars().take(60).collect();
                failures.push(format!("{names:?} {short:?}: got {got:?}, want {want:?}"));
            }
        }
    }
    assert!(count > 400, "{count} vectors");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn quotes_the_offending_piece() {
    let e = |p: &str| error(p, UnicodeNames::Canonical).unwrap_or_default();
    assert_eq!(
        e("^[a-z]+(-[a-z]+*$"),
        "error parsing regexp: invalid nested repetition operator: `+*`"
    );
    assert_eq!(
        e("^(?<x>a)(?=b)$"),
        "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"
    );
    assert_eq!(
        e("[z-a]"),
        "error parsing regexp: invalid character class range: `z-a`"
    );
    assert_eq!(
        e("a\\"),
        "error parsing regexp: trailing backslash at end of expression: ``"
    );
}

/// Whether `pattern`, translated for the `regex` crate, matches `text`.
fn matches(pattern: &str, text: &str) -> bool {
    assert!(super::translate(pattern, UnicodeNames::Canonical).is_ok());
    super::regex(pattern)
        .unwrap_or_else(|e| panic!("{pattern:?}: {e}"))
        .is_match(text)
}

#[test]
fn translated_patterns_keep_go_meaning() {
    // Go's answers (regexp.MatchString) for each pair.
    let cases = [
        (r"^\d+$", "123", true),
        (r"^\d+$", "١٢٣", false),
        (r"^\w+$", "é", false),
        (r"^[\w-]+$", "a-b_c", true),
        (r"^\s$", "\u{a0}", false),
        (r"^\S+$", "a\u{a0}", true),
        (r"\bé", "é", false),
        (r"^[\D]$", "x", true),
        (r"^\Qa.b\E$", "a.b", true),
        (r"^\Qa.b\E$", "axb", false),
        (r"^\<a\>$", "<a>", true),
        (r"^[[a-z]]$", "b]", true),
        (r"^[[a-z]]$", "b", false),
        (r"^[a&&b]$", "&", true),
        (r"^[b~-]$", "-", true),
        (r"^[a~~b]$", "~", true),
        (r"^\012$", "\n", true),
        (r"^\0$", "\0", true),
        (r"^a{,5}$", "a{,5}", true),
        (r"^\_$", "_", true),
        (r"^a\b{start}$", "a{start}", true),
        (r"^[]a]+$", "]a", true),
        (r"^[^-a]$", "b", true),
        (r"^\p{Greek}+$", "αβ", true),
        (r"^\P{^Greek}+$", "αβ", true),
        (r"^[\p{Lu}\d]+$", "A1", true),
        (r"^\x{41}\x42$", "AB", true),
        (r"(?i)^abc$", "ABC", true),
        (r"^(?P<a>x)(?<b>y)$", "xy", true),
        (r"^[[:alpha:][:^digit:]]+$", "a-", true),
        (r"^\x{D800}?$", "", true),
        (r"^[\x{D000}-\x{E001}]$", "\u{E000}", true),
        (
            r"^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$",
            "1h30m",
            true,
        ),
    ];
    for (pattern, text, want) in cases {
        assert_eq!(matches(pattern, text), want, "{pattern:?} on {text:?}");
    }
}

#[test]
fn patterns_go_accepts_compile_for_the_crate() {
    let vectors = include_str!("../../../../testdata/formats/go_regexp.jsonl");
    let mut failures = Vec::new();
    for line in vectors.lines() {
        let v: Json = serde_json::from_str(line).expect("a JSON line");
        let pattern = v[0].as_str().expect("a pattern");
        if super::translate(pattern, UnicodeNames::Exact).is_err() {
            continue;
        }
        // The crate's compiled-size limit is its own (10 MiB by default).
        if let Err(e) =
            super::regex(pattern).map_err(|e| e.lines().last().unwrap_or("").to_string())
        {
            if !e.contains("size limit") {
                let short: String = pattern.chars().take(60).collect();
                failures.push(format!("{short:?}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
