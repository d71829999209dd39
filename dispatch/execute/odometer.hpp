// Walks a set of dimensions in row-major order, keeping every operand's
// element offset; can start anywhere (seek) so work can be split.
#pragma once

#include "plan.hpp"

namespace simdax {

inline int64_t count(const Dims& d) {
    int64_t c = 1;
    for (int i = 0; i < d.n; ++i) c *= d.size[i];
    return c;
}

// Input, output, scale and bias are always walked, in a loop of constant
// length (vectorized); the operands after them only when the plan has one.
constexpr int kFirstOperands = kBias + 1;

template <class F>
inline void for_each_walked(const Dims& d, F f) {
    for (int o = 0; o < kFirstOperands; ++o) f(o);
    for (int o = kFirstOperands; o < d.ops; ++o) f(o);
}

struct Odometer {
    const Dims& d;
    int64_t idx[SIMDAX_MAX_RANK] = {};
    int64_t off[kOperands];  // the walked operands' (for_each_walked); the rest are never read

    explicit Odometer(const Dims& dims, int64_t start = 0) : d(dims) {
        for_each_walked(d, [&](int o) { off[o] = 0; });
        for (int i = d.n - 1; i >= 0 && start > 0; --i) {
            idx[i] = start % d.size[i];
            start /= d.size[i];
            for_each_walked(d, [&](int o) { off[o] += idx[i] * d.stride[o][i]; });
        }
    }

    // Steps m positions along the innermost dim; m must not pass its end
    // by more than the carry into the next dim (m <= size - idx).
    void advance_inner(int64_t m) {
        if (d.n == 0 || m <= 0) return;
        const int last = d.n - 1;
        for_each_walked(d, [&](int o) { off[o] += (m - 1) * d.stride[o][last]; });
        idx[last] += m - 1;
        next();
    }

    int64_t inner_left() const { return d.n == 0 ? 1 : d.size[d.n - 1] - idx[d.n - 1]; }

    void next() {
        for (int i = d.n - 1; i >= 0; --i) {
            for_each_walked(d, [&](int o) { off[o] += d.stride[o][i]; });
            if (++idx[i] < d.size[i]) return;
            for_each_walked(d, [&](int o) { off[o] -= d.stride[o][i] * d.size[i]; });
            idx[i] = 0;
        }
    }
};

}  // namespace simdax
