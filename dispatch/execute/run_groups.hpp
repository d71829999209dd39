// The rows and general forms for an operator Op (run_plan.hpp lists what Op
// provides): a unit is one whole group (both passes), or, for a big group,
// one part of it: the parts are reduced (phase 1, one state per part),
// their states combined in order, then the parts written (phase 2).
#pragma once

#include "group_pieces.hpp"
#include "run_units.hpp"

namespace simdax {

constexpr int64_t kGroupBlock = 16;  // groups walked together by interleave_groups
constexpr int64_t kShortRun = 256;   // elements: below this, runs are interleaved

template <class Op, class Pieces>
void reduce_range(const Plan& p, Pieces&& g, int64_t p0, int64_t p1, typename Op::State* s) {
    if constexpr (Op::kReduces) g.visit(p0, p1, false, [&](const Piece& c) { Op::reduce(p, c, s); });
}

template <class Op, class Pieces>
void output_range(const Plan& p, Pieces&& g, int64_t p0, int64_t p1, const typename Op::State& s) {
    const auto fin = Op::finish(p, s, [&](auto f) { g.visit(0, p.group_size, false, f); });
    g.visit(p0, p1, true, [&](const Piece& c) { Op::output(p, c, fin); });
}

// Short runs in several segments (e.g. axes {0,2} of [64,256,64]): walking
// one group at a time would jump a page per run. A unit takes a block of
// consecutive groups and walks segment by segment, so memory is read in
// order. Each group still folds its runs in the same order, so the result
// is the same as group by group. The segment walk is shared by the block's
// groups and the kernels are called on the runs directly.
template <class Op>
void run_interleaved_groups(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    const int64_t groups = count(p.outer), segs = count(p.segments);
    const int64_t units = (groups + kGroupBlock - 1) / kGroupBlock;
    run_units(par, size_t(units), [&](size_t u) {
        const int64_t g0 = int64_t(u) * kGroupBlock, nb = std::min(kGroupBlock, groups - g0);
        int64_t off[kGroupBlock][kOperands];
        typename Op::State st[kGroupBlock];
        for (int64_t i = 0; i < nb; ++i) {
            group_offsets(p, g0 + i, off[i]);
            st[i] = Op::empty();
        }
        auto piece = [&](const Odometer& w, int64_t i, int64_t s) {
            Piece c;
            set_piece_operands<Op::kExtra>(p, &c, [&](int o) {
                c.at[o] = b.at[o] + (off[i][o] + w.off[o]) * int64_t(p.esize_of[o]);
                c.stride[o] = p.run_stride[o];
            });
            c.n = size_t(p.run);
            c.pos = s * p.run;
            return c;
        };
        Odometer w(p.segments);
        for (int64_t s = 0; s < segs; ++s, w.next())
            for (int64_t i = 0; i < nb; ++i) Op::reduce(p, piece(w, i, s), &st[i]);
        typename Op::Final fin[kGroupBlock];
        for (int64_t i = 0; i < nb; ++i)
            fin[i] = Op::finish(p, st[i], [&](auto f) {
                Odometer wg(p.segments);
                for (int64_t s = 0; s < segs; ++s, wg.next()) f(piece(wg, i, s));
            });
        Odometer w2(p.segments);
        for (int64_t s = 0; s < segs; ++s, w2.next())
            for (int64_t i = 0; i < nb; ++i) Op::output(p, piece(w2, i, s), fin[i]);
    });
}

// Element-wise: the parts of a run that one task (or the calling thread)
// takes go to the kernel as one stretch. The result does not depend on the
// cut, and a long stretch lets the kernel see that its output is large
// (non-temporal stores, kernels/simd/map.hpp).
template <class Op, class Pieces>
void run_elementwise_parts(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    const int64_t groups = count(p.outer), parts = p.parts, len = p.part_len;
    run_unit_ranges(par, size_t(groups * parts), [&](size_t u0, size_t u1) {
        while (u0 < u1) {
            const int64_t g = int64_t(u0) / parts;
            const size_t gend = std::min(u1, size_t((g + 1) * parts));
            int64_t off[kOperands];
            group_offsets(p, g, off);
            // From the start of the first part to the end of the last.
            const int64_t p0 = (int64_t(u0) % parts) * len;
            const int64_t p1 = std::min(p.run, (int64_t(gend - 1) % parts + 1) * len);
            Pieces pcs(p, b, off);
            output_range<Op>(p, pcs, p0, p1, Op::empty());
            u0 = gend;
        }
    });
}

template <class Op, class Pieces>
void run_groups(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    const int64_t groups = count(p.outer), parts = p.parts, len = p.part_len;
    const int64_t size = Op::kReduces ? p.group_size : p.run;
    auto range = [&](int64_t q, int64_t* p0, int64_t* p1) {
        *p0 = q * len;
        *p1 = std::min(size, *p0 + len);
    };
    if (Op::kReduces && p.form == Form::rows && parts == 1 && p.segments.n > 0 && p.run < kShortRun)
        return run_interleaved_groups<Op>(p, b, par);
    if (!Op::kReduces && parts > 1) return run_elementwise_parts<Op, Pieces>(p, b, par);
    if (!Op::kReduces || parts == 1) {
        // One unit = one group (or one part of an element-wise run).
        run_units(par, size_t(groups * parts), [&](size_t u) {
            int64_t off[kOperands], p0, p1;
            group_offsets(p, int64_t(u) / parts, off);
            range(int64_t(u) % parts, &p0, &p1);
            Pieces g(p, b, off);
            typename Op::State s = Op::empty();
            reduce_range<Op>(p, g, p0, p1, &s);
            output_range<Op>(p, g, p0, p1, s);
        });
        return;
    }
    const int64_t batch = std::max<int64_t>(1, kMaxParts / parts);
    typename Op::State states[kMaxParts];
    for (int64_t g0 = 0; g0 < groups; g0 += batch) {
        const int64_t nb = std::min(batch, groups - g0);
        run_units(par, size_t(nb * parts), [&](size_t u) {
            int64_t off[kOperands], p0, p1;
            group_offsets(p, g0 + int64_t(u) / parts, off);
            range(int64_t(u) % parts, &p0, &p1);
            states[u] = Op::empty();
            reduce_range<Op>(p, Pieces(p, b, off), p0, p1, &states[u]);
        });
        // Parts are combined in increasing position order, so "first" stays first.
        for (int64_t i = 0; i < nb; ++i)
            for (int64_t q = 1; q < parts; ++q) Op::combine(&states[i * parts], states[i * parts + q]);
        run_units(par, size_t(nb * parts), [&](size_t u) {
            int64_t off[kOperands], p0, p1;
            group_offsets(p, g0 + int64_t(u) / parts, off);
            range(int64_t(u) % parts, &p0, &p1);
            output_range<Op>(p, Pieces(p, b, off), p0, p1, states[(int64_t(u) / parts) * parts]);
        });
    }
}

}  // namespace simdax
