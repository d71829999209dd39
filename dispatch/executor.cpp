// The scheduler: cuts a plan into units of work and runs them, inline or on
// the caller's parallel-for. How work is cut depends only on the plan, never
// on the thread count, so every split gives bitwise the same output:
//   cols    — unit = (group, block of lanes); lanes are independent;
//   rows / general, parts == 1 — unit = one whole group (both passes);
//   parts > 1 — a big group is reduced in parts (phase 1, one state per
//              part), the parts' states are combined in order, then the
//              parts are written (phase 2).
#include "executor.hpp"

#include <algorithm>

#include "fp_env.hpp"
#include "group_ops.hpp"

namespace simdax {
namespace {


// A task may run on any thread of the caller's pool, in whatever
// floating-point environment that thread keeps.
template <class F>
void thunk(void* f, size_t i) {
    KernelFpEnv env;
    (*static_cast<F*>(f))(i);
}

// Runs f(0..units-1): inline, or as contiguous ranges on the pool.
template <class F>
void run_units(const simdax_parallel* par, size_t units, F f) {
    if (!par || units <= 1) {
        for (size_t i = 0; i < units; ++i) f(i);
        return;
    }
    const size_t tasks = std::min<size_t>(units, size_t(par->thread_count) * 4);
    auto task = [&](size_t t) {
        for (size_t i = units * t / tasks, e = units * (t + 1) / tasks; i < e; ++i) f(i);
    };
    par->parallel_for(par->context, tasks, thunk<decltype(task)>, &task);
}

// Runs f(u0, u1) over contiguous ranges covering 0..units-1: all of them in
// one call inline, or one range per task on the pool.
template <class F>
void run_unit_ranges(const simdax_parallel* par, size_t units, F f) {
    if (!par || units <= 1) {
        if (units) f(size_t(0), units);
        return;
    }
    const size_t tasks = std::min<size_t>(units, size_t(par->thread_count) * 4);
    auto task = [&](size_t t) { f(units * t / tasks, units * (t + 1) / tasks); };
    par->parallel_for(par->context, tasks, thunk<decltype(task)>, &task);
}

void group_offsets(const Plan& p, int64_t g, int64_t off[kOperands]) {
    Odometer w(p.outer, g);
    for (int o = 0; o < kOperands; ++o) off[o] = w.off[o];
}

void run_cols_unit(const Plan& p, const Buffers& b, int64_t g, int64_t block, bool stream) {
    int64_t off[kOperands];
    group_offsets(p, g, off);
    const int64_t l0 = block * p.lane_block, e = int64_t(p.esize);
    for (int o = 0; o < kOperands; ++o) off[o] += l0 * p.lane_stride[o];
    const char* x = b.x + off[kX] * e;
    char* y = b.y + off[kY] * e;
    const size_t r = size_t(p.inner.size[0]), k = size_t(std::min(p.lane_block, p.lanes - l0));
    const ptrdiff_t xrs = p.inner.stride[kX][0], yrs = p.inner.stride[kY][0];
    switch (p.op) {
        case OpKind::log_softmax: p.k.log_softmax_cols(x, y, r, k, xrs, yrs, stream); break;
        case OpKind::softmax: p.k.softmax_cols(x, y, r, k, xrs, yrs, stream); break;
        case OpKind::hardmax: p.k.hardmax_cols(x, y, r, k, xrs, yrs); break;
        case OpKind::mvn: {
            MvnArgs a{p.vn, nullptr, 0, 0, nullptr, 0, 0, p.act};
            if (p.has_operand[kScale]) {
                a.scale = b.scale + off[kScale] * e;
                a.scale_rs = p.inner.stride[kScale][0];
                a.scale_ks = p.lane_stride[kScale];
            }
            if (p.has_operand[kBias]) {
                a.bias = b.bias + off[kBias] * e;
                a.bias_rs = p.inner.stride[kBias][0];
                a.bias_ks = p.lane_stride[kBias];
            }
            p.k.mvn_cols(x, y, r, k, xrs, yrs, &a);
            break;
        }
        case OpKind::elementwise: break;  // never planned as cols
    }
}

// Whole groups, many per kernel call: consecutive groups along the innermost
// kept dim go in one call with its stride.
void run_fused_rows(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    const int64_t rows = count(p.outer), n = p.run, e = int64_t(p.esize);
    const int64_t per_unit = std::max<int64_t>(1, (int64_t(1) << 14) / n);
    const int last = p.outer.n - 1;
    auto stride = [&](int o) { return last >= 0 ? p.outer.stride[o][last] : 0; };
    const RowsFn fn = p.rows_kernel;
    // A task's (or the calling thread's) units go to the kernel as few calls
    // as the outer dims allow: rows are independent, so the cut does not
    // change the result, and a kernel that sees a large output can stream it.
    run_unit_ranges(par, size_t((rows + per_unit - 1) / per_unit), [&](size_t u0, size_t u1) {
        int64_t r = int64_t(u0) * per_unit;
        const int64_t end = std::min(rows, int64_t(u1) * per_unit);
        Odometer w(p.outer, r);
        while (r < end) {
            const int64_t m = std::min(w.inner_left(), end - r);
            const char* x = b.x + w.off[kX] * e;
            char* y = b.y + w.off[kY] * e;
            if (fn) {
                fn(x, y, size_t(m), size_t(n), stride(kX), stride(kY));
            } else {
                MvnArgs a{p.vn, nullptr, 0, 0, nullptr, 0, 0, p.act};
                if (p.has_operand[kScale]) {
                    a.scale = b.scale + w.off[kScale] * e;
                    a.scale_rs = stride(kScale);
                    a.scale_ks = p.run_stride[kScale];
                }
                if (p.has_operand[kBias]) {
                    a.bias = b.bias + w.off[kBias] * e;
                    a.bias_rs = stride(kBias);
                    a.bias_ks = p.run_stride[kBias];
                }
                p.k.mvn_rows(x, y, size_t(m), size_t(n), stride(kX), stride(kY), &a);
            }
            w.advance_inner(m);
            r += m;
        }
    });
}

// Lanes a unit of lane groups walks at most (whole groups; runs are shorter
// than 256, planner.cpp).
constexpr int64_t kLaneBlock = 512;

// LogSoftmax/Softmax with groups side by side (plan.lane_groups): a unit is
// a block of consecutive groups, whose runs form up to kLaneBlock lanes down
// the segment rows; the cols halves reduce them into the groups' finished
// states and then write the same lanes while they are still in cache.
void run_lane_groups(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    const int last = p.outer.n - 1;
    const int64_t width = p.outer.size[last], run = p.run, e = int64_t(p.esize);
    const int64_t per_block = std::max<int64_t>(1, kLaneBlock / run);
    const int64_t blocks = (width + per_block - 1) / per_block;
    const size_t r = size_t(p.segments.size[0]);
    const ptrdiff_t xrs = p.segments.stride[kX][0], yrs = p.segments.stride[kY][0];
    const bool log = p.op == OpKind::log_softmax;
    run_units(par, size_t(count(p.outer) / width * blocks), [&](size_t u) {
        const int64_t first = (int64_t(u) % blocks) * per_block;
        const int64_t groups = std::min(per_block, width - first);
        int64_t off[kOperands];
        group_offsets(p, int64_t(u) / blocks * width + first, off);
        const char* x = b.x + off[kX] * e;
        char* y = b.y + off[kY] * e;
        const size_t k = size_t(groups * run);
        MaxSum ms[kLaneBlock];
        (log ? p.k.log_softmax_cols_states : p.k.softmax_cols_states)(x, r, k, xrs, size_t(run), ms);
        (log ? p.k.log_softmax_cols_apply : p.k.softmax_cols_apply)(x, y, r, k, xrs, yrs, size_t(run), ms);
    });
}

constexpr int64_t kGroupBlock = 16;  // groups walked together by interleave_groups
constexpr int64_t kShortRun = 256;   // elements: below this, runs are interleaved

bool interleave_groups(const Plan& p) {
    return p.form == Form::rows && p.op != OpKind::elementwise && p.parts == 1 &&
           p.segments.n > 0 && p.run < kShortRun;
}

// Rows and general forms, for one group-piece source type.
template <class Pieces>
void run_groups(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    const int64_t groups = count(p.outer), parts = p.parts, len = p.part_len;
    const int64_t size = p.op == OpKind::elementwise ? p.run : p.group_size;
    auto range = [&](int64_t q, int64_t* p0, int64_t* p1) {
        *p0 = q * len;
        *p1 = std::min(size, *p0 + len);
    };
    if (interleave_groups(p)) {
        // Short runs in several segments (e.g. axes {0,2} of [64,256,64]):
        // walking one group at a time would jump a page per run. A unit
        // takes a block of consecutive groups and walks segment by segment,
        // so memory is read in order. Each group still folds its runs in
        // the same order, so the result is the same as group by group. The
        // segment walk is shared by the block's groups and the kernels are
        // called on the runs directly (one call per run: no piece walk).
        const int64_t segs = count(p.segments);
        const int64_t units = (groups + kGroupBlock - 1) / kGroupBlock;
        const int64_t e = int64_t(p.esize);
        run_units(par, size_t(units), [&](size_t u) {
            const int64_t g0 = int64_t(u) * kGroupBlock, nb = std::min(kGroupBlock, groups - g0);
            int64_t off[kGroupBlock][kOperands];
            GroupState st[kGroupBlock];
            NormArgs norm[kGroupBlock];
            for (int64_t i = 0; i < nb; ++i) {
                group_offsets(p, g0 + i, off[i]);
                st[i] = empty_state();
            }
            auto piece = [&](const Odometer& w, int64_t i, int64_t s) {
                Piece c{};
                c.x = b.x + (off[i][kX] + w.off[kX]) * e;
                c.y = b.y + (off[i][kY] + w.off[kY]) * e;
                if (p.has_operand[kScale]) {
                    c.scale = b.scale + (off[i][kScale] + w.off[kScale]) * e;
                    c.scale_stride = p.run_stride[kScale];
                }
                if (p.has_operand[kBias]) {
                    c.bias = b.bias + (off[i][kBias] + w.off[kBias]) * e;
                    c.bias_stride = p.run_stride[kBias];
                }
                c.n = size_t(p.run);
                c.pos = s * p.run;
                return c;
            };
            Odometer w(p.segments);
            for (int64_t s = 0; s < segs; ++s, w.next())
                for (int64_t i = 0; i < nb; ++i) reduce_piece(p, piece(w, i, s), &st[i]);
            for (int64_t i = 0; i < nb; ++i) finish_state(p, &st[i]);
            if (p.op == OpKind::mvn)
                for (int64_t i = 0; i < nb; ++i)
                    norm[i] = mvn_norm_args(p, st[i], [&](auto f) {
                        Odometer wg(p.segments);
                        for (int64_t s = 0; s < segs; ++s, wg.next()) f(piece(wg, i, s));
                    });
            Odometer w2(p.segments);
            for (int64_t s = 0; s < segs; ++s, w2.next())
                for (int64_t i = 0; i < nb; ++i) output_piece(p, piece(w2, i, s), st[i], &norm[i]);
        });
        return;
    }
    if (p.op == OpKind::elementwise && parts > 1) {
        // Element-wise: the parts of a run that one task (or the calling
        // thread) takes go to the kernel as one stretch. The result does not
        // depend on the cut, and a long stretch lets the kernel see that its
        // output is large (non-temporal stores, kernels/simd/map.hpp).
        run_unit_ranges(par, size_t(groups * parts), [&](size_t u0, size_t u1) {
            while (u0 < u1) {
                const int64_t g = int64_t(u0) / parts;
                const size_t gend = std::min(u1, size_t((g + 1) * parts));
                int64_t off[kOperands];
                group_offsets(p, g, off);
                // From the start of the first part to the end of the last.
                const int64_t p0 = (int64_t(u0) % parts) * len;
                const int64_t p1 = std::min(size, (int64_t(gend - 1) % parts + 1) * len);
                Pieces pcs(p, b, off);
                output_range(p, pcs, p0, p1, empty_state());
                u0 = gend;
            }
        });
        return;
    }
    if (p.op == OpKind::elementwise || parts == 1) {
        // One unit = one group (or one part of an element-wise run).
        run_units(par, size_t(groups * parts), [&](size_t u) {
            int64_t off[kOperands], p0, p1;
            group_offsets(p, int64_t(u) / parts, off);
            range(int64_t(u) % parts, &p0, &p1);
            Pieces g(p, b, off);
            GroupState s = empty_state();
            reduce_range(p, g, p0, p1, &s);
            output_range(p, g, p0, p1, s);
        });
        return;
    }
    const int64_t batch = std::max<int64_t>(1, kMaxParts / parts);
    GroupState states[kMaxParts];
    for (int64_t g0 = 0; g0 < groups; g0 += batch) {
        const int64_t nb = std::min(batch, groups - g0);
        run_units(par, size_t(nb * parts), [&](size_t u) {
            int64_t off[kOperands], p0, p1;
            group_offsets(p, g0 + int64_t(u) / parts, off);
            range(int64_t(u) % parts, &p0, &p1);
            states[u] = empty_state();
            reduce_range(p, Pieces(p, b, off), p0, p1, &states[u]);
        });
        for (int64_t i = 0; i < nb; ++i)
            for (int64_t q = 1; q < parts; ++q)
                combine_states(p.op, &states[i * parts], states[i * parts + q]);
        run_units(par, size_t(nb * parts), [&](size_t u) {
            int64_t off[kOperands], p0, p1;
            group_offsets(p, g0 + int64_t(u) / parts, off);
            range(int64_t(u) % parts, &p0, &p1);
            output_range(p, Pieces(p, b, off), p0, p1, states[(int64_t(u) / parts) * parts]);
        });
    }
}

}  // namespace

void execute_plan(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    KernelFpEnv env;
    // Small work stays on the calling thread: waking threads costs more.
    if (par && (par->thread_count <= 1 || p.total < p.parallel_min)) par = nullptr;
    // What run_fused_rows does on one thread, without its set-up, which
    // dominates small tensors.
    if (!par && p.whole) return p.whole(b.x, b.y, size_t(p.whole_rows), size_t(p.run), p.whole_xrs, p.whole_yrs);
    switch (p.form) {
        case Form::empty: return;
        case Form::cols: {
            const int64_t blocks = (p.lanes + p.lane_block - 1) / p.lane_block, units = count(p.outer) * blocks;
            // Input and output that outgrow the L2 of each core at work: the
            // output pass then spends most of its time reading y for ownership
            // and writing it back, which non-temporal stores avoid. Where both
            // fit (kStreamBytes together), plain stores leave y in L2 and are faster.
            const int64_t cores = par ? std::min<int64_t>(par->thread_count, units) : 1;
            const bool stream = b.x != b.y && uint64_t(2 * p.total) * p.esize / uint64_t(cores) >= kernels::kStreamBytes;
            run_units(par, size_t(units), [&](size_t u) {
                run_cols_unit(p, b, int64_t(u) / blocks, int64_t(u) % blocks, stream);
            });
            return;
        }
        case Form::rows:
            if (p.lane_groups) return run_lane_groups(p, b, par);
            if (p.fused_rows) return run_fused_rows(p, b, par);
            return run_groups<RowPieces>(p, b, par);
        case Form::general:
            switch (p.esize) {
                case 2: return run_groups<TiledPieces<2>>(p, b, par);
                case 4: return run_groups<TiledPieces<4>>(p, b, par);
                default: return run_groups<TiledPieces<8>>(p, b, par);
            }
    }
}

}  // namespace simdax
