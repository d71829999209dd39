// Registers the benchmarks: every workload on every ISA this CPU supports,
// plus one memcpy baseline per distinct (dtype, shape), plus the best ISA on
// every core through the built-in pool.
#pragma once

#include <string>
#include <vector>

#include <simdax/simdax.h>

namespace simdax_bench {

// The ISAs with simdax_isa_supported() == 1, lowest first.
std::vector<simdax_isa> supported_isas();

void register_benchmarks(const std::vector<simdax_isa>& isas);

// Threads of the multi-core variants (`.../threads=N`, best ISA, built-in
// pool); 1 when the machine has one core and none are registered.
unsigned parallel_threads();

// `<op>/<dtype>/<isa>/<shape>/axes=<list>/threads=N`.
std::string threads_name(const std::string& single_thread_name, unsigned threads);

}  // namespace simdax_bench
