// libFuzzer target (issue #6): arbitrary descriptors and parameters through
// the C API.
//
// The input bytes are decoded into an operator type (invalid values too), a
// dtype (invalid too), an ISA cap, ranks 0-9, sizes (0, negative, huge),
// strides (NULL or explicit: negative, zero, overlapping, huge), axes (count
// 0-9, repeated, out of range), activation type and parameters (NaN, inf,
// raw bits), epsilon (NaN, inf, negative) and its placement (the _EX
// descriptor), normalize_variance, Scale/Bias shapes, NULL pointers in the
// descriptor, and the element values. Then:
//  - create; a rejected descriptor must leave *op NULL and a non-empty
//    simdax_last_error(); an accepted one an empty message;
//  - an independent check of the docs/spec.md rules: a descriptor that breaks one
//    must be rejected, a plainly valid one must be accepted;
//  - if accepted and small (<= 4096 elements, <= 64K elements of span per
//    operand), buffers are laid out from the accepted descriptor (negative
//    strides: base inside the buffer) against guard pages, executed —
//    optionally first with bindings that must be refused (NULL, overlapping
//    the input), which must write nothing — and every output element is
//    checked against the float64 reference with the docs/spec.md pass rule
//    (tests/support), plus canaries for stray writes. Element-wise operators
//    run in place sometimes.
// AttentionSoftmax, LayerNormalization and RMSNormalization: fuzz_transformer.cpp,
// for inputs whose first byte is in [0x70, 0x90) or [0xD0, 0xF0).
// Any violation prints the decoded case and aborts. SIMDAX_FUZZ_PRINT=1
// prints every decoded case and, for executed ones, every element (input,
// reference, output). Seeds: tests/fuzz/corpus (finding_* reproduce the
// findings fixed so far).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_case.hpp"
#include "simdax/simdax.h"
#include "spec_rules.hpp"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"
#include "support/reference.hpp"
#include "support/tensor_buffer.hpp"

