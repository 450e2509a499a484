//! `kssa-gotypesgen`: regenerates `src/defaults/k8s-1.36.gotypes`, the Go structs of k8s.io/api
//! and the apimachinery types they use, from their Go sources (`git archive v0.36.3` of
//! kubernetes/api and kubernetes/apimachinery). The typed round trip reads it.
//!
//! Only declarations are read: `type X struct { ... }` with each field's Go type and `json` tag,
//! `type X Y` / `type X = Y`, the imports that qualify names, and `GroupName` per package.

use anyhow::Context;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const USAGE: &str = "usage: kssa-gotypesgen K8S_API_DIR APIMACHINERY_DIR [OUTPUT]";

/// apimachinery packages the API types refer to, by import path suffix.
const APIMACHINERY: &[(&str, &str)] = &[
    ("pkg/apis/meta/v1", "meta/v1"),
    ("pkg/api/resource", "resource"),
    ("pkg/util/intstr", "intstr"),
    ("pkg/runtime", "runtime"),
    ("pkg/types", "types"),
];

/// One package's declarations.
#[derive(Default)]
struct Package {
    group: Option<String>,
    /// type name → `S field...` or `T type`.
    decls: BTreeMap<String, String>,
}

/// The short key of an import path, or `None` for packages outside the model.
fn package_key(import: &str) -> Option<String> {
    if let Some(rest) = import.strip_prefix("k8s.io/api/") {
        return Some(rest.to_string());
    }
    let rest = import.strip_prefix("k8s.io/apimachinery/")?;
    APIMACHINERY
        .iter()
        .find(|(path, _)| *path == rest)
        .map(|(_, key)| key.to_string())
}

/// Import alias → package key, for one file.
fn imports(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut in_block = false;
    for line in text.lines() {
        let line = line.trim();
        let spec = if in_block {
            if line == ")" {
                in_block = false;
                continue;
            }
            line
        } else if line == "import (" {
            in_block = true;
            continue;
        } else if let Some(rest) = line.strip_prefix("import ") {
            rest
        } else {
            continue;
        };
        let mut parts = spec.split_whitespace();
        let (alias, path) = match (parts.next(), parts.next()) {
            (Some(a), Some(p)) if p.starts_with('"') => (Some(a), p),
            (Some(p), _) if p.starts_with('"') => (None, p),
            _ => continue,
        };
        let path = path.trim_matches('"');
        let Some(key) = package_key(path) else {
            continue;
        };
        let alias = alias
            .map(str::to_string)
            .unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path).to_string());
        out.insert(alias, key);
    }
    out
}

const PRIMITIVES: &[&str] = &[
    "string", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
    "uint32", "uint64", "float32", "float64", "byte",
];

/// Rewrites a Go type expression with package-qualified names: `*metav1.Time` → `*meta/v1.Time`.
fn normalize(ty: &str, pkg: &str, imports: &BTreeMap<String, String>) -> Option<String> {
    if let Some(rest) = ty.strip_prefix('*') {
        return Some(format!("*{}", normalize(rest, pkg, imports)?));
    }
    if ty == "[]byte" {
        return Some("bytes".into());
    }
    if let Some(rest) = ty.strip_prefix("[]") {
        return Some(format!("[]{}", normalize(rest, pkg, imports)?));
    }
    if let Some(rest) = ty.strip_prefix("map[") {
        let close = rest.find(']')?;
        return Some(format!(
            "map[]{}",
            normalize(&rest[close + 1..], pkg, imports)?
        ));
    }
    if PRIMITIVES.contains(&ty) {
        return Some(ty.to_string());
    }
    if ty == "interface{}" || ty == "any" {
        return Some("any".into());
    }
    match ty.split_once('.') {
        Some((alias, name)) => Some(format!("{}.{name}", imports.get(alias)?)),
        None if ty.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            Some(format!("{pkg}.{ty}"))
        }
        None => None,
    }
}

/// `json:"name,omitempty"` → (name, options) from a struct tag.
fn json_tag(tag: &str) -> Option<(String, Vec<String>)> {
    let start = tag.find("json:\"")? + 6;
    let end = tag[start..].find('"')? + start;
    let mut parts = tag[start..end].split(',');
    let name = parts.next().unwrap_or("").to_string();
    Some((name, parts.map(str::to_string).collect()))
}

