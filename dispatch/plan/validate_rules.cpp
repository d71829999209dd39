// The rules of docs/spec.md "Errors" that operators share. Every message
// names the argument and the rule it breaks.
#include "validate_rules.hpp"

#include <algorithm>
#include <cmath>

#include "activation_fields.hpp"
#include "dtype_name.hpp"
#include "error.hpp"

namespace simdax {
namespace {

bool dtype_of(simdax_dtype d, DType* out) {
    switch (d) {
        case SIMDAX_DTYPE_FLOAT32: *out = DType::f32; return true;
        case SIMDAX_DTYPE_FLOAT16: *out = DType::f16; return true;
        case SIMDAX_DTYPE_BFLOAT16: *out = DType::bf16; return true;
        case SIMDAX_DTYPE_FLOAT64: *out = DType::f64; return true;
        case SIMDAX_DTYPE_UINT8: *out = DType::u8; return true;
    }
    return false;
}

}  // namespace

// Rank, sizes, element count, byte size and strides of one tensor.
// Resolves packed strides; an output may not broadcast or overlap itself.
simdax_status check_tensor(const char* name, const simdax_tensor_desc* t, bool is_output,
                           int64_t strides[SIMDAX_MAX_RANK]) {
    if (!t) return fail(SIMDAX_ERROR_NULL_POINTER, "%s: tensor descriptor is NULL", name);
    DType dt;
    if (!dtype_of(t->dtype, &dt))
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "%s.dtype: %d is not a simdax_dtype", name, int(t->dtype));
    if (t->rank < 1 || t->rank > SIMDAX_MAX_RANK)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "%s.rank: %u is outside 1..%d", name, t->rank,
                    SIMDAX_MAX_RANK);
    if (!t->sizes) return fail(SIMDAX_ERROR_NULL_POINTER, "%s.sizes: is NULL", name);
    const int64_t esize = int64_t(simdax_dtype_size(t->dtype));
    bool empty = false;
    for (uint32_t d = 0; d < t->rank; ++d) {
        if (t->sizes[d] < 0)
            return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "%s.sizes[%u]: %lld is negative", name, d,
                        (long long)t->sizes[d]);
        empty |= t->sizes[d] == 0;
    }
    if (empty) {
        // No elements, nothing addressed: the other sizes and the strides
        // may be anything (docs/spec.md: every operator accepts an empty tensor).
        for (uint32_t d = 0; d < t->rank; ++d) strides[d] = t->strides ? t->strides[d] : 0;
        return SIMDAX_OK;
    }
    int64_t count = 1;
    for (uint32_t d = 0; d < t->rank; ++d)
        if (__builtin_mul_overflow(count, t->sizes[d], &count))
            return fail(SIMDAX_ERROR_OVERFLOW, "%s.sizes: the element count overflows 64 bits", name);
    int64_t bytes;
    if (__builtin_mul_overflow(count, esize, &bytes))
        return fail(SIMDAX_ERROR_OVERFLOW, "%s.sizes: the byte size overflows 64 bits", name);
    if (!t->strides) {
        int64_t s = 1;
        for (int d = int(t->rank) - 1; d >= 0; --d) {
            strides[d] = s;
            s *= std::max<int64_t>(t->sizes[d], 1);
        }
        return SIMDAX_OK;
    }
    // Explicit strides: the farthest element must stay addressable in bytes.
    int64_t reach = 0;
    for (uint32_t d = 0; d < t->rank; ++d) {
        strides[d] = t->strides[d];
        const int64_t s = t->strides[d];
        if (t->sizes[d] <= 1) continue;
        if (is_output && s == 0)
            return fail(SIMDAX_ERROR_OVERLAP, "%s.strides[%u]: 0 (broadcast) makes the output overlap itself",
                        name, d);
        int64_t a, step;
        if (s == INT64_MIN || __builtin_mul_overflow(s < 0 ? -s : s, t->sizes[d] - 1, &step) ||
            __builtin_add_overflow(reach, step, &reach) || __builtin_mul_overflow(reach, esize, &a))
            return fail(SIMDAX_ERROR_OVERFLOW, "%s.strides: the byte offset overflows 64 bits", name);
    }
    // The byte range [lo, hi) the planner forms (one element past the
    // farthest) must be representable too.
    int64_t end;
    if (__builtin_add_overflow(reach, 1, &end) || __builtin_mul_overflow(end, esize, &end))
        return fail(SIMDAX_ERROR_OVERFLOW, "%s.strides: the byte offset overflows 64 bits", name);
    if (!is_output) return SIMDAX_OK;
    // No self-overlap: sorted by |stride|, each stride must step past
    // everything the smaller ones reach (sufficient, and exact for the
    // layouts views produce).
    int order[SIMDAX_MAX_RANK], n = 0;
    for (uint32_t d = 0; d < t->rank; ++d)
        if (t->sizes[d] > 1) order[n++] = int(d);
    auto mag = [&](int d) { return strides[d] < 0 ? -strides[d] : strides[d]; };
    // Insertion sort: at most SIMDAX_MAX_RANK entries (std::sort here trips
    // g++ 12's -Warray-bounds on its unrolled insertion step).
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0 && mag(order[j]) < mag(order[j - 1]); --j) std::swap(order[j], order[j - 1]);
    int64_t extent = 0;
    for (int i = 0; i < n; ++i) {
        const int d = order[i];
        if (mag(d) <= extent)
            return fail(SIMDAX_ERROR_OVERLAP, "%s.strides[%d]: %lld makes the output overlap itself", name, d,
                        (long long)strides[d]);
        extent += mag(d) * (t->sizes[d] - 1);
    }
    return SIMDAX_OK;
}

