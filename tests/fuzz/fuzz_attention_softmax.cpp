// The transformer fuzz path of AttentionSoftmax (fuzz_transformer.cpp):
// the descriptor decoded, well-formed or with one mutation (the refusals
// docs/attention_softmax.md lists must be refused), and an accepted operator
// run (execute_bound, in place or the one-shot call) against the float64
// reference of tests/support (attention_reference).
#include <algorithm>
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
#include "support/attention_reference.hpp"
#include "support/dtype.hpp"
#include "support/reference.hpp"
#include "support/tensor_buffer.hpp"
#include "transformer_case.hpp"

namespace fuzz::transformer {

using namespace sxt;

namespace {

float decode_param(Bytes& in, float dflt, bool finite_only, bool nonneg) {
    const uint8_t s = in.u8();
    float v;
    if (s < 110)
        v = dflt;
    else if (s < 200)
        v = float(int(s) - 150) / 8.0f;
    else {
        static const float special[] = {0.0f,  -0.0f,  1e-30f,   1e-45f, 1e30f,
                                        3e38f, 0.125f, 65504.0f, 1e-3f,  100.0f};
        v = special[s % 10];
    }
    if (nonneg) v = std::fabs(v);
    if (finite_only && !std::isfinite(v)) v = dflt;
    return v;
}

// A size for a broadcast operand: the input's, or 1.
std::vector<int64_t> bcast(Bytes& in, const std::vector<int64_t>& s) {
    const uint8_t b = in.u8();
    std::vector<int64_t> out = s;
    for (size_t d = 0; d < s.size(); ++d)
        if (b >> (d % 8) & 1) out[d] = 1;
    return out;
}

}  // namespace

void decode_attention(Bytes& in, TCase& c) {
    const simdax_dtype dt = data_dtype(in.u8());
    const size_t rank = 2 + in.u8() % 4;  // 2..5
    std::vector<int64_t> s(rank);
    for (size_t d = 0; d < rank; ++d) s[d] = decode_size(in, d + 1 == rank);
    const uint8_t flags = in.u8(), flags2 = in.u8();
    Operand& x = c.o[0];
    x.present = true, x.dt = dt, x.sizes = s, x.strides = decode_strides(in, s, true);
    c.in_place = (flags & 1) && !std::count(x.strides.begin(), x.strides.end(), 0);
    Operand& y = c.o[1];
    y.present = true, y.dt = dt, y.sizes = s;
    y.strides = c.in_place ? x.strides : decode_strides(in, s, false);
    static const simdax_dtype mdt[] = {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16,
                                       SIMDAX_DTYPE_UINT8};
    if (flags & 2) {
        Operand& m = c.o[2];
        m.present = true, m.dt = mdt[in.u8() % 4], m.sizes = bcast(in, s);
        m.strides = decode_strides(in, m.sizes, true);
    }
    std::vector<int64_t> row = s;
    row[rank - 1] = 1;
    for (int k = 3; k <= 4; ++k)
        if (flags & (4 << (k - 3))) {
            Operand& p = c.o[k];
            p.present = true, p.dt = mdt[in.u8() % 3], p.sizes = bcast(in, row);
            p.strides = decode_strides(in, p.sizes, true);
        }
    if (flags & 16) {
        Operand& l = c.o[5];
        l.present = true, l.dt = SIMDAX_DTYPE_FLOAT32, l.sizes = row;
        l.strides = decode_strides(in, row, false);
    }
    c.scale = decode_param(in, 1.0f, true, false);
    c.softcap = (flags2 & 3) == 0 ? decode_param(in, 30.0f, true, true) : 0.0f;
    c.causal = (flags2 >> 2) % 3;
    c.window = c.causal && (flags2 & 32) ? 1 + in.u8() % 12 : 0;
    if (c.causal && (flags2 & 64) && (flags2 & 32)) c.window = 1u << (in.u8() % 32);
    c.log = flags >> 5 & 1;
    c.one_shot = (flags >> 6 & 1) && !c.in_place;
    c.mask_mode = in.u8() % 4;
    if (c.valid) return;

    // One mutation; the ones docs/attention_softmax.md lists as refusals are
    // must_reject (where the mutation surely changed something).
    const uint8_t m = in.u8();
    c.mutation = m % 20;
    c.in_place = false;  // the output descriptor is the one mutated
    const uint8_t v = in.u8();
    // Operand k, if present and the new size differs, gets `size` in
    // dimension d (its strides, sized for the old shape, are dropped): a
    // shape create must refuse.
    const auto resize_dim = [&c](int k, size_t d, int64_t size, bool differs) {
        if (!c.o[k].present || !differs) return;
        c.o[k].sizes[d] = size;
        c.o[k].strides.clear();
        c.must_reject = true;
    };
    switch (c.mutation) {
        case 0:
            x.dt = v % 2 ? SIMDAX_DTYPE_FLOAT64 : SIMDAX_DTYPE_UINT8, y.dt = x.dt, c.must_reject = true;
            break;
        case 1:
            y.dt = data_dtype(uint8_t(int(dt) % 3));  // float32 -> float16 -> bfloat16 -> float32
            c.must_reject = true;
            break;
        case 2:
            x.sizes.resize(1), y.sizes.resize(1);
            if (!x.strides.empty()) x.strides.resize(1);
            if (!y.strides.empty()) y.strides.resize(1);
            for (int k = 2; k < 6; ++k) c.o[k].present = false;
            c.must_reject = true;
            break;
        case 3:
            if (c.o[2].present) {
                c.o[2].dt = v % 2 ? SIMDAX_DTYPE_FLOAT64 : simdax_dtype(77);
                c.must_reject = true;
            }
            break;
        case 4:  // a mask size neither the input's nor 1
            resize_dim(2, v % rank, s[v % rank] + 2, true);
            break;
        case 5:
            if (c.o[2].present) {  // mask rank differs
                c.o[2].sizes.insert(c.o[2].sizes.begin(), 1);
                c.o[2].strides.clear();
                c.must_reject = rank < 8;
            }
            break;
        case 6: resize_dim(3, rank - 1, s[rank - 1], s[rank - 1] != 1); break;
        case 7:
            if (c.o[4].present) c.o[4].dt = SIMDAX_DTYPE_UINT8, c.must_reject = true;
            break;
        case 8:
            if (c.o[5].present)
                c.o[5].dt = v % 2 ? SIMDAX_DTYPE_FLOAT16 : SIMDAX_DTYPE_BFLOAT16, c.must_reject = true;
            break;
        case 9: resize_dim(5, rank - 1, s[rank - 1], s[rank - 1] != 1); break;
        case 10: c.scale = hostile_param(in), c.must_reject = !std::isfinite(c.scale); break;
        case 11: {
            c.softcap = hostile_param(in);
            c.must_reject = !std::isfinite(c.softcap) || c.softcap < 0;
            break;
        }
        case 12: c.causal = v % 2 ? 3 : -1, c.must_reject = true; break;
        case 13: c.causal = 0, c.window = 1 + v, c.must_reject = true; break;
        case 14: c.log = v % 2 ? 2 : -1; break;  // not documented either way
        case 15:  // an output with a zero stride (only where it aliases elements)
            if (s[v % rank] > 1 && count(s) > 0) {
                if (y.strides.empty()) y.strides = packed_strides(s);
                y.strides[v % rank] = 0;
                c.in_place = false;
                c.must_reject = true;
            }
            break;
        case 16: {  // huge strides
            Operand& t = c.o[v % 6];
            if (t.present) {
                if (t.strides.empty()) t.strides = packed_strides(t.sizes);
                t.strides[in.u8() % t.strides.size()] = kHugeStrides[in.u8() % 5];
            }
            break;
        }
        case 17:  // negative / huge sizes
            x.sizes[v % rank] =
                v % 3 == 0 ? -1 : (v % 3 == 1 ? std::numeric_limits<int64_t>::max() : int64_t(1) << 40);
            c.must_reject = true;
            break;
        case 18:  // NULL input or output
            if (v % 2)
                x.present = false;
            else
                y.present = false;
            c.must_reject = true;
            break;
        default:  // rank 9 (beyond SIMDAX_MAX_RANK)
            x.sizes.resize(9, 1), y.sizes = x.sizes;
            x.strides.clear(), y.strides.clear();
            for (int k = 2; k < 6; ++k) c.o[k].present = false;
            c.must_reject = true;
            break;
    }
}

void run_attention(Bytes& in, TCase& c, const simdax_operator* op) {
    const Operand& xo = c.o[0];
    const std::vector<int64_t>& s = xo.sizes;
    for (int k = 0; k < 6; ++k)
        if (!span_ok(c.o[k])) return;
    const int64_t n = count(s);
    if (n > kMaxElements) return;
    const size_t r = s.size();
    TensorBuffer x(xo.dt, s, xo.strides, Role::Input, in.u8() % 3, in.u8() % 3, in.u8() & 1);
    x.fill([&](int64_t i) { return value(in, c.value_mode, i); });
    std::unique_ptr<TensorBuffer> y, t[6];
    if (!c.in_place)
        y = std::make_unique<TensorBuffer>(c.o[1].dt, c.o[1].sizes, c.o[1].strides, Role::Output, 1, 1);
    for (int k = 2; k < 6; ++k)
        if (c.o[k].present)
            t[k] = std::make_unique<TensorBuffer>(c.o[k].dt, c.o[k].sizes, c.o[k].strides,
                                                  k == 5 ? Role::Output : Role::Input, 1, 1, in.u8() & 1);
    const int64_t skv = s[r - 1];
    if (t[2]) {
        const bool b = c.o[2].dt == SIMDAX_DTYPE_UINT8;
        const int mm = c.mask_mode;
        t[2]->fill([&](int64_t i) {
            const uint8_t u = in.u8();
            if (b) {  // mode 1: whole rows masked; 2: all masked
                if (mm == 2) return 0.0;
                if (mm == 1) return (i / std::max<int64_t>(skv, 1)) % 2 ? 0.0 : 1.0;
                return u % 4 ? 1.0 : 0.0;
            }
            if (mm == 2) return -double(INFINITY);
            if (mm == 1) return (i / std::max<int64_t>(skv, 1)) % 2 ? -double(INFINITY) : (u - 128) / 32.0;
            if (mm == 3) return u % 8 == 0 ? double(NAN) : (u % 8 == 1 ? double(INFINITY) : -1e30 * (u % 3));
            return u % 4 ? (u - 128) / 32.0 : -double(INFINITY);
        });
    }
    if (t[3])
        t[3]->fill([&](int64_t) {
            const uint8_t u = in.u8();
            return u < 200 ? (u - 100) / 400.0 : (u < 250 ? 8.0 * (u - 225) : double(NAN));
        });
    // Sinks: no +inf (the library gives the limit, -inf log-probabilities and
    // log_sum_exp +inf; tests/support's reference NaN: left unspecified by
    // docs/attention_softmax.md, see the fuzz report).
    if (t[4])
        t[4]->fill([&](int64_t) {
            const uint8_t u = in.u8();
            return u < 200 ? (u - 100) / 16.0 : (u % 3 ? -double(INFINITY) : (u % 2 ? 80.0 : double(NAN)));
        });
    void* out = c.in_place ? x.data() : y->data();

    auto bind = [&](simdax_buffer_binding* bb) {
        std::memset(bb, 0, sizeof(simdax_buffer_binding) * SIMDAX_OPERAND_COUNT);
        bb[SIMDAX_OPERAND_INPUT].data = x.data();
        bb[SIMDAX_OPERAND_OUTPUT].data = out;
        static const simdax_operand slot[6] = {SIMDAX_OPERAND_INPUT, SIMDAX_OPERAND_OUTPUT,
                                               SIMDAX_OPERAND_MASK,  SIMDAX_OPERAND_ALIBI_SLOPES,
                                               SIMDAX_OPERAND_SINKS, SIMDAX_OPERAND_LOG_SUM_EXP};
        for (int k = 2; k < 6; ++k)
            if (t[k]) bb[slot[k]].data = t[k]->data();
    };
    auto nothing_written = [&](const char* what) {
        if (!c.in_place && (y->unwritten() != n || y->touched_gaps() != 0))
            tfail(c, std::string(what) + ": output written");
        if (x.input_modified()) tfail(c, std::string(what) + ": input written");
        if (t[5] && (t[5]->unwritten() != t[5]->count() || t[5]->touched_gaps() != 0))
            tfail(c, std::string(what) + ": log_sum_exp written");
    };
    simdax_buffer_binding bb[SIMDAX_OPERAND_COUNT];
    const simdax_operand_bindings b{
        SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS), SIMDAX_OPERAND_COUNT,
        bb};
    if (c.bad_exec && n > 0) {
        bind(bb);
        break_bindings(c, bb, xo.dt);
        const simdax_status st = simdax_operator_execute_bound(op, &b, nullptr);
        if (st == SIMDAX_OK) tfail(c, "execute accepted an unbound operand / a too short buffer");
        if (simdax_last_error()[0] == '\0') tfail(c, "execute refused without a message");
        nothing_written("a refused execute");
    }

