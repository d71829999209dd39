// The simdax_case library on synthetic cases, for the parts of the format the
// public set does not use: strides, offsets, Scale/Bias, narrow and wide
// types, empty tensors, epsilon placement, fused activations.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "simdax_case.hpp"
#include "support/case_folder.hpp"
#include "support/random_case.hpp"

using namespace case_test;

namespace {

TEST(CaseRunner, ValidSyntheticCasePasses) {
    CaseFolder folder;
    write_valid_hard_sigmoid(folder);
    const Case c = load_case(folder.dir());
    EXPECT_EQ(c.op, SIMDAX_OPERATOR_HARD_SIGMOID);
    EXPECT_EQ(c.params.alpha, 0.5f);
    const CheckResult result = run_and_check(c);
    EXPECT_EQ(result.elements, 6u);
    EXPECT_TRUE(result.passed()) << describe_failure(c, result);
}

TEST(CaseRunner, WrongOutputIsReportedAtItsWorstElement) {
    CaseFolder folder;
    write_valid_hard_sigmoid(folder);
    // Two wrong references: 0.2499 (off by 1e-4) and 0.7 (off by 0.05).
    folder.write_values("output_0.bin", std::vector<float>{0, 0, 0.2499f, 0.5f, 0.7f, 1});
    const Case c = load_case(folder.dir());
    const CheckResult result = run_and_check(c);
    EXPECT_EQ(result.failures, 2u);
    ASSERT_TRUE(result.worst.has_value());
    EXPECT_EQ(result.worst->index, 4u);
    EXPECT_EQ(result.worst->coords, (std::vector<std::int64_t>{1, 1}));
    EXPECT_NE(describe_failure(c, result).find("worst at index 4 [1,1]: got 0.75, ref 0.7"),
              std::string::npos)
        << describe_failure(c, result);
}

TEST(CaseRunner, PoisonedOutputCannotPassForNan) {
    CaseFolder folder;
    write_valid_hard_sigmoid(folder);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    folder.write_values("output_0.bin", std::vector<float>(6, nan));
    const Case c = load_case(folder.dir());
    ByteBuffer untouched(6 * sizeof(float));
    std::memset(untouched.data(), 0x5a, untouched.size());
    EXPECT_EQ(check_output(c, untouched).failures, 6u);
}

TEST(CaseRunner, StridesOffsetAndBroadcastReadOnlyTheView) {
    // X[i][j] = buffer[1 + 0*i + 2*j]; every other slot holds NaN, which
    // would show up in the output if the library read it.
    CaseFolder folder;
    CaseText text;
    text.inputs = "[" +
                  tensor_json("X", "input_0.bin", "float32", "[2, 3]",
                              R"("strides": [0, 2], "offset": 1, "buffer_elements": 7)") +
                  "]";
    const float nan = std::numeric_limits<float>::quiet_NaN();
    folder.write_values("input_0.bin", std::vector<float>{nan, -1, nan, 0.5f, nan, 3, nan});
    std::vector<double> y;
    for (int i = 0; i < 2; ++i) {
        for (double v : {-1.0, 0.5, 3.0}) y.push_back(hard_sigmoid(v, 0.5, 0.25));
    }
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[2, 3]", "", "float64") + "]";
    folder.write_values("output_0.bin", y);
    expect_passes(folder.load(text));
}

TEST(CaseRunner, NegativeStridesWalkBackwards) {
    CaseFolder folder;
    CaseText text = case_text("Softmax", R"({"axes": [1]})", R"({"atol": 1e-06, "rtol": 1e-05, "ulps": 0})");
    // X = [[6, 5, 4], [3, 2, 1]]: the buffer read backwards from its last slot.
    text.inputs = "[" +
                  tensor_json("X", "input_0.bin", "float32", "[2, 3]",
                              R"("strides": [-3, -1], "offset": 5, "buffer_elements": 6)") +
                  "]";
    folder.write_values("input_0.bin", std::vector<float>{1, 2, 3, 4, 5, 6});
    const double s = std::exp(0.0) + std::exp(-1.0) + std::exp(-2.0);
    std::vector<double> y;
    for (int row = 0; row < 2; ++row) {
        for (double d : {0.0, -1.0, -2.0}) y.push_back(std::exp(d) / s);
    }
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[2, 3]", "", "float64") + "]";
    folder.write_values("output_0.bin", y);
    expect_passes(folder.load(text));
}

