//! CI reports against their schemas: every SARIF golden output against the SARIF 2.1.0 JSON
//! schema, every JUnit one against the Apache Ant JUnit XSD (both copied into
//! testdata/reports/), with negative controls showing each check can fail.

use roxmltree::{Document, Node};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

/// The golden cases whose command asks for `-o <format>`, with their expected stdout.
fn outputs(format: &str) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root().join("cases")).unwrap() {
        let case = entry.unwrap().path();
        let Ok(cmd) = std::fs::read_to_string(case.join("cmd")) else {
            continue;
        };
        let words: Vec<&str> = cmd.split_whitespace().collect();
        if words.windows(2).any(|w| w == ["-o", format]) {
            let stdout = std::fs::read_to_string(case.join("stdout")).unwrap();
            out.push((case, stdout));
        }
    }
    out.sort();
    out
}

fn sarif_validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("reports/sarif-schema-2.1.0.json")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft4::new(&schema).expect("the SARIF schema compiles")
}

#[test]
fn sarif_outputs_follow_the_sarif_2_1_0_schema() {
    let validator = sarif_validator();
    let cases = outputs("sarif");
    assert!(cases.len() >= 4, "only {} SARIF cases", cases.len());
    for (case, stdout) in &cases {
        let log: serde_json::Value = serde_json::from_str(stdout)
            .unwrap_or_else(|e| panic!("{}: not JSON: {e}", case.display()));
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", case.display());
        assert_eq!(log["version"], "2.1.0");
        for result in log["runs"][0]["results"].as_array().unwrap() {
            let id = result["ruleId"].as_str().unwrap();
            let index = result["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(
                log["runs"][0]["tool"]["driver"]["rules"][index]["id"],
                id,
                "{}: ruleIndex points at its rule",
                case.display()
            );
        }
    }
    // Negative control: a result with a level SARIF does not know is rejected.
    let (_, stdout) = cases
        .iter()
        .find(|(c, _)| c.ends_with("sarif-conflict"))
        .unwrap();
    let mut log: serde_json::Value = serde_json::from_str(stdout).unwrap();
    log["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!validator.is_valid(&log));
}

/// The part of XML Schema the JUnit XSD uses: global and local elements, named and anonymous
/// complex types (sequence, choice, complexContent and simpleContent extensions), attributes
/// with `use="required"`, and simple types restricted by `pattern` or `minLength`.
struct Xsd<'a> {
    schema: Node<'a, 'a>,
}

fn xs<'a, 'n>(
    node: Node<'a, 'a>,
    name: &'n str,
) -> impl Iterator<Item = Node<'a, 'a>> + use<'a, 'n> {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == name)
}

fn occurs(decl: Node, attr: &str, default: usize) -> usize {
    match decl.attribute(attr) {
        Some("unbounded") => usize::MAX,
        Some(n) => n.parse().unwrap(),
        None => default,
    }
}

impl<'a> Xsd<'a> {
    fn named(&self, kind: &str, name: &str) -> Option<Node<'a, 'a>> {
        xs(self.schema, kind).find(|n| n.attribute("name") == Some(name))
    }

    fn check_value(&self, value: &str, ty: Option<&str>, inline: Option<Node>, at: &str) {
        let simple = inline.or_else(|| ty.and_then(|t| self.named("simpleType", t)));
        if let Some(simple) = simple {
            for r in xs(simple, "restriction") {
                self.check_value(value, r.attribute("base"), None, at);
                for p in xs(r, "pattern") {
                    let re = regex::Regex::new(&format!("^(?:{})$", p.attribute("value").unwrap()))
                        .unwrap();
                    assert!(re.is_match(value), "{at}: {value:?} does not match {re}");
                }
                for m in xs(r, "minLength") {
                    let min: usize = m.attribute("value").unwrap().parse().unwrap();
                    assert!(value.chars().count() >= min, "{at}: {value:?} is too short");
                }
            }
            return;
        }
        match ty {
            Some("xs:int" | "xs:integer") => {
                assert!(
                    value.parse::<i64>().is_ok(),
                    "{at}: {value:?} is not an integer"
                )
            }
            Some("xs:decimal") => {
                assert!(
                    value.parse::<f64>().is_ok(),
                    "{at}: {value:?} is not a decimal"
                )
            }
            _ => {}
        }
    }

    /// Attribute declarations and the content model of a complex type, its base's first.
    fn parts(&self, ty: Node<'a, 'a>) -> (Vec<Node<'a, 'a>>, Vec<Node<'a, 'a>>, bool) {
        let (mut attributes, mut particles, mut text) = (Vec::new(), Vec::new(), false);
        for c in ty.children().filter(|c| c.is_element()) {
            match c.tag_name().name() {
                "attribute" => attributes.push(c),
                "sequence" | "choice" => particles.push(c),
                "complexContent" | "simpleContent" => {
                    text |= c.tag_name().name() == "simpleContent";
                    let ext = xs(c, "extension").next().unwrap();
                    if let Some(base) = self.named("complexType", ext.attribute("base").unwrap()) {
                        let (a, p, t) = self.parts(base);
                        attributes.extend(a);
                        particles.extend(p);
                        text |= t;
                    }
                    let (a, p, _) = self.parts(ext);
                    attributes.extend(a);
                    particles.extend(p);
                }
                _ => {}
            }
        }
        (attributes, particles, text)
    }