/// One struct field line → `json|flags|type`, or `None` when Go does not encode it.
fn field(line: &str, pkg: &str, imports: &BTreeMap<String, String>) -> Option<String> {
    let (decl, tag) = match line.find('`') {
        Some(i) => (line[..i].trim(), line[i + 1..].trim_end_matches('`')),
        None => (line.trim(), ""),
    };
    let words: Vec<&str> = decl.split_whitespace().collect();
    let (name, ty) = match words.as_slice() {
        [ty] => (None, *ty),
        [name, ty] => (Some(*name), *ty),
        _ => return None,
    };
    let exported = |n: &str| n.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    let tag = json_tag(tag);
    if tag.as_ref().is_some_and(|(n, _)| n == "-") {
        return None;
    }
    let ty_norm = normalize(ty, pkg, imports)?;
    let (json, opts) = tag.unwrap_or_default();
    let mut flags = String::new();
    let json = match (name, json.is_empty()) {
        (None, true) => {
            flags.push('i');
            String::new()
        }
        (None, false) => json,
        (Some(n), _) if !exported(n) => return None,
        (Some(n), true) => n.to_string(),
        (Some(_), false) => json,
    };
    if opts.iter().any(|o| o == "inline") {
        flags.push('i');
    }
    if opts.iter().any(|o| o == "omitempty") {
        flags.push('o');
    }
    if opts.iter().any(|o| o == "omitzero") {
        flags.push('z');
    }
    Some(format!("{json}|{flags}|{ty_norm}"))
}

fn strip_comment(line: &str) -> &str {
    match (line.find("//"), line.find('`')) {
        (Some(c), Some(t)) if c > t => line,
        (Some(c), _) => &line[..c],
        _ => line,
    }
}

fn read_file(text: &str, pkg: &str, out: &mut Package) {
    let imports = imports(text);
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let line = strip_comment(line);
        if let Some(rest) = line.trim().strip_prefix("const GroupName = ") {
            out.group = Some(rest.trim().trim_matches('"').to_string());
        }
        let Some(rest) = line.strip_prefix("type ") else {
            continue;
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        match words.as_slice() {
            [name, "struct", "{"] => {
                let mut fields = Vec::new();
                for body in lines.by_ref() {
                    if body.starts_with('}') {
                        break;
                    }
                    let body = strip_comment(body);
                    if body.trim().is_empty() {
                        continue;
                    }
                    if let Some(f) = field(body, pkg, &imports) {
                        fields.push(f);
                    }
                }
                out.decls
                    .insert(name.to_string(), format!("S {}", fields.join(" ")));
            }
            [name, "struct{}"] => {
                out.decls.insert(name.to_string(), "S".into());
            }
            [name, "=", ty] | [name, ty] => {
                if let Some(t) = normalize(ty, pkg, &imports) {
                    out.decls.insert(name.to_string(), format!("T {t}"));
                }
            }
            _ => {}
        }
    }
}

fn read_package(dir: &Path, pkg: &str) -> anyhow::Result<Package> {
    let mut out = Package::default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".go")
                && !name.ends_with("_test.go")
                && !name.starts_with("zz_generated")
                && !name.starts_with("generated")
                && !name.contains("fuzz")
        })
        .collect();
    files.sort();
    for f in files {
        let text =
            std::fs::read_to_string(&f).with_context(|| format!("reading {}", f.display()))?;
        read_file(&text, pkg, &mut out);
    }
    Ok(out)
}

fn main() -> anyhow::Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let (api, machinery, output) = match args.as_slice() {
        [a, m] => (
            a.clone(),
            m.clone(),
            root.join("src/defaults/k8s-1.36.gotypes"),
        ),
        [a, m, o] => (a.clone(), m.clone(), o.clone()),
        _ => anyhow::bail!(USAGE),
    };
    let mut packages: BTreeMap<String, Package> = BTreeMap::new();
    for (path, key) in APIMACHINERY {
        packages.insert(key.to_string(), read_package(&machinery.join(path), key)?);
    }
    for group in std::fs::read_dir(&api)? {
        let group = group?.path();
        if !group.is_dir() {
            continue;
        }
        for version in std::fs::read_dir(&group)? {
            let version = version?.path();
            if !version.join("types.go").exists() {
                continue;
            }
            let key = format!(
                "{}/{}",
                group.file_name().unwrap().to_string_lossy(),
                version.file_name().unwrap().to_string_lossy()
            );
            let p = read_package(&version, &key)?;
            packages.insert(key, p);
        }
    }
    let mut text = String::from(
        "# kssa Go types v1: the k8s.io/api v0.36.3 structs and the apimachinery types they use.\n\
         # Generated by kssa-gotypesgen from the Go sources; do not edit.\n\
         # P <package> <group> <version>: a group-version's package (core: group `-`).\n\
         # S <package>.<Type> <json>|<flags>|<type>...: a struct's encoded fields in Go order;\n\
         #   flags: i inline (embedded), o omitempty, z omitzero.\n\
         # T <package>.<Type> <type>: a named type of another type.\n",
    );
    for (key, p) in &packages {
        if let Some(group) = &p.group {
            let version = key.rsplit('/').next().unwrap_or("");
            let group = if group.is_empty() { "-" } else { group };
            text.push_str(&format!("P {key} {group} {version}\n"));
        }
    }
    for (key, p) in &packages {
        for (name, decl) in &p.decls {
            let (tag, rest) = decl.split_at(1);
            text.push_str(format!("{tag} {key}.{name}{rest}").trim_end());
            text.push('\n');
        }
    }
    std::fs::write(&output, &text).with_context(|| format!("writing {}", output.display()))?;
    eprintln!("wrote {} ({} bytes)", output.display(), text.len());
    Ok(())
}
