// The built-in pool for callers without one: a parallel-for over
// threads - 1 workers plus the calling thread. Tasks are claimed from an
// atomic counter; workers sleep on a condition variable between calls.
// (The lock is the pool's, taken to wake and to finish a call; an operator's
// execute takes none of its own.)
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "error.hpp"

struct simdax_threadpool {
    std::mutex mu;
    std::condition_variable wake, done;
    std::vector<std::thread> workers;
    uint64_t epoch = 0;  // bumped per parallel-for
    bool stop = false;
    // The current call.
    simdax_task_fn task = nullptr;
    void* arg = nullptr;
    size_t count = 0;
    std::atomic<size_t> next{0};
    size_t running = 0;  // workers still inside the current call

    void drain() {
        for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;) task(arg, i);
    }

    void worker() {
        uint64_t seen = 0;
        std::unique_lock<std::mutex> lk(mu);
        for (;;) {
            wake.wait(lk, [&] { return stop || epoch != seen; });
            if (stop) return;
            seen = epoch;
            lk.unlock();
            drain();
            lk.lock();
            if (--running == 0) done.notify_one();
        }
    }

    void parallel_for(size_t n, simdax_task_fn fn, void* a) {
        if (workers.empty() || n <= 1) {
            for (size_t i = 0; i < n; ++i) fn(a, i);
            return;
        }
        {
            std::lock_guard<std::mutex> lk(mu);
            task = fn;
            arg = a;
            count = n;
            next.store(0, std::memory_order_relaxed);
            running = workers.size();
            ++epoch;
        }
        wake.notify_all();
        drain();
        std::unique_lock<std::mutex> lk(mu);
        done.wait(lk, [&] { return running == 0; });
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
        for (uint32_t i = 1; i < threads; ++i) p->workers.emplace_back([p] { p->worker(); });
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
    }
    pool->wake.notify_all();
    for (auto& t : pool->workers) t.join();
    delete pool;
}

simdax_parallel simdax_threadpool_parallel(simdax_threadpool* pool) {
    simdax_parallel p{pool_parallel_for, pool,
                      pool ? uint32_t(pool->workers.size() + 1) : 1u};
    if (!pool) p.parallel_for = nullptr;
    return p;
}

}  // extern "C"