simdax_status check_float(const char* name, const simdax_tensor_desc* t) {
    if (t->dtype == SIMDAX_DTYPE_UINT8)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "%s.dtype: uint8 is for boolean masks only", name);
    return SIMDAX_OK;
}

// The dtype and rank of t are the input's.
simdax_status check_dtype_rank(const char* name, const simdax_tensor_desc* t, const simdax_tensor_desc* in) {
    if (t->dtype != in->dtype)
        return fail(SIMDAX_ERROR_DTYPE_MISMATCH, "%s.dtype: %s differs from input.dtype %s", name,
                    dtype_name(t->dtype), dtype_name(in->dtype));
    if (t->rank != in->rank)
        return fail(SIMDAX_ERROR_SHAPE_MISMATCH, "%s.rank: %u differs from input.rank %u", name, t->rank,
                    in->rank);
    return SIMDAX_OK;
}

simdax_status check_same(const char* name, const simdax_tensor_desc* t, const simdax_tensor_desc* in) {
    const simdax_status s = check_dtype_rank(name, t, in);
    if (s != SIMDAX_OK) return s;
    return check_shape(name, t, in);
}

simdax_status check_shape(const char* name, const simdax_tensor_desc* t, const simdax_tensor_desc* in) {
    if (t->rank != in->rank)
        return fail(SIMDAX_ERROR_SHAPE_MISMATCH, "%s.rank: %u differs from input.rank %u", name, t->rank,
                    in->rank);
    for (uint32_t d = 0; d < in->rank; ++d)
        if (t->sizes[d] != in->sizes[d])
            return fail(SIMDAX_ERROR_SHAPE_MISMATCH, "%s.sizes[%u]: %lld differs from input.sizes[%u] %lld",
                        name, d, (long long)t->sizes[d], d, (long long)in->sizes[d]);
    return SIMDAX_OK;
}

simdax_status check_input_output(const simdax_tensor_desc* in, const simdax_tensor_desc* out, Problem* p,
                                 bool same_dtype) {
    simdax_status s;
    if ((s = check_tensor("input", in, false, p->strides[kX])) != SIMDAX_OK) return s;
    if ((s = check_tensor("output", out, true, p->strides[kY])) != SIMDAX_OK) return s;
    if ((s = check_float("input", in)) != SIMDAX_OK || (s = check_float("output", out)) != SIMDAX_OK)
        return s;
    if ((s = same_dtype ? check_same("output", out, in) : check_shape("output", out, in)) != SIMDAX_OK)
        return s;
    dtype_of(in->dtype, &p->dtype);
    dtype_of(out->dtype, &p->dtypes[kY]);
    p->dtypes[kX] = p->dtype;
    p->rank = in->rank;
    std::copy(in->sizes, in->sizes + in->rank, p->sizes);
    p->has[kX] = p->has[kY] = true;
    return SIMDAX_OK;
}

