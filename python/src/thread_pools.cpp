#include "thread_pools.hpp"

#include <map>
#include <mutex>

#include "errors.hpp"

namespace simdax_py {

simdax_parallel thread_pool(uint32_t threads) {
    // Never destroyed: destroying joins the workers, which must not happen
    // during interpreter shutdown; the process's exit ends them.
    static std::mutex mutex;
    static auto* pools = new std::map<uint32_t, simdax_threadpool*>();
    std::lock_guard<std::mutex> lock(mutex);
    auto found = pools->find(threads);
    if (found == pools->end()) {
        simdax_threadpool* pool = nullptr;
        check(simdax_threadpool_create(threads, &pool));
        found = pools->emplace(threads, pool).first;
    }
    return simdax_threadpool_parallel(found->second);
}

}  // namespace simdax_py
