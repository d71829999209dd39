// simdax_set_log_callback: the (function, user_data) pair is published with
// a sequence lock, so a reader never sees the new function with the old
// user_data, and readers (failing calls, possibly in execute) never block.
// Writers are serialised by a mutex.
#include "log_callback.hpp"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace simdax {
namespace {

std::atomic<uint64_t> g_seq{0};  // odd while a writer is updating the pair
std::atomic<simdax_log_fn> g_fn{nullptr};
std::atomic<void*> g_user_data{nullptr};
std::mutex g_writer;
thread_local bool t_in_callback = false;

}  // namespace

void log_message(simdax_log_level level, const char* message) {
    if (!message) message = "";
    if (!log_enabled()) return;
    simdax_log_fn fn;
    void* user_data;
    for (;;) {
        const uint64_t before = g_seq.load(std::memory_order_acquire);
        if (before & 1) continue;  // a writer is between its two stores
        fn = g_fn.load(std::memory_order_relaxed);
        user_data = g_user_data.load(std::memory_order_relaxed);
        std::atomic_thread_fence(std::memory_order_acquire);
        if (g_seq.load(std::memory_order_relaxed) == before) break;
    }
    if (!fn) return;
    // A private copy: a failing simdax call inside the callback rewrites
    // simdax_last_error()'s buffer, which message may point at.
    char copy[1024];
    const size_t n = strnlen(message, sizeof copy - 1);
    std::memcpy(copy, message, n);
    copy[n] = '\0';
    struct Guard {
        Guard() { t_in_callback = true; }
        ~Guard() { t_in_callback = false; }
    } guard;
    fn(user_data, level, copy);
}

bool log_enabled() { return g_fn.load(std::memory_order_relaxed) && !t_in_callback; }

}  // namespace simdax

extern "C" void simdax_set_log_callback(simdax_log_fn fn, void* user_data) {
    using namespace simdax;
    std::lock_guard<std::mutex> lock(g_writer);
    const uint64_t seq = g_seq.load(std::memory_order_relaxed);
    g_seq.store(seq + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    g_fn.store(fn, std::memory_order_relaxed);
    g_user_data.store(user_data, std::memory_order_relaxed);
    g_seq.store(seq + 2, std::memory_order_release);
}
