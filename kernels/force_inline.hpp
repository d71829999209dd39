// Inlining and unrolling the hot loops need, for every kernel header: the
// SIMD ones (simd/dtypes.hpp) and the shared MVN range checks (mvn_wide.hpp).
#pragma once

// For the small helpers of hot loops (the exp core, the pipeline stages, the
// per-row range checks): GCC's -O2 inliner otherwise leaves some of them out
// of line in the AVX2 build, a call per vector or per row.
#define SIMDAX_INLINE inline __attribute__((always_inline))
// For once-per-row edge work beside a hot loop: inlined, its code costs the
// loop registers.
#define SIMDAX_NOINLINE __attribute__((noinline))
// Fully unrolls the loops over the vectors of a lane block, so that their
// per-vector state stays in registers.
#define SIMDAX_UNROLL _Pragma("GCC unroll 16")
