// The C API as a user sees it: create once / execute many, concurrent
// execution of one operator, in-place element-wise operators, the ONNX
// helpers, names, versions and the ISA controls.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"
#include "support/random_case.hpp"
#include "support/reference.hpp"

namespace {

using namespace sxt;

// Bitwise equality of two result vectors (NaN equal to NaN).
bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!(std::isnan(a[i]) && std::isnan(b[i])) && f64_bits(a[i]) != f64_bits(b[i])) return false;
    return true;
}

std::vector<OpSpec> one_spec_per_op() {
    std::vector<OpSpec> v;
    for (auto op : {SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_HARDMAX}) {
        OpSpec s;
        s.op = op;
        s.axes = {2, 0};
        v.push_back(s);
    }
    OpSpec mvn;
    mvn.op = SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION;
    mvn.axes = {1, 2};
    mvn.has_activation = true;
    mvn.activation = {SIMDAX_ACTIVATION_GELU, 0.f, 0.f, 0.f};
    v.push_back(mvn);
    OpSpec hs;
    hs.op = SIMDAX_OPERATOR_HARD_SIGMOID;
    hs.alpha = 0.3f;
    hs.beta = 0.4f;
    v.push_back(hs);
    OpSpec act;
    act.op = SIMDAX_OPERATOR_ACTIVATION;
    act.activation = {SIMDAX_ACTIVATION_SOFTPLUS, 2.f, 0.f, 0.f};
    v.push_back(act);
    return v;
}

// A created operator keeps giving what the one-shot call gives, on fresh
// input each time, while other operators come and go.
TEST(Api, CreateOnceExecuteManyEqualsOneShot) {
    Rng rng(test_seed(9001));
    for (simdax_dtype dt : {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_FLOAT64})
        for (const OpSpec& spec : one_spec_per_op()) {
            const std::vector<int64_t> sizes{5, 7, 33};
            Operands io{make_buffer(dt, sizes, random_layout(rng, sizes, Role::Input), Role::Input), nullptr,
                        nullptr,
                        make_buffer(dt, sizes, random_layout(rng, sizes, Role::Output), Role::Output)};
            if (spec.op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION) {
                io.scale = std::make_unique<TensorBuffer>(dt, std::vector<int64_t>{1, 7, 1},
                                                          std::vector<int64_t>{}, Role::Input);
                io.scale->fill([&](int64_t) { return rng.uniform(0.5, 2); });
            }
            DescStorage st;
            simdax_operator* op = nullptr;
            ASSERT_EQ(simdax_operator_create(build_desc(spec, io, &st), &op), SIMDAX_OK)
                << simdax_last_error();
            EXPECT_EQ(simdax_operator_get_type(op), spec.op);
            EXPECT_EQ(simdax_operator_isa(op), simdax_active_isa());
            for (int k = 0; k < 4; ++k) {
                io.x.fill([&](int64_t) { return rng.uniform(-3, 3); });
                // Another operator created and run in between must not disturb op.
                {
                    OpSpec other;
                    other.op = SIMDAX_OPERATOR_SOFTMAX;
                    other.axes = {0};
                    Operands o2{TensorBuffer(dt, {9, 2}, {}, Role::Input), nullptr, nullptr,
                                TensorBuffer(dt, {9, 2}, {}, Role::Output)};
                    o2.x.fill([&](int64_t) { return rng.uniform(-1, 1); });
                    const CheckResult r2 = run_and_check(other, o2);
                    EXPECT_TRUE(r2.ok) << r2.report;
                }
                const simdax_bindings b{io.x.data(), io.scale ? io.scale->data() : nullptr, nullptr,
                                        io.y.data()};
                ASSERT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK) << simdax_last_error();
                const CheckResult r = check_output(spec, io);
                EXPECT_TRUE(r.ok) << "execute #" << k << "\n" << r.report;
                const std::vector<double> created = io.y.read();
                std::string err;
                ASSERT_EQ(execute(spec, io, /*one_shot=*/true, &err), SIMDAX_OK) << err;
                EXPECT_TRUE(same_bits(created, io.y.read()))
                    << "created and one-shot results differ: " << describe(spec, io);
            }
            simdax_operator_destroy(op);
        }
}

