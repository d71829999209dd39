// Shared by the kernels_isa_*_test.cpp files: typed buffers that end at an
// inaccessible page, float64 group references, input sweeps, and the
// KernelsIsa fixture (one instance per ISA this machine runs, instantiated in
// kernels_isa_test.cpp).
#pragma once

#include <cstdlib>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cpu_features.hpp"
#include "dtype_name.hpp"
#include "kernel_table.hpp"
#include "support/dtype.hpp"
#include "support/reference.hpp"
#include "support/tensor_buffer.hpp"
#include "support/test_env.hpp"
#include "tables.hpp"

namespace sxt::kisa {

using simdax::DType;
using simdax::DtypeKernels;
// The public dtype of a kernel dtype (dispatch/api/dtype_name.hpp).
using simdax::public_dtype;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr DType kDTypes[] = {DType::f32, DType::f16, DType::bf16, DType::f64};

// A typed view of a buffer that ends exactly at an inaccessible page: set
// stores rounded to the dtype, get loads.
struct Buf {
    DType dt;
    sxt::TensorBuffer g;
    Buf(DType d, size_t n) : dt(d), g(public_dtype(d), {int64_t(n)}, {}, sxt::Role::Output) {}
    void* at(ptrdiff_t i) {
        return static_cast<char*>(g.data()) + i * ptrdiff_t(sxt::dtype_bytes(public_dtype(dt)));
    }
    void set(ptrdiff_t i, double v) { sxt::store_as(public_dtype(dt), at(i), v); }
    double get(ptrdiff_t i) { return sxt::load_as(public_dtype(dt), at(i)); }
    void* p() { return g.data(); }
    void fill(size_t n, double v) {
        for (size_t i = 0; i < n; ++i) set(ptrdiff_t(i), v);
    }
};

enum class Tol { log_softmax, softmax, plain, plain2 };  // plain2: 2 ulp for f16/bf16

// docs/spec.md "Accuracy" as the conformance pass rule states it (tests/support/dtype.hpp):
// NaN must match NaN, an infinite rounded reference must be hit exactly,
// otherwise atol + rtol*|ref|, or for float16/bfloat16 1 ulp (2: Tol::plain2).
inline ::testing::AssertionResult close(double got, double ref, DType dt, Tol tol) {
    const simdax_operator_type op = tol == Tol::log_softmax ? SIMDAX_OPERATOR_LOG_SOFTMAX
                                    : tol == Tol::softmax   ? SIMDAX_OPERATOR_SOFTMAX
                                                            : SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION;
    const sxt::Tolerance t = sxt::tolerance_for(op, public_dtype(dt), tol == Tol::plain2);
    if (sxt::passes(ref, got, public_dtype(dt), t)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << got << " want " << ref << " (diff " << got - ref << ")";
}

// ---------------------------------------------------------------- references
inline double ref_act(double x, const simdax::ActParams& a) {
    return sxt::ref_activation(x, simdax_activation_desc{a.type, a.alpha, a.beta, a.gamma});
}

inline std::vector<simdax::ActParams> all_acts() {
    std::vector<simdax::ActParams> v;
    for (int t = 0; t < SIMDAX_ACTIVATION_COUNT; ++t) {
        simdax_activation_desc d = simdax_activation_default(simdax_activation_type(t));
        v.push_back({d.type, d.alpha, d.beta, d.gamma});
    }
    v.push_back({SIMDAX_ACTIVATION_LINEAR, 0.5f, -0.25f, 0});
    v.push_back({SIMDAX_ACTIVATION_CELU, 0.7f, 0, 0});
    v.push_back({SIMDAX_ACTIVATION_SHRINK, 0.25f, 0.5f, 0});
    v.push_back({SIMDAX_ACTIVATION_SOFTPLUS, 2.0f, 0, 0});
    v.push_back({SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS, 0.5f, 3.0f, 0});
    v.push_back({SIMDAX_ACTIVATION_SCALED_TANH, 1.5f, 0.5f, 0});
    v.push_back({SIMDAX_ACTIVATION_HARD_SIGMOID, 0.3f, 0.4f, 0});
    return v;
}

// Group references, on the stored input values.
inline std::vector<double> ref_softmax(const std::vector<double>& g, bool log) {
    double m = -kInf;
    bool nan = false;
    for (double v : g) {
        nan |= std::isnan(v);
        m = std::max(m, v);
    }
    std::vector<double> y(g.size(), kNaN);
    if (nan) return y;
    double s = 0;
    for (double v : g) s += std::exp(v - m);
    for (size_t i = 0; i < g.size(); ++i) y[i] = log ? (g[i] - m) - std::log(s) : std::exp(g[i] - m) / s;
    return y;
}

inline size_t ref_argmax(const std::vector<double>& g) {
    size_t at = 0;
    for (size_t i = 0; i < g.size(); ++i) {
        if (std::isnan(g[i])) return i;
        if (g[i] > g[at]) at = i;
    }
    return at;
}

struct RefMoments {
    double mean, var;
};
inline RefMoments ref_moments(const std::vector<double>& g) {
    double s = 0;
    for (double v : g) s += v;
    const double mean = s / double(g.size());
    double q = 0;
    for (double v : g) q += (v - mean) * (v - mean);
    return {mean, q / double(g.size())};
}

// ------------------------------------------------------------------ inputs
// Emulated-CPU runs (qemu) skip the multi-megabyte streaming sizes: native
// runs cover them on every ISA, and under TCG they take minutes.
using sxt::emulated_run;

inline std::vector<size_t> sweep_sizes() {
    std::vector<size_t> n;
    for (size_t i = 1; i <= 4 * 16 + 3; ++i) n.push_back(i);
    for (size_t i : {100, 1000, 2047, 2048, 2049, 4097, 33000}) n.push_back(i);
    return n;
}

// Values of the dtype (rounded on store); mixes signs and magnitudes.
inline void fill_random(Buf& b, size_t n, std::mt19937& rng, double lo, double hi) {
    std::uniform_real_distribution<double> u(lo, hi);
    for (size_t i = 0; i < n; ++i) b.set(ptrdiff_t(i), u(rng));
}

inline std::vector<double> read(Buf& b, size_t n, ptrdiff_t stride = 1, ptrdiff_t off = 0) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = b.get(off + ptrdiff_t(i) * stride);
    return v;
}

// ------------------------------------------------------------------ fixture
inline std::vector<simdax_isa> runnable_isas() {
    std::vector<simdax_isa> v;
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i) {
        const simdax_isa isa = simdax_isa(i);
        if (simdax::isa_kernels(isa) && simdax::cpu_info().isa_ok[isa]) v.push_back(isa);
    }
    return v;
}

class KernelsIsa : public ::testing::TestWithParam<simdax_isa> {
protected:
    const DtypeKernels& k(DType d) const { return simdax::isa_kernels(GetParam())->dt[int(d)]; }
};

inline std::string dname(DType d) { return sxt::dtype_name(public_dtype(d)); }

// Every ISA's composed table fills every slot of every dtype: the

// 1 / divisor of a group with population variance var (SPEC MVN), written
// out here: epsilon on the standard deviation or on the variance.
inline double ref_inv_divisor(double var, const simdax::VarianceNorm& v) {
    if (!v.normalize_variance) return 1.0;
    return 1.0 / (v.epsilon_on_stddev ? std::sqrt(var) + v.epsilon : std::sqrt(var + v.epsilon));
}

}  // namespace sxt::kisa
