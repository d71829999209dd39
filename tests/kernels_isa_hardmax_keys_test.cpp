// KernelsIsa (support/kernels_isa.hpp): Hardmax on float16 and bfloat16,
// whose rows and cols kernels compare the bits as integers
// (operators/hardmax/hardmax_keys16.hpp), against the float64 reference:
// negative values, -0 beside +0, NaN of either sign, infinities, the
// maximum in a row's scalar tail or second block, and columns taller than
// int16 row numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "support/kernels_isa.hpp"

namespace {

using namespace sxt::kisa;
using simdax::DType;

const double kNegNaN = std::copysign(kNaN, -1.0);

// Fills group g (n values at x[o + i*step]) by its kind; kinds 0-2 hold a
// NaN.
void fill_group(Buf& x, ptrdiff_t o, ptrdiff_t step, size_t n, int kind, std::mt19937& rng) {
    std::uniform_int_distribution<int> u(-6, 6);
    auto at = [&](size_t i) { return o + ptrdiff_t(i) * step; };
    for (size_t i = 0; i < n; ++i) x.set(at(i), u(rng) * 0.5);  // many ties
    switch (kind) {
        case 0: x.set(at(n - 1), kNegNaN); break;
        case 1:
            x.set(at(n / 2), kNaN);
            x.set(at(n / 3), kNegNaN);
            break;
        case 2:
            x.set(at(0), kInf);
            x.set(at(n - 1), kNaN);
            break;
        case 3:  // all negative: the largest is the smallest magnitude
            for (size_t i = 0; i < n; ++i) x.set(at(i), -1.0 - double((i * 7) % 5));
            break;
        case 4:  // zeros only, -0 first
            for (size_t i = 0; i < n; ++i) x.set(at(i), i % 2 ? 0.0 : -0.0);
            break;
        case 5:  // -inf but for a -0 and then a +0
            for (size_t i = 0; i < n; ++i) x.set(at(i), -kInf);
            x.set(at(n / 3), -0.0);
            if (n / 3 + 1 < n) x.set(at(n / 3 + 1), 0.0);
            break;
        case 6: x.set(at(n - 1), 100.0); break;  // the last element
        case 7:
            for (size_t i = 0; i < n; ++i) x.set(at(i), -kInf);
            break;
        case 8: x.set(at(0), kInf); break;
        default: break;
    }
}

void expect_one_hot(Buf& y, ptrdiff_t o, ptrdiff_t step, size_t n, size_t at, const char* what, DType dt,
                    size_t g) {
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(y.get(o + ptrdiff_t(i) * step), i == at ? 1.0 : 0.0)
            << what << ' ' << dname(dt) << " n=" << n << " group " << g << " i=" << i;
}

TEST_P(KernelsIsa, HardmaxSixteenBitRows) {
    std::mt19937 rng(31);
    for (DType dt : {DType::f16, DType::bf16}) {
        for (size_t n : {1, 2, 15, 16, 17, 31, 33, 64, 100, 1000, 2049, 4100}) {
            const size_t rows = 12;
            const ptrdiff_t xrs = ptrdiff_t(n + 3);
            Buf x(dt, (rows - 1) * size_t(xrs) + n);
            x.fill((rows - 1) * size_t(xrs) + n, 5.0);  // the gaps between rows
            for (size_t g = 0; g < rows; ++g) fill_group(x, ptrdiff_t(g) * xrs, 1, n, int(g % 10), rng);
            if (n > 2048) x.set(2048 + 5, 1000.0);  // row 0's maximum in its second block
            Buf y(dt, (rows - 1) * size_t(xrs) + n);
            for (int in_place = 0; in_place < 2; ++in_place) {
                y.fill((rows - 1) * size_t(xrs) + n, 7.0);
                if (in_place) {
                    for (size_t i = 0; i < (rows - 1) * size_t(xrs) + n; ++i)
                        y.set(ptrdiff_t(i), x.get(ptrdiff_t(i)));
                    k(dt).hardmax_rows(y.p(), y.p(), rows, n, xrs, xrs);
                } else {
                    k(dt).hardmax_rows(x.p(), y.p(), rows, n, xrs, xrs);
                }
                for (size_t g = 0; g < rows; ++g) {
                    const size_t at = ref_argmax(read(x, n, 1, ptrdiff_t(g) * xrs));
                    expect_one_hot(y, ptrdiff_t(g) * xrs, 1, n, at, in_place ? "rows in place" : "rows", dt,
                                   g);
                    if (g + 1 < rows) {  // the gap after the row is untouched
                        const ptrdiff_t gap = ptrdiff_t(g) * xrs + ptrdiff_t(n);
                        ASSERT_EQ(y.get(gap), in_place ? x.get(gap) : 7.0);
                    }
                }
            }
        }
    }
}

// NaN lanes only among the first nan_lanes (a lane block with a NaN runs on
// values), so that the other blocks run on keys.
TEST_P(KernelsIsa, HardmaxSixteenBitCols) {
    std::mt19937 rng(32);
    struct Shape {
        size_t r, k, nan_lanes;
    };
    for (DType dt : {DType::f16, DType::bf16}) {
        for (const Shape s : {Shape{70, 600, 40}, Shape{3, 87, 40}, Shape{1, 40, 0}, Shape{65536, 33, 0},
                              Shape{65537, 33, 0}}) {
            const ptrdiff_t xrs = ptrdiff_t(s.k + 5), yrs = ptrdiff_t(s.k + 1);
            Buf x(dt, (s.r - 1) * size_t(xrs) + s.k);
            for (size_t l = 0; l < s.k; ++l) {
                const int kind = int(l % 10);
                fill_group(x, ptrdiff_t(l), xrs, s.r, l >= s.nan_lanes && kind < 3 ? 9 : kind, rng);
            }
            Buf y(dt, (s.r - 1) * size_t(yrs) + s.k);
            k(dt).hardmax_cols(x.p(), y.p(), s.r, s.k, xrs, yrs);
            for (size_t l = 0; l < s.k; ++l)
                expect_one_hot(y, ptrdiff_t(l), yrs, s.r, ref_argmax(read(x, s.r, xrs, ptrdiff_t(l))), "cols",
                               dt, l);
        }
    }
}

}  // namespace
