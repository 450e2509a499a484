//! The executable's global allocator: mimalloc through its C entry points.

use libmimalloc_sys::{mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned};
use libmimalloc_sys::{mi_zalloc, mi_zalloc_aligned};
use std::alloc::{GlobalAlloc, Layout};

/// Every mimalloc block is aligned to a machine word (its size classes are multiples of
/// one, in aligned pages: mimalloc `types.h`, `MI_INTPTR_SIZE`).
const WORD: usize = std::mem::size_of::<usize>();

/// mimalloc's plain entry points wherever the alignment asked for is one every block has,
/// which is nearly every allocation: the `mimalloc` crate calls the aligned ones for all of
/// them, whose checks (`mi_heap_malloc_aligned_at`) doubled the cost of an allocation; a
/// large run makes hundreds per object.
pub struct MiMalloc;

// SAFETY: each method hands the request to mimalloc, which returns memory of at least the
// size asked for with at least the alignment asked for (the plain calls only when a word's
// alignment suffices), or null; freeing and resizing take any block it returned.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            mi_malloc(layout.size()).cast()
        } else {
            mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            mi_zalloc(layout.size()).cast()
        } else {
            mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi_free(ptr.cast());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= WORD {
            mi_realloc(ptr.cast(), new_size).cast()
        } else {
            mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
        }
    }
}
