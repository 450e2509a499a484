//! CEL macros of the Kubernetes environment that the `cel` crate does not expand, written as
//! functions over their unevaluated arguments (the crate hands a function its argument
//! expressions): `cel.bind`, cel-go's two-variable comprehensions, `sortBy`, `optMap`,
//! `optFlatMap`, and the `dyn` conversion. Each follows cel-go's expansion of the macro.

use super::cel_support::data_error;
use kube_cel::cel::common::ast::Expr;
use kube_cel::cel::objects::{Key, Map, OptionalValue};
use kube_cel::cel::{Context, ExecutionError, FunctionContext, ResolveResult, Value};
use std::cell::Cell;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

pub(super) fn register(ctx: &mut Context) {
    ctx.add_function("cel.bind", bind);
    ctx.add_function("all", |ftx: &FunctionContext| {
        quantifier(ftx, Quantifier::All)
    });
    ctx.add_function("exists", |ftx: &FunctionContext| {
        quantifier(ftx, Quantifier::Exists)
    });
    ctx.add_function("existsOne", exists_one);
    ctx.add_function("exists_one", exists_one);
    ctx.add_function("transformList", |ftx: &FunctionContext| {
        transform(ftx, Transform::List)
    });
    ctx.add_function("transformMap", |ftx: &FunctionContext| {
        transform(ftx, Transform::Map)
    });
    ctx.add_function("transformMapEntry", |ftx: &FunctionContext| {
        transform(ftx, Transform::MapEntry)
    });
    ctx.add_function("sortBy", sort_by);
    ctx.add_function("optMap", |ftx: &FunctionContext| opt_map(ftx, false));
    ctx.add_function("optFlatMap", |ftx: &FunctionContext| opt_map(ftx, true));
    ctx.add_function("dyn", |ftx: &FunctionContext, v: Value| {
        if ftx.this.is_some() {
            return Err(ExecutionError::NoSuchOverload);
        }
        Ok(v)
    });
}

/// How deep macro bodies may nest (the parser already stops at 96 levels of expression).
const MAX_DEPTH: u32 = 64;

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Evaluates argument `index` of the call with `bindings` added to the caller's variables.
fn eval_with(ftx: &FunctionContext, index: usize, bindings: &[(&str, &Value)]) -> ResolveResult {
    let expr = ftx
        .args
        .get(index)
        .ok_or(ExecutionError::InvalidArgumentCount {
            expected: index + 1,
            actual: ftx.args.len(),
        })?;
    let depth = DEPTH.with(|d| d.get());
    if depth >= MAX_DEPTH {
        return Err(ExecutionError::function_error(
            ftx.name,
            "nested too deeply",
        ));
    }
    DEPTH.with(|d| d.set(depth + 1));
    let mut scope = ftx.ptx.new_inner_scope();
    for (name, value) in bindings {
        scope.add_variable_from_value(*name, (*value).clone());
    }
    let result = Value::resolve(expr, &scope);
    DEPTH.with(|d| d.set(depth));
    result
}

/// The name argument `index` declares (a macro's variable must be a simple name).
fn ident<'a>(ftx: &'a FunctionContext, index: usize) -> Result<&'a str, ExecutionError> {
    match ftx.args.get(index).map(|e| &e.expr) {
        Some(Expr::Ident(name)) => Ok(name),
        _ => Err(ftx.error("argument must be a simple name")),
    }
}

fn expect_args(ftx: &FunctionContext, counts: &[usize]) -> Result<(), ExecutionError> {
    if counts.contains(&ftx.args.len()) {
        Ok(())
    } else {
        Err(ExecutionError::InvalidArgumentCount {
            expected: counts[0],
            actual: ftx.args.len(),
        })
    }
}

/// `cel.bind(name, init, expr)` (cel-go `ext.Bindings`): `expr` with `name` bound to `init`.
fn bind(ftx: &FunctionContext) -> ResolveResult {
    expect_args(ftx, &[3])?;
    let name = ident(ftx, 0)?;
    let init = eval_with(ftx, 1, &[])?;
    eval_with(ftx, 2, &[(name, &init)])
}

