// How one MVN row reads its Scale or Bias (element e of row g at
// p[g*rs + e*ks]): a constant (absent or ks = 0), contiguous compute-type
// values, or anything else. Decided once per row (row_scale_bias); each way
// is a small access type so the rows kernel's loops are compiled for each
// pair (with_access) and read scale and bias inline.
#pragma once

#include <type_traits>

#include "mvn/simd/scale_bias_act.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

enum class RowAccess { constant, contiguous, strided };

template <class T>
struct RowScaleBias {
    using E = typename Vec<T>::E;
    RowAccess access = RowAccess::constant;
    E c = 0;                // constant: the value
    const E* pe = nullptr;  // contiguous: compute-type values
    const T* p = nullptr;   // strided: p[e*ks]
    ptrdiff_t ks = 0;
};

// Row g's Scale or Bias; `absent` when base is null. pre: the shared
// contiguous float16/bfloat16 values converted once per call, if any.
template <class T>
inline RowScaleBias<T> row_scale_bias(const void* base, ptrdiff_t rs, ptrdiff_t ks, size_t g,
                                      typename Vec<T>::E absent, const typename Vec<T>::E* pre) {
    using E = typename Vec<T>::E;
    RowScaleBias<T> r;
    if (!base) {
        r.c = absent;
        return r;
    }
    const T* p = static_cast<const T*>(base) + ptrdiff_t(g) * rs;
    if (ks == 0) {
        r.c = to_e(p[0]);
        return r;
    }
    if (pre) {
        r.access = RowAccess::contiguous;
        r.pe = pre;
    } else if (ks == 1 && std::is_same_v<T, E>) {
        r.access = RowAccess::contiguous;
        r.pe = reinterpret_cast<const E*>(p);
    } else {
        r.access = RowAccess::strided;
        r.p = p;
        r.ks = ks;
    }
    return r;
}

// The access types: at(i, cnt) the values of elements [i, i+cnt) as a
// vector (missing lanes 0), value(i) element i in double.
template <class T>
struct ConstantAccess {
    static constexpr bool kConstant = true;
    // The scalar only: a vector member pads the struct, and the output
    // loop's copy of it (by value) read the padding with a whole-vector
    // load after a 4-byte store, which waits for the store buffer to
    // drain (the previous row's streamed stores).
    typename Vec<T>::E c;
    typename Vec<T>::R at(size_t, size_t) const { return Vec<T>::set1(c); }
    double value(size_t) const { return double(c); }
};

template <class T>
struct ContiguousAccess {
    static constexpr bool kConstant = false;
    const typename Vec<T>::E* p;
    typename Vec<T>::R at(size_t i, size_t cnt) const {
        using V = Vec<T>;
        return cnt == V::N ? V::load(p + i) : V::loadn(p + i, cnt, V::zero());
    }
    double value(size_t i) const { return double(p[i]); }
};

template <class T>
struct StridedAccess {
    static constexpr bool kConstant = false;
    const T* p;
    ptrdiff_t ks;
    typename Vec<T>::R at(size_t i, size_t cnt) const { return load_scale_bias(p, ks, i, cnt); }
    double value(size_t i) const { return double(to_e(p[ptrdiff_t(i) * ks])); }
};

// f(access) with r's access type.
template <class T, class F>
SIMDAX_INLINE void with_access(const RowScaleBias<T>& r, F&& f) {
    switch (r.access) {
        case RowAccess::constant: f(ConstantAccess<T>{r.c}); break;
        case RowAccess::contiguous: f(ContiguousAccess<T>{r.pe}); break;
        case RowAccess::strided: f(StridedAccess<T>{r.p, r.ks}); break;
    }
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
