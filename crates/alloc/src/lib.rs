//! The server's global allocator: mimalloc, called the cheap way for ordinary alignments.
//!
//! The `mimalloc` crate's `GlobalAlloc` passes every request to `mi_malloc_aligned` and
//! `mi_realloc_aligned`, even for a `Vec<u8>` whose alignment is 1. mimalloc's aligned entry
//! points check the alignment first, and send every block above 1 KiB down their generic path.
//! Under load that was 5% of the server's instructions (docs/performance.md). Every block
//! mimalloc hands out is a whole number of 8-byte words from a word-aligned page, so a request
//! aligned to at most 8 bytes can take `mi_malloc`/`mi_realloc` directly; larger alignments
//! (tokio's cache-padded task cells) keep the aligned calls. `mi_free` frees both kinds.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// The alignment every mimalloc block has (one machine word on 64-bit targets).
const WORD_ALIGN: usize = 8;

/// mimalloc as the global allocator (see the module's documentation).
pub struct MiMalloc;

// SAFETY: mimalloc's functions are thread-safe; every pointer returned meets `layout`'s alignment
// (word-aligned blocks for alignments up to 8, the aligned calls otherwise), and `dealloc` and
// `realloc` only receive pointers this allocator returned.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: plain calls into mimalloc; a null return is passed on as the contract asks.
        unsafe {
            if layout.align() <= WORD_ALIGN {
                mi::mi_malloc(layout.size()) as *mut u8
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        unsafe {
            if layout.align() <= WORD_ALIGN {
                mi::mi_zalloc(layout.size()) as *mut u8
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator, so from mimalloc.
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from this allocator with `layout`; the new block keeps its alignment.
        unsafe {
            if layout.align() <= WORD_ALIGN {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}

/// mimalloc's `mi_option_purge_delay` (v3's option list; the bindings name no constant for it).
const PURGE_DELAY: mi::mi_option_t = 15;

/// How long memory a process freed stays committed before mimalloc hands it back to the OS.
///
/// mimalloc's default is one second. A server under steady load frees and reuses memory all
/// the time: a page handed back after a second is soon touched again, and with transparent huge
/// pages each such touch faults in and zeroes 2 MiB. With ten seconds the server's minor page
/// faults under 200 saturated games fell from 0.012-0.034 to 0.001 per action; the CPU this
/// saves was not measurable above the machine's noise (docs/performance.md). Memory a quiet
/// server no longer needs still goes back to the OS ten seconds later.
pub fn purge_freed_memory_after(delay: std::time::Duration) {
    let ms = std::ffi::c_long::try_from(delay.as_millis()).unwrap_or(std::ffi::c_long::MAX);
    // SAFETY: sets one of mimalloc's options, which it reads again each time it purges.
    unsafe { mi::mi_option_set(PURGE_DELAY, ms) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_purge_delay_is_the_option_set() {
        // SAFETY: reads an option.
        let before = unsafe { mi::mi_option_get(PURGE_DELAY) };
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            assert_eq!(before, 1000, "mimalloc v3's default purge delay: option {PURGE_DELAY} is not it");
        }
        purge_freed_memory_after(std::time::Duration::from_secs(10));
        // SAFETY: reads an option.
        assert_eq!(unsafe { mi::mi_option_get(PURGE_DELAY) }, 10_000);
        // SAFETY: puts the option back for the other tests.
        unsafe { mi::mi_option_set(PURGE_DELAY, before) }
    }

    /// Allocates, writes, grows, shrinks and frees blocks of many sizes and alignments, checking
    /// each pointer's alignment and that the contents survive every `realloc`.
    #[test]
    fn blocks_are_aligned_and_keep_their_contents() {
        let sizes = [1usize, 7, 8, 9, 16, 24, 40, 100, 1000, 1024, 1025, 4096, 70_000, 3 << 20];
        let byte = |i: usize| (i % 251) as u8;
        for align in [1usize, 2, 4, 8, 16, 32, 64, 128, 4096] {
            for &size in &sizes {
                let layout = Layout::from_size_align(size, align).expect("layout");
                for zeroed in [false, true] {
                    // SAFETY: non-zero sizes; each block is used within its size and freed once,
                    // with the layout it was last given.
                    unsafe {
                        let mut p = if zeroed { MiMalloc.alloc_zeroed(layout) } else { MiMalloc.alloc(layout) };
                        assert!(!p.is_null(), "size {size}, align {align}");
                        assert_eq!(p as usize % align, 0, "size {size}, align {align}");
                        if zeroed {
                            assert!(std::slice::from_raw_parts(p, size).iter().all(|&b| b == 0));
                        }
                        for i in 0..size {
                            *p.add(i) = byte(i);
                        }
                        for new_size in [size / 2 + 1, size * 3] {
                            let q = MiMalloc.realloc(p, layout, new_size);
                            assert!(!q.is_null());
                            assert_eq!(q as usize % align, 0, "realloc {size} -> {new_size}, align {align}");
                            let kept = size.min(new_size);
                            assert!((0..kept).all(|i| *q.add(i) == byte(i)), "{size} -> {new_size}");
                            // Back to the original size, refilled, for the next round.
                            let moved = Layout::from_size_align(new_size, align).expect("layout");
                            p = MiMalloc.realloc(q, moved, size);
                            assert_eq!(p as usize % align, 0);
                            assert!((0..kept).all(|i| *p.add(i) == byte(i)));
                            for i in kept..size {
                                *p.add(i) = byte(i);
                            }
                        }
                        MiMalloc.dealloc(p, layout);
                    }
                }
            }
        }
    }
}
