// The C API: create (validate + plan), execute (bind + run), destroy.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

#include "active_isa.hpp"
#include "bindings_check.hpp"
#include "error.hpp"
#include "log_callback.hpp"
#include "one_shot.hpp"
#include "problem.hpp"
#include "tables.hpp"
#include "verbose.hpp"

struct simdax_operator {
    simdax::Plan plan;
    char description[512];  // simdax_operator_describe, the verbose lines
};

namespace simdax {

static_assert(int(kOperands) == SIMDAX_OPERAND_COUNT && int(kSkipSum) == SIMDAX_OPERAND_SKIP_SUM &&
                  int(kMask) == SIMDAX_OPERAND_MASK,
              "Operand (plan.hpp) follows simdax_operand");
namespace {

// SIMDAX_VERBOSE=2: the run timed and described (out of line: the plain
// execute keeps a small frame).
__attribute__((noinline)) void execute_logged(const simdax_operator* op, const Buffers& buffers,
                                              const simdax_parallel* par) {
    const auto t0 = std::chrono::steady_clock::now();
    op->plan.def->execute(op->plan, buffers, par);
    const auto ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
    char line[sizeof op->description + 64];  // on the stack: execute never allocates
    std::snprintf(line, sizeof line, "execute %s threads=%u time_ns=%lld", op->description,
                  par ? par->thread_count : 1u, (long long)ns);
    log_message(SIMDAX_LOG_INFO, line);
}

__attribute__((always_inline)) inline simdax_status execute(const simdax_operator* op, const BoundOperands& b,
                                                            const simdax_parallel* par, const char* where) {
    const simdax_status s = check_bindings(op->plan, b, where);
    if (s != SIMDAX_OK) return s;
    if (par && !par->parallel_for) return fail(SIMDAX_ERROR_NULL_POINTER, "parallel.parallel_for: is NULL");
    if (par && par->thread_count == 0)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "parallel.thread_count: 0 must be >= 1");
    if (verbose_level() >= 2 && log_enabled())
        execute_logged(op, b, par);
    else
        op->plan.def->execute(op->plan, b, par);
    return ok();
}

simdax_status execute(const simdax_operator* op, const simdax_bindings* b, const simdax_parallel* par,
                      const char* where) {
    if (!op) return fail(SIMDAX_ERROR_NULL_POINTER, "op: is NULL");
    if (!b) return fail(SIMDAX_ERROR_NULL_POINTER, "bindings: is NULL");
    return execute(op, bound_operands(b), par, where);
}

// The operands of execute_bound with their stated lengths.
simdax_status bind_operands(const simdax_operand_bindings* b, BoundOperands* out) {
    if (!b) return fail(SIMDAX_ERROR_NULL_POINTER, "bindings: is NULL");
    if (b->header.type != SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "bindings.header.type: %d is not SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS",
                    int(b->header.type));
    if (b->header.size < sizeof(simdax_operand_bindings))
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "bindings.header.size: %u is smaller than simdax_operand_bindings (%zu)", b->header.size,
                    sizeof(simdax_operand_bindings));
    if (b->count && !b->operands)
        return fail(SIMDAX_ERROR_NULL_POINTER, "bindings.operands: is NULL with count %u", b->count);
    *out = BoundOperands{};
    for (uint32_t i = 0; i < b->count; ++i) {
        const simdax_buffer_binding& a = b->operands[i];
        if (!a.data) continue;
        if (i >= uint32_t(kOperands)) {
            if (log_enabled()) {
                char line[128];
                std::snprintf(line, sizeof line,
                              "bindings.operands[%u]: ignored: not a simdax_operand of this library", i);
                log_message(SIMDAX_LOG_WARNING, line);
            }
            continue;
        }
        if (a.size && a.offset >= a.size)
            return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                        "bindings.operands[%u].offset: %zu is not inside the buffer's %zu bytes", i, a.offset,
                        a.size);
        if (uintptr_t(a.data) + a.offset < uintptr_t(a.data))
            return fail(SIMDAX_ERROR_OVERFLOW, "bindings.operands[%u].offset: %zu wraps the address space", i,
                        a.offset);
        out->at[i] = static_cast<char*>(a.data) + a.offset;
        out->bound |= bit(int(i));
        if (a.size) out->sized |= bit(int(i));
        out->before[i] = a.offset;
        out->after[i] = a.size ? a.size - a.offset : 0;
    }
    return SIMDAX_OK;
}

// Plans a validated problem for the active ISA.
simdax_status create(const Problem& p, simdax_operator** op) {
    const simdax_status s = check_max_isa_env();
    if (s != SIMDAX_OK) return s;
    const simdax_isa isa = simdax_active_isa();
    const IsaKernels* table = isa_kernels(isa);
    auto* created = new (std::nothrow) simdax_operator;
    if (!created) return fail(SIMDAX_ERROR_OUT_OF_MEMORY, "op: could not allocate the plan");
    make_plan(p, isa, table->dt[int(p.dtype)], &created->plan);
    describe_operator(p, created->plan, created->description, sizeof created->description);
    if (verbose_level() >= 1 && log_enabled()) {
        char line[sizeof created->description + 8];
        std::snprintf(line, sizeof line, "create %s", created->description);
        log_message(SIMDAX_LOG_INFO, line);
    }
    *op = created;
    return ok();
}

