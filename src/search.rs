//! Byte and substring searches that never ask the CPU what it supports.
//!
//! `memchr`'s top-level functions choose between AVX2 and SSE2 at their first call with
//! `is_x86_feature_detected!`, which runs `cpuid` half a dozen times. In a virtual machine each
//! `cpuid` traps to the hypervisor: the detection took 86 µs of a 3 ms one-object apply
//! (perf over 300 runs, `std_detect::detect::cache::detect_and_initialize`), more than the
//! whole YAML reading. SSE2 is part of x86-64 itself, so memchr's SSE2 searchers need no check;
//! on other targets memchr's own functions are used (their vector units need no detection).

/// The position of the first `needle` byte in `haystack`.
pub fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(searcher) = memchr::arch::x86_64::sse2::memchr::One::new(needle) {
        return searcher.find(haystack);
    }
    memchr::memchr(needle, haystack)
}

/// The positions of every `needle` byte in `haystack`, in order.
pub fn byte_positions(needle: u8, haystack: &[u8]) -> BytePositions<'_> {
    BytePositions {
        needle,
        haystack,
        at: 0,
    }
}

/// The iterator of [`byte_positions`].
#[derive(Debug, Clone)]
pub struct BytePositions<'a> {
    needle: u8,
    haystack: &'a [u8],
    at: usize,
}

impl Iterator for BytePositions<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let rest = self.haystack.get(self.at..)?;
        let found = self.at + find_byte(self.needle, rest)?;
        self.at = found + 1;
        Some(found)
    }
}

/// The position of the first occurrence of `needle` in `haystack`.
pub fn find_bytes(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(finder) = memchr::arch::x86_64::sse2::packedpair::Finder::new(needle) {
        if haystack.len() >= finder.min_haystack_len() {
            return finder.find(haystack, needle);
        }
    }
    memchr::arch::all::rabinkarp::Finder::new(needle).find(haystack, needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_found_where_memchr_finds_them() {
        let long = "a\nbb\n\nccc".repeat(40);
        for text in ["", "\n", "abc", "a\n", "\na", "a\nbb\n\nccc", long.as_str()] {
            let bytes = text.as_bytes();
            assert_eq!(find_byte(b'\n', bytes), memchr::memchr(b'\n', bytes));
            assert_eq!(
                byte_positions(b'\n', bytes).collect::<Vec<_>>(),
                memchr::memchr_iter(b'\n', bytes).collect::<Vec<_>>(),
            );
        }
    }

    #[test]
    fn substrings_are_found_in_short_and_long_haystacks() {
        let needle = b"CustomResourceDefinition";
        let long = format!("{}kind: CustomResourceDefinition\n", "x: y\n".repeat(100));
        assert_eq!(find_bytes(long.as_bytes(), needle), long.find("Custom"));
        assert_eq!(find_bytes(b"kind: Custom", needle), None);
        assert_eq!(find_bytes(b"a \nb", b" \n"), Some(1));
        assert_eq!(find_bytes(b"a b\n", b" \n"), None);
        assert_eq!(find_bytes(b"", b" \n"), None);
    }
}
