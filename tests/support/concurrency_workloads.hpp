// Shared by the concurrency_*_test.cpp files: the workloads (every operator
// and loop form), their operands, their serial output bytes, and threads
// started together.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"
#include "support/random_case.hpp"
#include "support/tensor_buffer.hpp"
#include "support/test_env.hpp"

namespace sxt::concurrency {

inline const std::vector<simdax_dtype> kDtypes{SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16,
                                               SIMDAX_DTYPE_BFLOAT16, SIMDAX_DTYPE_FLOAT64};

struct Shape {
    Shape() = default;
    Shape(std::vector<int64_t> s, std::vector<int64_t> st = {})
        : sizes(std::move(s)), strides(std::move(st)) {}
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;  // empty = packed
};

struct Workload {
    std::string name;
    OpSpec spec;
    Shape x, y;
    bool with_scale = false, with_bias = false;
    Shape scale, bias;
};

inline OpSpec mvn_op(std::vector<uint32_t> axes, simdax_activation_type act) {
    OpSpec s = op_spec(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, std::move(axes));
    s.has_activation = act != SIMDAX_ACTIVATION_IDENTITY;
    s.activation = spec_default_activation(act);
    return s;
}

inline OpSpec hard_sigmoid_op() {
    OpSpec s;
    s.op = SIMDAX_OPERATOR_HARD_SIGMOID;
    s.alpha = 0.2f;
    s.beta = 0.5f;
    return s;
}

inline OpSpec activation_op(simdax_activation_type t) {
    OpSpec s;
    s.op = SIMDAX_OPERATOR_ACTIVATION;
    s.activation = spec_default_activation(t);
    return s;
}

inline Workload plain(std::string name, const OpSpec& spec, Shape x, Shape y = {}) {
    Workload w;
    w.name = std::move(name);
    w.spec = spec;
    w.y = y.sizes.empty() ? Shape{x.sizes, {}} : std::move(y);
    w.x = std::move(x);
    return w;
}

inline Workload with_scale_bias(Workload w, std::vector<int64_t> scale, std::vector<int64_t> bias) {
    if (!scale.empty()) {
        w.with_scale = true;
        w.scale.sizes = std::move(scale);
    }
    if (!bias.empty()) {
        w.with_bias = true;
        w.bias.sizes = std::move(bias);
    }
    return w;
}

// Big enough to be split over threads (the executor keeps work below 2^15
// elements, 2^17 element-wise, on the calling thread) in every loop form.
inline std::vector<Workload> parallel_workloads() {
    const auto LS = SIMDAX_OPERATOR_LOG_SOFTMAX, SM = SIMDAX_OPERATOR_SOFTMAX, HM = SIMDAX_OPERATOR_HARDMAX;
    std::vector<Workload> w;
    w.push_back(plain("rows LogSoftmax [64,1000] {1}", op_spec(LS, {1}), {{64, 1000}}));
    w.push_back(plain("rows+segments Softmax [8,50,4,40] {1,3}", op_spec(SM, {3, 1}), {{8, 50, 4, 40}}));
    w.push_back(plain("rows Hardmax [64,1000] {1}", op_spec(HM, {1}), {{64, 1000}}));
    w.push_back(plain("cols Softmax [8,50,300] {1}", op_spec(SM, {1}), {{8, 50, 300}}));
    w.push_back(plain("cols LogSoftmax [8,50,300] {1}", op_spec(LS, {1}), {{8, 50, 300}}));
    w.push_back(plain("cols Hardmax [8,50,300] {1}", op_spec(HM, {1}), {{8, 50, 300}}));
    // Row strides with few offsets modulo 4 KiB: units of 4 KiB of a row,
    // written by rows (operators/softmax/simd/cols.hpp).
    w.push_back(plain("cols LogSoftmax [3,40,2048] {1}", op_spec(LS, {1}), {{3, 40, 2048}}));
    w.push_back(plain("cols Softmax [4,40,1536] {1}", op_spec(SM, {1}), {{4, 40, 1536}}));
    w.push_back(plain("cols Hardmax [3,40,2048] {1}", op_spec(HM, {1}), {{3, 40, 2048}}));
    w.push_back(plain("general Hardmax [200,300] transposed {1}", op_spec(HM, {1}), {{200, 300}, {1, 200}}));
    w.push_back(plain("general LogSoftmax [200,300] reversed out {1}", op_spec(LS, {1}), {{200, 300}},
                      {{200, 300}, {-300, -1}}));
    // Groups above 65536 elements are reduced in parts whose states are
    // combined in order: [2, 200000] {1} is 4 parts per group.
    for (auto op : {LS, SM, HM})
        w.push_back(
            plain(std::string("parts ") + op_name(op) + " [2,200000] {1}", op_spec(op, {1}), {{2, 200000}}));
    w.push_back(
        plain("parts general Softmax [2,70000] transposed {1}", op_spec(SM, {1}), {{2, 70000}, {1, 2}}));
    w.push_back(plain("parts general Hardmax [70000,2] {0}", op_spec(HM, {0}), {{70000, 2}, {1, 70000}}));
    w.push_back(with_scale_bias(
        plain("parts MVN [4,70000] {1} gelu", mvn_op({1}, SIMDAX_ACTIVATION_GELU), {{4, 70000}}), {1, 70000},
        {4, 1}));
    w.push_back(with_scale_bias(
        plain("rows MVN [64,1000] {1}", mvn_op({1}, SIMDAX_ACTIVATION_IDENTITY), {{64, 1000}}), {64, 1000},
        {1, 1000}));
    w.push_back(with_scale_bias(
        plain("cols MVN [8,50,300] {1} tanh", mvn_op({1}, SIMDAX_ACTIVATION_TANH), {{8, 50, 300}}),
        {1, 50, 300}, {8, 1, 1}));
    w.push_back(with_scale_bias(
        plain("cols MVN [3,40,1024] {1} gelu", mvn_op({1}, SIMDAX_ACTIVATION_GELU), {{3, 40, 1024}}),
        {1, 40, 1024}, {3, 1, 1}));
    w.push_back(with_scale_bias(plain("general MVN [200,300] transposed {1}",
                                      mvn_op({1}, SIMDAX_ACTIVATION_RELU), {{200, 300}, {1, 200}}),
                                {1, 300}, {}));
    // Element-wise runs above 65536 elements are cut into parts as well.
    w.push_back(plain("elementwise HardSigmoid [300000]", hard_sigmoid_op(), {{300000}}));
    w.push_back(plain("elementwise gelu [300000]", activation_op(SIMDAX_ACTIVATION_GELU), {{300000}}));
    w.push_back(plain("elementwise general sigmoid [600,300] transposed",
                      activation_op(SIMDAX_ACTIVATION_SIGMOID), {{600, 300}, {1, 600}}));
    return w;
}

// Smaller shapes for the many-threads-one-operator tests.
inline std::vector<Workload> small_workloads() {
    std::vector<Workload> w;
    for (auto op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_HARDMAX}) {
        w.push_back(plain(std::string("rows ") + op_name(op), op_spec(op, {1}), {{16, 300}}));
        w.push_back(plain(std::string("cols ") + op_name(op), op_spec(op, {0}), {{40, 200}}));
        w.push_back(plain(std::string("general ") + op_name(op), op_spec(op, {1}), {{30, 100}, {1, 30}}));
    }
    w.push_back(with_scale_bias(plain("rows MVN", mvn_op({1}, SIMDAX_ACTIVATION_SIGMOID), {{16, 300}}),
                                {1, 300}, {16, 1}));
    w.push_back(with_scale_bias(plain("cols MVN", mvn_op({0}, SIMDAX_ACTIVATION_IDENTITY), {{40, 200}}),
                                {40, 200}, {}));
    w.push_back(plain("HardSigmoid", hard_sigmoid_op(), {{5000}}));
    w.push_back(plain("general gelu", activation_op(SIMDAX_ACTIVATION_GELU), {{50, 60}, {1, 50}}));
    return w;
}

