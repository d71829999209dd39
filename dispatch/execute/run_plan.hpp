// The scheduler, instantiated once per operator (operators/<name>/): cuts a
// plan into units of work and runs them, inline or on the caller's
// parallel-for, calling the operator's own passes. Op provides:
//   kReduces, kExtra       element-wise or not; the operands beyond input
//                          and output it reads (a bit per Operand)
//   State, empty()         what a group's reduction folds, and its start
//   Final                  what finish gives the output pass
//   reduce(p, piece, s)    folds a piece into s
//   combine(s, next)       folds the state of the next part of the group
//   finish(p, s, visit)    what the output pass needs (visit(f) calls f on
//                          every piece of the group, for a second look)
//   output(p, piece, fin)  writes a piece
//   cols(p, at, r, k, xrs, yrs, stream)      k lanes down r rows
//   rows(p, at, rows, rs)  whole contiguous groups, group g at at + g*rs
//   kLaneGroups, lane_block(...)             groups side by side as lanes
// Units: cols, (group, block of lanes); rows and general, run_groups.hpp.
#pragma once

#include "run_groups.hpp"

namespace simdax {

// Lanes of a cols group (output at y) before the output's first cache-line
// boundary, where the kernel's vectors would straddle lines from there
// (plan.hpp, line_vector); else 0.
inline int64_t cols_line_head(const Plan& p, const char* y) {
    const int64_t ey = int64_t(p.esize_of[kY]), off = int64_t(reinterpret_cast<uintptr_t>(y) % 64);
    if (off % p.line_vector == 0 || off % ey != 0) return 0;
    const int64_t h = (64 - off) / ey;
    return h < p.lanes ? h : 0;
}

template <class Op>
void run_cols(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    // Where the planner says so, each group's lanes before the output's
    // cache-line boundary get a unit of their own: the other units' vectors
    // then never straddle two lines, in any row (a split load or store
    // costs two). A lane's result does not depend on its unit.
    const bool heads = p.line_vector != 0;
    const int64_t blocks = (p.lanes + p.lane_block - 1) / p.lane_block + (heads ? 1 : 0),
                  units = count(p.outer) * blocks;
    // Input and output that outgrow the L2 of each core at work: the
    // output pass then spends most of its time reading y for ownership
    // and writing it back, which non-temporal stores avoid. Where both
    // fit (kStreamBytes together), plain stores leave y in L2 and are faster.
    const int64_t cores = par ? std::min<int64_t>(par->thread_count, units) : 1;
    const bool stream =
        b.at[kX] != b.at[kY] &&
        uint64_t(p.total) * (p.esize_of[kX] + p.esize_of[kY]) / uint64_t(cores) >= kernels::kStreamBytes;
    run_units(par, size_t(units), [&](size_t u) {
        int64_t off[kOperands];
        group_offsets(p, int64_t(u) / blocks, off);
        int64_t l0 = (int64_t(u) % blocks) * p.lane_block, l1 = std::min(l0 + p.lane_block, p.lanes);
        if (heads) {
            const int64_t h = cols_line_head(p, b.at[kY] + off[kY] * int64_t(p.esize_of[kY])),
                          bi = int64_t(u) % blocks;
            l0 = bi == 0 ? 0 : std::min(p.lanes, h + (bi - 1) * p.lane_block);
            l1 = bi == 0 ? h : std::min(p.lanes, h + bi * p.lane_block);
            if (l1 <= l0) return;
        }
        char* at[kOperands];
        for (int o = 0; o < kOperands; ++o)
            at[o] = p.has_operand[o] ? b.at[o] + (off[o] + l0 * p.lane_stride[o]) * int64_t(p.esize_of[o])
                                     : nullptr;
        const size_t r = size_t(p.inner.size[0]), k = size_t(l1 - l0);
        Op::cols(p, at, r, k, stream);
    });
}

// Whole groups, many per kernel call: consecutive groups along the innermost
// kept dim go in one call with its stride.
template <class Op>
void run_fused_rows(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    const int64_t rows = count(p.outer), n = p.run;
    const int64_t per_unit = std::max<int64_t>(1, (int64_t(1) << 14) / n);
    const int last = p.outer.n - 1;
    ptrdiff_t rs[kOperands];
    for (int o = 0; o < kOperands; ++o) rs[o] = last >= 0 ? p.outer.stride[o][last] : 0;
    // A task's (or the calling thread's) units go to the kernel as few calls
    // as the outer dims allow: rows are independent, so the cut does not
    // change the result, and a kernel that sees a large output can stream it.
    run_unit_ranges(par, size_t((rows + per_unit - 1) / per_unit), [&](size_t u0, size_t u1) {
        int64_t r = int64_t(u0) * per_unit;
        const int64_t end = std::min(rows, int64_t(u1) * per_unit);
        Odometer w(p.outer, r);
        while (r < end) {
            const int64_t m = std::min(w.inner_left(), end - r);
            char* at[kOperands];
            for (int o = 0; o < kOperands; ++o)
                at[o] = p.has_operand[o] ? b.at[o] + w.off[o] * int64_t(p.esize_of[o]) : nullptr;
            Op::rows(p, at, size_t(m), rs);
            w.advance_inner(m);
            r += m;
        }
    });
}

// Lanes a unit of lane groups walks at most (whole groups; runs are shorter
// than 256, planner.cpp).
constexpr int64_t kLaneBlock = 512;

// Groups side by side (plan.lane_groups): a unit is a block of consecutive
// groups, whose runs form up to kLaneBlock lanes down the segment rows.
template <class Op>
void run_lane_groups(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    const int last = p.outer.n - 1;
    const int64_t width = p.outer.size[last], run = p.run;
    const int64_t per_block = std::max<int64_t>(1, kLaneBlock / run);
    const int64_t blocks = (width + per_block - 1) / per_block;
    const size_t r = size_t(p.segments.size[0]);
    const ptrdiff_t xrs = p.segments.stride[kX][0], yrs = p.segments.stride[kY][0];
    run_units(par, size_t(count(p.outer) / width * blocks), [&](size_t u) {
        const int64_t first = (int64_t(u) % blocks) * per_block;
        const int64_t groups = std::min(per_block, width - first);
        int64_t off[kOperands];
        group_offsets(p, int64_t(u) / blocks * width + first, off);
        Op::lane_block(p, b.at[kX] + off[kX] * int64_t(p.esize_of[kX]),
                       b.at[kY] + off[kY] * int64_t(p.esize_of[kY]), r, size_t(groups * run), xrs, yrs,
                       size_t(run));
    });
}

template <class Op>
void run_plan(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    KernelFpEnv env;
    // Small work stays on the calling thread: waking threads costs more.
    if (par && (par->thread_count <= 1 || p.total < p.parallel_min)) par = nullptr;
    // What run_fused_rows does on one thread, without its set-up, which
    // dominates small tensors.
    if (!par && p.whole)
        return p.whole(b.at[kX], b.at[kY], size_t(p.whole_rows), size_t(p.run), p.whole_xrs, p.whole_yrs);
    switch (p.form) {
        case Form::empty: return;
        case Form::cols:
            if constexpr (Op::kReduces) run_cols<Op>(p, b, par);
            return;
        case Form::rows:
            if constexpr (Op::kLaneGroups)
                if (p.lane_groups) return run_lane_groups<Op>(p, b, par);
            if constexpr (Op::kReduces)
                if (p.fused_rows) return run_fused_rows<Op>(p, b, par);
            return run_groups<Op, RowPieces<Op::kExtra>>(p, b, par);
        case Form::general:
            switch (p.tile_esize) {
                case 2: return run_groups<Op, TiledPieces<2, Op::kExtra>>(p, b, par);
                case 4: return run_groups<Op, TiledPieces<4, Op::kExtra>>(p, b, par);
                default: return run_groups<Op, TiledPieces<8, Op::kExtra>>(p, b, par);
            }
    }
}

}  // namespace simdax
