// The API's small promises (issue 17, items 7-9): ignored activation fields,
// thread_count 0, one simdax_last_error() rule for every status-returning
// call, messages that name what the caller wrote (dtype names, one-shot
// parameter names, the in-place rule, ONNX defaults), interleaved views
// that share no element, and the WARNING for ignored Scale/Bias buffers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "support/reference.hpp"

namespace {

using sxt::ref_activation;

const float kNaN = std::numeric_limits<float>::quiet_NaN();

std::string last() { return simdax_last_error(); }
bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A packed float32 [rows, cols] descriptor that owns its sizes.
struct Tensor2 {
    int64_t sizes[2];
    int64_t strides[2];
    simdax_tensor_desc d;
    Tensor2(int64_t rows, int64_t cols, simdax_dtype dt = SIMDAX_DTYPE_FLOAT32)
        : sizes{rows, cols}, strides{cols, 1}, d{dt, 2, sizes, nullptr} {}
    Tensor2& with_strides(int64_t s0, int64_t s1) {
        strides[0] = s0;
        strides[1] = s1;
        d.strides = strides;
        return *this;
    }
};

// ------------------------------------------------ item 7: ignored fields
// Every type with NaN in each field it does not read: accepted, and the
// output is the float64 formula of the fields it does read.
TEST(ActivationFields, UnusedFieldsAreIgnoredEvenNaN) {
    struct Reads {
        bool alpha, beta, gamma;
    };
    // simdax.h's list of parameters per type.
    const Reads reads[SIMDAX_ACTIVATION_COUNT] = {
        {0, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 0}, {1, 1, 0},
        {0, 0, 0}, {1, 1, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}};
    const float x[8] = {-3.f, -1.f, -0.25f, 0.f, 0.25f, 0.5f, 1.f, 3.f};
    Tensor2 t(2, 4);
    for (int type = 0; type < SIMDAX_ACTIVATION_COUNT; ++type) {
        simdax_activation_desc a = simdax_activation_default(simdax_activation_type(type));
        if (type == SIMDAX_ACTIVATION_SHRINK) a.alpha = 0.125f;  // a bias that shows
        simdax_activation_desc with_nan = a;
        if (!reads[type].alpha) with_nan.alpha = kNaN;
        if (!reads[type].beta) with_nan.beta = kNaN;
        if (!reads[type].gamma) with_nan.gamma = kNaN;
        const simdax_activation_op_desc d{&t.d, &t.d, with_nan};
        float y[8];
        const char* name = simdax_activation_name(a.type);
        ASSERT_EQ(simdax_activation(&d, x, y), SIMDAX_OK) << name << ": " << last();
        for (int i = 0; i < 8; ++i) {
            const double want = ref_activation(double(x[i]), a);
            EXPECT_NEAR(y[i], want, 2e-6 * std::max(1.0, std::fabs(want))) << name << " x=" << x[i];
        }
        // A field the type reads stays checked.
        if (reads[type].alpha) {
            simdax_activation_desc bad = a;
            bad.alpha = kNaN;
            const simdax_activation_op_desc bd{&t.d, &t.d, bad};
            EXPECT_EQ(simdax_activation(&bd, x, y), SIMDAX_ERROR_INVALID_ARGUMENT) << name;
            EXPECT_TRUE(has(last(), "activation.alpha")) << last();
        }
    }
}

TEST(ActivationFields, MvnFusedReluIgnoresNaNAlpha) {
    Tensor2 t(2, 4);
    const uint32_t axes[1] = {1};
    const simdax_activation_desc relu{SIMDAX_ACTIVATION_RELU, kNaN, kNaN, kNaN};
    const simdax_mvn_desc d{&t.d, nullptr, nullptr, &t.d, 1, axes, 1, 0.f, &relu};
    const float x[8] = {1, 2, 3, 4, 4, 3, 2, 1};
    float y[8];
    ASSERT_EQ(simdax_mean_variance_normalization(&d, x, nullptr, nullptr, y), SIMDAX_OK) << last();
    // Row {1,2,3,4}: mean 2.5, variance 1.25.
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(y[i], std::max(0.0, (x[i] - 2.5) / std::sqrt(1.25)), 1e-6) << i;
}

// ----------------------------------------------- item 7: thread_count 0
int g_pool_calls = 0;
void inline_pool(void*, size_t n, simdax_task_fn task, void* arg) {
    ++g_pool_calls;
    for (size_t i = 0; i < n; ++i) task(arg, i);
}

TEST(ExecuteParallel, ThreadCountZeroIsRejected) {
    Tensor2 t(4, 8);
    const uint32_t axes[1] = {1};
    const simdax_axes_op_desc d{&t.d, &t.d, 1, axes};
    const simdax_operator_desc od{SIMDAX_OPERATOR_SOFTMAX, &d};
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK);
    float x[32] = {}, y[32];
    std::memset(y, 0x5a, sizeof y);
    const simdax_bindings b{x, nullptr, nullptr, y};
    const simdax_parallel zero{inline_pool, nullptr, 0};
    EXPECT_EQ(simdax_operator_execute_parallel(op, &b, &zero), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(has(last(), "parallel.thread_count")) << last();
    unsigned char poison[sizeof y];
    std::memset(poison, 0x5a, sizeof poison);
    EXPECT_EQ(std::memcmp(y, poison, sizeof y), 0) << "a rejected execute wrote the output";
    const simdax_parallel one{inline_pool, nullptr, 1};
    EXPECT_EQ(simdax_operator_execute_parallel(op, &b, &one), SIMDAX_OK) << last();
    EXPECT_FLOAT_EQ(y[0], 1.f / 8);
    simdax_operator_destroy(op);
}

// ------------------------------------------ item 7: the last-error rule
// Every call that returns a status sets the message: its own on failure,
// "" on success — create and execute alike.
TEST(LastError, EveryStatusCallSetsIt) {
    Tensor2 t(2, 3);
    const uint32_t good_axes[1] = {1}, bad_axes[1] = {7};
    simdax_axes_op_desc d{&t.d, &t.d, 1, good_axes};
    const simdax_operator_desc od{SIMDAX_OPERATOR_SOFTMAX, &d};
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK);
    float x[6] = {}, y[6];
    const simdax_bindings good{x, nullptr, nullptr, y}, null_out{x, nullptr, nullptr, nullptr};

