// 2^t on float vectors for t <= ~0: the core of the softmax paths, where
// t = (x - max) * log2(e) comes out of one FMA (simd/softmax/blocks.hpp).
//
// 2^t = 2^f * 2^k with the split of the vector traits (exp2_split: f in
// [0, 1] on AVX-512, one VREDUCEPS; f in [-1/2, 1/2] on AVX2, the shifter
// trick), 2^f by a degree-5 polynomial fitted for minimax relative error on
// the interval of f (Remez, mpmath: 7.5e-8 before float rounding; about 2e-7
// = 3 ulp measured with Horner in float), then exp2_scale.
//
// Special values: NaN -> NaN, -inf -> 0. With V::kExp2Exact (AVX-512)
// results round once into subnormals; otherwise (AVX2, NEON) t < -126.5
// gives exactly 0.
#pragma once

#include "simd/vec.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

namespace exp2f32 {
// 2^f on [0, 1], ascending powers.
constexpr float kF[6] = {0x1.fffffep-1f, 0x1.62e4f6p-1f, 0x1.ebd5a8p-3f,
                         0x1.c95446p-5f, 0x1.26900cp-7f, 0x1.ec320ap-10f};
// 2^f on [-1/2, 1/2].
constexpr float kC[6] = {0x1.000002p+0f, 0x1.62e428p-1f, 0x1.ebf918p-3f,
                         0x1.c6b6e4p-5f, 0x1.3d0c52p-7f, 0x1.5c08e6p-10f};
// Degree 4 (relative error 2.6e-6, 2.7e-6 measured in float): for sums whose
// error only enters through a log (LogSoftmax: an absolute 2.7e-6 of docs/spec.md's
// 1e-5), one FMA less per element.
constexpr float kF4[5] = {0x1.00002cp+0f, 0x1.62d166p-1f, 0x1.ee798ap-3f, 0x1.aa13f0p-5f, 0x1.bb7cd4p-7f};
constexpr float kC4[5] = {0x1.ffffe8p-1f, 0x1.62e0dcp-1f, 0x1.ec06dap-3f, 0x1.ca1440p-5f, 0x1.3997d6p-7f};
// Degree 3 with 2^0 = 1 exact (relative error 1.03e-4 on [0, 1], 1.01e-4
// on [-1/2, 1/2], Remez with the constant pinned): for float16/bfloat16.
// Softmax's e_i / sum is then off by at most twice that plus float
// rounding, below the 2^-11 (float16) or 2^-8 (bfloat16) relative error
// that keeps the rounded output within 1 ulp. LogSoftmax's max term is
// 2^lo, lo the fold's remainder: the pinned constant leaves it off by the
// slope error (0.0023 on [0, 1]) times lo, below 3e-7 of float32's 1e-5
// next to 0 while |lo| <= 2^-13 (blocks.hpp, the fold limit of degree 3).
constexpr float kF3[4] = {0x1p+0f, 0x1.640ea8p-1f, 0x1.cf7a66p-3f, 0x1.4095eap-4f};
constexpr float kC3[4] = {0x1p+0f, 0x1.62f5f8p-1f, 0x1.f00c84p-3f, 0x1.c2a530p-5f};
constexpr float kLog2e = 0x1.715476p+0f;

// The coefficients of degree DEG for the split of VF.
template <int DEG>
constexpr const float* coeffs() {
    static_assert(DEG >= 3 && DEG <= 5);
    if constexpr (DEG == 3)
        return VF::kExp2FloorFrac ? kF3 : kC3;
    else if constexpr (DEG == 4)
        return VF::kExp2FloorFrac ? kF4 : kC4;
    else
        return VF::kExp2FloorFrac ? kF : kC;
}
}  // namespace exp2f32

// 2^f for the f of exp2_split.
template <int DEG>
SIMDAX_INLINE VF::R exp2_poly(VF::R f) {
    const float* const c = exp2f32::coeffs<DEG>();
    VF::R p = VF::set1(c[DEG]);
    SIMDAX_UNROLL for (int j = DEG - 1; j >= 0; --j) p = VF::fma(p, f, VF::set1(c[j]));
    return p;
}

template <int DEG = 5>
SIMDAX_INLINE VF::R exp2_nonpos_f32(VF::R t) {
    VF::R f;
    const VF::R k = VF::exp2_split(t, f);
    return VF::exp2_scale(exp2_poly<DEG>(f), k);
}

// s + 2^t, for sum passes: the scale and the add are one FMA on AVX2 and
// NEON. There t < -125 counts as -125, far below the rounding of a sum of
// at least 1.
template <int DEG = 5>
SIMDAX_INLINE VF::R exp2_nonpos_add_f32(VF::R t, VF::R s) {
    VF::R f;
    const VF::R k = VF::template exp2_split<-125>(t, f);
    return VF::exp2_scale_add(exp2_poly<DEG>(f), k, s);
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
