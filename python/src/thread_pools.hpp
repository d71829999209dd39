// One built-in simdax_threadpool per thread count, created on first use and
// shared by every operator: a pool may serve any number of callers at once
// (simdax.h), and creating one per call would pay for thread start-up.
#pragma once

#include <cstdint>

#include "simdax/simdax.h"

namespace simdax_py {

// The hook for execute_parallel with `threads` threads (>= 2).
simdax_parallel thread_pool(uint32_t threads);

}  // namespace simdax_py
