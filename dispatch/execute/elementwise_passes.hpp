// What the passes of an element-wise operator share (run_plan.hpp): no
// state and no reduction. The operator adds its output pass.
#pragma once

#include "group_pieces.hpp"

namespace simdax {

struct ElementwisePasses {
    static constexpr bool kReduces = false, kLaneGroups = false;
    static constexpr unsigned kExtra = 0;
    struct State {};
    using Final = State;

    static State empty() { return {}; }
    static void reduce(const Plan&, const Piece&, State*) {}
    static void combine(State*, const State&) {}
    template <class VisitGroup>
    static State finish(const Plan&, const State&, VisitGroup&&) {
        return {};
    }
};

}  // namespace simdax
