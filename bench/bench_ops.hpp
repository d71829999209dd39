// Registers the benchmarks: every workload on every ISA this CPU supports,
// plus the baselines of each distinct (dtype, shape), plus the best ISA (and
// AVX2) on every core through the built-in pool.
#pragma once

#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <simdax/simdax.h>

#include "workloads.hpp"

namespace simdax_bench {

// The ISAs with simdax_isa_supported() == 1, lowest first.
std::vector<simdax_isa> supported_isas();

void register_benchmarks(const std::vector<simdax_isa>& isas);

// Single-thread benchmarks under a given name (w must outlive the run):
// simdax_operator_execute of w with the ISA capped at isa; memcpy of w's
// input bytes; read_pass over them.
benchmark::internal::Benchmark* register_operator(const std::string& name, const Workload& w, simdax_isa isa);
benchmark::internal::Benchmark* register_memcpy(const std::string& name, const Workload& w);
benchmark::internal::Benchmark* register_read(const std::string& name, const Workload& w);

// memcpy/, memcpy_fastest/ (cache-sized shapes only) and read/ of w's dtype
// and shape (baselines.hpp); w must outlive the run.
void register_baselines(const Workload& w);

// Threads of the multi-core variants (`.../threads=N`, built-in pool); 1
// when the machine has one core and none are registered.
unsigned parallel_threads();

// The ISAs of the multi-core variants, from isas (lowest first): the best,
// and AVX2 where the CPU has it and something better (issue 33 judges AVX2,
// what most x86 inference machines run, on its own).
std::vector<simdax_isa> threads_isas(const std::vector<simdax_isa>& isas);

// `<op>/<dtype>/<isa>/<shape>/axes=<list>/threads=N`.
std::string threads_name(const std::string& single_thread_name, unsigned threads);

}  // namespace simdax_bench