// Inputs with ties and a repeated maximum (Hardmax's first-max rule across
// parts), an offset mean for MVN, a wide range for the element-wise ops.
inline double value(const Workload& w, Rng& rng, int64_t i) {
    switch (w.spec.op) {
        case SIMDAX_OPERATOR_HARDMAX: return double((i * 7919) % 13) + (rng.chance(0.5) ? 0.0 : -0.0);
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION: return 100.0 + rng.uniform(-3, 3);
        case SIMDAX_OPERATOR_LOG_SOFTMAX:
        case SIMDAX_OPERATOR_SOFTMAX: return rng.uniform(-20, 20);
        default: return rng.uniform(-8, 8);
    }
}

// The operands of one workload, inputs filled from a seed.
inline Operands make_operands(const Workload& w, simdax_dtype dt, uint64_t seed) {
    Rng rng(seed);
    Operands io{TensorBuffer(dt, w.x.sizes, w.x.strides, Role::Input), nullptr, nullptr,
                TensorBuffer(dt, w.y.sizes, w.y.strides, Role::Output)};
    io.x.fill([&](int64_t i) { return value(w, rng, i); });
    if (w.with_scale) {
        io.scale = std::make_unique<TensorBuffer>(dt, w.scale.sizes, w.scale.strides, Role::Input);
        io.scale->fill([&](int64_t) { return rng.uniform(0.25, 2); });
    }
    if (w.with_bias) {
        io.bias = std::make_unique<TensorBuffer>(dt, w.bias.sizes, w.bias.strides, Role::Input);
        io.bias->fill([&](int64_t) { return rng.uniform(-1, 1); });
    }
    return io;
}

