// The C API: create (validate + plan), execute (bind + run), destroy.
#include <cstdint>
#include <new>

#include "active_isa.hpp"
#include "error.hpp"
#include "executor.hpp"
#include "problem.hpp"
#include "tables.hpp"

struct simdax_operator {
    simdax::Plan plan;
};

namespace simdax {
namespace {

// base + offset, saturated: validation bounds a span near 2^63, not the
// address it is added to (a plain int64 sum could overflow, UB).
int64_t at(intptr_t base, int64_t off) {
    int64_t r;
    if (__builtin_add_overflow(int64_t(base), off, &r))
        return off > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

bool overlaps(const Plan& p, const void* a, int oa, const void* b, int ob) {
    const auto pa = reinterpret_cast<intptr_t>(a), pb = reinterpret_cast<intptr_t>(b);
    return at(pa, p.span_lo[oa]) < at(pb, p.span_hi[ob]) &&
           at(pb, p.span_lo[ob]) < at(pa, p.span_hi[oa]);
}

simdax_status check_bindings(const Plan& p, const simdax_bindings* b) {
    if (!b) return fail(SIMDAX_ERROR_NULL_POINTER, "bindings: is NULL");
    if (p.form == Form::empty) return SIMDAX_OK;  // nothing is read or written
    if (!b->input) return fail(SIMDAX_ERROR_NULL_POINTER, "bindings.input: is NULL");
    if (!b->output) return fail(SIMDAX_ERROR_NULL_POINTER, "bindings.output: is NULL");
    if (p.has_operand[kScale] && !b->scale)
        return fail(SIMDAX_ERROR_NULL_POINTER,
                    "bindings.scale: is NULL but the operator was created with a scale");
    if (p.has_operand[kBias] && !b->bias)
        return fail(SIMDAX_ERROR_NULL_POINTER,
                    "bindings.bias: is NULL but the operator was created with a bias");
    if (overlaps(p, b->input, kX, b->output, kY) &&
        !(p.in_place_ok && b->input == b->output))
        return fail(SIMDAX_ERROR_OVERLAP,
                    p.in_place_ok
                        ? "bindings.output: overlaps the input without being exactly it"
                        : "bindings.output: overlaps the input (this operator is not in-place)");
    if (p.has_operand[kScale] && overlaps(p, b->scale, kScale, b->output, kY))
        return fail(SIMDAX_ERROR_OVERLAP, "bindings.output: overlaps the scale");
    if (p.has_operand[kBias] && overlaps(p, b->bias, kBias, b->output, kY))
        return fail(SIMDAX_ERROR_OVERLAP, "bindings.output: overlaps the bias");
    return SIMDAX_OK;
}

simdax_status one_shot(simdax_operator_type type, const void* desc, const simdax_bindings& b) {
    const simdax_operator_desc d{type, desc};
    simdax_operator* op = nullptr;
    simdax_status s = simdax_operator_create(&d, &op);
    if (s != SIMDAX_OK) return s;
    s = simdax_operator_execute(op, &b);
    simdax_operator_destroy(op);
    return s;
}

}  // namespace
}  // namespace simdax

extern "C" {

size_t simdax_dtype_size(simdax_dtype dtype) {
    switch (dtype) {
        case SIMDAX_DTYPE_FLOAT32: return 4;
        case SIMDAX_DTYPE_FLOAT16:
        case SIMDAX_DTYPE_BFLOAT16: return 2;
        case SIMDAX_DTYPE_FLOAT64: return 8;
    }
    return 0;
}

simdax_status simdax_operator_create(const simdax_operator_desc* desc, simdax_operator** op) {
    using namespace simdax;
    if (!op) return fail(SIMDAX_ERROR_NULL_POINTER, "op: the result pointer is NULL");
    *op = nullptr;
    Problem p;
    const simdax_status s = validate(desc, &p);
    if (s != SIMDAX_OK) return s;
    const simdax_isa isa = simdax_active_isa();
    const IsaKernels* table = isa_kernels(isa);
    auto* created = new (std::nothrow) simdax_operator;
    if (!created) return fail(SIMDAX_ERROR_OUT_OF_MEMORY, "op: could not allocate the plan");
    make_plan(p, isa, table->dt[int(p.dtype)], &created->plan);
    prepare_execution(&created->plan);
    *op = created;
    return ok();
}

simdax_status simdax_operator_execute_parallel(const simdax_operator* op,
                                               const simdax_bindings* b,
                                               const simdax_parallel* par) {
    using namespace simdax;
    if (!op) return fail(SIMDAX_ERROR_NULL_POINTER, "op: is NULL");
    const simdax_status s = check_bindings(op->plan, b);
    if (s != SIMDAX_OK) return s;
    if (par && !par->parallel_for)
        return fail(SIMDAX_ERROR_NULL_POINTER, "parallel.parallel_for: is NULL");
    execute_plan(op->plan,
                 Buffers{static_cast<const char*>(b->input), static_cast<char*>(b->output),
                         static_cast<const char*>(b->scale), static_cast<const char*>(b->bias)},
                 par);
    return SIMDAX_OK;
}

simdax_status simdax_operator_execute(const simdax_operator* op, const simdax_bindings* b) {
    return simdax_operator_execute_parallel(op, b, nullptr);
}

void simdax_operator_destroy(simdax_operator* op) { delete op; }

simdax_operator_type simdax_operator_get_type(const simdax_operator* op) {
    return op ? op->plan.type : simdax_operator_type(0);
}

simdax_isa simdax_operator_isa(const simdax_operator* op) {
    return op ? op->plan.isa : SIMDAX_ISA_SCALAR;
}

simdax_status simdax_log_softmax(const simdax_log_softmax_desc* desc, const void* input,
                                 void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_LOG_SOFTMAX, desc, {input, nullptr, nullptr, output});
}
simdax_status simdax_softmax(const simdax_softmax_desc* desc, const void* input, void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_SOFTMAX, desc, {input, nullptr, nullptr, output});
}
simdax_status simdax_hardmax(const simdax_hardmax_desc* desc, const void* input, void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_HARDMAX, desc, {input, nullptr, nullptr, output});
}
simdax_status simdax_mean_variance_normalization(const simdax_mvn_desc* desc, const void* input,
                                                 const void* scale, const void* bias,
                                                 void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, desc,
                            {input, scale, bias, output});
}
simdax_status simdax_mean_variance_normalization_ex(const simdax_mvn_ex_desc* desc,
                                                    const void* input, const void* scale,
                                                    const void* bias, void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, desc,
                            {input, scale, bias, output});
}
simdax_status simdax_hard_sigmoid(const simdax_hard_sigmoid_desc* desc, const void* input,
                                  void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_HARD_SIGMOID, desc, {input, nullptr, nullptr, output});
}
simdax_status simdax_activation(const simdax_activation_op_desc* desc, const void* input,
                                void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_ACTIVATION, desc, {input, nullptr, nullptr, output});
}

}  // extern "C"