TEST(CaseRunner, ZeroSizeTensorsRunWithEmptyFiles) {
    for (const std::string op : {"HardSigmoid", "LogSoftmax"}) {
        CaseFolder folder;
        CaseText text;
        text.op = op;
        if (op == "LogSoftmax") text.params = R"({"axes": [1]})";
        text.inputs = packed_input("input_0.bin", "float32", "[0, 3]", 0);
        text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[0, 3]") + "]";
        folder.write_text("input_0.bin", "");
        folder.write_text("output_0.bin", "");
        const Case c = folder.load(text);
        const CheckResult result = run_and_check(c);
        EXPECT_EQ(result.elements, 0u) << op;
        EXPECT_TRUE(result.passed()) << op;
    }
}

std::vector<std::uint16_t> encode_all(const std::vector<double>& values, std::uint16_t (*encode)(double)) {
    std::vector<std::uint16_t> out;
    for (double v : values) out.push_back(encode(v));
    return out;
}

TEST(CaseRunner, Float16WithFloat64Reference) {
    CaseFolder folder;
    CaseText text;
    text.tolerance = R"({"atol": 1e-05, "rtol": 1e-05, "ulps": 1})";
    text.inputs = packed_input("input_0.bin", "float16", "[2, 3]", 6);
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float16", "[2, 3]", "", "float64") + "]";
    const std::vector<double> x = {-3, -0.7001953125, 0, 0.333251953125, 1, 4};
    std::vector<double> y;
    for (double v : x) y.push_back(hard_sigmoid(v, 0.5, 0.25));
    folder.write_values("input_0.bin", encode_all(x, double_to_float16_bits));
    folder.write_values("output_0.bin", y);
    const Case c = folder.load(text);
    EXPECT_EQ(c.output.file_dtype, SIMDAX_DTYPE_FLOAT64);
    expect_passes(c);
}

std::vector<double> log_softmax_rows(const std::vector<double>& x, std::size_t row) {
    std::vector<double> y;
    for (std::size_t start = 0; start < x.size(); start += row) {
        const double m = *std::max_element(x.begin() + start, x.begin() + start + row);
        double sum = 0;
        for (std::size_t i = 0; i < row; ++i) sum += std::exp(x[start + i] - m);
        for (std::size_t i = 0; i < row; ++i) y.push_back(x[start + i] - m - std::log(sum));
    }
    return y;
}

TEST(CaseRunner, Bfloat16LogSoftmax) {
    CaseFolder folder;
    CaseText text =
        case_text("LogSoftmax", R"({"axes": [1]})", R"({"atol": 1e-05, "rtol": 1e-05, "ulps": 1})");
    text.inputs = packed_input("input_0.bin", "bfloat16", "[2, 4]", 8);
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "bfloat16", "[2, 4]", "", "float64") + "]";
    std::vector<double> x = {1, 2, 3, 4, -0.5, 0.25, 100, -7};
    for (double& v : x) v = bfloat16_bits_to_double(double_to_bfloat16_bits(v));
    folder.write_values("input_0.bin", encode_all(x, double_to_bfloat16_bits));
    folder.write_values("output_0.bin", log_softmax_rows(x, 4));
    expect_passes(folder.load(text));
}

TEST(CaseRunner, Float64LogSoftmaxOverUnorderedAxes) {
    CaseFolder folder;
    CaseText text = case_text("LogSoftmax", R"({"axes": [2, 0]})",  // order carries no meaning
                              R"({"atol": 1e-12, "rtol": 1e-12, "ulps": 0})");
    text.inputs = packed_input("input_0.bin", "float64", "[2, 2, 2]", 8);
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float64", "[2, 2, 2]") + "]";
    // The DirectML example input; groups are {x[., j, .]} for j = 0, 1.
    const std::vector<double> x = {12, 0, -101, 11, 3, 234, 0, -101};
    std::vector<double> y(8);
    for (int j = 0; j < 2; ++j) {
        std::vector<double> group;
        for (int i = 0; i < 2; ++i) {
            for (int k = 0; k < 2; ++k) group.push_back(x[i * 4 + j * 2 + k]);
        }
        const std::vector<double> out = log_softmax_rows(group, 4);
        for (int i = 0; i < 2; ++i) {
            for (int k = 0; k < 2; ++k) y[i * 4 + j * 2 + k] = out[i * 2 + k];
        }
    }
    folder.write_values("input_0.bin", x);
    folder.write_values("output_0.bin", y);
    const Case c = folder.load(text);
    EXPECT_EQ(c.params.axes, (std::vector<std::uint32_t>{2, 0}));
    expect_passes(c);
}

