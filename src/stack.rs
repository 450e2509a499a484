//! The stack the library's recursive walks need: input may nest up to [`MAX_DEPTH`] levels, and
//! merging, diffing, field sets and dropping a value recurse once or twice per level.

use crate::yaml::MAX_DEPTH;

/// Stack bytes per nesting level the deepest walk needs, with a wide margin (measured: under
/// 2 KiB per level through every command on maps and lists nested `MAX_DEPTH` deep).
const BYTES_PER_LEVEL: usize = 16 * 1024;

/// A stack size that lets every library entry point handle input nested [`MAX_DEPTH`] deep.
/// Only touched pages are committed, so reserving it costs address space, not memory.
pub const DEEP_STACK_BYTES: usize = MAX_DEPTH * BYTES_PER_LEVEL + (8 << 20);

/// Runs `work` on a thread with a [`DEEP_STACK_BYTES`] stack and returns its result; a panic in
/// `work` is resumed on the caller. Callers of the library that may see deeply nested input
/// (anything read with [`crate::yaml`] or [`crate::value::from_json_str`]) run it this way, as
/// the CLI does: the main thread's stack (often 8 MiB) is not enough for 10,000 levels. When no
/// thread can be started, `work` runs on the caller's thread.
pub fn with_deep_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    let mut work = Some(work);
    let spawned = std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("kssa-deep-stack".into())
            .stack_size(DEEP_STACK_BYTES)
            .spawn_scoped(scope, || work.take().map(|work| work()));
        worker.ok().map(|worker| match worker.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        })
    });
    match (spawned.flatten(), work) {
        (Some(result), _) => result,
        (None, Some(work)) => work(),
        (None, None) => unreachable!("the worker ran `work` and returned its result"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_recursion_fits() {
        fn depth(n: usize) -> usize {
            let pad = std::hint::black_box([0u8; 512]);
            if n == 0 {
                pad[0] as usize
            } else {
                1 + depth(n - 1)
            }
        }
        assert_eq!(with_deep_stack(|| depth(MAX_DEPTH)), MAX_DEPTH);
    }
}
