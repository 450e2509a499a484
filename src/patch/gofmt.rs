//! Go's `%v` rendering of decoded JSON (`map[k:v]` with sorted keys, `<nil>`, `1e+06`) and its
//! `reflect` type names, used to word errors exactly as the reference libraries do.

use crate::value::{Map, Value};

/// `fmt.Sprintf("%v", v)` for a decoded JSON value.
pub(crate) fn go_value(v: &Value) -> String {
    let mut out = String::new();
    write(&mut out, v);
    out
}

/// `%v` of a decoded JSON object: `map[k:v ...]` with sorted keys.
pub(crate) fn go_map(m: &Map) -> String {
    let mut out = String::new();
    write_map(&mut out, m);
    out
}

fn write_map(out: &mut String, m: &Map) {
    let mut keys: Vec<&String> = m.keys().collect();
    keys.sort();
    out.push_str("map[");
    for (i, k) in keys.into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(k);
        out.push(':');
        write(out, &m[k]);
    }
    out.push(']');
}

fn write(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Float(f) => out.push_str(&go_float(*f)),
        Value::String(s) => out.push_str(s),
        Value::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write(out, item);
            }
            out.push(']');
        }
        Value::Map(m) => write_map(out, m),
    }
}

/// `%v` of a float64: shortest digits, exponent form when the exponent is < -4 or >= 6
/// (strconv's `'g'` with shortest precision).
/// `%v` of a float64 (`strconv` 'g', shortest: exponent form below 1e-4 and from 1e6).
pub(crate) fn go_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    } else {
        format!("{f}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;

    #[test]
    fn maps_print_sorted_like_go() {
        let v = from_json_str(r#"{"name":"x","$patch":"delete","n":[1,2.5,null]}"#).unwrap();
        assert_eq!(go_value(&v), "map[$patch:delete n:[1 2.5 <nil>] name:x]");
    }

    #[test]
    fn floats_switch_to_exponent_form() {
        assert_eq!(go_float(80.5), "80.5");
        assert_eq!(go_float(1e6), "1e+06");
        assert_eq!(go_float(123456.5), "123456.5");
        assert_eq!(go_float(0.00001), "1e-05");
    }
}
