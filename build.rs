//! Links the `kssa` executable as a fixed-address (non-PIE) program on x86-64 Linux, and
//! writes where the sorted lines of the embedded tables start (`table_lines.rs`).
//!
//! A position-independent executable makes the dynamic loader patch every pointer in the
//! binary's read-only data at each start (35,000 relocations for kssa, most of them the
//! embedded tables and the CEL and jq libraries): about a third of a millisecond, a tenth of a
//! one-object apply. The code is still compiled position-independent (proc-macros need that),
//! only the final link of the executables differs. The library is unaffected.
use std::fmt::Write as _;

/// The embedded tables whose declaration lines are found by binary search: the constant to
/// write, the file, and the line prefixes it indexes.
const SORTED_TABLES: &[(&str, &str, &[&str])] = &[
    (
        "TOPOLOGY_TYPE_LINES",
        "src/schema/k8s-1.37.topology",
        &["T "],
    ),
    (
        "GO_DECL_LINES",
        "src/defaults/k8s-1.36.gotypes",
        &["S ", "T "],
    ),
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    write_line_starts();
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu"
        && var("CARGO_CFG_TARGET_ARCH") == "x86_64"
    {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}

/// Writes, for each table, the byte offsets of its declaration lines, each with the end of the
/// name the line declares (its second word). The generators write those lines sorted by name
/// and together at the end of the file, so a run finds a name by binary search over the
/// offsets instead of reading the 400 KB of both tables at every start (about a tenth of a
/// one-object apply's wall time). A table that breaks that layout fails the build.
fn write_line_starts() {
    let mut code = String::new();
    for (name, path, prefixes) in SORTED_TABLES {
        println!("cargo:rerun-if-changed={path}");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut starts = Vec::new();
        let mut at = 0;
        let body = text.strip_suffix('\n').unwrap_or(&text);
        for line in body.split('\n') {
            if prefixes.iter().any(|p| line.starts_with(p)) {
                // The name is the second word: after the one-letter tag and a space.
                let name_len = line[2..].find(' ').unwrap_or(line.len() - 2);
                let offset = |n: usize| u32::try_from(n).expect("tables are smaller than 4 GiB");
                starts.push((offset(at), offset(at + 2 + name_len)));
            } else if !starts.is_empty() {
                panic!("{path}: a line that is not a declaration among the declarations: {line:?}");
            }
            at += line.len() + 1;
        }
        let _ = writeln!(
            code,
            "pub(crate) const {name}: [(u32, u32); {}] = {starts:?};",
            starts.len()
        );
    }
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("table_lines.rs");
    std::fs::write(&out, code).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}
