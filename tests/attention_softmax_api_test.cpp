// AttentionSoftmax's refusals (each names its argument, nothing written),
// the create-info path, its description, the causal window never read, and
// bitwise the same output on 1 and 2 threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "simdax/simdax.hpp"

namespace {

struct Desc {
    std::vector<int64_t> xs{2, 3, 4, 8}, ms{2, 1, 1, 8}, rs{1, 3, 1, 1}, ls{2, 3, 4, 1};
    simdax_tensor_desc x{SIMDAX_DTYPE_FLOAT32, 4, xs.data(), nullptr};
    simdax_tensor_desc y = x;
    simdax_tensor_desc mask{SIMDAX_DTYPE_UINT8, 4, ms.data(), nullptr};
    simdax_tensor_desc slopes{SIMDAX_DTYPE_FLOAT32, 4, rs.data(), nullptr};
    simdax_tensor_desc sinks{SIMDAX_DTYPE_FLOAT16, 4, rs.data(), nullptr};
    simdax_tensor_desc lse{SIMDAX_DTYPE_FLOAT32, 4, ls.data(), nullptr};
    simdax_attention_softmax_desc d{&x, &mask, &slopes, &sinks, &y, &lse, 0.5f, 0.0f, SIMDAX_CAUSAL_TOP_LEFT,
                                    2,  0};
};

// Creation fails with status s and a message starting with prefix; the
// one-shot call with the same descriptor writes nothing.
void expect_refused(const Desc& dd, simdax_status s, const std::string& prefix) {
    SCOPED_TRACE(prefix);
    const simdax_operator_desc od{SIMDAX_OPERATOR_ATTENTION_SOFTMAX, &dd.d};
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create(&od, &op), s);
    EXPECT_EQ(op, nullptr);
    EXPECT_EQ(std::string(simdax_last_error()).rfind(prefix, 0), 0u) << simdax_last_error();
    std::vector<float> x(2 * 3 * 4 * 8, 1.0f), y(x.size(), 7.0f), lse(24, 7.0f), slopes(3, 0.1f);
    std::vector<uint8_t> mask(16, 1);
    std::vector<uint16_t> sinks(3, 0);
    EXPECT_EQ(simdax_attention_softmax(&dd.d, x.data(), mask.data(), slopes.data(), sinks.data(), y.data(),
                                       lse.data()),
              s);
    for (float v : y) ASSERT_EQ(v, 7.0f);
    for (float v : lse) ASSERT_EQ(v, 7.0f);
}

TEST(AttentionSoftmaxApi, RefusalsNameTheirArgument) {
    // Each row changes one argument of a valid descriptor.
    struct Refusal {
        simdax_status status;
        const char* prefix;
        void (*change)(Desc&);
    };
    const Refusal rows[] = {
        {SIMDAX_ERROR_SHAPE_MISMATCH, "input.rank: 1 must be >= 2",
         [](Desc& d) {
             d.x.rank = d.y.rank = 1;
             d.d.mask = d.d.alibi_slopes = d.d.sinks = d.d.log_sum_exp = nullptr;
         }},
        {SIMDAX_ERROR_DTYPE_MISMATCH, "input.dtype: float64 is not one of",
         [](Desc& d) { d.x.dtype = d.y.dtype = SIMDAX_DTYPE_FLOAT64; }},
        {SIMDAX_ERROR_INVALID_ARGUMENT, "input.dtype: uint8 is for boolean masks only",
         [](Desc& d) { d.x.dtype = d.y.dtype = SIMDAX_DTYPE_UINT8; }},
        {SIMDAX_ERROR_SHAPE_MISMATCH, "mask.sizes[2]: 3 is neither input.sizes[2] (4) nor 1",
         [](Desc& d) { d.ms[2] = 3; }},
        {SIMDAX_ERROR_DTYPE_MISMATCH, "mask.dtype: float64 is not one of",
         [](Desc& d) { d.mask.dtype = SIMDAX_DTYPE_FLOAT64; }},
        {SIMDAX_ERROR_SHAPE_MISMATCH, "mask.rank: 3 differs from input.rank 4",
         [](Desc& d) { d.mask.rank = 3; }},
        {SIMDAX_ERROR_SHAPE_MISMATCH, "alibi_slopes.sizes[3]: 8 must be 1", [](Desc& d) { d.rs[3] = 8; }},
        {SIMDAX_ERROR_DTYPE_MISMATCH, "sinks.dtype: uint8 is not one of",
         [](Desc& d) { d.sinks.dtype = SIMDAX_DTYPE_UINT8; }},
        {SIMDAX_ERROR_DTYPE_MISMATCH, "log_sum_exp.dtype: float16 must be float32",
         [](Desc& d) { d.lse.dtype = SIMDAX_DTYPE_FLOAT16; }},
        {SIMDAX_ERROR_SHAPE_MISMATCH, "log_sum_exp.sizes[3]: 8 must be 1", [](Desc& d) { d.ls[3] = 8; }},
        {SIMDAX_ERROR_SHAPE_MISMATCH, "log_sum_exp.sizes[0]: 1 must be 2", [](Desc& d) { d.ls[0] = 1; }},
        {SIMDAX_ERROR_INVALID_ARGUMENT, "scale: nan is not finite", [](Desc& d) { d.d.scale = NAN; }},
        {SIMDAX_ERROR_INVALID_ARGUMENT, "softcap: -1 must be >= 0", [](Desc& d) { d.d.softcap = -1.0f; }},
        {SIMDAX_ERROR_INVALID_ARGUMENT, "causal: 7 is not a simdax_causal",
         [](Desc& d) { d.d.causal = simdax_causal(7); }},
        {SIMDAX_ERROR_INVALID_ARGUMENT, "window: 2 needs a causal mode",
         [](Desc& d) { d.d.causal = SIMDAX_CAUSAL_NONE; }},
        {SIMDAX_ERROR_INVALID_ARGUMENT, "log: 2 is neither 0", [](Desc& d) { d.d.log = 2; }},
        {SIMDAX_ERROR_DTYPE_MISMATCH, "output.dtype: float16 differs from input.dtype",
         [](Desc& d) { d.y.dtype = SIMDAX_DTYPE_FLOAT16; }},
    };
    for (const Refusal& r : rows) {
        Desc d;
        r.change(d);
        expect_refused(d, r.status, r.prefix);
    }
}