// An output buffer that can be reused: the bytes the output's index range
// covers (gaps of a strided output included: they must keep their fill
// pattern whichever thread wrote around them).
class RawOutput {
public:
    RawOutput(const Shape& y, simdax_dtype dt) : e_(int64_t(dtype_bytes(dt))) {
        const std::vector<int64_t> st = y.strides.empty() ? packed_strides(y.sizes) : y.strides;
        int64_t lo = 0, hi = 0;
        for (size_t d = 0; d < y.sizes.size(); ++d) {
            const int64_t reach = (y.sizes[d] - 1) * st[d];
            (reach < 0 ? lo : hi) += reach;
        }
        bytes_.resize(size_t((hi - lo + 1) * e_));
        base_off_ = -lo * e_;
        reset();
    }
    void reset() { std::fill(bytes_.begin(), bytes_.end(), (unsigned char)0xA5); }
    void* base() { return bytes_.data() + base_off_; }
    const std::vector<unsigned char>& bytes() const { return bytes_; }

private:
    int64_t e_, base_off_ = 0;
    std::vector<unsigned char> bytes_;
};

// Every byte of a TensorBuffer output's index range.
inline std::vector<unsigned char> output_bytes(const TensorBuffer& t) {
    int64_t lo = 0, hi = 0;
    for (size_t d = 0; d < t.sizes().size(); ++d) {
        const int64_t reach = (t.sizes()[d] - 1) * t.strides()[d];
        (reach < 0 ? lo : hi) += reach;
    }
    const size_t e = dtype_bytes(t.dtype());
    const auto* p = static_cast<const unsigned char*>(t.data());
    return std::vector<unsigned char>(p + lo * int64_t(e), p + (hi + 1) * int64_t(e));
}

// A created operator for a workload (the descriptor's storage only lives
// during create: the operator must keep its own copy).
inline simdax_operator* create(const Workload& w, simdax_dtype dt) {
    simdax_tensor_desc x{dt, uint32_t(w.x.sizes.size()), w.x.sizes.data(),
                         w.x.strides.empty() ? nullptr : w.x.strides.data()};
    simdax_tensor_desc y{dt, uint32_t(w.y.sizes.size()), w.y.sizes.data(),
                         w.y.strides.empty() ? nullptr : w.y.strides.data()};
    simdax_tensor_desc sc{dt, uint32_t(w.scale.sizes.size()), w.scale.sizes.data(),
                          w.scale.strides.empty() ? nullptr : w.scale.strides.data()};
    simdax_tensor_desc bi{dt, uint32_t(w.bias.sizes.size()), w.bias.sizes.data(),
                          w.bias.strides.empty() ? nullptr : w.bias.strides.data()};
    simdax_axes_op_desc axes{&x, &y, uint32_t(w.spec.axes.size()), w.spec.axes.data()};
    simdax_mvn_desc mvn{&x,
                        w.with_scale ? &sc : nullptr,
                        w.with_bias ? &bi : nullptr,
                        &y,
                        uint32_t(w.spec.axes.size()),
                        w.spec.axes.data(),
                        w.spec.normalize_variance ? 1 : 0,
                        w.spec.epsilon,
                        w.spec.has_activation ? &w.spec.activation : nullptr};
    simdax_hard_sigmoid_desc hs{&x, &y, w.spec.alpha, w.spec.beta};
    simdax_activation_op_desc act{&x, &y, w.spec.activation};
    simdax_operator_desc d{w.spec.op, nullptr};
    switch (w.spec.op) {
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION: d.desc = &mvn; break;
        case SIMDAX_OPERATOR_HARD_SIGMOID: d.desc = &hs; break;
        case SIMDAX_OPERATOR_ACTIVATION: d.desc = &act; break;
        default: d.desc = &axes; break;
    }
    simdax_operator* op = nullptr;
    const simdax_status s = simdax_operator_create(&d, &op);
    EXPECT_EQ(s, SIMDAX_OK) << w.name << ": " << simdax_last_error();
    return op;
}

struct OpHandle {
    simdax_operator* op;
    ~OpHandle() { simdax_operator_destroy(op); }
};

// The inputs of `in` bound with the output `out`.
inline simdax_bindings bindings(const Operands& in, void* out) {
    return simdax_bindings{in.x.data(), in.scale ? in.scale->data() : nullptr,
                           in.bias ? in.bias->data() : nullptr, out};
}

// The output bytes of one serial execute of `op` on `in`: what every
// concurrent execute must reproduce.
inline std::vector<unsigned char> serial_bytes(simdax_operator* op, const Workload& w, simdax_dtype dt,
                                               const Operands& in) {
    RawOutput base(w.y, dt);
    const simdax_bindings b = bindings(in, base.base());
    EXPECT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK);
    return base.bytes();
}

struct Pool {
    simdax_threadpool* pool = nullptr;
    explicit Pool(uint32_t n) { EXPECT_EQ(simdax_threadpool_create(n, &pool), SIMDAX_OK); }
    ~Pool() { simdax_threadpool_destroy(pool); }
};

inline std::string dtype_param_name(const ::testing::TestParamInfo<simdax_dtype>& i) {
    return dtype_name(i.param);
}

// Starts `n` threads running f(t) together; returns after all joined.
template <class F>
inline void run_together(unsigned n, F f) {
    std::atomic<unsigned> ready{0};
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < n; ++t)
        ts.emplace_back([&, t] {
            ready.fetch_add(1);
            while (ready.load() < n) std::this_thread::yield();
            f(t);
        });
    for (auto& th : ts) th.join();
}

}  // namespace sxt::concurrency
