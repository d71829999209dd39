// The float16 operators whose kernels the native float16 levels (neonfp16,
// avx512fp16: simd/f16/) replace, Hardmax over rows and columns and ReLU,
// through the C API at the active ISA, against expected values worked out
// here: every special value, ties, and the column heights where those
// levels hand over to the float path. Runs at every ISA (tests_<isa>, the
// emulated CPUs), so the native kernels and the float ones meet the same
// expectations.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"

namespace {

uint16_t h(double v) { return sxt::f64_to_f16_bits(v); }
double d(uint16_t b) { return sxt::f16_bits_to_f64(b); }

// Creates the operator (at the active ISA, the one SIMDAX_EXPECT_ISA names
// in the emulated-CPU runs) and runs it once from x into y; nullptr if
// creation failed.
simdax_operator* create_and_run(const simdax_operator_desc& od, const void* x, void* y) {
    simdax_operator* op = nullptr;
    EXPECT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK) << simdax_last_error();
    if (!op) return nullptr;
    EXPECT_EQ(simdax_operator_isa(op), simdax_active_isa());
    const char* want = std::getenv("SIMDAX_EXPECT_ISA");
    if (want && *want) {
        EXPECT_STREQ(simdax_isa_name(simdax_operator_isa(op)), want);
    }
    const simdax_bindings b{x, nullptr, nullptr, y};
    EXPECT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK) << simdax_last_error();
    return op;
}

// Hardmax on float16, reduced along rows (axes {1}) and along columns
// (axes {0}), with ties, -0/+0, infinities and a NaN.
TEST(Float16Native, Float16HardmaxRowsAndColumns) {
    const int64_t rows = 5, n = 45;
    std::vector<double> v(size_t(rows * n));
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < n; ++j) v[size_t(r * n + j)] = double((j * 7 + r * 3) % 11) - 5.0;
    v[size_t(1 * n + 30)] = std::numeric_limits<double>::infinity();
    v[size_t(2 * n + 12)] = std::numeric_limits<double>::quiet_NaN();
    v[size_t(2 * n + 40)] = std::numeric_limits<double>::quiet_NaN();
    for (int64_t j = 0; j < n; ++j) v[size_t(3 * n + j)] = (j % 2) ? 0.0 : -0.0;
    for (int64_t j = 0; j < n; ++j) v[size_t(4 * n + j)] = -std::numeric_limits<double>::infinity();
    // Expected position of the 1 in each row (first NaN, else first max).
    std::vector<int64_t> at(rows);
    for (int64_t r = 0; r < rows; ++r) {
        int64_t best = 0;
        for (int64_t j = 1; j < n; ++j) {
            const double b = v[size_t(r * n + best)], c = v[size_t(r * n + j)];
            if (std::isnan(b)) break;
            if (std::isnan(c) || c > b) best = j;
        }
        at[size_t(r)] = best;
    }
    for (int cols = 0; cols < 2; ++cols) {
        // cols: the transpose, [n, rows] reduced along axis 0.
        const int64_t sizes_rows[2] = {rows, n}, sizes_cols[2] = {n, rows};
        const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT16, 2, cols ? sizes_cols : sizes_rows, nullptr};
        const uint32_t axes[1] = {cols ? 0u : 1u};
        const simdax_axes_op_desc desc{&t, &t, 1, axes};
        const simdax_operator_desc od{SIMDAX_OPERATOR_HARDMAX, &desc};
        std::vector<uint16_t> x(v.size()), y(v.size(), h(7.0));
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t j = 0; j < n; ++j)
                x[size_t(cols ? j * rows + r : r * n + j)] = h(v[size_t(r * n + j)]);
        simdax_operator* op = create_and_run(od, x.data(), y.data());
        ASSERT_NE(op, nullptr);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t j = 0; j < n; ++j)
                EXPECT_EQ(d(y[size_t(cols ? j * rows + r : r * n + j)]), j == at[size_t(r)] ? 1.0 : 0.0)
                    << (cols ? "columns" : "rows") << " group " << r << " element " << j;
        simdax_operator_destroy(op);
    }
}

// Float16 columns around 2^11 rows, where the native float16 levels' row
// numbers (float16) stop being exact and they hand over to the float path.
TEST(Float16Native, Float16HardmaxTallColumns) {
    for (int64_t r : {int64_t(2048), int64_t(2049), int64_t(2300)}) {
        const int64_t k = 3;
        std::vector<uint16_t> x(size_t(r * k)), y(size_t(r * k), h(7.0));
        for (int64_t j = 0; j < r; ++j)
            for (int64_t l = 0; l < k; ++l) x[size_t(j * k + l)] = h(double(j % 97) * 0.25 - 10.0);
        const int64_t at[3] = {r - 1, 1000, r - 2};
        x[size_t(at[0] * k + 0)] = h(100.0);  // last row
        x[size_t(at[1] * k + 1)] = h(100.0);  // tie: first wins
        x[size_t((r - 1) * k + 1)] = h(100.0);
        x[size_t(at[2] * k + 2)] = h(std::numeric_limits<double>::quiet_NaN());  // NaN wins
        const int64_t sizes[2] = {r, k};
        const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT16, 2, sizes, nullptr};
        const uint32_t axes[1] = {0};
        const simdax_axes_op_desc desc{&t, &t, 1, axes};
        const simdax_operator_desc od{SIMDAX_OPERATOR_HARDMAX, &desc};
        simdax_operator* op = create_and_run(od, x.data(), y.data());
        ASSERT_NE(op, nullptr);
        for (int64_t j = 0; j < r; ++j)
            for (int64_t l = 0; l < k; ++l)
                ASSERT_EQ(d(y[size_t(j * k + l)]), j == at[l] ? 1.0 : 0.0)
                    << "rows " << r << " row " << j << " lane " << l;
        simdax_operator_destroy(op);
    }
}

// ReLU on float16, out of place and in place.
TEST(Float16Native, Float16Relu) {
    const int64_t n = 53;
    std::vector<uint16_t> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) x[size_t(i)] = h((double(i) - 26.0) * 0.37);
    x[3] = h(-0.0);
    x[4] = h(std::numeric_limits<double>::infinity());
    x[5] = h(-std::numeric_limits<double>::infinity());
    x[6] = h(std::numeric_limits<double>::quiet_NaN());
    x[7] = h(-65504.0);
    x[8] = h(0x1p-24);  // smallest subnormal
    const int64_t sizes[1] = {n};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT16, 1, sizes, nullptr};
    const simdax_activation_op_desc desc{&t, &t, simdax_activation_default(SIMDAX_ACTIVATION_RELU)};
    const simdax_operator_desc od{SIMDAX_OPERATOR_ACTIVATION, &desc};
    simdax_operator* op = create_and_run(od, x.data(), y.data());
    ASSERT_NE(op, nullptr);
    for (int64_t i = 0; i < n; ++i) {
        const double in = d(x[size_t(i)]), out = d(y[size_t(i)]);
        if (std::isnan(in))
            EXPECT_TRUE(std::isnan(out)) << i;
        else
            EXPECT_EQ(out, in > 0 ? in : 0.0) << i;
    }
    const simdax_bindings bi{x.data(), nullptr, nullptr, x.data()};
    ASSERT_EQ(simdax_operator_execute(op, &bi), SIMDAX_OK) << simdax_last_error();
    EXPECT_EQ(x, y);
    simdax_operator_destroy(op);
}

}  // namespace