namespace {

using namespace sxt;
using namespace fuzz;

// ---- running it --------------------------------------------------------------

std::string list(const int64_t* v, uint32_t n) {
    std::ostringstream s;
    s << "[";
    for (uint32_t i = 0; i < n && i < kSlots; ++i) s << (i ? "," : "") << v[i];
    s << "]";
    return s.str();
}

std::string describe_case(const Case& c) {
    std::ostringstream s;
    s.precision(9);
    s << "op " << c.op_raw << " isa cap " << c.isa << " active " << simdax_isa_name(simdax_active_isa());
    const char* names[4] = {"input", "output", "scale", "bias"};
    for (int k = 0; k < 4; ++k) {
        if (!c.present[k]) {
            s << "\n  " << names[k] << ": NULL";
            continue;
        }
        s << "\n  " << names[k] << ": dtype " << int(c.t[k].dtype) << " rank " << c.t[k].rank << " sizes "
          << (c.t[k].sizes ? list(c.t[k].sizes, c.t[k].rank) : "NULL") << " strides "
          << (c.t[k].strides ? list(c.t[k].strides, c.t[k].rank) : "NULL");
    }
    s << "\n  axes (" << c.axis_count << ")" << (c.null_axes ? " NULL" : "") << " [";
    for (uint32_t i = 0; i < c.axis_count && i < kSlots; ++i) s << (i ? "," : "") << c.axes[i];
    s << "] normalize_variance " << c.normalize_variance << " epsilon " << c.epsilon << " placement "
      << c.placement_raw << "\n  activation " << (c.has_activation ? "on" : "off") << " type "
      << int(c.act.type) << " alpha " << c.act.alpha << " beta " << c.act.beta << " gamma " << c.act.gamma
      << "\n  hard_sigmoid alpha " << c.hs_alpha << " beta " << c.hs_beta << "\n  null desc/inner/op "
      << c.null_desc << c.null_inner << c.null_op_out << " one_shot " << c.one_shot << " in_place "
      << c.in_place << " bad_bindings_first " << c.bad_bindings_first << " value_mode " << c.value_mode;
    return s.str();
}

[[noreturn]] void fail(const Case& c, const std::string& what) {
    std::fprintf(stderr, "\n=== simdax fuzz failure: %s\n%s\n", what.c_str(), describe_case(c).c_str());
    std::fflush(stderr);
    std::abort();
}

// Element values, from the remaining input bytes.
double element_value(Bytes& in, int mode, simdax_dtype dt, int64_t i) {
    static const double special[] = {0.0,     -0.0, INFINITY, -INFINITY, NAN,  3e38,  -3e38,  1e-40, -1e-45,
                                     65504.0, 1.0,  -1.0,     1e-8,      6e-8, 1e308, -1e308, 5e-324};
    const uint16_t b = in.left() ? in.u16() : uint16_t(i * 40503u);
    switch (mode) {
        case 0: return (int(b) - 32768) / 2048.0;  // [-16, 16)
        case 1: return b % 4 ? (int(b % 512) - 256) / 16.0 : special[(b >> 2) % 17];
        case 2: return 1e4 + (int(b) - 32768) / 8192.0;  // large mean, small spread
        case 3: {                                        // raw bits of the dtype
            // Raw bits may spell the output canary (a signalling NaN), which
            // an operator may pass through unchanged (CELU/ReLU of a NaN):
            // the output would then read as "never written". Such an input
            // gets one payload bit flipped; every other NaN is kept.
            unsigned char canary[8] = {};
            canary_bytes(dt, canary);
            uint64_t canary_bits = 0;
            std::memcpy(&canary_bits, canary, simdax_dtype_size(dt));
            uint64_t bits = b;
            if (dt == SIMDAX_DTYPE_FLOAT32) {
                bits |= uint64_t(in.u16()) << 16;
                float f;
                uint32_t u = uint32_t(bits);
                std::memcpy(&f, &u, 4);
                return double(f);
            }
            if (dt == SIMDAX_DTYPE_FLOAT64) {
                bits |= uint64_t(in.u16()) << 16 | uint64_t(in.u32()) << 32;
                if (bits == canary_bits) bits ^= 1;
                double d;
                std::memcpy(&d, &bits, 8);
                return d;
            }
            const uint16_t h = b == canary_bits ? uint16_t(b ^ 1) : b;
            return dt == SIMDAX_DTYPE_FLOAT16 ? f16_bits_to_f64(h) : bf16_bits_to_f64(h);
        }
        case 4: return 2.5;                                             // constant group
        case 5: return b % 2 ? 3e38 : -3e38;                            // huge magnitudes
        default: return b % 3 ? -INFINITY : (int(b) - 32768) / 4096.0;  // -inf heavy
    }
}

std::vector<int64_t> vec(const simdax_tensor_desc& t) {
    return std::vector<int64_t>(t.sizes, t.sizes + t.rank);
}
std::vector<int64_t> svec(const simdax_tensor_desc& t) {
    return t.strides ? std::vector<int64_t>(t.strides, t.strides + t.rank) : std::vector<int64_t>{};
}

OpSpec spec_of(const Case& c) {
    OpSpec s;
    s.op = is_mvn(c) ? SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION : c.op;
    s.axes.assign(c.axes, c.axes + c.axis_count);
    s.normalize_variance = c.normalize_variance != 0;
    s.epsilon = c.epsilon;
    if (c.op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX)
        s.epsilon_placement = simdax_epsilon_placement(c.placement_raw);
    s.has_activation = is_mvn(c) ? c.has_activation : c.op == SIMDAX_OPERATOR_ACTIVATION;
    s.activation = c.act;
    s.alpha = c.hs_alpha;
    s.beta = c.hs_beta;
    return s;
}

// Byte ranges [lo, hi) an operand spans relative to its base.
void byte_span(const simdax_tensor_desc& t, int64_t* lo, int64_t* hi) {
    int64_t l, h;
    span_of(t, &l, &h);
    const int64_t e = int64_t(simdax_dtype_size(t.dtype));
    *lo = l * e;
    *hi = (h + 1) * e;
}

void run_accepted(const Case& c, const simdax_operator* op, Bytes& in) {
    const simdax_dtype dt = c.t[0].dtype;
    const int64_t n = count_of(c.t[0]);
    for (int k = 0; k < 4; ++k) {
        if (!tensor_used(c, k)) continue;
        int64_t lo, hi;
        if (!span_of(c.t[k], &lo, &hi)) return;  // too big for this harness
    }
    if (n > kMaxElements) return;
    if (n == 0) {
        // Empty: NULL buffers are fine, real ones are not touched.
        const simdax_bindings none{nullptr, nullptr, nullptr, nullptr};
        if (simdax_operator_execute(op, &none) != SIMDAX_OK)
            fail(c, std::string("empty tensor: execute refused NULL buffers: ") + simdax_last_error());
        // Real buffers only where this harness's packed strides (products
        // of the non-zero sizes) fit in 64 bits.
        for (int k = 0; k < 2; ++k) {
            int64_t prod = 1;
            for (uint32_t d = 0; d < c.t[k].rank; ++d)
                if (__builtin_mul_overflow(prod, std::max<int64_t>(c.t[k].sizes[d], 1), &prod)) return;
        }
        TensorBuffer x(dt, vec(c.t[0]), svec(c.t[0]), Role::Input, 2, 2);
        TensorBuffer y(dt, vec(c.t[1]), svec(c.t[1]), Role::Output, 2, 2);
        x.fill([](int64_t) { return 1.0; });
        std::vector<unsigned char> sc(64), bi(64);
        const simdax_bindings b{x.data(), sc.data(), bi.data(), y.data()};
        if (simdax_operator_execute(op, &b) != SIMDAX_OK)
            fail(c, std::string("empty tensor: execute failed: ") + simdax_last_error());
        if (y.touched_gaps() != 0 || x.input_modified()) fail(c, "empty tensor: memory written");
        return;
    }
    const OpSpec spec = spec_of(c);
    Operands io{
        TensorBuffer(dt, vec(c.t[0]), svec(c.t[0]), Role::Input, c.pad[0][0], c.pad[0][1], c.guard_front[0]),
        nullptr, nullptr,
        TensorBuffer(dt, vec(c.t[1]), svec(c.t[1]), Role::Output, c.pad[1][0], c.pad[1][1],
                     c.guard_front[1])};
    io.x.fill([&](int64_t i) { return element_value(in, c.value_mode, dt, i); });
    std::unique_ptr<TensorBuffer>* sb[2] = {&io.scale, &io.bias};
    for (int k = 2; k < 4; ++k) {
        if (!tensor_used(c, k)) continue;
        *sb[k - 2] = std::make_unique<TensorBuffer>(dt, vec(c.t[k]), svec(c.t[k]), Role::Input, c.pad[k][0],
                                                    c.pad[k][1], c.guard_front[k]);
        (*sb[k - 2])->fill([&](int64_t i) { return element_value(in, c.value_mode % 2, dt, i); });
    }
    const void* scale = io.scale ? io.scale->data() : nullptr;
    const void* bias = io.bias ? io.bias->data() : nullptr;

    // Bindings the library must refuse, writing nothing.
    if (c.bad_bindings_first && n > 0) {
        simdax_bindings b{io.x.data(), scale, bias, io.y.data()};
        bool expect_refusal = true;
        switch (c.bad_kind % 5) {
            case 0: b.input = nullptr; break;
            case 1: b.output = nullptr; break;
            case 2:
                if (io.scale)
                    b.scale = nullptr;
                else if (io.bias)
                    b.bias = nullptr;
                else
                    b.input = nullptr;
                break;
            default: {
                // The output placed inside the input's range (same buffer):
                // refused unless it is the exact in-place alias.
                int64_t xlo, xhi, ylo, yhi;
                byte_span(c.t[0], &xlo, &xhi);
                byte_span(c.t[1], &ylo, &yhi);
                const int64_t e = int64_t(simdax_dtype_size(dt));
                const int64_t shift = c.overlap_shift * e;
                // Output base = input base + shift: overlap iff the byte
                // ranges [xlo, xhi) and [shift + ylo, shift + yhi) meet.
                const bool meet = shift + ylo < xhi && xlo < shift + yhi;
                if (!meet) return;  // nothing this harness can place safely
                if (!shares_an_element(c.t[0], c.t[1], c.overlap_shift)) return;  // interleaved
                const bool alias = shift == 0 && runs_in_place(c) && strides_of(c.t[0]) == strides_of(c.t[1]);
                if (alias) return;  // legal in place: covered elsewhere
                b.output = static_cast<char*>(io.x.data()) + shift;
                expect_refusal = true;
                break;
            }
        }
        const simdax_status s = simdax_operator_execute(op, &b);
        if (expect_refusal && s == SIMDAX_OK) fail(c, "execute accepted bad bindings");
        if (s != SIMDAX_OK && simdax_last_error()[0] == '\0')
            fail(c, "execute refused bindings without a message");
        if (io.y.unwritten() != n || io.y.touched_gaps() != 0 || io.x.input_modified())
            fail(c, "a refused execute wrote memory");
    }

    if (c.in_place && runs_in_place(c) && strides_of(c.t[0]) == strides_of(c.t[1])) {
        const std::vector<double> ref = reference(spec, io);
        const simdax_bindings b{io.x.data(), nullptr, nullptr, io.x.data()};
        const simdax_status s = simdax_operator_execute(op, &b);
        if (s != SIMDAX_OK) fail(c, std::string("in-place execute refused: ") + simdax_last_error());
        const std::vector<double> got = io.x.read();
        const Tolerance tol = tolerance_for(c.op, dt);
        for (size_t i = 0; i < ref.size(); ++i)
            if (!passes(ref[i], got[i], dt, tol)) {
                std::ostringstream m;
                m.precision(17);
                m << "in-place element " << i << " ref " << ref[i] << " got " << got[i];
                fail(c, m.str());
            }
        return;
    }

    const simdax_bindings b{io.x.data(), scale, bias, io.y.data()};
    simdax_status s;
    if (c.op == SIMDAX_OPERATOR_SOFTMAX && c.one_shot) {
        const simdax_softmax_desc d{&c.t[0], &c.t[1], c.axis_count, c.axes};
        s = simdax_softmax(&d, io.x.data(), io.y.data());
    } else {
        s = simdax_operator_execute(op, &b);
    }
    if (s != SIMDAX_OK) fail(c, std::string("execute refused good bindings: ") + simdax_last_error());
    const CheckResult r = check_output(spec, io);
    if (std::getenv("SIMDAX_FUZZ_PRINT")) {  // every element, to reproduce
        const std::vector<double> xs = io.x.read(), ref = reference(spec, io), got = io.y.read();
        for (size_t i = 0; i < xs.size(); ++i)
            std::fprintf(stderr, "  [%zu] x %.17g  ref %.17g  got %.17g\n", i, xs[i], ref[i], got[i]);
        for (const TensorBuffer* t : {io.scale.get(), io.bias.get()})
            if (t) {
                std::fprintf(stderr, "  %s (packed):", t == io.scale.get() ? "scale" : "bias");
                for (double v : t->read()) std::fprintf(stderr, " %.9g", v);
                std::fprintf(stderr, "\n");
            }
    }
    if (!r.ok) fail(c, "output differs from the reference\n" + r.report);
}

}  // namespace