/// The (index or key, value) pairs a two-variable comprehension visits: a list's items with
/// their indexes, a map's entries (in key order; Go visits them in no fixed order).
fn pairs(ftx: &FunctionContext) -> Result<Vec<(Value, Value)>, ExecutionError> {
    match &ftx.this {
        Some(Value::List(items)) => Ok(items
            .iter()
            .enumerate()
            .map(|(i, v)| (Value::Int(i as i64), v.clone()))
            .collect()),
        Some(Value::Map(m)) => {
            let mut entries: Vec<(&Key, &Value)> = m.map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Ok(entries
                .into_iter()
                .map(|(k, v)| (key_value(k), v.clone()))
                .collect())
        }
        Some(_) => Err(ExecutionError::NoSuchOverload),
        None => Err(ExecutionError::MissingArgumentOrTarget),
    }
}

fn key_value(k: &Key) -> Value {
    match k {
        Key::Int(i) => Value::Int(*i),
        Key::Uint(u) => Value::UInt(*u),
        Key::Bool(b) => Value::Bool(*b),
        Key::String(s) => Value::String(s.clone()),
    }
}

fn value_key(v: &Value) -> Result<Key, ExecutionError> {
    match v {
        Value::Int(i) => Ok(Key::Int(*i)),
        Value::UInt(u) => Ok(Key::Uint(*u)),
        Value::Bool(b) => Ok(Key::Bool(*b)),
        Value::String(s) => Ok(Key::String(s.clone())),
        other => Err(ExecutionError::UnsupportedKeyType(other.clone())),
    }
}

/// The two iteration variables of a two-variable comprehension and their checks
/// (comprehensions.go `extractIterVars`).
fn iter_vars<'a>(ftx: &'a FunctionContext) -> Result<(&'a str, &'a str), ExecutionError> {
    let (first, second) = (ident(ftx, 0)?, ident(ftx, 1)?);
    if first == second {
        return Err(ftx.error(format!("duplicate variable name: {first}")));
    }
    Ok((first, second))
}

