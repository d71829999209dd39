// The fuzz input decoded: an operator type (invalid values too), a dtype
// (invalid too), an ISA cap, ranks 0-9, sizes (0, negative, huge), strides
// (NULL or explicit: negative, zero, overlapping, huge), axes (count 0-9,
// repeated, out of range), activation type and parameters (NaN, inf, raw
// bits), epsilon (NaN, inf, negative) and its placement, normalize_variance,
// Scale/Bias shapes, NULL pointers in the descriptor, how to run it and the
// element values.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simdax/simdax.h"

namespace fuzz {

constexpr int64_t kMaxElements = 4096;
constexpr int64_t kMaxSpan = 65536;
constexpr int kSlots = 10;  // array entries behind every sizes/strides/axes pointer

// Reads the fuzz input front to back; zeros once it runs out.
class Bytes {
public:
    Bytes(const uint8_t* p, size_t n) : p_(p), n_(n) {}
    uint8_t u8() { return i_ < n_ ? p_[i_++] : 0; }
    uint16_t u16() { return uint16_t(u8() | (u8() << 8)); }
    uint32_t u32() { return uint32_t(u16()) | (uint32_t(u16()) << 16); }
    uint64_t u64() { return uint64_t(u32()) | (uint64_t(u32()) << 32); }
    bool bit() { return u8() & 1; }
    size_t left() const { return n_ - i_; }

private:
    const uint8_t* p_;
    size_t n_, i_ = 0;
};

// Everything the decoder chose, in the form the library gets it.
struct Case {
    int op_raw = 1;
    simdax_operator_type op = SIMDAX_OPERATOR_SOFTMAX;
    int isa = 0;
    // Tensors: 0 input, 1 output, 2 scale, 3 bias.
    simdax_tensor_desc t[4]{};
    bool present[4] = {true, true, false, false};
    int64_t sizes[4][kSlots]{};
    int64_t strides[4][kSlots]{};
    bool explicit_strides[4] = {};
    bool null_sizes[4] = {};
    uint32_t axis_count = 0;
    uint32_t axes[kSlots]{};
    bool null_axes = false;
    int normalize_variance = 1;
    float epsilon = 1e-5f;
    int placement_raw = 0;  // MVN_EX: simdax_epsilon_placement, or an invalid value
    bool has_activation = false;
    simdax_activation_desc act{SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0};
    float hs_alpha = 0.2f, hs_beta = 0.5f;
    bool null_desc = false, null_inner = false, null_op_out = false;
    bool one_shot = false, in_place = false, bad_bindings_first = false;
    int bad_kind = 0;
    int64_t overlap_shift = 0;
    int value_mode = 0;
    int64_t pad[4][2]{};
    bool guard_front[4] = {};
};

// Decodes `data` (read through `in`, which run_accepted later reads the
// element values from).
Case decode(const uint8_t* data, size_t size, Bytes& in);

}  // namespace fuzz