TEST(CaseRunner, MvnWithScaleBiasAndFusedActivation) {
    // X [2, 3, 2], groups over axes {1, 2}; Scale [1, 3, 1], Bias [1, 1, 1];
    // leaky_relu with alpha 0.1.
    CaseFolder folder;
    CaseText text;
    text.op = "MeanVarianceNormalization";
    text.params = R"({"axes": [1, 2], "normalize_variance": true, "epsilon": 1e-05,
                      "activation": {"type": "leaky_relu", "alpha": 0.1}})";
    const std::string packed = R"("strides": null, "offset": 0, "buffer_elements": )";
    text.inputs = "[" + tensor_json("X", "input_0.bin", "float32", "[2, 3, 2]", packed + "12") + ", " +
                  tensor_json("Scale", "scale.bin", "float32", "[1, 3, 1]", packed + "3") + ", " +
                  tensor_json("Bias", "bias.bin", "float32", "[1, 1, 1]", packed + "1") + "]";
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[2, 3, 2]", "", "float64") + "]";
    const std::vector<float> x = {1, 2, 3, 4, 5, 6, -10, 0.5f, 7, 7.5f, 2, -3};
    const std::vector<float> scale = {1, 2, -0.5f};
    const std::vector<float> bias = {0.25f};
    std::vector<double> y;
    for (int n = 0; n < 2; ++n) {
        double mean = 0;
        for (int i = 0; i < 6; ++i) mean += x[n * 6 + i] / 6.0;
        double var = 0;
        for (int i = 0; i < 6; ++i) var += (x[n * 6 + i] - mean) * (x[n * 6 + i] - mean) / 6.0;
        for (int i = 0; i < 6; ++i) {
            const double v = scale[i / 2] * (x[n * 6 + i] - mean) / std::sqrt(var + double(1e-5f)) + bias[0];
            y.push_back(v >= 0 ? v : double(0.1f) * v);
        }
    }
    folder.write_values("input_0.bin", x);
    folder.write_values("scale.bin", scale);
    folder.write_values("bias.bin", bias);
    folder.write_values("output_0.bin", y);
    const Case c = folder.load(text);
    ASSERT_NE(c.input("Scale"), nullptr);
    ASSERT_NE(c.input("Bias"), nullptr);
    ASSERT_TRUE(c.params.activation.has_value());
    EXPECT_EQ(c.params.activation->type, SIMDAX_ACTIVATION_LEAKY_RELU);
    EXPECT_EQ(c.params.activation->alpha, 0.1f);
    expect_passes(c);
}
// params.epsilon_placement: the issue's near-constant group (axes {1},
// epsilon 1e-9) with references from each formula in double; "stddev" gives
// ONNX's -1.00 and must fail against DirectML's -0.30, and back.
std::vector<double> near_constant_reference(const std::vector<float>& x, bool on_stddev) {
    double mean = 0, var = 0;
    for (float v : x) mean += double(v) / double(x.size());
    for (float v : x) var += (double(v) - mean) * (double(v) - mean) / double(x.size());
    const double eps = double(1e-9f);
    const double divisor = on_stddev ? std::sqrt(var) + eps : std::sqrt(var + eps);
    std::vector<double> y;
    for (float v : x) y.push_back((double(v) - mean) / divisor);
    return y;
}

CheckResult run_placement_case(const std::string& placement_json, bool reference_on_stddev) {
    CaseFolder folder;
    CaseText text;
    text.op = "MeanVarianceNormalization";
    text.params = R"({"axes": [1], "normalize_variance": true, "epsilon": 1e-09)" + placement_json + "}";
    text.inputs = packed_input("input_0.bin", "float32", "[1, 4]", 4);
    text.outputs = "[" + tensor_json("Y", "output_0.bin", "float32", "[1, 4]", "", "float64") + "]";
    const std::vector<float> x = {1.0f, 1.00002f, 1.0f, 1.00002f};
    folder.write_values("input_0.bin", x);
    folder.write_values("output_0.bin", near_constant_reference(x, reference_on_stddev));
    return run_and_check(folder.load(text));
}

