// Overlap rule (simdax.h, simdax_operator_execute): an output element and
// an input element overlap when their bytes do. Two views are disjoint when
// their byte ranges are, or when the lattice argument proves it: every
// element of view A starts at a + i*ga and every one of view B at b + j*gb
// (ga, gb the gcds of their byte strides), so two starts differ by
// (a - b) + k*g, g = gcd(ga, gb); with r = (a - b) mod g, no two elements
// share a byte if r >= esize and g - r >= esize. This accepts interleaved
// views (even and odd elements, the real and imaginary halves of complex
// pairs) and stays conservative otherwise: it never accepts an overlap.
#include "bindings_check.hpp"

#include <cstdint>
#include <cstdio>

#include "error.hpp"
#include "log_callback.hpp"

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

// Operand o (bound at a) and the output (bound at y) share a byte.
bool overlaps_output(const Plan& p, const void* a, int o, const void* y) {
    const auto pa = reinterpret_cast<intptr_t>(a), py = reinterpret_cast<intptr_t>(y);
    if (!(at(pa, p.span_lo[o]) < at(py, p.span_hi[kY]) &&
          at(py, p.span_lo[kY]) < at(pa, p.span_hi[o])))
        return false;
    const uint64_t g = uint64_t(p.lattice_with_y[o]);
    if (g == 0) return true;  // one element each, inside each other's range
    const uint64_t ua = uint64_t(pa), uy = uint64_t(py);
    const uint64_t r = ua >= uy ? (ua - uy) % g : (g - (uy - ua) % g) % g;
    return r < p.esize || g - r < p.esize;
}

// The first bound operand whose address is not a multiple of the element
// size, or nullptr. Kernels read single elements as objects of their type,
// so such an address is refused rather than read (docs/spec.md, Alignment).
const char* misaligned_operand(const Plan& p, const simdax_bindings* b) {
    const auto off = [&](const void* a) { return a && reinterpret_cast<uintptr_t>(a) % p.esize != 0; };
    if (off(b->input)) return "input";
    if (off(b->output)) return "output";
    if (p.has_operand[kScale] && off(b->scale)) return "scale";
    if (p.has_operand[kBias] && off(b->bias)) return "bias";
    return nullptr;
}

void warn_ignored(const char* where, const char* name) {
    if (!log_enabled()) return;
    char line[160];
    std::snprintf(line, sizeof line,
                  "%s%s: ignored: the operator was created without a %s (only an MVN created "
                  "with one reads it)",
                  where, name, name);
    log_message(SIMDAX_LOG_WARNING, line);
}

}  // namespace

simdax_status check_bindings(const Plan& p, const simdax_bindings* b, const char* where) {
    if (!b) return fail(SIMDAX_ERROR_NULL_POINTER, "bindings: is NULL");
    if (p.form == Form::empty) return SIMDAX_OK;  // nothing is read or written
    if (!b->input) return fail(SIMDAX_ERROR_NULL_POINTER, "%sinput: is NULL", where);
    if (!b->output) return fail(SIMDAX_ERROR_NULL_POINTER, "%soutput: is NULL", where);
    if (p.has_operand[kScale] && !b->scale)
        return fail(SIMDAX_ERROR_NULL_POINTER,
                    "%sscale: is NULL but the operator was created with a scale", where);
    if (p.has_operand[kBias] && !b->bias)
        return fail(SIMDAX_ERROR_NULL_POINTER,
                    "%sbias: is NULL but the operator was created with a bias", where);
    if (const char* name = misaligned_operand(p, b))
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "%s%s: address is not a multiple of the element size (%zu bytes); buffers "
                    "need their element type's alignment",
                    where, name, p.esize);
    if (overlaps_output(p, b->input, kX, b->output)) {
        if (!p.in_place_op)
            return fail(SIMDAX_ERROR_OVERLAP,
                        "%soutput: overlaps the input (this operator cannot run in place)", where);
        if (b->input != b->output)
            return fail(SIMDAX_ERROR_OVERLAP,
                        "%soutput: overlaps the input; in place, the output must be the input "
                        "exactly (same pointer and same strides)",
                        where);
        if (!p.same_xy_strides)
            return fail(SIMDAX_ERROR_OVERLAP,
                        "%soutput: is the input's buffer but with other strides, so it overlaps "
                        "the input; in place needs the same strides",
                        where);
    }
    if (p.has_operand[kScale] && overlaps_output(p, b->scale, kScale, b->output))
        return fail(SIMDAX_ERROR_OVERLAP, "%soutput: overlaps the scale", where);
    if (p.has_operand[kBias] && overlaps_output(p, b->bias, kBias, b->output))
        return fail(SIMDAX_ERROR_OVERLAP, "%soutput: overlaps the bias", where);
    if (b->scale && !p.has_operand[kScale]) warn_ignored(where, "scale");
    if (b->bias && !p.has_operand[kBias]) warn_ignored(where, "bias");
    return SIMDAX_OK;
}

}  // namespace simdax
