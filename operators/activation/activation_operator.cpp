// Element-wise operators: HardSigmoid and any activation on its own. In
// place is allowed (the output exactly the input).
#include "elementwise_passes.hpp"
#include "run_plan.hpp"
#include "text_line.hpp"
#include "validate_rules.hpp"

namespace simdax {
namespace {

struct ActivationPasses : ElementwisePasses {
    static void output(const Plan& p, const Piece& c, const State&) {
        p.k.activation(c.at[kX], c.at[kY], c.n, &p.act);
    }
};

simdax_status validate_hard_sigmoid(const void* desc, Problem* p) {
    const auto* d = static_cast<const simdax_hard_sigmoid_desc*>(desc);
    simdax_status s;
    if ((s = check_finite("alpha", d->alpha)) != SIMDAX_OK) return s;
    if ((s = check_finite("beta", d->beta)) != SIMDAX_OK) return s;
    p->act = ActParams{SIMDAX_ACTIVATION_HARD_SIGMOID, d->alpha, d->beta, 0};
    p->in_place_ok = true;
    return check_input_output(d->input, d->output, p);
}

simdax_status validate_activation(const void* desc, Problem* p) {
    const auto* d = static_cast<const simdax_activation_op_desc*>(desc);
    const simdax_status s = check_activation("activation", d->activation, &p->act);
    if (s != SIMDAX_OK) return s;
    p->in_place_ok = true;
    return check_input_output(d->input, d->output, p);
}

void describe_activation(const Problem& p, TextLine* l) { add_activation(l, "activation", p.act); }

// HardSigmoid and Activation differ in their descriptor only.
constexpr OperatorDef activation_def(simdax_operator_type type, const char* name, simdax_structure_type info,
                                     size_t info_size, simdax_status (*validate)(const void*, Problem*)) {
    return {type,
            name,
            info,
            info_size,
            validate,
            false,
            false,
            int64_t(1) << 17,
            nullptr,
            run_plan<ActivationPasses>,
            describe_activation};
}

}  // namespace

SIMDAX_CHECK_INFO_LAYOUT(simdax_hard_sigmoid_create_info);
SIMDAX_CHECK_INFO_LAYOUT(simdax_activation_create_info);

extern const OperatorDef kHardSigmoidOperator = activation_def(
    SIMDAX_OPERATOR_HARD_SIGMOID, "HardSigmoid", SIMDAX_STRUCTURE_TYPE_HARD_SIGMOID_CREATE_INFO,
    sizeof(simdax_hard_sigmoid_create_info), validate_hard_sigmoid);
extern const OperatorDef kActivationOperator =
    activation_def(SIMDAX_OPERATOR_ACTIVATION, "Activation", SIMDAX_STRUCTURE_TYPE_ACTIVATION_CREATE_INFO,
                   sizeof(simdax_activation_create_info), validate_activation);
}  // namespace simdax
