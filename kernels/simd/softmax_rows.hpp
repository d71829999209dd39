// LogSoftmax / Softmax chunk passes (contiguous x):
//   maxsum: fold a chunk into the group's online (max, sum exp(x - max));
//   log_softmax_out: y = (x - max) - log(sum);  softmax_out: y = exp(x - max) / sum.
// maxsum walks the chunk in L1-sized blocks: the block max, then the block
// sum of exp re-reading the block from L1, so memory is read once. Block
// results are folded into the state in double; within a block float sums
// run in 4 x N lanes (32 terms per lane for a 2048 block).
#pragma once

#include <cmath>

#include "kernel_table.hpp"
#include "simd/activation.hpp"
#include "simd/map.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

constexpr size_t kSoftmaxBlock = 2048;

template <class T>
inline typename Vec<T>::E block_max(const T* x, size_t n) {
    using V = Vec<T>;
    using R = typename V::R;
    const R ninf = V::set1(-__builtin_inf());
    R m0 = ninf, m1 = ninf, m2 = ninf, m3 = ninf;
    size_t i = 0;
    for (; i + 4 * V::N <= n; i += 4 * V::N) {
        m0 = V::max(m0, V::load(x + i));
        m1 = V::max(m1, V::load(x + i + V::N));
        m2 = V::max(m2, V::load(x + i + 2 * V::N));
        m3 = V::max(m3, V::load(x + i + 3 * V::N));
    }
    for (; i + V::N <= n; i += V::N) m0 = V::max(m0, V::load(x + i));
    if (i < n) m1 = V::max(m1, V::loadn(x + i, n - i, ninf));
    return V::hmax(V::max(V::max(m0, m1), V::max(m2, m3)));
}

// sum exp(x - shift); a NaN anywhere makes the sum NaN.
template <class T>
inline typename Vec<T>::E block_sumexp(const T* x, size_t n, typename Vec<T>::E shift) {
    using V = Vec<T>;
    using R = typename V::R;
    const R sh = V::set1(shift);
    R s0 = V::zero(), s1 = V::zero(), s2 = V::zero(), s3 = V::zero();
    size_t i = 0;
    for (; i + 4 * V::N <= n; i += 4 * V::N) {
        s0 = V::add(s0, vexp_nonpos(V::sub(V::load(x + i), sh)));
        s1 = V::add(s1, vexp_nonpos(V::sub(V::load(x + i + V::N), sh)));
        s2 = V::add(s2, vexp_nonpos(V::sub(V::load(x + i + 2 * V::N), sh)));
        s3 = V::add(s3, vexp_nonpos(V::sub(V::load(x + i + 3 * V::N), sh)));
    }
    for (; i + V::N <= n; i += V::N) s0 = V::add(s0, vexp_nonpos(V::sub(V::load(x + i), sh)));
    if (i < n)  // missing lanes read -inf: exp(-inf) = 0
        s1 = V::add(s1, vexp_nonpos(V::sub(V::loadn(x + i, n - i, V::set1(-__builtin_inf())), sh)));
    return V::hsum(V::add(V::add(s0, s1), V::add(s2, s3)));
}

// Folds a block's (max, sum) into the group state. A side whose max equals
// the new max keeps its sum unscaled, so an all -inf prefix (sum 0) never
// meets exp(-inf - -inf).
inline void maxsum_combine(MaxSum* s, double cm, double cs) {
    if (s->max == -__builtin_inf() && s->sum == 0.0) {
        s->max = cm;
        s->sum = cs;
        return;
    }
    const double m = s->max;
    const double nm = cm > m ? cm : m;
    const double fo = (m == nm) ? 1.0 : std::exp(m - nm);
    const double fn = (cm == nm) ? 1.0 : std::exp(cm - nm);
    s->sum = s->sum * fo + cs * fn;
    s->max = nm;
}

template <class T>
void maxsum(const void* xv, size_t n, MaxSum* state) {
    using E = typename Vec<T>::E;
    const T* x = static_cast<const T*>(xv);
    for (size_t b = 0; b < n; b += kSoftmaxBlock) {
        const size_t nb = n - b < kSoftmaxBlock ? n - b : kSoftmaxBlock;
        const E cm = block_max(x + b, nb);
        const E shift = cm == -__builtin_inf() ? E(0) : cm;
        const E cs = block_sumexp(x + b, nb, shift);
        maxsum_combine(state, double(cm), double(cs));
    }
}

template <class T>
void log_softmax_out(const void* xv, void* yv, size_t n, const MaxSum* s) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    const R m = V::set1(E(s->max)), ls = V::set1(E(std::log(s->sum)));
    map(static_cast<const T*>(xv), static_cast<T*>(yv), n,
        [=](R v) { return V::sub(V::sub(v, m), ls); });
}

template <class T>
void softmax_out(const void* xv, void* yv, size_t n, const MaxSum* s) {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    const R m = V::set1(E(s->max)), inv = V::set1(E(1.0 / s->sum));
    map(static_cast<const T*>(xv), static_cast<T*>(yv), n,
        [=](R v) { return V::mul(vexp_nonpos(V::sub(v, m)), inv); });
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
