// LayerNormalization / RMSNormalization cases for the tests: the operands
// in guarded TensorBuffers, a run through simdax_operator_execute_bound,
// and a check of every output against a float64 reference written here
// (never the library's code).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "support/tensor_buffer.hpp"

namespace sxt {

// A tensor's layout: sizes and strides (strides empty: packed), and gap
// elements between its end and the guard page (moves its start).
struct NormLayout {
    std::vector<int64_t> sizes, strides;
    int64_t pad_back = 0;
};

struct NormCase {
    simdax_operator_type op = SIMDAX_OPERATOR_LAYER_NORMALIZATION;
    simdax_dtype dt = SIMDAX_DTYPE_FLOAT32;
    simdax_dtype param_dt = SIMDAX_DTYPE_FLOAT32;  // scale, bias, skip bias
    NormLayout x, y;                               // y.sizes = x.sizes
    int32_t axis = -1;
    float epsilon = 1e-5f;
    int32_t stash_type = 1;
    NormLayout scale;
    bool has_bias = false, has_skip = false, has_skip_bias = false, has_sum = false;
    bool has_mean = false, has_inv = false;  // LayerNormalization only
    NormLayout bias, skip, skip_bias, sum, mean, inv;
    std::string describe() const;
};

// The operands of a case; inputs filled by fill().
struct NormIo {
    std::unique_ptr<TensorBuffer> x, y, scale, bias, skip, skip_bias, sum, mean, inv;
};

// Packed sizes with the dims [axis, rank) set to 1 (Mean, InvStdDev).
std::vector<int64_t> stat_sizes(const std::vector<int64_t>& sizes, int32_t axis);

NormIo make_norm_io(const NormCase& c);
// Inputs from gen(operand index 0..4: x, skip, scale, bias, skip_bias; packed index).
void fill_norm_io(NormIo& io, const std::function<double(int, int64_t)>& gen);

// Creates the operator (through its create-info structure when via_info)
// and executes it with every operand bound. Message in *error.
simdax_status run_norm(const NormCase& c, NormIo& io, const simdax_parallel* par, std::string* error,
                       bool via_info = false);

// Every output against the reference (MVN's tolerance per dtype), the
// canaries (no stray write, nothing unwritten, inputs untouched). Empty
// when all is well, else the case and the worst element.
std::string check_norm(const NormCase& c, const NormIo& io);

// The float64 reference: y, the skip sum, mean and inv_std_dev, packed.
// y_reach, mean_reach: how far a float computation may honestly land from
// y and mean beyond the output's own rounding. mean: float sums of the
// deviations, a few roundings relative to the standard deviation (a mean of
// 0 from +-1e30 is 0 only within it); y: the product term's few roundings
// relative to itself, which a bias of the opposite sign does not shrink,
// plus the mean's through inv * scale (an element at the mean).
struct NormRef {
    std::vector<double> y, y_reach, sum, mean, mean_reach, inv;
};
NormRef reference_norm(const NormCase& c, const NormIo& io);

// A pool of two threads for one test (destroyed with it) and the
// simdax_parallel that runs a call on it; status: the pool's creation.
struct TwoThreadPool {
    simdax_threadpool* pool = nullptr;
    simdax_status status = simdax_threadpool_create(2, &pool);
    simdax_parallel par = status == SIMDAX_OK ? simdax_threadpool_parallel(pool) : simdax_parallel{};
    TwoThreadPool() = default;
    TwoThreadPool(const TwoThreadPool&) = delete;
    TwoThreadPool& operator=(const TwoThreadPool&) = delete;
    ~TwoThreadPool() {
        if (pool) simdax_threadpool_destroy(pool);
    }
};

// Empty when a and b hold the same bits element by element (and as many of
// them); else where they first differ.
std::string bitwise_difference(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace sxt
