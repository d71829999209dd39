// AttentionSoftmax keeps Softmax's accuracy on large logits: the
// difference to the row's max is taken in natural units before the
// exponential (attention_rows.hpp), so logits near 1e4 or 1e10 lose nothing
// to a base-2 fold, and LogSoftmax is (z - max) - log(sum), not z - lse.
// The cases are the fuzzer's findings (tests/fuzz/findings/README.md).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"

namespace {

using namespace sxt;

struct LargeLogits {
    std::vector<float> x;
    float scale, softcap;
    int log;
};

// softmax / log_softmax of softcap(x * scale) in float64.
std::vector<double> reference(const LargeLogits& c) {
    std::vector<double> z;
    for (float v : c.x) {
        double t = double(v) * double(c.scale);
        if (c.softcap != 0.0f) t = double(c.softcap) * std::tanh(t / double(c.softcap));
        z.push_back(t);
    }
    double m = -INFINITY, s = 0;
    for (double t : z) m = std::max(m, t);
    for (double t : z) s += std::exp(t - m);
    std::vector<double> y;
    for (double t : z) y.push_back(c.log ? (t - m) - std::log(s) : std::exp(t - m) / s);
    return y;
}

TEST(AttentionSoftmaxPrecision, LargeLogits) {
    const std::vector<LargeLogits> cases{
        {{6.5e10f, 1.0f, 2.0f}, 1.0f, 0.0f, 1},   // LogSoftmax: the max's output is 0
        {{6.5f, 1.0f, 2.0f}, 1e10f, 0.0f, 1},     // ... with the size in the scale
        {{10000.0f, 10003.125f}, 1.0f, 0.0f, 0},  // Softmax near 1e4
        {{10000.0f, 10003.125f}, 1.0f, 0.0f, 1},
        {{2.0f, 1.0f}, 1e-3f, 3e38f, 0},  // a softcap near float's max
        // ... where z / softcap is subnormal: z itself, not its lost bits.
        {{1.0f, 0.5f, 3.0f, -2.0f}, 1.0f, 3e38f, 0},
        {{1.0f, 0.5f, 3.0f, -2.0f}, 1.0f, 3e38f, 1},
        // An infinite score under softcap is +-softcap, also when scale /
        // softcap underflows (the fuzzer's NaN).
        {{-INFINITY}, 1.4e-45f, 2.875f, 0},
        {{-INFINITY, 1.0f, INFINITY}, 1.4e-45f, 2.875f, 0},
        {{-INFINITY, 1.0f, INFINITY}, 1.4e-45f, 2.875f, 1},
        {std::vector<float>(37, -INFINITY), 1.4e-45f, 2.875f, 0},
    };
    for (const LargeLogits& c : cases) {
        const int64_t sizes[2] = {1, int64_t(c.x.size())};
        const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
        const simdax_attention_softmax_desc d{
            &t, nullptr, nullptr, nullptr, &t, nullptr, c.scale, c.softcap, SIMDAX_CAUSAL_NONE, 0, c.log};
        std::vector<float> y(c.x.size());
        ASSERT_EQ(simdax_attention_softmax(&d, c.x.data(), nullptr, nullptr, nullptr, y.data(), nullptr),
                  SIMDAX_OK)
            << simdax_last_error();
        const std::vector<double> want = reference(c);
        const Tolerance tol = tolerance_for(c.log ? SIMDAX_OPERATOR_LOG_SOFTMAX : SIMDAX_OPERATOR_SOFTMAX,
                                            SIMDAX_DTYPE_FLOAT32);
        for (size_t i = 0; i < y.size(); ++i)
            EXPECT_TRUE(passes(want[i], double(y[i]), SIMDAX_DTYPE_FLOAT32, tol))
                << (c.log ? "LogSoftmax" : "Softmax") << " n " << c.x.size() << " x[0] " << c.x[0]
                << " scale " << c.scale << " softcap " << c.softcap << " element " << i << ": want "
                << want[i] << " got " << y[i];
    }
}

// A boolean mask's masked keys are -inf whatever their slope: a row whose
// keys are all masked gives zeros (LogSoftmax: -inf) also when its ALiBi
// slope is NaN (the fuzzer found NaN there, the mask applied before ALiBi).
TEST(AttentionSoftmaxPrecision, BoolMaskedKeysIgnoreTheirSlope) {
    for (int log = 0; log < 2; ++log)
        for (int64_t n : {3, 8, 37}) {
            const int64_t sizes[3] = {2, 2, n}, row_sizes[3] = {2, 1, 1};
            const simdax_tensor_desc x{SIMDAX_DTYPE_FLOAT32, 3, sizes, nullptr};
            const simdax_tensor_desc m{SIMDAX_DTYPE_UINT8, 3, sizes, nullptr};
            const simdax_tensor_desc s{SIMDAX_DTYPE_FLOAT32, 3, row_sizes, nullptr};
            const simdax_attention_softmax_desc d{
                &x, &m, &s, nullptr, &x, nullptr, 1.0f, 0.0f, SIMDAX_CAUSAL_NONE, 0, log};
            std::vector<float> in(size_t(4 * n), 0.5f), y(in.size(), 7.0f);
            std::vector<uint8_t> mask(in.size(), 0);
            for (int64_t j = 0; j < n; ++j) mask[size_t(j)] = 1;  // head 0, row 0 sees every key
            const float slopes[2] = {0.0f, NAN};                  // head 1: every key masked
            ASSERT_EQ(
                simdax_attention_softmax(&d, in.data(), mask.data(), slopes, nullptr, y.data(), nullptr),
                SIMDAX_OK)
                << simdax_last_error();
            const double visible = log ? -std::log(double(n)) : 1.0 / double(n);
            const double masked = log ? -INFINITY : 0.0;
            for (size_t i = 0; i < y.size(); ++i) {
                const double want = i < size_t(n) ? visible : masked;
                EXPECT_TRUE(passes(want, double(y[i]), SIMDAX_DTYPE_FLOAT32,
                                   tolerance_for(log ? SIMDAX_OPERATOR_LOG_SOFTMAX : SIMDAX_OPERATOR_SOFTMAX,
                                                 SIMDAX_DTYPE_FLOAT32)))
                    << "log " << log << " n " << n << " element " << i << ": want " << want << " got "
                    << y[i];
            }
        }
}

// A NaN sink is a sink: it reaches the denominator, so its head's rows are
// NaN, in every row form (held in registers, the stack buffer, its blocks);
// the fold that only rows without a sink may take had read NaN as "none".
TEST(AttentionSoftmaxPrecision, NanSinkMakesItsRowsNan) {
    for (int64_t n : {1, 8, 37, 128, 300, 5000}) {
        const int64_t sizes[3] = {2, 2, n}, head_sizes[3] = {2, 1, 1};
        const simdax_tensor_desc x{SIMDAX_DTYPE_FLOAT32, 3, sizes, nullptr};
        const simdax_tensor_desc k{SIMDAX_DTYPE_FLOAT32, 3, head_sizes, nullptr};
        const simdax_attention_softmax_desc d{
            &x, nullptr, nullptr, &k, &x, nullptr, 0.5f, 0.0f, SIMDAX_CAUSAL_NONE, 0, 0};
        std::vector<float> in(size_t(4 * n), 0.25f), y(in.size(), 7.0f);
        const float sinks[2] = {NAN, -INFINITY};  // head 0: a NaN sink; head 1: none
        ASSERT_EQ(simdax_attention_softmax(&d, in.data(), nullptr, nullptr, sinks, y.data(), nullptr),
                  SIMDAX_OK)
            << simdax_last_error();
        for (size_t i = 0; i < y.size(); ++i) {
            if (i < size_t(2 * n))
                EXPECT_TRUE(std::isnan(y[i])) << "n " << n << " element " << i << ": got " << y[i];
            else
                EXPECT_TRUE(passes(1.0 / double(n), double(y[i]), SIMDAX_DTYPE_FLOAT32,
                                   tolerance_for(SIMDAX_OPERATOR_SOFTMAX, SIMDAX_DTYPE_FLOAT32)))
                    << "n " << n << " element " << i << ": got " << y[i];
        }
    }
}

// x * scale is rounded to float32 before the mask is added: a product beyond
// float32's range is +inf, and +inf plus a -inf mask is NaN, so the row is
// NaN (the fuzzer's finding). One FMA of x, scale and mask keeps the
// product exact and gives -inf, a row of zeros: the compiler may not
// contract the two (GCC does by default, clang does not).
TEST(AttentionSoftmaxPrecision, OverflowingProductMeetsMaskInTwoRoundings) {
    for (int log = 0; log < 2; ++log)
        for (int64_t n : {2, 8, 37, 128, 300, 5000}) {
            const int64_t sizes[2] = {1, n};
            const simdax_tensor_desc x{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
            const simdax_attention_softmax_desc d{
                &x, &x, nullptr, nullptr, &x, nullptr, 3e38f, 0.0f, SIMDAX_CAUSAL_NONE, 0, log};
            std::vector<float> in(size_t(n), 0.5f), mask(in.size(), 0.0f), y(in.size(), 7.0f);
            in[size_t(n - 1)] = 2.0f;  // 6e38: +inf in float32
            mask[size_t(n - 1)] = -INFINITY;
            ASSERT_EQ(
                simdax_attention_softmax(&d, in.data(), mask.data(), nullptr, nullptr, y.data(), nullptr),
                SIMDAX_OK)
                << simdax_last_error();
            for (size_t i = 0; i < y.size(); ++i)
                EXPECT_TRUE(std::isnan(y[i]))
                    << "log " << log << " n " << n << " element " << i << ": got " << y[i];
        }
}

}  // namespace
