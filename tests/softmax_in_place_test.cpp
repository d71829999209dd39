// Softmax and LogSoftmax run in place (output = input, same strides) in
// every loop form: short and long rows, columns, groups side by side, the
// general odometer, negative strides, and a group split into parts over two
// threads. Each element is checked against the float64 reference of the
// values the buffer held before the call.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "support/concurrency_workloads.hpp"
#include "support/dtype.hpp"
#include "support/reference.hpp"
#include "support/tensor_buffer.hpp"
#include "support/random_case.hpp"
#include "support/test_env.hpp"

namespace {

using namespace sxt;

struct InPlaceCase {
    const char* form;
    std::vector<int64_t> sizes, strides;  // strides empty: packed
    std::vector<uint32_t> axes;
};

const std::vector<InPlaceCase> kCases{
    {"short rows", {5, 37}, {}, {1}},
    {"long rows", {3, 5000}, {}, {1}},
    {"columns", {64, 33}, {}, {0}},
    {"groups side by side", {4, 16, 6}, {}, {1, 2}},
    {"channels", {2, 16, 12, 12}, {}, {1}},
    {"general", {6, 7, 9}, {}, {0, 2}},
    {"negative strides", {3, 37}, {-80, 2}, {1}},
    {"parts over threads", {2, 200000}, {}, {1}},
};

void run_in_place(simdax_operator_type type, simdax_dtype dt, const InPlaceCase& c,
                  const simdax_parallel* par) {
    Rng rng(test_seed(9101));
    TensorBuffer buf(dt, c.sizes, c.strides, Role::Input, 3, 3);
    buf.fill([&](int64_t) { return rng.uniform(-12, 12); });
    const StridedView before = buf.view();
    const std::vector<double> ref =
        type == SIMDAX_OPERATOR_SOFTMAX ? ref_softmax(before, c.axes) : ref_log_softmax(before, c.axes);
    const simdax_tensor_desc d = buf.desc();
    const simdax_axes_op_desc ad{&d, &d, uint32_t(c.axes.size()), c.axes.data()};
    const simdax_operator_desc od{type, &ad};
    simdax_operator* op = nullptr;
    const std::string what = std::string(type == SIMDAX_OPERATOR_SOFTMAX ? "Softmax " : "LogSoftmax ") +
                             dtype_name(dt) + " " + c.form + (par ? " 2 threads" : "");
    ASSERT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK) << what << ": " << simdax_last_error();
    const simdax_bindings b{buf.data(), nullptr, nullptr, buf.data()};
    const simdax_status st = simdax_operator_execute_parallel(op, &b, par);
    simdax_operator_destroy(op);
    ASSERT_EQ(st, SIMDAX_OK) << what << ": " << simdax_last_error();
    const std::vector<double> got = buf.read();
    const Tolerance tol = tolerance_for(type, dt);
    int64_t bad = 0, first = -1;
    for (size_t i = 0; i < got.size(); ++i)
        if (!passes(ref[i], got[i], dt, tol)) {
            if (first < 0) first = int64_t(i);
            ++bad;
        }
    EXPECT_EQ(bad, 0) << what << ": first bad element " << first << " ref "
                      << ref[size_t(std::max<int64_t>(first, 0))] << " got "
                      << got[size_t(std::max<int64_t>(first, 0))];
    EXPECT_EQ(buf.touched_gaps(), 0) << what << ": gap elements written";
}

TEST(SoftmaxInPlace, EveryFormAndDtype) {
    concurrency::Pool pool(2);
    const simdax_parallel par = simdax_threadpool_parallel(pool.pool);
    for (simdax_operator_type type : {SIMDAX_OPERATOR_SOFTMAX, SIMDAX_OPERATOR_LOG_SOFTMAX})
        for (simdax_dtype dt :
             {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16, SIMDAX_DTYPE_FLOAT64})
            for (const InPlaceCase& c : kCases)
                for (const simdax_parallel* p : {static_cast<const simdax_parallel*>(nullptr), &par}) {
                    run_in_place(type, dt, c, p);
                    if (HasFatalFailure()) return;
                }
}

// In place needs the exact alias: another pointer into the buffer, or the
// same pointer with other strides, is an overlap.
TEST(SoftmaxInPlace, OnlyTheExactAlias) {
    float x[64] = {};
    const int64_t sizes[2] = {4, 8}, transposed[2] = {1, 4};
    const simdax_tensor_desc in{SIMDAX_DTYPE_FLOAT32, 2, sizes, nullptr};
    const simdax_tensor_desc other{SIMDAX_DTYPE_FLOAT32, 2, sizes, transposed};
    const uint32_t axes[1] = {1};
    const simdax_axes_op_desc same{&in, &in, 1, axes}, strided{&in, &other, 1, axes};
    EXPECT_EQ(simdax_softmax(&same, x, x), SIMDAX_OK) << simdax_last_error();
    EXPECT_EQ(simdax_log_softmax(&same, x, x), SIMDAX_OK) << simdax_last_error();
    EXPECT_EQ(simdax_softmax(&same, x, x + 1), SIMDAX_ERROR_OVERLAP);
    EXPECT_EQ(simdax_log_softmax(&strided, x, x), SIMDAX_ERROR_OVERLAP);
    EXPECT_NE(std::string(simdax_last_error()).find("same strides"), std::string::npos)
        << simdax_last_error();
}

}  // namespace
