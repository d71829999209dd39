// The one list of operators: a line per operator definition (its folder
// defines it), found by its public type.
#include "operator_def.hpp"

// clang-format off
#define SIMDAX_OPERATORS(X)   \
    X(kLogSoftmaxOperator)    \
    X(kSoftmaxOperator)       \
    X(kHardmaxOperator)       \
    X(kMvnOperator)           \
    X(kMvnExOperator)         \
    X(kHardSigmoidOperator)   \
    X(kActivationOperator)    \
    X(kCastOperator)          \
    X(kAttentionSoftmaxOperator) \
    X(kLayerNormOperator)     \
    X(kRmsNormOperator)
// clang-format on

namespace simdax {

#define SIMDAX_DECLARE_OPERATOR(def) extern const OperatorDef def;
SIMDAX_OPERATORS(SIMDAX_DECLARE_OPERATOR)
#undef SIMDAX_DECLARE_OPERATOR

const OperatorDef* operator_def(simdax_operator_type type) {
#define SIMDAX_MATCH_OPERATOR(def) \
    if (type == def.type) return &def;
    SIMDAX_OPERATORS(SIMDAX_MATCH_OPERATOR)
#undef SIMDAX_MATCH_OPERATOR
    return nullptr;
}

const OperatorDef* operator_def_for_info(simdax_structure_type type) {
#define SIMDAX_MATCH_INFO(def) \
    if (def.info_type != 0 && type == def.info_type) return &def;
    SIMDAX_OPERATORS(SIMDAX_MATCH_INFO)
#undef SIMDAX_MATCH_INFO
    return nullptr;
}

}  // namespace simdax

extern "C" const char* simdax_operator_name(simdax_operator_type type) {
    const simdax::OperatorDef* def = simdax::operator_def(type);
    return def ? def->name : nullptr;
}
