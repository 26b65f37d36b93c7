//! Zeroed, 2 MB-aligned memory for the transposition table, backed by huge pages where
//! the system offers them (Linux transparent huge pages in `madvise` mode). Probes land
//! anywhere in the table, so with 4 KB pages nearly every probe also misses the TLB;
//! huge pages remove most of those misses.

use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::ptr::NonNull;

const HUGE_PAGE: usize = 2 << 20;

/// Types for which all-zero bytes are a valid value (integers and atomic integers).
///
/// # Safety
/// An implementor must be valid when every byte is zero and must own no resources.
pub unsafe trait ZeroValid {}

/// An owned, zero-initialised array of `T`.
pub struct TableMemory<T: ZeroValid> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: the memory is owned exclusively, like a `Vec<T>`.
unsafe impl<T: ZeroValid + Send> Send for TableMemory<T> {}
// SAFETY: shared access hands out `&[T]`, which is as safe as `T: Sync` makes it.
unsafe impl<T: ZeroValid + Sync> Sync for TableMemory<T> {}

impl<T: ZeroValid> TableMemory<T> {
    /// `len` zeroed elements (at least one).
    pub fn zeroed(len: usize) -> Self {
        let len = len.max(1);
        let size = len * std::mem::size_of::<T>();
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<T>()
        };
        let layout = Layout::from_size_align(size, align).expect("table size fits memory");
        // SAFETY: `size` is non-zero (len >= 1 and T is not zero-sized in our use).
        let raw = unsafe { alloc(layout) };
        let Some(ptr) = NonNull::new(raw as *mut T) else {
            handle_alloc_error(layout);
        };
        // Ask for huge pages before the first touch: the pages are chosen when the
        // zeroing below faults them in.
        #[cfg(target_os = "linux")]
        if size >= HUGE_PAGE {
            // SAFETY: the range is the allocation just made. A failure only means no huge
            // pages, which is harmless.
            unsafe {
                libc::madvise(raw as *mut libc::c_void, size, libc::MADV_HUGEPAGE);
            }
        }
        // SAFETY: the allocation holds `size` bytes; all-zero bytes are a valid `T`.
        unsafe { std::ptr::write_bytes(raw, 0, size) };
        TableMemory { ptr, len, layout }
    }

    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised (zeroed, then written) elements.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// Sets every element back to all-zero bytes.
    pub fn zero(&mut self) {
        // SAFETY: `&mut self` is exclusive; all-zero bytes are a valid `T` (`ZeroValid`).
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr(), 0, self.len) }
    }
}

impl<T: ZeroValid> Drop for TableMemory<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this very layout.
        unsafe { dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::sync::atomic::AtomicU64;
    use std::sync::atomic::Ordering::Relaxed;

    // SAFETY: an atomic integer is valid as all-zero bytes.
    unsafe impl ZeroValid for AtomicU64 {}

    #[test]
    fn memory_starts_zeroed_and_is_writable() {
        let big = TableMemory::<AtomicU64>::zeroed(HUGE_PAGE / 8 * 2);
        assert!(big.as_slice().iter().all(|v| v.load(Relaxed) == 0));
        assert_eq!(big.as_slice().as_ptr() as usize % HUGE_PAGE, 0);
        let mut small = TableMemory::<AtomicU64>::zeroed(3);
        small.as_slice()[1].store(9, Relaxed);
        assert_eq!(small.as_slice()[1].load(Relaxed), 9);
        small.zero();
        assert!(small.as_slice().iter().all(|v| v.load(Relaxed) == 0));
    }
}
