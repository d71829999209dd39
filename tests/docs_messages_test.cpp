// The example messages of the operator pages (docs/<operator>.md, "Errors")
// are the messages the library prints: each case provokes one error and the
// page must quote simdax_last_error() verbatim, in backticks.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "simdax/simdax.h"

namespace {

std::string page(const std::string& name) {
    std::ifstream f(std::string(SIMDAX_TEST_DATA_DIR) + "/../../docs/" + name);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

struct Example {
    const char* page;
    simdax_status status;
    std::function<simdax_status()> provoke;
};

const int64_t k2x4[2] = {2, 4}, k2x5[2] = {2, 5}, k2x4x1[3] = {2, 4, 1}, k9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
const int64_t kNegative[2] = {-1, 4}, kHuge[2] = {int64_t(1) << 40, int64_t(1) << 40}, kBroadcast[2] = {0, 1};
const simdax_tensor_desc kIn{SIMDAX_DTYPE_FLOAT32, 2, k2x4, nullptr};
float buf[64];

simdax_status log_softmax(const simdax_tensor_desc* in, const simdax_tensor_desc* out,
                          std::vector<uint32_t> axes, void* y = buf) {
    const simdax_axes_op_desc d{in, out, uint32_t(axes.size()), axes.data()};
    return simdax_log_softmax(&d, buf, y);
}

simdax_status softmax(std::vector<uint32_t> axes, void* y) {
    const simdax_axes_op_desc d{&kIn, &kIn, uint32_t(axes.size()), axes.data()};
    return simdax_softmax(&d, buf, y);
}

// Through a created operator, so that the bindings' names appear.
simdax_status executed(simdax_operator_type type, const void* desc, void* x, void* y) {
    const simdax_operator_desc od{type, desc};
    simdax_operator* op = nullptr;
    if (simdax_operator_create(&od, &op) != SIMDAX_OK) return SIMDAX_OK;  // fails the status check
    const simdax_bindings b{x, nullptr, nullptr, y};
    const simdax_status s = simdax_operator_execute(op, &b);
    simdax_operator_destroy(op);
    return s;
}

simdax_status hard_sigmoid(const simdax_tensor_desc* in, const simdax_tensor_desc* out, float alpha, void* x,
                           void* y) {
    const simdax_hard_sigmoid_desc d{in, out, alpha, 0.5f};
    return simdax_hard_sigmoid(&d, x, y);
}

const std::vector<Example>& examples() {
    static const simdax_tensor_desc out2x5{SIMDAX_DTYPE_FLOAT32, 2, k2x5, nullptr};
    static const simdax_tensor_desc out16{SIMDAX_DTYPE_FLOAT16, 2, k2x4, nullptr};
    static const simdax_tensor_desc rank9{SIMDAX_DTYPE_FLOAT32, 9, k9, nullptr};
    static const simdax_tensor_desc negative{SIMDAX_DTYPE_FLOAT32, 2, kNegative, nullptr};
    static const simdax_tensor_desc huge{SIMDAX_DTYPE_FLOAT32, 2, kHuge, nullptr};
    static const simdax_tensor_desc broadcast{SIMDAX_DTYPE_FLOAT32, 2, k2x4, kBroadcast};
    static const simdax_tensor_desc rank0{SIMDAX_DTYPE_FLOAT32, 0, k2x4, nullptr};
    static const simdax_tensor_desc rank3{SIMDAX_DTYPE_FLOAT32, 3, k2x4x1, nullptr};
    static const uint32_t axis1[1] = {1};
    static const simdax_axes_op_desc created{&kIn, &kIn, 1, axis1};
    static const simdax_hard_sigmoid_desc created_hs{&kIn, &kIn, 0.2f, 0.5f};
    static const std::vector<Example> all{
        {"log_softmax.md", SIMDAX_ERROR_INVALID_AXES,
         [] {
             return log_softmax(&kIn, &kIn, {1, 1});
         }},
        {"log_softmax.md", SIMDAX_ERROR_INVALID_AXES, [] { return log_softmax(&kIn, &kIn, {3}); }},
        {"log_softmax.md", SIMDAX_ERROR_INVALID_AXES, [] { return log_softmax(&kIn, &kIn, {}); }},
        {"log_softmax.md", SIMDAX_ERROR_SHAPE_MISMATCH, [] { return log_softmax(&kIn, &out2x5, {1}); }},
        {"log_softmax.md", SIMDAX_ERROR_DTYPE_MISMATCH, [] { return log_softmax(&kIn, &out16, {1}); }},
        {"log_softmax.md", SIMDAX_ERROR_INVALID_ARGUMENT, [] { return log_softmax(&rank9, &rank9, {1}); }},
        {"log_softmax.md", SIMDAX_ERROR_INVALID_ARGUMENT,
         [] { return log_softmax(&negative, &negative, {1}); }},
        {"log_softmax.md", SIMDAX_ERROR_NULL_POINTER, [] { return log_softmax(nullptr, &kIn, {1}); }},
        {"log_softmax.md", SIMDAX_ERROR_NULL_POINTER,
         [] { return executed(SIMDAX_OPERATOR_LOG_SOFTMAX, &created, buf, nullptr); }},
        {"log_softmax.md", SIMDAX_ERROR_OVERFLOW, [] { return log_softmax(&huge, &huge, {1}); }},
        {"log_softmax.md", SIMDAX_ERROR_OVERLAP, [] { return log_softmax(&kIn, &broadcast, {1}); }},
        {"log_softmax.md", SIMDAX_ERROR_OVERLAP,
         [] { return executed(SIMDAX_OPERATOR_LOG_SOFTMAX, &created, buf, buf + 1); }},
        {"softmax.md", SIMDAX_ERROR_INVALID_AXES, [] { return softmax({2}, buf); }},
        {"softmax.md", SIMDAX_ERROR_OVERLAP,
         [] { return executed(SIMDAX_OPERATOR_SOFTMAX, &created, buf, buf + 1); }},
        {"hard_sigmoid.md", SIMDAX_ERROR_INVALID_ARGUMENT,
         [] { return hard_sigmoid(&kIn, &kIn, std::nanf(""), buf, buf + 8); }},
        {"hard_sigmoid.md", SIMDAX_ERROR_INVALID_ARGUMENT,
         [] { return hard_sigmoid(&rank0, &rank0, 0.2f, buf, buf + 8); }},
        {"hard_sigmoid.md", SIMDAX_ERROR_SHAPE_MISMATCH,
         [] { return hard_sigmoid(&kIn, &rank3, 0.2f, buf, buf + 8); }},
        {"hard_sigmoid.md", SIMDAX_ERROR_OVERLAP,
         [] { return executed(SIMDAX_OPERATOR_HARD_SIGMOID, &created_hs, buf, buf + 1); }},
        {"hard_sigmoid.md", SIMDAX_ERROR_NULL_POINTER,
         [] { return executed(SIMDAX_OPERATOR_HARD_SIGMOID, &created_hs, nullptr, buf); }},
        {"layer_normalization.md", SIMDAX_ERROR_INVALID_ARGUMENT,
         [] {
             simdax_layer_normalization_desc d{};
             return simdax_onnx_layer_normalization_attrs(0, 0, 0, 0.f, 1, 0, &d);
         }},
        {"rms_normalization.md", SIMDAX_ERROR_INVALID_ARGUMENT,
         [] {
             simdax_rms_normalization_desc d{};
             return simdax_onnx_rms_normalization_attrs(0, 0, 0, 0.f, 1, 0, &d);
         }},
        {"attention_softmax.md", SIMDAX_ERROR_INVALID_ARGUMENT,
         [] {
             simdax_attention_softmax_desc d{};
             return simdax_onnx_attention_softmax_attrs(8, 0, 0.f, 0, 0, 0.f, 1, &d);
         }},
    };
    return all;
}

TEST(DocsMessages, PagesQuoteTheLibrary) {
    for (const Example& e : examples()) {
        const simdax_status s = e.provoke();
        const std::string message = simdax_last_error();
        EXPECT_EQ(s, e.status) << e.page << ": " << message;
        EXPECT_NE(page(e.page).find("`" + message + "`"), std::string::npos)
            << "docs/" << e.page << " does not quote `" << message << "`";
    }
}

}  // namespace
