#include "group_ops.hpp"

#include "softmax_state.hpp"

namespace simdax {

// Parts are combined in increasing position order, so "first" stays first.
void combine_states(OpKind op, GroupState* into, const GroupState& next) {
    switch (op) {
        case OpKind::log_softmax:
        case OpKind::softmax: {
            kernels::combine_maxsum(&into->ms, next.ms.max, next.ms.sum);
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