// One operator, several threads executing it at once on their own buffers:
// each gets exactly the single-threaded result.
TEST(Api, ConcurrentExecuteOfOneOperator) {
    const int kThreads = 4;
    Rng rng(test_seed(9002));
    for (const OpSpec& spec : one_spec_per_op()) {
        const simdax_dtype dt = SIMDAX_DTYPE_FLOAT32;
        const std::vector<int64_t> sizes{6, 9, 65};
        std::vector<Operands> ios;
        for (int t = 0; t < kThreads; ++t) {
            ios.push_back(Operands{TensorBuffer(dt, sizes, {}, Role::Input), nullptr, nullptr,
                                   TensorBuffer(dt, sizes, {}, Role::Output)});
            ios.back().x.fill([&](int64_t) { return rng.uniform(-4, 4); });
            if (spec.op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION) {
                ios.back().scale = std::make_unique<TensorBuffer>(dt, std::vector<int64_t>{1, 9, 1},
                                                                  std::vector<int64_t>{}, Role::Input);
                ios.back().scale->fill([&](int64_t i) { return 0.5 + double(i); });
            }
        }
        DescStorage st;
        simdax_operator* op = nullptr;
        ASSERT_EQ(simdax_operator_create(build_desc(spec, ios[0], &st), &op), SIMDAX_OK)
            << simdax_last_error();
        // Single-threaded expected results, themselves checked against the reference.
        std::vector<std::vector<double>> expected(kThreads);
        for (int t = 0; t < kThreads; ++t) {
            const simdax_bindings b{ios[t].x.data(), ios[t].scale ? ios[t].scale->data() : nullptr, nullptr,
                                    ios[t].y.data()};
            ASSERT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK);
            const CheckResult r = check_output(spec, ios[t]);
            EXPECT_TRUE(r.ok) << r.report;
            expected[size_t(t)] = ios[t].y.read();
        }
        std::vector<int> mismatches(kThreads, 0), failures(kThreads, 0);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&, t] {
                const simdax_bindings b{ios[t].x.data(), ios[t].scale ? ios[t].scale->data() : nullptr,
                                        nullptr, ios[t].y.data()};
                for (int rep = 0; rep < 25; ++rep) {
                    if (simdax_operator_execute(op, &b) != SIMDAX_OK) ++failures[size_t(t)];
                    if (!same_bits(ios[t].y.read(), expected[size_t(t)])) ++mismatches[size_t(t)];
                }
            });
        for (auto& th : threads) th.join();
        for (int t = 0; t < kThreads; ++t) {
            EXPECT_EQ(failures[size_t(t)], 0) << op_name(spec.op) << " thread " << t;
            EXPECT_EQ(mismatches[size_t(t)], 0) << op_name(spec.op) << " thread " << t;
        }
        simdax_operator_destroy(op);
    }
}