    // The reference, from the inputs as filled (before an in-place run).
    const StridedView xv = x.view();
    StridedView mv, sv, kv;
    AttnRefArgs a;
    a.x = &xv;
    if (t[2]) mv = t[2]->view(), a.mask = &mv, a.mask_bool = c.o[2].dt == SIMDAX_DTYPE_UINT8;
    if (t[3]) sv = t[3]->view(), a.slopes = &sv;
    if (t[4]) kv = t[4]->view(), a.sinks = &kv;
    a.scale = c.scale, a.softcap = c.softcap, a.causal = simdax_causal(c.causal), a.window = c.window;
    a.log = c.log != 0;
    const AttnRef ref = n > 0 ? ref_attention_softmax(a) : AttnRef{};

    if (std::getenv("SIMDAX_FUZZ_PRINT")) {
        std::fprintf(stderr, "  input (packed):");
        for (double v : x.read()) std::fprintf(stderr, " %.9g", v);
        std::fprintf(stderr, "\n");
    }
    // Under softcap each logit carries tanh's error, about 2 ulp of |z|
    // (docs/attention_softmax.md): beyond |z| = 64 that exceeds Softmax's
    // tolerance, so such cases are checked for everything but the values.
    // (The reference rounds every other step to float32 as the library does.)
    double zmax = 0;
    for (double v : x.read())
        if (std::isfinite(v))
            zmax = std::max(zmax, std::min(std::fabs(v * double(c.scale)), double(c.softcap)));
    const bool check_values = c.softcap == 0 || zmax <= 64;
    simdax_status st;
    if (c.one_shot) {
        simdax_tensor_desc d[6];
        for (int k = 0; k < 6; ++k) d[k] = c.o[k].desc;
        const simdax_attention_softmax_desc ad{&d[0],
                                               t[2] ? &d[2] : nullptr,
                                               t[3] ? &d[3] : nullptr,
                                               t[4] ? &d[4] : nullptr,
                                               &d[1],
                                               t[5] ? &d[5] : nullptr,
                                               c.scale,
                                               c.softcap,
                                               simdax_causal(c.causal),
                                               c.window,
                                               c.log};
        st = simdax_attention_softmax(&ad, x.data(), t[2] ? t[2]->data() : nullptr,
                                      t[3] ? t[3]->data() : nullptr, t[4] ? t[4]->data() : nullptr, out,
                                      t[5] ? t[5]->data() : nullptr);
    } else {
        bind(bb);
        st = simdax_operator_execute_bound(op, &b, nullptr);
    }
    if (st != SIMDAX_OK) tfail(c, std::string("execute refused good bindings: ") + simdax_last_error());
    if (n == 0) {
        nothing_written("empty tensor");
        return;
    }
    const std::vector<double> got = c.in_place ? x.read() : y->read();
    const simdax_dtype dt = xo.dt;
    const Tolerance tol = tolerance_for(c.log ? SIMDAX_OPERATOR_LOG_SOFTMAX : SIMDAX_OPERATOR_SOFTMAX, dt);
    static const bool print = std::getenv("SIMDAX_FUZZ_PRINT") != nullptr;
    if (print) {
        for (size_t i = 0; i < got.size(); ++i)
            std::fprintf(stderr, "  y[%zu] ref %.17g got %.17g\n", i, ref.y[i], got[i]);
        static const char* nm[6] = {"", "", "mask", "alibi_slopes", "sinks", ""};
        for (int k = 2; k < 5; ++k)
            if (t[k]) {
                std::fprintf(stderr, "  %s (packed):", nm[k]);
                for (double v : t[k]->read()) std::fprintf(stderr, " %.9g", v);
                std::fprintf(stderr, "\n");
            }
    }
    for (size_t i = 0; i < got.size() && check_values; ++i)
        if (!passes(ref.y[i], got[i], dt, tol)) {
            std::ostringstream m;
            m.precision(17);
            m << "output element " << i << " ref " << ref.y[i] << " got " << got[i];
            tfail(c, m.str());
        }
    if (!c.in_place) {
        if (y->touched_gaps()) tfail(c, "output: gap elements written");
        if (x.input_modified()) tfail(c, "input modified");
    }
    for (int k = 2; k < 5; ++k)
        if (t[k] && t[k]->input_modified()) tfail(c, "an input operand was modified");
    if (t[5]) {
        const std::vector<double> l = t[5]->read();
        const Tolerance lt = tolerance_for(SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_DTYPE_FLOAT32);
        for (size_t i = 0; i < l.size(); ++i) {
            if (print) std::fprintf(stderr, "  lse[%zu] ref %.17g got %.17g\n", i, ref.lse[i], l[i]);
            if (check_values && !passes(ref.lse[i], l[i], SIMDAX_DTYPE_FLOAT32, lt)) {
                std::ostringstream m;
                m.precision(17);
                m << "log_sum_exp element " << i << " ref " << ref.lse[i] << " got " << l[i];
                tfail(c, m.str());
            }
        }
        if (t[5]->touched_gaps()) tfail(c, "log_sum_exp: gap elements written");
    }
}

}  // namespace fuzz::transformer
