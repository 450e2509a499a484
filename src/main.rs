//! The `kssa` command: parses arguments, runs one subcommand, maps the outcome to an exit code.

mod allocator;
mod cli;

use std::io::Write;

/// mimalloc instead of the system allocator: a run is mostly building and dropping small maps,
/// lists and strings, from several threads at once. glibc's malloc spent a third of the
/// instructions of a large run (its per-thread arenas also lock when a worker frees what the
/// reading thread allocated); with mimalloc's thread-local free lists the 50 MB stream takes
/// 3.5 s instead of 4.7 s, and a one-object apply a fifth fewer instructions. Whether its
/// memory may use transparent huge pages is decided per run: see [`memory`].
#[global_allocator]
static ALLOCATOR: allocator::MiMalloc = allocator::MiMalloc;

fn main() {
    // The whole command needs a deep stack, so that input nested as deep as the reader
    // accepts cannot overflow it in the recursive walks: the main thread's own, grown, where
    // the system allows, else a thread of its own.
    let status = if main_stack::can_grow_to(kssa::stack::DEEP_STACK_BYTES) {
        cli::main()
    } else {
        kssa::stack::with_deep_stack(cli::main)
    };
    exit_now(status)
}

/// Ends the process without the teardown `exit` runs: what is left to free is given back
/// with the address space, but mimalloc's exit handler first walks and releases every page
/// it holds (a dozen `madvise` calls and a TLB flush each), which cost a one-object apply
/// 3% of its time. Everything a command writes is flushed or renamed into place before it
/// returns; only the standard output's buffer is left, flushed here.
fn exit_now(status: u8) -> ! {
    // As the runtime's own flush at exit, a closed pipe (`kssa diff | head`) is not an error.
    let _ = std::io::stdout().flush();
    // SAFETY: `_exit` ends the process at once; no Rust state is used after it.
    unsafe { libc::_exit(i32::from(status)) }
}

/// Small pages from before the first allocation: the runtime allocates before `main`, and
/// mimalloc's arena asks for huge pages (`madvise(MADV_HUGEPAGE)`), so a switch in `main`
/// came after the first 2 MiB page had been faulted in and cleared whole, a twelfth of a
/// one-object apply (perf over 300 runs: `clear_page_erms`, 240 µs of 3.2 ms). An
/// `.init_array` entry runs before the runtime starts.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static SMALL_PAGES_FROM_THE_START: extern "C" fn() = {
    extern "C" fn small_pages() {
        memory::huge_pages(false);
    }
    small_pages
};

pub(crate) mod memory {
    /// Inputs from this size on (in bytes, all manifests together) let the kernel back the
    /// process's memory with transparent huge pages.
    ///
    /// A short run touches a few MB: each 2 MiB page it faults in is cleared whole, which
    /// took a sixth of a one-object apply (perf: `clear_page_erms` under mimalloc's first
    /// page faults) and made it 10% slower. A run over a bundle touches tens of MB: 4 KiB
    /// pages then cost it 25 times as many faults and 20% of its time (`diff -R` of the
    /// 131-object bundle, 12,600 faults instead of 480). The 50 MB stream frees and
    /// allocates on every core all along; clearing each huge page it touches cost it 8%,
    /// so the streaming path keeps small pages ([`huge_pages`] is not called for it).
    pub const HUGE_PAGES_FROM: usize = 1 << 20;

    /// Lets the kernel back this process's memory with transparent huge pages from now on,
    /// or stops it. Linux `prctl(PR_SET_THP_DISABLE)`, checked at every page fault, so it
    /// applies to memory already reserved (mimalloc's arena asks for huge pages).
    pub fn huge_pages(on: bool) {
        #[cfg(target_os = "linux")]
        // SAFETY: a plain system call on the process's own flags; no memory is passed.
        unsafe {
            libc::prctl(libc::PR_SET_THP_DISABLE, libc::c_ulong::from(!on), 0, 0, 0);
        }
        #[cfg(not(target_os = "linux"))]
        let _ = on;
    }
}

/// Growing the main thread's stack instead of starting a thread for the command: a thread
/// costs a short run a third of a millisecond (it starts on the other, idle core, with cold
/// caches, and the main thread is woken again at its end), a tenth of a one-object apply.
///
/// Linux grows the main thread's stack on demand up to `RLIMIT_STACK`, as long as nothing is
/// mapped within its guard gap below. New mappings are placed below `mmap_base`, which the
/// kernel keeps under the stack's reach, so the space that is free when the command starts
/// stays free. Source: Linux `mm/mmap.c` (`acct_stack_growth`, `expand_downwards`) and
/// `mm/util.c` (`mmap_base`).
#[cfg(target_os = "linux")]
mod main_stack {
    /// Room kept above the current frame (arguments and environment live there) and below the
    /// grown stack (the kernel's guard gap is 1 MiB).
    const MARGIN: usize = 4 << 20;

    /// Raises the soft stack limit so the main thread's stack may grow to `bytes` below the
    /// current frame, after checking that the address range it would grow into is unused.
    /// Any doubt (a hard limit, a mapping in the way, an old kernel) answers false.
    pub fn can_grow_to(bytes: usize) -> bool {
        let frame = &bytes as *const usize as usize;
        let Some(low) = frame.checked_sub(bytes + 2 * MARGIN) else {
            return false;
        };
        let low = low & !0xfff;
        let len = bytes + MARGIN;
        // SAFETY: a fresh inaccessible mapping at a fixed address that must not replace
        // anything (MAP_FIXED_NOREPLACE; a kernel without it takes the address as a hint,
        // and then a different address comes back), unmapped at once.
        let free = unsafe {
            let p = libc::mmap(
                low as *mut libc::c_void,
                len,
                libc::PROT_NONE,
                libc::MAP_PRIVATE
                    | libc::MAP_ANONYMOUS
                    | libc::MAP_NORESERVE
                    | libc::MAP_FIXED_NOREPLACE,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return false;
            }
            libc::munmap(p, len);
            p as usize == low
        };
        free && raise_limit((bytes + 2 * MARGIN) as libc::rlim_t)
    }

    fn raise_limit(want: libc::rlim_t) -> bool {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: reads and sets this process's stack limit.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_STACK, &mut limit) != 0 {
                return false;
            }
            if limit.rlim_cur == libc::RLIM_INFINITY || limit.rlim_cur >= want {
                return true;
            }
            if limit.rlim_max != libc::RLIM_INFINITY && limit.rlim_max < want {
                return false;
            }
            limit.rlim_cur = want;
            libc::setrlimit(libc::RLIMIT_STACK, &limit) == 0
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod main_stack {
    pub fn can_grow_to(_: usize) -> bool {
        false
    }
}