// simdax_last_error is per thread: concurrent failures keep their own message.
TEST(Api, LastErrorIsPerThread) {
    std::string msg_a, msg_b;
    simdax_status st_a = SIMDAX_OK, st_b = SIMDAX_OK;
    std::thread a([&] {
        const int64_t sizes[2] = {2, 3};
        const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
        const uint32_t axes[1] = {1};
        const simdax_mvn_desc d{&t, nullptr, nullptr, &t, 1, axes, 1, -1.f, nullptr};
        float x[6] = {}, y[6];
        for (int i = 0; i < 200; ++i) st_a = simdax_mean_variance_normalization(&d, x, nullptr, nullptr, y);
        msg_a = simdax_last_error();
    });
    std::thread b([&] {
        const int64_t sizes[2] = {2, 3};
        const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
        const uint32_t axes[1] = {5};
        const simdax_axes_op_desc d{&t, &t, 1, axes};
        float x[6] = {}, y[6];
        for (int i = 0; i < 200; ++i) st_b = simdax_softmax(&d, x, y);
        msg_b = simdax_last_error();
    });
    a.join();
    b.join();
    EXPECT_EQ(st_a, SIMDAX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(st_b, SIMDAX_ERROR_INVALID_AXES);
    EXPECT_NE(msg_a.find("epsilon"), std::string::npos) << msg_a;
    EXPECT_NE(msg_b.find("axes"), std::string::npos) << msg_b;
    EXPECT_EQ(msg_a.find("axes"), std::string::npos) << msg_a;
}

// HardSigmoid and every activation run in place (output = input, same strides).
TEST(Api, ElementwiseInPlace) {
    Rng rng(test_seed(9003));
    for (simdax_dtype dt :
         {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16, SIMDAX_DTYPE_FLOAT64})
        for (int t = -1; t < SIMDAX_ACTIVATION_COUNT; ++t)  // -1: the HardSigmoid operator
            for (bool strided : {false, true}) {
                const std::vector<int64_t> sizes{3, 37};
                const std::vector<int64_t> strides =
                    strided ? std::vector<int64_t>{-80, 2} : std::vector<int64_t>{};
                TensorBuffer buf(dt, sizes, strides, Role::Input, 3, 3);
                buf.fill([&](int64_t) { return rng.uniform(-6, 6); });
                const StridedView before = buf.view();  // the mirror keeps the input values
                const simdax_tensor_desc d = buf.desc();
                simdax_status st;
                std::vector<double> ref;
                simdax_operator_type op_type;
                if (t < 0) {
                    const simdax_hard_sigmoid_desc hs{&d, &d, 0.25f, 0.375f};
                    st = simdax_hard_sigmoid(&hs, buf.data(), buf.data());
                    ref = ref_hard_sigmoid_op(before, 0.25, 0.375);
                    op_type = SIMDAX_OPERATOR_HARD_SIGMOID;
                } else {
                    const simdax_activation_desc a = random_activation(rng, simdax_activation_type(t));
                    const simdax_activation_op_desc ad{&d, &d, a};
                    st = simdax_activation(&ad, buf.data(), buf.data());
                    ref = ref_activation_op(before, a);
                    op_type = SIMDAX_OPERATOR_ACTIVATION;
                }
                const std::string what =
                    std::string(t < 0 ? "hard_sigmoid op" : spec_activation_name(simdax_activation_type(t))) +
                    " " + dtype_name(dt) + (strided ? " strided" : " packed");
                ASSERT_EQ(st, SIMDAX_OK) << what << ": " << simdax_last_error();
                const std::vector<double> got = buf.read();
                const Tolerance tol = tolerance_for(op_type, dt);
                int bad = 0;
                for (size_t i = 0; i < got.size(); ++i) bad += !passes(ref[i], got[i], dt, tol);
                EXPECT_EQ(bad, 0) << what;
                EXPECT_EQ(buf.touched_gaps(), 0) << what << ": gap elements written";
            }
}

// A created HardSigmoid executed in place through the bindings.
TEST(Api, HardSigmoidInPlaceThroughBindings) {
    const std::vector<int64_t> sizes{4, 50};
    TensorBuffer buf(SIMDAX_DTYPE_FLOAT32, sizes, {}, Role::Input);
    buf.fill([](int64_t i) { return double(i % 23) - 11.0; });
    const simdax_tensor_desc d = buf.desc();
    const simdax_hard_sigmoid_desc hs{&d, &d, 0.2f, 0.5f};
    const simdax_operator_desc od{SIMDAX_OPERATOR_HARD_SIGMOID, &hs};
    simdax_operator* op = nullptr;
    ASSERT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK) << simdax_last_error();
    const simdax_bindings b{buf.data(), nullptr, nullptr, buf.data()};
    ASSERT_EQ(simdax_operator_execute(op, &b), SIMDAX_OK) << simdax_last_error();
    simdax_operator_destroy(op);
    const std::vector<double> got = buf.read();
    for (size_t i = 0; i < got.size(); ++i) {
        const double x = double(int64_t(i) % 23) - 11.0;
        EXPECT_NEAR(got[i], std::max(0.0, std::min(0.2 * x + 0.5, 1.0)), 1e-6) << i;
    }
}

// ------------------------------------------------------------ ONNX helpers
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