TEST(AttentionSoftmaxApi, UnboundOperandAndOverlapAreRefused) {
    Desc dd;
    const simdax_operator_desc od{SIMDAX_OPERATOR_ATTENTION_SOFTMAX, &dd.d};
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK);
    std::vector<float> x(96, 1.0f), y(96, 7.0f), lse(24, 7.0f), slopes(3, 0.1f);
    std::vector<uint16_t> sinks(3, 0);
    simdax_buffer_binding bb[SIMDAX_OPERAND_COUNT] = {};
    bb[SIMDAX_OPERAND_INPUT].data = x.data();
    bb[SIMDAX_OPERAND_OUTPUT].data = y.data();
    bb[SIMDAX_OPERAND_ALIBI_SLOPES].data = slopes.data();
    bb[SIMDAX_OPERAND_SINKS].data = sinks.data();
    bb[SIMDAX_OPERAND_LOG_SUM_EXP].data = lse.data();
    const simdax_operand_bindings b{
        SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS), SIMDAX_OPERAND_COUNT,
        bb};
    EXPECT_EQ(simdax_operator_execute_bound(op, &b, nullptr), SIMDAX_ERROR_NULL_POINTER);  // no mask
    EXPECT_NE(std::string(simdax_last_error()).find("mask"), std::string::npos) << simdax_last_error();
    std::vector<uint8_t> mask(16, 1);
    bb[SIMDAX_OPERAND_MASK].data = mask.data();
    bb[SIMDAX_OPERAND_LOG_SUM_EXP].data = y.data() + 4;  // inside the output
    EXPECT_EQ(simdax_operator_execute_bound(op, &b, nullptr), SIMDAX_ERROR_OVERLAP);
    for (float v : y) ASSERT_EQ(v, 7.0f);
    simdax_operator_destroy(op);
}

TEST(AttentionSoftmaxApi, CreateInfoAndDescription) {
    Desc dd;
    simdax_attention_softmax_create_info info{
        SIMDAX_HEADER(simdax_attention_softmax_create_info,
                      SIMDAX_STRUCTURE_TYPE_ATTENTION_SOFTMAX_CREATE_INFO),
        dd.d};
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create_from_info(&info.header, &op), SIMDAX_OK) << simdax_last_error();
    EXPECT_EQ(simdax_operator_get_type(op), SIMDAX_OPERATOR_ATTENTION_SOFTMAX);
    char text[512];
    simdax_operator_describe(op, text, sizeof text);
    EXPECT_NE(std::string(text).find("AttentionSoftmax"), std::string::npos) << text;
    EXPECT_NE(std::string(text).find("causal=top_left window=2"), std::string::npos) << text;
    EXPECT_NE(std::string(text).find("mask=uint8"), std::string::npos) << text;
    simdax_operator_destroy(op);
    EXPECT_STREQ(simdax_operator_name(SIMDAX_OPERATOR_ATTENTION_SOFTMAX), "AttentionSoftmax");
}

