//! The `kssa` command: parses arguments, runs one subcommand, maps the outcome to an exit code.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    grow_heaps_in_large_steps();
    // The whole command runs on one deep-stack thread, so input nested as deep as the reader
    // accepts cannot overflow the stack in the recursive walks.
    kssa::stack::with_deep_stack(cli::main)
}

/// glibc grows a thread's arena (all of a one-object run works on the deep-stack thread) by
/// one `mprotect` call every few pages: over a hundred calls for one Deployment, more time
/// than the work. A 16 MiB top pad grows it in large steps; the pages are still only touched
/// when used, so memory use does not change. (One arena for all threads would also avoid the
/// calls, but makes the workers of a many-object run wait on its lock: twice as slow.)
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn grow_heaps_in_large_steps() {
    // SAFETY: `mallopt` only sets an allocator parameter; no thread has been started yet.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 16 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn grow_heaps_in_large_steps() {}
