// A created operator: everything execute needs, decided at create time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernel_table.hpp"
#include "simdax/simdax.h"

namespace simdax {

struct OperatorDef;  // operator_def.hpp

// The loop form the planner chose (see planner.cpp).
enum class Form {
    empty,    // no elements: execute does nothing
    rows,     // reduced extent innermost and contiguous: each group is one or more
              // contiguous runs (elementwise: contiguous runs)
    cols,     // kept extent innermost and contiguous; one reduced dim walked by stride
    general,  // anything else: groups walked by an odometer through stack tiles
};

// Operands by index, in the order of the public simdax_operand: a new
// operand is one value here and one there.
enum Operand {
    kX,
    kY,
    kScale,
    kBias,
    kMask,
    kAlibiSlopes,
    kSinks,
    kLogSumExp,
    kSkip,
    kSkipBias,
    kMean,
    kInvStdDev,
    kSkipSum,
    kOperands
};
static_assert(int(kX) == SIMDAX_OPERAND_INPUT && int(kY) == SIMDAX_OPERAND_OUTPUT &&
                  int(kScale) == SIMDAX_OPERAND_SCALE && int(kBias) == SIMDAX_OPERAND_BIAS &&
                  int(kMask) == SIMDAX_OPERAND_MASK && int(kAlibiSlopes) == SIMDAX_OPERAND_ALIBI_SLOPES &&
                  int(kSinks) == SIMDAX_OPERAND_SINKS && int(kLogSumExp) == SIMDAX_OPERAND_LOG_SUM_EXP &&
                  int(kSkip) == SIMDAX_OPERAND_SKIP && int(kSkipBias) == SIMDAX_OPERAND_SKIP_BIAS &&
                  int(kMean) == SIMDAX_OPERAND_MEAN && int(kInvStdDev) == SIMDAX_OPERAND_INV_STD_DEV &&
                  int(kSkipSum) == SIMDAX_OPERAND_SKIP_SUM && int(kOperands) == SIMDAX_OPERAND_COUNT,
              "Operand follows simdax_operand");

constexpr unsigned bit(int o) { return 1u << o; }
// The operands an operator writes; the rest it only reads.
constexpr unsigned kOutputOperands = bit(kY) | bit(kLogSumExp) | bit(kMean) | bit(kInvStdDev) | bit(kSkipSum);
// The operands that hold one element per group (their strides along the
// reduced dims are 0): pieces point at them in memory, never through a tile.
constexpr unsigned kGroupOperands =
    bit(kAlibiSlopes) | bit(kSinks) | bit(kLogSumExp) | bit(kMean) | bit(kInvStdDev);

// Each operand's element (0, ..., 0) for one execution. Only outputs are
// written through.
struct Buffers {
    char* at[kOperands];
};

// A set of dimensions, outermost first, with each operand's strides (elements).
struct Dims {
    int n = 0;
    int ops = kOperands;  // operands walked, 0..ops-1: the last one the plan has, + 1
    int64_t size[SIMDAX_MAX_RANK] = {};
    int64_t stride[kOperands][SIMDAX_MAX_RANK] = {};
};

// A group is reduced in at most this many parts: the executor keeps one
// batch of part states on the stack.
constexpr int64_t kMaxParts = 256;

using RowsFn = void (*)(const void*, void*, size_t, size_t, ptrdiff_t, ptrdiff_t);

// An operator's own parameters (validate writes, its execute reads), opaque
// to dispatch: a trivially copyable struct of at most this size.
struct OpParams {
    alignas(8) unsigned char bytes[64];
};

struct Plan {
    const OperatorDef* def;
    DType dtype;
    size_t esize;                // the input's element size (its kernels' dtype)
    size_t esize_of[kOperands];  // each operand's (0: absent)
    DType dtypes[kOperands];     // each operand's
    size_t tile_esize;           // the largest: stack tiles hold that many bytes per element
    simdax_isa isa;
    DtypeKernels k;  // copied: execute does no table look-up
    Form form;
    bool has_operand[kOperands];
    unsigned operands;  // the same, a bit per operand

    Dims outer;                     // kept dims iterated one group (or one run) at a time
    Dims inner;                     // reduced dims (general: all of them; cols: one); elementwise: the run
    Dims segments;                  // rows: the reduced dims outside the contiguous run (may be none)
    int64_t run;                    // rows: elements per contiguous run
    int64_t run_stride[kOperands];  // rows: stride along the run (1 for input/output)
    int64_t lanes;                  // cols: the contiguous kept extent
    int64_t lane_stride[kOperands];
    int64_t group_size;
    int64_t total;  // elements in the tensor

    // How execute cuts the work (run_plan.hpp); a function of the shape only.
    int64_t lane_block;  // cols: lanes per unit
    // cols: bytes of the ISA's vector of output elements when each group's
    // lanes before the output's cache-line boundary get a unit of their own
    // (run_plan.hpp, run_cols); 0: no such units.
    int64_t line_vector;
    int64_t parts;         // rows/general: parts per group (element-wise: per run)
    int64_t part_len;      // elements per part (the last may be shorter)
    int64_t parallel_min;  // below this many elements, run on the calling thread

    ActParams act;
    VarianceNorm vn;  // MVN
    OpParams params;  // the operator's own parameters, opaque here
    // The problem's view as validated (no dims dropped or merged): an
    // operator with an executor of its own walks it.
    uint32_t rank;
    int64_t sizes[SIMDAX_MAX_RANK];
    int64_t strides[kOperands][SIMDAX_MAX_RANK];

    // Operand o's bytes meet the output's exactly when d = (address of o) -
    // (address of the output) has meet_lo[o] < d < meet_hi[o]: the span
    // differences (each operand touches [lo, hi) from its base), in 128 bits
    // so that neither they nor d can overflow.
    __int128 meet_lo[kOperands], meet_hi[kOperands];
    // The bytes each operand's view touches from its base, [lo, hi): a
    // buffer of stated length must hold them (bindings_check.cpp).
    int64_t span_lo[kOperands], span_hi[kOperands];
    // The gcd of an operand's byte lattice (every element at its base plus
    // a multiple of it; 0: one element) and the output's
    // (bindings_check.cpp: interleaved views).
    int64_t lattice_with_y[kOperands];
    int64_t lattice[kOperands];  // each operand's own (0: one element)
    // The outputs other than kY the plan writes (a bit per Operand): each is
    // checked against every other operand (bindings_check.cpp).
    unsigned extra_outputs;
    bool in_place_op;      // the operator may write its input's buffer
    bool same_xy_strides;  // ... and the output view is the input's (in place needs it)
    // Rows form with whole groups, each one run: the operator's rows pass
    // takes many groups per call.
    bool fused_rows;
    // LogSoftmax/Softmax rows form whose groups lie side by side: one
    // segment dim, short runs, and the innermost outer dim steps one run, so
    // a segment row holds the runs of consecutive groups. Blocks of groups
    // are walked as cols lanes (run_plan.hpp, run_lane_groups).
    bool lane_groups;
    // Groups along at most one outer dim: on the calling thread the whole
    // tensor is one rows_kernel call with these (nullptr: the scheduler).
    RowsFn whole;
    int64_t whole_rows;
    ptrdiff_t whole_xrs, whole_yrs;
};

}  // namespace simdax
