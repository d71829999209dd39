// MVN's chunk statistics (the moments slot): a piece of a group folded into
// its running Moments, L1-sized block by block. Per block, sums shifted by
// the block's first element (block_sums.hpp); a second pass around the block
// mean only when that element lies far from it. Block (count, mean, M2) are
// folded into the state in double (Chan et al.), so a float32 group with
// mean 1e4 and std 1 keeps its digits. Float blocks whose float sums cannot
// be trusted (is_huge, is_tiny) are summed in double instead.
#pragma once

#include "kernel_table.hpp"
#include "mvn/mvn_wide.hpp"
#include "mvn/simd/block_sums.hpp"

namespace simdax::kernels::SIMDAX_KERNEL_ISA {

template <class T>
void moments(const void* xv, size_t n, Moments* st) {
    const VecScope scope;
    using V = Vec<T>;
    using E = typename V::E;
    using R = typename V::R;
    const T* x = static_cast<const T*>(xv);
    for (size_t b = 0; b < n; b += kMomentsBlock) {
        const size_t nb = n - b < kMomentsBlock ? n - b : kMomentsBlock;
        const T* xb = x + b;
        const E shift = to_e(xb[0]);
        const R sh = V::set1(shift);
        const BlockSums<T> bs = shifted_block_sums<T, true>(xb, nb, sh, nullptr, nullptr, 0);
        const auto in_double = [&] {
            const auto w = wide_moments_n<double>(nb, [&](size_t q) { return to_e(xb[q]); });
            chan_combine(st, double(nb), w.mean, w.m2);
        };
        const E amax = V::hmax(bs.am);
        if (is_huge<T>(amax)) {
            in_double();
            continue;
        }
        const E sd = V::hsum(bs.s);
        const E sq = V::hsum(bs.q);
        double m2_one;
        if (one_pass_m2<T>(sd, sq, 1.0 / double(nb), &m2_one) && !is_tiny<T>(amax, E(m2_one))) {
            chan_combine(st, double(nb), double(shift) + double(sd) / double(nb), m2_one);
            continue;
        }
        const E dm = sd / E(nb);
        // Around the block mean: e = (x - x[b]) - mean_d, two roundings as
        // the one-pass sums (exact near the mean).
        const BlockSums<T> bs2 =
            shifted_block_sums<T, false, Shift::two>(xb, nb, sh, nullptr, nullptr, 0, V::set1(dm));
        const E c2f = V::hsum(bs2.q);
        if (is_tiny<T>(amax, c2f)) {
            in_double();
            continue;
        }
        const double c1 = double(V::hsum(bs2.s));
        const double c2 = double(c2f);
        const double dn = double(nb);
        chan_combine(st, dn, double(shift) + (double(dm) + c1 / dn), c2 - c1 * c1 / dn);
    }
}

}  // namespace simdax::kernels::SIMDAX_KERNEL_ISA