    fn check(&self, el: Node, decl: Node<'a, 'a>, at: &str) {
        let at = format!("{at}/{}", el.tag_name().name());
        let ty_name = decl.attribute("type");
        let complex = xs(decl, "complexType")
            .next()
            .or_else(|| ty_name.and_then(|t| self.named("complexType", t)));
        let Some(complex) = complex else {
            // A simple type: text only.
            assert!(
                el.children().all(|c| !c.is_element()),
                "{at}: elements in text"
            );
            self.check_value(
                el.text().unwrap_or(""),
                ty_name,
                xs(decl, "simpleType").next(),
                &at,
            );
            return;
        };
        let (attributes, particles, text) = self.parts(complex);
        for a in el.attributes() {
            let decl = attributes
                .iter()
                .find(|d| d.attribute("name") == Some(a.name()));
            let decl = decl.unwrap_or_else(|| panic!("{at}: undeclared attribute {}", a.name()));
            self.check_value(
                a.value(),
                decl.attribute("type"),
                xs(*decl, "simpleType").next(),
                &at,
            );
        }
        for d in &attributes {
            if d.attribute("use") == Some("required") {
                let name = d.attribute("name").unwrap();
                assert!(
                    el.attribute(name).is_some(),
                    "{at}: missing attribute {name}"
                );
            }
        }
        if !text {
            let stray = el
                .children()
                .any(|c| c.is_text() && !c.text().unwrap().trim().is_empty());
            assert!(!stray, "{at}: text where only elements may be");
        }
        let children: Vec<Node> = el.children().filter(|c| c.is_element()).collect();
        let mut next = 0;
        for group in particles {
            let choice = group.tag_name().name() == "choice";
            let mut chosen = 0;
            for p in xs(group, "element") {
                let name = p.attribute("name").unwrap();
                let mut n = 0;
                while next < children.len() && children[next].tag_name().name() == name {
                    self.check(children[next], p, &at);
                    n += 1;
                    next += 1;
                }
                assert!(n <= occurs(p, "maxOccurs", 1), "{at}: too many {name}");
                if !choice {
                    assert!(n >= occurs(p, "minOccurs", 1), "{at}: missing {name}");
                }
                chosen += usize::from(n > 0);
            }
            if choice {
                assert!(chosen <= 1, "{at}: more than one choice taken");
                assert!(
                    chosen >= occurs(group, "minOccurs", 1),
                    "{at}: no choice taken"
                );
            }
        }
        assert_eq!(
            next,
            children.len(),
            "{at}: unexpected element {:?}",
            children.get(next)
        );
    }

    fn validate(&self, xml: &str) {
        let doc = Document::parse(xml).expect("well-formed XML");
        let root = doc.root_element();
        let decl = xs(self.schema, "element")
            .find(|e| e.attribute("name") == Some(root.tag_name().name()))
            .expect("the root is a global element");
        self.check(root, decl, "");
    }
}

#[test]
fn junit_outputs_follow_the_ant_junit_schema() {
    let text = std::fs::read_to_string(root().join("reports/JUnit.xsd")).unwrap();
    let schema_doc = Document::parse(&text).unwrap();
    let xsd = Xsd {
        schema: schema_doc.root_element(),
    };
    let cases = outputs("junit");
    assert!(cases.len() >= 3, "only {} JUnit cases", cases.len());
    for (case, stdout) in &cases {
        let checked =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| xsd.validate(stdout)));
        assert!(
            checked.is_ok(),
            "{}: does not follow the schema",
            case.display()
        );
        let doc = Document::parse(stdout).unwrap();
        for suite in doc.descendants().filter(|n| n.has_tag_name("testsuite")) {
            let count = |tag: &str| {
                suite
                    .children()
                    .filter(|c| c.has_tag_name("testcase"))
                    .filter(|c| tag.is_empty() || c.children().any(|x| x.has_tag_name(tag)))
                    .count()
                    .to_string()
            };
            assert_eq!(suite.attribute("tests").unwrap(), count(""));
            assert_eq!(suite.attribute("failures").unwrap(), count("failure"));
            assert_eq!(suite.attribute("errors").unwrap(), count("error"));
        }
    }
    // Negative controls: the checker rejects a testcase without its classname, and a suite
    // without its timestamp.
    let (_, good) = &cases[0];
    for broken in [
        good.replacen(" classname=\"", " class=\"", 1),
        good.replacen(" timestamp=\"", " stamp=\"", 1),
    ] {
        let checked =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| xsd.validate(&broken)));
        assert!(checked.is_err(), "accepted:\n{broken}");
    }
}
