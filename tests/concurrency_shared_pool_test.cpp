// Concurrency (concurrency_test.cpp says what is tested and why every suite
// name holds "Concurrency"): several callers of execute_parallel at once
// through one built-in pool, and through a caller's pool that interleaves
// their tasks.
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

// ---- several callers, one pool ----------------------------------------------

// Calls per caller thread: enough for the calls to overlap many times, fewer
// where each costs far more (ThreadSanitizer, an emulated CPU).
int shared_pool_rounds() {
#if defined(__SANITIZE_THREAD__)
    return 12;
#else
    return emulated_run() ? 6 : 80;
#endif
}

// One caller thread's operator, its input and the serial output. Callers
// get different shapes and loop forms (so their calls differ in task count
// and length): fused rows, cols, and big groups reduced in parts (two
// parallel-fors per call).
struct Caller {
    Workload w;
    OpHandle op;
    Operands in;
    std::vector<unsigned char> serial;

    Caller(Workload wl, simdax_dtype dt, uint64_t seed)
        : w(std::move(wl)), op{create(w, dt)}, in(make_operands(w, dt, seed)) {
        if (!op.op) return;
        simdax_bindings b = bindings(in, in.y.data());
        EXPECT_EQ(simdax_operator_execute(op.op, &b), SIMDAX_OK) << simdax_last_error();
#if !defined(__SANITIZE_THREAD__)
        const CheckResult r = check_output(w.spec, in);
        EXPECT_TRUE(r.ok) << w.name << ": " << r.report;
#endif
        serial = output_bytes(in.y);
    }
};

std::vector<std::unique_ptr<Caller>> make_callers(unsigned n, uint64_t salt) {
    const auto SM = SIMDAX_OPERATOR_SOFTMAX;
    const std::vector<Workload> w{
        plain("rows Softmax [64,4096] {1}", op_spec(SM, {1}), {{64, 4096}}),
        plain("rows Softmax [256,4096] {1}", op_spec(SM, {1}), {{256, 4096}}),
        plain("cols LogSoftmax [16,64,512] {1}", op_spec(SIMDAX_OPERATOR_LOG_SOFTMAX, {1}), {{16, 64, 512}}),
        plain("parts Hardmax [2,100000] {1}", op_spec(SIMDAX_OPERATOR_HARDMAX, {1}), {{2, 100000}}),
    };
    std::vector<std::unique_ptr<Caller>> c;
    for (unsigned i = 0; i < n; ++i)
        c.push_back(std::make_unique<Caller>(w[i % w.size()], SIMDAX_DTYPE_FLOAT32, test_seed(salt + i)));
    return c;
}

// Every caller runs its operator `rounds` times through its `par` at the same
// time as the others; returns how many outputs differed from the serial one
// (a failed status counts in *failed).
int run_callers(const std::vector<std::unique_ptr<Caller>>& callers, const simdax_parallel& par, int rounds,
                int* failed) {
    std::atomic<int> wrong{0}, bad_status{0};
    run_together(unsigned(callers.size()), [&](unsigned t) {
        Caller& c = *callers[t];
        RawOutput out(c.w.y, SIMDAX_DTYPE_FLOAT32);
        for (int r = 0; r < rounds; ++r) {
            out.reset();
            const simdax_bindings b = bindings(c.in, out.base());
            if (simdax_operator_execute_parallel(c.op.op, &b, &par) != SIMDAX_OK) bad_status++;
            if (out.bytes() != c.serial) wrong++;
        }
    });
    *failed = bad_status.load();
    return wrong.load();
}

class ConcurrencySharedPool : public ::testing::TestWithParam<std::tuple<unsigned, uint32_t>> {};

// 2, 3 and 4 threads call execute_parallel at once through one built-in pool
// of 2 or 3 threads, each on its own operator: every output equals the
// serial one bit for bit.
TEST_P(ConcurrencySharedPool, CallersAtOnceGetTheSerialOutput) {
    const unsigned callers = std::get<0>(GetParam());
    const uint32_t threads = std::get<1>(GetParam());
    const auto c = make_callers(callers, 0x7000 + callers * 10 + threads);
    for (const auto& k : c) ASSERT_NE(k->op.op, nullptr);
    Pool pool(threads);
    ASSERT_NE(pool.pool, nullptr);
    const simdax_parallel par = simdax_threadpool_parallel(pool.pool);
    const int rounds = shared_pool_rounds();
    int failed = 0;
    const int wrong = run_callers(c, par, rounds, &failed);
    EXPECT_EQ(failed, 0);
    EXPECT_EQ(wrong, 0) << wrong << " of " << callers * unsigned(rounds)
                        << " outputs differ from the serial output";
}

