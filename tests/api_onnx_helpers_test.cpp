// The C API's ONNX helpers: the Softmax and MVN axes, HardSigmoid's
// parameters and the LayerNormalization, RMSNormalization and
// AttentionSoftmax attributes, each with the operator it fills in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "simdax/simdax.h"

namespace {

std::set<uint32_t> softmax_axes(int64_t opset, uint32_t rank, int has_axis, int64_t axis, simdax_status* st) {
    uint32_t axes[SIMDAX_MAX_RANK] = {};
    uint32_t count = 99;
    *st = simdax_onnx_softmax_axes(opset, rank, has_axis, axis, axes, &count);
    if (*st != SIMDAX_OK) return {};
    EXPECT_LE(count, rank);
    return std::set<uint32_t>(axes, axes + std::min<uint32_t>(count, SIMDAX_MAX_RANK));
}

TEST(OnnxHelpers, SoftmaxAxes) {
    struct Row {
        int64_t opset;
        uint32_t rank;
        int has_axis;
        int64_t axis;
        std::set<uint32_t> want;
    };
    const std::vector<Row> rows{
        {1, 4, 0, 0, {1, 2, 3}},    {11, 4, 0, 0, {1, 2, 3}}, {12, 3, 0, 0, {1, 2}},
        {11, 4, 1, 2, {2, 3}},      {11, 4, 1, -1, {3}},      {11, 4, 1, -4, {0, 1, 2, 3}},
        {1, 4, 1, 0, {0, 1, 2, 3}}, {1, 2, 1, -2, {0, 1}},    {13, 4, 0, 0, {3}},
        {13, 4, 1, 1, {1}},         {13, 4, 1, -4, {0}},      {13, 4, 1, -2, {2}},
        {13, 1, 0, 0, {0}},         {13, 8, 1, 7, {7}},       {18, 3, 1, 0, {0}},
        {21, 3, 0, 0, {2}},
    };
    for (const Row& r : rows) {
        simdax_status st;
        const std::set<uint32_t> got = softmax_axes(r.opset, r.rank, r.has_axis, r.axis, &st);
        EXPECT_EQ(st, SIMDAX_OK) << "opset " << r.opset << " rank " << r.rank << " axis " << r.axis << ": "
                                 << simdax_last_error();
        EXPECT_EQ(got, r.want) << "opset " << r.opset << " rank " << r.rank << " has_axis " << r.has_axis
                               << " axis " << r.axis;
    }
}

TEST(OnnxHelpers, SoftmaxAxesOutOfRange) {
    struct Row {
        int64_t opset;
        uint32_t rank;
        int has_axis;
        int64_t axis;
    };
    // axis outside [-r, r-1]; opset 1 default axis 1 on a rank-1 input.
    for (const Row& r : std::vector<Row>{{13, 4, 1, 4},
                                         {13, 4, 1, -5},
                                         {11, 4, 1, 4},
                                         {11, 4, 1, -5},
                                         {1, 3, 1, 100},
                                         {1, 1, 0, 0},
                                         {13, 2, 1, INT64_MIN}}) {
        simdax_status st;
        softmax_axes(r.opset, r.rank, r.has_axis, r.axis, &st);
        EXPECT_EQ(st, SIMDAX_ERROR_INVALID_AXES)
            << "opset " << r.opset << " rank " << r.rank << " axis " << r.axis;
        EXPECT_STRNE(simdax_last_error(), "");
    }
    simdax_status st;
    softmax_axes(13, 0, 0, 0, &st);
    EXPECT_NE(st, SIMDAX_OK) << "rank 0";
    softmax_axes(13, 9, 0, 0, &st);
    EXPECT_NE(st, SIMDAX_OK) << "rank 9";
    uint32_t count = 0;
    EXPECT_EQ(simdax_onnx_softmax_axes(13, 4, 0, 0, nullptr, &count), SIMDAX_ERROR_NULL_POINTER);
    uint32_t axes[SIMDAX_MAX_RANK];
    EXPECT_EQ(simdax_onnx_softmax_axes(13, 4, 0, 0, axes, nullptr), SIMDAX_ERROR_NULL_POINTER);
}

TEST(OnnxHelpers, MvnAxes) {
    uint32_t axes[SIMDAX_MAX_RANK] = {};
    uint32_t count = 0;
    float eps = 0;
    ASSERT_EQ(simdax_onnx_mvn_axes(4, nullptr, 0, axes, &count, &eps), SIMDAX_OK) << simdax_last_error();
    EXPECT_EQ(std::set<uint32_t>(axes, axes + count), (std::set<uint32_t>{0, 2, 3}));
    EXPECT_EQ(count, 3u);
    EXPECT_EQ(eps, 1e-9f);
    const int64_t explicit_axes[2] = {-1, 0};
    ASSERT_EQ(simdax_onnx_mvn_axes(3, explicit_axes, 2, axes, &count, &eps), SIMDAX_OK)
        << simdax_last_error();
    EXPECT_EQ(std::set<uint32_t>(axes, axes + count), (std::set<uint32_t>{0, 2}));
    EXPECT_EQ(eps, 1e-9f);
    const int64_t one[1] = {1};
    ASSERT_EQ(simdax_onnx_mvn_axes(4, one, 1, axes, &count, &eps), SIMDAX_OK);
    EXPECT_EQ(std::set<uint32_t>(axes, axes + count), (std::set<uint32_t>{1}));
    // Bad sets: out of range either side, repeated (also via a negative alias),
    // and the default {0,2,3} on a rank-2 input.
    const int64_t four[1] = {4}, minus5[1] = {-5}, rep[2] = {1, 1}, alias[2] = {1, -3};
    EXPECT_EQ(simdax_onnx_mvn_axes(4, four, 1, axes, &count, &eps), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_EQ(simdax_onnx_mvn_axes(4, minus5, 1, axes, &count, &eps), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_EQ(simdax_onnx_mvn_axes(4, rep, 2, axes, &count, &eps), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_EQ(simdax_onnx_mvn_axes(4, alias, 2, axes, &count, &eps), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_EQ(simdax_onnx_mvn_axes(2, nullptr, 0, axes, &count, &eps), SIMDAX_ERROR_INVALID_AXES);
    EXPECT_STRNE(simdax_last_error(), "");
}

TEST(OnnxHelpers, HardSigmoidParams) {
    float a = 0, b = 0;
    ASSERT_EQ(simdax_onnx_hard_sigmoid_params(0, 123.f, 0, 456.f, &a, &b), SIMDAX_OK);
    EXPECT_EQ(a, 0.2f);
    EXPECT_EQ(b, 0.5f);
    ASSERT_EQ(simdax_onnx_hard_sigmoid_params(1, 0.3f, 0, 9.f, &a, &b), SIMDAX_OK);
    EXPECT_EQ(a, 0.3f);
    EXPECT_EQ(b, 0.5f);
    ASSERT_EQ(simdax_onnx_hard_sigmoid_params(1, -1.5f, 1, -0.25f, &a, &b), SIMDAX_OK);
    EXPECT_EQ(a, -1.5f);
    EXPECT_EQ(b, -0.25f);
    ASSERT_EQ(simdax_onnx_hard_sigmoid_params(0, 0.f, 1, 0.75f, &a, &b), SIMDAX_OK);
    EXPECT_EQ(a, 0.2f);
    EXPECT_EQ(b, 0.75f);
    EXPECT_EQ(simdax_onnx_hard_sigmoid_params(0, 0.f, 0, 0.f, nullptr, &b), SIMDAX_ERROR_NULL_POINTER);
}

// The attributes helper attrs (LayerNormalization's or RMSNormalization's)
// with every attribute absent fills d with ONNX's defaults.
template <class Attrs, class Desc>
void expect_onnx_norm_defaults(Attrs attrs, Desc* d) {
    ASSERT_EQ(attrs(0, 5, 0, 9.f, 0, 7, d), SIMDAX_OK) << simdax_last_error();
    EXPECT_EQ(d->axis, -1);
    EXPECT_EQ(d->epsilon, 1e-5f);
    EXPECT_EQ(d->stash_type, 1);
}

TEST(OnnxHelpers, NormalizationAttrs) {
    // Absent attributes: ONNX's defaults (LayerNormalization-17, RMSNormalization-23).
    simdax_layer_normalization_desc ln{};
    ASSERT_NO_FATAL_FAILURE(expect_onnx_norm_defaults(simdax_onnx_layer_normalization_attrs, &ln));
    simdax_rms_normalization_desc rms{};
    ASSERT_NO_FATAL_FAILURE(expect_onnx_norm_defaults(simdax_onnx_rms_normalization_attrs, &rms));
    // Present attributes are taken as given.
    ASSERT_EQ(simdax_onnx_layer_normalization_attrs(1, 1, 1, 1e-6f, 1, 1, &ln), SIMDAX_OK);
    EXPECT_EQ(ln.axis, 1);
    EXPECT_EQ(ln.epsilon, 1e-6f);
    ASSERT_EQ(simdax_onnx_rms_normalization_attrs(1, -2, 1, 0.f, 0, 0, &rms), SIMDAX_OK);
    EXPECT_EQ(rms.axis, -2);
    EXPECT_EQ(rms.epsilon, 0.f);
    // Refusals write nothing.
    EXPECT_EQ(simdax_onnx_layer_normalization_attrs(1, 0, 1, 0.5f, 1, 0, &ln), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(simdax_onnx_rms_normalization_attrs(0, 0, 0, 0.f, 1, 16, &rms), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(simdax_onnx_layer_normalization_attrs(1, SIMDAX_MAX_RANK, 0, 0.f, 0, 0, &ln),
              SIMDAX_ERROR_INVALID_AXES);
    EXPECT_EQ(simdax_onnx_rms_normalization_attrs(1, -SIMDAX_MAX_RANK - 1, 0, 0.f, 0, 0, &rms),
              SIMDAX_ERROR_INVALID_AXES);
    EXPECT_EQ(ln.axis, 1);
    EXPECT_EQ(ln.epsilon, 1e-6f);
    EXPECT_EQ(rms.axis, -2);
    EXPECT_EQ(simdax_onnx_layer_normalization_attrs(0, 0, 0, 0.f, 0, 0, nullptr), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_onnx_rms_normalization_attrs(0, 0, 0, 0.f, 0, 0, nullptr), SIMDAX_ERROR_NULL_POINTER);
}

// The filled descriptors create their operators and compute ONNX's defaults.
TEST(OnnxHelpers, NormalizationAttrsRoundTrip) {
    const int64_t xs[2] = {3, 8}, gs[1] = {8};
    const simdax_tensor_desc x{SIMDAX_DTYPE_FLOAT32, 2, xs, nullptr}, g{SIMDAX_DTYPE_FLOAT32, 1, gs, nullptr};
    std::vector<float> in(24), scale(8, 1.0f), out(24);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 8) - 3.5f + 0.25f * float(i / 8);
    simdax_layer_normalization_desc ln{&x, &g,      nullptr, &x,      99,      99.f,
                                       99, nullptr, nullptr, nullptr, nullptr, nullptr};
    ASSERT_EQ(simdax_onnx_layer_normalization_attrs(0, 0, 0, 0.f, 0, 0, &ln), SIMDAX_OK);
    simdax_operator* op = nullptr;
    const simdax_operator_desc lnd{SIMDAX_OPERATOR_LAYER_NORMALIZATION, &ln};
    ASSERT_EQ(simdax_operator_create(&lnd, &op), SIMDAX_OK) << simdax_last_error();
    simdax_bindings b{in.data(), scale.data(), nullptr, out.data()};
    ASSERT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK) << simdax_last_error();
    simdax_operator_destroy(op);
    for (int r = 0; r < 3; ++r) {
        double mean = 0, var = 0;
        for (int c = 0; c < 8; ++c) mean += in[r * 8 + c] / 8.0;
        for (int c = 0; c < 8; ++c) var += (in[r * 8 + c] - mean) * (in[r * 8 + c] - mean) / 8.0;
        for (int c = 0; c < 8; ++c)
            EXPECT_NEAR(out[r * 8 + c], (in[r * 8 + c] - mean) / std::sqrt(var + 1e-5), 1e-5)
                << r << "," << c;
    }
    simdax_rms_normalization_desc rms{&x, &g, &x, 99, 99.f, 99, nullptr, nullptr, nullptr};
    ASSERT_EQ(simdax_onnx_rms_normalization_attrs(0, 0, 0, 0.f, 0, 0, &rms), SIMDAX_OK);
    const simdax_operator_desc rd{SIMDAX_OPERATOR_RMS_NORMALIZATION, &rms};
    ASSERT_EQ(simdax_operator_create(&rd, &op), SIMDAX_OK) << simdax_last_error();
    ASSERT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK) << simdax_last_error();
    simdax_operator_destroy(op);
    for (int r = 0; r < 3; ++r) {
        double ms = 0;
        for (int c = 0; c < 8; ++c) ms += double(in[r * 8 + c]) * in[r * 8 + c] / 8.0;
        for (int c = 0; c < 8; ++c)
            EXPECT_NEAR(out[r * 8 + c], in[r * 8 + c] / std::sqrt(ms + 1e-5), 1e-5) << r << "," << c;
    }
}

TEST(OnnxHelpers, AttentionSoftmaxAttrs) {
    simdax_attention_softmax_desc d{};
    d.window = 7;
    d.log = 1;
    // Defaults: scale 1/sqrt(head_size), no causal mask, no softcap.
    ASSERT_EQ(simdax_onnx_attention_softmax_attrs(64, 0, 5.f, 0, 0, 0.f, 0, &d), SIMDAX_OK)
        << simdax_last_error();
    EXPECT_EQ(d.scale, 0.125f);
    EXPECT_EQ(d.softcap, 0.f);
    EXPECT_EQ(d.causal, SIMDAX_CAUSAL_NONE);
    EXPECT_EQ(d.window, 7u);  // other fields untouched
    EXPECT_EQ(d.log, 1);
    ASSERT_EQ(simdax_onnx_attention_softmax_attrs(3, 0, 0.f, 0, 0, 0.f, 0, &d), SIMDAX_OK);
    EXPECT_EQ(d.scale, float(1.0 / std::sqrt(3.0)));
    // Given: the scale as is (head_size unread), causal per the past keys, softcap.
    ASSERT_EQ(simdax_onnx_attention_softmax_attrs(0, 1, 0.5f, 1, 0, 30.f, 0, &d), SIMDAX_OK);
    EXPECT_EQ(d.scale, 0.5f);
    EXPECT_EQ(d.softcap, 30.f);
    EXPECT_EQ(d.causal, SIMDAX_CAUSAL_TOP_LEFT);
    ASSERT_EQ(simdax_onnx_attention_softmax_attrs(16, 0, 0.f, 1, 1, 0.f, 0, &d), SIMDAX_OK);
    EXPECT_EQ(d.scale, 0.25f);
    EXPECT_EQ(d.causal, SIMDAX_CAUSAL_BOTTOM_RIGHT);
    ASSERT_EQ(simdax_onnx_attention_softmax_attrs(16, 0, 0.f, 0, 1, 0.f, 0, &d), SIMDAX_OK);
    EXPECT_EQ(d.causal, SIMDAX_CAUSAL_NONE);
    // Refusals write nothing.
    d.scale = 2.f;
    EXPECT_EQ(simdax_onnx_attention_softmax_attrs(0, 0, 0.f, 0, 0, 0.f, 0, &d),
              SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(simdax_onnx_attention_softmax_attrs(8, 0, 0.f, 2, 0, 0.f, 0, &d),
              SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(simdax_onnx_attention_softmax_attrs(8, 0, 0.f, 0, 0, -1.f, 0, &d),
              SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(simdax_onnx_attention_softmax_attrs(8, 0, 0.f, 0, 0, 0.f, 1, &d),
              SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(d.scale, 2.f);
    EXPECT_EQ(d.causal, SIMDAX_CAUSAL_NONE);
    EXPECT_EQ(simdax_onnx_attention_softmax_attrs(8, 0, 0.f, 0, 0, 0.f, 0, nullptr),
              SIMDAX_ERROR_NULL_POINTER);
}

// The filled descriptor creates AttentionSoftmax: a causal row of equal
// scores spreads evenly over the keys it sees.
TEST(OnnxHelpers, AttentionSoftmaxAttrsRoundTrip) {
    const int64_t xs[2] = {3, 3};
    const simdax_tensor_desc x{SIMDAX_DTYPE_FLOAT32, 2, xs, nullptr};
    simdax_attention_softmax_desc d{&x, nullptr, nullptr, nullptr, &x, nullptr, 9.f, 9.f, SIMDAX_CAUSAL_NONE,
                                    0,  0};
    ASSERT_EQ(simdax_onnx_attention_softmax_attrs(4, 0, 0.f, 1, 0, 0.f, 0, &d), SIMDAX_OK);
    simdax_operator* op = nullptr;
    const simdax_operator_desc od{SIMDAX_OPERATOR_ATTENTION_SOFTMAX, &d};
    ASSERT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK) << simdax_last_error();
    std::vector<float> in(9, 1.0f), out(9, -1.0f);
    simdax_bindings b{in.data(), nullptr, nullptr, out.data()};
    ASSERT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK) << simdax_last_error();
    simdax_operator_destroy(op);
    const std::vector<float> want{1, 0, 0, 0.5f, 0.5f, 0, 1.f / 3, 1.f / 3, 1.f / 3};
    for (int i = 0; i < 9; ++i) EXPECT_NEAR(out[i], want[i], 1e-6) << i;
}

}  // namespace
