// Shared by the errors_*_test.cpp files (docs/spec.md "Errors"): a valid
// call of the operator types it covers on a [3,4] float32 tensor that each
// row breaks exactly one thing of, the check that simdax_last_error() names
// the argument, and the rows create must refuse.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "simdax/simdax.h"

namespace sxt::errors {

// A valid call of an operator type on a [3,4] float32 tensor; rows mutate
// it. The type chooses the descriptor (descriptor()).
struct Fixture {
    int64_t in_sizes[16] = {3, 4};
    int64_t out_sizes[16] = {3, 4};
    int64_t sc_sizes[16] = {1, 4};
    int64_t bi_sizes[16] = {3, 1};
    int64_t in_strides[16] = {};
    int64_t out_strides[16] = {};
    simdax_tensor_desc in{SIMDAX_DTYPE_FLOAT32, 2, in_sizes, nullptr};
    simdax_tensor_desc out{SIMDAX_DTYPE_FLOAT32, 2, out_sizes, nullptr};
    simdax_tensor_desc scale{SIMDAX_DTYPE_FLOAT32, 2, sc_sizes, nullptr};
    simdax_tensor_desc bias{SIMDAX_DTYPE_FLOAT32, 2, bi_sizes, nullptr};
    uint32_t axes[16] = {1};
    simdax_axes_op_desc sm{&in, &out, 1, axes};
    simdax_activation_desc fused{SIMDAX_ACTIVATION_RELU, 0.f, 0.f, 0.f};
    simdax_mvn_desc mvn{&in, &scale, &bias, &out, 1, axes, 1, 1e-5f, &fused};
    simdax_mvn_ex_desc mvn_ex{mvn, SIMDAX_EPSILON_ON_STDDEV};
    simdax_hard_sigmoid_desc hs{&in, &out, 0.2f, 0.5f};
    simdax_activation_op_desc act{&in, &out, {SIMDAX_ACTIVATION_TANH, 0.f, 0.f, 0.f}};
    simdax_operator_type type;  // the call's; rows may break op.type, not this
    simdax_operator_desc op;    // {type, its descriptor above; nullptr: not covered}
    // Generous buffers: a wrongly accepted call still stays in bounds.
    alignas(64) float x[512], y[512], s[512], b[512];
    unsigned char y_before[sizeof(y)], x_before[sizeof(x)];

    explicit Fixture(simdax_operator_type t) : type(t), op{t, descriptor(t)} {
        for (int i = 0; i < 512; ++i) {
            x[i] = float(i % 13) * 0.25f - 1.f;
            s[i] = 1.5f;
            b[i] = 0.25f;
            const uint32_t canary = 0x7FA5A5A5u;  // signalling NaN, no kernel makes it
            std::memcpy(&y[i], &canary, 4);
        }
    }
    Fixture(const Fixture&) = delete;

    // The fixture's descriptor of type; nullptr for a type it has no valid
    // call of. Every type is named, so a new one does not compile until it
    // is placed.
    const void* descriptor(simdax_operator_type t) {
        switch (t) {
            case SIMDAX_OPERATOR_SOFTMAX:
            case SIMDAX_OPERATOR_LOG_SOFTMAX:
            case SIMDAX_OPERATOR_HARDMAX: return &sm;
            case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION: return &mvn;
            case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX: return &mvn_ex;
            case SIMDAX_OPERATOR_HARD_SIGMOID: return &hs;
            case SIMDAX_OPERATOR_ACTIVATION: return &act;
            // Their own tests check their errors (cast_test.cpp,
            // attention_softmax_api_test.cpp, layer_norm_test.cpp).
            case SIMDAX_OPERATOR_CAST:
            case SIMDAX_OPERATOR_ATTENTION_SOFTMAX:
            case SIMDAX_OPERATOR_LAYER_NORMALIZATION:
            case SIMDAX_OPERATOR_RMS_NORMALIZATION: return nullptr;
        }
        return nullptr;
    }
    bool covered() const { return op.desc != nullptr; }
    // Tensor t (sizes: its sizes array) one dim longer, the new dim of size
    // 1: the same elements at another rank.
    static void append_unit_dim(simdax_tensor_desc& t, int64_t* sizes) {
        sizes[t.rank] = 1;
        t.rank += 1;
    }
    // Input and output of this shape (its length the rank; the sizes past it
    // left as they are).
    void set_shape(const std::vector<int64_t>& shape) {
        in.rank = out.rank = uint32_t(shape.size());
        for (size_t d = 0; d < shape.size(); ++d) in_sizes[d] = out_sizes[d] = shape[d];
    }
    const char* name() const { return simdax_operator_name(type); }

