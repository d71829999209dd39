// Concurrency (issue #6). Every test here has "Concurrency" in its suite
// name so the TSan stage of tools/scripts/test.sh can run exactly these
// (GTEST_FILTER='*Concurrency*').
//  - One created operator executed from 4 threads at once on different
//    buffers gives what a single thread gives, for every operator, loop form
//    and dtype.
//  - Operators created and destroyed (valid and invalid descriptors) on
//    several threads while others execute: results unchanged, each thread
//    sees its own simdax_last_error().
//  - simdax_operator_execute_parallel with the built-in pool (2, 3, 4
//    threads) and with custom parallel-for hooks (tasks in reverse or
//    shuffled order, run on std::threads, claimed thread counts from 2 to
//    64): the output is bitwise identical to the single-thread output for
//    every split, every operator and every loop form — rows, rows with
//    segments, cols, general, big groups split into parts (> 65536 elements
//    per group) and element-wise runs split into parts.
//  - 2, 3 and 4 threads calling execute_parallel at once through one
//    built-in pool, and through a caller's parallel-for that runs the tasks
//    of concurrent calls interleaved: every output is the serial one.// Here: execute_parallel's splits; many threads on one operator and
// operators' lifecycles in concurrency_threads_test.cpp; callers sharing a
// pool in concurrency_shared_pool_test.cpp.
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

// ---- custom parallel-for hooks --------------------------------------------

enum class Order { forward, reverse, shuffled };

// A caller's pool: runs the tasks in the given order on `threads`
// std::threads started for the call (1 = on the calling thread), claiming
// `claimed` threads to the library (which decides the split from it).
struct Hook {
    Order order;
    unsigned threads;
    uint32_t claimed;
    std::atomic<uint64_t> calls{0}, tasks{0};
    std::atomic<uint64_t> seed{1};

    static void run(void* ctx, size_t n, simdax_task_fn task, void* arg) {
        auto* h = static_cast<Hook*>(ctx);
        h->calls.fetch_add(1);
        h->tasks.fetch_add(n);
        std::vector<size_t> idx(n);
        std::iota(idx.begin(), idx.end(), size_t(0));
        if (h->order == Order::reverse) std::reverse(idx.begin(), idx.end());
        if (h->order == Order::shuffled) {
            Rng rng(h->seed.fetch_add(1));
            for (size_t i = n; i > 1; --i) std::swap(idx[i - 1], idx[size_t(rng.range(0, int64_t(i) - 1))]);
        }
        if (h->threads <= 1) {
            for (size_t i : idx) task(arg, i);
            return;
        }
        // Every thread waits for the others before starting: tasks really
        // overlap.
        std::atomic<unsigned> ready{0};
        std::vector<std::thread> ts;
        for (unsigned t = 0; t < h->threads; ++t)
            ts.emplace_back([&, t] {
                ready.fetch_add(1);
                while (ready.load() < h->threads) std::this_thread::yield();
                for (size_t j = t; j < n; j += h->threads) task(arg, idx[j]);
            });
        for (auto& th : ts) th.join();
    }

    simdax_parallel parallel() { return simdax_parallel{&Hook::run, this, claimed}; }
};

class ConcurrencyParallel : public ::testing::TestWithParam<simdax_dtype> {};

// The same operator run serially, through the built-in pools and through
// every hook: the output bytes never change.
TEST_P(ConcurrencyParallel, OutputBitwiseIdenticalForEveryThreadCountAndSplit) {
    const simdax_dtype dt = GetParam();
    Pool p2(2), p3(3), p4(4);
    std::vector<Pool*> pools{&p2, &p3, &p4};
    std::vector<std::unique_ptr<Hook>> hooks;
    auto hook = [&](Order o, unsigned threads, uint32_t claimed) {
        hooks.push_back(std::unique_ptr<Hook>(new Hook{o, threads, claimed}));
    };
    hook(Order::shuffled, 3, 3);
    hook(Order::reverse, 1, 64);
#if !defined(__SANITIZE_THREAD__)  // ThreadSanitizer: the threaded runs above suffice
    hook(Order::reverse, 1, 2);
    hook(Order::shuffled, 4, 7);
    hook(Order::forward, 2, 16);
    hook(Order::shuffled, 5, 5);
#else
    pools = {&p3};
#endif
    uint64_t salt = 0x6c00 + uint64_t(dt) * 100;
    for (const Workload& w : parallel_workloads()) {
        SCOPED_TRACE(w.name + " " + dtype_name(dt));
        OpHandle op{create(w, dt)};
        ASSERT_NE(op.op, nullptr);
        Operands io = make_operands(w, dt, test_seed(++salt));
        simdax_bindings b = bindings(io, io.y.data());
        ASSERT_EQ(simdax_operator_execute(op.op, &b), SIMDAX_OK) << simdax_last_error();
#if !defined(__SANITIZE_THREAD__)  // (slow there, and not what that stage is for)
        // The serial result against the reference once (the parallel ones
        // must then equal it bit for bit).
        const CheckResult r = check_output(w.spec, io);
        EXPECT_TRUE(r.ok) << r.report;
#endif
        RawOutput serial(w.y, dt), out(w.y, dt);
        b = bindings(io, serial.base());
        ASSERT_EQ(simdax_operator_execute(op.op, &b), SIMDAX_OK) << simdax_last_error();
        ASSERT_TRUE(serial.bytes() == output_bytes(io.y));

        auto check = [&](const simdax_parallel* par, const std::string& how) {
            out.reset();
            simdax_bindings bb = bindings(io, out.base());
            ASSERT_EQ(simdax_operator_execute_parallel(op.op, &bb, par), SIMDAX_OK)
                << how << ": " << simdax_last_error();
            EXPECT_TRUE(out.bytes() == serial.bytes()) << how << ": output differs from serial";
        };
        check(nullptr, "parallel = NULL");
        for (Pool* p : pools) {
            const simdax_parallel par = simdax_threadpool_parallel(p->pool);
            check(&par, "built-in pool of " + std::to_string(par.thread_count));
        }
        for (auto& h : hooks) {
            const uint64_t before = h->calls.load();
            const simdax_parallel par = h->parallel();
            check(&par, "hook order " + std::to_string(int(h->order)) + " threads " +
                            std::to_string(h->threads) + " claimed " + std::to_string(h->claimed));
            EXPECT_GT(h->calls.load(), before) << "the work was not handed to the hook";
        }
    }
}
INSTANTIATE_TEST_SUITE_P(AllDtypes, ConcurrencyParallel, ::testing::ValuesIn(kDtypes), dtype_param_name);

}  // namespace
