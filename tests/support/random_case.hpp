// Deterministic random generators for shapes, axis sets, memory layouts and
// activation parameters. The seed is fixed (SIMDAX_TEST_SEED overrides it to
// explore; failure reports print the case so it reproduces either way).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "support/tensor_buffer.hpp"

namespace sxt {

// splitmix64: tiny, portable, same sequence on every platform and library.
class Rng {
public:
    explicit Rng(uint64_t seed) : s_(seed) {}
    uint64_t next();
    double uniform(double lo, double hi);   // [lo, hi)
    int64_t range(int64_t lo, int64_t hi);  // [lo, hi]
    bool chance(double p) { return uniform(0, 1) < p; }
    template <class T>
    const T& pick(const std::vector<T>& v) {
        return v[size_t(range(0, int64_t(v.size()) - 1))];
    }

private:
    uint64_t s_;
};

uint64_t test_seed(uint64_t salt);  // fixed base seed (or SIMDAX_TEST_SEED) mixed with salt

// Sizes of the given rank with at most max_elements elements (no zero size).
std::vector<int64_t> random_shape(Rng& rng, int rank, int64_t max_elements);

// A non-empty axis set: single, adjacent run, non-adjacent, or all;
// listed in a shuffled order half of the time.
std::vector<uint32_t> random_axes(Rng& rng, int rank);

// Where a tensor sits in memory.
struct Layout {
    std::vector<int64_t> strides;  // empty = packed (NULL strides)
    int64_t pad_front = 0, pad_back = 0;
    bool guard_front = false;
};
// Packed; or nested in a permuted dimension order with gaps and sign flips
// (never self-overlapping). Inputs also get 0-stride broadcasts and, rarely,
// overlapping sliding-window views.
Layout random_layout(Rng& rng, const std::vector<int64_t>& sizes, Role role);
TensorBuffer make_buffer(simdax_dtype dt, const std::vector<int64_t>& sizes, const Layout& l, Role role);

// MVN's epsilon placement: unset (a plain simdax_mvn_desc), or a
// simdax_mvn_ex_desc with epsilon on the variance or on the stddev.
std::optional<simdax_epsilon_placement> random_epsilon_placement(Rng& rng);

// docs/spec.md's documented defaults (written out here, not taken from the library).
simdax_activation_desc spec_default_activation(simdax_activation_type t);
// docs/spec.md's activation names ("leaky_relu"), "unknown" otherwise.
const char* spec_activation_name(simdax_activation_type t);
// The activation with random in-domain parameters (sometimes the defaults).
simdax_activation_desc random_activation(Rng& rng, simdax_activation_type t);

}  // namespace sxt
