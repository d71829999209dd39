// Turns a validated problem into a canonical loop nest (create time only).
//
// 1. Drop size-1 dimensions.
// 2. Merge adjacent dimensions that are both reduced or both kept and
//    contiguous in every operand (stride[outer] == stride[inner]*size[inner]).
// 3. Choose the form:
//    rows    — the innermost dim is reduced with unit stride in input and
//              output: a group is one contiguous run, or several (the other
//              reduced dims), each fed to the chunk kernels in place;
//    cols    — one reduced dim and a kept innermost dim with unit stride:
//              vectorise across the kept lanes (cols kernels);
//    general — anything else: an odometer over the reduced dims feeds
//              stack tiles to the chunk kernels.
//    Element-wise operators: rows when the innermost run is contiguous.
#include <algorithm>
#include <iterator>
#include <numeric>

#include "odometer.hpp"
#include "problem.hpp"
#include "row_offsets.hpp"

namespace simdax {
namespace {

struct Dim {
    int64_t size;
    int64_t stride[kOperands];
    bool reduced;
};

bool mergeable(const Dim& outer, const Dim& inner) {
    if (outer.reduced != inner.reduced) return false;
    for (int o = 0; o < kOperands; ++o)
        if (outer.stride[o] != inner.stride[o] * inner.size) return false;
    return true;
}

void push(Dims* ds, const Dim& d) {
    const int i = ds->n++;
    ds->size[i] = d.size;
    for (int o = 0; o < kOperands; ++o) ds->stride[o][i] = d.stride[o];
}

bool unit(const Dim& d, int o) { return d.stride[o] == 1; }

// The bytes an operand touches relative to its base, [lo, hi), and the gcd
// of the byte steps between its elements (its lattice; 0 for one element).
struct Span {
    int64_t lo = 0, hi = 0, lattice = 0;
};

// Overflow-free: validation bounds (sum of |stride| * (size - 1) + 1) * esize
// by INT64_MAX for non-empty tensors, and a broadcast Scale/Bias dim has
// stride 0 here.
Span span(const Problem& p, int o, size_t esize) {
    int64_t a = 0, b = 0, step = 0;
    for (uint32_t d = 0; d < p.rank; ++d) {
        const int64_t reach = p.strides[o][d] * (p.sizes[d] - 1);
        (reach < 0 ? a : b) += reach;
        if (p.sizes[d] > 1) step = std::gcd(step, p.strides[o][d] * int64_t(esize));
    }
    return {a * int64_t(esize), (b + 1) * int64_t(esize), step};
}

// What execute's overlap rule reads of the spans (bindings_check.cpp).
void set_overlap_facts(const Problem& p, Plan* plan) {
    Span s[kOperands];
    for (int o = 0; o < kOperands; ++o)
        if (p.has[o]) s[o] = span(p, o, plan->esize_of[o]);
    for (int o = 0; o < kOperands; ++o) {
        plan->span_lo[o] = s[o].lo;
        plan->span_hi[o] = s[o].hi;
        plan->meet_lo[o] = __int128(s[kY].lo) - s[o].hi;
        plan->meet_hi[o] = __int128(s[kY].hi) - s[o].lo;
        plan->lattice_with_y[o] = std::gcd(s[o].lattice, s[kY].lattice);
        plan->lattice[o] = s[o].lattice;
    }
    plan->extra_outputs = 0;
    for (int o = 0; o < kOperands; ++o)
        if (o != kY && p.has[o] && (kOutputOperands & bit(o))) plan->extra_outputs |= bit(o);
}

void choose_form(const Problem& p, Plan* plan) {
    plan->def = p.def;
    plan->dtype = p.dtype;
    const auto size_of = [](DType d) -> size_t {
        return d == DType::f32 ? 4 : d == DType::f64 ? 8 : d == DType::u8 ? 1 : 2;
    };
    plan->esize = size_of(p.dtype);
    plan->tile_esize = 0;
    for (int o = 0; o < kOperands; ++o) {
        plan->esize_of[o] = p.has[o] ? size_of(p.dtypes[o]) : 0;
        plan->dtypes[o] = p.dtypes[o];
        plan->tile_esize = std::max(plan->tile_esize, plan->esize_of[o]);
    }
    plan->act = p.act;
    plan->vn = p.vn;
    plan->params = p.params;
    plan->rank = p.rank;
    std::copy(p.sizes, p.sizes + p.rank, plan->sizes);
    for (int o = 0; o < kOperands; ++o) std::copy(p.strides[o], p.strides[o] + p.rank, plan->strides[o]);
    plan->operands = 0;
    for (int o = 0; o < kOperands; ++o) {
        plan->has_operand[o] = p.has[o];
        if (p.has[o]) plan->operands |= bit(o);
    }

    // Empty: validation did not bound its other sizes and strides, so no
    // product or span of them is formed (spans stay 0).
    if (std::count(p.sizes, p.sizes + p.rank, int64_t(0)) != 0) {
        plan->total = 0;
        plan->form = Form::empty;
        return;
    }
    int64_t total = 1;
    for (uint32_t d = 0; d < p.rank; ++d) total *= p.sizes[d];
    set_overlap_facts(p, plan);
    plan->in_place_op = p.in_place_ok;
    plan->same_xy_strides = std::equal(p.strides[kX], p.strides[kX] + p.rank, p.strides[kY]);
    plan->total = total;

    // The walks keep offsets only up to the last operand the plan has.
    const int ops =
        kOperands - int(std::find(std::rbegin(p.has), std::rend(p.has), true) - std::rbegin(p.has));
    plan->outer.ops = plan->inner.ops = plan->segments.ops = ops;

    // Steps 1 and 2, innermost first.
    Dim dims[SIMDAX_MAX_RANK + 1];
    int n = 0;
    for (int d = int(p.rank) - 1; d >= 0; --d) {
        if (p.sizes[d] == 1) continue;
        Dim cur{p.sizes[d], {}, p.reduced[d]};
        for (int o = 0; o < kOperands; ++o) cur.stride[o] = p.has[o] ? p.strides[o][d] : 0;
        if (n > 0 && mergeable(cur, dims[n - 1])) {
            dims[n - 1].size *= cur.size;
            continue;
        }
        dims[n++] = cur;
    }
    std::reverse(dims, dims + n);  // outermost first from here on

    const bool reduction = p.def->reduces;
    int nred = 0;
    for (int i = 0; i < n; ++i) nred += dims[i].reduced;
    if (reduction && nred == 0) {
        // Every reduced dim had size 1: groups of one element.
        dims[n++] = Dim{1, {1, 1, 0, 0}, true};
        nred = 1;
    }
    if (!reduction && n == 0) dims[n++] = Dim{1, {1, 1, 0, 0}, false};

    plan->group_size = 1;
    for (int i = 0; i < n; ++i)
        if (dims[i].reduced) plan->group_size *= dims[i].size;

    const Dim& last = dims[n - 1];
    if (!reduction) {
        for (int i = 0; i + 1 < n; ++i) push(&plan->outer, dims[i]);
        push(&plan->inner, last);
        plan->run = last.size;
        for (int o = 0; o < kOperands; ++o) plan->run_stride[o] = last.stride[o];
        plan->form = (unit(last, kX) && unit(last, kY)) ? Form::rows : Form::general;
        return;
    }
    if (last.reduced && unit(last, kX) && unit(last, kY)) {
        plan->form = Form::rows;
        for (int i = 0; i + 1 < n; ++i) push(dims[i].reduced ? &plan->segments : &plan->outer, dims[i]);
        plan->run = last.size;
        for (int o = 0; o < kOperands; ++o) plan->run_stride[o] = last.stride[o];
        return;
    }
    if (nred == 1 && !last.reduced && unit(last, kX) && unit(last, kY)) {
        plan->form = Form::cols;
        for (int i = 0; i + 1 < n; ++i) push(dims[i].reduced ? &plan->inner : &plan->outer, dims[i]);
        plan->lanes = last.size;
        for (int o = 0; o < kOperands; ++o) plan->lane_stride[o] = last.stride[o];
        return;
    }
    plan->form = Form::general;
    for (int i = 0; i < n; ++i) push(dims[i].reduced ? &plan->inner : &plan->outer, dims[i]);
}

// Float lanes of an ISA's vectors (0: scalar).
int64_t float_lanes(simdax_isa isa) {
    switch (isa) {
        case SIMDAX_ISA_AVX2: return 8;
        case SIMDAX_ISA_AVX512:
        case SIMDAX_ISA_AVX512FP16: return 16;
        case SIMDAX_ISA_NEON:
        case SIMDAX_ISA_NEONFP16: return 4;
        default: return 0;
    }
}

// Work split: depends on the shape only, so results never depend on threads.
void split_work(Plan* plan) {
    constexpr int64_t kPartLen = int64_t(1) << 16;  // elements: big enough to amortise a state
    plan->lane_block = 256;
    // Columns whose rows alias modulo 4 KiB are written a chunk row at a
    // time (the cols kernels of operators/softmax/simd/cols.hpp, mvn/cols.hpp,
    // hardmax.hpp): a unit spans at least kByRowsBytes.
    if (plan->form == Form::cols &&
        kernels::cols_by_rows(plan->inner.stride[kX][0], plan->inner.stride[kY][0], plan->esize))
        plan->lane_block = std::max<int64_t>(plan->lane_block, int64_t(kernels::kByRowsBytes / plan->esize));
    // Line-aligned cols units pay off where a group has more than one unit
    // and every row of input and output starts at the same offset in its
    // line, so that one head aligns them all.
    plan->line_vector = 0;
    if (plan->form == Form::cols && plan->lanes > plan->lane_block &&
        plan->inner.stride[kX][0] * int64_t(plan->esize_of[kX]) % 64 == 0 &&
        plan->inner.stride[kY][0] * int64_t(plan->esize_of[kY]) % 64 == 0)
        plan->line_vector = float_lanes(plan->isa) * int64_t(plan->esize_of[kY]);
    const int64_t size = plan->def->reduces ? plan->group_size : plan->run;
    plan->parts = 1;
    plan->part_len = size;
    if (plan->form != Form::cols && size > kPartLen) {
        plan->parts = std::min(kMaxParts, (size + kPartLen - 1) / kPartLen);
        plan->part_len = (size + plan->parts - 1) / plan->parts;
        plan->parts = (size + plan->part_len - 1) / plan->part_len;
    }
    plan->parallel_min = plan->def->parallel_min;
}

// When groups side by side are worth walking as lanes (plan.hpp,
// lane_groups): the chunk passes pay a call and a horizontal fold per run,
// which short runs cannot amortise; the lane walk pays a fold per lane and
// a walk per row, which few rows cannot. Measured break-even: runs up to 16
// always, longer ones up to the number of rows, never from 128.
constexpr int64_t kLaneGroupRun = 128;
static_assert(kLaneGroupRun <= int64_t(kernels::kMaxLaneRun));

bool groups_side_by_side(const Plan& p) {
    if (p.form != Form::rows || p.parts != 1 || p.segments.n != 1 || p.outer.n == 0) return false;
    if (!p.def->lane_groups) return false;
    const int last = p.outer.n - 1;
    if (p.outer.stride[kX][last] != p.run || p.outer.stride[kY][last] != p.run) return false;
    return p.run < kLaneGroupRun && (p.run <= 16 || p.run <= p.segments.size[0]);
}

void choose_kernels(Plan* plan) {
    plan->lane_groups = groups_side_by_side(*plan);
    plan->fused_rows =
        plan->form == Form::rows && plan->def->reduces && plan->parts == 1 && plan->segments.n == 0;
    const RowsFn rows = plan->def->rows_kernel ? plan->def->rows_kernel(plan->k) : nullptr;
    if (!plan->fused_rows || !rows || plan->outer.n > 1) return;
    plan->whole = rows;
    plan->whole_rows = count(plan->outer);
    plan->whole_xrs = plan->outer.n ? plan->outer.stride[kX][0] : 0;
    plan->whole_yrs = plan->outer.n ? plan->outer.stride[kY][0] : 0;
}

}  // namespace

void make_plan(const Problem& p, simdax_isa isa, const DtypeKernels& k, Plan* plan) {
    *plan = Plan{};
    plan->isa = isa;
    plan->k = k;
    choose_form(p, plan);
    split_work(plan);
    choose_kernels(plan);
}

}  // namespace simdax
