// The sweep family (simdax_bench --sweep): how cost grows with size, for
// each operator in float32 on every ISA this CPU runs, next to a memcpy and
// a read pass of the same bytes per size. Drawn by tools/scripts/plot_sweep.py.
//
//   sweep/size/<op>/f32/<isa>/n=<N>/row=<R>  N = 4, 16, ..., 2^26 elements,
//       rows of R = min(1024, N) (element-wise ops: the flat tensor);
//   sweep/row/<op>/f32/<isa>/n=<N>/row=<R>   R = 1, 4, ..., 2^20, N = 2^22;
//   sweep/<size|row>/memcpy/f32/n=<N>/row=<R>, .../read/...  the baselines
//       of each point (N elements), measured right after it.
// Reductions reduce the last axis of [N/R, R]; MVN without Scale/Bias.
#pragma once

#include <vector>

#include <simdax/simdax.h>

namespace simdax_bench {

void register_sweep(const std::vector<simdax_isa>& isas);

}  // namespace simdax_bench
