#include "placements.hpp"

#include <algorithm>
#include <cstdio>
#include <regex>

#include <time.h>

#include "bench_data.hpp"
#include "workloads.hpp"

namespace simdax_bench {

namespace {

struct Placement {
    size_t in, out;  // bytes past a 64-byte boundary
};

// One element past the boundary (+4 float32, +2 for 16-bit types), the
// usual 16, and 48; both together, then each alone against an aligned other.
std::vector<Placement> placements(simdax_dtype dtype) {
    const size_t e = simdax_dtype_size(dtype);
    return {{0, 0}, {e, e}, {16, 16}, {48, 48}, {0, 48}, {48, 0}};
}

constexpr int kSamples = 5;
constexpr double kSampleSeconds = 0.02;

// CPU time of this thread, as the table takes it: time slices the machine
// gives other processes do not count.
double thread_cpu_us() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e6 + double(ts.tv_nsec) * 1e-3;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Median time per execute (µs) of op at each placement; the samples take
// the placements in turn so that a slow spell of the machine hits them all.
bool time_placements(const simdax_operator* op, const Workload& w, std::vector<double>* out_us) {
    const std::vector<Placement> ps = placements(w.dtype);
    const size_t bytes = size_t(element_count(w.shape)) * simdax_dtype_size(w.dtype);
    std::vector<AlignedBuffer> in, out;
    for (const Placement& p : ps) {
        in.emplace_back(bytes, p.in);
        fill_random(in.back().data(), w.dtype, element_count(w.shape), -5.0, 5.0, 1);
        out.emplace_back(bytes, p.out);
    }
    // The other operands (mask, Scale/Bias, skip) as the table's run has them.
    const DataSet& others = workload_data(w);
    auto run = [&](size_t k, int calls) {
        const double t0 = thread_cpu_us();
        for (int i = 0; i < calls; ++i)
            if (execute_workload(op, w, others, in[k].data(), out[k].data(), nullptr) != SIMDAX_OK)
                return -1.0;
        return (thread_cpu_us() - t0) / calls;
    };
    std::vector<int> calls(ps.size());
    for (size_t k = 0; k < ps.size(); ++k) {
        const double once = run(k, 1);
        if (once < 0) return false;
        calls[k] = std::max(1, int(kSampleSeconds * 1e6 / std::max(once, 1e-3)));
    }
    std::vector<std::vector<double>> t(ps.size());
    for (int s = 0; s < kSamples; ++s)
        for (size_t k = 0; k < ps.size(); ++k) {
            run(k, 1);  // its lines back in cache, as between a table run's executes
            t[k].push_back(run(k, calls[k]));
        }
    out_us->clear();
    for (const auto& v : t) out_us->push_back(median(v));
    return true;
}

}  // namespace

int run_placements(const std::vector<simdax_isa>& isas, const std::string& filter) {
    const std::regex match(filter.empty() ? ".*" : filter);
    std::printf(
        "Placement: input/output bytes past a 64-byte boundary; median of %d, CPU µs per execute, "
        "one thread. Spread = slowest / fastest (marked over %.2f).\n",
        kSamples, kPlacementSpread);
    std::printf("%-5s %-11s", "row", "isa");
    for (const Placement& p : placements(SIMDAX_DTYPE_FLOAT32)) {
        char label[16];
        std::snprintf(label, sizeof label, "%zu/%zu", p.in, p.out);
        std::printf(" %9s", label);
    }
    std::printf(" %7s\n", "spread");
    int failed = 0, over = 0;
    for (const Workload& w : workloads()) {
        if (w.latency || !std::regex_search(w.id, match)) continue;
        for (simdax_isa isa : isas) {
            std::string error;
            const simdax_operator* op = workload_operator(w, isa, &error);
            std::vector<double> us;
            if (!op || !time_placements(op, w, &us)) {
                if (op) error = simdax_last_error();
                std::printf("%-5s %-11s failed: %s\n", w.id.c_str(), simdax_isa_name(isa), error.c_str());
                failed = 1;
                continue;
            }
            const double spread =
                *std::max_element(us.begin(), us.end()) / *std::min_element(us.begin(), us.end());
            std::printf("%-5s %-11s", w.id.c_str(), simdax_isa_name(isa));
            for (double u : us) std::printf(" %9.1f", u);
            std::printf(" %6.2fx%s\n", spread, spread > kPlacementSpread ? " over" : "");
            if (spread > kPlacementSpread) ++over;
        }
    }
    std::printf("%d row/ISA pairs over %.2f (the 16-bit rows' +4 column is +2 bytes)\n", over,
                kPlacementSpread);
    return failed;
}

}  // namespace simdax_bench