TEST(CaseRunner, MvnEpsilonPlacementIsHonoured) {
    EXPECT_NEAR(near_constant_reference({1.0f, 1.00002f, 1.0f, 1.00002f}, true)[0], -0.9999, 1e-4);
    EXPECT_NEAR(near_constant_reference({1.0f, 1.00002f, 1.0f, 1.00002f}, false)[0], -0.3019, 1e-4);
    EXPECT_TRUE(run_placement_case(R"(, "epsilon_placement": "stddev")", true).passed());
    EXPECT_FALSE(run_placement_case(R"(, "epsilon_placement": "stddev")", false).passed());
    EXPECT_TRUE(run_placement_case(R"(, "epsilon_placement": "variance")", false).passed());
    EXPECT_FALSE(run_placement_case(R"(, "epsilon_placement": "variance")", true).passed());
    EXPECT_TRUE(run_placement_case("", false).passed());  // absent: the variance
    EXPECT_FALSE(run_placement_case("", true).passed());
}

// Loads an MVN case whose only variable part is the activation object.
simdax_activation_desc load_activation(const std::string& activation_json) {
    CaseFolder folder;
    CaseText text;
    text.op = "MeanVarianceNormalization";
    text.params =
        R"({"axes": [1], "normalize_variance": false, "epsilon": 0, "activation": )" + activation_json + "}";
    write_valid_hard_sigmoid(folder, text);
    const Case c = load_case(folder.dir());
    EXPECT_TRUE(c.params.activation.has_value());
    return c.params.activation.value_or(simdax_activation_desc{});
}

TEST(CaseReader, ActivationParametersMapOntoTheDescriptor) {
    const auto softplus = load_activation(R"({"type": "softplus", "steepness": 3})");
    EXPECT_EQ(softplus.type, SIMDAX_ACTIVATION_SOFTPLUS);
    EXPECT_EQ(softplus.alpha, 3.0f);

    const auto shrink = load_activation(R"({"type": "shrink", "bias": 0.25, "threshold": 2})");
    EXPECT_EQ(shrink.type, SIMDAX_ACTIVATION_SHRINK);
    EXPECT_EQ(shrink.alpha, 0.25f);
    EXPECT_EQ(shrink.beta, 2.0f);

    const auto selu = load_activation(R"({"type": "scaled_elu", "alpha": 1.5, "gamma": 2.5})");
    EXPECT_EQ(selu.alpha, 1.5f);
    EXPECT_EQ(selu.gamma, 2.5f);

    // Parameters left out take the library's documented defaults.
    const auto scaled_tanh = load_activation(R"({"type": "scaled_tanh", "beta": 4})");
    const auto defaults = simdax_activation_default(SIMDAX_ACTIVATION_SCALED_TANH);
    EXPECT_EQ(scaled_tanh.alpha, defaults.alpha);
    EXPECT_EQ(scaled_tanh.beta, 4.0f);

    for (int t = 0; t < SIMDAX_ACTIVATION_COUNT; ++t) {
        const char* name = sxt::spec_activation_name(simdax_activation_type(t));
        const auto desc = load_activation(std::string(R"({"type": ")") + name + "\"}");
        EXPECT_STREQ(simdax_activation_name(desc.type), name);
    }
}
// Running a case needs no reference output (`simdax run`).
TEST(CaseRunner, RunsWithoutTheReferenceFile) {
    CaseFolder folder;
    write_valid_hard_sigmoid(folder);
    fs::remove(folder.dir() / "output_0.bin");
    EXPECT_THROW(load_case(folder.dir()), CaseError);
    const Case c = load_case(folder.dir(), Reference::skip);
    OperatorRun run(c);
    run.execute();
    ASSERT_EQ(run.output_bytes(), 6 * sizeof(float));
    const std::vector<float> x = {-3, -1, 0, 0.5f, 1, 4};
    const float* y = static_cast<const float*>(run.output().data());
    for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(y[i], float(hard_sigmoid(x[size_t(i)], 0.5, 0.25))) << i;
}

}  // namespace
