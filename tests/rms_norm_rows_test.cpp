// RMSNormalization of contiguous rows (the rms_rows kernel,
// operators/layer_norm/simd/rms_rows.hpp), against float64 references
// written here and in tests/support/norm_runner.cpp (never the library's
// code). Through the API (RmsNormRows.*: once per ISA, tests/CMakeLists.txt
// sets SIMDAX_MAX_ISA) and the kernel of every ISA this machine runs called
// directly (KernelsIsa.RmsRows*: float64 too, in place, every Scale access).
#include <gtest/gtest.h>

#include <cmath>

#include "support/cpu_facts_both_ways.hpp"
#include "support/kernels_isa.hpp"
#include "support/norm_runner.hpp"
#include "support/random_case.hpp"

namespace sxt {
namespace {

const simdax_dtype kDtypes[] = {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16};

bool half(simdax_dtype dt) { return dt != SIMDAX_DTYPE_FLOAT32; }

// A plain RMSNormalization of [rows, n]: Scale [n] (or [rows, n]) of the
// data's dtype or float32.
NormCase rows_case(simdax_dtype dt, int64_t rows, int64_t n, bool scale_f32, bool full_scale) {
    NormCase c;
    c.op = SIMDAX_OPERATOR_RMS_NORMALIZATION;
    c.dt = dt;
    c.param_dt = scale_f32 ? SIMDAX_DTYPE_FLOAT32 : dt;
    c.x.sizes = c.y.sizes = {rows, n};
    c.scale.sizes = full_scale ? std::vector<int64_t>{rows, n} : std::vector<int64_t>{n};
    return c;
}

void run_and_check(const NormCase& c, NormIo& io, const simdax_parallel* par = nullptr) {
    std::string err;
    ASSERT_EQ(run_norm(c, io, par, &err), SIMDAX_OK) << c.describe() << ": " << err;
    const std::string bad = check_norm(c, io);
    EXPECT_TRUE(bad.empty()) << bad;
}

// Every row length up to past four AVX-512 vectors, lengths around the
// blocks and the float copies, row counts around the batches; packed,
// strided (gaps between rows, reversed rows), Scale per row.
TEST(RmsNormRows, LengthsAndRowCounts) {
    Rng rng(test_seed(0x524d));
    std::vector<int64_t> lengths;
    for (int64_t n = 1; n <= 70; ++n) lengths.push_back(n);
    for (int64_t n : {96, 383, 384, 1000, 1536, 2047, 2048, 2049, 3073, 4096, 4100}) lengths.push_back(n);
    int iter = 0;
    for (simdax_dtype dt : kDtypes)
        for (int64_t n : lengths) {
            ++iter;
            const int64_t rows = n > 1000 ? 1 + iter % 5 : 1 + (iter * 7) % 11;
            NormCase c = rows_case(dt, rows, n, half(dt) && iter % 2, iter % 5 == 0);
            switch (iter % 4) {
                case 1: c.x.strides = {n + 3, 1}; break;
                case 2: c.y.strides = {n + 5, 1}; break;
                case 3:
                    c.x.strides = {-(n + 1), 1};
                    c.y.strides = {-n, 1};
                    break;
                default: break;
            }
            c.epsilon = iter % 3 == 0 ? 0.0f : iter % 3 == 1 ? 1e-5f : 0.5f;
            NormIo io = make_norm_io(c);
            fill_norm_io(io, [&](int k, int64_t) {
                return k == 0 ? rng.uniform(-3, 3) + (iter % 7 == 0 ? 50.0 : 0.0) : rng.uniform(-1.5, 1.5);
            });
            run_and_check(c, io);
            if (HasFailure()) return;
        }
}

// Several leading dims merged into the rows; an epsilon that dominates.
TEST(RmsNormRows, RanksAndEpsilon) {
    Rng rng(test_seed(0x524e));
    for (simdax_dtype dt : kDtypes)
        for (float eps : {0.0f, 1e-6f, 1e-5f, 1.0f, 100.0f}) {
            NormCase c = rows_case(dt, 1, 1, false, false);
            c.x.sizes = c.y.sizes = {3, 5, 2, 48};
            c.scale.sizes = {48};
            c.epsilon = eps;
            NormIo io = make_norm_io(c);
            fill_norm_io(io, [&](int, int64_t) { return rng.uniform(-2, 2); });
            run_and_check(c, io);
            if (HasFailure()) return;
        }
}

// Rows of tiny and huge magnitudes (squares below or beyond float32's
// range: the wider type) among ordinary ones in one call, infinity, NaN,
// zeros; every row's length class.
TEST(RmsNormRows, TinyHugeAndSpecialRows) {
    for (simdax_dtype dt : kDtypes)
        for (int64_t n : {int64_t(1), int64_t(5), int64_t(16), int64_t(67), int64_t(384), int64_t(2500)})
            for (float eps : {0.0f, 1e-5f}) {
                const bool f16 = dt == SIMDAX_DTYPE_FLOAT16;
                const std::vector<double> mags =
                    f16 ? std::vector<double>{1.0, 1e-4, 6e-8, 3e4, 6e4, 1.0}
                        : std::vector<double>{1.0, 1e-19, 1e-30, 1e-38, 1e-44, 1e18, 3e19, 1e30, 3e38, 1.0};
                const int64_t rows = int64_t(mags.size()) + 4;
                NormCase c = rows_case(dt, rows, n, half(dt) && n % 2, false);
                c.epsilon = eps;
                NormIo io = make_norm_io(c);
                Rng rng(test_seed(uint64_t(n) * 3 + uint64_t(dt)));
                fill_norm_io(io, [&](int k, int64_t i) {
                    if (k != 0) return rng.uniform(0.5, 1.5);
                    const int64_t row = i / n, e = i % n;
                    if (row < int64_t(mags.size())) return mags[size_t(row)] * rng.uniform(-1, 1);
                    switch (row - int64_t(mags.size())) {
                        case 0: return 0.0;
                        case 1: return e == n / 2 ? NAN : 1.0;
                        case 2: return e == 0 ? -INFINITY : 0.25;
                        default: return f16 ? 3e-6 : 1e-39;  // constant subnormal
                    }
                });
                run_and_check(c, io);
                if (HasFailure()) return;
            }
}

// A Scale near the dtype's top (inv * scale beyond float, the output not)
// and among the subnormals.
TEST(RmsNormRows, ExtremeScale) {
    for (simdax_dtype dt : kDtypes)
        for (double mag : {0.5, 3e38, 6e4, 1e-39, 1e-6})
            for (int64_t n : {int64_t(7), int64_t(384)}) {
                const bool f16 = dt == SIMDAX_DTYPE_FLOAT16;
                if (f16 && mag > 6e4) continue;
                NormCase c = rows_case(dt, 5, n, false, false);
                NormIo io = make_norm_io(c);
                Rng rng(test_seed(uint64_t(n) + 17));
                fill_norm_io(io, [&](int k, int64_t i) {
                    if (k != 0) return (i % 2 ? -mag : mag) * rng.uniform(0.9, 1.0);
                    return (i / n == 2 ? 1e-3 : 1.0) * rng.uniform(-2, 2);
                });
                run_and_check(c, io);
                if (HasFailure()) return;
            }
}

// Outputs of 2 MiB and more (streamed), BERT's shape and long rows; the
// rows split over two threads give bitwise the calling thread's output.
// [160, 4100] float32 and [320, 4100] float16/bfloat16: one thread streams,
// each row's sum carried by the row before's output (SquareSteps) where the
// CPU fact says so (here in turn either way); two threads' halves are not
// streamed (the 16-bit rows then keep float copies).
TEST(RmsNormRows, LargeAndThreads) {
    const TwoThreadPool threads;
    ASSERT_EQ(threads.status, SIMDAX_OK);
    const bool emulated = emulated_run();
    with_fact_both_ways(&simdax::CpuFacts::carry_row_passes, [&] {
        for (simdax_dtype dt : kDtypes)
            for (const auto& shape : {std::vector<int64_t>{32, 128, 384}, std::vector<int64_t>{3, 4096},
                                      std::vector<int64_t>{8, 70001}, std::vector<int64_t>{160, 4100},
                                      std::vector<int64_t>{320, 4100}}) {
                if (emulated && shape[0] >= 32) continue;
                NormCase c = rows_case(dt, 1, 1, half(dt) && shape.size() == 2, false);
                c.x.sizes = c.y.sizes = shape;
                c.scale.sizes = {shape.back()};
                NormIo one = make_norm_io(c), two = make_norm_io(c);
                Rng a(test_seed(0x5250)), b(test_seed(0x5250));
                fill_norm_io(one, [&](int, int64_t) { return a.uniform(-3, 3); });
                fill_norm_io(two, [&](int, int64_t) { return b.uniform(-3, 3); });
                run_and_check(c, one);
                run_and_check(c, two, &threads.par);
                if (HasFailure()) break;
                const std::string diff = bitwise_difference(one.y->read(), two.y->read());
                ASSERT_TRUE(diff.empty()) << c.describe() << diff;
            }
    });
}

}  // namespace
}  // namespace sxt

