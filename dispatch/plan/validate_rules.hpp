// The validation rules operators share (docs/spec.md "Errors"): each checks
// one argument, fills its part of the problem, and on failure sets the
// thread's message, naming the argument and the rule it breaks.
#pragma once

#include "problem.hpp"

namespace simdax {

// Rank, sizes, element count, byte size and strides of one tensor; resolves
// packed strides. An output may not broadcast or overlap itself.
simdax_status check_tensor(const char* name, const simdax_tensor_desc* t, bool is_output,
                           int64_t strides[SIMDAX_MAX_RANK]);
// t (checked) has a float dtype: uint8 is for masks only.
simdax_status check_float(const char* name, const simdax_tensor_desc* t);
// t has the input's dtype and rank.
simdax_status check_dtype_rank(const char* name, const simdax_tensor_desc* t, const simdax_tensor_desc* in);
// t has the input's rank and sizes.
simdax_status check_shape(const char* name, const simdax_tensor_desc* t, const simdax_tensor_desc* in);
// t has the input's dtype, rank and sizes.
simdax_status check_same(const char* name, const simdax_tensor_desc* t, const simdax_tensor_desc* in);
// The input and an output of its shape (and dtype, unless !same_dtype):
// sets the dtypes, rank, sizes, kX, kY.
simdax_status check_input_output(const simdax_tensor_desc* in, const simdax_tensor_desc* out, Problem* p,
                                 bool same_dtype = true);
// A non-empty set of distinct axes below the rank: sets p->reduced.
simdax_status check_axes(uint32_t count, const uint32_t* axes, Problem* p);
simdax_status check_finite(const char* name, float v);
// An activation with finite parameters where its type reads them.
simdax_status check_activation(const char* name, const simdax_activation_desc& a, ActParams* out);
// Scale or Bias: the input's rank and dtype, each size the input's or 1
// (stride 0 there).
simdax_status check_broadcast(const char* name, const simdax_tensor_desc* t, const simdax_tensor_desc* in,
                              Problem* p, Operand which);

// An operator over an axis set (simdax_axes_op_desc): input, output, axes.
simdax_status validate_axes_op(const void* desc, Problem* p);

}  // namespace simdax
