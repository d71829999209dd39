// The typed API of 0.3: create-info structures (their header names the
// operator and its size) and operand bindings with buffer lengths. Results
// are checked against the float64 reference; refusals write nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "simdax/simdax.h"
#include "support/reference.hpp"

namespace {

using sxt::StridedView;

std::vector<float> ramp(size_t n, float scale) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = scale * float(int(i * 7919 % 97) - 48);
    return v;
}

// docs/spec.md "Accuracy" for float32: within atol + rtol * |ref|.
constexpr double kAtol = 1e-5, kSoftmaxAtol = 1e-6, kRtol = 1e-5;

void expect_near_reference(const std::vector<float>& got, const std::vector<double>& want, double atol,
                           double rtol = kRtol) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], atol + rtol * std::fabs(want[i])) << i;
}

simdax_buffer_binding whole(const std::vector<float>& v) {
    return {const_cast<float*>(v.data()), 0, v.size() * sizeof(float)};
}

simdax_status run(const simdax_operator* op, std::vector<simdax_buffer_binding> operands,
                  const simdax_parallel* par = nullptr) {
    simdax_operand_bindings b{SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS),
                              uint32_t(operands.size()), operands.data()};
    return simdax_operator_execute_bound(op, &b, par);
}

struct Created {
    simdax_operator* op = nullptr;
    ~Created() { simdax_operator_destroy(op); }
};

// LogSoftmax, Softmax or Hardmax over one axis from its create-info structure.
template <class Info>
void create_axes_op(simdax_structure_type type, const simdax_tensor_desc& in, const simdax_tensor_desc& out,
                    const uint32_t* axis, Created* c) {
    const Info info{SIMDAX_HEADER(Info, type), {&in, &out, 1, axis}};
    ASSERT_EQ(simdax_operator_create_from_info(&info.header, &c->op), SIMDAX_OK) << simdax_last_error();
}

TEST(TypedApi, LogSoftmaxFromInfoMatchesReference) {
    const int64_t sizes[2] = {6, 50};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
    const uint32_t axes[1] = {1};
    Created c;
    create_axes_op<simdax_log_softmax_create_info>(SIMDAX_STRUCTURE_TYPE_LOG_SOFTMAX_CREATE_INFO, t, t, axes,
                                                   &c);
    EXPECT_EQ(simdax_operator_get_type(c.op), SIMDAX_OPERATOR_LOG_SOFTMAX);
    const std::vector<float> x = ramp(300, 0.25f);
    std::vector<float> y(300, -7.0f);
    ASSERT_EQ(run(c.op, {whole(x), whole(y)}), SIMDAX_OK) << simdax_last_error();
    std::vector<double> xd(x.begin(), x.end());
    expect_near_reference(y, sxt::ref_log_softmax(StridedView{xd.data(), {6, 50}, {50, 1}}, {1}), kAtol);
}

TEST(TypedApi, MvnWithScaleAndBiasByOperandMatchesReference) {
    const int64_t sizes[3] = {4, 8, 16}, ssizes[3] = {1, 1, 16};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 3, sizes, nullptr};
    const simdax_tensor_desc st{SIMDAX_DTYPE_FLOAT32, 3, ssizes, nullptr};
    const uint32_t axes[1] = {2};
    simdax_mvn_create_info info{SIMDAX_HEADER(simdax_mvn_create_info, SIMDAX_STRUCTURE_TYPE_MVN_CREATE_INFO),
                                {{&t, &st, &st, &t, 1, axes, 1, 1e-5f, nullptr}, SIMDAX_EPSILON_ON_STDDEV}};
    Created c;
    ASSERT_EQ(simdax_operator_create_from_info(&info.header, &c.op), SIMDAX_OK) << simdax_last_error();
    const std::vector<float> x = ramp(512, 0.5f), scale = ramp(16, 0.1f), bias = ramp(16, 0.01f);
    std::vector<float> y(512);
    std::vector<simdax_buffer_binding> ops(SIMDAX_OPERAND_COUNT);
    ops[SIMDAX_OPERAND_INPUT] = whole(x);
    ops[SIMDAX_OPERAND_OUTPUT] = whole(y);
    ops[SIMDAX_OPERAND_SCALE] = whole(scale);
    ops[SIMDAX_OPERAND_BIAS] = whole(bias);
    ASSERT_EQ(run(c.op, ops), SIMDAX_OK) << simdax_last_error();
    std::vector<double> xd(x.begin(), x.end()), sd(scale.begin(), scale.end()), bd(bias.begin(), bias.end());
    const StridedView sv{sd.data(), {1, 1, 16}, {16, 16, 1}}, bv{bd.data(), {1, 1, 16}, {16, 16, 1}};
    sxt::MvnParams p;
    p.scale = &sv;
    p.bias = &bv;
    p.epsilon = 1e-5;
    p.epsilon_on_stddev = true;
    expect_near_reference(y, sxt::ref_mvn(StridedView{xd.data(), {4, 8, 16}, {128, 16, 1}}, {2}, p), kAtol);
    // Without the bias bound, the operator (created with one) refuses.
    ops[SIMDAX_OPERAND_BIAS] = {};
    EXPECT_EQ(run(c.op, ops), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_NE(std::strstr(simdax_last_error(), "bias"), nullptr) << simdax_last_error();
}