// ------------------------------------------------- the kernel of each ISA
namespace sxt::kisa {
namespace {

// Element e of row g's Scale: p[g*rs + e*ks] in the Scale's dtype.
struct ScaleSpec {
    ptrdiff_t rs, ks;
    bool f32;
};

// x: rows of n at stride xrs (read before the call: y may be x).
void check_rms_rows(const DtypeKernels& kk, DType dt, Buf& x, Buf& y, Buf& sc, size_t rows, size_t n,
                    ptrdiff_t xrs, ptrdiff_t yrs, const ScaleSpec& s, double eps, const char* what) {
    std::vector<std::vector<double>> in(rows);
    for (size_t g = 0; g < rows; ++g) in[g] = read(x, n, 1, ptrdiff_t(g) * xrs);
    const simdax::RmsRowsArgs a{eps, sc.p(), s.rs, s.ks, s.f32};
    kk.rms_rows(x.p(), y.p(), rows, n, xrs, yrs, &a);
    for (size_t g = 0; g < rows; ++g) {
        long double q = 0;
        for (double v : in[g]) q += (long double)v * v;
        const long double inv = 1.0L / std::sqrt(q / (long double)n + (long double)eps);
        for (size_t i = 0; i < n; ++i) {
            const double scv = sc.get(ptrdiff_t(g) * s.rs + ptrdiff_t(i) * s.ks);
            const double ref = double((long double)in[g][i] * inv * scv);
            const double got = y.get(ptrdiff_t(g) * yrs + ptrdiff_t(i));
            ASSERT_TRUE(close(got, ref, dt, Tol::plain))
                << what << " rms_rows " << dname(dt) << " rows=" << rows << " n=" << n << " g=" << g
                << " i=" << i << " xrs=" << xrs << " yrs=" << yrs << " scale rs=" << s.rs << " ks=" << s.ks
                << " f32=" << s.f32 << " eps=" << eps;
        }
    }
}

TEST_P(KernelsIsa, RmsRows) {
    std::mt19937 rng(35);
    std::vector<size_t> lengths;
    for (size_t n = 1; n <= 70; ++n) lengths.push_back(n);
    for (size_t n : {384, 1000, 2048, 2049, 4096}) lengths.push_back(n);
    if (!emulated_run()) lengths.push_back(33000);
    int iter = 0;
    for (DType dt : kDTypes)
        for (size_t n : lengths) {
            ++iter;
            const size_t rows = n > 4096 ? 2 : 1 + size_t(iter * 5) % 9;
            const bool in_place = iter % 3 == 0;
            const ptrdiff_t xrs = ptrdiff_t(n) + (iter % 2 ? 0 : 3);
            const ptrdiff_t yrs = in_place ? xrs : ptrdiff_t(n) + (iter % 4 == 1 ? 2 : 0);
            // Scale: shared contiguous, per row, constant, strided; float32 for half data.
            const ScaleSpec specs[4] = {
                {0, 1, false}, {ptrdiff_t(n), 1, false}, {1, 0, false}, {0, 2, false}};
            ScaleSpec s = specs[iter % 4];
            s.f32 = (dt == DType::f16 || dt == DType::bf16) && iter % 2 == 1;
            Buf x(dt, rows * size_t(xrs) + n), y0(dt, rows * size_t(yrs) + n);
            Buf sc(s.f32 ? DType::f32 : dt, rows * n + 2 * n + rows);
            fill_random(x, rows * size_t(xrs) + n, rng, -3, 3);
            fill_random(sc, rows * n + 2 * n + rows, rng, -2, 2);
            const double eps = iter % 5 == 0 ? 0.0 : 1e-5;
            check_rms_rows(k(dt), dt, x, in_place ? x : y0, sc, rows, n, xrs, yrs, s, eps, "random");
            if (HasFailure()) return;
        }
}

// Rows whose sums leave float's range (and float64's, for float64 data)
// beside ordinary rows of the same call; a constant Scale whose product
// with inv leaves the range; in place.
TEST_P(KernelsIsa, RmsRowsRange) {
    std::mt19937 rng(36);
    for (DType dt : kDTypes)
        for (size_t n : {size_t(3), size_t(40), size_t(384), size_t(2100)})
            for (int sv = 0; sv < 3; ++sv) {
                const bool f64 = dt == DType::f64, f16 = dt == DType::f16;
                const std::vector<double> mags =
                    f64   ? std::vector<double>{1.0, 1e-170, 1e-300, 1e160, 1e300, 1.0}
                    : f16 ? std::vector<double>{1.0, 1e-4, 6e-8, 6e4, 1.0}
                          : std::vector<double>{1.0, 1e-19, 1e-30, 1e-39, 1e19, 1e30, 3e38, 1.0};
                const size_t rows = mags.size();
                Buf x(dt, rows * n);
                for (size_t g = 0; g < rows; ++g)
                    for (size_t i = 0; i < n; ++i)
                        x.set(ptrdiff_t(g * n + i),
                              mags[g] * std::uniform_real_distribution<double>(-1, 1)(rng));
                // sv 0: Scale per element; 1: constant near the top; 2: constant subnormal.
                const double top = f16 ? 6e4 : f64 ? 1e308 : 3e38, sub = f16 ? 1e-7 : f64 ? 1e-310 : 1e-39;
                Buf sc(dt, n);
                if (sv == 0)
                    fill_random(sc, n, rng, 0.5, 1.5);
                else
                    sc.set(0, sv == 1 ? top : sub);
                const ScaleSpec s{0, sv == 0 ? 1 : 0, false};
                check_rms_rows(k(dt), dt, x, x, sc, rows, n, ptrdiff_t(n), ptrdiff_t(n), s,
                               sv == 2 ? 0.0 : 1e-5, "range");
                if (HasFailure()) return;
            }
}

}  // namespace
}  // namespace sxt::kisa
