// A chunked MVN group's arguments for the normalize slot, from the group's
// combined statistics: 1 / divisor (operators/mvn/mvn_divisor.hpp), and for a
// group the fast normalisation does not suit, those of the wide evaluation
// (operators/mvn/mvn_wide.hpp). Called by dispatch once per group, so compiled
// with the baseline flags: no ISA intrinsics here.
#pragma once

#include <cstddef>
#include <cstring>

#include "kernel_table.hpp"
#include "mvn/mvn_divisor.hpp"
#include "mvn/mvn_wide.hpp"

namespace simdax::kernels {

// Internal linkage, as operators/mvn/mvn_wide.hpp.
namespace {

// The statistics in double suit float compute types as they are; float64
// statistics outside the fast range are redone in long double over the
// whole group. visit_group(f) calls f(x, n) for each piece of the group in
// order: x its n float64 values, at any alignment.
template <class VisitGroup>
NormArgs group_norm_args(const Moments& m, DType dtype, const VarianceNorm& vn, const ActParams& act,
                         VisitGroup&& visit_group) {
    NormArgs a{m.mean, inv_divisor(m.m2 / m.count, vn), nullptr, 0, nullptr, 0, act, false, 0, 0};
    if (dtype != DType::f64) {
        if (!fits_fast_path<float>(m.mean, m.m2, m.count, vn))
            set_wide(&a, WideMoments<double>{m.mean, m.m2}, m.count, vn);
        return a;
    }
    if (fits_fast_path<double>(m.mean, m.m2, m.count, vn)) return a;
    const WideFpScope<long double> fp;
    const auto w = wide_moments<long double>([&](auto f) {
        visit_group([&](const void* x, size_t n) {
            const char* xb = static_cast<const char*>(x);
            for (size_t i = 0; i < n; ++i) {
                double v;
                std::memcpy(&v, xb + i * sizeof(double), sizeof v);
                f(v);
            }
        });
    });
    set_wide(&a, w, m.count, vn);
    return a;
}

}  // namespace
}  // namespace simdax::kernels
