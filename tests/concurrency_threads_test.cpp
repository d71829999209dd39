// Concurrency (concurrency_test.cpp says what is tested and why every suite
// name holds "Concurrency"): one operator executed from several threads at
// once, and operators and pools created and destroyed while others execute.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "simdax/simdax.h"
#include "support/concurrency_workloads.hpp"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"
#include "support/random_case.hpp"
#include "support/tensor_buffer.hpp"
#include "support/test_env.hpp"

namespace {

using namespace sxt;
using namespace sxt::concurrency;

// ---- many threads, one operator ---------------------------------------------

class ConcurrencyThreads : public ::testing::TestWithParam<simdax_dtype> {};

// One operator, 4 threads executing it at once on their own buffers (plain
// execute, and execute_parallel through a pool per thread), several rounds:
// each result equals the single-thread result for its input.
TEST_P(ConcurrencyThreads, OneOperatorExecutedFromFourThreadsAtOnce) {
    const simdax_dtype dt = GetParam();
    constexpr unsigned kThreads = 4;
    constexpr int kRounds = 4;
    uint64_t salt = 0x6d00 + uint64_t(dt) * 100;
    for (const Workload& w : small_workloads()) {
        SCOPED_TRACE(w.name + " " + dtype_name(dt));
        OpHandle op{create(w, dt)};
        ASSERT_NE(op.op, nullptr);
        std::vector<Operands> in;
        std::vector<std::vector<unsigned char>> expect;
        for (unsigned t = 0; t < kThreads; ++t) {
            in.push_back(make_operands(w, dt, test_seed(++salt)));
            RawOutput out(w.y, dt);
            const simdax_bindings b = bindings(in.back(), out.base());
            ASSERT_EQ(simdax_operator_execute(op.op, &b), SIMDAX_OK) << simdax_last_error();
            expect.push_back(out.bytes());
        }
        std::atomic<int> mismatches{0}, failures{0};
        run_together(kThreads, [&](unsigned t) {
            simdax_threadpool* pool = nullptr;
            if (t % 2 == 1 && simdax_threadpool_create(2, &pool) != SIMDAX_OK) failures++;
            const simdax_parallel par = simdax_threadpool_parallel(pool);
            RawOutput out(w.y, dt);
            for (int r = 0; r < kRounds; ++r) {
                out.reset();
                const simdax_bindings b = bindings(in[t], out.base());
                const simdax_status s = pool ? simdax_operator_execute_parallel(op.op, &b, &par)
                                             : simdax_operator_execute(op.op, &b);
                if (s != SIMDAX_OK) failures++;
                if (out.bytes() != expect[t]) mismatches++;
            }
            simdax_threadpool_destroy(pool);
        });
        EXPECT_EQ(failures.load(), 0);
        EXPECT_EQ(mismatches.load(), 0) << "a concurrent execute gave another result";
    }
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, ConcurrencyThreads, ::testing::ValuesIn(kDtypes), dtype_param_name);

// A descriptor a creator thread builds, with what create must answer.
struct CreateCase {
    simdax_status expect;
    const char* message_part;  // in simdax_last_error() when it fails
};

// Builds and creates descriptor `k` of a fixed list on the calling thread
// (all storage local: nothing shared with other threads); on success runs
// it once on small private buffers and checks the output against the
// reference. Returns "" or what went wrong.
std::string create_one(int k, simdax_dtype dt) {
    const int64_t sizes[3] = {3, 5, 7};
    const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 2};
    const uint32_t ax1[1] = {2}, rep[2] = {1, 1}, far[1] = {3};
    simdax_tensor_desc t{dt, 3, sizes, nullptr};
    simdax_tensor_desc t9{dt, 9, nine, nullptr};
    const simdax_activation_desc nan_act{SIMDAX_ACTIVATION_ELU, std::nanf(""), 0, 0};
    simdax_operator_desc d{SIMDAX_OPERATOR_SOFTMAX, nullptr};
    simdax_axes_op_desc ax{&t, &t, 1, ax1};
    simdax_mvn_desc mvn{&t, nullptr, nullptr, &t, 1, ax1, 1, 1e-5f, nullptr};
    simdax_activation_op_desc act{&t, &t, spec_default_activation(SIMDAX_ACTIVATION_TANH)};
    CreateCase c{SIMDAX_OK, ""};
    OpSpec spec;
    switch (k % 8) {
        case 0:
            d = {SIMDAX_OPERATOR_LOG_SOFTMAX, &ax};
            spec = op_spec(d.type, {2});
            break;
        case 1:
            d = {SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &mvn};
            spec = mvn_op({2}, SIMDAX_ACTIVATION_IDENTITY);
            break;
        case 2:
            d = {SIMDAX_OPERATOR_ACTIVATION, &act};
            spec = activation_op(SIMDAX_ACTIVATION_TANH);
            break;
        case 3:
            ax.input = ax.output = &t9;
            d = {SIMDAX_OPERATOR_HARDMAX, &ax};
            c = {SIMDAX_ERROR_INVALID_ARGUMENT, "rank"};
            break;
        case 4:
            ax.axes = rep;
            ax.axis_count = 2;
            d = {SIMDAX_OPERATOR_SOFTMAX, &ax};
            c = {SIMDAX_ERROR_INVALID_AXES, "repeated"};
            break;
        case 5:
            ax.axes = far;
            d = {SIMDAX_OPERATOR_SOFTMAX, &ax};
            c = {SIMDAX_ERROR_INVALID_AXES, "axes[0]"};
            break;
        case 6:
            mvn.epsilon = -1.0f;
            d = {SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, &mvn};
            c = {SIMDAX_ERROR_INVALID_ARGUMENT, "epsilon"};
            break;
        default:
            act.activation = nan_act;
            d = {SIMDAX_OPERATOR_ACTIVATION, &act};
            c = {SIMDAX_ERROR_INVALID_ARGUMENT, "alpha"};
            break;
    }
    simdax_operator* op = nullptr;
    const simdax_status s = simdax_operator_create(&d, &op);
    if (s != c.expect)
        return std::string("case ") + std::to_string(k % 8) + ": status " + simdax_status_name(s) + " (" +
               simdax_last_error() + ")";
    if (s != SIMDAX_OK) {
        if (op) return "failed create left *op non-NULL";
        if (!std::strstr(simdax_last_error(), c.message_part))
            return std::string("message of another thread? got '") + simdax_last_error() +
                   "', expected it to name " + c.message_part;
        return "";
    }
    if (simdax_last_error()[0] != '\0') return "a successful create left a message";
    Operands io{TensorBuffer(dt, {3, 5, 7}, {}, Role::Input), nullptr, nullptr,
                TensorBuffer(dt, {3, 5, 7}, {}, Role::Output)};
    Rng rng(uint64_t(k) * 31 + 7);
    io.x.fill([&](int64_t) { return rng.uniform(-3, 3); });
    const simdax_bindings b{io.x.data(), nullptr, nullptr, io.y.data()};
    const simdax_status e = simdax_operator_execute(op, &b);
    simdax_operator_destroy(op);
    if (e != SIMDAX_OK) return std::string("execute: ") + simdax_last_error();
    const CheckResult r = check_output(spec, io);
    return r.ok ? "" : r.report;
}

