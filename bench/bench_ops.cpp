#include "bench_ops.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>

#include "baselines.hpp"
#include "bench_data.hpp"
#include "read_pass.hpp"
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
    const simdax_parallel* par = parallel ? pool_hook() : nullptr;
    // Made once, as a caller keeps its bindings: the latency row would time their set-up.
    const WorkloadBindings bindings(*w, workload_buffers(data, data.input.data(), data.output.data()));
    for (auto _ : state) {
        const simdax_status status = execute_bindings(op, bindings, par);
        if (status != SIMDAX_OK) {
            error = std::string("simdax_operator_execute: ") + simdax_status_name(status) + ": " +
                    simdax_last_error();
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

// The same copy split into one contiguous slice per thread of the pool that
// runs the multi-core variants: what the memory system gives a copy on every
// core, the ceiling for ops that move the same bytes (the threads table).
void run_memcpy_parallel(benchmark::State& state, const Workload* w) {
    const DataSet& data = memcpy_data(*w);
    struct Copy {
        const char* src;
        char* dst;
        size_t bytes, slices;
    } copy{static_cast<const char*>(data.input.data()), static_cast<char*>(data.output.data()),
           data.input.size(), parallel_threads()};
    const simdax_parallel* pool = pool_hook();
    auto slice = [](void* arg, size_t i) {
        const Copy& c = *static_cast<const Copy*>(arg);
        const size_t lo = c.bytes * i / c.slices / 64 * 64;
        const size_t hi = i + 1 == c.slices ? c.bytes : c.bytes * (i + 1) / c.slices / 64 * 64;
        std::memcpy(c.dst + lo, c.src + lo, hi - lo);
    };
    for (auto _ : state) {
        pool->parallel_for(pool->context, copy.slices, slice, &copy);
        benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(data.output.data());
    state.SetBytesProcessed(state.iterations() * int64_t(2 * copy.bytes));
    state.SetItemsProcessed(state.iterations() * element_count(w->shape));
}

// The same copy, timed by hand, over kPairs (source, destination) pairs that
// hold the same bytes at different addresses: each iteration takes kSamples
// samples, the pairs in turn (a sample is enough copies back to back to
// last kSampleSeconds), and reports the fastest per copy. A sample another
// process interrupted is dropped rather than averaged in, and a pair whose
// pages happen to crowd the same cache sets does not decide the baseline.
void run_memcpy_fastest(benchmark::State& state, const Workload* w) {
    constexpr int kPairs = 4;
    constexpr int kSamples = 8;
    constexpr double kSampleSeconds = 2e-6;
    using clock = std::chrono::steady_clock;
    const DataSet& data = memcpy_data(*w);
    const size_t bytes = data.input.size();
    std::vector<AlignedBuffer> extra;  // pairs 1.. (pair 0 is data's)
    for (int p = 1; p < kPairs; ++p) {
        extra.emplace_back(bytes);
        std::memcpy(extra.back().data(), data.input.data(), bytes);
        extra.emplace_back(bytes);
    }
    auto copy = [&](int pair) {
        void* dst = pair ? extra[2 * pair - 1].data() : data.output.data();
        const void* src = pair ? extra[2 * pair - 2].data() : data.input.data();
        std::memcpy(dst, src, bytes);
        benchmark::ClobberMemory();
    };
    copy(0);
    const auto t0 = clock::now();
    copy(0);
    const double one = std::chrono::duration<double>(clock::now() - t0).count();
    const int batch = std::max(1, int(kSampleSeconds / std::max(one, 1e-9)));
    for (auto _ : state) {
        double fastest = std::numeric_limits<double>::infinity();
        for (int s = 0; s < kSamples; ++s) {
            const int pair = s % kPairs;
            copy(pair);  // its lines back in cache, as the op's are between executes
            const auto start = clock::now();
            for (int i = 0; i < batch; ++i) copy(pair);
            const double t = std::chrono::duration<double>(clock::now() - start).count();
            fastest = std::min(fastest, t / batch);
        }
        state.SetIterationTime(fastest);
    }
    benchmark::DoNotOptimize(data.output.data());
    state.SetBytesProcessed(state.iterations() * int64_t(2 * bytes));
    state.SetItemsProcessed(state.iterations() * element_count(w->shape));
}

// The read floor: read_pass over the same input bytes (reads N, writes
// nothing).
void run_read(benchmark::State& state, const Workload* w) {
    const DataSet& data = memcpy_data(*w);
    const size_t bytes = data.input.size();
    for (auto _ : state) {
        uint64_t sum = read_pass(data.input.data(), bytes);
        benchmark::DoNotOptimize(sum);
    }
    state.SetBytesProcessed(state.iterations() * int64_t(bytes));
    state.SetItemsProcessed(state.iterations() * element_count(w->shape));
    state.SetLabel(read_pass_kind());
}

}  // namespace

benchmark::internal::Benchmark* register_operator(const std::string& name, const Workload& w,
                                                  simdax_isa isa) {
    return benchmark::RegisterBenchmark(name.c_str(), run_operator, &w, isa, false)
        ->Unit(w.latency ? benchmark::kNanosecond : benchmark::kMicrosecond);
}

benchmark::internal::Benchmark* register_memcpy(const std::string& name, const Workload& w) {
    return benchmark::RegisterBenchmark(name.c_str(), run_memcpy, &w)->Unit(benchmark::kMicrosecond);
}

benchmark::internal::Benchmark* register_read(const std::string& name, const Workload& w) {
    return benchmark::RegisterBenchmark(name.c_str(), run_read, &w)->Unit(benchmark::kMicrosecond);
}

void register_baselines(const Workload& w) {
    register_memcpy(memcpy_name(w), w);
    if (cache_sized(w))
        benchmark::RegisterBenchmark(memcpy_fastest_name(w).c_str(), run_memcpy_fastest, &w)
            ->Unit(benchmark::kMicrosecond)
            ->UseManualTime();
    register_read(read_name(w), w);
    if (parallel_threads() > 1 && pool_hook())
        benchmark::RegisterBenchmark(threads_name(memcpy_name(w), parallel_threads()).c_str(),
                                     run_memcpy_parallel, &w)
            ->Unit(benchmark::kMicrosecond)
            ->UseRealTime();
}

unsigned parallel_threads() {
    const unsigned n = std::thread::hardware_concurrency();
    return n > 1 ? n : 1;
}

std::string threads_name(const std::string& single_thread_name, unsigned threads) {
    return single_thread_name + "/threads=" + std::to_string(threads);
}

std::vector<simdax_isa> threads_isas(const std::vector<simdax_isa>& isas) {
    std::vector<simdax_isa> out;
    if (isas.empty()) return out;
    if (isas.back() != SIMDAX_ISA_AVX2 && std::find(isas.begin(), isas.end(), SIMDAX_ISA_AVX2) != isas.end())
        out.push_back(SIMDAX_ISA_AVX2);
    out.push_back(isas.back());
    return out;
}

void register_benchmarks(const std::vector<simdax_isa>& isas) {
    std::set<std::string> baselines;
    const unsigned threads = parallel_threads();
    for (const Workload& w : workloads()) {
        for (simdax_isa isa : isas) register_operator(benchmark_name(w, simdax_isa_name(isa)), w, isa);
        // Wall-clock time: CPU time of the calling thread says nothing here.
        if (threads > 1 && !w.latency)
            for (simdax_isa isa : threads_isas(isas))
                benchmark::RegisterBenchmark(
                    threads_name(benchmark_name(w, simdax_isa_name(isa)), threads).c_str(), run_operator, &w,
                    isa, true)
                    ->Unit(benchmark::kMicrosecond)
                    ->UseRealTime();
        // The baselines of each distinct (dtype, shape), right after its
        // first user; the latency case is judged in ns, not against a copy.
        if (!w.latency && baselines.insert(memcpy_name(w)).second) register_baselines(w);
    }
}

}  // namespace simdax_bench
