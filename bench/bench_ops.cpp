#include "bench_ops.hpp"

#include <cstring>
#include <set>
#include <string>
#include <thread>

#include <benchmark/benchmark.h>

#include "bench_data.hpp"
#include "workloads.hpp"

namespace simdax_bench {

std::vector<simdax_isa> supported_isas() {
    std::vector<simdax_isa> isas;
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i)
        if (simdax_isa_supported(simdax_isa(i))) isas.push_back(simdax_isa(i));
    return isas;
}

namespace {

// The pool behind the multi-core variants, made once.
const simdax_parallel* pool_hook() {
    static simdax_parallel hook = [] {
        simdax_threadpool* pool = nullptr;
        simdax_threadpool_create(parallel_threads(), &pool);
        return simdax_threadpool_parallel(pool);
    }();
    return hook.parallel_for ? &hook : nullptr;
}

// Times simdax_operator_execute only (on every core when parallel); create
// and data fill are cached.
void run_operator(benchmark::State& state, const Workload* w, simdax_isa isa, bool parallel) {
    std::string error;
    const simdax_operator* op = workload_operator(*w, isa, &error);
    if (!op) {
        state.SkipWithError(error.c_str());
        return;
    }
    const DataSet& data = workload_data(*w);
    simdax_bindings bindings = {};
    bindings.input = data.input.data();
    bindings.scale = data.scale.data();
    bindings.bias = data.bias.data();
    bindings.output = data.output.data();

    for (auto _ : state) {
        const simdax_status status =
            parallel ? simdax_operator_execute_parallel(op, &bindings, pool_hook())
                     : simdax_operator_execute(op, &bindings);
        if (status != SIMDAX_OK) {
            error = std::string("simdax_operator_execute: ") + simdax_status_name(status) +
                    ": " + simdax_last_error();
            state.SkipWithError(error.c_str());
            break;
        }
    }
    benchmark::DoNotOptimize(data.output.data());
    state.SetBytesProcessed(state.iterations() * bytes_processed(*w));
    state.SetItemsProcessed(state.iterations() * element_count(w->shape));
}

// The baseline: memcpy of the input's bytes into another buffer. A copy
// reads N bytes and writes N bytes, the same traffic as an element-wise op
// on N input bytes (and, up to Scale/Bias, as every op here), so the table's
// ratio op_time / memcpy_time says how far an op is from memory speed.
void run_memcpy(benchmark::State& state, const Workload* w) {
    const DataSet& data = memcpy_data(*w);
    const size_t bytes = data.input.size();
    for (auto _ : state) {
        std::memcpy(data.output.data(), data.input.data(), bytes);
        benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(data.output.data());
    state.SetBytesProcessed(state.iterations() * int64_t(2 * bytes));
    state.SetItemsProcessed(state.iterations() * element_count(w->shape));
}

}  // namespace

unsigned parallel_threads() {
    const unsigned n = std::thread::hardware_concurrency();
    return n > 1 ? n : 1;
}

std::string threads_name(const std::string& single_thread_name, unsigned threads) {
    return single_thread_name + "/threads=" + std::to_string(threads);
}

void register_benchmarks(const std::vector<simdax_isa>& isas) {
    std::set<std::string> baselines;
    const unsigned threads = parallel_threads();
    for (const Workload& w : workloads()) {
        for (simdax_isa isa : isas)
            benchmark::RegisterBenchmark(benchmark_name(w, simdax_isa_name(isa)).c_str(),
                                         run_operator, &w, isa, false)
                ->Unit(w.latency ? benchmark::kNanosecond : benchmark::kMicrosecond);
        // Wall-clock time: CPU time of the calling thread says nothing here.
        if (threads > 1 && !w.latency && !isas.empty())
            benchmark::RegisterBenchmark(
                threads_name(benchmark_name(w, simdax_isa_name(isas.back())), threads).c_str(),
                run_operator, &w, isas.back(), true)
                ->Unit(benchmark::kMicrosecond)
                ->UseRealTime();
        // One memcpy per distinct (dtype, shape), right after its first user;
        // the latency case is judged in ns, not against a copy.
        if (!w.latency && baselines.insert(memcpy_name(w)).second)
            benchmark::RegisterBenchmark(memcpy_name(w).c_str(), run_memcpy, &w)
                ->Unit(benchmark::kMicrosecond);
    }
}

}  // namespace simdax_bench