TEST(TypedApi, HeaderOfTheWrongKindOrSizeIsRefused) {
    const int64_t sizes[1] = {8};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 1, sizes, nullptr};
    const uint32_t axes[1] = {0};
    // A softmax structure labelled as MVN's: MVN's is larger, so the size
    // gives it away before anything past the softmax descriptor is read.
    simdax_softmax_create_info info{
        SIMDAX_HEADER(simdax_softmax_create_info, SIMDAX_STRUCTURE_TYPE_MVN_CREATE_INFO), {&t, &t, 1, axes}};
    simdax_operator* op = reinterpret_cast<simdax_operator*>(&info);
    EXPECT_EQ(simdax_operator_create_from_info(&info.header, &op), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(op, nullptr);
    EXPECT_NE(std::strstr(simdax_last_error(), "info.size"), nullptr) << simdax_last_error();
    info.header.type = simdax_structure_type(77);
    EXPECT_EQ(simdax_operator_create_from_info(&info.header, &op), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::strstr(simdax_last_error(), "info.type"), nullptr) << simdax_last_error();
    info.header.type = SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS;  // a structure, but not a create-info
    EXPECT_EQ(simdax_operator_create_from_info(&info.header, &op), SIMDAX_ERROR_INVALID_ARGUMENT);
    info.header = SIMDAX_HEADER(simdax_softmax_create_info, SIMDAX_STRUCTURE_TYPE_SOFTMAX_CREATE_INFO);
    info.header.size -= 1;
    EXPECT_EQ(simdax_operator_create_from_info(&info.header, &op), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(simdax_operator_create_from_info(nullptr, &op), SIMDAX_ERROR_NULL_POINTER);
    info.header.size += 1;
    ASSERT_EQ(simdax_operator_create_from_info(&info.header, &op), SIMDAX_OK) << simdax_last_error();
    simdax_operator_destroy(op);
}

TEST(TypedApi, BindingsHeaderIsChecked) {
    const int64_t sizes[1] = {8};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 1, sizes, nullptr};
    const simdax_hard_sigmoid_create_info info{
        SIMDAX_HEADER(simdax_hard_sigmoid_create_info, SIMDAX_STRUCTURE_TYPE_HARD_SIGMOID_CREATE_INFO),
        {&t, &t, 0.2f, 0.5f}};
    Created c;
    ASSERT_EQ(simdax_operator_create_from_info(&info.header, &c.op), SIMDAX_OK) << simdax_last_error();
    std::vector<float> x(8, 1.0f), y(8, 9.0f);
    simdax_buffer_binding ops[2] = {whole(x), whole(y)};
    simdax_operand_bindings b{
        SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_SOFTMAX_CREATE_INFO), 2, ops};
    EXPECT_EQ(simdax_operator_execute_bound(c.op, &b, nullptr), SIMDAX_ERROR_INVALID_ARGUMENT);
    b.header = SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS);
    b.header.size = 8;
    EXPECT_EQ(simdax_operator_execute_bound(c.op, &b, nullptr), SIMDAX_ERROR_INVALID_ARGUMENT);
    b.header = SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS);
    b.operands = nullptr;
    EXPECT_EQ(simdax_operator_execute_bound(c.op, &b, nullptr), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_operator_execute_bound(c.op, nullptr, nullptr), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(simdax_operator_execute_bound(nullptr, &b, nullptr), SIMDAX_ERROR_NULL_POINTER);
    b.count = 1;  // the output is past count: unbound
    b.operands = ops;
    EXPECT_EQ(simdax_operator_execute_bound(c.op, &b, nullptr), SIMDAX_ERROR_NULL_POINTER);
    EXPECT_EQ(y, std::vector<float>(8, 9.0f));
}

