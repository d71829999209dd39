// Creating a Softmax-family operator (an axes descriptor) over one axis, for
// tests about something else than its descriptor (the ISA cap, stride limits).
#pragma once

#include <cstdint>

#include "simdax/simdax.h"

namespace sxt {

// Status of creating `type` from x to y over `axis`; the operator in *op.
inline simdax_status create_single_axis_op(simdax_operator_type type, const simdax_tensor_desc& x,
                                           const simdax_tensor_desc& y, uint32_t axis, simdax_operator** op) {
    const simdax_axes_op_desc d{&x, &y, 1, &axis};
    const simdax_operator_desc od{type, &d};
    return simdax_operator_create(&od, op);
}

}  // namespace sxt
