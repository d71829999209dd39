// The C API's operators as a user runs them: create once / execute many,
// concurrent execution of one operator, the per-thread last error and the
// in-place element-wise operators.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
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

}  // namespace
