#include "group_ops.hpp"

namespace simdax {

void write_one(char* p, DType dt) {
    switch (dt) {
        case DType::f32: { const float v = 1.0f; std::memcpy(p, &v, 4); break; }
        case DType::f64: { const double v = 1.0; std::memcpy(p, &v, 8); break; }
        case DType::f16: { const uint16_t v = 0x3c00; std::memcpy(p, &v, 2); break; }
        case DType::bf16: { const uint16_t v = 0x3f80; std::memcpy(p, &v, 2); break; }
    }
}

// Parts are combined in increasing position order, so "first" stays first.
void combine_states(OpKind op, GroupState* into, const GroupState& next) {
    switch (op) {
        case OpKind::log_softmax:
        case OpKind::softmax: {
            MaxSum& s = into->ms;
            const MaxSum& t = next.ms;
            const double nm = t.max > s.max ? t.max : s.max;
            // A side already at the new max keeps its sum: no exp(-inf - -inf).
            const double fs = (s.max == nm) ? 1.0 : std::exp(s.max - nm);
            const double ft = (t.max == nm) ? 1.0 : std::exp(t.max - nm);
            s.sum = s.sum * fs + t.sum * ft;
            s.max = nm;
            break;
        }
        case OpKind::hardmax: {
            ArgMax& s = into->am;
            const ArgMax& t = next.am;
            if (s.nan || t.index < 0) break;
            if (t.nan || s.index < 0 || t.value > s.value) s = t;
            break;
        }
        case OpKind::mvn:
            kernels::chan_combine(&into->mo, next.mo.count, next.mo.mean, next.mo.m2);
            break;
        case OpKind::elementwise: break;
    }
}

}  // namespace simdax
