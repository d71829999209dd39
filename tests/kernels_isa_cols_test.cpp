// KernelsIsa (support/kernels_isa.hpp): the column kernels of the softmax
// family and MVN, against the float64 reference.
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
                if (op == 2)
                    k(dt).hardmax_cols(x.p(), y.p(), s.r, s.k, s.xrs, s.yrs);
                else
                    (op == 0 ? k(dt).log_softmax_cols : k(dt).softmax_cols)(x.p(), y.p(), s.r, s.k, s.xrs,
                                                                            s.yrs, stream);
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
                            << dname(dt) << " r=" << s.r << " k=" << s.k << " l=" << l << " j=" << j;
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
            const Tol tol = sxt::is_transcendental(a.act.type) ? Tol::plain2 : Tol::plain;
            for (size_t l = 0; l < s.k; ++l) {
                const std::vector<double> g = read(x, s.r, s.xrs, ptrdiff_t(l));
                const RefMoments rm = ref_moments(g);
                const double inv = ref_inv_divisor(rm.var, a.vn);
                for (size_t j = 0; j < s.r; ++j) {
                    const double scv = a.scale ? sc.get(ptrdiff_t(l) * a.scale_ks) : 1.0;
                    const double biv = a.bias ? bi.get(ptrdiff_t(j) * a.bias_rs + ptrdiff_t(l)) : 0.0;
                    const double ref = ref_act(scv * (g[j] - rm.mean) * inv + biv, a.act);
                    ASSERT_TRUE(close(y.get(ptrdiff_t(j) * s.yrs + ptrdiff_t(l)), ref, dt, tol))
                        << "mvn_cols " << dname(dt) << " r=" << s.r << " k=" << s.k << " l=" << l
                        << " j=" << j << " mode=" << mode << " act=" << simdax_activation_name(a.act.type);
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

}  // namespace
