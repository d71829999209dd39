#include "baselines.hpp"

#include <unistd.h>

namespace simdax_bench {

std::string memcpy_fastest_name(const Workload& w) {
    return std::string("memcpy_fastest/") + dtype_name(w.dtype) + '/' + shape_string(w.shape);
}

std::string read_name(const Workload& w) {
    return std::string("read/") + dtype_name(w.dtype) + '/' + shape_string(w.shape);
}

long l2_bytes() {
#ifdef _SC_LEVEL2_CACHE_SIZE
    const long n = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (n > 0) return n;
#endif
    return 1L << 20;
}

bool cache_sized(const Workload& w) {
    const int64_t bytes = 2 * element_count(w.shape) * int64_t(simdax_dtype_size(w.dtype));
    return !w.latency && bytes <= l2_bytes();
}

std::string ratio_baseline_name(const Workload& w) {
    return cache_sized(w) ? memcpy_fastest_name(w) : memcpy_name(w);
}

}  // namespace simdax_bench
