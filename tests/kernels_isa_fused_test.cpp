// KernelsIsa (support/kernels_isa.hpp): the fused row kernels (one pass over
// a row for the softmax family, Hardmax and MVN), against the float64
// reference.
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

// ---------------------------------------------------------- fused rows kernels
// `rows` groups of n elements at row strides larger than n; the padding of y
// holds a sentinel that must survive. Row g of the input gets a special-value
// pattern chosen by (g + salt) % kRowKinds (kind 0: plain random), so the
// short-row pipeline meets special rows before, between and after plain ones.
constexpr int kRowKinds = 12;

void fill_row(Buf& x, ptrdiff_t off, size_t n, int kind, DType dt, std::mt19937& rng) {
    std::uniform_real_distribution<double> u(-20, 20);
    const double big = dt == DType::f16 ? 6e4 : (dt == DType::f64 ? 1e300 : 3e38);
    for (size_t i = 0; i < n; ++i) x.set(off + ptrdiff_t(i), u(rng));
    auto at = [&](size_t i, double v) { x.set(off + ptrdiff_t(i % n), v); };
    switch (kind) {
        case 1: at(n / 2, kNaN); break;
        case 2: at(n / 3, kInf); break;
        case 3:
            at(0, -kInf);
            at(n - 1, -kInf);
            break;  // -inf beside finite
        case 4:
            for (size_t i = 0; i < n; ++i) at(i, -kInf);
            break;  // all -inf
        case 5:
            at(n / 4, big);
            at(n / 5 + 1, -big);
            break;  // huge
        case 6:
            for (size_t i = 0; i < n; ++i) at(i, 7.25);
            break;  // equal
        case 7: {   // large offset (beyond 2^22: the unfolded path)
            const double off = dt == DType::f16 ? 3e4 : 3e7;
            for (size_t i = 0; i < n; ++i) at(i, off + 4.0 * double(i % 7));
            break;
        }
        case 8:
            for (size_t i = 0; i < n; ++i) at(i, i % 3 ? -kInf : 0.5 * double(i % 5));
            break;
        case 9: {  // far beyond 2^22: x*log2(e) must not be split with a large remainder
            const double off = dt == DType::f16 ? -3e4 : 1e10;
            for (size_t i = 0; i < n; ++i) at(i, off * (1.0 + 1e-6 * double(i % 3)));
            break;
        }
        case 10:  // a whole block (the second) of -inf, the max growing block by block
            for (size_t i = 0; i < n; ++i) at(i, i >= 2048 && i < 4096 ? -kInf : u(rng) + 0.01 * double(i));
            break;
        case 11:  // the max in the last element, well above the other rows' (a tail decides the sum)
            at(n - 1, 30.0);
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
    // 32, 64, 100, 127, 128: rows held in registers (rows_in_registers.hpp)
    // on every vector width, whole and with a partial vector.
    for (size_t n : {4, 32, 64, 100, 127, 128, 1000, 2047, 2048})
        v.push_back({kRowKinds + 2, n, ptrdiff_t(n + 5), ptrdiff_t(n)});
    for (size_t n : {1, 5, 128, 1000, 2049, 4097}) v.push_back({1, n, ptrdiff_t(n), ptrdiff_t(n)});
    v.push_back({3, 4097, 4099, 4100});
    v.push_back({kRowKinds + 2, 12500, 12503, 12501});  // every row kind beside long rows (rows_long*.hpp)
    if (dt == DType::f32) v.push_back({2, 33000, 33000, 33001});
    if (dt != DType::f64) {  // outputs >= 2 MB: streaming stores
        const size_t e = dt == DType::f32 ? 1 : 2;
        v.push_back({600 * e, 1000, 1000, 1003});  // short rows (pipeline)
        // Rows in registers: each at y's vector alignment (non-temporal
        // stores), then none of them (plain ones).
        v.push_back({4200 * e, 128, 128, 128});
        v.push_back({4200 * e, 100, 100, 101});
        v.push_back({70 * e, 8200, 8200, 8200});  // long rows
    }
    for (size_t i = 0; i < v.size(); ++i) v[i].salt = int(i) + 1;
    return v;
}

constexpr double kSentinel = 0.125;

// n elements of kSentinel: an output whose padding can be checked afterwards.
Buf sentinels(DType dt, size_t n) {
    Buf b(dt, n);
    b.fill(n, kSentinel);
    return b;
}

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
            Buf x = sentinels(dt, s.span(s.xrs));
            for (size_t g = 0; g < s.rows; ++g)
                fill_row(x, ptrdiff_t(g) * s.xrs, s.n,
                         s.rows > 1 ? int((g + size_t(s.salt)) % kRowKinds) : s.salt % kRowKinds, dt, rng);
            for (int log = 0; log < 2; ++log) {
                Buf y = sentinels(dt, s.span(s.yrs));
                (log ? kk.log_softmax_rows : kk.softmax_rows)(x.p(), y.p(), s.rows, s.n, s.xrs, s.yrs);
                for (size_t g = 0; g < s.rows; ++g) {
                    const std::vector<double> in = read(x, s.n, 1, ptrdiff_t(g) * s.xrs);
                    const std::vector<double> ref = ref_softmax(in, log);
                    for (size_t i = 0; i < s.n; ++i) {
                        const double got = y.get(ptrdiff_t(g) * s.yrs + ptrdiff_t(i));
                        ASSERT_TRUE(close(got, ref[i], dt, log ? Tol::log_softmax : Tol::softmax))
                            << (log ? "log_softmax_rows " : "softmax_rows ") << dname(dt)
                            << " rows=" << s.rows << " n=" << s.n << " g=" << g << " i=" << i
                            << " x=" << in[i];
                    }
                    ASSERT_TRUE(padding_untouched(y, s, g));
                }
            }
        }
        // In place (same buffer, same strides). Rows of 4500 (rows_long.hpp)
        // with a +inf in row 2's second block: row 1's output is finished
        // before row 2 is done alone. 100 and 128: rows in registers.
        for (int log = 0; log < 2; ++log)
            for (size_t n : {3, 40, 100, 128, 1000, 4500}) {
                Buf x(dt, 5 * n);
                fill_random(x, 5 * n, rng, -10, 10);
                if (n == 4500) x.set(ptrdiff_t(2 * n + 3000), kInf);
                const std::vector<double> g = read(x, 5 * n);
                (log ? kk.log_softmax_rows : kk.softmax_rows)(x.p(), x.p(), 5, n, ptrdiff_t(n), ptrdiff_t(n));
                for (size_t r = 0; r < 5; ++r) {
                    const std::vector<double> ref = ref_softmax(
                        std::vector<double>(g.begin() + ptrdiff_t(r * n), g.begin() + ptrdiff_t((r + 1) * n)),
                        log);
                    for (size_t i = 0; i < n; ++i)
                        ASSERT_TRUE(close(x.get(ptrdiff_t(r * n + i)), ref[i], dt,
                                          log ? Tol::log_softmax : Tol::softmax))
                            << "in place " << (log ? "log_softmax " : "softmax ") << dname(dt) << " n=" << n;
                }
            }
    }
}

