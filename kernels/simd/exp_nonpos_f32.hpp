// exp(x) for x <= 0 (or NaN): the softmax paths, where x = value - max.
// Cheaper than exp_f32.hpp, which the accuracy of LogSoftmax/Softmax allows:
// n = rint(x*log2e) by the 1.5*2^23 shifter, one-constant reduction
// r = x - n*ln2 (error n*2e-9, relevant only for terms below e^-40), and a
// degree-5 polynomial 1 + r + r^2*q(r), q a degree-3 Chebyshev fit
// (relative error 4e-7, about 7 ulp). -inf -> 0, NaN -> NaN.
// AVX-512: scalef makes subnormal results round once. AVX2 and NEON: 2^n is built in
// one step, so results below 2^-126 (x < -87.34) are returned as 0; the
// float32 bound of docs/spec.md (atol 1e-6) covers them for every dtype.
#pragma once

#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

namespace expnp32 {
constexpr float kLog2e = 0x1.715476p+0f;
constexpr float kLn2 = 0x1.62e430p-1f;
constexpr float kShifter = 0x1.8p23f;
constexpr float kQ0 = 0x1.ffff58p-2f, kQ1 = 0x1.555526p-3f, kQ2 = 0x1.56b3d8p-5f,
                kQ3 = 0x1.11d946p-7f;
}  // namespace expnp32

SIMDAX_INLINE VF::R exp_nonpos_f32(VF::R x) {
    using namespace expnp32;
#if defined(__AVX512F__)
    x = VF::max(VF::set1(-104.0f), x);  // NaN kept (second operand)
#else
    const VF::R x0 = x;
    x = VF::max(VF::set1(-87.33654f), x);
#endif
    const VF::R t = VF::fma(x, VF::set1(kLog2e), VF::set1(kShifter));
    const VF::R n = VF::sub(t, VF::set1(kShifter));
    const VF::R r = VF::fnma(n, VF::set1(kLn2), x);
    VF::R p = VF::fma(VF::set1(kQ3), r, VF::set1(kQ2));
    p = VF::fma(p, r, VF::set1(kQ1));
    p = VF::fma(p, r, VF::set1(kQ0));
    p = VF::fma(p, r, VF::set1(1.0f));
    p = VF::fma(p, r, VF::set1(1.0f));
#if defined(__AVX512F__)
    return VF::ldexp(p, n);
#elif defined(__aarch64__)
    const VF::R y = VF::mul(p, VF::pow2_shifted(t));
    // Below -87.34 (and -inf): 0; NaN lanes stay (x0 < c is false for NaN).
    return vreinterpretq_f32_u32(
        vbicq_u32(vreinterpretq_u32_f32(y), VF::lt(x0, VF::set1(-87.33654f))));
#else
    // t holds n in its low mantissa bits: (bits(t) + 127) << 23 = 2^n.
    const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_castps_si256(t), _mm256_set1_epi32(127)), 23);
    const VF::R y = VF::mul(p, _mm256_castsi256_ps(e));
    // Below -87.34 (and -inf): 0. NaN lanes stay (unordered compare is true).
    return _mm256_and_ps(y, _mm256_cmp_ps(x0, VF::set1(-87.33654f), _CMP_NLT_UQ));
#endif
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
