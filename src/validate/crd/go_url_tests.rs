//! `go_url.rs` against Go: the parts and errors Go gives the Kubernetes CEL `url()` for each
//! string of `testdata/formats/go_url.jsonl` (Go's accept-or-refuse answers for the `uri`
//! format, `go_net.jsonl`, are checked in `go_net.rs`).

use super::*;

/// What `url(s)` of the CEL library gives (`urls.go` `stringToUrl`): the error of
/// `ParseRequestURI`, else that of `Parse`, else the parts of `Parse`'s URL.
fn cel_url(s: &str) -> Result<GoUrl, UrlError> {
    parse_request_uri(s)?;
    parse_reference(s)
}

type Query = Vec<(String, Vec<String>)>;

/// Go's answers (go1.27 standard library, module declaring go 1.22): `[input, error]` or
/// `[input, null, scheme, host, hostname, port, escapedPath, [[key, [values]]...]]`.
#[test]
fn parts_and_errors_are_gos() {
    let vectors = include_str!("../../../testdata/formats/go_url.jsonl");
    let mut wrong = Vec::new();
    for line in vectors.lines() {
        let row: Vec<serde_json::Value> = serde_json::from_str(line).expect("vector line");
        let input = row[0].as_str().expect("input");
        let got = cel_url(input);
        match (&row[1], got) {
            (serde_json::Value::String(want), Err(UrlError(e))) => {
                let e = format!("URL parse error during conversion from string: {e}");
                if &e != want {
                    wrong.push(format!("{input:?}: {e:?}, Go: {want:?}"));
                }
            }
            (serde_json::Value::String(want), Ok(u)) => {
                wrong.push(format!("{input:?}: parsed {u:?}, Go: {want:?}"));
            }
            (_, Err(e)) => wrong.push(format!("{input:?}: {e:?}, Go parses it")),
            (_, Ok(u)) => {
                let mut query = u.query();
                query.sort();
                let want_query: Query = serde_json::from_value(row[7].clone()).expect("query");
                let got = (
                    u.scheme.as_str(),
                    u.host.as_str(),
                    u.hostname(),
                    u.port(),
                    u.escaped_path(),
                    query,
                );
                let want = (
                    row[2].as_str().unwrap(),
                    row[3].as_str().unwrap(),
                    row[4].as_str().unwrap(),
                    row[5].as_str().unwrap(),
                    row[6].as_str().unwrap().to_string(),
                    want_query,
                );
                if got != want {
                    wrong.push(format!("{input:?}: {got:?}, Go: {want:?}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn the_kubernetes_documentation_examples() {
    let u = cel_url("https://example.com:80/").unwrap();
    assert_eq!(
        (u.host.as_str(), u.hostname(), u.port()),
        ("example.com:80", "example.com", "80")
    );
    let u = cel_url("https://example.com/path with spaces/").unwrap();
    assert_eq!(u.escaped_path(), "/path%20with%20spaces/");
    let u = cel_url("http://[::1]:8080/").unwrap();
    assert_eq!((u.hostname(), u.port()), ("::1", "8080"));
}

proptest::proptest! {
    #[test]
    fn answers_any_string(s in "[ -~é\\t]{0,40}|\\PC{0,20}") {
        if let Ok(u) = cel_url(&s) {
            let _ = (u.escaped_path(), u.hostname(), u.port(), u.query());
        }
    }
}