// The case of the issue: 2^31 elements declared over a 64-float buffer.
TEST(TypedApi, UndersizedBufferIsRefusedAndNothingWritten) {
    const int64_t sizes[2] = {int64_t(1) << 21, 1024};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
    const uint32_t axes[1] = {1};
    Created c;
    create_axes_op<simdax_softmax_create_info>(SIMDAX_STRUCTURE_TYPE_SOFTMAX_CREATE_INFO, t, t, axes, &c);
    std::vector<float> x(64, 1.0f), y(64, 5.0f);
    EXPECT_EQ(run(c.op, {whole(x), whole(y)}), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::strstr(simdax_last_error(), "bindings.operands.input"), nullptr) << simdax_last_error();
    EXPECT_EQ(y, std::vector<float>(64, 5.0f));
    // One byte short of the output's view, with the input whole.
    std::vector<float> xs(2048, 1.0f), ys(2048, 5.0f);
    const int64_t small[2] = {2, 1024};
    const simdax_tensor_desc ts{SIMDAX_DTYPE_FLOAT32, 2, small, nullptr};
    Created c2;
    create_axes_op<simdax_softmax_create_info>(SIMDAX_STRUCTURE_TYPE_SOFTMAX_CREATE_INFO, ts, ts, axes, &c2);
    simdax_buffer_binding out = whole(ys);
    out.size -= 1;
    EXPECT_EQ(run(c2.op, {whole(xs), out}), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::strstr(simdax_last_error(), "output"), nullptr) << simdax_last_error();
    EXPECT_EQ(ys, std::vector<float>(2048, 5.0f));
    out.size += 1;
    ASSERT_EQ(run(c2.op, {whole(xs), out}), SIMDAX_OK) << simdax_last_error();
    for (float v : ys) EXPECT_NEAR(v, 1.0 / 1024, kSoftmaxAtol + kRtol / 1024);
    // An offset at or past the end of the buffer.
    out.offset = out.size;
    EXPECT_EQ(run(c2.op, {whole(xs), out}), SIMDAX_ERROR_INVALID_ARGUMENT);
}

// A reversed view: element 0 is the buffer's last float (offset), and the
// view reaches back to its first. Without the offset's bytes it reaches out.
TEST(TypedApi, NegativeStridesAreCheckedAgainstTheOffset) {
    const int64_t sizes[1] = {100}, back[1] = {-1};
    const simdax_tensor_desc in{SIMDAX_DTYPE_FLOAT32, 1, sizes, back};
    const simdax_tensor_desc out{SIMDAX_DTYPE_FLOAT32, 1, sizes, nullptr};
    const uint32_t axes[1] = {0};
    Created c;
    create_axes_op<simdax_softmax_create_info>(SIMDAX_STRUCTURE_TYPE_SOFTMAX_CREATE_INFO, in, out, axes, &c);
    const std::vector<float> x = ramp(100, 0.1f);
    std::vector<float> y(100);
    simdax_buffer_binding xb = whole(x);
    xb.offset = 99 * sizeof(float);
    ASSERT_EQ(run(c.op, {xb, whole(y)}), SIMDAX_OK) << simdax_last_error();
    std::vector<double> xd(x.begin(), x.end());
    expect_near_reference(y, sxt::ref_softmax(StridedView{xd.data() + 99, {100}, {-1}}, {0}), kSoftmaxAtol);
    xb.data = const_cast<float*>(x.data() + 1);  // one float less before element 0
    xb.offset = 98 * sizeof(float);
    xb.size = 99 * sizeof(float);
    EXPECT_EQ(run(c.op, {xb, whole(y)}), SIMDAX_ERROR_INVALID_ARGUMENT);
}

