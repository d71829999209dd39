// Rows of a few vectors, each held in registers from its load to its store:
// the max, the sum of 2^t (Softmax keeps the powers), then the output, with
// no pass over memory between them. Rows are independent, so the
// out-of-order core overlaps one row's reductions with the next row's loads,
// which the batches of rows_batched.hpp buy with passes over L1 instead.
// Same math as softmax_row_short (one_row.hpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "softmax/simd/one_row.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Vectors a row may hold: with 16 registers, the exp's constants need the
// other half.
template <class V>
constexpr size_t kRowRegs = RegsOf<V>::value >= 32 ? 8 : 4;

// One row of N < n <= NV * N elements (FULL: n == NV * N). Returns false,
// having written nothing, for a row the general path must do: a NaN max,
// an infinite max or one too large to fold. A NaN the max lost reaches the
// sum, and so every output.
// STREAM: the whole vectors with non-temporal stores (y at its vector
// alignment; the caller fences).
template <class T, SoftmaxKind K, size_t NV, bool FULL, bool STREAM>
SIMDAX_INLINE bool softmax_row_in_registers(const T* x, T* y, size_t n) {
    constexpr bool kLog = K == SoftmaxKind::log;
    constexpr int D = kSumDeg<T, K>;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using MX = SmxMath<V>;
    constexpr size_t N = V::N;
    const size_t full = FULL ? NV : n / N;  // whole vectors; a partial one after them
    const R ninf = V::set1(E(-__builtin_inf()));
    R v[NV];
    SIMDAX_UNROLL for (size_t k = 0; k < NV; ++k) v[k] = ninf;  // unread past n; quiets the compiler
    SIMDAX_UNROLL for (size_t k = 0; k < NV; ++k) {
        if (k < full)
            v[k] = V::load(x + k * N);
        else if (!FULL && k * N < n)
            v[k] = V::loadn(x + k * N, n - k * N, ninf);
        else
            break;
    }
    const size_t used = FULL ? NV : (n + N - 1) / N;
    const E m = V::hmax(tree_fold<V>(v, used, [](R p, R q) { return V::max(p, q); }));
    if (!MX::template foldable<D>(m)) return false;
    const E hi = MX::template hi_of<true>(m);
    const R nh = V::set1(-hi);
    R e[NV];
    SIMDAX_UNROLL for (size_t k = 0; k < NV; ++k) e[k] = V::zero();  // unread past n; quiets the compiler
    // Softmax keeps each power in place of its input; the missing lanes of
    // a partial vector (-inf) give 0 there, and at most 2^-125 in
    // LogSoftmax's sum, which is at least 1 (its powers go two to a sum,
    // the second added by the FMA of its scale).
    SIMDAX_UNROLL for (size_t k = 0; k < NV; ++k) {
        if (!FULL && k * N >= n) break;
        if constexpr (kLog) {
            e[k / 2] = MX::template ex_add<true, D>(v[k], nh, k % 2 ? e[k / 2] : V::zero());
        } else {
            e[k] = MX::template ex<true, D>(v[k], nh);
            v[k] = e[k];
        }
    }
    const size_t sums = kLog ? (used + 1) / 2 : used;
    const E s = V::hsum(tree_fold<V>(e, sums, [](R p, R q) { return V::add(p, q); }));
    R shift, factor;
    if constexpr (kLog) {
        // The vector log, not libm's: a call per row cost rows of 64 floats 12%.
        const E ls = V::first(MX::log(V::set1(s))) - MX::template lo_ln<true>(m, hi);
        shift = V::set1(m + ls);
        factor = V::set1(E(1));
        if (!(m + ls < E(16) && m + ls > E(-16))) {
            // x - (m + ls) would round the output of a large max: subtract m first.
            SIMDAX_UNROLL for (size_t k = 0; k < NV; ++k) {
                if (!FULL && k * N >= n) break;
                v[k] = V::sub(v[k], V::set1(m));
            }
            shift = V::set1(ls);
        }
    } else {
        shift = V::zero();
        factor = V::set1(E(1) / s);
    }
    auto* out = result_ptr(y);
    SIMDAX_UNROLL for (size_t k = 0; k < NV; ++k) {
        const R o = kLog ? V::sub(v[k], shift) : V::mul(v[k], factor);
        if (k < full && STREAM)
            V::stream(out + k * N, o);
        else if (k < full)
            V::store(out + k * N, o);
        else if (!FULL && k * N < n)
            V::storen(out + k * N, o, n - k * N);
        else
            break;
    }
    return true;
}

