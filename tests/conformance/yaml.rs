//! Kubernetes YAML vectors (testdata/conformance/yaml): every vector's kubectl result (documents
//! kept, or an error) must match `kssa::yaml::Documents`, unless listed in KNOWN_DIFFERENCES.md.

use kssa::value::{from_serde, to_json_string, Value};
use kssa::yaml::Documents;
use serde_json::Value as Json;
use std::path::Path;

/// One vector, minus `json`, whose numbers may not fit an f64 (serde skips unknown fields
/// without parsing their numbers).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Vector {
    name: String,
    mode: String,
    yaml: Option<String>,
    yaml_base64: Option<String>,
    json_text: Json,
    error: Json,
    kubectl_stream: Option<Stream>,
    unstructured_json_text: Option<Json>,
    unstructured_error: Option<Json>,
    possible_results: Option<Vec<Stream>>,
    docs_before_error_text: Option<Json>,
    json_omitted_too_deep: Option<bool>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stream {
    json_text: Json,
    error: Json,
    docs_before_error_text: Option<Json>,
}

impl Stream {
    fn to_json(&self) -> Json {
        let mut o = serde_json::json!({"jsonText": self.json_text, "error": self.error});
        if let Some(d) = &self.docs_before_error_text {
            o["docsBeforeErrorText"] = d.clone();
        }
        o
    }
}

impl Vector {
    /// The fields the checks read, as a JSON object.
    fn fields(&self) -> Json {
        let mut o = serde_json::json!({
            "mode": self.mode, "jsonText": self.json_text, "error": self.error,
        });
        let mut set = |k: &str, v: Option<Json>| {
            if let Some(v) = v {
                o[k] = v;
            }
        };
        set(
            "kubectlStream",
            self.kubectl_stream.as_ref().map(Stream::to_json),
        );
        set("unstructuredJsonText", self.unstructured_json_text.clone());
        set("unstructuredError", self.unstructured_error.clone());
        set("docsBeforeErrorText", self.docs_before_error_text.clone());
        set(
            "jsonOmittedTooDeep",
            self.json_omitted_too_deep.map(Json::Bool),
        );
        set(
            "possibleResults",
            self.possible_results
                .as_ref()
                .map(|r| Json::Array(r.iter().map(Stream::to_json).collect())),
        );
        o
    }
}

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/conformance/yaml");

/// What kubectl does with a file: the documents it keeps, then maybe an error.
#[derive(Debug)]
struct Outcome {
    docs: Vec<Expected>,
    error: bool,
    /// False when only the error is known, not the documents kubectl read before it.
    docs_known: bool,
}

#[derive(Debug)]
enum Expected {
    Value(Value),
    /// Too deep for serde_json: compared as compact JSON text.
    Text(String),
}

