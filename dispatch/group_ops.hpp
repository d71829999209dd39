// The passes of each operator over a range of one group's positions:
// reduce (fold into a state), combine (states of consecutive parts, in
// order), output (write the range given the group's final state).
#pragma once

#include <cmath>
#include <limits>

#include "group_pieces.hpp"
#include "mvn_group_norm.hpp"

namespace simdax {

struct GroupState {
    MaxSum ms;
    ArgMax am;
    Moments mo;
};

inline GroupState empty_state() {
    const double inf = std::numeric_limits<double>::infinity();
    return GroupState{{-inf, 0.0, 0.0}, {-inf, -1, 0}, {0, 0, 0}};
}

// After the reduction, what the output pass reads once per group.
inline void finish_state(const Plan& p, GroupState* s) {
    if (p.op == OpKind::log_softmax) s->ms.log_sum = std::log(s->ms.sum);
}

void combine_states(OpKind op, GroupState* into, const GroupState& next);

// One piece of a group: the reduce kernel, and the output kernel given the
// group's final state (`norm`: MVN's NormArgs from mvn_norm_args).
inline void reduce_piece(const Plan& p, const Piece& c, GroupState* s) {
    switch (p.op) {
        case OpKind::log_softmax:
        case OpKind::softmax: p.k.maxsum(c.x, c.n, &s->ms); break;
        case OpKind::hardmax: p.k.argmax(c.x, c.n, c.pos, &s->am); break;
        case OpKind::mvn: p.k.moments(c.x, c.n, &s->mo); break;
        case OpKind::elementwise: break;
    }
}

// MVN's arguments from the group's final state (kernels/mvn_group_norm.hpp);
// visit_group(f) calls f(piece) for each piece of the group.
template <class VisitGroup>
NormArgs mvn_norm_args(const Plan& p, const GroupState& s, VisitGroup&& visit_group) {
    return kernels::group_norm_args(s.mo, p.dtype, p.vn, p.act, [&](auto values) {
        visit_group([&](const Piece& c) { values(c.x, c.n); });
    });
}

inline void output_piece(const Plan& p, const Piece& c, const GroupState& s, NormArgs* norm) {
    switch (p.op) {
        case OpKind::log_softmax: p.k.log_softmax_out(c.x, c.y, c.n, &s.ms); break;
        case OpKind::softmax: p.k.softmax_out(c.x, c.y, c.n, &s.ms); break;
        case OpKind::hardmax: p.k.hardmax_out(c.y, c.n, c.pos, &s.am); break;
        case OpKind::mvn:
            norm->scale = c.scale;
            norm->scale_stride = c.scale_stride;
            norm->bias = c.bias;
            norm->bias_stride = c.bias_stride;
            p.k.normalize(c.x, c.y, c.n, norm);
            break;
        case OpKind::elementwise: p.k.activation(c.x, c.y, c.n, &p.act); break;
    }
}

template <class Pieces>
void reduce_range(const Plan& p, Pieces&& g, int64_t p0, int64_t p1, GroupState* s) {
    if (p.op == OpKind::elementwise) return;
    g.visit(p0, p1, false, [&](const Piece& c) { reduce_piece(p, c, s); });
}

template <class Pieces>
void output_range(const Plan& p, Pieces&& g, int64_t p0, int64_t p1, GroupState s) {
    finish_state(p, &s);
    NormArgs a{};
    if (p.op == OpKind::mvn)
        a = mvn_norm_args(p, s, [&](auto f) { g.visit(0, p.group_size, false, f); });
    g.visit(p0, p1, true, [&](const Piece& c) { output_piece(p, c, s, &a); });
}

}  // namespace simdax
