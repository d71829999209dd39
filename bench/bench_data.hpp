// Buffers and operators for the benchmarks. Google Benchmark calls a
// benchmark's function several times while it settles the iteration count,
// so set-up lives here, cached: one data set and one operator at a time
// (benchmarks run in registration order, so each is built once per
// benchmark, and the input data once per workload for all ISAs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <simdax/simdax.h>

#include "workload_desc.hpp"
#include "workloads.hpp"

namespace simdax_bench {

// Where the table's buffers start: bytes past a 64-byte boundary. malloc,
// std::vector and numpy give 16 mod 64 as often as anything; the placement
// run (placements.hpp) times the others.
constexpr size_t kTableOffset = 16;

// Owns an allocate_timing_buffer (page_buffer.hpp): pre-faulted, up to 2 MB
// on one 2 MB page; data() is `offset` bytes past a 64-byte boundary.
class AlignedBuffer {
public:
    AlignedBuffer() = default;
    explicit AlignedBuffer(size_t bytes, size_t offset = kTableOffset);
    ~AlignedBuffer();
    AlignedBuffer(AlignedBuffer&& other) noexcept;
    AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;

    void* data() const { return data_; }
    size_t size() const { return size_; }

private:
    void* base_ = nullptr;
    void* data_ = nullptr;
    size_t size_ = 0;
};

struct DataSet {
    AlignedBuffer input;   // deterministic random values in [-5, 5]
    AlignedBuffer output;  // zeroed
    AlignedBuffer scale;   // MVN and the norms: values in [0.5, 1.5]
    AlignedBuffer bias;    // MVN and the norms: values in [-1, 1]
    AlignedBuffer mask;    // AttentionSoftmax: float32 0 and -inf
    AlignedBuffer skip;    // a skip workload's: values in [-1, 1]
};

// The buffers of workload w (built on first use; replaces the cached set).
const DataSet& workload_data(const Workload& w);

// Source and destination for memcpy/<dtype>/<shape> (input-sized).
const DataSet& memcpy_data(const Workload& w);

// The operator of w created with the ISA capped at isa (the previous cap is
// restored). nullptr on failure, with the reason in *error, including when
// the library planned it for another ISA than the one asked for.
const simdax_operator* workload_operator(const Workload& w, simdax_isa isa, std::string* error);

// `in` and `out` with the other operands from data.
WorkloadBuffers workload_buffers(const DataSet& data, const void* in, void* out);

// Executes op (w's operator) over b; par: a parallel-for (nullptr: this
// thread).
simdax_status execute_bindings(const simdax_operator* op, const WorkloadBindings& b,
                               const simdax_parallel* par);

// Executes op (w's operator) on input `in` and output `out`, the other
// operands from data (w's mask, Scale/Bias, skip), each bound as the
// operator reads it; par: a parallel-for (nullptr: this thread).
simdax_status execute_workload(const simdax_operator* op, const Workload& w, const DataSet& data,
                               const void* in, void* out, const simdax_parallel* par);

// Fills count elements of dtype at dst with values lo + (hi - lo) * t,
// t roughly normal on [0, 1] (mean of 4 uniforms), from seed.
void fill_random(void* dst, simdax_dtype dtype, int64_t count, double lo, double hi, uint64_t seed);

}  // namespace simdax_bench
