// Every kernel-table entry of every ISA this machine runs, called directly
// and compared with a float64 reference computed here (docs/spec.md "Accuracy",
// "Special values"). Buffers end at an inaccessible page, so a tail that
// reads or writes one element too far faults.
// Here: the tables, the softmax family's and MVN's row kernels and the
// activations; the column kernels in kernels_isa_cols_test.cpp, the fused
// row kernels in kernels_isa_fused_test.cpp.
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
#include "support/kernels_isa.hpp"
#include "tables.hpp"

namespace {

using namespace sxt::kisa;
using simdax::DType;
using simdax::DtypeKernels;

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
    const size_t esz = sxt::dtype_bytes(public_dtype(dt));
    const std::vector<double> g = read(x, n);
    const simdax::MaxSum st = run_maxsum(kk, x, n, esz);
    for (int log = 0; log < 2; ++log) {
        Buf y(dt, n);
        (log ? kk.log_softmax_out : kk.softmax_out)(x.p(), y.p(), n, &st);
        const std::vector<double> ref = ref_softmax(g, log);
        for (size_t i = 0; i < n; ++i)
            ASSERT_TRUE(close(y.get(ptrdiff_t(i)), ref[i], dt, log ? Tol::log_softmax : Tol::softmax))
                << what << " " << dname(dt) << (log ? " log_softmax" : " softmax") << " n=" << n << " i=" << i
                << " x=" << g[i];
    }
}

TEST_P(KernelsIsa, SoftmaxRows) {
    std::mt19937 rng(1);
    for (DType dt : kDTypes) {
        std::vector<size_t> sizes = sweep_sizes();
        if ((dt == DType::f32 || dt == DType::f16) && !emulated_run())  // streaming stores
            sizes.push_back((size_t(2) << 20) / sxt::dtype_bytes(public_dtype(dt)) + 5);
        for (size_t n : sizes) {
            Buf x(dt, n);
            fill_random(x, n, rng, -20, 20);
            check_softmax_rows(k(dt), dt, x, n, "random");
        }
        // Special values (docs/spec.md "Special values").
        const size_t n = 37;
        const double big = dt == DType::f16 ? 6e4 : (dt == DType::f64 ? 1e300 : 3e38);
        struct Case {
            const char* name;
            std::vector<std::pair<size_t, double>> set;
            double fill;
        };
        const Case cases[] = {
            {"nan", {{20, kNaN}}, 1.0},
            {"pos_inf", {{3, kInf}}, 0.5},
            {"neg_inf_beside_finite", {{0, -kInf}, {36, -kInf}}, 2.0},
            {"all_neg_inf", {}, -kInf},
            {"huge", {{5, big}, {6, -big}}, 0.0},
            {"equal", {}, 7.25},
            {"neg_inf_first_chunk",
             {{0, -kInf},
              {1, -kInf},
              {2, -kInf},
              {3, -kInf},
              {4, -kInf},
              {5, -kInf},
              {6, -kInf},
              {7, -kInf},
              {8, -kInf},
              {9, -kInf},
              {10, -kInf},
              {11, -kInf}},
             1.5},
            {"big_offset", {{3, 3.1e7}}, 3e7},
        };
        for (const Case& c : cases) {
            Buf x(dt, n);
            for (size_t i = 0; i < n; ++i)
                x.set(ptrdiff_t(i), c.fill + (c.fill == 0.0 ? double(i % 5) : 0.0));
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
        const size_t esz = sxt::dtype_bytes(public_dtype(dt));
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

// moments over x, then normalize with the given scale/bias/act; checks y.
void check_mvn_rows(const DtypeKernels& kk, DType dt, Buf& x, size_t n, int affine,
                    const simdax::ActParams& act, bool normvar, const char* what) {
    const size_t esz = sxt::dtype_bytes(public_dtype(dt));
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
    const Tol tol = sxt::is_transcendental(act.type) ? Tol::plain2 : Tol::plain;
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
                sizes.push_back((size_t(2) << 20) / sxt::dtype_bytes(public_dtype(dt)) + 3);  // streaming
            for (size_t n : sizes) {
                if (n > 100 && n != 4097 && n < 100000) continue;
                Buf x(dt, n);
                fill_random(x, n, rng, -12, 12);
                // Special values and the regions where naive forms cancel.
                const double sp[] = {kNaN, kInf, -kInf, 0.0, -0.0, 1e-6, -1e-6, -3e-3, 2e-4, -90,
                                     90,   -20,  20,    -5,  5,    0.5,  -0.5,  1.0,   -1.0, 0.2};
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
            EXPECT_EQ(0, std::memcmp(&same.dt[d], &b->dt[d], sizeof(DtypeKernels)))
                << simdax_isa_name(native) << " dtype " << d;
    }
    if (pairs == 0) GTEST_SKIP() << "no native float16 level compiled in with its base";
}

}  // namespace