TEST(OnnxHelpers, NormalizationAttrs) {
    // Absent attributes: ONNX's defaults (LayerNormalization-17, RMSNormalization-23).
    simdax_layer_normalization_desc ln{};
    ASSERT_EQ(simdax_onnx_layer_normalization_attrs(0, 5, 0, 9.f, 0, 7, &ln), SIMDAX_OK)
        << simdax_last_error();
    EXPECT_EQ(ln.axis, -1);
    EXPECT_EQ(ln.epsilon, 1e-5f);
    EXPECT_EQ(ln.stash_type, 1);
    simdax_rms_normalization_desc rms{};
    ASSERT_EQ(simdax_onnx_rms_normalization_attrs(0, 5, 0, 9.f, 0, 7, &rms), SIMDAX_OK)
        << simdax_last_error();
    EXPECT_EQ(rms.axis, -1);
    EXPECT_EQ(rms.epsilon, 1e-5f);
    EXPECT_EQ(rms.stash_type, 1);
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

// ------------------------------------------------- names and versions
TEST(Api, Version) {
    char want[32];
    std::snprintf(want, sizeof want, "%d.%d.%d", SIMDAX_VERSION_MAJOR, SIMDAX_VERSION_MINOR,
                  SIMDAX_VERSION_PATCH);
    ASSERT_NE(simdax_version(), nullptr);
    EXPECT_STREQ(simdax_version(), want);
}

TEST(Api, StatusNames) {
    const char* names[] = {"SIMDAX_OK",
                           "SIMDAX_ERROR_NULL_POINTER",
                           "SIMDAX_ERROR_INVALID_ARGUMENT",
                           "SIMDAX_ERROR_SHAPE_MISMATCH",
                           "SIMDAX_ERROR_DTYPE_MISMATCH",
                           "SIMDAX_ERROR_INVALID_AXES",
                           "SIMDAX_ERROR_OVERFLOW",
                           "SIMDAX_ERROR_OVERLAP",
                           "SIMDAX_ERROR_UNSUPPORTED",
                           "SIMDAX_ERROR_OUT_OF_MEMORY"};
    for (int i = 0; i < 10; ++i) EXPECT_STREQ(simdax_status_name(simdax_status(i)), names[i]);
    EXPECT_NE(simdax_status_name(simdax_status(1234)), nullptr);
    EXPECT_NE(simdax_status_name(simdax_status(-1)), nullptr);
}

TEST(Api, DtypeSizes) {
    EXPECT_EQ(simdax_dtype_size(SIMDAX_DTYPE_FLOAT32), 4u);
    EXPECT_EQ(simdax_dtype_size(SIMDAX_DTYPE_FLOAT16), 2u);
    EXPECT_EQ(simdax_dtype_size(SIMDAX_DTYPE_BFLOAT16), 2u);
    EXPECT_EQ(simdax_dtype_size(SIMDAX_DTYPE_FLOAT64), 8u);
    EXPECT_EQ(simdax_dtype_size(simdax_dtype(0)), 0u);
    EXPECT_EQ(simdax_dtype_size(SIMDAX_DTYPE_UINT8), 1u);
    EXPECT_EQ(simdax_dtype_size(simdax_dtype(6)), 0u);
}

TEST(Api, ActivationNamesAndDefaults) {
    for (int t = 0; t < SIMDAX_ACTIVATION_COUNT; ++t) {
        const simdax_activation_type type = simdax_activation_type(t);
        const char* name = simdax_activation_name(type);
        ASSERT_NE(name, nullptr) << t;
        EXPECT_STREQ(name, spec_activation_name(type));
        const simdax_activation_desc got = simdax_activation_default(type);
        const simdax_activation_desc want = spec_default_activation(type);
        EXPECT_EQ(got.type, type);
        // Compare only the parameters the type reads (docs/spec.md table).
        switch (type) {
            case SIMDAX_ACTIVATION_LEAKY_RELU:
            case SIMDAX_ACTIVATION_ELU:
            case SIMDAX_ACTIVATION_CELU:
            case SIMDAX_ACTIVATION_SOFTPLUS:
            case SIMDAX_ACTIVATION_THRESHOLDED_RELU: EXPECT_EQ(got.alpha, want.alpha) << name; break;
            case SIMDAX_ACTIVATION_SCALED_ELU:
                EXPECT_EQ(got.alpha, want.alpha) << name;
                EXPECT_EQ(got.gamma, want.gamma) << name;
                break;
            case SIMDAX_ACTIVATION_HARD_SIGMOID:
            case SIMDAX_ACTIVATION_SCALED_TANH:
            case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS:
            case SIMDAX_ACTIVATION_SHRINK:
                EXPECT_EQ(got.alpha, want.alpha) << name;
                EXPECT_EQ(got.beta, want.beta) << name;
                break;
            default: break;
        }
    }
    EXPECT_EQ(simdax_activation_name(simdax_activation_type(SIMDAX_ACTIVATION_COUNT)), nullptr);
    EXPECT_EQ(simdax_activation_name(simdax_activation_type(-1)), nullptr);
}

TEST(Api, IsaNamesRoundTrip) {
    const char* names[SIMDAX_ISA_COUNT] = {"scalar", "avx2", "avx512", "avx512fp16", "neon", "neonfp16"};
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i) {
        const char* n = simdax_isa_name(simdax_isa(i));
        ASSERT_NE(n, nullptr) << i;
        EXPECT_STREQ(n, names[i]);
        simdax_isa back = simdax_isa(99);
        EXPECT_EQ(simdax_isa_from_name(n, &back), SIMDAX_OK) << n;
        EXPECT_EQ(back, simdax_isa(i));
        // Supported implies compiled in.
        if (simdax_isa_supported(simdax_isa(i))) {
            EXPECT_TRUE(simdax_isa_compiled(simdax_isa(i))) << n;
        }
    }
    EXPECT_EQ(simdax_isa_name(simdax_isa(SIMDAX_ISA_COUNT)), nullptr);
    EXPECT_EQ(simdax_isa_compiled(SIMDAX_ISA_SCALAR), 1);
    EXPECT_EQ(simdax_isa_supported(SIMDAX_ISA_SCALAR), 1);
    EXPECT_NE(simdax_cpu_name(), nullptr);
    EXPECT_NE(simdax_cpu_vendor(), nullptr);
    EXPECT_NE(simdax_cpu_features(), nullptr);
    EXPECT_TRUE(simdax_isa_supported(simdax_active_isa()));
}

