// MVN's row statistics (for the mvn_rows slot), in the compute type: pass A
// sums d = x - s and d^2, s = x[0] for a float row; a float16/bfloat16 row
// kept in L1 as float takes s = 0 (its pass A is bound by vector
// operations, not memory: one subtraction less per element). Only when s
// lies far from the mean (one_pass_m2 fails) does pass B sum e = x - s' and
// e^2 around s' = s + mean(d). The mean is carried as the pair (s,
// sum(e)/n). A row whose statistics do not suit the fast path gets the
// wider type's instead (kernels/mvn_wide.hpp). A float16/bfloat16 row's
// float copy holds its deviations (d, or e after pass B), which its output
// reads as they are, the mean folded into the output's FMA.
#pragma once

#include <cmath>

#include "kernel_table.hpp"
#include "mvn_wide.hpp"
#include "simd/mvn/block_sums.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <class E>
struct RowMoments {
    E mh, ml, inv;  // mean = mh + ml; 1 / divisor
    bool wide;      // outside the fast range: normalise with `norm` (kernels/mvn_wide.hpp)
    WideNorm<WideOf<E>> norm;
};

// Sums of e = x - sh (S: shifted_block_sums) and of e^2 over a row, block
// by block (copy, pfw: as shifted_block_sums). Always inlined: GCC kept the
// first call out of line, its sums returned through memory, once per row.
template <class T, Shift S = Shift::one>
SIMDAX_INLINE void row_sums(const T* x, size_t n, typename Vec<T>::E sh, typename Vec<T>::E& s1,
                            typename Vec<T>::E& s2, const void* pfw = nullptr, size_t pfw_esize = 0,
                            typename Vec<T>::E* copy = nullptr) {
    using V = Vec<T>;
    using R = typename V::R;
    const R vs = V::set1(sh);
    R t1 = V::zero(), t2 = V::zero();
    for (size_t b = 0; b < n; b += kMomentsBlock) {
        const size_t nb = n - b < kMomentsBlock ? n - b : kMomentsBlock;
        const BlockSums<T> bs = shifted_block_sums<T, false, S>(
            x + b, nb, vs, copy ? copy + b : nullptr,
            pfw ? static_cast<const char*>(pfw) + b * pfw_esize : nullptr, pfw_esize);
        t1 = V::add(t1, bs.s);
        t2 = V::add(t2, bs.q);
    }
    s1 = V::hsum(t1);
    s2 = V::hsum(t2);
}

// Pass A over one row: the sums of d = x - x0 and d^2.
template <class E>
struct RowSums {
    E x0, c1, q;
};

// copy: as row_sums (float16/bfloat16 rows short enough to keep in L1);
// with a copy, x0 = 0.
template <class T>
SIMDAX_INLINE RowSums<typename Vec<T>::E> row_pass_a(const T* x, size_t n, const void* y, size_t y_esize,
                                                     typename Vec<T>::E* copy) {
    RowSums<typename Vec<T>::E> r;
    if (copy) {
        r.x0 = 0;
        row_sums<T, Shift::none>(x, n, r.x0, r.c1, r.q, y, y_esize, copy);
    } else {
        r.x0 = to_e(x[0]);
        row_sums<T>(x, n, r.x0, r.c1, r.q, y, y_esize);
    }
    return r;
}

// The row's moments from pass A's sums (x, copy: the row pass A read;
// inv_n = 1/n: multiplications instead of divisions in the chain from the
// sums to 1/divisor, which the row's output waits for).
template <class T>
inline RowMoments<typename Vec<T>::E> row_moments(const T* x, size_t n, double inv_n, const MvnArgs& a,
                                                  const RowSums<typename Vec<T>::E>& sums,
                                                  typename Vec<T>::E* copy) {
    using E = typename Vec<T>::E;
    const E x0 = sums.x0;
    E c1 = sums.c1, q = sums.q;
    E s = x0, ml = c1 / E(n);
    double m2;
    if (!one_pass_m2<T>(c1, q, inv_n, &m2)) {  // x0 far from the mean (or NaN): around s
        s = x0 + ml;
        if (copy) row_sums<E>(copy, n, ml, c1, q, nullptr, 0, copy);  // in place: e = d - ml
        else row_sums<T>(x, n, s, c1, q);
        ml = c1 / E(n);
        m2 = double(q) - double(c1) * double(ml);
    }
    RowMoments<E> m{};
    // The mean from c1 in double: ml (c1 / n in E) underflows to 0 for a
    // row of zeros and a few subnormals, which must not pass as all zeros.
    if (std::isfinite(q) && std::isfinite(c1) &&
        fits_fast_path_var<E>(double(s) + double(c1) * inv_n, m2, m2 * inv_n, a.vn)) {
        m.mh = s;
        m.ml = ml;
        m.inv = E(inv_divisor(m2 * inv_n, a.vn));
        return m;
    }
    // Huge magnitudes, an infinity or NaN, a variance below E's reach.
    m.wide = true;
    const WideFpScope<WideOf<E>> fp;
    m.norm = wide_norm(wide_moments_n<WideOf<E>>(n, [&](size_t i) { return to_e(x[i]); }), double(n), a.vn);
    return m;
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
