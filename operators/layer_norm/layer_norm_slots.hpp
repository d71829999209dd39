// LayerNormalization and RMSNormalization: their kernel slots, one line
// each X(A, name, parameters) (kernels/kernel_slots.hpp generates the table
// members, declarations and instantiations from them). Every pointer is to
// contiguous elements; `buf` holds the row in the compute type (float, or
// double for float64 storage), so each input is read from memory once.
#pragma once

#include "kernel_types.hpp"

namespace simdax {

// A chunk's moments, accumulated in double. LayerNormalization: count, mean
// and the sum of squared deviations (Chan's rule combines chunks);
// RMSNormalization: count and the sum of squares (in m2, mean 0).
struct NormMoments {
    double count;
    double mean;
    double m2;
};

// y = (v - mean) * inv * scale + bias for v of the row buffer; bias NULL:
// none. wide: the row is outside float's comfortable range (deviations
// that overflow it, an inv beyond its reach: mvn/mvn_wide.hpp), each
// element in double. scale_f32/bias_f32: the parameter is float32 (else the data's dtype).
// stream: y with non-temporal stores (an output beyond the caches).
// ahead: NULL, or up to two arrays of n elements of the data's dtype (the
// next group's input and skip) that the pass prefetches as it goes, so that
// their reading overlaps this group's writing.
struct NormApply {
    double mean;
    double inv;
    const void* scale;
    const void* bias;
    bool scale_f32, bias_f32;
    bool wide;
    bool stream;
    bool fence;  // stream: this row ends the call's rows; the stores are fenced
    const char* ahead[2];
    bool row_stored;  // the row is the input itself, in the data's dtype (else buf)
};

// RMSNormalization of whole contiguous rows (rms_rows): element e of row g
// is scaled by scale[g*scale_rs + e*scale_ks], float32 when scale_f32 (for
// float16/bfloat16 rows; else the data's dtype).
struct RmsRowsArgs {
    double epsilon;
    const void* scale;
    ptrdiff_t scale_rs, scale_ks;
    bool scale_f32;
};

}  // namespace simdax

// norm_load: buf = round_T(x + skip + skip_bias) in the compute type, the
//   sum written to `sum` when non-NULL; skip, skip_bias, sum may be NULL
//   (then buf = x); skip_bias_f32: skip_bias is float32.
// norm_moments: the moments of the row (rms: the sum of squares): buf, or
//   with `stored` the input itself in the data's dtype (no skip: no buf).
// norm_apply: y from the row (NormApply, row_stored as `stored`).
// rms_rows: y = x / sqrt(mean(x^2) + epsilon) * scale over `rows` rows of n
//   contiguous elements, row g at x + g*xrs and y + g*yrs (y may be x): many
//   rows per call, no row buffer (operators/layer_norm/simd/rms_rows.hpp).
#define SIMDAX_LAYER_NORM_SLOTS(X, A)                                                                    \
    X(A, norm_load,                                                                                      \
      (const void* x, const void* skip, const void* skip_bias, bool skip_bias_f32, void* sum, void* buf, \
       size_t n))                                                                                        \
    X(A, norm_moments, (const void* row, bool stored, size_t n, bool rms, NormMoments* out))             \
    X(A, norm_apply, (const void* row, void* y, size_t n, const NormApply* a))                           \
    X(A, rms_rows,                                                                                       \
      (const void* x, void* y, size_t rows, size_t n, ptrdiff_t xrs, ptrdiff_t yrs, const RmsRowsArgs* a))