    d.axes = bad_axes;  // a failing create, then a succeeding execute
    simdax_operator* bad = nullptr;
    EXPECT_EQ(simdax_operator_create(&od, &bad), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_NE(last(), "");
    EXPECT_EQ(simdax_operator_execute(op, &good), SIMDAX_OK);
    EXPECT_EQ(last(), "") << "a successful execute kept an earlier failure's message";

    EXPECT_EQ(simdax_operator_execute(op, &null_out), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_TRUE(has(last(), "output")) << last();
    d.axes = good_axes;  // a failing execute, then a succeeding create
    simdax_operator* op2 = nullptr;
    EXPECT_EQ(simdax_operator_create(&od, &op2), SIMDAX_OK);
    EXPECT_EQ(last(), "");

    EXPECT_EQ(simdax_operator_execute(op, &null_out), SIMDAX_ERROR_NULL_POINTER);
    const simdax_parallel par{inline_pool, nullptr, 2};
    EXPECT_EQ(simdax_operator_execute_parallel(op2, &good, &par), SIMDAX_OK);
    EXPECT_EQ(last(), "") << "execute_parallel";

    EXPECT_EQ(simdax_operator_execute(op, &null_out), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_softmax(&d, x, y), SIMDAX_OK);
    EXPECT_EQ(last(), "") << "one-shot";

    // A function without a status leaves it alone.
    EXPECT_EQ(simdax_operator_execute(op, &null_out), SIMDAX_ERROR_NULL_POINTER);
    const std::string failed = last();
    (void)simdax_operator_get_type(op);
    (void)simdax_active_isa();
    EXPECT_EQ(last(), failed);
    simdax_operator_destroy(op);
    simdax_operator_destroy(op2);
}

// ------------------------------------------------------ item 8: messages
TEST(Messages, DtypesByName) {
    Tensor2 in(2, 4), out(2, 4), scale(1, 4, SIMDAX_DTYPE_FLOAT16);
    const uint32_t axes[1] = {1};
    const simdax_mvn_desc d{&in.d, &scale.d, nullptr, &out.d, 1, axes, 1, 1e-5f, nullptr};
    const simdax_operator_desc od{SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &d};
    simdax_operator* op = nullptr;
    EXPECT_EQ(simdax_operator_create(&od, &op), SIMDAX_ERROR_DTYPE_MISMATCH);
    EXPECT_TRUE(has(last(), "scale.dtype: float16 differs from input.dtype float32")) << last();
    out.d.dtype = SIMDAX_DTYPE_BFLOAT16;
    const simdax_axes_op_desc sd{&in.d, &out.d, 1, axes};
    const simdax_operator_desc sod{SIMDAX_OPERATOR_HARDMAX, &sd};
    EXPECT_EQ(simdax_operator_create(&sod, &op), SIMDAX_ERROR_DTYPE_MISMATCH);
    EXPECT_TRUE(has(last(), "output.dtype: bfloat16 differs from input.dtype float32")) << last();
}

// The one-shot calls take (desc, input, [scale, bias,] output): their
// messages name those, never desc->desc or bindings.*.
TEST(Messages, OneShotNamesItsOwnParameters) {
    float x[8] = {}, y[8];
    EXPECT_EQ(simdax_softmax(nullptr, x, y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_TRUE(has(last(), "desc: ")) << last();
    EXPECT_FALSE(has(last(), "desc->desc")) << last();
    EXPECT_EQ(simdax_mean_variance_normalization(nullptr, x, nullptr, nullptr, y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_FALSE(has(last(), "desc->desc")) << last();

    Tensor2 t(2, 4);
    const uint32_t axes[1] = {1};
    const simdax_axes_op_desc d{&t.d, &t.d, 1, axes};
    EXPECT_EQ(simdax_log_softmax(&d, nullptr, y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(last().rfind("input: ", 0), 0u) << last();
    EXPECT_EQ(simdax_log_softmax(&d, x, x + 2), SIMDAX_ERROR_OVERLAP);
    EXPECT_EQ(last().rfind("output: ", 0), 0u) << last();
    const simdax_mvn_desc md{&t.d, &t.d, nullptr, &t.d, 1, axes, 1, 1e-5f, nullptr};
    EXPECT_EQ(simdax_mean_variance_normalization(&md, x, nullptr, nullptr, y), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(last().rfind("scale: ", 0), 0u) << last();

    // Through simdax_operator_execute the same buffers are bindings.*.
    const simdax_operator_desc od{SIMDAX_OPERATOR_LOG_SOFTMAX, &d};
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK);
    const simdax_bindings b{nullptr, nullptr, nullptr, y};
    EXPECT_EQ(simdax_operator_execute(op, &b), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(last().rfind("bindings.input: ", 0), 0u) << last();
    simdax_operator_destroy(op);
}

// HardSigmoid runs in place only with the same pointer and the same strides;
// its overlap messages say which of the two is missing.
TEST(Messages, HardSigmoidInPlaceRule) {
    Tensor2 in(3, 4), transposed(3, 4);
    transposed.with_strides(1, 3);
    float x[16] = {};
    const simdax_hard_sigmoid_desc same{&in.d, &in.d, 0.2f, 0.5f};
    EXPECT_EQ(simdax_hard_sigmoid(&same, x, x), SIMDAX_OK) << last();
    EXPECT_EQ(simdax_hard_sigmoid(&same, x, x + 1), SIMDAX_ERROR_OVERLAP);
    EXPECT_TRUE(has(last(), "same pointer and same strides")) << last();
    const simdax_hard_sigmoid_desc other{&in.d, &transposed.d, 0.2f, 0.5f};
    EXPECT_EQ(simdax_hard_sigmoid(&other, x, x), SIMDAX_ERROR_OVERLAP);
    EXPECT_TRUE(has(last(), "other strides")) << last();
    EXPECT_FALSE(has(last(), "without being exactly it")) << last();
    // A reduction never runs in place, and says so.
    const uint32_t axes[1] = {1};
    const simdax_axes_op_desc sd{&in.d, &in.d, 1, axes};
    EXPECT_EQ(simdax_hardmax(&sd, x, x), SIMDAX_ERROR_OVERLAP);
    EXPECT_TRUE(has(last(), "cannot run in place")) << last();
}

TEST(Messages, OnnxDefaultsAreNamed) {
    uint32_t axes[SIMDAX_MAX_RANK], count = 0;
    float eps = 0;
    EXPECT_EQ(simdax_onnx_mvn_axes(3, nullptr, 0, axes, &count, &eps), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_TRUE(has(last(), "default")) << last();
    EXPECT_TRUE(has(last(), "{0, 2, 3}")) << last();
    EXPECT_FALSE(has(last(), "axes[2]")) << last();
    // opset < 13 without an axis attribute: the default axis 1, on rank 1.
    EXPECT_EQ(simdax_onnx_softmax_axes(11, 1, 0, 0, axes, &count), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_TRUE(has(last(), "default 1")) << last();
    // A NULL output pointer is named as itself.
    EXPECT_EQ(simdax_onnx_mvn_axes(4, nullptr, 0, axes, &count, nullptr), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(last().rfind("epsilon", 0), 0u) << last();
    EXPECT_EQ(simdax_onnx_softmax_axes(13, 4, 0, 0, axes, nullptr), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(last().rfind("axis_count", 0), 0u) << last();
}

// The refusals of the ONNX normalization and Attention helpers name the
// attribute and ONNX's default.
TEST(Messages, OnnxRefusalsNameTheAttribute) {
    simdax_layer_normalization_desc ln{};
    EXPECT_EQ(simdax_onnx_layer_normalization_attrs(0, 0, 0, 0.f, 1, 0, &ln), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(
        last(),
        "stash_type: 0 is not supported; simdax keeps float32 statistics (stash_type 1, ONNX's default)");
    simdax_rms_normalization_desc rms{};
    EXPECT_EQ(simdax_onnx_rms_normalization_attrs(1, 9, 0, 0.f, 0, 0, &rms), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_EQ(last().rfind("axis: 9 is outside", 0), 0u) << last();
    simdax_attention_softmax_desc d{};
    EXPECT_EQ(simdax_onnx_attention_softmax_attrs(8, 0, 0.f, 0, 0, 0.f, 2, &d),
              SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(last(), "qk_matmul_output_mode: 2 is not supported; only 0 (ONNX's default)");
    EXPECT_EQ(simdax_onnx_attention_softmax_attrs(0, 0, 0.f, 0, 0, 0.f, 0, &d),
              SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(last(), "head_size: 0 < 1, and scale is absent (ONNX's default 1/sqrt(head_size))");
    EXPECT_EQ(simdax_onnx_attention_softmax_attrs(8, 0, 0.f, -1, 0, 0.f, 0, &d),
              SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(last(), "is_causal: -1 is neither 0 nor 1");
    EXPECT_EQ(simdax_onnx_attention_softmax_attrs(8, 0, 0.f, 0, 0, -2.f, 0, &d),
              SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(last(), "softcap: -2 is not >= 0 (0, ONNX's default, turns it off)");
    EXPECT_EQ(simdax_onnx_attention_softmax_attrs(8, 0, 0.f, 0, 0, 0.f, 0, nullptr),
              SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(last().rfind("desc", 0), 0u) << last();
}

// --------------------------------------------- item 8: interleaved views
// Input on the even elements of one buffer, output on the odd ones: no
// element is shared, so a non-in-place operator accepts them.
TEST(InterleavedViews, EvenInputOddOutputAreNotOverlap) {
    const int64_t rows = 3, cols = 5;
    float buf[2 * rows * cols + 1];
    for (int i = 0; i < 2 * rows * cols; ++i) buf[i] = i % 2 ? -7.f : float(i % 7) * 0.5f - 1.f;
    Tensor2 even(rows, cols), odd(rows, cols);
    even.with_strides(2 * cols, 2);
    odd.with_strides(2 * cols, 2);
    const uint32_t axes[1] = {1};
    const simdax_axes_op_desc d{&even.d, &odd.d, 1, axes};
    ASSERT_EQ(simdax_softmax(&d, buf, buf + 1), SIMDAX_OK) << last();
    for (int64_t r = 0; r < rows; ++r) {
        double sum = 0;
        for (int64_t c = 0; c < cols; ++c) sum += std::exp(double(buf[2 * (r * cols + c)]));
        for (int64_t c = 0; c < cols; ++c) {
            const double want = std::exp(double(buf[2 * (r * cols + c)])) / sum;
            EXPECT_NEAR(buf[2 * (r * cols + c) + 1], want, 1e-6) << r << "," << c;
        }
    }
    // The even elements (the input) were not written.
    for (int i = 0; i < 2 * rows * cols; i += 2) EXPECT_EQ(buf[i], float(i % 7) * 0.5f - 1.f) << i;
}

// Views whose lattices meet still overlap; elements that would straddle (a
// 2-byte shift of 4-byte elements) are refused as misaligned first.
TEST(InterleavedViews, MeetingOrStraddlingViewsStillOverlap) {
    alignas(8) float buf[64] = {};
    Tensor2 stride2(1, 8), stride3(1, 8);
    stride2.with_strides(16, 2);
    stride3.with_strides(24, 3);
    const simdax_activation_op_desc d{&stride2.d, &stride3.d, {SIMDAX_ACTIVATION_TANH, 0, 0, 0}};
    // x + 2i and x + 1 + 3j meet at i = 2, j = 1.
    EXPECT_EQ(simdax_activation(&d, buf, buf + 1), SIMDAX_ERROR_OVERLAP) << last();
    const simdax_activation_op_desc d2{&stride2.d, &stride2.d, {SIMDAX_ACTIVATION_TANH, 0, 0, 0}};
    char* bytes = reinterpret_cast<char*>(buf);
    EXPECT_EQ(simdax_activation(&d2, buf, reinterpret_cast<float*>(bytes + 2)),
              SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(simdax_activation(&d2, buf, buf + 1), SIMDAX_OK) << last();
    // float16: 2-byte elements, offset by one element on a stride-2 lattice.
    uint16_t h[64] = {};
    Tensor2 h2(1, 8, SIMDAX_DTYPE_FLOAT16);
    h2.with_strides(16, 2);
    const simdax_activation_op_desc dh{&h2.d, &h2.d, {SIMDAX_ACTIVATION_RELU, 0, 0, 0}};
    EXPECT_EQ(simdax_activation(&dh, h, h + 1), SIMDAX_OK) << last();
    EXPECT_EQ(simdax_activation(&dh, h, h + 2), SIMDAX_ERROR_OVERLAP);
}

// MVN: an output interleaved with the scale is disjoint from it too.
TEST(InterleavedViews, MvnScaleInterleavedWithOutput) {
    Tensor2 in(2, 4), scale(1, 4), out(2, 4);
    scale.with_strides(8, 2);
    out.with_strides(8, 2);
    const uint32_t axes[1] = {1};
    const simdax_mvn_desc d{&in.d, &scale.d, nullptr, &out.d, 1, axes, 1, 0.f, nullptr};
    const float x[8] = {1, 2, 3, 4, 0, 0, 2, 2};
    float shared[16];
    for (int i = 0; i < 16; ++i) shared[i] = 2.f;  // scale 2 on the even elements
    ASSERT_EQ(simdax_mean_variance_normalization(&d, x, shared, nullptr, shared + 1), SIMDAX_OK) << last();
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(shared[1 + 2 * c], 2.0 * (x[c] - 2.5) / std::sqrt(1.25), 1e-5);
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(shared[9 + 2 * c], 2.0 * (x[4 + c] - 1.0), 1e-5);
}

// ------------------------------------------------ item 9: WARNING level
struct Captured {
    std::vector<std::pair<simdax_log_level, std::string>> lines;
};
void capture(void* user, simdax_log_level level, const char* message) {
    static_cast<Captured*>(user)->lines.emplace_back(level, message);
}
struct CallbackScope {
    explicit CallbackScope(Captured* c) { simdax_set_log_callback(capture, c); }
    ~CallbackScope() { simdax_set_log_callback(nullptr, nullptr); }
};

TEST(Warnings, ScaleAndBiasBoundToAnOperatorWithoutThem) {
    Tensor2 t(2, 4);
    const uint32_t axes[1] = {1};
    const simdax_mvn_desc d{&t.d, nullptr, nullptr, &t.d, 1, axes, 1, 1e-5f, nullptr};
    const simdax_operator_desc od{SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &d};
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK);
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, s[8], bias[8], y[8];
    Captured got;
    {
        CallbackScope scope(&got);
        const simdax_bindings none{x, nullptr, nullptr, y};
        EXPECT_EQ(simdax_operator_execute(op, &none), SIMDAX_OK);
        EXPECT_TRUE(got.lines.empty()) << got.lines.front().second;
        const simdax_bindings both{x, s, bias, y};
        EXPECT_EQ(simdax_operator_execute(op, &both), SIMDAX_OK);
    }
    simdax_operator_destroy(op);
    ASSERT_EQ(got.lines.size(), 2u);
    EXPECT_EQ(got.lines[0].first, SIMDAX_LOG_WARNING);
    EXPECT_TRUE(has(got.lines[0].second, "bindings.scale: ignored")) << got.lines[0].second;
    EXPECT_EQ(got.lines[1].first, SIMDAX_LOG_WARNING);
    EXPECT_TRUE(has(got.lines[1].second, "bindings.bias: ignored")) << got.lines[1].second;
}

}  // namespace
