// RMSNormalization over whole contiguous rows (the rms_rows slot), many rows
// per call: y = x * inv * scale, inv = 1 / sqrt(sum(x^2) / n + epsilon).
// The per-row path (norm_kernels.hpp through the executor's run_group)
// sets up a row buffer, three kernel calls and its arguments for every row,
// which dominates rows of a few hundred elements; here a batch of rows
// shares that work and MVN's row output (mvn/simd/rows.hpp: write_row,
// streaming, prefetching of the rows ahead) writes them.
//
// Accuracy as the per-row path: the sum of squares in four float chains per
// block of kMomentsBlock values, each block's sum folded into double; then
// (x * inv) * scale in float, rounded once to the output's dtype (a Scale
// constant along the row folds into inv once: x * (inv * scale)). A row
// whose float sums leave float's comfortable range (an infinity or NaN, a
// square beyond float, a mean square below kTinyMeanSquare, where squares
// lose bits to subnormal rounding) is redone in the wider type
// (mvn/mvn_wide.hpp's WideOf), every element of its output too.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "mvn/simd/rows.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {
namespace rms {

// Below this mean square the float sums may have lost digits to
// subnormal squares (each loses at most 2^-150: n of them stay 1e-15 of
// the sum); the per-row path's bound too.
template <class E>
constexpr double kTinyMeanSquare = sizeof(E) < sizeof(double) ? 1e-30 : 1e-290;

// float16/bfloat16 rows up to this length (and a Scale they share) are
// converted once, to float copies the output reads from L1.
constexpr size_t kCopyMax = 4096;
static_assert(kCopyMax >= kMvnCopySet, "a batch's copies fit in one row's");

// Rows whose sums are taken together: up to 6 KiB of input (in L1 when
// their output is written), so that the scalar chain from one row's sum to
// its inv (a division, a square root) overlaps the others' instead of
// stalling each row's output.
template <class T>
inline size_t batch_rows(size_t n) {
    const size_t b = 6144 / (n * sizeof(T));
    return b < 1 ? 1 : b > kMvnBatch ? kMvnBatch : b;
}

// The sum of squares of a row (pass A), in double. copy: the row's
// compute-type values stored on the way (float16/bfloat16 rows, whose
// output then reads them from L1); pfw: the row's output, prefetched for
// writing so that its reads for ownership overlap this pass.
template <class T>
SIMDAX_INLINE double sum_squares(const T* x, size_t n, typename Vec<T>::E* copy, const char* pfw) {
    using V = Vec<T>;
    using VE = Vec<typename V::E>;
    using R = typename V::R;
    constexpr size_t N = V::N;
    double total = 0;
    for (size_t b = 0; b < n; b += kMomentsBlock) {
        const size_t end = n - b < kMomentsBlock ? n : b + kMomentsBlock;
        R q0 = V::zero(), q1 = V::zero(), q2 = V::zero(), q3 = V::zero();
        size_t i = b;
        for (; i + 4 * N <= end; i += 4 * N) {
            if (pfw) prefetch_row(pfw + i * sizeof(T), 4 * N * sizeof(T), true);
            R v[4];
            load4(x, i, copy, v);
            q0 = V::fma(v[0], v[0], q0);
            q1 = V::fma(v[1], v[1], q1);
            q2 = V::fma(v[2], v[2], q2);
            q3 = V::fma(v[3], v[3], q3);
        }
        for (; i < end; i += N) {
            const size_t cnt = end - i < N ? end - i : N;
            const R v = cnt == N ? V::load(x + i) : V::loadn(x + i, cnt, V::zero());
            if (copy) VE::storen(copy + i, v, cnt);
            q0 = V::fma(v, v, q0);
        }
        total += double(V::hsum(V::add(V::add(q0, q1), V::add(q2, q3))));
    }
    return total;
}

// sum_squares of a row without a copy, four vectors a step, so that the
// row before's output loop can carry it (write_row's pa): its loads then
// share the memory's time with that row's streaming stores. The same
// operations in the same order as sum_squares: a row's sum does not depend
// on how far it was carried.
template <class T>
struct SquareSteps {
    using V = Vec<T>;
    using R = typename V::R;
    static constexpr size_t kStep = 4 * V::N;
    static_assert(kMomentsBlock % kStep == 0, "a step never crosses a block");
    const T* x;
    size_t n, j = 0;
    double total = 0;
    R q0 = V::zero(), q1 = V::zero(), q2 = V::zero(), q3 = V::zero();

