// The rows of CreateErrors (errors_create_test.cpp) that break a tensor
// descriptor: NULL descriptors and sizes, the rank, negative sizes and
// overflowing counts, bytes and offsets, output sizes and dtypes that differ
// from the input's, unknown dtypes and outputs whose elements overlap.
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "simdax/simdax.h"
#include "support/errors_fixture.hpp"

namespace sxt::errors {

std::vector<CreateRow> create_tensor_rows() {
    using F = Fixture;
    const int64_t big32 = int64_t(1) << 32, big31 = int64_t(1) << 31;
    // Softmax on an input and output of this shape; no one-shot call (one
    // wrongly accepted would run off the buffers).
    auto softmax_of_shape = [](const char* name, simdax_status expected, std::vector<std::string> keys,
                               std::vector<int64_t> shape) {
        return CreateRow{
            name, SIMDAX_OPERATOR_SOFTMAX, expected, std::move(keys), [shape](F& f) { f.set_shape(shape); },
            false};
    };
    using Mutate = std::function<void(F&)>;
    // A NULL pointer where the descriptor named by `key` must point somewhere.
    auto null_row = [](const char* name, simdax_operator_type type, const char* key, Mutate m) {
        return CreateRow{name, type, SIMDAX_ERROR_NULL_POINTER, {key}, std::move(m)};
    };
    // An output whose elements share memory.
    auto overlap_row = [](const char* name, simdax_operator_type type, Mutate m) {
        return CreateRow{name, type, SIMDAX_ERROR_OVERLAP, {"output"}, std::move(m)};
    };
    return {
        {"NullOperatorDescPointer",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_NULL_POINTER,
         {"desc"},
         [](F& f) { f.op.desc = nullptr; },
         false},
        null_row("NullInputDesc", SIMDAX_OPERATOR_SOFTMAX, "input", [](F& f) { f.sm.input = nullptr; }),
        null_row("NullOutputDesc", SIMDAX_OPERATOR_SOFTMAX, "output", [](F& f) { f.sm.output = nullptr; }),
        null_row("NullSizes", SIMDAX_OPERATOR_SOFTMAX, "sizes", [](F& f) { f.in.sizes = nullptr; }),
        null_row("MvnNullInputDesc", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, "input",
                 [](F& f) { f.mvn.input = nullptr; }),
        null_row("MvnNullOutputDesc", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, "output",
                 [](F& f) { f.mvn.output = nullptr; }),
        null_row("HardSigmoidNullInputDesc", SIMDAX_OPERATOR_HARD_SIGMOID, "input",
                 [](F& f) { f.hs.input = nullptr; }),
        null_row("ActivationNullOutputDesc", SIMDAX_OPERATOR_ACTIVATION, "output",
                 [](F& f) { f.act.output = nullptr; }),
        {"Rank0",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"rank"},
         [](F& f) { f.set_shape({}); }},
        {"Rank9",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"rank"},
         [](F& f) { f.set_shape(std::vector<int64_t>(9, 1)); }},
        softmax_of_shape("NegativeSize", SIMDAX_ERROR_INVALID_ARGUMENT, {"size"}, {-3, 4}),
        softmax_of_shape("ElementCountOverflow", SIMDAX_ERROR_OVERFLOW, {"size", "count", "input"},
                         {big32, big32}),
        softmax_of_shape("ElementCountOverflowRank3", SIMDAX_ERROR_OVERFLOW, {"size", "count", "input"},
                         {3, big32, big32 / 2}),
        // 2^62 elements fit in int64; 2^62 * 4 bytes do not.
        softmax_of_shape("ByteSizeOverflow", SIMDAX_ERROR_OVERFLOW, {"size", "byte", "input"},
                         {big31, big31}),
        {"StrideOffsetOverflow",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_OVERFLOW,
         {"stride", "input", "offset"},
         [](F& f) {
             f.in_strides[0] = int64_t(1) << 62;
             f.in_strides[1] = 1;
             f.in.strides = f.in_strides;
         },
         false},
        {"RankMismatch",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_SHAPE_MISMATCH,
         {"output", "rank"},
         [](F& f) { F::append_unit_dim(f.out, f.out_sizes); }},
        {"SizeMismatch",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_SHAPE_MISMATCH,
         {"output", "size"},
         [](F& f) { f.out_sizes[1] = 5; }},
        {"DtypeMismatch",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_DTYPE_MISMATCH,
         {"output", "dtype"},
         [](F& f) { f.out.dtype = SIMDAX_DTYPE_FLOAT16; }},
        {"HardSigmoidDtypeMismatch",
         SIMDAX_OPERATOR_HARD_SIGMOID,
         SIMDAX_ERROR_DTYPE_MISMATCH,
         {"output", "dtype"},
         [](F& f) { f.out.dtype = SIMDAX_DTYPE_FLOAT64; }},
        {"UnknownInputDtype",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"dtype"},
         [](F& f) { f.in.dtype = f.out.dtype = simdax_dtype(0); }},
        {"UnknownDtype99",
         SIMDAX_OPERATOR_ACTIVATION,
         SIMDAX_ERROR_INVALID_ARGUMENT,
         {"dtype"},
         [](F& f) { f.in.dtype = f.out.dtype = simdax_dtype(99); }},
        overlap_row("OutputStrideZero", SIMDAX_OPERATOR_SOFTMAX, output_strides(4, 0)),
        // Rows of 4 elements, 2 apart.
        overlap_row("OutputRowsOverlap", SIMDAX_OPERATOR_SOFTMAX, output_strides(2, 1)),
        overlap_row("OutputDiagonalOverlap", SIMDAX_OPERATOR_HARD_SIGMOID, output_strides(1, 1)),
        // (0,2) and (1,0)..: offsets {0,-1,-2,-3} and {2,1,0,-1} meet.
        overlap_row("OutputNegativeStrideOverlap", SIMDAX_OPERATOR_ACTIVATION, output_strides(2, -1)),
        overlap_row("MvnOutputStrideZero", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, output_strides(0, 1)),
        // [3,4,2]: dim 2 steps 1, dim 1 steps 2, dim 0 steps 4 < 4*2.
        overlap_row("OutputTransposedOverlap3d", SIMDAX_OPERATOR_LOG_SOFTMAX,
                    [](F& f) {
                        f.set_shape({3, 4, 2});
                        f.out_strides[0] = 4;
                        f.out_strides[1] = 2;
                        f.out_strides[2] = 1;
                        f.out.strides = f.out_strides;
                    }),
    };
}

}  // namespace sxt::errors