fn eval_bool(
    ftx: &FunctionContext,
    index: usize,
    bindings: &[(&str, &Value)],
) -> Result<bool, ExecutionError> {
    match eval_with(ftx, index, bindings)? {
        Value::Bool(b) => Ok(b),
        _ => Err(ExecutionError::NoSuchOverload),
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Quantifier {
    All,
    Exists,
}

/// `all(i, v, p)` and `exists(i, v, p)`: the accumulator is combined with `&&` (`||`), so a
/// deciding `false` (`true`) wins over errors of other items, which otherwise surface (the first).
fn quantifier(ftx: &FunctionContext, q: Quantifier) -> ResolveResult {
    expect_args(ftx, &[3])?;
    let (first, second) = iter_vars(ftx)?;
    let deciding = q == Quantifier::Exists;
    let mut error = None;
    for (k, v) in pairs(ftx)? {
        match eval_bool(ftx, 2, &[(first, &k), (second, &v)]) {
            Ok(b) if b == deciding => return Ok(Value::Bool(deciding)),
            Ok(_) => {}
            Err(e) => {
                error.get_or_insert(e);
            }
        }
    }
    match error {
        Some(e) => Err(e),
        None => Ok(Value::Bool(!deciding)),
    }
}

/// `existsOne(i, v, p)`: whether exactly one item satisfies `p`; every item is visited.
fn exists_one(ftx: &FunctionContext) -> ResolveResult {
    expect_args(ftx, &[3])?;
    let (first, second) = iter_vars(ftx)?;
    let mut count = 0;
    for (k, v) in pairs(ftx)? {
        if eval_bool(ftx, 2, &[(first, &k), (second, &v)])? {
            count += 1;
        }
    }
    Ok(Value::Bool(count == 1))
}

#[derive(Clone, Copy, PartialEq)]
enum Transform {
    List,
    Map,
    MapEntry,
}

/// `transformList(i, v, [filter,] expr)`, `transformMap(k, v, [filter,] expr)` (the result keyed
/// like the input) and `transformMapEntry(k, v, [filter,] entry)` (the entries of the maps `entry`
/// gives, merged; a key given twice is an error).
fn transform(ftx: &FunctionContext, kind: Transform) -> ResolveResult {
    expect_args(ftx, &[3, 4])?;
    let (first, second) = iter_vars(ftx)?;
    let filtered = ftx.args.len() == 4;
    let expr = ftx.args.len() - 1;
    let mut list = Vec::new();
    let mut map: HashMap<Key, Value> = HashMap::new();
    for (k, v) in pairs(ftx)? {
        let bindings = [(first, &k), (second, &v)];
        if filtered && !eval_bool(ftx, 2, &bindings)? {
            continue;
        }
        let result = eval_with(ftx, expr, &bindings)?;
        match kind {
            Transform::List => list.push(result),
            Transform::Map => {
                map.insert(value_key(&k)?, result);
            }
            Transform::MapEntry => {
                let Value::Map(entries) = result else {
                    return Err(ExecutionError::NoSuchOverload);
                };
                for (key, value) in entries.map.iter() {
                    if map.contains_key(key) {
                        return Err(data_error(format!(
                            "insert failed: key {} already exists",
                            go_key(key)
                        )));
                    }
                    map.insert(key.clone(), value.clone());
                }
            }
        }
    }
    Ok(match kind {
        Transform::List => Value::List(Arc::new(list)),
        _ => Value::Map(Map { map: Arc::new(map) }),
    })
}

/// A key as Go's `%v` prints a CEL value.
fn go_key(k: &Key) -> String {
    match k {
        Key::Int(i) => i.to_string(),
        Key::Uint(u) => u.to_string(),
        Key::Bool(b) => b.to_string(),
        Key::String(s) => s.to_string(),
    }
}

/// `list.sortBy(e, key)` (cel-go `ext.Lists` `sortByMacro` and `sortListByAssociatedKeys`): the
/// items ordered by their keys, which must be comparable and of one type. Go's `sort.Slice` is
/// stable up to 12 items (insertion sort); beyond, equal keys may come out in another order.
fn sort_by(ftx: &FunctionContext) -> ResolveResult {
    expect_args(ftx, &[2])?;
    let name = ident(ftx, 0)?;
    let Some(Value::List(items)) = &ftx.this else {
        return Err(ExecutionError::NoSuchOverload);
    };
    let keys = items
        .iter()
        .map(|item| eval_with(ftx, 1, &[(name, item)]))
        .collect::<Result<Vec<_>, _>>()?;
    let Some(first) = keys.first() else {
        return Ok(Value::List(items.clone()));
    };
    if !comparable(first) {
        return Err(data_error("list elements must be comparable"));
    }
    if keys
        .iter()
        .any(|k| std::mem::discriminant(k) != std::mem::discriminant(first))
    {
        return Err(data_error("list elements must have the same type"));
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| compare(&keys[a], &keys[b]));
    Ok(Value::List(Arc::new(
        order.into_iter().map(|i| items[i].clone()).collect(),
    )))
}

fn comparable(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_)
            | Value::UInt(_)
            | Value::Float(_)
            | Value::Bool(_)
            | Value::String(_)
            | Value::Bytes(_)
            | Value::Duration(_)
            | Value::Timestamp(_)
    )
}

/// Two keys of one comparable type.
fn compare(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Int(a), Value::Int(b)) => a.cmp(b),
        (Value::UInt(a), Value::UInt(b)) => a.cmp(b),
        (Value::Float(a), Value::Float(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
        (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
        (Value::String(a), Value::String(b)) => a.cmp(b),
        (Value::Bytes(a), Value::Bytes(b)) => a.cmp(b),
        (Value::Duration(a), Value::Duration(b)) => a.cmp(b),
        (Value::Timestamp(a), Value::Timestamp(b)) => a.cmp(b),
        _ => Ordering::Equal,
    }
}

/// `opt.optMap(v, expr)` is `optional.of(expr)` with `v` bound to the value, `optional.none()`
/// for none; `optFlatMap` gives `expr` itself, an optional (cel-go `cel/library.go`).
fn opt_map(ftx: &FunctionContext, flat: bool) -> ResolveResult {
    expect_args(ftx, &[2])?;
    let name = ident(ftx, 0)?;
    let target = ftx
        .this
        .as_ref()
        .ok_or(ExecutionError::MissingArgumentOrTarget)?;
    let optional: &OptionalValue = target.try_into()?;
    let Some(value) = optional.value() else {
        return Ok(Value::Opaque(Arc::new(OptionalValue::none())));
    };
    let result = eval_with(ftx, 1, &[(name, value)])?;
    if flat {
        let _: &OptionalValue = (&result).try_into()?;
        Ok(result)
    } else {
        Ok(Value::Opaque(Arc::new(OptionalValue::of(result))))
    }
}

#[cfg(test)]
#[path = "cel_macros_tests.rs"]
mod tests;
