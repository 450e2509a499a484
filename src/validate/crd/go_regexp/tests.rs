//! The port against Go's own `regexp.Compile` errors: `testdata/formats/go_regexp.jsonl` holds
//! `[pattern, error of Go 1.22–1.24, error of Go 1.25–1.26 when it differs]` (`null`: accepted),
//! printed by a small Go program run with each toolchain.

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