std::string callers_threads_name(const ::testing::TestParamInfo<std::tuple<unsigned, uint32_t>>& i) {
    return std::to_string(std::get<0>(i.param)) + "callers_pool" + std::to_string(std::get<1>(i.param));
}
INSTANTIATE_TEST_SUITE_P(CallersAndThreads, ConcurrencySharedPool,
                         ::testing::Combine(::testing::Values(2u, 3u, 4u), ::testing::Values(2u, 3u)),
                         callers_threads_name);

// A caller's pool with one worker that runs the queued tasks of every call
// in flight in a random order: tasks of different calls interleave, and a
// call returns when its own tasks are done.
class InterleavingPool {
public:
    InterleavingPool(uint32_t claimed, uint64_t seed)
        : claimed_(claimed), rng_(seed), worker_([this] { work(); }) {}
    ~InterleavingPool() {
        {
            std::lock_guard<std::mutex> lk(mu_);
            stop_ = true;
        }
        changed_.notify_all();
        worker_.join();
    }
    simdax_parallel parallel() { return simdax_parallel{&InterleavingPool::run, this, claimed_}; }
    // Times the worker ran a task of one call between two of another.
    uint64_t switches() {
        std::lock_guard<std::mutex> lk(mu_);
        return switches_;
    }

private:
    struct Call {
        uint64_t id;
        size_t queued, left;
        bool waited = false;
    };
    struct Item {
        simdax_task_fn fn;
        void* arg;
        size_t index;
        Call* call;
    };

    static void run(void* ctx, size_t n, simdax_task_fn fn, void* arg) {
        auto* p = static_cast<InterleavingPool*>(ctx);
        std::unique_lock<std::mutex> lk(p->mu_);
        Call c{++p->next_id_, n, n};
        for (size_t i = 0; i < n; ++i) p->queue_.push_back({fn, arg, i, &c});
        if (n) p->queued_calls_++;
        p->changed_.notify_all();
        p->changed_.wait(lk, [&] { return c.left == 0; });
    }

    void work() {
        std::unique_lock<std::mutex> lk(mu_);
        uint64_t last = 0;
        bool last_has_more = false;  // the last task's call had tasks queued
        for (;;) {
            changed_.wait(lk, [&] { return stop_ || !queue_.empty(); });
            if (queue_.empty()) return;
            // A lone call waits (once) for another caller's call to mix with;
            // long enough, until the first mix, that a loaded machine (TSan
            // on two cores) still gets one.
            Call* first = queue_.front().call;
            if (queued_calls_ == 1 && !first->waited) {
                first->waited = true;
                const auto wait = std::chrono::milliseconds(switches_ == 0 ? 500 : 2);
                changed_.wait_for(lk, wait, [&] { return queued_calls_ > 1; });
            }
            const size_t k = size_t(rng_.range(0, int64_t(queue_.size()) - 1));
            const Item it = queue_[k];
            queue_[k] = queue_.back();
            queue_.pop_back();
            if (--it.call->queued == 0) queued_calls_--;
            if (last_has_more && it.call->id != last) switches_++;
            last = it.call->id;
            last_has_more = it.call->queued > 0;
            lk.unlock();
            it.fn(it.arg, it.index);
            lk.lock();
            if (--it.call->left == 0) changed_.notify_all();
        }
    }

    const uint32_t claimed_;
    Rng rng_;
    std::mutex mu_;
    std::condition_variable changed_;
    std::vector<Item> queue_;
    size_t queued_calls_ = 0;  // calls with tasks in queue_
    uint64_t next_id_ = 0, switches_ = 0;
    bool stop_ = false;
    std::thread worker_;  // last: starts after the rest is built
};

// Several callers through a caller-supplied parallel-for that runs their
// tasks interleaved: every output equals the serial one bit for bit.
TEST(ConcurrencyInterleavedPool, TasksOfConcurrentCallsInterleaved) {
    for (unsigned callers : {2u, 3u}) {
        SCOPED_TRACE(std::to_string(callers) + " callers");
        const auto c = make_callers(callers, 0x7100 + callers);
        for (const auto& k : c) ASSERT_NE(k->op.op, nullptr);
        InterleavingPool pool(4, test_seed(0x7180 + callers));
        const int rounds = std::max(2, shared_pool_rounds() / 4);
        int failed = 0;
        const int wrong = run_callers(c, pool.parallel(), rounds, &failed);
        EXPECT_EQ(failed, 0);
        EXPECT_EQ(wrong, 0) << wrong << " of " << callers * unsigned(rounds)
                            << " outputs differ from the serial output";
        EXPECT_GT(pool.switches(), 0u) << "no call's tasks ran between another's";
    }
}

}  // namespace
