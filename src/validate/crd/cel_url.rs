//! The Kubernetes CEL URL library on the `cel` crate: `url`, `isURL` and the `URL` getters, as
//! apiserver `pkg/cel/library/urls.go` and `pkg/cel/url.go` define them over Go's `net/url`
//! (ported in `go_url.rs`, since WHATWG parsing answers differently).

use super::cel_support::data_error;
use super::go_url::{parse_reference, parse_request_uri, GoUrl, UrlError};
use kube_cel::cel::extractors::This;
use kube_cel::cel::objects::{Key, Map, Opaque};
use kube_cel::cel::{Context, ExecutionError, ResolveResult, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// A `kubernetes.URL` value. Go compares two by their `String()`, which the parts kept here
/// determine.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CelUrl(GoUrl);

impl Opaque for CelUrl {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.URL"
    }
}

pub(super) fn register(ctx: &mut Context) {
    ctx.add_function("url", url);
    ctx.add_function("isURL", is_url);
    ctx.add_function("getScheme", |This(u): This<Value>| {
        getter(&u, |u| u.scheme.clone())
    });
    ctx.add_function("getHost", |This(u): This<Value>| {
        getter(&u, |u| u.host.clone())
    });
    ctx.add_function("getHostname", |This(u): This<Value>| {
        getter(&u, |u| u.hostname().to_string())
    });
    ctx.add_function("getPort", |This(u): This<Value>| {
        getter(&u, |u| u.port().to_string())
    });
    ctx.add_function("getEscapedPath", |This(u): This<Value>| {
        getter(&u, GoUrl::escaped_path)
    });
    ctx.add_function("getQuery", get_query);
}

/// `stringToUrl`: `ParseRequestURI` decides whether the string is a URL, `Parse` makes it (the
/// fragment cut off); a refusal is a runtime error over the data.
fn url(s: Arc<String>) -> ResolveResult {
    let parsed = parse_request_uri(&s).and_then(|_| parse_reference(&s));
    match parsed {
        Ok(u) => Ok(Value::Opaque(Arc::new(CelUrl(u)))),
        Err(UrlError(e)) => Err(data_error(format!(
            "URL parse error during conversion from string: {e}"
        ))),
    }
}

/// `isURL`: whether `ParseRequestURI` accepts the string.
fn is_url(s: Arc<String>) -> bool {
    parse_request_uri(&s).is_ok()
}

fn as_url(v: &Value) -> Result<&GoUrl, ExecutionError> {
    match v {
        Value::Opaque(o) => o
            .downcast_ref::<CelUrl>()
            .map(|u| &u.0)
            .ok_or(ExecutionError::NoSuchOverload),
        _ => Err(ExecutionError::NoSuchOverload),
    }
}

fn getter(v: &Value, part: impl Fn(&GoUrl) -> String) -> ResolveResult {
    Ok(Value::String(Arc::new(part(as_url(v)?))))
}

/// `getQuery`: `map(string, list(string))` of `URL.Query()`.
fn get_query(This(v): This<Value>) -> ResolveResult {
    let entries: HashMap<Key, Value> = as_url(&v)?
        .query()
        .into_iter()
        .map(|(k, values)| {
            let list = values
                .into_iter()
                .map(|s| Value::String(Arc::new(s)))
                .collect();
            (Key::String(Arc::new(k)), Value::List(Arc::new(list)))
        })
        .collect();
    Ok(Value::Map(Map {
        map: Arc::new(entries),
    }))
}

#[cfg(test)]
mod tests {
    use super::super::cel_support::eval;
    use kube_cel::cel::Value;
    use std::sync::Arc;

    fn string(s: &str) -> Value {
        Value::String(Arc::new(s.into()))
    }

    /// The examples of the library's documentation (urls.go comments, the Kubernetes CEL page).
    #[test]
    fn getters_as_documented() {
        let cases = [
            ("url('https://example.com:80/').getHost()", string("example.com:80")),
            ("url('https://example.com:80/').getHostname()", string("example.com")),
            ("url('https://example.com:80/').getPort()", string("80")),
            ("url('https://example.com/').getPort()", string("")),
            ("url('https://[::1]:80/').getHostname()", string("::1")),
            ("url('https://[::1]:80/').getHost()", string("[::1]:80")),
            ("url('/absolute-path').getScheme()", string("")),
            ("url('HTTPS://example.com/').getScheme()", string("https")),
            (
                "url('https://example.com/path with spaces/').getEscapedPath()",
                string("/path%20with%20spaces/"),
            ),
            ("url('https://example.com/a%2Fb').getEscapedPath()", string("/a%2Fb")),
            ("url('https://example.com/#frag').getEscapedPath()", string("/")),
            ("isURL('https://example.com/')", Value::Bool(true)),
            ("isURL('example.com')", Value::Bool(false)),
            ("isURL('/absolute-path')", Value::Bool(true)),
            ("isURL('https://example.com/#f%zz')", Value::Bool(false)),
            ("isURL('//hos t/path')", Value::Bool(true)),
            (
                "url('https://example.com/?k=a&k=b&j=c+d').getQuery() == {'k': ['a', 'b'], 'j': ['c d']}",
                Value::Bool(true),
            ),
            ("url('https://example.com/?').getQuery().size()", Value::Int(0)),
            ("url('https://a/x') == url('https://a/x')", Value::Bool(true)),
            ("url('https://a/x') == url('https://a/y')", Value::Bool(false)),
        ];
        for (rule, want) in cases {
            assert_eq!(eval(rule).unwrap(), want, "{rule}");
        }
    }

    #[test]
    fn refusals_are_data_errors_with_gos_text() {
        let e = eval("url('example.com').getHost() == ''").unwrap_err();
        assert_eq!(
            super::super::cel_support::data_error_text(&e).as_deref(),
            Some(
                r#"URL parse error during conversion from string: parse "example.com": invalid URI for request"#
            )
        );
        // Valid for a request, refused by Parse: the error of Parse.
        let e = eval("url('//hos t/path')").unwrap_err();
        assert_eq!(
            super::super::cel_support::data_error_text(&e).as_deref(),
            Some(
                r#"URL parse error during conversion from string: parse "//hos t/path": invalid character " " in host name"#
            )
        );
    }
}