// Create from either kind of descriptor.
template <class Desc>
simdax_status validate_and_create(simdax_status (*validate_desc)(const Desc*, Problem*), const Desc* desc,
                                  simdax_operator** op) {
    if (!op) return fail(SIMDAX_ERROR_NULL_POINTER, "op: the result pointer is NULL");
    *op = nullptr;
    Problem p;
    const simdax_status s = validate_desc(desc, &p);
    if (s != SIMDAX_OK) return s;
    return create(p, op);
}

}  // namespace

simdax_status one_shot(simdax_operator_type type, const void* desc, const simdax_bindings& b) {
    if (!desc) return fail(SIMDAX_ERROR_NULL_POINTER, "desc: is NULL");
    const simdax_operator_desc d{type, desc};
    simdax_operator* op = nullptr;
    simdax_status s = simdax_operator_create(&d, &op);
    if (s != SIMDAX_OK) return s;
    s = execute(op, &b, nullptr, "");  // the one-shot calls' parameters are input, scale, ...
    simdax_operator_destroy(op);
    return s;
}

simdax_status one_shot_operands(simdax_operator_type type, const void* desc,
                                const void* const (&at)[kOperands]) {
    if (!desc) return fail(SIMDAX_ERROR_NULL_POINTER, "desc: is NULL");
    const simdax_operator_desc d{type, desc};
    simdax_operator* op = nullptr;
    simdax_status s = simdax_operator_create(&d, &op);
    if (s != SIMDAX_OK) return s;
    BoundOperands b{};
    for (int o = 0; o < kOperands; ++o) {
        b.at[o] = static_cast<char*>(const_cast<void*>(at[o]));
        if (at[o]) b.bound |= bit(o);
    }
    s = execute(op, b, nullptr, "");
    simdax_operator_destroy(op);
    return s;
}

}  // namespace simdax

extern "C" {

size_t simdax_dtype_size(simdax_dtype dtype) {
    switch (dtype) {
        case SIMDAX_DTYPE_FLOAT32: return 4;
        case SIMDAX_DTYPE_FLOAT16:
        case SIMDAX_DTYPE_BFLOAT16: return 2;
        case SIMDAX_DTYPE_FLOAT64: return 8;
        case SIMDAX_DTYPE_UINT8: return 1;
    }
    return 0;
}

simdax_status simdax_operator_create(const simdax_operator_desc* desc, simdax_operator** op) {
    return simdax::validate_and_create(simdax::validate, desc, op);
}

simdax_status simdax_operator_create_from_info(const simdax_structure_header* info, simdax_operator** op) {
    return simdax::validate_and_create(simdax::validate_info, info, op);
}

simdax_status simdax_operator_execute_parallel(const simdax_operator* op, const simdax_bindings* b,
                                               const simdax_parallel* par) {
    return simdax::execute(op, b, par, "bindings.");
}

simdax_status simdax_operator_execute(const simdax_operator* op, const simdax_bindings* b) {
    return simdax::execute(op, b, nullptr, "bindings.");
}

simdax_status simdax_operator_execute_bound(const simdax_operator* op, const simdax_operand_bindings* b,
                                            const simdax_parallel* par) {
    using namespace simdax;
    if (!op) return fail(SIMDAX_ERROR_NULL_POINTER, "op: is NULL");
    BoundOperands bound;
    const simdax_status s = bind_operands(b, &bound);
    if (s != SIMDAX_OK) return s;
    return execute(op, bound, par, "bindings.operands.");
}

size_t simdax_operator_describe(const simdax_operator* op, char* buf, size_t size) {
    const char* d = op ? op->description : "";
    const size_t n = std::strlen(d);
    if (buf && size) {
        const size_t k = n < size - 1 ? n : size - 1;
        std::memcpy(buf, d, k);
        buf[k] = '\0';
    }
    return n;
}

void simdax_operator_destroy(simdax_operator* op) { delete op; }

simdax_operator_type simdax_operator_get_type(const simdax_operator* op) {
    return op ? op->plan.def->type : simdax_operator_type(0);
}

simdax_isa simdax_operator_isa(const simdax_operator* op) { return op ? op->plan.isa : SIMDAX_ISA_SCALAR; }

simdax_status simdax_log_softmax(const simdax_log_softmax_desc* desc, const void* input, void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_LOG_SOFTMAX, desc, {input, nullptr, nullptr, output});
}
simdax_status simdax_softmax(const simdax_softmax_desc* desc, const void* input, void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_SOFTMAX, desc, {input, nullptr, nullptr, output});
}
simdax_status simdax_hardmax(const simdax_hardmax_desc* desc, const void* input, void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_HARDMAX, desc, {input, nullptr, nullptr, output});
}
simdax_status simdax_mean_variance_normalization(const simdax_mvn_desc* desc, const void* input,
                                                 const void* scale, const void* bias, void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, desc, {input, scale, bias, output});
}
simdax_status simdax_mean_variance_normalization_ex(const simdax_mvn_ex_desc* desc, const void* input,
                                                    const void* scale, const void* bias, void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, desc,
                            {input, scale, bias, output});
}
simdax_status simdax_hard_sigmoid(const simdax_hard_sigmoid_desc* desc, const void* input, void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_HARD_SIGMOID, desc, {input, nullptr, nullptr, output});
}
simdax_status simdax_activation(const simdax_activation_op_desc* desc, const void* input, void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_ACTIVATION, desc, {input, nullptr, nullptr, output});
}

}  // extern "C"
