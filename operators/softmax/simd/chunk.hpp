// LogSoftmax / Softmax chunk passes (x contiguous, one piece of a group):
//   maxsum: fold a chunk into the group's online (max, sum exp(x - max));
//   log_softmax_out: y = (x - max) - log(sum);  softmax_out: y = exp(x - max) / sum.
// maxsum walks the chunk in blocks (blocks.hpp) and folds each block's
// result into the state in double; log(sum) comes in the state, taken once
// per group by the caller.
#pragma once

#include "softmax/softmax_state.hpp"
#include "softmax/simd/blocks.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

// Elementwise max of a block (no horizontal step).
template <class T>
inline typename Vec<T>::R block_vmax(const T* x, size_t n) {
    using V = Vec<T>;
    using R = typename V::R;
    const R ninf = V::set1(typename V::E(-__builtin_inf()));
    R m0 = ninf, m1 = ninf;
    size_t i = 0;
    for (; i + 2 * V::N <= n; i += 2 * V::N) {
        m0 = V::max(m0, V::load(x + i));
        m1 = V::max(m1, V::load(x + i + V::N));
    }
    for (; i < n; i += V::N) m0 = V::max(m0, i + V::N <= n ? V::load(x + i) : V::loadn(x + i, n - i, ninf));
    return V::max(m0, m1);
}

// maxsum: when the state already holds a max that no element of the block
// exceeds (the common case after the first chunks of a group), the block's
// sum is taken relative to that max and simply added: no exp of a max
// difference, no horizontal max on the way. Otherwise the block max, its sum,
// and one combine.
template <class T>
void maxsum(const void* xv, size_t n, MaxSum* state) {
    const VecScope scope;
    using V = Vec<T>;
    using E = typename V::E;
    const T* x = static_cast<const T*>(xv);
    for (size_t b = 0; b < n; b += kSoftmaxBlock) {
        const size_t nb = n - b < kSoftmaxBlock ? n - b : kSoftmaxBlock;
        const T* xb = x + b;
        E cm;
        const bool empty = state->max == -__builtin_inf() && state->sum == 0.0;
        if (!empty && state->max > -__builtin_inf()) {
            const E m = E(state->max);  // a value of the data: exact in E
            const typename V::R vm = block_vmax(xb, nb);
            if (!V::bits(V::gt(vm, V::set1(m)))) {  // NaN lanes compare false
                state->sum += double(V::hsum(fused_block_sum<T, false, false>(xb, nullptr, nb, V::set1(-m))));
                continue;
            }
            cm = V::hmax(vm);
        } else {
            cm = block_max(xb, nb);
        }
        E cs;
        if (cm > E(-__builtin_inf())) {
            cs = V::hsum(fused_block_sum<T, false, false>(xb, nullptr, nb, V::set1(-cm)));
        } else {  // only -inf (sum 0), or a NaN max / a NaN among -inf (sum NaN)
            cs = (cm != cm || block_has_nan(xb, nb)) ? E(__builtin_nan("")) : E(0);
            cm = E(-__builtin_inf());
        }
        combine_maxsum(state, double(cm), double(cs));
    }
}

template <class T>
void log_softmax_out(const void* xv, void* yv, size_t n, const MaxSum* s) {
    const VecScope scope;
    using V = Vec<T>;
    using E = typename V::E;
    log_softmax_row_out(static_cast<const T*>(xv), static_cast<T*>(yv), n, E(s->max), E(s->log_sum));
}

template <class T>
void softmax_out(const void* xv, void* yv, size_t n, const MaxSum* s) {
    const VecScope scope;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    const R nm = V::set1(-E(s->max)), inv = V::set1(E(1.0 / s->sum));
    map(static_cast<const T*>(xv), result_ptr(static_cast<T*>(yv)), n,
        [=](R v) { return V::mul(SmxMath<V>::template ex<false>(v, nm), inv); });
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
