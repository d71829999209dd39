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

// The byte ranges of operand o (bound at a) and the output (bound at y) meet.
bool ranges_meet(const Plan& p, const void* a, int o, const void* y) {
    const __int128 d = __int128(reinterpret_cast<intptr_t>(a)) - reinterpret_cast<intptr_t>(y);
    return p.meet_lo[o] < d && d < p.meet_hi[o];
}

// Operand o (bound at a) and the output (bound at y) share a byte.
bool overlaps_output(const Plan& p, const void* a, int o, const void* y) {
    if (!ranges_meet(p, a, o, y)) return false;
    const auto pa = reinterpret_cast<intptr_t>(a), py = reinterpret_cast<intptr_t>(y);
    const uint64_t g = uint64_t(p.lattice_with_y[o]);
    if (g == 0) return true;  // one element each, inside each other's range
    const uint64_t ua = uint64_t(pa), uy = uint64_t(py);
    const uint64_t r = ua >= uy ? (ua - uy) % g : (g - (uy - ua) % g) % g;
    return r < p.esize || g - r < p.esize;
}

// The first bound operand whose address is not a multiple of the element
// size, or nullptr. Kernels read single elements as objects of their type,
// so such an address is refused rather than read (docs/spec.md, Alignment).
// Element sizes are powers of two: one mask over all addresses on the way
// that every call takes, the naming only on the way that fails.
const char* misaligned_operand(const Plan& p, const simdax_bindings* b) {
    const uintptr_t mask = p.esize - 1;
    const auto bits = [](const void* a) { return reinterpret_cast<uintptr_t>(a); };
    uintptr_t any = bits(b->input) | bits(b->output);
    if (p.has_operand[kScale]) any |= bits(b->scale);
    if (p.has_operand[kBias]) any |= bits(b->bias);
    if ((any & mask) == 0) return nullptr;
    if (bits(b->input) & mask) return "input";
    if (bits(b->output) & mask) return "output";
    if (p.has_operand[kScale] && (bits(b->scale) & mask)) return "scale";
    return "bias";
}

// The way nearly every call takes: each operand the plan uses is bound and
// nothing else is, every address is element-aligned, and the output's byte
// range meets no input's. Anything else (in place, interleaved views, a
// refusal, a warning) goes to check_in_full for its verdict and message.
bool plainly_valid(const Plan& p, const simdax_bindings* b) {
    if (!b->input || !b->output) return false;
    if (p.has_operand[kScale] != (b->scale != nullptr)) return false;
    if (p.has_operand[kBias] != (b->bias != nullptr)) return false;
    if (misaligned_operand(p, b)) return false;
    if (ranges_meet(p, b->input, kX, b->output)) return false;
    if (b->scale && ranges_meet(p, b->scale, kScale, b->output)) return false;
    return !b->bias || !ranges_meet(p, b->bias, kBias, b->output);
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

__attribute__((noinline, cold)) simdax_status check_in_full(const Plan& p,
                                                             const simdax_bindings* b,
                                                             const char* where) {
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

}  // namespace

simdax_status check_bindings(const Plan& p, const simdax_bindings* b, const char* where) {
    if (!b) return fail(SIMDAX_ERROR_NULL_POINTER, "bindings: is NULL");
    if (p.form == Form::empty) return SIMDAX_OK;  // nothing is read or written
    if (plainly_valid(p, b)) return SIMDAX_OK;
    return check_in_full(p, b, where);
}

}  // namespace simdax
