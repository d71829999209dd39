// Execute allocates nothing (simdax.h): this program replaces malloc and
// friends with counting wrappers around glibc's own (__libc_*), so every
// allocation the library makes, directly or through operator new, is seen.
// Counting is per thread and on only around execute calls. Every operator,
// every loop form (rows, rows with segments, cols, general, groups split into
// parts, element-wise), every dtype and every ISA this machine runs, inline
// and through a caller's parallel-for hook. Its own executable, without
// GoogleTest and never under a sanitizer (which owns malloc). Exit 0 = pass.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "simdax/simdax.h"

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);
}

namespace {
__thread int g_counting;  // static TLS: no allocation of its own
__thread long g_allocations;
void note() {
    if (g_counting) ++g_allocations;
}
}  // namespace

extern "C" {
void* malloc(size_t n) {
    note();
    return __libc_malloc(n);
}
void* calloc(size_t n, size_t s) {
    note();
    return __libc_calloc(n, s);
}
void* realloc(void* p, size_t n) {
    note();
    return __libc_realloc(p, n);
}
void* aligned_alloc(size_t a, size_t n) {
    note();
    return __libc_memalign(a, n);
}
void* memalign(size_t a, size_t n) {
    note();
    return __libc_memalign(a, n);
}
int posix_memalign(void** out, size_t a, size_t n) {
    note();
    *out = __libc_memalign(a, n);
    return *out ? 0 : 12;  // ENOMEM
}
void free(void* p) { __libc_free(p); }
}

namespace {

// With SIMDAX_VERBOSE=2 (ctest's second run) every execute logs a line and
// every ignored scale a WARNING, formatted without allocating; the callback
// only counts them.
long g_log_lines = 0;
void count_line(void*, simdax_log_level, const char*) { ++g_log_lines; }

// A caller's pool stand-in: runs the tasks on this thread, in reverse.
void inline_parallel_for(void*, size_t n, simdax_task_fn fn, void* arg) {
    for (size_t i = n; i-- > 0;) fn(arg, i);
}

struct Case {
    const char* name;
    simdax_operator_type type;
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;  // empty: packed
    std::vector<uint32_t> axes;
    bool scale_bias;
};

int failures = 0;

void run(const Case& c, simdax_dtype dt, simdax_isa isa) {
    const uint32_t rank = uint32_t(c.sizes.size());
    int64_t span = 1;
    for (uint32_t i = 0; i < rank; ++i)
        span +=
            (c.sizes[i] - 1) * (c.strides.empty() ? 1 : (c.strides[i] < 0 ? -c.strides[i] : c.strides[i]));
    int64_t count = 1;
    for (int64_t s : c.sizes) count *= s;
    if (!c.strides.empty()) count = span;
    const size_t es = simdax_dtype_size(dt);
    std::vector<unsigned char> x(size_t(count) * es, 0), y(size_t(count) * es, 0);
    std::vector<unsigned char> sb(size_t(count) * es, 0);
    for (size_t i = 0; i < x.size(); ++i) x[i] = (unsigned char)(i * 37 % 61);  // finite values
    const simdax_tensor_desc in{dt, rank, c.sizes.data(), c.strides.empty() ? nullptr : c.strides.data()};
    const simdax_tensor_desc out{dt, rank, c.sizes.data(), nullptr};
    const simdax_tensor_desc side{dt, rank, c.sizes.data(), nullptr};
    const simdax_axes_op_desc ax{&in, &out, uint32_t(c.axes.size()), c.axes.data()};
    const simdax_activation_desc relu = simdax_activation_default(SIMDAX_ACTIVATION_RELU);
    const simdax_mvn_desc mvn{&in,
                              c.scale_bias ? &side : nullptr,
                              c.scale_bias ? &side : nullptr,
                              &out,
                              uint32_t(c.axes.size()),
                              c.axes.data(),
                              1,
                              1e-5f,
                              &relu};
    const simdax_mvn_ex_desc mvn_ex{mvn, SIMDAX_EPSILON_ON_STDDEV};
    const simdax_hard_sigmoid_desc hs{&in, &out, 0.2f, 0.5f};
    const void* d = c.type == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION ? static_cast<const void*>(&mvn)
                    : c.type == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX
                        ? static_cast<const void*>(&mvn_ex)
                    : c.type == SIMDAX_OPERATOR_HARD_SIGMOID ? static_cast<const void*>(&hs)
                                                             : static_cast<const void*>(&ax);
    const simdax_operator_desc od{c.type, d};
    simdax_operator* op = nullptr;
    if (simdax_operator_create(&od, &op) != SIMDAX_OK) {
        std::printf("FAIL %s %s: create: %s\n", c.name, simdax_isa_name(isa), simdax_last_error());
        ++failures;
        return;
    }
    // Without Scale/Bias the scale buffer is still bound: ignored, with a WARNING.
    const simdax_bindings b{x.data(), sb.data(), c.scale_bias ? sb.data() : nullptr, y.data()};
    const simdax_parallel par{inline_parallel_for, nullptr, 4};
    g_allocations = 0;
    g_counting = 1;
    const simdax_status s1 = simdax_operator_execute(op, &b);
    const simdax_status s2 = simdax_operator_execute_parallel(op, &b, &par);
    g_counting = 0;
    simdax_operator_destroy(op);
    if (s1 != SIMDAX_OK || s2 != SIMDAX_OK || g_allocations != 0) {
        std::printf("FAIL %s dtype %d %s: status %d/%d, %ld allocations during execute\n", c.name, int(dt),
                    simdax_isa_name(isa), int(s1), int(s2), g_allocations);
        ++failures;
    }
}

}  // namespace