// Creator threads make and destroy operators (valid and invalid) while
// executor threads run one shared operator: the executors' results never
// change, each creator sees its own status and message.
TEST(ConcurrencyLifecycle, CreateAndDestroyWhileOthersExecute) {
    const simdax_dtype dt = SIMDAX_DTYPE_FLOAT32;
    const Workload w = small_workloads()[0];
    OpHandle shared{create(w, dt)};
    ASSERT_NE(shared.op, nullptr);
    Operands in = make_operands(w, dt, test_seed(0x6e00));
    const std::vector<unsigned char> expect = serial_bytes(shared.op, w, dt, in);

    constexpr unsigned kExecutors = 2, kCreators = 3;
    constexpr int kExecRounds = 30;
    std::atomic<unsigned> executors_left{kExecutors};
    std::atomic<int> mismatches{0}, creates{0};
    std::mutex mu;
    std::string first_error;
    run_together(kExecutors + kCreators, [&](unsigned t) {
        if (t < kExecutors) {
            RawOutput out(w.y, dt);
            for (int r = 0; r < kExecRounds; ++r) {
                out.reset();
                const simdax_bindings bb = bindings(in, out.base());
                if (simdax_operator_execute(shared.op, &bb) != SIMDAX_OK || out.bytes() != expect)
                    mismatches++;
            }
            executors_left--;
            return;
        }
        // At least two full passes over the case list, then until the
        // executors are done.
        for (int k = int(t); k < int(t) + 16 || executors_left.load() > 0; ++k) {
            const std::string err = create_one(k, k % 3 == 0 ? SIMDAX_DTYPE_FLOAT16 : dt);
            creates++;
            if (!err.empty()) {
                std::lock_guard<std::mutex> lk(mu);
                if (first_error.empty()) first_error = err;
            }
        }
    });
    EXPECT_EQ(mismatches.load(), 0);
    EXPECT_TRUE(first_error.empty()) << first_error;
    EXPECT_GE(creates.load(), int(kCreators) * 16);
}

// Pools created, used from their own thread and destroyed, on several
// threads at once; an operator shared by all.
TEST(ConcurrencyLifecycle, PoolsCreatedUsedAndDestroyedOnSeveralThreads) {
    const simdax_dtype dt = SIMDAX_DTYPE_FLOAT32;
    const Workload w = parallel_workloads()[0];  // rows LogSoftmax [64,1000]
    OpHandle op{create(w, dt)};
    ASSERT_NE(op.op, nullptr);
    Operands in = make_operands(w, dt, test_seed(0x6f00));
    const std::vector<unsigned char> expect = serial_bytes(op.op, w, dt, in);
    std::atomic<int> bad{0};
    run_together(3, [&](unsigned t) {
        for (int r = 0; r < 6; ++r) {
            simdax_threadpool* pool = nullptr;
            if (simdax_threadpool_create(2 + (t + unsigned(r)) % 3, &pool) != SIMDAX_OK) {
                bad++;
                continue;
            }
            const simdax_parallel par = simdax_threadpool_parallel(pool);
            RawOutput out(w.y, dt);
            const simdax_bindings bb = bindings(in, out.base());
            if (simdax_operator_execute_parallel(op.op, &bb, &par) != SIMDAX_OK || out.bytes() != expect)
                bad++;
            simdax_threadpool_destroy(pool);
        }
    });
    EXPECT_EQ(bad.load(), 0);
}

}  // namespace