    void snapshot() {
        std::memcpy(y_before, y, sizeof(y));
        std::memcpy(x_before, x, sizeof(x));
    }
    bool y_untouched() const { return std::memcmp(y_before, y, sizeof(y)) == 0; }
    bool x_untouched() const { return std::memcmp(x_before, x, sizeof(x)) == 0; }

    // The one-shot call of the covered type (an uncovered one: refused).
    simdax_status one_shot() {
        switch (type) {
            case SIMDAX_OPERATOR_SOFTMAX: return simdax_softmax(&sm, x, y);
            case SIMDAX_OPERATOR_LOG_SOFTMAX: return simdax_log_softmax(&sm, x, y);
            case SIMDAX_OPERATOR_HARDMAX: return simdax_hardmax(&sm, x, y);
            case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION:
                return simdax_mean_variance_normalization(&mvn, x, s, b, y);
            case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX:
                return simdax_mean_variance_normalization_ex(&mvn_ex, x, s, b, y);
            case SIMDAX_OPERATOR_HARD_SIGMOID: return simdax_hard_sigmoid(&hs, x, y);
            case SIMDAX_OPERATOR_ACTIVATION: return simdax_activation(&act, x, y);
            case SIMDAX_OPERATOR_CAST:
            case SIMDAX_OPERATOR_ATTENTION_SOFTMAX:
            case SIMDAX_OPERATOR_LAYER_NORMALIZATION:
            case SIMDAX_OPERATOR_RMS_NORMALIZATION: break;
        }
        return SIMDAX_ERROR_INVALID_ARGUMENT;
    }
    simdax_bindings bindings() { return {x, s, b, y}; }
};

inline bool message_names(const std::vector<std::string>& keys, std::string* msg) {
    *msg = simdax_last_error();
    std::string lower = *msg;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    for (const auto& k : keys)
        if (lower.find(k) != std::string::npos) return true;
    return false;
}

inline std::string keys_string(const std::vector<std::string>& keys) {
    std::string s;
    for (const auto& k : keys) s += (s.empty() ? "\"" : " or \"") + k + "\"";
    return s;
}

// Success when simdax_last_error() names one of keys; else what it says.
inline ::testing::AssertionResult last_error_names(const std::vector<std::string>& keys) {
    std::string msg;
    if (message_names(keys, &msg)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "message \"" << msg << "\" should name " << keys_string(keys);
}

// The name of a row's test (the rows' own names).
template <class Row>
std::string row_name(const ::testing::TestParamInfo<Row>& i) {
    return i.param.name;
}

// A test per row: the fixture of the row's type (one it must cover) with the
// row's one breakage applied, ready before the body runs.
template <class Row>
class BrokenFixtureTest : public ::testing::TestWithParam<Row> {
protected:
    void SetUp() override {
        fixture_ = std::make_unique<Fixture>(this->GetParam().type);
        ASSERT_TRUE(fixture_->covered()) << "the errors fixture has no call of " << fixture_->name();
        this->GetParam().mutate(*fixture_);
    }
    Fixture& fixture() { return *fixture_; }

private:
    std::unique_ptr<Fixture> fixture_;  // held by pointer: Fixture does not move
};

// A descriptor create must refuse: the fixture of `type` with one thing
// broken by `mutate`.
struct CreateRow {
    const char* name;
    simdax_operator_type type;
    simdax_status expected;
    std::vector<std::string> keys;  // the message must contain one (lowercase)
    std::function<void(Fixture&)> mutate;
    bool one_shot = true;  // false where a wrongly accepted call would run off the buffers
};

inline void PrintTo(const CreateRow& r, std::ostream* os) { *os << r.name; }

// A mutation giving the [rows, cols] output these strides.
inline std::function<void(Fixture&)> output_strides(int64_t rows, int64_t cols) {
    return [rows, cols](Fixture& f) {
        f.out_strides[0] = rows;
        f.out_strides[1] = cols;
        f.out.strides = f.out_strides;
    };
}

// The rows of CreateErrors (errors_create_test.cpp): bad tensor descriptors
// (errors_create_tensors_test.cpp) and bad axes, Scale/Bias and attributes
// (errors_create_attributes_test.cpp).
std::vector<CreateRow> create_tensor_rows();
std::vector<CreateRow> create_attribute_rows();

}  // namespace sxt::errors
