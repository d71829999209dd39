// Every kernel-table entry of every ISA this machine runs, called directly
// and compared with a float64 reference computed here (docs/spec.md "Accuracy",
// "Special values"). Buffers end at an inaccessible page, so a tail that
// reads or writes one element too far faults.
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
#include "kernel_table.hpp"
#include "support/dtype.hpp"
#include "support/reference.hpp"
#include "support/tensor_buffer.hpp"
#include "support/test_env.hpp"
#include "tables.hpp"

namespace {

using simdax::DType;
using simdax::DtypeKernels;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr DType kDTypes[] = {DType::f32, DType::f16, DType::bf16, DType::f64};

simdax_dtype api_dtype(DType d) {
    switch (d) {
        case DType::f32: return SIMDAX_DTYPE_FLOAT32;
        case DType::f16: return SIMDAX_DTYPE_FLOAT16;
        case DType::bf16: return SIMDAX_DTYPE_BFLOAT16;
        case DType::f64: return SIMDAX_DTYPE_FLOAT64;
    }
    return SIMDAX_DTYPE_FLOAT32;
}

// A typed view of a buffer that ends exactly at an inaccessible page: set
// stores rounded to the dtype, get loads.
struct Buf {
    DType dt;
    sxt::TensorBuffer g;
    Buf(DType d, size_t n) : dt(d), g(api_dtype(d), {int64_t(n)}, {}, sxt::Role::Output) {}
    void* at(ptrdiff_t i) { return static_cast<char*>(g.data()) + i * ptrdiff_t(sxt::dtype_bytes(api_dtype(dt))); }
    void set(ptrdiff_t i, double v) { sxt::store_as(api_dtype(dt), at(i), v); }
    double get(ptrdiff_t i) { return sxt::load_as(api_dtype(dt), at(i)); }
    void* p() { return g.data(); }
    void fill(size_t n, double v) {
        for (size_t i = 0; i < n; ++i) set(ptrdiff_t(i), v);
    }
};

enum class Tol { log_softmax, softmax, plain, plain2 };  // plain2: 2 ulp for f16/bf16

// docs/spec.md "Accuracy" as the conformance pass rule states it (tests/support/dtype.hpp):
// NaN must match NaN, an infinite rounded reference must be hit exactly,
// otherwise atol + rtol*|ref|, or for float16/bfloat16 1 ulp (2: Tol::plain2).
::testing::AssertionResult close(double got, double ref, DType dt, Tol tol) {
    const simdax_operator_type op = tol == Tol::log_softmax ? SIMDAX_OPERATOR_LOG_SOFTMAX
                                    : tol == Tol::softmax   ? SIMDAX_OPERATOR_SOFTMAX
                                                            : SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION;
    const sxt::Tolerance t = sxt::tolerance_for(op, api_dtype(dt), tol == Tol::plain2);
    if (sxt::passes(ref, got, api_dtype(dt), t)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << got << " want " << ref << " (diff " << got - ref
                                         << ")";
}

// ---------------------------------------------------------------- references
double ref_act(double x, const simdax::ActParams& a) {
    return sxt::ref_activation(x, simdax_activation_desc{a.type, a.alpha, a.beta, a.gamma});
}

bool transcendental(simdax_activation_type t) {
    switch (t) {
        case SIMDAX_ACTIVATION_ELU: case SIMDAX_ACTIVATION_CELU: case SIMDAX_ACTIVATION_SCALED_ELU:
        case SIMDAX_ACTIVATION_SIGMOID: case SIMDAX_ACTIVATION_TANH: case SIMDAX_ACTIVATION_SCALED_TANH:
        case SIMDAX_ACTIVATION_SOFTPLUS: case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS:
        case SIMDAX_ACTIVATION_GELU: return true;
        default: return false;
    }
}

std::vector<simdax::ActParams> all_acts() {
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
std::vector<double> ref_softmax(const std::vector<double>& g, bool log) {
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
    for (size_t i = 0; i < g.size(); ++i)
        y[i] = log ? (g[i] - m) - std::log(s) : std::exp(g[i] - m) / s;
    return y;
}

size_t ref_argmax(const std::vector<double>& g) {
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
RefMoments ref_moments(const std::vector<double>& g) {
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

std::vector<size_t> sweep_sizes() {
    std::vector<size_t> n;
    for (size_t i = 1; i <= 4 * 16 + 3; ++i) n.push_back(i);
    for (size_t i : {100, 1000, 2047, 2048, 2049, 4097, 33000}) n.push_back(i);
    return n;
}

// Values of the dtype (rounded on store); mixes signs and magnitudes.
void fill_random(Buf& b, size_t n, std::mt19937& rng, double lo, double hi) {
    std::uniform_real_distribution<double> u(lo, hi);
    for (size_t i = 0; i < n; ++i) b.set(ptrdiff_t(i), u(rng));
}

std::vector<double> read(Buf& b, size_t n, ptrdiff_t stride = 1, ptrdiff_t off = 0) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = b.get(off + ptrdiff_t(i) * stride);
    return v;
}

// ------------------------------------------------------------------ fixture
std::vector<simdax_isa> runnable_isas() {
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

std::string dname(DType d) { return sxt::dtype_name(api_dtype(d)); }

// Every ISA's composed table fills every slot of every dtype: the
// planner and these tests never meet a missing kernel.
TEST_P(KernelsIsa, TableFillsEverySlot) {
    for (DType dt : kDTypes) {
        const DtypeKernels& kk = k(dt);
#define SIMDAX_EXPECT_SLOT(A, name, params) EXPECT_NE(nullptr, (void*)kk.name) << #name << " " << dname(dt);
        SIMDAX_KERNEL_SLOTS(SIMDAX_EXPECT_SLOT, _)
#undef SIMDAX_EXPECT_SLOT
    }
}

// Runs maxsum over x (in up to two chunks) and returns the state.
simdax::MaxSum run_maxsum(const DtypeKernels& kk, Buf& x, size_t n, size_t esz) {
    simdax::MaxSum st{-kInf, 0.0, 0.0};
    const size_t cut = n > 5 ? n / 3 : 0;
    if (cut) kk.maxsum(x.p(), cut, &st);
    kk.maxsum(static_cast<char*>(x.p()) + cut * esz, n - cut, &st);
    st.log_sum = std::log(st.sum);  // as dispatch's finish_state
    return st;
}

void check_softmax_rows(const DtypeKernels& kk, DType dt, Buf& x, size_t n, const char* what) {
    const size_t esz = sxt::dtype_bytes(api_dtype(dt));
    const std::vector<double> g = read(x, n);
    const simdax::MaxSum st = run_maxsum(kk, x, n, esz);
    for (int log = 0; log < 2; ++log) {
        Buf y(dt, n);
        (log ? kk.log_softmax_out : kk.softmax_out)(x.p(), y.p(), n, &st);
        const std::vector<double> ref = ref_softmax(g, log);
        for (size_t i = 0; i < n; ++i)
            ASSERT_TRUE(close(y.get(ptrdiff_t(i)), ref[i], dt, log ? Tol::log_softmax : Tol::softmax))
                << what << " " << dname(dt) << (log ? " log_softmax" : " softmax") << " n=" << n
                << " i=" << i << " x=" << g[i];
    }
}

TEST_P(KernelsIsa, SoftmaxRows) {
    std::mt19937 rng(1);
    for (DType dt : kDTypes) {
        std::vector<size_t> sizes = sweep_sizes();
        if ((dt == DType::f32 || dt == DType::f16) && !emulated_run())  // streaming stores
            sizes.push_back((size_t(2) << 20) / sxt::dtype_bytes(api_dtype(dt)) + 5);
        for (size_t n : sizes) {
            Buf x(dt, n);
            fill_random(x, n, rng, -20, 20);
            check_softmax_rows(k(dt), dt, x, n, "random");
        }
        // Special values (docs/spec.md "Special values").
        const size_t n = 37;
        const double big = dt == DType::f16 ? 6e4 : (dt == DType::f64 ? 1e300 : 3e38);
        struct Case { const char* name; std::vector<std::pair<size_t, double>> set; double fill; };
        const Case cases[] = {
            {"nan", {{20, kNaN}}, 1.0},
            {"pos_inf", {{3, kInf}}, 0.5},
            {"neg_inf_beside_finite", {{0, -kInf}, {36, -kInf}}, 2.0},
            {"all_neg_inf", {}, -kInf},
            {"huge", {{5, big}, {6, -big}}, 0.0},
            {"equal", {}, 7.25},
            {"neg_inf_first_chunk", {{0, -kInf}, {1, -kInf}, {2, -kInf}, {3, -kInf}, {4, -kInf},
                                     {5, -kInf}, {6, -kInf}, {7, -kInf}, {8, -kInf}, {9, -kInf},
                                     {10, -kInf}, {11, -kInf}}, 1.5},
            {"big_offset", {{3, 3.1e7}}, 3e7},
        };
        for (const Case& c : cases) {
            Buf x(dt, n);
            for (size_t i = 0; i < n; ++i) x.set(ptrdiff_t(i), c.fill + (c.fill == 0.0 ? double(i % 5) : 0.0));
            for (auto& [i, v] : c.set) x.set(ptrdiff_t(i), v);
            check_softmax_rows(k(dt), dt, x, n, c.name);
        }
    }
}

// One-hot output of a piece [base, base + n) of a group: 1 exactly at the
// state's index when it falls in the piece, 0 elsewhere (buffers end at an
// inaccessible page).
TEST_P(KernelsIsa, HardmaxOut) {
    for (DType dt : kDTypes)
        for (size_t n : {size_t(1), size_t(7), size_t(33), size_t(1000)})
            for (int64_t index : {int64_t(-1), int64_t(0), int64_t(5), int64_t(n) + 4, int64_t(n) + 5}) {
                Buf y(dt, n);
                for (size_t i = 0; i < n; ++i) y.set(ptrdiff_t(i), 7.0);
                const simdax::ArgMax st{3.0, index, 0};
                k(dt).hardmax_out(y.p(), n, 5, &st);
                for (size_t i = 0; i < n; ++i)
                    ASSERT_EQ(y.get(ptrdiff_t(i)), int64_t(i) + 5 == index ? 1.0 : 0.0)
                        << dname(dt) << " n=" << n << " index=" << index << " i=" << i;
            }
}

TEST_P(KernelsIsa, Argmax) {
    std::mt19937 rng(2);
    for (DType dt : kDTypes) {
        const size_t esz = sxt::dtype_bytes(api_dtype(dt));
        for (size_t n : sweep_sizes()) {
            for (int variant = 0; variant < 4; ++variant) {
                Buf x(dt, n);
                std::uniform_int_distribution<int> u(-6, 6);
                for (size_t i = 0; i < n; ++i) x.set(ptrdiff_t(i), u(rng) * 0.5);  // many ties
                if (variant == 1) x.set(ptrdiff_t(n - 1), 100.0);
                if (variant == 2) {
                    x.set(ptrdiff_t(n / 2), kNaN);
                    x.set(ptrdiff_t(n - 1), kNaN);
                }
                if (variant == 3)
                    for (size_t i = 0; i < n; ++i) x.set(ptrdiff_t(i), i % 2 ? 0.0 : -0.0);
                const std::vector<double> g = read(x, n);
                simdax::ArgMax st{-kInf, -1, 0};
                const size_t cut = n > 5 ? n / 3 : 0;
                if (cut) k(dt).argmax(x.p(), cut, 7, &st);
                k(dt).argmax(static_cast<char*>(x.p()) + cut * esz, n - cut, 7 + int64_t(cut), &st);
                ASSERT_EQ(st.index, 7 + int64_t(ref_argmax(g)))
                    << dname(dt) << " n=" << n << " variant=" << variant;
                ASSERT_EQ(st.nan != 0, variant == 2);
            }
        }
        Buf x(dt, 19);
        for (int i = 0; i < 19; ++i) x.set(i, -kInf);
        simdax::ArgMax st{-kInf, -1, 0};
        k(dt).argmax(x.p(), 19, 0, &st);
        EXPECT_EQ(st.index, 0) << "all -inf puts its 1 first, " << dname(dt);
    }
}

// 1 / divisor of a group with population variance var (SPEC MVN), written
// out here: epsilon on the standard deviation or on the variance.
double ref_inv_divisor(double var, const simdax::VarianceNorm& v) {
    if (!v.normalize_variance) return 1.0;
    return 1.0 / (v.epsilon_on_stddev ? std::sqrt(var) + v.epsilon : std::sqrt(var + v.epsilon));
}

// moments over x, then normalize with the given scale/bias/act; checks y.
void check_mvn_rows(const DtypeKernels& kk, DType dt, Buf& x, size_t n, int affine,
                    const simdax::ActParams& act, bool normvar, const char* what) {
    const size_t esz = sxt::dtype_bytes(api_dtype(dt));
    const std::vector<double> g = read(x, n);
    simdax::Moments st{0, 0, 0};
    const size_t cut = n > 5 ? n / 3 : 0;
    if (cut) kk.moments(x.p(), cut, &st);
    kk.moments(static_cast<char*>(x.p()) + cut * esz, n - cut, &st);
    const RefMoments rm = ref_moments(g);
    ASSERT_EQ(st.count, double(n));
    const double eps = 1e-5;
    // affine: 0 none, 1 scale const + bias contiguous, 2 scale contiguous, 3 strided (3, 2)
    const ptrdiff_t ss = affine == 1 ? 0 : affine == 3 ? 3 : 1, bs = affine == 3 ? 2 : 1;
    Buf sc(dt, n * 3 + 1), bi(dt, n * 2 + 1);
    std::mt19937 rng{static_cast<unsigned>(n)};
    fill_random(sc, n * 3 + 1, rng, 0.5, 2.0);
    fill_random(bi, n * 2 + 1, rng, -1.0, 1.0);
    simdax::NormArgs na{};
    na.mean = st.mean;
    na.inv_std = normvar ? 1.0 / std::sqrt(st.m2 / st.count + eps) : 1.0;
    na.scale = affine ? sc.p() : nullptr;
    na.scale_stride = ss;
    na.bias = affine == 1 || affine == 3 ? bi.p() : nullptr;
    na.bias_stride = bs;
    na.act = act;
    Buf y(dt, n);
    kk.normalize(x.p(), y.p(), n, &na);
    const double inv = normvar ? 1.0 / std::sqrt(rm.var + eps) : 1.0;
    const Tol tol = transcendental(act.type) ? Tol::plain2 : Tol::plain;
    for (size_t i = 0; i < n; ++i) {
        const double s = na.scale ? sc.get(ptrdiff_t(i) * ss) : 1.0;
        const double b = na.bias ? bi.get(ptrdiff_t(i) * bs) : 0.0;
        const double ref = ref_act(s * (g[i] - rm.mean) * inv + b, act);
        ASSERT_TRUE(close(y.get(ptrdiff_t(i)), ref, dt, tol))
            << what << " " << dname(dt) << " n=" << n << " i=" << i << " affine=" << affine
            << " act=" << simdax_activation_name(act.type);
    }
}

TEST_P(KernelsIsa, MvnRows) {
    std::mt19937 rng(3);
    const simdax::ActParams ident{SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0};
    for (DType dt : kDTypes) {
        for (size_t n : sweep_sizes()) {
            Buf x(dt, n);
            fill_random(x, n, rng, -3, 5);
            check_mvn_rows(k(dt), dt, x, n, int(n % 4), ident, true, "random");
        }
        for (size_t n : {5, 64, 1000, 4097}) {
            Buf x(dt, n);
            // Mean 1e4, std 1 must normalise like mean 0 (docs/spec.md: float32). Not
            // float64: NormArgs carries the mean as one double, whose own
            // rounding at 1e4 (9e-13) already nears the 1e-12 bound.
            std::normal_distribution<double> nd(dt == DType::f32 ? 1e4 : 0.0, 1.0);
            for (size_t i = 0; i < n; ++i) x.set(ptrdiff_t(i), nd(rng));
            check_mvn_rows(k(dt), dt, x, n, 0, ident, true, "mean1e4");
            check_mvn_rows(k(dt), dt, x, n, 2, ident, false, "no_normvar");
        }
        for (const simdax::ActParams& a : all_acts()) {
            Buf x(dt, 67);
            fill_random(x, 67, rng, -4, 4);
            check_mvn_rows(k(dt), dt, x, 67, 1, a, true, "act");
        }
        Buf x(dt, 9);
        for (int i = 0; i < 9; ++i) x.set(i, i);
        x.set(4, kNaN);
        Buf y(dt, 9);
        simdax::Moments st{0, 0, 0};
        k(dt).moments(x.p(), 9, &st);
        EXPECT_TRUE(std::isnan(st.mean) || std::isnan(st.m2)) << "NaN in an MVN group, " << dname(dt);
    }
}

TEST_P(KernelsIsa, Activation) {
    std::mt19937 rng(4);
    for (DType dt : kDTypes) {
        for (const simdax::ActParams& a : all_acts()) {
            std::vector<size_t> sizes = sweep_sizes();
            if ((dt == DType::f32 || dt == DType::f16) && !emulated_run() &&
                (a.type == SIMDAX_ACTIVATION_HARD_SIGMOID || a.type == SIMDAX_ACTIVATION_TANH))
                sizes.push_back((size_t(2) << 20) / sxt::dtype_bytes(api_dtype(dt)) + 3);  // streaming
            for (size_t n : sizes) {
                if (n > 100 && n != 4097 && n < 100000) continue;
                Buf x(dt, n);
                fill_random(x, n, rng, -12, 12);
                // Special values and the regions where naive forms cancel.
                const double sp[] = {kNaN, kInf, -kInf, 0.0, -0.0, 1e-6, -1e-6, -3e-3, 2e-4, -90,
                                     90, -20, 20, -5, 5, 0.5, -0.5, 1.0, -1.0, 0.2};
                for (size_t i = 0; i < n && i < sizeof(sp) / sizeof(sp[0]); ++i)
                    x.set(ptrdiff_t((i * 7) % n), sp[i]);
                const std::vector<double> g = read(x, n);
                Buf y(dt, n);
                k(dt).activation(x.p(), y.p(), n, &a);
                k(dt).activation(x.p(), x.p(), n, &a);  // in place
                for (size_t i = 0; i < n; ++i) {
                    const double ref = ref_act(g[i], a);
                    ASSERT_TRUE(close(y.get(ptrdiff_t(i)), ref, dt, Tol::plain))
                        << dname(dt) << " " << simdax_activation_name(a.type) << " a=" << a.alpha
                        << " b=" << a.beta << " n=" << n << " x=" << g[i];
                    ASSERT_TRUE(close(x.get(ptrdiff_t(i)), ref, dt, Tol::plain)) << "in place";
                }
            }
        }
    }
}

// Cols layouts: k lanes, r rows, row strides k + pads or powers of two;
// buffers end at the last lane of the last row.
struct ColsShape {
    size_t r, k;
    ptrdiff_t xrs, yrs;
};
std::vector<ColsShape> cols_shapes() {
    std::vector<ColsShape> v;
    for (size_t kk = 1; kk <= 2 * 16 + 3; ++kk)
        for (size_t r : {1, 2, 7, 70}) v.push_back({r, kk, ptrdiff_t(kk + 3), ptrdiff_t(kk)});
    for (size_t kk : {48, 64, 67, 100, 131}) v.push_back({130, kk, ptrdiff_t(kk), ptrdiff_t(kk + 1)});
    v.push_back({3000, 5, 9, 5});
    // Row strides with few offsets modulo 4 KiB for every dtype (the cols
    // kernels then write by rows, in chunks of 4 KiB of a row): lanes within,
    // across and off the chunk, masked tails, x and y strides apart.
    for (size_t kk : {5, 37, 1040, 2053}) v.push_back({kk > 1040 ? 9u : 70u, kk, 4096, 4096});
    v.push_back({3, 300, 512, 1024});
    v.push_back({33, 130, 2048, 131});
    return v;
}

TEST_P(KernelsIsa, SoftmaxAndHardmaxCols) {
    std::mt19937 rng(5);
    for (DType dt : kDTypes) {
        for (const ColsShape& s : cols_shapes()) {
            const size_t nx = (s.r - 1) * size_t(s.xrs) + s.k, ny = (s.r - 1) * size_t(s.yrs) + s.k;
            Buf x(dt, nx);
            fill_random(x, nx, rng, -10, 10);
            std::uniform_int_distribution<int> u(-3, 3);
            if (s.k > 2) {  // special columns: NaN, +inf, all -inf, -inf beside finite, ties
                x.set(ptrdiff_t((s.r / 2) * size_t(s.xrs) + 0), kNaN);
                for (size_t j = 0; j < s.r; ++j) x.set(ptrdiff_t(j * size_t(s.xrs) + 1), -kInf);
                x.set(ptrdiff_t((s.r - 1) * size_t(s.xrs) + 2), s.r > 1 ? -kInf : kInf);
                for (size_t j = 0; j < s.r && s.k > 3; ++j) x.set(ptrdiff_t(j * size_t(s.xrs) + 3), u(rng));
            }
            // ops 0, 1 again as 3, 4 with non-temporal stores.
            for (int q = 0; q < 5; ++q) {
                const int op = q % 3;
                const bool stream = q > 2;
                Buf y(dt, ny);
                if (op == 2) k(dt).hardmax_cols(x.p(), y.p(), s.r, s.k, s.xrs, s.yrs);
                else (op == 0 ? k(dt).log_softmax_cols : k(dt).softmax_cols)(x.p(), y.p(), s.r, s.k, s.xrs, s.yrs, stream);
                for (size_t l = 0; l < s.k; ++l) {
                    const std::vector<double> g = read(x, s.r, s.xrs, ptrdiff_t(l));
                    const std::vector<double> got = read(y, s.r, s.yrs, ptrdiff_t(l));
                    if (op == 2) {
                        const size_t at = ref_argmax(g);
                        for (size_t j = 0; j < s.r; ++j)
                            ASSERT_EQ(got[j], j == at ? 1.0 : 0.0)
                                << "hardmax_cols " << dname(dt) << " r=" << s.r << " k=" << s.k << " l=" << l;
                        continue;
                    }
                    const std::vector<double> ref = ref_softmax(g, op == 0);
                    for (size_t j = 0; j < s.r; ++j)
                        ASSERT_TRUE(close(got[j], ref[j], dt, op == 0 ? Tol::log_softmax : Tol::softmax))
                            << (op == 0 ? "log_softmax_cols " : "softmax_cols ") << (stream ? "stream " : "")
                            << dname(dt) << " r=" << s.r
                            << " k=" << s.k << " l=" << l << " j=" << j;
                }
            }
        }
    }
}

TEST_P(KernelsIsa, MvnCols) {
    std::mt19937 rng(6);
    const std::vector<simdax::ActParams> acts = all_acts();
    int iter = 0;
    for (DType dt : kDTypes) {
        for (const ColsShape& s : cols_shapes()) {
            ++iter;
            const size_t nx = (s.r - 1) * size_t(s.xrs) + s.k, ny = (s.r - 1) * size_t(s.yrs) + s.k;
            Buf x(dt, nx);
            const double mean = dt == DType::f32 && iter % 3 == 0 ? 1e4 : 0.5;
            std::normal_distribution<double> nd(mean, 1.0);
            for (size_t i = 0; i < nx; ++i) x.set(ptrdiff_t(i), nd(rng));
            simdax::MvnArgs a{};
            a.vn.normalize_variance = iter % 5 != 0;
            a.vn.epsilon_on_stddev = iter % 3 == 1;
            a.vn.epsilon = iter % 2 ? 0.25 : 1e-5;  // 0.25: the placements differ
            // Scale per lane (or broadcast, or strided lanes), bias per row and lane.
            const int mode = iter % 4;
            Buf sc(dt, 2 * s.k + 1), bi(dt, s.r * s.k);
            fill_random(sc, 2 * s.k + 1, rng, 0.5, 2.0);
            fill_random(bi, s.r * s.k, rng, -1.0, 1.0);
            if (mode >= 1) {
                a.scale = sc.p();
                a.scale_rs = 0;
                a.scale_ks = mode == 1 ? 1 : mode == 2 ? 0 : 2;
            }
            if (mode >= 2) {
                a.bias = bi.p();
                a.bias_rs = ptrdiff_t(s.k);
                a.bias_ks = 1;
            }
            a.act = acts[size_t(iter) % acts.size()];
            if (iter % 2) a.act = {SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0};
            Buf y(dt, ny);
            k(dt).mvn_cols(x.p(), y.p(), s.r, s.k, s.xrs, s.yrs, &a);
            const Tol tol = transcendental(a.act.type) ? Tol::plain2 : Tol::plain;
            for (size_t l = 0; l < s.k; ++l) {
                const std::vector<double> g = read(x, s.r, s.xrs, ptrdiff_t(l));
                const RefMoments rm = ref_moments(g);
                const double inv = ref_inv_divisor(rm.var, a.vn);
                for (size_t j = 0; j < s.r; ++j) {
                    const double scv = a.scale ? sc.get(ptrdiff_t(l) * a.scale_ks) : 1.0;
                    const double biv = a.bias ? bi.get(ptrdiff_t(j) * a.bias_rs + ptrdiff_t(l)) : 0.0;
                    const double ref = ref_act(scv * (g[j] - rm.mean) * inv + biv, a.act);
                    ASSERT_TRUE(close(y.get(ptrdiff_t(j) * s.yrs + ptrdiff_t(l)), ref, dt, tol))
                        << "mvn_cols " << dname(dt) << " r=" << s.r << " k=" << s.k << " l=" << l << " j=" << j
                        << " mode=" << mode << " act=" << simdax_activation_name(a.act.type);
                }
            }
        }
    }
}

// A lane block outside the fast range (magnitudes near 1e30, whose squares
// overflow float) beside fast ones, at a row stride that aliases modulo
// 4 KiB: the chunk written by rows falls back to the walk down its lane
// blocks, and every lane still matches the reference.
TEST_P(KernelsIsa, MvnColsWideLaneBlockInAliasedRows) {
    std::mt19937 rng(7);
    const size_t r = 6, kk = 200, wide_lane = 70;
    const ptrdiff_t rs = 2048;
    for (DType dt : {DType::f32, DType::bf16}) {  // float compute types: 1e30 is representable
        const size_t n = (r - 1) * size_t(rs) + kk;
        Buf x(dt, n), y(dt, n), sc(dt, kk);
        std::normal_distribution<double> nd(0.5, 1.0);
        for (size_t i = 0; i < n; ++i) x.set(ptrdiff_t(i), nd(rng));
        for (size_t j = 0; j < r; ++j) x.set(ptrdiff_t(j) * rs + ptrdiff_t(wide_lane), nd(rng) * 1e30);
        fill_random(sc, kk, rng, 0.5, 2.0);
        simdax::MvnArgs a{};
        a.vn.normalize_variance = true;
        a.vn.epsilon = 1e-5;
        a.scale = sc.p();
        a.scale_ks = 1;
        a.act = {SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0};
        k(dt).mvn_cols(x.p(), y.p(), r, kk, rs, rs, &a);
        for (size_t l = 0; l < kk; ++l) {
            const std::vector<double> g = read(x, r, rs, ptrdiff_t(l));
            const RefMoments rm = ref_moments(g);
            const double inv = ref_inv_divisor(rm.var, a.vn);
            for (size_t j = 0; j < r; ++j) {
                const double ref = sc.get(ptrdiff_t(l)) * (g[j] - rm.mean) * inv;
                ASSERT_TRUE(close(y.get(ptrdiff_t(j) * rs + ptrdiff_t(l)), ref, dt, Tol::plain))
                    << "mvn_cols " << dname(dt) << " l=" << l << " j=" << j;
            }
        }
    }
}

// ---------------------------------------------------------- fused rows kernels
// `rows` groups of n elements at row strides larger than n; the padding of y
// holds a sentinel that must survive. Row g of the input gets a special-value
// pattern chosen by (g + salt) % kRowKinds (kind 0: plain random), so the
// short-row pipeline meets special rows before, between and after plain ones.
constexpr int kRowKinds = 11;

void fill_row(Buf& x, ptrdiff_t off, size_t n, int kind, DType dt, std::mt19937& rng) {
    std::uniform_real_distribution<double> u(-20, 20);
    const double big = dt == DType::f16 ? 6e4 : (dt == DType::f64 ? 1e300 : 3e38);
    for (size_t i = 0; i < n; ++i) x.set(off + ptrdiff_t(i), u(rng));
    auto at = [&](size_t i, double v) { x.set(off + ptrdiff_t(i % n), v); };
    switch (kind) {
        case 1: at(n / 2, kNaN); break;
        case 2: at(n / 3, kInf); break;
        case 3: at(0, -kInf); at(n - 1, -kInf); break;                        // -inf beside finite
        case 4: for (size_t i = 0; i < n; ++i) at(i, -kInf); break;           // all -inf
        case 5: at(n / 4, big); at(n / 5 + 1, -big); break;                   // huge
        case 6: for (size_t i = 0; i < n; ++i) at(i, 7.25); break;            // equal
        case 7: {  // large offset (beyond 2^22: the unfolded path)
            const double off = dt == DType::f16 ? 3e4 : 3e7;
            for (size_t i = 0; i < n; ++i) at(i, off + 4.0 * double(i % 7));
            break;
        }
        case 8: for (size_t i = 0; i < n; ++i) at(i, i % 3 ? -kInf : 0.5 * double(i % 5)); break;
        case 9: {  // far beyond 2^22: x*log2(e) must not be split with a large remainder
            const double off = dt == DType::f16 ? -3e4 : 1e10;
            for (size_t i = 0; i < n; ++i) at(i, off * (1.0 + 1e-6 * double(i % 3)));
            break;
        }
        case 10:  // a whole block (the second) of -inf, the max growing block by block
            for (size_t i = 0; i < n; ++i) at(i, i >= 2048 && i < 4096 ? -kInf : u(rng) + 0.01 * double(i));
            break;
        default: break;
    }
}

struct RowsShape {
    size_t rows, n;
    ptrdiff_t xrs, yrs;
    int salt = 0;  // 1-based position in rows_shapes(): varies the row contents
    // Elements from the first row's start to the last row's end at stride rs.
    size_t span(ptrdiff_t rs) const { return (rows - 1) * size_t(rs) + n; }
};
std::vector<RowsShape> rows_shapes(DType dt) {
    std::vector<RowsShape> v;
    for (size_t n = 1; n <= 2 * 16 + 3; ++n) v.push_back({7, n, ptrdiff_t(n + 3), ptrdiff_t(n + 1)});
    for (size_t n : {4, 64, 100, 1000, 2047, 2048}) v.push_back({kRowKinds + 2, n, ptrdiff_t(n + 5), ptrdiff_t(n)});
    for (size_t n : {1, 5, 128, 1000, 2049, 4097}) v.push_back({1, n, ptrdiff_t(n), ptrdiff_t(n)});
    v.push_back({3, 4097, 4099, 4100});
    v.push_back({kRowKinds + 2, 12500, 12503, 12501});  // every row kind beside long rows (rows_long*.hpp)
    if (dt == DType::f32) v.push_back({2, 33000, 33000, 33001});
    if (dt != DType::f64) {  // outputs >= 2 MB: streaming stores
        const size_t e = dt == DType::f32 ? 1 : 2;
        v.push_back({600 * e, 1000, 1000, 1003});  // short rows (pipeline)
        v.push_back({70 * e, 8200, 8200, 8200});   // long rows
    }
    for (size_t i = 0; i < v.size(); ++i) v[i].salt = int(i) + 1;
    return v;
}

constexpr double kSentinel = 0.125;

// The gap between row g's end and row g+1's start still holds kSentinel.
::testing::AssertionResult padding_untouched(Buf& y, const RowsShape& s, size_t g) {
    if (g + 1 < s.rows)
        for (ptrdiff_t i = ptrdiff_t(s.n); i < s.yrs; ++i)
            if (y.get(ptrdiff_t(g) * s.yrs + i) != kSentinel)
                return ::testing::AssertionFailure() << "padding written: row " << g << " at " << i;
    return ::testing::AssertionSuccess();
}


TEST_P(KernelsIsa, FusedSoftmaxRows) {
    std::mt19937 rng(7);
    for (DType dt : kDTypes) {
        const DtypeKernels& kk = k(dt);
        for (const RowsShape& s : rows_shapes(dt)) {
            const int salt = s.salt;
            const size_t nx = s.span(s.xrs), ny = s.span(s.yrs);
            Buf x(dt, nx);
            x.fill(nx, kSentinel);
            for (size_t g = 0; g < s.rows; ++g)
                fill_row(x, ptrdiff_t(g) * s.xrs, s.n, s.rows > 1 ? int((g + size_t(salt)) % kRowKinds) : salt % kRowKinds,
                         dt, rng);
            for (int log = 0; log < 2; ++log) {
                Buf y(dt, ny);
                y.fill(ny, kSentinel);
                (log ? kk.log_softmax_rows : kk.softmax_rows)(x.p(), y.p(), s.rows, s.n, s.xrs, s.yrs);
                for (size_t g = 0; g < s.rows; ++g) {
                    const std::vector<double> in = read(x, s.n, 1, ptrdiff_t(g) * s.xrs);
                    const std::vector<double> ref = ref_softmax(in, log);
                    for (size_t i = 0; i < s.n; ++i) {
                        const double got = y.get(ptrdiff_t(g) * s.yrs + ptrdiff_t(i));
                        ASSERT_TRUE(close(got, ref[i], dt, log ? Tol::log_softmax : Tol::softmax))
                            << (log ? "log_softmax_rows " : "softmax_rows ") << dname(dt) << " rows=" << s.rows
                            << " n=" << s.n << " g=" << g << " i=" << i << " x=" << in[i];
                    }
                    ASSERT_TRUE(padding_untouched(y, s, g));
                }
            }
        }
        // In place (same buffer, same strides) is allowed for LogSoftmax. Rows
        // of 4500 (rows_long.hpp) with a +inf in row 2's second block: row 1's
        // output is finished before row 2 is done alone.
        for (size_t n : {3, 40, 1000, 4500}) {
            Buf x(dt, 5 * n);
            fill_random(x, 5 * n, rng, -10, 10);
            if (n == 4500) x.set(ptrdiff_t(2 * n + 3000), kInf);
            const std::vector<double> g = read(x, 5 * n);
            kk.log_softmax_rows(x.p(), x.p(), 5, n, ptrdiff_t(n), ptrdiff_t(n));
            for (size_t r = 0; r < 5; ++r) {
                const std::vector<double> ref =
                    ref_softmax(std::vector<double>(g.begin() + ptrdiff_t(r * n), g.begin() + ptrdiff_t((r + 1) * n)), true);
                for (size_t i = 0; i < n; ++i)
                    ASSERT_TRUE(close(x.get(ptrdiff_t(r * n + i)), ref[i], dt, Tol::log_softmax))
                        << "in place " << dname(dt) << " n=" << n;
            }
        }
    }
}

TEST_P(KernelsIsa, FusedHardmaxRows) {
    std::mt19937 rng(8);
    for (DType dt : kDTypes) {
        const DtypeKernels& kk = k(dt);
        for (const RowsShape& s : rows_shapes(dt)) {
            const int salt = s.salt;
            const size_t nx = s.span(s.xrs), ny = s.span(s.yrs);
            Buf x(dt, nx);
            std::uniform_int_distribution<int> u(-6, 6);
            for (size_t i = 0; i < nx; ++i) x.set(ptrdiff_t(i), u(rng) * 0.5);  // many ties
            for (size_t g = 0; g < s.rows; ++g) {
                const ptrdiff_t o = ptrdiff_t(g) * s.xrs;
                switch ((g + size_t(salt)) % 7) {
                    case 1: x.set(o + ptrdiff_t(s.n - 1), 100.0); break;
                    case 2: x.set(o + ptrdiff_t(s.n / 2), kNaN); x.set(o + ptrdiff_t(s.n - 1), kNaN); break;
                    case 3: for (size_t i = 0; i < s.n; ++i) x.set(o + ptrdiff_t(i), i % 2 ? 0.0 : -0.0); break;
                    case 4: for (size_t i = 0; i < s.n; ++i) x.set(o + ptrdiff_t(i), -kInf); break;
                    case 5: x.set(o + ptrdiff_t(s.n / 3), kInf); x.set(o + ptrdiff_t(s.n - 1), kNaN); break;
                    case 6: x.set(o + ptrdiff_t(s.n - 1), kInf); x.set(o, -kInf); break;
                    default: break;
                }
            }
            Buf y(dt, ny);
            y.fill(ny, kSentinel);
            kk.hardmax_rows(x.p(), y.p(), s.rows, s.n, s.xrs, s.yrs);
            for (size_t g = 0; g < s.rows; ++g) {
                const size_t at = ref_argmax(read(x, s.n, 1, ptrdiff_t(g) * s.xrs));
                for (size_t i = 0; i < s.n; ++i)
                    ASSERT_EQ(y.get(ptrdiff_t(g) * s.yrs + ptrdiff_t(i)), i == at ? 1.0 : 0.0)
                        << "hardmax_rows " << dname(dt) << " rows=" << s.rows << " n=" << s.n << " g=" << g
                        << " i=" << i;
                ASSERT_TRUE(padding_untouched(y, s, g));
            }
        }
    }
}

TEST_P(KernelsIsa, FusedMvnRows) {
    std::mt19937 rng(9);
    const std::vector<simdax::ActParams> acts = all_acts();
    int iter = 0;
    for (DType dt : kDTypes) {
        const DtypeKernels& kk = k(dt);
        for (const RowsShape& s : rows_shapes(dt)) {
            for (int mode = 0; mode < 5; ++mode) {
                if (s.rows * s.n > 100000 && mode != 0 && mode != 2) continue;  // time (qemu)
                ++iter;
                const size_t nx = s.span(s.xrs), ny = s.span(s.yrs);
                Buf x(dt, nx);
                const double mean = dt == DType::f32 && iter % 3 == 0 ? 1e4 : 0.5;
                std::normal_distribution<double> nd(mean, iter % 2 ? 1.0 : 3.0);
                for (size_t i = 0; i < nx; ++i) x.set(ptrdiff_t(i), nd(rng));
                if (s.rows > 2 && mode == 4) x.set(ptrdiff_t(s.xrs) + ptrdiff_t(s.n / 2), kNaN);  // row 1 NaN
                if (s.rows > 3 && mode == 3 && dt != DType::f16)
                    x.set(2 * ptrdiff_t(s.xrs), dt == DType::f64 ? 1e150 : 1e30);  // squares overflow float
                // Row 1 starts 40 deviations from its mean: one pass around x[0]
                // is not enough, pass B rereads that row (its float copy, from
                // among a batch of rows, for float16/bfloat16).
                if (s.rows > 2 && mode == 1) x.set(ptrdiff_t(s.xrs), mean + 40.0 * (iter % 2 ? 1.0 : 3.0));
                simdax::MvnArgs a{};
                a.vn.normalize_variance = iter % 7 != 0;
                a.vn.epsilon_on_stddev = iter % 3 == 1;
                a.vn.epsilon = iter % 2 ? 0.25 : 1e-5;  // 0.25: the placements differ
                // mode 0: none; 1: scale per row, bias per element; 2: scale per
                // element, bias per row; 3: strided scale (2), bias per row and
                // element; 4: scale broadcast constant, no bias.
                Buf sc(dt, 2 * s.n + s.rows + 1), bi(dt, s.rows * s.n + s.rows + 1);
                fill_random(sc, 2 * s.n + s.rows + 1, rng, 0.5, 2.0);
                fill_random(bi, s.rows * s.n + s.rows + 1, rng, -1.0, 1.0);
                const ptrdiff_t srs[5] = {0, 1, 0, 0, 0}, sks[5] = {0, 0, 1, 2, 0};
                const ptrdiff_t brs[5] = {0, 0, 1, ptrdiff_t(s.n), 0}, bks[5] = {0, 1, 0, 1, 0};
                if (mode >= 1) {
                    a.scale = sc.p();
                    a.scale_rs = srs[mode];
                    a.scale_ks = sks[mode];
                }
                if (mode >= 1 && mode <= 3) {
                    a.bias = bi.p();
                    a.bias_rs = brs[mode];
                    a.bias_ks = bks[mode];
                }
                a.act = acts[size_t(iter) % acts.size()];
                if (iter % 3) a.act = {SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0};
                Buf y(dt, ny);
                y.fill(ny, kSentinel);
                kk.mvn_rows(x.p(), y.p(), s.rows, s.n, s.xrs, s.yrs, &a);
                const Tol tol = transcendental(a.act.type) ? Tol::plain2 : Tol::plain;
                for (size_t g = 0; g < s.rows; ++g) {
                    const std::vector<double> in = read(x, s.n, 1, ptrdiff_t(g) * s.xrs);
                    const RefMoments rm = ref_moments(in);
                    const double inv = ref_inv_divisor(rm.var, a.vn);
                    for (size_t i = 0; i < s.n; ++i) {
                        const double scv = a.scale ? sc.get(ptrdiff_t(g) * a.scale_rs + ptrdiff_t(i) * a.scale_ks) : 1.0;
                        const double biv = a.bias ? bi.get(ptrdiff_t(g) * a.bias_rs + ptrdiff_t(i) * a.bias_ks) : 0.0;
                        const double ref = ref_act(scv * (in[i] - rm.mean) * inv + biv, a.act);
                        const double got = y.get(ptrdiff_t(g) * s.yrs + ptrdiff_t(i));
                        if (std::isnan(rm.mean)) {
                            ASSERT_TRUE(std::isnan(got)) << "a NaN makes the MVN row NaN";
                            continue;
                        }
                        ASSERT_TRUE(close(got, ref, dt, tol))
                            << "mvn_rows " << dname(dt) << " rows=" << s.rows << " n=" << s.n << " g=" << g
                            << " i=" << i << " mode=" << mode << " act=" << simdax_activation_name(a.act.type)
                            << " normvar=" << a.vn.normalize_variance << " on_stddev=" << a.vn.epsilon_on_stddev;
                    }
                    ASSERT_TRUE(padding_untouched(y, s, g));
                }
            }
        }
    }
}

// float16/bfloat16 MVN rows whose output is streamed (>= 2 MB) run the
// next batch's pass A inside this batch's output loops (rows.hpp,
// PassASteps). Every row length class (batches of 4, 3, 2, 1 rows; rows
// shorter than one step; tails), a row count that leaves a short last
// batch, and rows the output does not write on the fast path (NaN: the
// wide path; a mean far beyond its spread: pass B; constant rows; a
// non-identity activation) beside carried ones. Then the same rows in
// calls of 5 rows (ordinary stores, no carrying) must give the same bits.
// Emulated, two lengths (batches of 4 and 3 rows) keep the run short.
TEST_P(KernelsIsa, MvnRowsCarriedPassA) {
    std::mt19937 rng(10);
    const std::vector<simdax::ActParams> acts = all_acts();
    const std::vector<size_t> lengths =
        emulated_run() ? std::vector<size_t>{768, 997} : std::vector<size_t>{40, 100, 768, 997, 1500, 2000};
    int iter = 0;
    for (DType dt : {DType::f16, DType::bf16}) {
        const DtypeKernels& kk = k(dt);
        for (size_t n : lengths) {
            ++iter;
            const size_t rows = (size_t(2) << 20) / (2 * n) + 3;  // output just over 2 MB
            const ptrdiff_t rs = ptrdiff_t(n);
            Buf x(dt, rows * n);
            std::normal_distribution<double> nd(0.25, 2.0);
            for (size_t i = 0; i < rows * n; ++i) x.set(ptrdiff_t(i), nd(rng));
            for (size_t g = 0; g < rows; g += 7) {
                const ptrdiff_t o = ptrdiff_t(g * n);
                switch (g / 7 % 4) {
                    case 0: x.set(o + ptrdiff_t(n / 2), kNaN); break;
                    case 1:  // mean 100 spread 0.5: pass B on the float copy
                        for (size_t i = 0; i < n; ++i) x.set(o + ptrdiff_t(i), 100.0 + (i % 3) * 0.5);
                        break;
                    case 2: for (size_t i = 0; i < n; ++i) x.set(o + ptrdiff_t(i), -1.5); break;
                    default: break;
                }
            }
            simdax::MvnArgs a{};
            a.vn.normalize_variance = true;
            a.vn.epsilon = 1e-5;
            Buf sc(dt, n), bi(dt, n);
            fill_random(sc, n, rng, 0.5, 2.0);
            fill_random(bi, n, rng, -1.0, 1.0);
            if (iter % 2) {
                a.scale = sc.p();
                a.scale_ks = 1;
                a.bias = bi.p();
                a.bias_ks = 1;
            }
            a.act = iter % 3 == 0 ? acts[size_t(iter) % acts.size()] : simdax::ActParams{SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0};
            Buf y(dt, rows * n), y5(dt, rows * n);
            kk.mvn_rows(x.p(), y.p(), rows, n, rs, rs, &a);
            for (size_t g0 = 0; g0 < rows; g0 += 5)
                kk.mvn_rows(x.at(ptrdiff_t(g0 * n)), y5.at(ptrdiff_t(g0 * n)), std::min<size_t>(5, rows - g0), n, rs,
                            rs, &a);
            ASSERT_EQ(std::memcmp(y.p(), y5.p(), rows * n * 2), 0)
                << dname(dt) << " n=" << n << ": one call and calls of 5 rows differ";
            const Tol tol = transcendental(a.act.type) ? Tol::plain2 : Tol::plain;
            for (size_t g = 0; g < rows; ++g) {
                const std::vector<double> in = read(x, n, 1, ptrdiff_t(g * n));
                const RefMoments rm = ref_moments(in);
                const double inv = ref_inv_divisor(rm.var, a.vn);
                for (size_t i = 0; i < n; ++i) {
                    const double got = y.get(ptrdiff_t(g * n + i));
                    if (std::isnan(rm.mean)) {
                        ASSERT_TRUE(std::isnan(got)) << "a NaN makes the MVN row NaN";
                        continue;
                    }
                    const double scv = a.scale ? sc.get(ptrdiff_t(i)) : 1.0, biv = a.bias ? bi.get(ptrdiff_t(i)) : 0.0;
                    const double ref = ref_act(scv * (in[i] - rm.mean) * inv + biv, a.act);
                    ASSERT_TRUE(close(got, ref, dt, tol)) << "mvn_rows " << dname(dt) << " rows=" << rows << " n=" << n
                                                          << " g=" << g << " i=" << i
                                                          << " act=" << simdax_activation_name(a.act.type);
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Isas, KernelsIsa, ::testing::ValuesIn(runnable_isas()),
                         [](const ::testing::TestParamInfo<simdax_isa>& i) {
                             return std::string(simdax_isa_name(i.param));
                         });

// The native float16 levels (simd/f16/f16_kernels.hpp) replace exactly the
// float16 Hardmax slots and the activation; every other entry is their
// base's, which the base's own run tests (natively on any CPU of that
// family).
TEST(KernelTables, NativeFloat16LevelsReplaceOnlyTheirSlots) {
    int pairs = 0;
    for (auto [base, native] : {std::pair{SIMDAX_ISA_AVX512, SIMDAX_ISA_AVX512FP16},
                                std::pair{SIMDAX_ISA_NEON, SIMDAX_ISA_NEONFP16}}) {
        const simdax::IsaKernels* b = simdax::isa_kernels(base);
        const simdax::IsaKernels* n = simdax::isa_kernels(native);
        if (!b || !n) continue;
        ++pairs;
        const DtypeKernels& bf = b->dt[int(DType::f16)];
        const DtypeKernels& nf = n->dt[int(DType::f16)];
        EXPECT_NE(bf.argmax, nf.argmax);
        EXPECT_NE(bf.hardmax_cols, nf.hardmax_cols);
        EXPECT_NE(bf.hardmax_rows, nf.hardmax_rows);
        EXPECT_NE(bf.activation, nf.activation);
        simdax::IsaKernels same = *n;
        DtypeKernels& sf = same.dt[int(DType::f16)];
        sf.argmax = bf.argmax;
        sf.hardmax_cols = bf.hardmax_cols;
        sf.hardmax_rows = bf.hardmax_rows;
        sf.activation = bf.activation;
        for (int d = 0; d < simdax::kDTypeCount; ++d)
            EXPECT_EQ(0, std::memcmp(&same.dt[d], &b->dt[d], sizeof(DtypeKernels))) << simdax_isa_name(native) << " dtype " << d;
    }
    if (pairs == 0) GTEST_SKIP() << "no native float16 level compiled in with its base";
}

}  // namespace
