// The fuzz path of the transformer operators (AttentionSoftmax,
// LayerNormalization, RMSNormalization), dispatched from fuzz_operator's
// entry point for inputs whose first byte is in [0x70, 0x90) or [0xD0, 0xF0)
// (a quarter of the random inputs; no earlier seed starts there).
//
// Decoded: the operator, a "well-formed" flag (about 40%: a descriptor built
// to the docs' rules, which create must accept) or one mutation from a list
// (wrong dtypes, ranks, sizes, NaN/inf/negative parameters, causal 3, a
// window without causal, axis out of range, stash_type, operands without
// their prerequisite, zero strides on outputs, huge strides, NULLs), the
// documented-refusal ones of which create must refuse. Rank 1-5, sizes 0-9
// (sometimes a last axis up to 300), strides packed (NULL or explicit),
// permuted, with gaps, negative, zero (inputs), every optional operand
// present or not with its dtypes, the element values (moderate, specials,
// huge, constant, -inf heavy, fully masked rows).
//  - create refused: a non-empty message, *op NULL;
//  - accepted: optionally first an execute that must be refused (an operand
//    it was created with left unbound, an output binding too short), which
//    must write nothing; then execute_bound (attention: sometimes in place,
//    sometimes the one-shot call) and every output element (output,
//    log_sum_exp, skip_sum, mean, inv_std_dev) against the float64
//    references of tests/support (attention_reference, norm_runner) with
//    the tolerances the operator tests use; canaries around every view.
//
// The case and its decoding primitives: transformer_case.hpp/.cpp;
// AttentionSoftmax: fuzz_attention_softmax.cpp; LayerNormalization and
// RMSNormalization: fuzz_normalization.cpp. Here: the selector, the
// decoding of the operator and how to run it, and create's checks.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_case.hpp"
#include "simdax/simdax.h"
#include "transformer_case.hpp"

namespace fuzz {

using namespace transformer;

bool transformer_selected(const uint8_t* data, size_t size) {
    return size > 0 && ((data[0] >= 0x70 && data[0] < 0x90) || (data[0] >= 0xD0 && data[0] < 0xF0));
}

int fuzz_transformer(const uint8_t* data, size_t size) {
    Bytes in(data, size);
    in.u8();  // the selector
    TCase c;
    const uint8_t h = in.u8();
    c.op = h % 3 == 0
               ? SIMDAX_OPERATOR_ATTENTION_SOFTMAX
               : (h % 3 == 1 ? SIMDAX_OPERATOR_LAYER_NORMALIZATION : SIMDAX_OPERATOR_RMS_NORMALIZATION);
    c.valid = (h / 3) % 5 < 2;
    c.isa = in.u8() % 4;
    for (int i = c.isa; i >= 0; --i)
        if (simdax_isa_supported(simdax_isa(i))) {
            simdax_set_max_isa(simdax_isa(i));
            break;
        }
    const uint8_t run = in.u8();
    c.bad_exec = run % 8 == 1 ? 1 : (run % 8 == 2 ? 2 : 0);
    c.bad_pick = in.u8();
    c.value_mode = (run >> 3) % 6;
    if (c.op == SIMDAX_OPERATOR_ATTENTION_SOFTMAX)
        decode_attention(in, c);
    else
        decode_norm(in, c);
    for (Operand& o : c.o) o.finish();
    static const bool print = std::getenv("SIMDAX_FUZZ_PRINT") != nullptr;
    if (print) std::fprintf(stderr, "case: %s\n", c.describe().c_str());

    simdax_operator* op = reinterpret_cast<simdax_operator*>(uintptr_t(1));
    simdax_status s;
    const Operand* o = c.o;
    if (c.op == SIMDAX_OPERATOR_ATTENTION_SOFTMAX) {
        const simdax_attention_softmax_desc d{o[0].ptr(),
                                              o[2].ptr(),
                                              o[3].ptr(),
                                              o[4].ptr(),
                                              c.in_place ? o[0].ptr() : o[1].ptr(),
                                              o[5].ptr(),
                                              c.scale,
                                              c.softcap,
                                              simdax_causal(c.causal),
                                              c.window,
                                              c.log};
        const simdax_operator_desc od{simdax_operator_type(c.op), &d};
        s = simdax_operator_create(&od, &op);
    } else if (c.op == SIMDAX_OPERATOR_LAYER_NORMALIZATION) {
        const simdax_layer_normalization_desc d{o[0].ptr(), o[2].ptr(), o[3].ptr(), o[1].ptr(),
                                                c.axis,     c.epsilon,  c.stash,    o[4].ptr(),
                                                o[5].ptr(), o[6].ptr(), o[7].ptr(), o[8].ptr()};
        const simdax_operator_desc od{simdax_operator_type(c.op), &d};
        s = simdax_operator_create(&od, &op);
    } else {
        const simdax_rms_normalization_desc d{o[0].ptr(), o[2].ptr(), o[1].ptr(), c.axis,    c.epsilon,
                                              c.stash,    o[4].ptr(), o[5].ptr(), o[6].ptr()};
        const simdax_operator_desc od{simdax_operator_type(c.op), &d};
        s = simdax_operator_create(&od, &op);
    }
    if (s != SIMDAX_OK) {
        if (s < SIMDAX_ERROR_NULL_POINTER || s > SIMDAX_ERROR_OUT_OF_MEMORY)
            tfail(c, "create returned an unknown status");
        if (op != nullptr) tfail(c, "a rejected create left *op non-NULL");
        if (simdax_last_error()[0] == '\0') tfail(c, "a rejected create left no message");
        if (c.valid)
            tfail(c, std::string("create rejected a well-formed descriptor: ") + simdax_status_name(s) +
                         ": " + simdax_last_error());
        return 0;
    }
    if (c.must_reject) {
        simdax_operator_destroy(op);
        tfail(c,
              "create accepted a descriptor the docs refuse (mutation " + std::to_string(c.mutation) + ")");
    }
    if (!op) tfail(c, "create returned OK and a NULL operator");
    if (simdax_last_error()[0] != '\0') tfail(c, "a successful create left a message");
    if (simdax_operator_get_type(op) != c.op) tfail(c, "simdax_operator_get_type differs");
    if (c.op == SIMDAX_OPERATOR_ATTENTION_SOFTMAX)
        run_attention(in, c, op);
    else
        run_norm_case(in, c, op);
    simdax_operator_destroy(op);
    return 0;
}

}  // namespace fuzz
