//! The macros against cel-go's own test expressions (ext `comprehensions_test.go`,
//! `bindings_test.go`, `lists_test.go`; cel `optional` tests), each expected to be `true`.

use super::super::cel_support::{data_error_text, eval};
use kube_cel::cel::Value;

#[track_caller]
fn holds(expr: &str) {
    assert_eq!(
        eval(expr).map_err(|e| e.to_string()),
        Ok(Value::Bool(true)),
        "{expr}"
    );
}

#[test]
fn bind() {
    holds(
        r#"cel.bind(a, 'hell' + 'o' + '!', "%s, %s, %s".format([a, a, a])) == 'hello!, hello!, hello' + '!'"#,
    );
    holds(
        "cel.bind(a, 'hello!', cel.bind(b, 'goodbye', a + ' and, ' + b)) == 'hello! and, goodbye'",
    );
    holds("cel.bind(a, cel.bind(a, 'world', a + '!'), 'hello ' + a) == 'hello ' + 'world' + '!'");
    holds("cel.bind(a, [3, 7], cel.bind(b, a[0], cel.bind(c, a[1], b + c))) == 10");
}

#[test]
fn two_variable_quantifiers_over_lists() {
    holds("[1, 2, 3, 4].all(i, v, i < 5 && v > 0)");
    holds("[1, 2, 3, 4].all(i, v, i < v)");
    holds("[1, 2, 3, 4].all(i, v, i > v) == false");
    holds("cel.bind(listA, [1, 2, 3, 4], cel.bind(listB, [1, 2, 3, 4, 5], listA.all(i, v, listB[?i].hasValue() && listB[i] == v)))");
    holds("cel.bind(listA, [1, 2, 3, 4, 5, 6], cel.bind(listB, [1, 2, 3, 4, 5], listA.all(i, v, listB[?i].hasValue() && listB[i] == v))) == false");
    holds("cel.bind(l, ['hello', 'world', 'hello!', 'worlds'], l.exists(i, v, v.startsWith('hello') && l[?(i+1)].optMap(next, next.endsWith('world')).orValue(false)))");
    holds("cel.bind(l, ['hello', 'world', 'hello!', 'worlds'], l.existsOne(i, v, v.startsWith('hello') && l[?(i+1)].optMap(next, next.endsWith('world')).orValue(false)))");
    holds(
        r#"cel.bind(l, ['hello', 'goodbye', 'hello!', 'goodbye'], l.exists_one(i, v, v.startsWith('hello') && l[?(i+1)].optMap(next, next == "goodbye").orValue(false))) == false"#,
    );
}

#[test]
fn two_variable_quantifiers_over_maps() {
    holds("{'hello': 'world', 'hello!': 'world'}.all(k, v, k.startsWith('hello') && v == 'world')");
    holds("{'hello': 'world', 'hello!': 'worlds'}.all(k, v, k.startsWith('hello') && v.endsWith('world')) == false");
    holds("{'hello': 'world', 'hello!': 'worlds'}.exists(k, v, k.startsWith('hello') && v.endsWith('world'))");
    holds("{'hello': 'world', 'hello!': 'worlds'}.existsOne(k, v, k.startsWith('hello') && v.endsWith('world'))");
    holds("{'hello': 'world', 'hello!': 'wow, world'}.exists_one(k, v, k.startsWith('hello') && v.endsWith('world')) == false");
    holds("{1: 1, 2: 2, 3: 3}.all(i, v, i < 5 && v > 0)");
    holds("!{0: 0}.all(i, v, i < 5 && v > 0)");
}

#[test]
fn a_deciding_item_wins_over_errors() {
    // `&&` and `||` absorb an error when the other side decides (CEL spec, logical operators).
    holds("[0, 1].all(i, v, 1 / v > 5) == false");
    holds("[0, 1].exists(i, v, 1 / v == 1)");
    assert!(eval("[1, 0].all(i, v, 1 / v > 0)").is_err());
}

