// Cast between float32, float16, bfloat16 and float64: element-wise, the
// input's kernels, one slot per output dtype.
#include "dtype_name.hpp"
#include "elementwise_passes.hpp"
#include "one_shot.hpp"
#include "run_plan.hpp"
#include "text_line.hpp"
#include "validate_rules.hpp"

namespace simdax {
namespace {

struct CastPasses : ElementwisePasses {
    static void output(const Plan& p, const Piece& c, const State&) {
        switch (p.dtypes[kY]) {
            case DType::f32: return p.k.cast_to_f32(c.at[kX], c.at[kY], c.n);
            case DType::f16: return p.k.cast_to_f16(c.at[kX], c.at[kY], c.n);
            case DType::bf16: return p.k.cast_to_bf16(c.at[kX], c.at[kY], c.n);
            case DType::f64: return p.k.cast_to_f64(c.at[kX], c.at[kY], c.n);
            case DType::u8: return;  // refused by validation (check_input_output)
        }
    }
};

simdax_status validate_cast(const void* desc, Problem* p) {
    const auto* d = static_cast<const simdax_cast_desc*>(desc);
    const simdax_status s = check_input_output(d->input, d->output, p, false);
    // An exact alias is a copy onto itself; across dtypes it would overwrite
    // elements not yet read.
    p->in_place_ok = s == SIMDAX_OK && d->input->dtype == d->output->dtype;
    return s;
}

void describe_cast(const Problem& p, TextLine* l) {
    l->add(" to=%s", dtype_name(public_dtype(p.dtypes[kY])));
}

}  // namespace

SIMDAX_CHECK_INFO_LAYOUT(simdax_cast_create_info);

extern const OperatorDef kCastOperator{SIMDAX_OPERATOR_CAST,
                                       "Cast",
                                       SIMDAX_STRUCTURE_TYPE_CAST_CREATE_INFO,
                                       sizeof(simdax_cast_create_info),
                                       validate_cast,
                                       false,
                                       false,
                                       int64_t(1) << 17,
                                       nullptr,
                                       run_plan<CastPasses>,
                                       describe_cast};

}  // namespace simdax

extern "C" simdax_status simdax_cast(const simdax_cast_desc* desc, const void* input, void* output) {
    return simdax::one_shot(SIMDAX_OPERATOR_CAST, desc, {input, nullptr, nullptr, output});
}
