// The built-in pool for callers without one: a parallel-for over
// threads - 1 workers plus the calling thread.
//
// A call is done when its tasks are, not when every worker has seen it: a
// worker that wakes late (a futex wake-up, or a vCPU the host has taken
// away) must not hold up a caller that already ran the tasks itself.
// Each participant (the caller, each worker) owns a share of the tasks, the
// same contiguous range of indices for the same count on every call, so a
// thread keeps finding the data it touched last time in its own cache (an
// engine runs the same operator on the same buffers again and again); it
// then takes what is left of the others' shares. A share is claimed from one
// 64-bit word, call number (high half) and next index (low half): a claim
// succeeds only for the call the worker woke for, while that call is still
// running, so a late worker never touches a finished call's task or
// argument. Workers spin briefly before sleeping, so calls in quick
// succession (an engine running layer after layer) find them awake.
// (The mutex is the pool's, taken to publish a call and to sleep; an
// operator's execute takes none of its own.)
//
// The pool runs one call at a time: engines share a pool between request
// threads, and a second call published over a running one would take its
// task, argument and counters. A caller that finds the pool busy runs its
// tasks on its own thread instead of waiting (the output is the same for
// every split); so does a task that calls the pool it runs on.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "error.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SIMDAX_CPU_RELAX() _mm_pause()
#elif defined(__aarch64__)
#define SIMDAX_CPU_RELAX() __asm__ __volatile__("yield")
#else
#define SIMDAX_CPU_RELAX() ((void)0)
#endif

struct simdax_threadpool {
    static constexpr int kSpins = 20000;  // pause loops before sleeping (~0.1-1 ms)

    // One participant's share of the current call: epoch << 32 | its next
    // task index. On a cache line of its own: the owner bumps it per task.
    struct alignas(64) Share {
        std::atomic<uint64_t> claim{0};
    };

    std::mutex mu;
    std::condition_variable wake;
    std::vector<std::thread> workers;
    std::vector<Share> shares;       // participant 0 is the caller, i the i-th worker
    std::atomic<uint32_t> epoch{0};  // call number, bumped per parallel-for
    std::atomic<bool> busy{false};   // a caller owns the fields below until its call is done
    bool stop = false;               // under mu
    // The current call (written under mu before epoch is bumped).
    simdax_task_fn task = nullptr;
    void* arg = nullptr;
    size_t count = 0;
    alignas(64) std::atomic<size_t> finished{0};  // tasks of the current call done

    size_t share_begin(size_t j, size_t n) const { return n * j / shares.size(); }

    // Participant `self` runs tasks of call `e`: its own share first, then
    // whatever is left of the others'.
    void drain(size_t self, uint32_t e, simdax_task_fn fn, void* a, size_t n) {
        const size_t parts = shares.size();
        size_t done = 0;
        for (size_t k = 0; k < parts; ++k) {
            const size_t j = (self + k) % parts, end = share_begin(j + 1, n);
            std::atomic<uint64_t>& claim = shares[j].claim;
            uint64_t c = claim.load(std::memory_order_acquire);
            for (;;) {
                if (uint32_t(c >> 32) != e || (c & 0xffffffffu) >= end) break;
                if (!claim.compare_exchange_weak(c, c + 1, std::memory_order_acq_rel,
                                                 std::memory_order_acquire))
                    continue;
                fn(a, size_t(c & 0xffffffffu));
                ++done;
                c = claim.load(std::memory_order_acquire);
            }
        }
        if (done) finished.fetch_add(done, std::memory_order_release);
    }

    void worker(size_t self) {
        uint32_t seen = 0;
        for (;;) {
            for (int i = 0; i < kSpins && epoch.load(std::memory_order_acquire) == seen; ++i)
                SIMDAX_CPU_RELAX();
            simdax_task_fn fn;
            void* a;
            size_t n;
            {
                std::unique_lock<std::mutex> lk(mu);
                wake.wait(lk, [&] { return stop || epoch.load(std::memory_order_relaxed) != seen; });
                if (stop) return;
                seen = epoch.load(std::memory_order_relaxed);
                fn = task;
                a = arg;
                n = count;
            }
            drain(self, seen, fn, a, n);
        }
    }

    void parallel_for(size_t n, simdax_task_fn fn, void* a) {
        bool idle = false;
        if (workers.empty() || n <= 1 || n > 0xffffffffu ||
            !busy.compare_exchange_strong(idle, true, std::memory_order_acquire, std::memory_order_relaxed)) {
            for (size_t i = 0; i < n; ++i) fn(a, i);
            return;
        }
        uint32_t e;
        {
            std::lock_guard<std::mutex> lk(mu);
            task = fn;
            arg = a;
            count = n;
            finished.store(0, std::memory_order_relaxed);
            e = epoch.load(std::memory_order_relaxed) + 1;
            for (size_t j = 0; j < shares.size(); ++j)
                shares[j].claim.store(uint64_t(e) << 32 | share_begin(j, n), std::memory_order_release);
            epoch.store(e, std::memory_order_release);
        }
        wake.notify_all();
        drain(0, e, fn, a, n);
        // The rest are running on workers: at most one share's time.
        for (int i = 0; finished.load(std::memory_order_acquire) < n; ++i) {
            if (i < kSpins)
                SIMDAX_CPU_RELAX();
            else
                std::this_thread::yield();
        }
        busy.store(false, std::memory_order_release);
    }
};

namespace {
void pool_parallel_for(void* ctx, size_t n, simdax_task_fn fn, void* arg) {
    static_cast<simdax_threadpool*>(ctx)->parallel_for(n, fn, arg);
}
}  // namespace

extern "C" {

simdax_status simdax_threadpool_create(uint32_t threads, simdax_threadpool** pool) {
    using namespace simdax;
    if (!pool) return fail(SIMDAX_ERROR_NULL_POINTER, "pool: the result pointer is NULL");
    *pool = nullptr;
    if (threads < 1 || threads > 1024)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "threads: %u is outside 1..1024", threads);
    auto* p = new (std::nothrow) simdax_threadpool;
    if (!p) return fail(SIMDAX_ERROR_OUT_OF_MEMORY, "pool: could not allocate");
    try {
        p->shares = std::vector<simdax_threadpool::Share>(threads);
        for (uint32_t i = 1; i < threads; ++i) p->workers.emplace_back([p, i] { p->worker(i); });
    } catch (...) {
        simdax_threadpool_destroy(p);
        return fail(SIMDAX_ERROR_OUT_OF_MEMORY, "threads: could not start %u threads", threads);
    }
    *pool = p;
    return ok();
}

void simdax_threadpool_destroy(simdax_threadpool* pool) {
    if (!pool) return;
    {
        std::lock_guard<std::mutex> lk(pool->mu);
        pool->stop = true;
        pool->epoch.fetch_add(1, std::memory_order_release);  // ends the workers' spin
    }
    pool->wake.notify_all();
    for (auto& t : pool->workers) t.join();
    delete pool;
}

simdax_parallel simdax_threadpool_parallel(simdax_threadpool* pool) {
    simdax_parallel p{pool_parallel_for, pool, pool ? uint32_t(pool->workers.size() + 1) : 1u};
    if (!pool) p.parallel_for = nullptr;
    return p;
}

}  // extern "C"
