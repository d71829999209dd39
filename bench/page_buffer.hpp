// Where the timing tools put the buffers they time: the bench (bench_data.cpp)
// and simdax_lib_ab (bench/lib_ab), which links no libsimdax, so header-only.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace simdax_bench {

// A buffer up to 2 MB sits on one 2 MB page where the kernel grants it
// (transparent huge pages in madvise mode): physically contiguous, so which
// cache sets an L2-sized workload crowds no longer changes from run to run
// with where the heap happened to put it. Larger buffers stay on the heap's
// pages: on 2 MB pages a 25 MB memcpy runs ~15% faster (fewer TLB misses),
// which would move the baseline the big rows have been judged by.
// Pre-faulted (zeroed), at least 64-byte aligned; nullptr when out of memory;
// release with std::free.
inline void* allocate_timing_buffer(size_t bytes) {
    constexpr size_t kHugePage = size_t(2) << 20;
    const bool huge = bytes <= kHugePage;
    const size_t align = huge ? kHugePage : 64;
    const size_t rounded = (std::max<size_t>(bytes, 1) + align - 1) / align * align;
    void* p = nullptr;
    if (posix_memalign(&p, align, rounded) != 0) return nullptr;
#ifdef MADV_HUGEPAGE
    if (huge) madvise(p, rounded, MADV_HUGEPAGE);  // a hint: 4 KB pages if refused
#endif
    std::memset(p, 0, rounded);  // touch every page before timing
    return p;
}

}  // namespace simdax_bench
