//! Large zero-initialised tables backed by huge pages where the OS allows.
//!
//! The transposition table is read at random on every node; in 4 KB pages it
//! spans thousands of pages, more than the TLB holds, so most probes also
//! paid a page walk. A [`LargeTable`] of
//! 2 MB or more is one allocation aligned to 2 MB and offered to the kernel
//! for transparent huge pages (Linux `madvise(MADV_HUGEPAGE)`) before it is
//! first touched; elsewhere it is an ordinary aligned allocation.

use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Huge page size (x86-64 and aarch64 Linux) and the alignment of large tables.
const HUGE_PAGE: usize = 2 << 20;

/// Memory available for new allocations in MB (Linux `MemAvailable`), or
/// `None` where the system does not say.
pub(crate) fn available_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = info.lines().find(|l| l.starts_with("MemAvailable:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Types for which all-zero bytes are a valid value.
///
/// # Safety
/// Implement only for types made of integers, atomic integers and arrays of
/// them (no references, no niches such as `NonZero` or `bool`).
pub(crate) unsafe trait Zeroable {}

// SAFETY: integers and arrays of zeroable values are valid when zeroed.
unsafe impl Zeroable for i16 {}
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

/// A boxed slice of `len` zeroed values, aligned to the 2 MB huge page when at
/// least that large.
pub(crate) struct LargeTable<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: `LargeTable` owns its values like a `Box<[T]>`.
unsafe impl<T: Zeroable + Send> Send for LargeTable<T> {}
// SAFETY: as for `Box<[T]>`: shared access hands out `&T` only.
unsafe impl<T: Zeroable + Sync> Sync for LargeTable<T> {}

impl<T: Zeroable> LargeTable<T> {
    /// `len` (at least 1) zeroed values.
    pub(crate) fn zeroed(len: usize) -> LargeTable<T> {
        let len = len.max(1);
        let bytes = len.checked_mul(std::mem::size_of::<T>()).expect("table size overflows").max(1);
        let align = if bytes >= HUGE_PAGE { HUGE_PAGE } else { std::mem::align_of::<T>() };
        let layout = Layout::from_size_align(bytes.next_multiple_of(align), align).expect("table size overflows");
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc(layout) };
        let Some(ptr) = NonNull::new(raw as *mut T) else { handle_alloc_error(layout) };
        if align == HUGE_PAGE {
            advise_huge_pages(raw, layout.size());
        }
        // SAFETY: `raw` is valid for `layout.size()` bytes, and zero bytes are
        // valid values of `T` (`Zeroable`). Writing them after the advice lets
        // the first touch fault in huge pages.
        unsafe { std::ptr::write_bytes(raw, 0, layout.size()) };
        LargeTable { ptr, len, layout }
    }
}

impl<T: Zeroable> Deref for LargeTable<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised values for the life of `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for LargeTable<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for LargeTable<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout; the values need no drop
        // (`Zeroable` types are plain data).
        unsafe { dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

/// Asks Linux to back `len` bytes at `addr` with transparent huge pages (a
/// hint: failure changes nothing but speed).
#[cfg(target_os = "linux")]
fn advise_huge_pages(addr: *mut u8, len: usize) {
    // SAFETY: `addr..addr + len` is one live allocation of ours, page aligned;
    // madvise only changes how the kernel backs it.
    unsafe {
        libc::madvise(addr as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_addr: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_small_and_large_tables() {
        let mut small: LargeTable<[i16; 4]> = LargeTable::zeroed(3);
        assert_eq!(small.len(), 3);
        assert!(small.iter().all(|r| *r == [0; 4]));
        small[2][1] = 7;
        assert_eq!(small[2], [0, 7, 0, 0]);
        let large: LargeTable<[i16; 1024]> = LargeTable::zeroed(2048); // 4 MB
        assert_eq!(large.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(large.iter().all(|r| r.iter().all(|&v| v == 0)));
        let empty: LargeTable<i16> = LargeTable::zeroed(0);
        assert_eq!(empty.len(), 1);
    }
}
