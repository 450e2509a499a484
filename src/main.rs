//! The `kssa` command: parses arguments, runs one subcommand, maps the outcome to an exit code.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    one_malloc_arena();
    // The whole command runs on one deep-stack thread, so input nested as deep as the reader
    // accepts cannot overflow the stack in the recursive walks.
    kssa::stack::with_deep_stack(cli::main)
}

/// glibc gives each thread that allocates its own arena, which grows by one `mprotect` call per
/// few pages: a one-object run (all of its work on the deep-stack thread) made over a hundred
/// of them, more time than the work itself. One arena grows by `brk` in large steps, and the
/// workers' small allocations still come from their per-thread caches without locking.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn one_malloc_arena() {
    // SAFETY: `mallopt` only sets an allocator parameter; no thread has been started yet.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn one_malloc_arena() {}