    // Member by member (PassASteps: store forwarding).
    SIMDAX_INLINE SquareSteps copied() const {
        SquareSteps c{x, n, j, total};
        c.q0 = q0, c.q1 = q1, c.q2 = q2, c.q3 = q3;
        return c;
    }
    SIMDAX_INLINE void put_back(const SquareSteps& c) {
        j = c.j, total = c.total;
        q0 = c.q0, q1 = c.q1, q2 = c.q2, q3 = c.q3;
    }
    SIMDAX_INLINE void fold() {
        total += double(V::hsum(V::add(V::add(q0, q1), V::add(q2, q3))));
        q0 = q1 = q2 = q3 = V::zero();
    }
    SIMDAX_INLINE void step() {
        if (j + kStep > n) return;
        R v[4];
        load4(x, j, static_cast<typename V::E*>(nullptr), v);
        q0 = V::fma(v[0], v[0], q0), q1 = V::fma(v[1], v[1], q1);
        q2 = V::fma(v[2], v[2], q2), q3 = V::fma(v[3], v[3], q3);
        j += kStep;
        if (j % kMomentsBlock == 0) fold();
    }
    // The steps the carrying loop did not take, the tail; the sum.
    SIMDAX_INLINE double finish() {
        while (j + kStep <= n) step();
        if (j % kMomentsBlock == 0 && j == n) return total;
        for (; j < n; j += V::N) {
            const size_t cnt = n - j < V::N ? n - j : V::N;
            const R v = cnt == V::N ? V::load(x + j) : V::loadn(x + j, cnt, V::zero());
            q0 = V::fma(v, v, q0);
        }
        fold();
        return total;
    }
};

// Element e's Scale of row g in double (the wider path).
template <class T>
inline double scale_value(const RmsRowsArgs& a, size_t g, size_t e) {
    const ptrdiff_t k = ptrdiff_t(g) * a.scale_rs + ptrdiff_t(e) * a.scale_ks;
    if (!std::is_same_v<T, typename Vec<T>::E> && a.scale_f32)
        return double(static_cast<const float*>(a.scale)[k]);
    return double(to_e(static_cast<const T*>(a.scale)[k]));
}

// A row outside the fast range, in the wider type W throughout: its sum
// of squares, inv, and each element (rounded once to the compute type).
template <class T>
void row_wide(const T* xr, T* yr, size_t n, size_t g, const RmsRowsArgs& a) {
    using V = Vec<T>;
    using E = typename V::E;
    using W = WideOf<E>;
    constexpr size_t N = V::N;
    const WideFpScope<W> fp;
    W q = 0;
    for (size_t i = 0; i < n; ++i) {
        const W v = W(to_e(xr[i]));
        q += v * v;
    }
    const W inv = W(1) / std::sqrt(q / W(n) + W(a.epsilon));
    // A vector's worth at a time, read before it is stored (y may be x).
    alignas(64) E out[N];
    for (size_t i = 0; i < n; i += N) {
        const size_t m = n - i < N ? n - i : N;
        for (size_t l = 0; l < m; ++l) out[l] = E(W(to_e(xr[i + l])) * inv * W(scale_value<T>(a, g, i + l)));
        V::storen(yr + i, V::load(out), m);
    }
}

// Contiguous Scale values of the storage type T (a float16/bfloat16 Scale
// too long to convert once), loaded with the row: load_scale_bias's test
// of the stride per vector cost float16/bfloat16 rows of 4096 a sixth of
// their time on AVX2.
template <class T>
struct StorageAccess {
    static constexpr bool kConstant = false;
    const T* p;
    typename Vec<T>::R at(size_t i, size_t cnt) const {
        using V = Vec<T>;
        return cnt == V::N ? V::load(p + i) : V::loadn(p + i, cnt, V::zero());
    }
    double value(size_t i) const { return double(to_e(p[i])); }
};

// f(access) with row g's Scale access (mvn/simd/row_scale_bias.hpp's types):
// a constant (ks = 0), contiguous compute-type values (a float32 Scale, or
// `pre`: a shared float16/bfloat16 Scale converted once), contiguous or
// strided elements of the Scale's own type.
template <class T, class F>
SIMDAX_INLINE void with_scale(const RmsRowsArgs& a, size_t g, const typename Vec<T>::E* pre, F&& f) {
    using V = Vec<T>;
    using E = typename V::E;
    if constexpr (!std::is_same_v<T, E>) {
        if (a.scale_f32) {
            const float* p = static_cast<const float*>(a.scale) + ptrdiff_t(g) * a.scale_rs;
            if (a.scale_ks == 0) return f(ConstantAccess<T>{p[0]});
            if (a.scale_ks == 1) return f(ContiguousAccess<T>{p});
            return f(StridedAccess<float>{p, a.scale_ks});
        }
    }
    const T* p = static_cast<const T*>(a.scale) + ptrdiff_t(g) * a.scale_rs;
    if (a.scale_ks == 0) {
        const E c = to_e(p[0]);
        return f(ConstantAccess<T>{c});
    }
    if (pre) return f(ContiguousAccess<T>{pre});
    if (a.scale_ks == 1) return f(StorageAccess<T>{p});
    f(StridedAccess<T>{p, a.scale_ks});
}

}  // namespace rms

