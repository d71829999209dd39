// The rows of CreateErrors (errors_create_test.cpp) that break what an
// operator reads besides its tensors' layout: the axes, MVN's Scale/Bias,
// epsilon, its placement and normalize_variance, the activation type, the
// operator type and HardSigmoid's alpha/beta.
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "simdax/simdax.h"
#include "support/errors_fixture.hpp"

namespace sxt::errors {
namespace {

constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();
constexpr float kInff = std::numeric_limits<float>::infinity();

// Axes {0, 1, 0}: one axis named twice, more axes than a rank-2 input has.
void three_axes_0_twice(Fixture& f) {
    f.axes[0] = 0;
    f.axes[1] = 1;
    f.axes[2] = 0;
    f.sm.axis_count = 3;
}

}  // namespace

std::vector<CreateRow> create_attribute_rows() {
    using F = Fixture;
    using Mutate = std::function<void(F&)>;
    // An axes list the operator cannot reduce over.
    auto axes_row = [](const char* name, simdax_operator_type type, Mutate m) {
        return CreateRow{name, type, SIMDAX_ERROR_INVALID_AXES, {"axes", "axis"}, std::move(m)};
    };
    // MVN's Scale or Bias (`operand`) whose shape or dtype does not fit the input.
    auto mvn_operand_row = [](const char* name, simdax_status expected, const char* operand, Mutate m) {
        return CreateRow{
            name, SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, expected, {operand}, std::move(m)};
    };
    // An attribute or enum out of its range.
    auto bad_value_row = [](const char* name, simdax_operator_type type, std::vector<std::string> keys,
                            Mutate m) {
        return CreateRow{name, type, SIMDAX_ERROR_INVALID_ARGUMENT, std::move(keys), std::move(m)};
    };
    // MVN with an epsilon that is negative or not finite.
    auto mvn_epsilon_row = [&bad_value_row](const char* name, float epsilon) {
        return bad_value_row(name, SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {"epsilon"},
                             [epsilon](F& f) { f.mvn.epsilon = epsilon; });
    };
    // Only create is checked: the one-shot functions take no operator type.
    auto unknown_operator_type = [](const char* name, int type) {
        return CreateRow{name,
                         SIMDAX_OPERATOR_SOFTMAX,
                         SIMDAX_ERROR_INVALID_ARGUMENT,
                         {"type", "operator"},
                         [type](F& f) { f.op.type = simdax_operator_type(type); },
                         false};
    };
    return {
        axes_row("EmptyAxes", SIMDAX_OPERATOR_SOFTMAX, [](F& f) { f.sm.axis_count = 0; }),
        {"NullAxes",
         SIMDAX_OPERATOR_SOFTMAX,
         SIMDAX_ERROR_NULL_POINTER,
         {"axes"},
         [](F& f) { f.sm.axes = nullptr; }},
        axes_row("RepeatedAxis", SIMDAX_OPERATOR_SOFTMAX,
                 [](F& f) {
                     f.axes[0] = f.axes[1] = 1;
                     f.sm.axis_count = 2;
                 }),
        axes_row("OutOfRangeAxis", SIMDAX_OPERATOR_SOFTMAX, [](F& f) { f.axes[0] = 2; }),
        axes_row("HugeAxis", SIMDAX_OPERATOR_SOFTMAX, [](F& f) { f.axes[0] = 0xFFFFFFFFu; }),
        axes_row("MoreAxesThanRank", SIMDAX_OPERATOR_SOFTMAX, [](F& f) { three_axes_0_twice(f); }),
        axes_row("LogSoftmaxOutOfRangeAxis", SIMDAX_OPERATOR_LOG_SOFTMAX, [](F& f) { f.axes[0] = 5; }),
        axes_row("HardmaxRepeatedAxis", SIMDAX_OPERATOR_HARDMAX,
                 [](F& f) {
                     three_axes_0_twice(f);
                     f.set_shape({3, 4, 1});
                 }),
        axes_row("MvnEmptyAxes", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
                 [](F& f) { f.mvn.axis_count = 0; }),
        axes_row("MvnOutOfRangeAxis", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
                 [](F& f) { f.axes[0] = 7; }),
        mvn_operand_row("ScaleSizeNeitherInputNorOne", SIMDAX_ERROR_SHAPE_MISMATCH, "scale",
                        [](F& f) { f.sc_sizes[1] = 2; }),
        mvn_operand_row("BiasSizeNeitherInputNorOne", SIMDAX_ERROR_SHAPE_MISMATCH, "bias",
                        [](F& f) { f.bi_sizes[0] = 2; }),
        mvn_operand_row("ScaleSizeZero", SIMDAX_ERROR_SHAPE_MISMATCH, "scale",
                        [](F& f) { f.sc_sizes[1] = 0; }),
        mvn_operand_row("ScaleRankMismatch", SIMDAX_ERROR_SHAPE_MISMATCH, "scale",
                        [](F& f) { F::append_unit_dim(f.scale, f.sc_sizes); }),
        mvn_operand_row("BiasRankMismatch", SIMDAX_ERROR_SHAPE_MISMATCH, "bias",
                        [](F& f) { f.bias.rank = 1; }),
        mvn_operand_row("ScaleDtypeMismatch", SIMDAX_ERROR_DTYPE_MISMATCH, "scale",
                        [](F& f) { f.scale.dtype = SIMDAX_DTYPE_FLOAT16; }),
        mvn_operand_row("BiasDtypeMismatch", SIMDAX_ERROR_DTYPE_MISMATCH, "bias",
                        [](F& f) { f.bias.dtype = SIMDAX_DTYPE_FLOAT64; }),
        bad_value_row("ScaleUnknownDtype", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, {"scale"},
                      [](F& f) { f.scale.dtype = simdax_dtype(42); }),
        mvn_epsilon_row("NegativeEpsilon", -1e-3f),
        mvn_epsilon_row("NanEpsilon", kNaNf),
        mvn_epsilon_row("InfEpsilon", kInff),
        mvn_epsilon_row("MinusInfEpsilon", -kInff),
        bad_value_row("MvnExUnknownEpsilonPlacement", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX,
                      {"epsilon_placement"},
                      [](F& f) { f.mvn_ex.epsilon_placement = simdax_epsilon_placement(2); }),
        bad_value_row("MvnExNegativeEpsilonPlacement", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX,
                      {"epsilon_placement"},
                      [](F& f) { f.mvn_ex.epsilon_placement = simdax_epsilon_placement(-1); }),
        bad_value_row("MvnExNegativeEpsilon", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX, {"epsilon"},
                      [](F& f) { f.mvn_ex.mvn.epsilon = -1e-3f; }),
        bad_value_row("MvnExBadNormalizeVariance", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX,
                      {"normalize_variance"}, [](F& f) { f.mvn_ex.mvn.normalize_variance = 2; }),
        {"MvnExNullInputDesc",
         SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX,
         SIMDAX_ERROR_NULL_POINTER,
         {"input"},
         [](F& f) { f.mvn_ex.mvn.input = nullptr; }},
        bad_value_row("MvnUnknownFusedActivation", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
                      {"activation"},
                      [](F& f) { f.fused.type = simdax_activation_type(SIMDAX_ACTIVATION_COUNT); }),
        bad_value_row("MvnNegativeFusedActivation", SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
                      {"activation"}, [](F& f) { f.fused.type = simdax_activation_type(-1); }),
        bad_value_row("UnknownActivation", SIMDAX_OPERATOR_ACTIVATION, {"activation", "type"},
                      [](F& f) { f.act.activation.type = simdax_activation_type(SIMDAX_ACTIVATION_COUNT); }),
        bad_value_row("UnknownActivation1000", SIMDAX_OPERATOR_ACTIVATION, {"activation", "type"},
                      [](F& f) { f.act.activation.type = simdax_activation_type(1000); }),
        unknown_operator_type("UnknownOperatorType", 0),
        unknown_operator_type("UnknownOperatorType99", 99),
        bad_value_row("HardSigmoidNanAlpha", SIMDAX_OPERATOR_HARD_SIGMOID, {"alpha"},
                      [](F& f) { f.hs.alpha = kNaNf; }),
        bad_value_row("HardSigmoidInfAlpha", SIMDAX_OPERATOR_HARD_SIGMOID, {"alpha"},
                      [](F& f) { f.hs.alpha = kInff; }),
        bad_value_row("HardSigmoidNanBeta", SIMDAX_OPERATOR_HARD_SIGMOID, {"beta"},
                      [](F& f) { f.hs.beta = kNaNf; }),
        bad_value_row("HardSigmoidMinusInfBeta", SIMDAX_OPERATOR_HARD_SIGMOID, {"beta"},
                      [](F& f) { f.hs.beta = -kInff; }),
    };
}

}  // namespace sxt::errors