// Float Softmax rows long enough for softmax_rows_long, whose blocks start
// at each output row's vector boundary with the elements before it (the
// head) joining block 0. Output rows 12,501 elements apart start at every
// offset mod 64 bytes over 16 rows, so the head takes every length a vector
// allows. Each kind puts what decides the row into its first elements.
TEST_P(KernelsIsa, FusedSoftmaxLongRowHeads) {
    constexpr size_t kRows = 16, kN = 12500;
    constexpr ptrdiff_t kXrs = 12500, kYrs = 12501;
    const RowsShape s{kRows, kN, kXrs, kYrs};
    for (DType dt : {DType::f32, DType::f64}) {
        const double big = dt == DType::f64 ? 1e300 : 3e38;
        // Elements from `inf_from` on are -inf; then those of `set`.
        struct Kind {
            const char* what;
            size_t inf_from;
            std::vector<std::pair<size_t, double>> set;
        };
        const std::vector<Kind> kinds{
            {"a NaN in element 1, -inf elsewhere", 0, {{1, kNaN}}},
            {"a NaN in element 1", kN, {{1, kNaN}}},
            {"+inf in element 0", kN, {{0, kInf}}},
            {"the max in element 2", kN, {{2, 80.0}}},
            {"a max too large to fold in element 1", kN, {{1, big}}},
            {"-inf from element 3 on", 3, {}},
        };
        std::mt19937 rng(11);
        for (size_t kind = 0; kind < kinds.size(); ++kind) {
            Buf x = sentinels(dt, s.span(kXrs));
            fill_random(x, s.span(kXrs), rng, -10, 10);
            for (size_t g = 0; g < kRows; ++g) {
                const ptrdiff_t o = ptrdiff_t(g) * kXrs;
                for (size_t i = kinds[kind].inf_from; i < kN; ++i) x.set(o + ptrdiff_t(i), -kInf);
                for (const auto& [i, v] : kinds[kind].set) x.set(o + ptrdiff_t(i), v);
            }
            Buf y = sentinels(dt, s.span(kYrs));
            k(dt).softmax_rows(x.p(), y.p(), kRows, kN, kXrs, kYrs);
            for (size_t g = 0; g < kRows; ++g) {
                const std::vector<double> in = read(x, kN, 1, ptrdiff_t(g) * kXrs);
                const std::vector<double> ref = ref_softmax(in, false);
                for (size_t i = 0; i < kN; ++i)
                    ASSERT_TRUE(close(y.get(ptrdiff_t(g) * kYrs + ptrdiff_t(i)), ref[i], dt, Tol::softmax))
                        << "softmax_rows " << dname(dt) << ", " << kinds[kind].what << ": row " << g
                        << " element " << i;
                ASSERT_TRUE(padding_untouched(y, s, g));
            }
        }
    }
}