#[test]
fn transforms() {
    holds(
        r#"['Hello', 'world'].transformList(i, v, "[%d]%s".format([i, v.lowerAscii()])) == ["[0]hello", "[1]world"]"#,
    );
    holds(
        r#"['hello', 'world'].transformList(i, v, v.startsWith('greeting'), "[%d]%s".format([i, v])) == []"#,
    );
    holds("[1, 2, 3].transformList(indexVar, valueVar, (indexVar * valueVar) + valueVar) == [1, 4, 9]");
    holds("[1, 2, 3].transformList(indexVar, valueVar, indexVar % 2 == 0, (indexVar * valueVar) + valueVar) == [1, 9]");
    holds("[3, 2, 1].transformList(i, v, v > i, v) == [3, 2]");
    holds(
        "['Hello', 'world'].transformMap(i, v, [v.lowerAscii()]) == {0: ['hello'], 1: ['world']}",
    );
    holds("['world', 'Hello'].transformMap(i, v, [v.lowerAscii()]).transformList(k, v, v).flatten().sort() == ['hello', 'world']");
    holds("[1, 2, 3].transformMap(indexVar, valueVar, indexVar % 2 == 0, (indexVar * valueVar) + valueVar) == {0: 1, 2: 9}");
    holds("{1: 2, 3: 4, 5: 6}.transformMap(k, v, k % 3 == 0, v + 1) == {3: 5}");
    holds(
        r#"{'hello': 'world', 'goodbye': 'cruel world'}.transformMap(k, v, "%s, %s!".format([k, v])) == {'hello': 'hello, world!', 'goodbye': 'goodbye, cruel world!'}"#,
    );
    holds(
        r#"{'Hello': 'world'}.transformList(k, v, "%s=%s".format([k.lowerAscii(), v])) == ["hello=world"]"#,
    );
    holds("{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(k, _, k).sort() == ['farewell', 'greeting']");
    holds(
        r#""key1:value1 key2:value2 key3:value3".split(" ").transformMapEntry(i, v, cel.bind(entry, v.split(":"), entry.size() == 2 ? {entry[0]: entry[1]} : {})) == {'key1': 'value1', 'key2': 'value2', 'key3': 'value3'}"#,
    );
    holds("{1: 2}.transformMapEntry(k, v, {v: k}) == {2: 1}");
    holds("{'hello': 'world', 'greetings': 'tacocat'}.transformMapEntry(k, v, {}) == {}");
    let e = eval("[1, 2].transformMapEntry(i, v, {'same': v})").unwrap_err();
    assert_eq!(
        data_error_text(&e).as_deref(),
        Some("insert failed: key same already exists")
    );
}

#[test]
fn sort_by() {
    holds("[].sortBy(e, e) == []");
    holds(r#"["a"].sortBy(e, e) == ["a"]"#);
    holds("[-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]");
    holds("[-3, 1, -5, -2, 4].map(e, e * 2).sortBy(e, -(e * e)) == [-10, 8, -6, -4, 2]");
    holds("lists.range(3).sortBy(e, -e) == [2, 1, 0]");
    holds(
        r#"["a", "c", "b", "first"].sortBy(e, e == "first" ? "" : e) == ["first", "a", "b", "c"]"#,
    );
    holds("[{'field': 'lo'}, {'field': 'hi'}].sortBy(m, m.field) == [{'field': 'hi'}, {'field': 'lo'}]");
    let e = eval("[[1], [2]].sortBy(e, e)").unwrap_err();
    assert_eq!(
        data_error_text(&e).as_deref(),
        Some("list elements must be comparable")
    );
}

#[test]
fn optionals_and_dyn() {
    holds("optional.of(2).optMap(x, x * 3).value() == 6");
    holds("!optional.none().optMap(x, x * 3).hasValue()");
    holds("optional.of(2).optFlatMap(x, x > 1 ? optional.of(x) : optional.none()).value() == 2");
    holds("!optional.of(0).optFlatMap(x, x > 1 ? optional.of(x) : optional.none()).hasValue()");
    holds("{'a': 1}[?'a'].optMap(v, v + 1).orValue(0) == 2");
    holds("{'a': 1}[?'b'].optMap(v, v + 1).orValue(0) == 0");
    holds("{'a': {'b': 1}}.?a.?b.orValue(0) == 1 && {'a': 1}.?b.orValue(0) == 0");
    holds("!optional.none().?b.hasValue() && optional.of({'b': 2}).?b.value() == 2");
    holds("dyn(1) == 1 && dyn('x') == 'x'");
    holds("[1, dyn('a')].size() == 2");
}

#[test]
fn bad_forms_are_errors_not_panics() {
    for expr in [
        "cel.bind(1, 2, 3)",
        "cel.bind(a, 2)",
        "[1].all(i, i, true)",
        "[1].all(i.j, k, true)",
        "1.all(j, k, true)",
        "[1].transformList(i, v, 1, 2, 3)",
        "[1].sortBy(1, 2)",
        "1.sortBy(e, e)",
        "1.optMap(x, x)",
        "[1, 'a'].sortBy(e, e)",
        "{'a': 1}.transformMapEntry(k, v, 1)",
    ] {
        assert!(eval(expr).is_err(), "{expr}");
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let mut expr = String::from("1");
    for i in 0..40 {
        expr = format!("cel.bind(v{i}, {expr}, v{i})");
    }
    assert_eq!(eval(&expr).ok(), Some(Value::Int(1)));
}