simdax_status check_axes(uint32_t count, const uint32_t* axes, Problem* p) {
    if (count == 0) return fail(SIMDAX_ERROR_INVALID_AXES, "axes: the axis set is empty");
    if (!axes) return fail(SIMDAX_ERROR_NULL_POINTER, "axes: is NULL with axis_count %u", count);
    if (count > p->rank)
        return fail(SIMDAX_ERROR_INVALID_AXES, "axis_count: %u exceeds the rank %u", count, p->rank);
    for (uint32_t i = 0; i < count; ++i) {
        if (axes[i] >= p->rank)
            return fail(SIMDAX_ERROR_INVALID_AXES, "axes[%u]: %u is outside [0, %u]", i, axes[i],
                        p->rank - 1);
        if (p->reduced[axes[i]])
            return fail(SIMDAX_ERROR_INVALID_AXES, "axes[%u]: axis %u is repeated", i, axes[i]);
        p->reduced[axes[i]] = true;
    }
    return SIMDAX_OK;
}

simdax_status check_finite(const char* name, float v) {
    if (!std::isfinite(v))
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "%s: %g is not finite", name, double(v));
    return SIMDAX_OK;
}

simdax_status check_activation(const char* name, const simdax_activation_desc& a, ActParams* out) {
    if (!simdax_activation_name(a.type))
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "%s.type: %d is not a simdax_activation_type", name,
                    int(a.type));
    // Only the fields the type reads are checked and kept (the others are
    // ignored, as simdax.h promises, and reach no kernel).
    const unsigned used = activation_fields(a.type);
    const float v[3] = {a.alpha, a.beta, a.gamma};
    const unsigned bit[3] = {kAlpha, kBeta, kGamma};
    const char* field[3] = {"alpha", "beta", "gamma"};
    float kept[3] = {0.0f, 0.0f, 0.0f};
    for (int i = 0; i < 3; ++i) {
        if (!(used & bit[i])) continue;
        if (!std::isfinite(v[i]))
            return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "%s.%s: %g is not finite (%s reads it)", name,
                        field[i], double(v[i]), simdax_activation_name(a.type));
        kept[i] = v[i];
    }
    if ((a.type == SIMDAX_ACTIVATION_CELU || a.type == SIMDAX_ACTIVATION_SOFTPLUS) && a.alpha == 0.0f)
        return fail(SIMDAX_ERROR_INVALID_ARGUMENT, "%s.alpha: must not be 0 for %s (divides by it)", name,
                    simdax_activation_name(a.type));
    *out = ActParams{a.type, kept[0], kept[1], kept[2]};
    return SIMDAX_OK;
}

// Scale or Bias: input's rank and dtype, each size the input's or 1.
simdax_status check_broadcast(const char* name, const simdax_tensor_desc* t, const simdax_tensor_desc* in,
                              Problem* p, Operand which) {
    simdax_status s;
    if ((s = check_tensor(name, t, false, p->strides[which])) != SIMDAX_OK) return s;
    if ((s = check_dtype_rank(name, t, in)) != SIMDAX_OK) return s;
    for (uint32_t d = 0; d < in->rank; ++d) {
        if (t->sizes[d] == in->sizes[d]) continue;
        if (t->sizes[d] != 1)
            return fail(SIMDAX_ERROR_SHAPE_MISMATCH,
                        "%s.sizes[%u]: %lld is neither input.sizes[%u] (%lld) nor 1", name, d,
                        (long long)t->sizes[d], d, (long long)in->sizes[d]);
        p->strides[which][d] = 0;
    }
    p->has[which] = true;
    dtype_of(t->dtype, &p->dtypes[which]);
    return SIMDAX_OK;
}

simdax_status validate_axes_op(const void* desc, Problem* p) {
    const auto* d = static_cast<const simdax_axes_op_desc*>(desc);
    const simdax_status s = check_input_output(d->input, d->output, p);
    if (s != SIMDAX_OK) return s;
    return check_axes(d->axis_count, d->axes, p);
}

}  // namespace simdax
