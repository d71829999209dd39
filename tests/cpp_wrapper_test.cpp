// The C++ wrapper covers the C API (issue 17, item 11): execute_parallel and
// an RAII pool, the ONNX helpers, strided HardSigmoid and activations, the
// MVN dtype passed on to Scale and Bias, describe().
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "simdax/simdax.hpp"

namespace {

namespace sx = simdax::cpp;

TEST(CppWrapper, ExecuteParallelOnThePoolEqualsExecute) {
    sx::ThreadPool pool(3);
    EXPECT_EQ(pool.threads(), 3u);
    const int64_t rows = 64, cols = 4096;  // above the parallel threshold
    std::vector<float> x(size_t(rows * cols)), y1(x.size()), y2(x.size());
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i * 7919 % 2003)) / 300.f - 3.f;
    const sx::Operator op = sx::softmax({rows, cols}, {1});
    op.execute(x.data(), y1.data());
    op.execute(x.data(), y2.data(), pool.parallel());
    EXPECT_EQ(std::memcmp(y1.data(), y2.data(), y1.size() * 4), 0);
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += y2[size_t(c)];
    EXPECT_NEAR(sum, 1.0, 1e-4);
    sx::ThreadPool moved = std::move(pool);
    EXPECT_EQ(pool.get(), nullptr);
    EXPECT_EQ(moved.threads(), 3u);
    const simdax_parallel bad{nullptr, nullptr, 2};
    EXPECT_THROW(op.execute(x.data(), y1.data(), bad), sx::Error);
    EXPECT_THROW(sx::ThreadPool(0), sx::Error);
}

TEST(CppWrapper, OnnxHelpers) {
    EXPECT_EQ(sx::onnx_softmax_axes(11, 4), (std::vector<uint32_t>{1, 2, 3}));
    EXPECT_EQ(sx::onnx_softmax_axes(13, 4), (std::vector<uint32_t>{3}));
    EXPECT_EQ(sx::onnx_softmax_axes(11, 4, -2), (std::vector<uint32_t>{2, 3}));
    EXPECT_THROW(sx::onnx_softmax_axes(13, 2, 5), sx::Error);
    const sx::OnnxMvn def = sx::onnx_mvn(4);
    EXPECT_EQ(def.axes, (std::vector<uint32_t>{0, 2, 3}));
    EXPECT_EQ(def.epsilon, 1e-9f);
    EXPECT_EQ(sx::onnx_mvn(3, std::vector<int64_t>{-1}).axes, (std::vector<uint32_t>{2}));
    try {
        sx::onnx_mvn(2);
        FAIL() << "the default axes were accepted for rank 2";
    } catch (const sx::Error& e) {
        EXPECT_EQ(e.status(), SIMDAX_ERROR_INVALID_AXES);
    }
    EXPECT_EQ(sx::onnx_hard_sigmoid_params(), std::make_pair(0.2f, 0.5f));
    EXPECT_EQ(sx::onnx_hard_sigmoid_params(0.25f), std::make_pair(0.25f, 0.5f));
    EXPECT_EQ(sx::onnx_hard_sigmoid_params(std::nullopt, -1.f), std::make_pair(0.2f, -1.f));
}

TEST(CppWrapper, OnnxNormalizationAndAttention) {
    const sx::NormOptions ln = sx::onnx_layer_normalization();
    EXPECT_EQ(ln.axis, -1);
    EXPECT_EQ(ln.epsilon, 1e-5f);
    const sx::NormOptions rms = sx::onnx_rms_normalization(1, 1e-6f, 1);
    EXPECT_EQ(rms.axis, 1);
    EXPECT_EQ(rms.epsilon, 1e-6f);
    EXPECT_THROW(sx::onnx_layer_normalization(std::nullopt, std::nullopt, 0), sx::Error);
    EXPECT_THROW(sx::onnx_rms_normalization(std::nullopt, std::nullopt, 16), sx::Error);
    const sx::AttentionSoftmaxOptions a = sx::onnx_attention_softmax(64);
    EXPECT_EQ(a.scale, 0.125f);
    EXPECT_EQ(a.softcap, 0.0f);
    EXPECT_EQ(a.causal, SIMDAX_CAUSAL_NONE);
    EXPECT_EQ(sx::onnx_attention_softmax(64, 0.5f, 1).causal, SIMDAX_CAUSAL_TOP_LEFT);
    EXPECT_EQ(sx::onnx_attention_softmax(64, std::nullopt, 1, true).causal, SIMDAX_CAUSAL_BOTTOM_RIGHT);
    try {
        sx::onnx_attention_softmax(64, std::nullopt, 0, false, 0.0f, 1);
        FAIL() << "qk_matmul_output_mode 1 was accepted";
    } catch (const sx::Error& e) {
        EXPECT_EQ(e.status(), SIMDAX_ERROR_INVALID_ARGUMENT);
    }
    // Round trip: the options create the operators.
    const sx::TensorDesc x({2, 8}), g({8});
    EXPECT_NO_THROW(sx::layer_normalization(x, g, x, ln));
    EXPECT_NO_THROW(sx::rms_normalization(x, g, x, rms));
    const sx::TensorDesc s({4, 4});
    EXPECT_NO_THROW(sx::attention_softmax(s, s, sx::onnx_attention_softmax(16, std::nullopt, 1)));
}

