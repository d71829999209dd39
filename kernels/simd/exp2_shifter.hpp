// The exp2_split of vector traits without a native one (AVX2, NEON; see
// exp2_f32.hpp): n = rint(t) by the 1.5*2^23 shifter, which leaves n in the
// low bits of k; f = t - n in [-1/2, 1/2]. t is clamped to -126 first (NaN
// kept), so each traits' exp2_scale can add n to the exponent field of p.
#pragma once

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <class V>
inline typename V::R exp2_split_by_shifter(typename V::R t, typename V::R& f) {
    t = V::max(V::set1(-126.0f), t);
    const typename V::R k = V::add(t, V::set1(0x1.8p23f));
    f = V::sub(t, V::sub(k, V::set1(0x1.8p23f)));
    return k;
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