#[test]
fn yaml_vectors() {
    // Deeply nested vectors need more stack than a test thread has to compare and drop values.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}

fn run() {
    let mut paths = vec![Path::new(DIR).join("k8s-yaml-vectors.json")];
    if let Ok(extra) = std::env::var("KSSA_EXTRA_VECTORS") {
        paths.push(extra.into());
    }
    let known = std::fs::read_to_string(Path::new(DIR).join("KNOWN_DIFFERENCES.md")).unwrap();
    let (mut passed, mut failed, mut unexpected) = (0, 0, Vec::new());
    for path in paths {
        let vectors: Vec<Vector> = parse_deep(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for v in &vectors {
            let name = v.name.as_str();
            match check(v) {
                Ok(()) => passed += 1,
                Err(why) => {
                    failed += 1;
                    if !known.contains(&format!("- `{name}`")) {
                        unexpected.push(format!("{name}: {why}"));
                    }
                }
            }
        }
    }
    for u in &unexpected {
        eprintln!("FAIL {u}");
    }
    println!("yaml: {passed} passed, {failed} failed");
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures",
        unexpected.len()
    );
}

fn check(vector: &Vector) -> Result<(), String> {
    let input = match &vector.yaml {
        Some(text) => text.as_bytes().to_vec(),
        None => base64(vector.yaml_base64.as_deref().unwrap()),
    };
    let v = &vector.fields();
    let mut docs = Vec::new();
    let mut error = None;
    for d in Documents::new(&input) {
        match d {
            Ok(d) => docs.push(d.value),
            Err(e) => error = Some(e.to_string()),
        }
    }
    let possible = match v.get("possibleResults") {
        Some(results) => results
            .as_array()
            .unwrap()
            .iter()
            .map(single_outcome)
            .collect(),
        None => vec![expected(v)],
    };
    let mut why = String::new();
    for want in &possible {
        match compare(want, &docs, error.is_some()) {
            Ok(()) => return Ok(()),
            Err(w) => why = w,
        }
    }
    Err(format!("{why} (kssa error: {error:?})"))
}

fn compare(want: &Outcome, docs: &[Value], error: bool) -> Result<(), String> {
    if want.error != error {
        return Err(format!(
            "expected error: {}, got error: {error}",
            want.error
        ));
    }
    if want.docs.len() != docs.len() && want.docs_known {
        return Err(format!(
            "expected {} documents, got {}",
            want.docs.len(),
            docs.len()
        ));
    }
    for (i, (w, got)) in want.docs.iter().zip(docs).enumerate() {
        let same = match w {
            Expected::Value(w) => w == got,
            Expected::Text(t) => *t == to_json_string(got),
        };
        if !same {
            let w = match w {
                Expected::Value(w) => to_json_string(w),
                Expected::Text(t) => t.chars().take(100).collect(),
            };
            let got: String = to_json_string(got).chars().take(300).collect();
            return Err(format!("document {i}: expected {w}, got {got}"));
        }
    }
    Ok(())
}

/// The kubectl result: `multi` fields, else `kubectlStream`, else the single result as a stream.
fn expected(v: &Json) -> Outcome {
    let deep = v.get("jsonOmittedTooDeep").is_some();
    if v["mode"] == "multi" {
        return stream_outcome(v, deep);
    }
    if let Some(ks) = v.get("kubectlStream") {
        let mut out = stream_outcome(ks, deep);
        out.docs_known = !out.error || ks.get("docsBeforeErrorText").is_some();
        return out;
    }
    let mut single = v.clone();
    if v.get("unstructuredError").is_some() {
        single["error"] = v["unstructuredError"].clone();
    }
    if let Some(text) = v.get("unstructuredJsonText") {
        single["jsonText"] = text.clone();
    }
    let mut out = single_outcome(&single);
    if deep {
        out.docs = out.docs.into_iter().map(|d| text_of(d, &single)).collect();
    }
    out
}

fn text_of(d: Expected, v: &Json) -> Expected {
    match d {
        Expected::Value(_) => Expected::Text(v["jsonText"].as_str().unwrap().to_string()),
        t => t,
    }
}

fn single_outcome(v: &Json) -> Outcome {
    if !v["error"].is_null() {
        return Outcome {
            docs: vec![],
            error: true,
            docs_known: true,
        };
    }
    match v["jsonText"].as_str().unwrap() {
        "null" => Outcome {
            docs: vec![],
            error: false,
            docs_known: true,
        },
        text => docs_outcome(&[text], false, false),
    }
}

fn stream_outcome(v: &Json, deep: bool) -> Outcome {
    let error = !v["error"].is_null();
    let field = if error {
        "docsBeforeErrorText"
    } else {
        "jsonText"
    };
    let texts: Vec<&str> = v
        .get(field)
        .and_then(Json::as_array)
        .map(|a| a.iter().map(|t| t.as_str().unwrap()).collect())
        .unwrap_or_default();
    docs_outcome(&texts, error, deep)
}

/// Reads JSON texts as unstructured decoding would; a text it cannot decode is an error.
fn docs_outcome(texts: &[&str], error: bool, deep: bool) -> Outcome {
    let mut docs = Vec::new();
    for t in texts {
        if deep {
            docs.push(Expected::Text(t.split_whitespace().collect()));
            continue;
        }
        match parse_deep::<Json>(t) {
            Ok(v) => docs.push(Expected::Value(from_serde(&v))),
            Err(_) => {
                return Outcome {
                    docs,
                    error: true,
                    docs_known: true,
                }
            }
        }
    }
    Outcome {
        docs,
        error,
        docs_known: true,
    }
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    } as u32;
    let mut out = Vec::new();
    for chunk in s.as_bytes().chunks(4) {
        let data: Vec<u8> = chunk.iter().copied().filter(|&c| c != b'=').collect();
        let acc = data.iter().fold(0u32, |a, &c| a << 6 | val(c)) << (6 * (4 - data.len()));
        out.extend_from_slice(&acc.to_be_bytes()[1..data.len()]);
    }
    out
}

/// serde_json without its recursion limit (the vectors nest up to 10000 levels).
fn parse_deep<T: serde::de::DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let v = T::deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}
