// MVN's row statistics (for the mvn_rows slot), in the compute type: pass A
// sums d = x - s and d^2, s = x[0] for a float row; a float16/bfloat16 row
// kept in L1 as float takes s = 0 (its pass A is bound by vector
// operations, not memory: one subtraction less per element), and so does a
// pass A carried by a long row's output (PassASteps). Only when s
// lies far from the mean (one_pass_m2 fails) does pass B sum e = x - s' and
// e^2 around s' = s + mean(d). The mean is carried as the pair (s,
// sum(e)/n). A row whose statistics do not suit the fast path gets the
// wider type's instead (operators/mvn/mvn_wide.hpp). A float16/bfloat16 row's
// float copy holds its deviations (d, or e after pass B), which its output
// reads as they are, the mean folded into the output's FMA.
#pragma once

#include <cmath>

#include "kernel_table.hpp"
#include "mvn/mvn_wide.hpp"
#include "mvn/simd/block_sums.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <class E>
struct RowMoments {
    E mh, ml, inv;  // mean = mh + ml; 1 / divisor
    bool wide;      // outside the fast range: normalise with `norm` (operators/mvn/mvn_wide.hpp)
    WideNorm<WideOf<E>> norm;
};

// Sums of e = x - sh and of e^2 over a row, block by block (copy, pfw: as
// shifted_block_sums). Always inlined: GCC kept the first call out of line,
// its sums returned through memory, once per row.
template <class T>
SIMDAX_INLINE void row_sums(const T* x, size_t n, typename Vec<T>::E sh, typename Vec<T>::E& s1,
                            typename Vec<T>::E& s2, const void* pfw = nullptr, size_t pfw_esize = 0,
                            typename Vec<T>::E* copy = nullptr) {
    using V = Vec<T>;
    using R = typename V::R;
    const R vs = V::set1(sh);
    R t1 = V::zero(), t2 = V::zero();
    for (size_t b = 0; b < n; b += kMomentsBlock) {
        const size_t nb = n - b < kMomentsBlock ? n - b : kMomentsBlock;
        const BlockSums<T> bs = shifted_block_sums<T, false>(
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

// A row without a float copy (y, y_esize: as row_sums' pfw).
template <class T>
SIMDAX_INLINE RowSums<typename Vec<T>::E> row_pass_a(const T* x, size_t n, const void* y, size_t y_esize) {
    RowSums<typename Vec<T>::E> r;
    r.x0 = to_e(x[0]);
    row_sums<T>(x, n, r.x0, r.c1, r.q, y, y_esize);
    return r;
}

// Pass A of a row (x0 = 0; copy: its float copy, or null), four vectors a
// step, so that another row's loop can carry it: mvn_rows runs the next
// batch's pass A inside this batch's output loops, where its loads and the
// output's streaming stores share the memory's time instead of taking turns.
// Element j always lands in the same lane of the same sum, in the same
// order, however many steps the carrying loop took: a row's statistics do
// not depend on which row carried its pass A (or on the thread split).
// A carrying loop works on a local copy (its sums then stay in registers)
// taken and put back member by member: a block copy of the struct reads
// 64 bytes over fields just stored one by one, which fails store forwarding.
template <class T>
struct PassASteps {
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    static constexpr size_t kStep = 4 * V::N;
    const T* x;
    E* copy;
    const char* pfw;  // the row's output, prefetched for writing (or null)
    size_t n, j = 0;
    R a0 = V::zero(), a1 = V::zero(), a2 = V::zero(), a3 = V::zero();  // sums of x
    R q0 = V::zero(), q1 = V::zero(), q2 = V::zero(), q3 = V::zero();  // sums of x^2

    SIMDAX_INLINE PassASteps copied() const {
        PassASteps c{x, copy, pfw, n};
        c.j = j;
        c.a0 = a0, c.a1 = a1, c.a2 = a2, c.a3 = a3;
        c.q0 = q0, c.q1 = q1, c.q2 = q2, c.q3 = q3;
        return c;
    }
    SIMDAX_INLINE void put_back(const PassASteps& c) {
        j = c.j;
        a0 = c.a0, a1 = c.a1, a2 = c.a2, a3 = c.a3;
        q0 = c.q0, q1 = c.q1, q2 = c.q2, q3 = c.q3;
    }
    SIMDAX_INLINE void step() {
        if (j + kStep > n) return;
        if (pfw) prefetch_row(pfw + j * sizeof(T), kStep * sizeof(T), true);
        R v[4];
        load4(x, j, copy, v);
        a0 = V::add(a0, v[0]), a1 = V::add(a1, v[1]), a2 = V::add(a2, v[2]), a3 = V::add(a3, v[3]);
        q0 = V::fma(v[0], v[0], q0), q1 = V::fma(v[1], v[1], q1);
        q2 = V::fma(v[2], v[2], q2), q3 = V::fma(v[3], v[3], q3);
        j += kStep;
    }
    // The steps the carrying loop did not take, the tail; the row's sums.
    SIMDAX_INLINE RowSums<E> finish() {
        while (j + kStep <= n) step();
        if (j < n) {
            const BlockSums<T> t =
                shifted_block_sums<T, false, Shift::none>(x + j, n - j, V::zero(), copy ? copy + j : nullptr,
                                                          pfw ? pfw + j * sizeof(T) : nullptr, sizeof(T));
            if (n < kStep) return {E(0), V::hsum(t.s), V::hsum(t.q)};  // no step: the tail's sums alone
            a0 = V::add(a0, t.s);
            q0 = V::add(q0, t.q);
        }
        const R s = V::add(V::add(a0, a1), V::add(a2, a3)), q = V::add(V::add(q0, q1), V::add(q2, q3));
        return {E(0), V::hsum(s), V::hsum(q)};
    }
};

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
        if (copy)
            row_sums<E>(copy, n, ml, c1, q, nullptr, 0, copy);  // in place: e = d - ml
        else
            row_sums<T>(x, n, s, c1, q);
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