int main() {
    // The counting wrappers must be the ones in use (not a sanitizer's).
    static void* volatile probe;  // volatile: the pair cannot be optimised away
    g_counting = 1;
    probe = ::malloc(16);
    g_counting = 0;
    ::free(probe);
    if (g_allocations != 1) {
        std::printf("FAIL: malloc is not interposed (%ld counted)\n", g_allocations);
        return 1;
    }
    const std::vector<Case> cases = {
        {"log_softmax rows 4", SIMDAX_OPERATOR_LOG_SOFTMAX, {4}, {}, {0}, false},
        {"log_softmax rows 16x1000", SIMDAX_OPERATOR_LOG_SOFTMAX, {16, 1000}, {}, {1}, false},
        {"softmax rows+segments", SIMDAX_OPERATOR_SOFTMAX, {4, 6, 300}, {}, {0, 2}, false},
        {"softmax cols", SIMDAX_OPERATOR_SOFTMAX, {2, 64, 300}, {}, {1}, false},
        {"softmax general", SIMDAX_OPERATOR_SOFTMAX, {30, 40}, {1, 30}, {1}, false},
        {"softmax parts", SIMDAX_OPERATOR_SOFTMAX, {1, 200000}, {}, {1}, false},
        {"hardmax rows", SIMDAX_OPERATOR_HARDMAX, {128, 1000}, {}, {1}, false},
        {"hardmax cols", SIMDAX_OPERATOR_HARDMAX, {2, 64, 300}, {}, {1}, false},
        {"mvn rows scale/bias", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {8, 768}, {}, {1}, true},
        {"mvn cols", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {64, 300}, {}, {0}, false},
        {"mvn general", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {30, 40}, {1, 30}, {1}, false},
        {"mvn parts", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {4, 64, 3136}, {}, {0, 2}, false},
        {"mvn_ex stddev rows scale/bias",
         SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX,
         {8, 768},
         {},
         {1},
         true},
        {"mvn_ex stddev cols", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, {64, 300}, {}, {0}, false},
        {"mvn_ex stddev parts",
         SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX,
         {4, 64, 3136},
         {},
         {0, 2},
         false},
        {"hard_sigmoid", SIMDAX_OPERATOR_HARD_SIGMOID, {300000}, {}, {}, false},
        {"hard_sigmoid strided", SIMDAX_OPERATOR_HARD_SIGMOID, {30, 40}, {1, 30}, {}, false},
    };
    const char* verbose = std::getenv("SIMDAX_VERBOSE");
    const bool logging = verbose && std::strcmp(verbose, "2") == 0;
    if (logging) simdax_set_log_callback(count_line, nullptr);
    const simdax_dtype dtypes[] = {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16,
                                   SIMDAX_DTYPE_FLOAT64};
    int isas = 0;
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i) {
        const simdax_isa isa = simdax_isa(i);
        if (!simdax_isa_compiled(isa) || !simdax_isa_supported(isa)) continue;
        if (simdax_set_max_isa(isa) != SIMDAX_OK) continue;
        ++isas;
        for (const Case& c : cases)
            for (simdax_dtype dt : dtypes) run(c, dt, isa);
    }
    // Per execute (two per run): its verbose line, and a WARNING where scale is ignored.
    if (logging && g_log_lines < long(cases.size()) * 4 * isas * 2) {
        std::printf("FAIL: SIMDAX_VERBOSE=2 logged only %ld lines\n", g_log_lines);
        ++failures;
    }
    std::printf("%s: %zu cases x 4 dtypes x %d ISAs, %d failures%s\n", failures ? "FAIL" : "PASS",
                cases.size(), isas, failures, logging ? " (SIMDAX_VERBOSE=2)" : "");
    return failures ? 1 : 0;
}
