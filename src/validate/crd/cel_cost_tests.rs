//! The estimator against apiextensions' own cost table (`pkg/apiserver/schema/cel/
//! compilation_test.go` `TestCostEstimation`): each rule's worst-case cost on a schema without
//! bounds, then with the bound set to the case's figure.

use super::cel_cost::{decl, estimate};
use crate::kube::KubeVersion;
use std::sync::Arc;

fn prim(t: &str) -> String {
    match t {
        "int-or-string" => r#"{"x-kubernetes-int-or-string":true}"#.to_string(),
        "duration" | "date" | "date-time" => format!(r#"{{"type":"string","format":"{t}"}}"#),
        _ => format!(r#"{{"type":"{t}"}}"#),
    }
}

fn bound(key: &str, max: Option<i64>) -> String {
    max.map_or(String::new(), |m| format!(r#","{key}":{m}"#))
}

fn array(t: &str, max: Option<i64>) -> String {
    format!(
        r#"{{"type":"array","items":{}{}}}"#,
        prim(t),
        bound("maxItems", max)
    )
}

fn map(t: &str, max: Option<i64>) -> String {
    format!(
        r#"{{"type":"object","additionalProperties":{}{}}}"#,
        prim(t),
        bound("maxProperties", max)
    )
}

fn string(max: Option<i64>) -> String {
    format!(r#"{{"type":"string"{}}}"#, bound("maxLength", max))
}

fn objects(max: Option<i64>) -> String {
    format!(
        r#"{{"type":"array","items":{{"type":"object","required":["required"],
        "properties":{{"required":{{"type":"string"}},"optional":{{"type":"string"}}}}}}{}}}"#,
        bound("maxItems", max)
    )
}

fn strings(max: Option<i64>) -> String {
    format!(
        r#"{{"type":"array","items":{}{}}}"#,
        string(max),
        bound("maxItems", max)
    )
}

fn cost(schema: &str, rule: &str) -> Option<u64> {
    cost_at(schema, rule, 36)
}

fn cost_at(schema: &str, rule: &str, minor: u8) -> Option<u64> {
    let value = crate::value::from_json_str(schema).unwrap();
    let root = Arc::new(decl(&value, false).unwrap());
    estimate(rule, &root, KubeVersion::new(minor).unwrap(), false)
}

type Gen = fn(Option<i64>) -> String;

#[test]
fn costs_match_apiextensions_table() {
    let cases: &[(Gen, &str, u64, i64, u64)] = &[
        (|m| array("number", m), "self.all(x, true)", 4718591, 10, 32),
        (|m| array("string", m), "self.all(x, true)", 3145727, 20, 62),
        (|m| array("boolean", m), "self.all(x, true)", 1887437, 5, 17),
        (objects, "self.all(x, true)", 555128, 50, 152),
        (|m| map("number", m), "self.all(x, true)", 1348169, 10, 32),
        (|m| map("number", m), "has(self.x)", 0, 100, 0),
        (|m| map("string", m), "self.all(x, true)", 1179647, 3, 11),
        (|m| map("boolean", m), "self.all(x, true)", 943718, 100, 302),
        (string, "self.contains('test')", 314574, 10, 5),
        (string, "self.startsWith('test')", 2, 15, 2),
        (string, "self.endsWith('test')", 2, 30, 2),
        (
            string,
            r#"size(self + "hello") > size("hello")"#,
            314578,
            4,
            7,
        ),
        (|m| array("number", m), "self[1] == 0.0", 2, 5000, 2),
        (
            |m| array("string", m),
            "self[1] == self[1]",
            314577,
            8,
            314577,
        ),
        (
            |m| array("number", m),
            "self.all(x, self.all(y, true))",
            0,
            10,
            352,
        ),
        (
            |m| array("number", m),
            "self.all(x, self.all(y, self.all(z, true)))",
            0,
            10,
            3552,
        ),
        (string, r#"self.matches("x")"#, 314574, 50, 22),
        (
            string,
            r#""".matches("(((((((((())))))))))[0-9]")"#,
            7,
            10,
            7,
        ),
        (string, r#"self.matches("")"#, 1, 100, 1),
        (|m| array("number", m), "self[3] == 0.0", 2, 0, 2),
        (|m| map("number", m), r#"self["x"] == 0.0"#, 2, 0, 2),
        (string, r#"self == "x""#, 2, 0, 1),
        (
            |m| array("number", m),
            "self.all(x, x == 0.0)",
            6291454,
            3 * 1024 * 2048,
            25165826,
        ),
        (
            |m| array("int-or-string", m),
            "self.all(x, true)",
            4718591,
            10,
            32,
        ),
        (|m| array("int-or-string", m), "self[0] == 5", 3, 10, 3),
        (|m| array("boolean", m), "self[0] == false", 2, 25, 2),
        (objects, "self[0] == null", 2, 422, 2),
        (
            |m| array("duration", m),
            "self.all(x, true)",
            2359295,
            5,
            17,
        ),
        (
            |m| array("duration", m),
            "self[0].getHours() == 2",
            4,
            525,
            4,
        ),
        (|m| array("date", m), "self.all(x, true)", 725936, 15, 47),
        (
            |m| array("date", m),
            "self[2].getDayOfMonth() == 13",
            4,
            42,
            4,
        ),
        (
            |m| array("date-time", m),
            "self.all(x, true)",
            428963,
            25,
            77,
        ),
        (
            |m| map("int-or-string", m),
            "self.all(x, true)",
            1348169,
            15,
            47,
        ),
        (|m| map("duration", m), "self.all(x, true)", 1048577, 5, 17),
        (|m| map("date", m), "self.all(x, true)", 524288, 10, 32),
        (|m| map("date-time", m), "self.all(x, true)", 349526, 25, 77),
        (string, "self.find('[0-9]+') == ''", 629147, 10, 11),
        (strings, "self.join(' ') == 'aa bb'", 329853068905, 10, 43),
        (strings, "self.isSorted() == true", 329854432052, 10, 52),
        (string, "self.lowerAscii() == 'lower!'", 314575, 10, 6),
        (
            |m| map("integer", m),
            "oldSelf.size() == self.size()",
            5,
            10,
            5,
        ),
        (
            |m| map("date-time", m),
            r#"self["a"] == self["b"]"#,
            8,
            7,
            8,
        ),
        (
            |m| map("duration", m),
            r#"self["c"] == self["d"]"#,
            8,
            42,
            8,
        ),
    ];
    for (gen, rule, unbounded, max, bounded) in cases {
        let calc = cost(&gen(None), rule).unwrap_or_else(|| panic!("no estimate: {rule}"));
        // As upstream, a zero expectation is not compared (`has()` costs its operand's 1).
        if *unbounded == 0 && rule.contains("self.all(y") {
            assert!(calc >= 100_000_000, "{rule}: {calc}");
        } else if *unbounded != 0 {
            assert_eq!(calc, *unbounded, "{rule} unbounded");
        }
        let set = cost(&gen(Some(*max)), rule);
        if *bounded != 0 {
            assert_eq!(set, Some(*bounded), "{rule} at {max}");
        }
    }
}

#[test]
fn enums_bound_strings_and_objects_replace_and_split() {
    let enumerated = |m: Option<i64>| {
        format!(
            r#"{{"type":"string","enum":["A","B","C","LongValue"]{}}}"#,
            bound("maxLength", m)
        )
    };
    assert_eq!(cost(&enumerated(None), "self.contains('A')"), Some(2));
    assert_eq!(
        cost(&enumerated(Some(1000)), "self.contains('A')"),
        Some(401)
    );
    let replace = |m: Option<i64>| {
        format!(
            r#"{{"type":"object","properties":{{"str":{},"before":{},"after":{}}}}}"#,
            string(m),
            string(Some(2)),
            string(Some(4))
        )
    };
    let rule = "self.str.replace(self.before, self.after) == 'does not matter'";
    assert_eq!(cost(&replace(None), rule), Some(629154));
    assert_eq!(cost(&replace(Some(4)), rule), Some(12));
    let split = |m: Option<i64>| {
        format!(
            r#"{{"type":"object","properties":{{"str":{},"separator":{}}}}}"#,
            string(m),
            string(m)
        )
    };
    let rule = "self.str.split(self.separator) == []";
    assert_eq!(cost(&split(None), rule), Some(629160));
    assert_eq!(cost(&split(Some(10)), rule), Some(22));
}

#[test]
fn what_is_not_modelled_gives_no_estimate() {
    assert_eq!(cost(&string(None), "self.charAt(0) == 'a'"), None);
    assert_eq!(cost(&array("int-or-string", None), "self[0] + 1 > 2"), None);
    assert_eq!(cost(&string(None), "self.?x.orValue('') == ''"), None);
}

#[test]
fn optionals_urls_and_quantities() {
    let tier = r#"{"type":"string","enum":["standard","premium"]}"#;
    let value = crate::value::from_json_str(tier).unwrap();
    let root = Arc::new(decl(&value, false).unwrap());
    let rule = "!oldSelf.hasValue() || oldSelf.value() != 'premium' || self == 'premium'";
    // `!oldSelf.hasValue()` 3; `oldSelf.value() != 'premium'`: 2 for the value, 1 for the
    // comparison (the shorter side has 7 characters); `self == 'premium'` 2.
    assert_eq!(
        estimate(rule, &root, KubeVersion::new(36).unwrap(), true),
        Some(3 + 3 + 2)
    );
    assert_eq!(
        estimate(rule, &root, KubeVersion::new(36).unwrap(), false),
        None
    );
    // url: 3145726 × 0.1 plus `self`; getScheme 1; `==` with a 5-character literal 1.
    let rule = "isURL(self) && url(self).getScheme() == 'https'";
    assert_eq!(cost(&string(None), rule), Some(2 + 314574 + 1 + 1));
    let at = |minor| cost_at(&string(Some(10)), "quantity(self).isInteger()", minor);
    // 40 × 0.1 + 1 for the parse, 1 for the method; 1.33 prices the parse at one unit.
    assert_eq!(at(32), Some(6));
    assert_eq!(at(33), Some(3));
    assert_eq!(at(34), Some(6));
}

#[test]
fn two_variable_macros_cost_as_their_expansion() {
    let ints = array("integer", Some(10));
    let at = |rule: &str, minor| {
        let value = crate::value::from_json_str(&ints).unwrap();
        let root = Arc::new(decl(&value, false).unwrap());
        estimate(rule, &root, KubeVersion::new(minor).unwrap(), false)
    };
    // range 1, result 1, ten times (condition 2 + step 1 + predicate 2).
    assert_eq!(at("self.all(x, x > 0)", 36), Some(52));
    assert_eq!(at("self.all(i, x, x > 0)", 36), Some(52));
    // A predicate over both variables reads one more.
    assert_eq!(at("self.all(i, x, x > i)", 36), Some(62));
    assert_eq!(
        at("self.exists(i, x, x > 0)", 36),
        at("self.exists(x, x > 0)", 36)
    );
    // condition 0, step 2 + the predicate's 2, result 2.
    assert_eq!(at("self.existsOne(i, x, x > 0)", 36), Some(1 + 2 + 10 * 4));
    // step: list append 1 + accumulator 1 + list creation 10 + the transform's 2.
    assert_eq!(
        at("self.transformList(i, x, x * 2).size() > 0", 36),
        Some(10 + 1 + 1 + 10 * 14 + 1 + 1)
    );
    assert_eq!(at("self.all(i, x, x > 0)", 32), None);
}

#[test]
fn ips_cidrs_and_semvers_match_the_library_cost_tests() {
    // k8s.io/apiserver pkg/cel/library/cost_test.go (v0.36) `TestIPCost`, `TestCIDRCost` and
    // `TestSemverCost`: the estimates' maxima.
    let cases = [
        ("ip('192.168.0.1')", 2),
        ("ip('192.168.0.1').family()", 3),
        ("ip('192.168.0.1').isGlobalUnicast()", 3),
        ("ip('192.168.0.1') == ip('192.168.0.1')", 5),
        ("ip('2001:db8:3333:4444:5555:6666:7777:8888')", 4),
        (
            "ip('2001:db8:3333:4444:5555:6666:7777:8888').isLoopback()",
            5,
        ),
        ("cidr('192.168.0.0/16')", 2),
        ("cidr('192.168.0.0/16').ip()", 3),
        ("cidr('192.168.0.0/16').prefixLength()", 3),
        ("cidr('192.168.0.0/16').masked()", 3),
        ("cidr('192.168.0.0/16') == cidr('2001:db8::/32')", 5),
        (
            "cidr('192.168.0.0/16').containsCIDR(cidr('192.0.0.0/30'))",
            11,
        ),
        ("cidr('192.168.0.0/16').containsCIDR('192.0.0.0/30')", 11),
        ("cidr('192.168.0.0/16').containsIP(ip('192.0.0.1'))", 7),
        ("cidr('192.168.0.0/16').containsIP('192.169.0.1')", 8),
        (
            "cidr('2001:db8::/32').containsIP(ip('2001:db8:3333:4444:5555:6666:7777:8888'))",
            10,
        ),
        ("cidr('2001:db8::/32').containsIP('2001:db8::1')", 8),
        ("semver('1.0.0')", 1),
        ("isSemver('1234.56789012345.67890123456789')", 4),
        ("semver('1.2.3').major()", 2),
        ("semver('1.0.0').isLessThan(semver('1.1.0'))", 3),
        ("semver('1.0.0').compareTo(semver('1.2.3'))", 3),
    ];
    for (rule, want) in cases {
        assert_eq!(cost(&string(None), rule), Some(want), "{rule}");
    }
    let at = |minor| cost_at(&string(Some(10)), "isCIDR(self)", minor);
    // 40 × 0.1 plus `self`; 1.33 prices the parse at one unit, as for quantities.
    assert_eq!((at(32), at(33), at(34)), (Some(5), Some(2), Some(5)));
    // The equality estimate of these types appeared in 1.32.
    let equal = "ip('192.168.0.1') == ip('192.168.0.1')";
    assert_eq!(cost_at(&string(None), equal, 31), None);
}
