#include "sweep.hpp"

#include <algorithm>
#include <deque>
#include <string>

#include "bench_ops.hpp"
#include "operator_names.hpp"
#include "workloads.hpp"

namespace simdax_bench {

namespace {

constexpr int64_t kSizeRow = 1024;  // row length of the size family
constexpr int64_t kSizeMax = int64_t(1) << 26;
constexpr int64_t kRowTotal = int64_t(1) << 22;  // total of the row family
constexpr int64_t kRowMax = int64_t(1) << 20;
// Each point is one short measurement: the picture needs hundreds of them.
constexpr double kMinTime = 0.05;

const simdax_operator_type kOps[] = {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX,
                                     SIMDAX_OPERATOR_HARDMAX, SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
                                     SIMDAX_OPERATOR_HARD_SIGMOID};

// Workloads are referenced by the registered benchmarks: a deque keeps
// their addresses.
std::deque<Workload>& sweep_workloads() {
    static std::deque<Workload> list;
    return list;
}

const Workload& add_workload(const std::string& id, simdax_operator_type op, int64_t n, int64_t row) {
    Workload w;
    w.id = id;
    w.op = op;
    w.dtype = SIMDAX_DTYPE_FLOAT32;
    if (op == SIMDAX_OPERATOR_HARD_SIGMOID && row == n) {
        w.shape = {n};
    } else {
        w.shape = {n / row, row};
        if (op != SIMDAX_OPERATOR_HARD_SIGMOID) w.axes = {1};
    }
    w.target = {};
    w.latency = false;
    sweep_workloads().push_back(w);
    return sweep_workloads().back();
}

std::string size_suffix(int64_t n, int64_t row) {
    return "/n=" + std::to_string(n) + "/row=" + std::to_string(row);
}

// The memcpy and read pass of n elements, registered right after the
// point they are the divisor of: a baseline per point, in step with it.
void register_baselines_at(const char* family, int64_t n, int64_t row) {
    const std::string point = std::string("sweep/") + family;
    const std::string suffix = "/f32" + size_suffix(n, row);
    const Workload& w =
        add_workload(point + "/baseline" + size_suffix(n, row), SIMDAX_OPERATOR_HARD_SIGMOID, n, n);
    register_memcpy(point + "/memcpy" + suffix, w)->MinTime(kMinTime);
    register_read(point + "/read" + suffix, w)->MinTime(kMinTime);
}

// Every op on every ISA at one (family, n, row) point.
void register_point(const std::vector<simdax_isa>& isas, const char* family, int64_t n, int64_t row) {
    for (simdax_operator_type op : kOps) {
        // Element-wise ops have no rows: in the size family they run flat.
        const int64_t r = (op == SIMDAX_OPERATOR_HARD_SIGMOID && std::string(family) == "size") ? n : row;
        const std::string point = std::string("sweep/") + family + '/' + operator_short_name(op);
        const Workload& w = add_workload(point + size_suffix(n, r), op, n, r);
        for (simdax_isa isa : isas)
            register_operator(point + "/f32/" + simdax_isa_name(isa) + size_suffix(n, r), w, isa)
                ->MinTime(kMinTime);
    }
}

}  // namespace

void register_sweep(const std::vector<simdax_isa>& isas) {
    for (int64_t n = 4; n <= kSizeMax; n *= 4) {
        register_point(isas, "size", n, std::min(n, kSizeRow));
        register_baselines_at("size", n, std::min(n, kSizeRow));
    }
    for (int64_t row = 1; row <= kRowMax; row *= 4) {
        register_point(isas, "row", kRowTotal, row);
        register_baselines_at("row", kRowTotal, row);
    }
}

}  // namespace simdax_bench