// Lowering the cap affects operators created afterwards, not existing ones;
// restoring it brings the previous ISA back.
TEST(Api, MaxIsaCapAffectsNewOperatorsOnly) {
    const simdax_isa initial = simdax_active_isa();
    const int64_t sizes[2] = {3, 40};
    const simdax_tensor_desc t{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
    const uint32_t axes[1] = {1};
    const simdax_axes_op_desc d{&t, &t, 1, axes};
    const simdax_operator_desc od{SIMDAX_OPERATOR_LOG_SOFTMAX, &d};
    simdax_operator* before = nullptr;
    ASSERT_EQ(simdax_operator_create(&od, &before), SIMDAX_OK);
    ASSERT_EQ(simdax_set_max_isa(SIMDAX_ISA_SCALAR), SIMDAX_OK) << simdax_last_error();
    EXPECT_EQ(simdax_active_isa(), SIMDAX_ISA_SCALAR);
    simdax_operator* after = nullptr;
    ASSERT_EQ(simdax_operator_create(&od, &after), SIMDAX_OK);
    EXPECT_EQ(simdax_operator_isa(after), SIMDAX_ISA_SCALAR);
    EXPECT_EQ(simdax_operator_isa(before), initial);
    // Both still compute correctly.
    std::vector<float> x(120), y1(120), y2(120);
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(std::sin(double(i)));
    const simdax_bindings b1{x.data(), nullptr, nullptr, y1.data()},
        b2{x.data(), nullptr, nullptr, y2.data()};
    EXPECT_EQ(simdax_operator_execute(before, &b1), SIMDAX_OK);
    EXPECT_EQ(simdax_operator_execute(after, &b2), SIMDAX_OK);
    for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(y1[i], y2[i], 2e-5) << i;
    ASSERT_EQ(simdax_set_max_isa(initial), SIMDAX_OK);
    EXPECT_EQ(simdax_active_isa(), initial);
    simdax_operator_destroy(before);
    simdax_operator_destroy(after);
    simdax_operator_destroy(nullptr);  // allowed, no effect
}

}  // namespace