// Two whole Softmax rows of NV vectors, interleaved: a lone row waits on
// its own chain (max, powers, sum, reciprocal, stores), two give the core
// independent work throughout. Returns false, having written nothing, where
// either row's max does not fold.
template <class T, size_t NV>
SIMDAX_INLINE bool softmax_pair_in_registers(const T* const (&x)[2], T* const (&y)[2]) {
    constexpr int D = kSumDeg<T, SoftmaxKind::softmax>;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    using MX = SmxMath<V>;
    constexpr size_t N = V::N;
    R v[2][NV];
    E m[2];
    SIMDAX_UNROLL for (int p = 0; p < 2; ++p) {
        SIMDAX_UNROLL for (size_t k = 0; k < NV; ++k) v[p][k] = V::load(x[p] + k * N);
        m[p] = V::hmax(tree_fold<V>(v[p], NV, [](R a, R b) { return V::max(a, b); }));
    }
    if (!MX::template foldable<D>(m[0]) || !MX::template foldable<D>(m[1])) return false;
    R factor[2];
    SIMDAX_UNROLL for (int p = 0; p < 2; ++p) {
        const R nh = V::set1(-MX::template hi_of<true>(m[p]));
        SIMDAX_UNROLL for (size_t k = 0; k < NV; ++k) v[p][k] = MX::template ex<true, D>(v[p][k], nh);
        factor[p] = V::set1(E(1) / V::hsum(tree_fold<V>(v[p], NV, [](R a, R b) { return V::add(a, b); })));
    }
    SIMDAX_UNROLL for (int p = 0; p < 2; ++p) {
        auto* out = result_ptr(y[p]);
        SIMDAX_UNROLL for (size_t k = 0; k < NV; ++k) V::store(out + k * N, V::mul(v[p][k], factor[p]));
    }
    return true;
}

// Whether rows of n elements go in pairs (softmax_rows_in_register_pairs):
// float16/bfloat16 Softmax rows computed in float, of exactly kRowRegs
// vectors where that is 8 (32 registers), not streamed. Float32 rows gain
// nothing over one at a time; with 16 registers (4 vectors a row) the
// batches of rows_batched.hpp are faster.
template <class T, SoftmaxKind K>
constexpr bool in_register_pairs(size_t n) {
    using V = Vec<T>;
    return K == SoftmaxKind::softmax && !std::is_same_v<T, float> && std::is_same_v<typename V::E, float> &&
           RegsOf<V>::value >= 32 && n == kRowRegs<V> * V::N;
}

// rows rows of n elements (in_register_pairs(n)), two at a time; a row
// left over or of a pair that does not fold goes alone.
template <class T>
void softmax_rows_in_register_pairs(const T* x, T* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs) {
    constexpr size_t NV = kRowRegs<Vec<T>>;
    const auto alone = [&](size_t r) {
        const T* xr = x + ptrdiff_t(r) * xrs;
        T* yr = y + ptrdiff_t(r) * yrs;
        if (!softmax_row_in_registers<T, SoftmaxKind::softmax, NV, true, false>(xr, yr, n))
            softmax_row_alone<T, SoftmaxKind::softmax>(xr, yr, n, false);
    };
    size_t r = 0;
    for (; r + 2 <= rows; r += 2) {
        const T* const xs[2] = {x + ptrdiff_t(r) * xrs, x + ptrdiff_t(r + 1) * xrs};
        T* const ys[2] = {y + ptrdiff_t(r) * yrs, y + ptrdiff_t(r + 1) * yrs};
        if (!softmax_pair_in_registers<T, NV>(xs, ys)) {
            alone(r);
            alone(r + 1);
        }
    }
    if (r < rows) alone(r);
}

// Whether rows of n elements take this form: float32 rows of more than
// one vector and at most kRowRegs. LogSoftmax's rows need more than half
// that: its vector log per row (about 40 cycles of latency) outlasts the
// work of a shorter row, which the batches of rows_batched.hpp amortise.
template <class T, SoftmaxKind K>
constexpr bool in_registers(size_t n) {
    using V = Vec<T>;
    if constexpr (!std::is_same_v<T, float>) return false;
    const size_t lo = K == SoftmaxKind::log ? kRowRegs<V> * V::N / 2 : V::N;
    return n > lo && n <= kRowRegs<V> * V::N;
}

// rows rows of n elements (in_registers(n)); the rows this form does not
// take go to the general path. stream: each row at y's vector alignment is
// written with non-temporal stores, its tail and the other rows with
// plain ones.
template <class T, SoftmaxKind K>
void softmax_rows_in_registers(const T* x, T* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs,
                               bool stream) {
    constexpr size_t NV = kRowRegs<Vec<T>>;
    constexpr size_t kVecBytes = Vec<T>::N * sizeof(T);
    const bool full = n == NV * Vec<T>::N;
    for (size_t r = 0; r < rows; ++r) {
        const T* xr = x + ptrdiff_t(r) * xrs;
        T* yr = y + ptrdiff_t(r) * yrs;
        const bool nt = stream && reinterpret_cast<uintptr_t>(yr) % kVecBytes == 0;
        const bool done = full ? (nt ? softmax_row_in_registers<T, K, NV, true, true>(xr, yr, n)
                                     : softmax_row_in_registers<T, K, NV, true, false>(xr, yr, n))
                               : (nt ? softmax_row_in_registers<T, K, NV, false, true>(xr, yr, n)
                                     : softmax_row_in_registers<T, K, NV, false, false>(xr, yr, n));
        if (!done) softmax_row_alone<T, K>(xr, yr, n, stream);
    }
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
