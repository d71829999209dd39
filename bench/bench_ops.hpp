// Registers the benchmarks: every workload on every ISA this CPU supports,
// plus one memcpy baseline per distinct (dtype, shape).
#pragma once

#include <vector>

#include <simdax/simdax.h>

namespace simdax_bench {

// The ISAs with simdax_isa_supported() == 1, lowest first.
std::vector<simdax_isa> supported_isas();

void register_benchmarks(const std::vector<simdax_isa>& isas);

}  // namespace simdax_bench