// A transposed output view: y[c][r] = f(x[r][c]).
TEST(CppWrapper, StridedHardSigmoidAndActivation) {
    const sx::TensorDesc in({2, 3}), out({2, 3}, SIMDAX_DTYPE_FLOAT32, {1, 2});
    const std::vector<float> x = {-4, -1, 0, 0.5f, 2, 9};
    std::vector<float> y(6);
    sx::hard_sigmoid(in, out, 0.25f, 0.5f).execute(x.data(), y.data());
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 3; ++c) {
            const double v = x[size_t(r * 3 + c)];
            EXPECT_NEAR(y[size_t(c * 2 + r)], std::max(0.0, std::min(0.25 * v + 0.5, 1.0)), 1e-7);
        }
    sx::activation(in, out, simdax_activation_desc{SIMDAX_ACTIVATION_LEAKY_RELU, 0.5f, 0, 0})
        .execute(x.data(), y.data());
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 3; ++c) {
            const double v = x[size_t(r * 3 + c)];
            EXPECT_EQ(y[size_t(c * 2 + r)], float(v >= 0 ? v : 0.5 * v));
        }
    sx::activation(in, out, SIMDAX_ACTIVATION_RELU).execute(x.data(), y.data());
    EXPECT_EQ(y, (std::vector<float>{0, 0.5f, 0, 2, 0, 9}));
}

// mvn(shape, axes, float64, options with Scale/Bias sizes): Scale and Bias
// are float64 too, without the caller repeating the dtype.
TEST(CppWrapper, MvnDtypeReachesScaleAndBias) {
    sx::MvnOptions o;
    o.scale = sx::TensorDesc({1, 4});
    o.bias = sx::TensorDesc({1, 1});
    o.epsilon = 0.0f;
    const sx::Operator op = sx::mvn({2, 4}, {1}, SIMDAX_DTYPE_FLOAT64, o);
    const std::vector<double> x = {1, 2, 3, 4, 2, 2, 2, 6}, scale = {1, 2, 3, 4}, bias = {0.5};
    std::vector<double> y(8);
    op.execute(x.data(), scale.data(), bias.data(), y.data());
    for (int r = 0; r < 2; ++r) {
        double mean = 0, var = 0;
        for (int c = 0; c < 4; ++c) mean += x[size_t(r * 4 + c)] / 4;
        for (int c = 0; c < 4; ++c) var += std::pow(x[size_t(r * 4 + c)] - mean, 2) / 4;
        for (int c = 0; c < 4; ++c)
            EXPECT_NEAR(y[size_t(r * 4 + c)],
                        scale[size_t(c)] * (x[size_t(r * 4 + c)] - mean) / std::sqrt(var) + 0.5, 1e-12);
    }
}

TEST(CppWrapper, Describe) {
    const sx::Operator op = sx::log_softmax({8, 16}, {1});
    const std::string d = op.describe();
    EXPECT_EQ(d.rfind("op=LogSoftmax dtype=float32 shape=8x16 axes=1", 0), 0u) << d;
    char buf[512];
    EXPECT_EQ(simdax_operator_describe(op.get(), buf, sizeof buf), d.size());
    EXPECT_EQ(d, buf);
}

}  // namespace

namespace {

// The typed entries through the wrapper: a create-info structure, buffers
// by operand with their lengths, an undersized one refused as Error.
TEST(CppWrapper, CreateInfoAndBoundBuffers) {
    const int64_t sizes[1] = {4};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT64, 1, sizes, nullptr};
    const uint32_t axes[1] = {0};
    const simdax_softmax_create_info info{
        SIMDAX_HEADER(simdax_softmax_create_info, SIMDAX_STRUCTURE_TYPE_SOFTMAX_CREATE_INFO),
        {&t, &t, 1, axes}};
    const sx::Operator op(info.header);
    const std::vector<double> x = {0, 1, 2, 3};
    std::vector<double> y(4, -1);
    op.execute_bound({sx::Buffer(x.data(), 4), sx::Buffer(y.data(), 4)});
    double sum = 0;
    for (double v : x) sum += std::exp(v);
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(y[i], std::exp(x[i]) / sum, 1e-12);
    try {
        op.execute_bound({sx::Buffer(x.data(), 3), sx::Buffer(y.data(), 4)});
        FAIL() << "an undersized input must throw";
    } catch (const sx::Error& e) {
        EXPECT_EQ(e.status(), SIMDAX_ERROR_INVALID_ARGUMENT);
    }
}

}  // namespace