// NaN where the causal window excludes a key: the output never sees it.
TEST(AttentionSoftmaxApi, CausalWindowIsNotRead) {
    for (simdax_causal causal : {SIMDAX_CAUSAL_TOP_LEFT, SIMDAX_CAUSAL_BOTTOM_RIGHT}) {
        const int64_t sq = 5, skv = 37;
        int64_t sizes[2] = {sq, skv};
        simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
        const simdax_attention_softmax_desc d{&t,   nullptr, nullptr, nullptr, &t, nullptr,
                                              1.0f, 0.0f,    causal,  3,       0};
        std::vector<float> x(size_t(sq * skv)), y(x.size(), -1.0f);
        for (int64_t i = 0; i < sq; ++i)
            for (int64_t j = 0; j < skv; ++j) {
                const int64_t ip = causal == SIMDAX_CAUSAL_BOTTOM_RIGHT ? i + skv - sq : i;
                x[size_t(i * skv + j)] = j <= ip && j > ip - 3 ? float(j % 5) : NAN;
            }
        ASSERT_EQ(simdax_attention_softmax(&d, x.data(), nullptr, nullptr, nullptr, y.data(), nullptr),
                  SIMDAX_OK);
        for (int64_t i = 0; i < sq; ++i) {
            double sum = 0;
            for (int64_t j = 0; j < skv; ++j) {
                ASSERT_FALSE(std::isnan(y[size_t(i * skv + j)])) << i << ' ' << j;
                sum += y[size_t(i * skv + j)];
            }
            EXPECT_NEAR(sum, 1.0, 1e-6);
        }
    }
}

TEST(AttentionSoftmaxConcurrency, SameBitsOnOneAndTwoThreads) {
    std::vector<int64_t> xs{2, 4, 64, 200}, ms{2, 1, 1, 200};
    simdax_tensor_desc x{SIMDAX_DTYPE_BFLOAT16, 4, xs.data(), nullptr};
    simdax_tensor_desc mask{SIMDAX_DTYPE_FLOAT32, 4, ms.data(), nullptr};
    const simdax_attention_softmax_desc d{
        &x, &mask, nullptr, nullptr, &x, nullptr, 0.3f, 20.0f, SIMDAX_CAUSAL_BOTTOM_RIGHT, 0, 0};
    const simdax_operator_desc od{SIMDAX_OPERATOR_ATTENTION_SOFTMAX, &d};
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK);
    const size_t n = 2 * 4 * 64 * 200;
    std::vector<uint16_t> in(n), y1(n), y2(n);
    for (size_t i = 0; i < n; ++i) in[i] = uint16_t(0x3f00 + (i * 7919) % 0x500);  // bfloat16 in [0.5, 8)
    std::vector<float> m(2 * 200);
    for (size_t i = 0; i < m.size(); ++i) m[i] = i % 11 == 0 ? -INFINITY : float(i % 7) * 0.25f;
    simdax_threadpool* pool = nullptr;
    ASSERT_EQ(simdax_threadpool_create(2, &pool), SIMDAX_OK);
    const simdax_parallel par = simdax_threadpool_parallel(pool);
    simdax_buffer_binding bb[SIMDAX_OPERAND_COUNT] = {};
    bb[SIMDAX_OPERAND_INPUT].data = in.data();
    bb[SIMDAX_OPERAND_MASK].data = m.data();
    const simdax_operand_bindings b{
        SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS), SIMDAX_OPERAND_COUNT,
        bb};
    bb[SIMDAX_OPERAND_OUTPUT].data = y1.data();
    ASSERT_EQ(simdax_operator_execute_bound(op, &b, nullptr), SIMDAX_OK);
    bb[SIMDAX_OPERAND_OUTPUT].data = y2.data();
    ASSERT_EQ(simdax_operator_execute_bound(op, &b, &par), SIMDAX_OK);
    EXPECT_EQ(std::memcmp(y1.data(), y2.data(), n * 2), 0);
    simdax_threadpool_destroy(pool);
    simdax_operator_destroy(op);
}

// The C++ wrapper: options, execute_bound, the log-sum-exp beside.
TEST(AttentionSoftmaxApi, CppWrapper) {
    namespace sc = simdax::cpp;
    sc::AttentionSoftmaxOptions o;
    o.mask = sc::TensorDesc({1, 4}, SIMDAX_DTYPE_UINT8);
    o.log_sum_exp = sc::TensorDesc({3, 1});
    o.scale = 2.0f;
    o.causal = SIMDAX_CAUSAL_BOTTOM_RIGHT;
    const sc::Operator op = sc::attention_softmax({3, 4}, SIMDAX_DTYPE_FLOAT32, o);
    const float x[12] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
    const uint8_t mask[4] = {1, 0, 1, 1};
    float y[12], lse[3];
    op.execute_bound(
        {sc::Buffer(x, 12), sc::Buffer(y, 12), {}, {}, sc::Buffer(mask, 4), {}, {}, sc::Buffer(lse, 3)});
    // Row 0 (i' = 1) sees keys 0 and 1; key 1 is masked: y = {1, 0, 0, 0}.
    EXPECT_EQ(y[0], 1.0f);
    EXPECT_EQ(y[1] + y[2] + y[3], 0.0f);
    EXPECT_NEAR(lse[0], 0.0, 1e-6);
    // Row 2 sees keys 0, 2, 3 with logits 0, 4, 6.
    EXPECT_NEAR(lse[2], std::log(1.0 + std::exp(4.0) + std::exp(6.0)), 1e-5);
    EXPECT_NEAR(y[11], std::exp(6.0 - lse[2]), 1e-6);
}

}  // namespace
