//! Links the `kssa` executable as a fixed-address (non-PIE) program on x86-64 Linux.
//!
//! A position-independent executable makes the dynamic loader patch every pointer in the
//! binary's read-only data at each start (35,000 relocations for kssa, most of them the
//! embedded tables and the CEL and jq libraries): about a third of a millisecond, a tenth of a
//! one-object apply. The code is still compiled position-independent (proc-macros need that),
//! only the final link of the executables differs. The library is unaffected.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu"
        && var("CARGO_CFG_TARGET_ARCH") == "x86_64"
    {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