TEST(TypedApi, UnstatedSizeAndOldEntriesKeepWorking) {
    const int64_t sizes[2] = {3, 40};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
    const uint32_t axes[1] = {1};
    Created c;
    create_axes_op<simdax_hardmax_create_info>(SIMDAX_STRUCTURE_TYPE_HARDMAX_CREATE_INFO, t, t, axes, &c);
    const std::vector<float> x = ramp(120, 1.0f);
    std::vector<float> y1(120), y2(120);
    simdax_buffer_binding xb{const_cast<float*>(x.data()), 0, 0}, yb{y1.data(), 0, 0};
    ASSERT_EQ(run(c.op, {xb, yb}), SIMDAX_OK) << simdax_last_error();
    const simdax_bindings old{x.data(), nullptr, nullptr, y2.data()};
    ASSERT_EQ(simdax_operator_execute(c.op, &old), SIMDAX_OK) << simdax_last_error();
    EXPECT_EQ(y1, y2);
    std::vector<double> xd(x.begin(), x.end());
    expect_near_reference(y1, sxt::ref_hardmax(StridedView{xd.data(), {3, 40}, {40, 1}}, {1}), 0, 0);
}

TEST(TypedApi, OverlapAndAlignmentRulesApply) {
    const int64_t sizes[1] = {16};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 1, sizes, nullptr};
    const uint32_t axes[1] = {0};
    Created c;
    create_axes_op<simdax_log_softmax_create_info>(SIMDAX_STRUCTURE_TYPE_LOG_SOFTMAX_CREATE_INFO, t, t, axes,
                                                   &c);
    std::vector<float> buf(40, 1.0f);
    const simdax_buffer_binding all{buf.data(), 0, buf.size() * sizeof(float)};
    simdax_buffer_binding out = all;
    out.offset = 8 * sizeof(float);  // overlaps the input's floats 8..15
    EXPECT_EQ(run(c.op, {all, out}), SIMDAX_ERROR_OVERLAP);
    out.offset = 2;  // not a multiple of 4 bytes
    simdax_buffer_binding in = all;
    in.offset = 20 * sizeof(float);
    EXPECT_EQ(run(c.op, {in, out}), SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::strstr(simdax_last_error(), "output"), nullptr) << simdax_last_error();
    EXPECT_EQ(buf, std::vector<float>(40, 1.0f));
}

void serial_pool(void*, size_t n, simdax_task_fn task, void* arg) {
    for (size_t i = n; i-- > 0;) task(arg, i);  // reversed: order must not matter
}

TEST(TypedApi, ParallelIsBitwiseSerial) {
    const int64_t sizes[2] = {64, 4096};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
    const simdax_activation_create_info info{
        SIMDAX_HEADER(simdax_activation_create_info, SIMDAX_STRUCTURE_TYPE_ACTIVATION_CREATE_INFO),
        {&t, &t, simdax_activation_default(SIMDAX_ACTIVATION_GELU)}};
    Created c;
    ASSERT_EQ(simdax_operator_create_from_info(&info.header, &c.op), SIMDAX_OK);
    const std::vector<float> x = ramp(64 * 4096, 0.05f);
    std::vector<float> y1(x.size()), y2(x.size());
    ASSERT_EQ(run(c.op, {whole(x), whole(y1)}), SIMDAX_OK);
    const simdax_parallel par{serial_pool, nullptr, 4};
    ASSERT_EQ(run(c.op, {whole(x), whole(y2)}, &par), SIMDAX_OK);
    EXPECT_EQ(0, std::memcmp(y1.data(), y2.data(), y1.size() * sizeof(float)));
    const simdax_activation_desc gelu = simdax_activation_default(SIMDAX_ACTIVATION_GELU);
    for (size_t i = 0; i < x.size(); i += 97) {
        const double want = sxt::ref_activation(x[i], gelu);
        EXPECT_NEAR(y1[i], want, kAtol + kRtol * std::fabs(want)) << i;
    }
}

}  // namespace