// Hardmax input for shape s: halves in [-3, 3] (many ties), row g with the
// special pattern (g + salt) % 7 (0: none).
Buf hardmax_rows_input(DType dt, const RowsShape& s, std::mt19937& rng) {
    const size_t nx = s.span(s.xrs);
    Buf x(dt, nx);
    std::uniform_int_distribution<int> u(-6, 6);
    for (size_t i = 0; i < nx; ++i) x.set(ptrdiff_t(i), u(rng) * 0.5);
    for (size_t g = 0; g < s.rows; ++g) {
        const ptrdiff_t o = ptrdiff_t(g) * s.xrs;
        switch ((g + size_t(s.salt)) % 7) {
            case 1: x.set(o + ptrdiff_t(s.n - 1), 100.0); break;
            case 2:
                x.set(o + ptrdiff_t(s.n / 2), kNaN);
                x.set(o + ptrdiff_t(s.n - 1), kNaN);
                break;
            case 3:
                for (size_t i = 0; i < s.n; ++i) x.set(o + ptrdiff_t(i), i % 2 ? 0.0 : -0.0);
                break;
            case 4:
                for (size_t i = 0; i < s.n; ++i) x.set(o + ptrdiff_t(i), -kInf);
                break;
            case 5:
                x.set(o + ptrdiff_t(s.n / 3), kInf);
                x.set(o + ptrdiff_t(s.n - 1), kNaN);
                break;
            case 6:
                x.set(o + ptrdiff_t(s.n - 1), kInf);
                x.set(o, -kInf);
                break;
            default: break;
        }
    }
    return x;
}

TEST_P(KernelsIsa, FusedHardmaxRows) {
    std::mt19937 rng(8);
    for (DType dt : kDTypes)
        for (const RowsShape& s : rows_shapes(dt)) {
            Buf x = hardmax_rows_input(dt, s, rng);
            Buf y = sentinels(dt, s.span(s.yrs));
            k(dt).hardmax_rows(x.p(), y.p(), s.rows, s.n, s.xrs, s.yrs);
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
                Buf y = sentinels(dt, ny);
                kk.mvn_rows(x.p(), y.p(), s.rows, s.n, s.xrs, s.yrs, &a);
                const Tol tol = sxt::is_transcendental(a.act.type) ? Tol::plain2 : Tol::plain;
                for (size_t g = 0; g < s.rows; ++g) {
                    const std::vector<double> in = read(x, s.n, 1, ptrdiff_t(g) * s.xrs);
                    const RefMoments rm = ref_moments(in);
                    const double inv = ref_inv_divisor(rm.var, a.vn);
                    for (size_t i = 0; i < s.n; ++i) {
                        const double scv =
                            a.scale ? sc.get(ptrdiff_t(g) * a.scale_rs + ptrdiff_t(i) * a.scale_ks) : 1.0;
                        const double biv =
                            a.bias ? bi.get(ptrdiff_t(g) * a.bias_rs + ptrdiff_t(i) * a.bias_ks) : 0.0;
                        const double ref = ref_act(scv * (in[i] - rm.mean) * inv + biv, a.act);
                        const double got = y.get(ptrdiff_t(g) * s.yrs + ptrdiff_t(i));
                        if (std::isnan(rm.mean)) {
                            ASSERT_TRUE(std::isnan(got)) << "a NaN makes the MVN row NaN";
                            continue;
                        }
                        ASSERT_TRUE(close(got, ref, dt, tol))
                            << "mvn_rows " << dname(dt) << " rows=" << s.rows << " n=" << s.n << " g=" << g
                            << " i=" << i << " mode=" << mode << " act=" << simdax_activation_name(a.act.type)
                            << " normvar=" << a.vn.normalize_variance
                            << " on_stddev=" << a.vn.epsilon_on_stddev;
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
                    case 2:
                        for (size_t i = 0; i < n; ++i) x.set(o + ptrdiff_t(i), -1.5);
                        break;
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
            a.act = iter % 3 == 0 ? acts[size_t(iter) % acts.size()]
                                  : simdax::ActParams{SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0};
            Buf y(dt, rows * n), y5(dt, rows * n);
            kk.mvn_rows(x.p(), y.p(), rows, n, rs, rs, &a);
            for (size_t g0 = 0; g0 < rows; g0 += 5)
                kk.mvn_rows(x.at(ptrdiff_t(g0 * n)), y5.at(ptrdiff_t(g0 * n)), std::min<size_t>(5, rows - g0),
                            n, rs, rs, &a);
            ASSERT_EQ(std::memcmp(y.p(), y5.p(), rows * n * 2), 0)
                << dname(dt) << " n=" << n << ": one call and calls of 5 rows differ";
            const Tol tol = sxt::is_transcendental(a.act.type) ? Tol::plain2 : Tol::plain;
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
                    const double scv = a.scale ? sc.get(ptrdiff_t(i)) : 1.0,
                                 biv = a.bias ? bi.get(ptrdiff_t(i)) : 0.0;
                    const double ref = ref_act(scv * (in[i] - rm.mean) * inv + biv, a.act);
                    ASSERT_TRUE(close(got, ref, dt, tol))
                        << "mvn_rows " << dname(dt) << " rows=" << rows << " n=" << n << " g=" << g
                        << " i=" << i << " act=" << simdax_activation_name(a.act.type);
                }
            }
        }
    }
}

}  // namespace