// LONG: streamed rows of kCarryRowBytes and more, each row's sum of squares
// carried by the row before's output (SquareSteps), with no float copy. Its
// own instance, as mvn_rows_of.
template <class T, bool LONG>
void rms_rows_of(const void* xv, void* yv, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
                 const RmsRowsArgs* args, bool stream) {
    using V = Vec<T>;
    using E = typename V::E;
    const RmsRowsArgs& a = *args;
    const T* x = static_cast<const T*>(xv);
    T* y = static_cast<T*>(yv);
    constexpr bool kHalf = !std::is_same_v<T, E>;
    // float16/bfloat16: a Scale shared by every row converted once, and each
    // row converted once by its pass A, the output reading the float copy
    // from L1 (as mvn_rows). A LONG row's output converts it again instead
    // of reading a copy: its carried pass then writes nothing.
    // Both float arrays start at the output rows' place in their lines, as
    // in mvn_rows_of.
    alignas(64) E pre_work[kHalf ? rms::kCopyMax + kMvnLineLanes : 1];
    alignas(64) E xf_work[kHalf ? rms::kCopyMax + kMvnLineLanes : 1];
    const size_t lead = kHalf && stream && rows_share_phase<T>(rows, yrs) ? before_boundary<64>(y) : 0;
    const size_t shift = (kMvnLineLanes - lead % kMvnLineLanes) % kMvnLineLanes;
    E* const pre_s = pre_work + shift;
    E* const xf = xf_work + shift;
    const E* ps = nullptr;
    const bool conv = kHalf && n <= rms::kCopyMax && !LONG;
    if constexpr (kHalf) {
        if (n <= rms::kCopyMax && !a.scale_f32 && a.scale_rs == 0 && a.scale_ks == 1) {
            convert(static_cast<const T*>(a.scale), pre_s, n);
            ps = pre_s;
        }
    }
    alignas(64) E buf[kNormBlock];  // write_row's activation buffer (identity: unused)
    const ActParams identity{SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0};
    const RowsOutput<T> out{identity, stream, buf};
    // Rows ahead whose input the output loop prefetches: about 6 KiB ahead.
    const size_t pf_rows = 1 + 6144 / (n * sizeof(T) + 1);
    const size_t batch = rms::batch_rows<T>(n);
    const double inv_n = 1.0 / double(n), tiny = rms::kTinyMeanSquare<E> * double(n);
    const ConstantAccess<T> no_bias{E(0)};
    // Row g's output from its sum of squares q (copy: its float copy, or
    // null); pa: the next row's sum, carried (LONG), or null.
    const auto write = [&](size_t g, double q, const E* copy, rms::SquareSteps<T>* pa) {
        const T* xr = x + ptrdiff_t(g) * xrs;
        T* yr = y + ptrdiff_t(g) * yrs;
        if (!(std::isfinite(q) && q >= tiny)) return rms::row_wide(xr, yr, n, g, a);
        const double inv = 1.0 / std::sqrt(q * inv_n + a.epsilon);
        const E ie = E(inv);
        const T* nx = !pa && g + pf_rows < rows ? x + ptrdiff_t(g + pf_rows) * xrs : nullptr;
        bool done = false;
        rms::with_scale<T>(
            a, g, ps, [&](auto sa) __attribute__((always_inline)) {
                RowNorm<T> norm{V::zero(), V::set1(ie), V::zero(), 0.0, inv};
                if constexpr (decltype(sa)::kConstant) {
                    // inv * scale folded, unless it leaves E's normal range (a
                    // Scale near the top or among the subnormals), where
                    // (x * inv) * scale need not.
                    const E A = ie * sa.c;
                    if (!std::isfinite(A) ||
                        (sa.c != E(0) && !(std::fabs(A) >= std::numeric_limits<E>::min())))
                        return;
                    norm.va = V::set1(A);
                }
                if (copy)
                    write_row<T, true>(copy, yr, n, nx, norm, sa, no_bias, out, pa);
                else
                    write_row<T, true>(xr, yr, n, nx, norm, sa, no_bias, out, pa);
                done = true;
            });
        if (!done) rms::row_wide(xr, yr, n, g, a);
    };
    if constexpr (LONG) {
        double q = rms::SquareSteps<T>{x, n}.finish();
        for (size_t g = 0; g < rows; ++g) {
            if (g + 1 == rows) {
                write(g, q, nullptr, static_cast<rms::SquareSteps<T>*>(nullptr));
                break;
            }
            rms::SquareSteps<T> next{x + ptrdiff_t(g + 1) * xrs, n};
            write(g, q, nullptr, &next);
            q = next.finish();
        }
        stream_fence();
        return;
    }
    double q[kMvnBatch];
    for (size_t g0 = 0; g0 < rows; g0 += batch) {
        const size_t nb = rows - g0 < batch ? rows - g0 : batch;
        for (size_t r = 0; r < nb; ++r) {
            const size_t g = g0 + r;
            // Streamed rows need no read for ownership.
            const char* pfw = stream ? nullptr : reinterpret_cast<const char*>(y + ptrdiff_t(g) * yrs);
            q[r] = rms::sum_squares(x + ptrdiff_t(g) * xrs, n, conv ? xf + r * n : nullptr, pfw);
        }
        for (size_t r = 0; r < nb; ++r)
            write(g0 + r, q[r], conv ? xf + r * n : nullptr, static_cast<rms::SquareSteps<T>*>(nullptr));
    }
    if (stream) stream_fence();
}

template <class T>
void rms_rows(const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
              const RmsRowsArgs* args) {
    const VecScope scope;
    // A large output (the executor passes many rows per call) is streamed.
    const bool stream = x != static_cast<const void*>(y) && rows * n * sizeof(T) >= kStreamBytes;
    // float16/bfloat16 rows on 32-register ISAs (AVX-512) carry on AMD too:
    // there the carried instance, which converts the row again instead of
    // keeping a float copy, was the faster one either way.
    constexpr bool kCarryHalves = sizeof(T) == 2 && RegsOf<Vec<T>>::value >= 32;
    if (stream && (carry_row_passes() || kCarryHalves) && n * sizeof(T) >= kCarryRowBytes)
        rms_rows_of<T, true>(x, y, rows, n, xrs, yrs, args, true);
    else
        rms_rows_of<T, false>(x, y, rows, n, xrs, yrs, args, stream);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
