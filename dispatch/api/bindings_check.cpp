// Overlap rule (simdax.h, simdax_operator_execute): an output element and
// an input element overlap when their bytes do. Two views are disjoint when
// their byte ranges are, or when the lattice argument proves it: every
// element of view A starts at a + i*ga and every one of view B at b + j*gb
// (ga, gb the gcds of their byte strides), so two starts differ by
// (a - b) + k*g, g = gcd(ga, gb); with r = (a - b) mod g, no two elements
// share a byte if r >= (B's element size) and g - r >= (A's). This accepts interleaved
// views (even and odd elements, the real and imaginary halves of complex
// pairs) and stays conservative otherwise: it never accepts an overlap.
#include "bindings_check.hpp"

#include <cstdint>
#include <cstdio>
#include <numeric>

#include "error.hpp"
#include "log_callback.hpp"

namespace simdax {
namespace {

// The byte ranges of operand o (bound at a) and the output (bound at y) meet.
bool ranges_meet(const Plan& p, const void* a, int o, const void* y) {
    const __int128 d = __int128(reinterpret_cast<intptr_t>(a)) - reinterpret_cast<intptr_t>(y);
    return p.meet_lo[o] < d && d < p.meet_hi[o];
}

// Views of operands o (bound at a) and q (at b) whose byte ranges meet
// share a byte, by the lattice argument with g the gcd of their lattices.
bool lattices_meet(const Plan& p, const void* a, int o, const void* b, int q, uint64_t g) {
    if (g == 0) return true;  // one element each, inside each other's range
    const auto ua = uint64_t(reinterpret_cast<uintptr_t>(a)), ub = uint64_t(reinterpret_cast<uintptr_t>(b));
    const uint64_t r = ua >= ub ? (ua - ub) % g : (g - (ub - ua) % g) % g;
    return r < p.esize_of[q] || g - r < p.esize_of[o];
}

// Operand o (bound at a) and the output (bound at y) share a byte.
bool overlaps_output(const Plan& p, const void* a, int o, const void* y) {
    return ranges_meet(p, a, o, y) && lattices_meet(p, a, o, y, kY, uint64_t(p.lattice_with_y[o]));
}

// The byte ranges of operands o (at a) and q (at b) meet.
bool spans_meet(const Plan& p, const void* a, int o, const void* b, int q) {
    const __int128 ia = reinterpret_cast<intptr_t>(a), ib = reinterpret_cast<intptr_t>(b);
    return ia + p.span_lo[o] < ib + p.span_hi[q] && ib + p.span_lo[q] < ia + p.span_hi[o];
}

// The first operand other than the output whose view shares a byte with
// output q's (an output beside kY), or -1.
int overlapping_extra_output(const Plan& p, const BoundOperands& b, int q, bool ranges_only) {
    for (int o = 0; o < kOperands; ++o) {
        if (o == q || o == kY || !p.has_operand[o] || !spans_meet(p, b.at[o], o, b.at[q], q)) continue;
        if (ranges_only ||
            lattices_meet(p, b.at[o], o, b.at[q], q, uint64_t(std::gcd(p.lattice[o], p.lattice[q]))))
            return o;
    }
    return -1;
}

const char* const kOperandNames[kOperands] = {
    "input",       "output", "scale",     "bias", "mask",        "alibi_slopes", "sinks",
    "log_sum_exp", "skip",   "skip_bias", "mean", "inv_std_dev", "skip_sum"};

// The first bound operand whose address is not a multiple of the element
// size, or -1. Kernels read single elements as objects of their type,
// so such an address is refused rather than read (docs/spec.md, Alignment).
// Element sizes are powers of two: one mask over all addresses on the way
// that every call takes, the naming only on the way that fails.
int misaligned_operand(const Plan& p, const BoundOperands& b) {
    uintptr_t any = 0;
    for (unsigned m = p.operands; m; m &= m - 1) {
        const int o = __builtin_ctz(m);
        any |= reinterpret_cast<uintptr_t>(b.at[o]) & (p.esize_of[o] - 1);
    }
    if (any == 0) return -1;
    for (int o = 0; o < kOperands; ++o)
        if (p.has_operand[o] && (reinterpret_cast<uintptr_t>(b.at[o]) & (p.esize_of[o] - 1))) return o;
    return -1;
}

// Operand o's view reaches outside its stated buffer.
bool outgrows_buffer(const Plan& p, const BoundOperands& b, int o) {
    if (!(b.sized & bit(o))) return false;
    return uint64_t(-p.span_lo[o]) > b.before[o] || uint64_t(p.span_hi[o]) > b.after[o];
}

// The way nearly every call takes: each operand the plan uses is bound and
// nothing else is, every address is element-aligned, every stated length
// holds its view, and the output's byte range meets no input's. Anything
// else (in place, interleaved views, a refusal, a warning) goes to
// check_in_full for its verdict and message.
bool plainly_valid(const Plan& p, const BoundOperands& b) {
    if (b.bound != p.operands) return false;
    for (unsigned m = b.sized; m; m &= m - 1)
        if (outgrows_buffer(p, b, __builtin_ctz(m))) return false;
    if (misaligned_operand(p, b) >= 0) return false;
    for (unsigned m = p.operands & ~bit(kY); m; m &= m - 1) {
        const int o = __builtin_ctz(m);
        if (ranges_meet(p, b.at[o], o, b.at[kY])) return false;
    }
    for (unsigned m = p.extra_outputs; m; m &= m - 1)
        if (overlapping_extra_output(p, b, __builtin_ctz(m), true) >= 0) return false;
    return true;
}

void warn_ignored(const char* where, int o) {
    if (!log_enabled()) return;
    char line[200];
    std::snprintf(line, sizeof line,
                  "%s%s: ignored: the operator was created without a %s (only an operator created "
                  "with one reads it)",
                  where, kOperandNames[o], kOperandNames[o]);
    log_message(SIMDAX_LOG_WARNING, line);
}

__attribute__((noinline, cold)) simdax_status check_in_full(const Plan& p, const BoundOperands& b,
                                                            const char* where) {
    for (int o = 0; o < kOperands; ++o) {
        if (!p.has_operand[o] || b.at[o]) continue;
        if (o == kX || o == kY)
            return fail(SIMDAX_ERROR_NULL_POINTER, "%s%s: is NULL", where, kOperandNames[o]);
        return fail(SIMDAX_ERROR_NULL_POINTER, "%s%s: is NULL but the operator was created with a %s", where,
                    kOperandNames[o], kOperandNames[o]);
    }
    for (int o = 0; o < kOperands; ++o)
        if (p.has_operand[o] && outgrows_buffer(p, b, o))
            return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                        "%s%s: the buffer holds %llu bytes before element 0 and %llu from it, but the "
                        "view reaches %lld bytes before it and %lld from it",
                        where, kOperandNames[o], (unsigned long long)b.before[o],
                        (unsigned long long)b.after[o], (long long)-p.span_lo[o], (long long)p.span_hi[o]);
    const int bad = misaligned_operand(p, b);
    if (bad >= 0)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT,
                    "%s%s: address is not a multiple of the element size (%zu bytes); buffers "
                    "need their element type's alignment",
                    where, kOperandNames[bad], p.esize_of[bad]);
    if (overlaps_output(p, b.at[kX], kX, b.at[kY])) {
        if (!p.in_place_op)
            return fail(SIMDAX_ERROR_OVERLAP,
                        "%soutput: overlaps the input (this operator cannot run in place)", where);
        if (b.at[kX] != b.at[kY])
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
    for (int o = 0; o < kOperands; ++o)
        if (o != kX && o != kY && p.has_operand[o] && overlaps_output(p, b.at[o], o, b.at[kY]))
            return fail(SIMDAX_ERROR_OVERLAP, "%soutput: overlaps the %s", where, kOperandNames[o]);
    for (int q = 0; p.extra_outputs >> q; ++q) {
        const int o = p.extra_outputs & bit(q) ? overlapping_extra_output(p, b, q, false) : -1;
        if (o >= 0)
            return fail(SIMDAX_ERROR_OVERLAP, "%s%s: overlaps the %s", where, kOperandNames[q],
                        kOperandNames[o]);
    }
    for (int o = 0; o < kOperands; ++o)
        if (b.at[o] && !p.has_operand[o]) warn_ignored(where, o);
    return SIMDAX_OK;
}

}  // namespace

simdax_status check_bindings(const Plan& p, const BoundOperands& b, const char* where) {
    if (p.form == Form::empty) return SIMDAX_OK;  // nothing is read or written
    if (plainly_valid(p, b)) return SIMDAX_OK;
    return check_in_full(p, b, where);
}

}  // namespace simdax
