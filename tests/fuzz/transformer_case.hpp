// The transformer operators' fuzz path (fuzz_transformer.cpp): the decoded
// case, its failure report, and the decoding primitives AttentionSoftmax
// (fuzz_attention_softmax.cpp) and the normalizations
// (fuzz_normalization.cpp) share (transformer_case.cpp).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "fuzz_case.hpp"
#include "simdax/simdax.h"

namespace fuzz::transformer {

struct Operand {
    bool present = false;
    simdax_dtype dt = SIMDAX_DTYPE_FLOAT32;
    std::vector<int64_t> sizes, strides;  // strides empty: NULL (packed)
    simdax_tensor_desc desc{};
    void finish() {
        desc.dtype = dt;
        desc.rank = uint32_t(sizes.size());
        desc.sizes = sizes.empty() ? nullptr : sizes.data();
        desc.strides = strides.empty() ? nullptr : strides.data();
    }
    const simdax_tensor_desc* ptr() const { return present ? &desc : nullptr; }
};

struct TCase {
    int op = SIMDAX_OPERATOR_ATTENTION_SOFTMAX;
    bool valid = true;
    int mutation = -1;
    bool must_reject = false;
    int isa = 0;
    // attention: 0 x, 1 y, 2 mask, 3 slopes, 4 sinks, 5 lse
    // norms:     0 x, 1 y, 2 scale, 3 bias, 4 skip, 5 skip_bias, 6 sum, 7 mean, 8 inv
    Operand o[9];
    float scale = 1, softcap = 0, epsilon = 1e-5f;
    int causal = 0, log = 0;
    uint32_t window = 0;
    int32_t axis = -1, stash = 1;
    bool in_place = false, one_shot = false;
    int bad_exec = 0;  // 0 none, 1 unbind an operand, 2 output binding too short
    uint8_t bad_pick = 0;
    int value_mode = 0, mask_mode = 0;
    std::string describe() const;
};

// Prints the failure and the case, and aborts.
[[noreturn]] void tfail(const TCase& c, const std::string& what);

simdax_dtype data_dtype(uint8_t b);
int64_t decode_size(Bytes& in, bool last);
// Strides for sizes (packed, permuted, gaps, negative, zero: transformer_case.cpp).
std::vector<int64_t> decode_strides(Bytes& in, const std::vector<int64_t>& sizes, bool allow_zero);
float hostile_param(Bytes& in);
double value(Bytes& in, int mode, int64_t i);
bool span_ok(const Operand& o);
int64_t count(const std::vector<int64_t>& s);
// The bindings of a refused execute (c.bad_exec, bb bound in full): 1, one
// bound operand unbound (c.bad_pick); 2, the output binding shorter than one
// element of dt.
void break_bindings(const TCase& c, simdax_buffer_binding* bb, simdax_dtype dt);

inline const int64_t kHugeStrides[] = {std::numeric_limits<int64_t>::max(),
                                       std::numeric_limits<int64_t>::min(), int64_t(1) << 62,
                                       -(int64_t(1) << 61), int64_t(1) << 40};

// fuzz_attention_softmax.cpp
void decode_attention(Bytes& in, TCase& c);
void run_attention(Bytes& in, TCase& c, const simdax_operator* op);

// fuzz_normalization.cpp
void decode_norm(Bytes& in, TCase& c);
void run_norm_case(Bytes& in, TCase& c, const simdax_operator* op);

}  // namespace fuzz::transformer