namespace fuzz {
// fuzz_transformer.cpp: AttentionSoftmax, LayerNormalization, RMSNormalization.
bool transformer_selected(const uint8_t* data, size_t size);
int fuzz_transformer(const uint8_t* data, size_t size);
}  // namespace fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // A quarter of the inputs (first byte in [0x70, 0x90) or [0xD0, 0xF0))
    // go to the transformer operators' path.
    if (fuzz::transformer_selected(data, size)) return fuzz::fuzz_transformer(data, size);
    Bytes in(data, size);
    const Case c = decode(data, size, in);
    // The best ISA this machine runs under the input's cap, so that an input
    // alone decides its ISA (not the cap an earlier input left behind).
    for (int i = c.isa; i >= 0; --i)
        if (simdax_isa_supported(simdax_isa(i))) {
            simdax_set_max_isa(simdax_isa(i));
            break;
        }
    static const bool print = std::getenv("SIMDAX_FUZZ_PRINT") != nullptr;  // to reproduce
    if (print) std::fprintf(stderr, "case: %s\n", describe_case(c).c_str());
    // The descriptor as the library sees it.
    simdax_axes_op_desc axes_desc{c.present[0] ? &c.t[0] : nullptr, c.present[1] ? &c.t[1] : nullptr,
                                  c.axis_count, c.null_axes ? nullptr : c.axes};
    simdax_mvn_desc mvn{axes_desc.input,
                        c.present[2] ? &c.t[2] : nullptr,
                        c.present[3] ? &c.t[3] : nullptr,
                        axes_desc.output,
                        c.axis_count,
                        axes_desc.axes,
                        c.normalize_variance,
                        c.epsilon,
                        c.has_activation ? &c.act : nullptr};
    const simdax_mvn_ex_desc mvn_ex{mvn, simdax_epsilon_placement(c.placement_raw)};
    simdax_hard_sigmoid_desc hs{axes_desc.input, axes_desc.output, c.hs_alpha, c.hs_beta};
    simdax_activation_op_desc act{axes_desc.input, axes_desc.output, c.act};
    simdax_operator_desc od{c.op, nullptr};
    switch (c.op_raw) {
        case 4: od.desc = &mvn; break;
        case 5: od.desc = &hs; break;
        case 6: od.desc = &act; break;
        case 7: od.desc = &mvn_ex; break;
        default: od.desc = &axes_desc; break;  // also the invalid types: never read
    }
    if (c.null_inner) od.desc = nullptr;

    simdax_operator* op = reinterpret_cast<simdax_operator*>(uintptr_t(1));
    const simdax_status s =
        simdax_operator_create(c.null_desc ? nullptr : &od, c.null_op_out ? nullptr : &op);
    std::string why;
    const Verdict v = judge(c, &why);
    if (s != SIMDAX_OK) {
        if (s < SIMDAX_ERROR_NULL_POINTER || s > SIMDAX_ERROR_OUT_OF_MEMORY)
            fail(c, "create returned an unknown status");
        if (!c.null_op_out && op != nullptr) fail(c, "a rejected create left *op non-NULL");
        if (simdax_last_error()[0] == '\0') fail(c, "a rejected create left no message");
        if (v == Verdict::must_accept)
            fail(c, std::string("create rejected a valid descriptor: ") + simdax_status_name(s) + ": " +
                        simdax_last_error());
        return 0;
    }
    if (v == Verdict::must_reject) {
        simdax_operator_destroy(op);
        fail(c, "create accepted a descriptor that breaks a rule: " + why);
    }
    if (!op) fail(c, "create returned OK and a NULL operator");
    if (simdax_last_error()[0] != '\0') fail(c, "a successful create left a message");
    if (simdax_operator_get_type(op) != c.op) fail(c, "simdax_operator_get_type differs");
    run_accepted(c, op, in);
    simdax_operator_destroy(op);
    return 0;
}
