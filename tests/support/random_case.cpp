#include "support/random_case.hpp"

#include <algorithm>
#include <cstdlib>

#include "support/reference.hpp"

namespace sxt {

uint64_t Rng::next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double Rng::uniform(double lo, double hi) {
    return lo + (hi - lo) * (double(next() >> 11) * (1.0 / 9007199254740992.0));
}

int64_t Rng::range(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }

uint64_t test_seed(uint64_t salt) {
    uint64_t base = 20240607;
    if (const char* e = std::getenv("SIMDAX_TEST_SEED")) base = std::strtoull(e, nullptr, 10);
    return base * 1000003ull + salt;
}

std::vector<int64_t> random_shape(Rng& rng, int rank, int64_t max_elements) {
    static const std::vector<int64_t> awkward{1, 3, 7, 15, 17, 31, 33, 63, 65};
    std::vector<int64_t> s(static_cast<size_t>(rank));
    for (auto& v : s) {
        const double u = rng.uniform(0, 1);
        v = u < 0.6 ? rng.range(1, 4) : u < 0.85 ? rng.range(5, 12) : rng.pick(awkward);
    }
    while (element_count(s) > max_elements) {
        auto it = std::max_element(s.begin(), s.end());
        *it = std::max<int64_t>(1, *it / 2);
    }
    return s;
}

std::vector<uint32_t> random_axes(Rng& rng, int rank) {
    std::vector<uint32_t> axes;
    const int64_t kind = rng.range(0, 3);
    if (kind == 0 || rank == 1) {  // single
        axes.push_back(uint32_t(rng.range(0, rank - 1)));
    } else if (kind == 1) {  // adjacent run
        const int64_t a = rng.range(0, rank - 1), b = rng.range(a, rank - 1);
        for (int64_t d = a; d <= b; ++d) axes.push_back(uint32_t(d));
    } else if (kind == 2) {  // random subset, usually with holes
        for (int d = 0; d < rank; ++d)
            if (rng.chance(0.5)) axes.push_back(uint32_t(d));
        if (axes.empty()) axes.push_back(uint32_t(rng.range(0, rank - 1)));
    } else {  // all
        for (int d = 0; d < rank; ++d) axes.push_back(uint32_t(d));
    }
    if (rng.chance(0.5))  // order must not matter
        for (size_t i = axes.size(); i > 1; --i)
            std::swap(axes[i - 1], axes[size_t(rng.range(0, int64_t(i) - 1))]);
    return axes;
}

Layout random_layout(Rng& rng, const std::vector<int64_t>& sizes, Role role) {
    Layout l;
    const size_t r = sizes.size();
    if (rng.chance(0.5)) {
        l.pad_front = rng.range(0, 40);
        l.pad_back = rng.range(0, 40);
    }
    l.guard_front = rng.chance(0.3);
    const double u = rng.uniform(0, 1);
    if (u < 0.3) return l;  // packed, NULL strides
    if (u < 0.4) {          // packed, written out
        l.strides = packed_strides(sizes);
        return l;
    }
    // Nested layout in a random dimension order: each stride steps past
    // everything the inner dims reach, plus an optional gap.
    std::vector<size_t> perm(r);
    for (size_t i = 0; i < r; ++i) perm[i] = i;
    for (size_t i = r; i > 1; --i) std::swap(perm[i - 1], perm[size_t(rng.range(0, int64_t(i) - 1))]);
    l.strides.assign(r, 0);
    int64_t inner_span = 1;
    for (size_t j = r; j-- > 0;) {
        const size_t d = perm[j];
        const int64_t gap = rng.chance(0.3) ? rng.range(1, 3) : 0;
        l.strides[d] = inner_span + gap;
        inner_span += (sizes[d] - 1) * l.strides[d];
    }
    for (auto& s : l.strides)
        if (rng.chance(0.2)) s = -s;  // reversed dims stay non-overlapping
    if (role == Role::Input) {
        for (size_t d = 0; d < r; ++d)
            if (sizes[d] > 1 && rng.chance(0.15)) l.strides[d] = 0;  // broadcast
        if (r >= 2 && rng.chance(0.05))
            l.strides[size_t(rng.range(0, int64_t(r) - 1))] = 1;  // sliding window
    }
    return l;
}

TensorBuffer make_buffer(simdax_dtype dt, const std::vector<int64_t>& sizes, const Layout& l, Role role) {
    return TensorBuffer(dt, sizes, l.strides, role, l.pad_front, l.pad_back, l.guard_front);
}

std::optional<simdax_epsilon_placement> random_epsilon_placement(Rng& rng) {
    const int64_t k = rng.range(0, 2);
    if (k == 0) return std::nullopt;
    return k == 1 ? SIMDAX_EPSILON_ON_VARIANCE : SIMDAX_EPSILON_ON_STDDEV;
}

simdax_activation_desc spec_default_activation(simdax_activation_type t) {
    simdax_activation_desc a{t, 0.f, 0.f, 0.f};
    switch (t) {
        case SIMDAX_ACTIVATION_LEAKY_RELU: a.alpha = 0.01f; break;
        case SIMDAX_ACTIVATION_ELU:
        case SIMDAX_ACTIVATION_CELU:
        case SIMDAX_ACTIVATION_SOFTPLUS:
        case SIMDAX_ACTIVATION_THRESHOLDED_RELU: a.alpha = 1.f; break;
        case SIMDAX_ACTIVATION_SCALED_ELU:
            a.alpha = 1.67326319f;
            a.gamma = 1.05070102f;
            break;
        case SIMDAX_ACTIVATION_HARD_SIGMOID:
            a.alpha = 0.2f;
            a.beta = 0.5f;
            break;
        case SIMDAX_ACTIVATION_SCALED_TANH:
        case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS:
            a.alpha = 1.f;
            a.beta = 1.f;
            break;
        case SIMDAX_ACTIVATION_SHRINK:
            a.alpha = 0.f;  // bias
            a.beta = 0.5f;  // threshold
            break;
        default: break;
    }
    return a;
}

const char* spec_activation_name(simdax_activation_type t) {
    static const char* const names[SIMDAX_ACTIVATION_COUNT] = {"identity",
                                                               "linear",
                                                               "relu",
                                                               "leaky_relu",
                                                               "elu",
                                                               "celu",
                                                               "scaled_elu",
                                                               "sigmoid",
                                                               "hard_sigmoid",
                                                               "tanh",
                                                               "scaled_tanh",
                                                               "softplus",
                                                               "parametric_softplus",
                                                               "softsign",
                                                               "thresholded_relu",
                                                               "shrink",
                                                               "gelu"};
    const int i = int(t);
    return i >= 0 && i < SIMDAX_ACTIVATION_COUNT ? names[i] : "unknown";
}

simdax_activation_desc random_activation(Rng& rng, simdax_activation_type t) {
    if (t != SIMDAX_ACTIVATION_LINEAR && rng.chance(0.3)) return spec_default_activation(t);
    simdax_activation_desc a{t, 0.f, 0.f, 0.f};
    auto u = [&](double lo, double hi) { return float(rng.uniform(lo, hi)); };
    switch (t) {
        case SIMDAX_ACTIVATION_LINEAR:
            a.alpha = u(-2, 2);
            a.beta = u(-1, 1);
            break;
        case SIMDAX_ACTIVATION_LEAKY_RELU: a.alpha = u(0, 0.5); break;
        case SIMDAX_ACTIVATION_ELU: a.alpha = u(0.1, 2); break;
        case SIMDAX_ACTIVATION_CELU: a.alpha = u(0.25, 2); break;
        case SIMDAX_ACTIVATION_SCALED_ELU:
            a.alpha = u(0.5, 2);
            a.gamma = u(0.5, 2);
            break;
        case SIMDAX_ACTIVATION_HARD_SIGMOID:
            a.alpha = u(-1, 1);
            a.beta = u(-0.5, 1.5);
            break;
        case SIMDAX_ACTIVATION_SCALED_TANH:
            a.alpha = u(0.2, 2);
            a.beta = u(0.2, 2);
            break;
        case SIMDAX_ACTIVATION_SOFTPLUS: a.alpha = u(0.25, 3); break;
        case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS:
            a.alpha = u(0.25, 2);
            a.beta = u(0.25, 2);
            break;
        case SIMDAX_ACTIVATION_THRESHOLDED_RELU: a.alpha = u(-1, 2); break;
        case SIMDAX_ACTIVATION_SHRINK:
            a.alpha = u(0, 1);
            a.beta = u(0, 1.5);
            break;
        default: break;
    }
    return a;
}

}  // namespace sxt
