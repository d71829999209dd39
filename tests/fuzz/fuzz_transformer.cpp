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
#include "support/norm_runner.hpp"
#include "support/reference.hpp"
#include "support/tensor_buffer.hpp"

namespace fuzz {
namespace {

using namespace sxt;

constexpr int64_t kSpanLimit = 65536;

struct Operand {
    bool present = false;
    simdax_dtype dt = SIMDAX_DTYPE_FLOAT32;
    std::vector<int64_t> sizes, strides;  // strides empty: NULL (packed)
    simdax_tensor_desc desc{};
    void finish() {
        desc.dtype = dt;
        desc.rank = uint32_t(sizes.size());
        desc.sizes = sizes.empty() ? nullptr : sizes.data();
        desc.strides = strides.empty() ? nullptr : strides.data();
    }
    const simdax_tensor_desc* ptr() const { return present ? &desc : nullptr; }
};

std::string list(const std::vector<int64_t>& v) {
    std::ostringstream s;
    s << "[";
    for (size_t i = 0; i < v.size(); ++i) s << (i ? "," : "") << v[i];
    s << "]";
    return s.str();
}

struct TCase {
    int op = SIMDAX_OPERATOR_ATTENTION_SOFTMAX;
    bool valid = true;
    int mutation = -1;
    bool must_reject = false;
    int isa = 0;
    // attention: 0 x, 1 y, 2 mask, 3 slopes, 4 sinks, 5 lse
    // norms:     0 x, 1 y, 2 scale, 3 bias, 4 skip, 5 skip_bias, 6 sum, 7 mean, 8 inv
    Operand o[9];
    float scale = 1, softcap = 0, epsilon = 1e-5f;
    int causal = 0, log = 0;
    uint32_t window = 0;
    int32_t axis = -1, stash = 1;
    bool in_place = false, one_shot = false;
    int bad_exec = 0;  // 0 none, 1 unbind an operand, 2 output binding too short
    uint8_t bad_pick = 0;
    int value_mode = 0, mask_mode = 0;
    std::string describe() const {
        static const char* an[] = {"input", "output", "mask", "alibi_slopes", "sinks", "log_sum_exp"};
        static const char* nn[] = {"input",     "output",   "scale", "bias",       "skip",
                                   "skip_bias", "skip_sum", "mean",  "inv_std_dev"};
        const bool attn = op == SIMDAX_OPERATOR_ATTENTION_SOFTMAX;
        std::ostringstream s;
        s.precision(9);
        s << "transformer op " << op << " ("
          << (simdax_operator_name(simdax_operator_type(op)) ? simdax_operator_name(simdax_operator_type(op))
                                                             : "?")
          << ") isa " << simdax_isa_name(simdax_active_isa()) << " well-formed " << valid << " mutation "
          << mutation << " must_reject " << must_reject;
        for (int k = 0; k < (attn ? 6 : 9); ++k) {
            s << "\n  " << (attn ? an[k] : nn[k]) << ": ";
            if (!o[k].present) {
                s << "NULL";
                continue;
            }
            s << "dtype " << int(o[k].dt) << " sizes " << list(o[k].sizes) << " strides "
              << (o[k].strides.empty() ? "NULL" : list(o[k].strides));
        }
        if (attn)
            s << "\n  scale " << scale << " softcap " << softcap << " causal " << causal << " window "
              << window << " log " << log << " in_place " << in_place << " one_shot " << one_shot;
        else
            s << "\n  axis " << axis << " epsilon " << epsilon << " stash_type " << stash;
        s << " bad_exec " << bad_exec << " value_mode " << value_mode << " mask_mode " << mask_mode;
        return s.str();
    }
};

[[noreturn]] void tfail(const TCase& c, const std::string& what) {
    std::fprintf(stderr, "\n=== simdax fuzz failure: %s\n%s\n", what.c_str(), c.describe().c_str());
    std::fflush(stderr);
    std::abort();
}

simdax_dtype data_dtype(uint8_t b) {
    static const simdax_dtype d[] = {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16};
    return d[b % 3];
}

int64_t decode_size(Bytes& in, bool last) {
    const uint8_t s = in.u8();
    if (s < 20) return 0;
    if (s < 200) return 1 + s % 9;
    if (last) return 10 + in.u16() % 291;  // a long key axis / row
    return 1 + s % 9;
}

// Strides for sizes: 0 packed (NULL), 1 packed explicit, 2 permuted, 3 gaps,
// 4 negative dims, 5 zero strides (broadcast; only when allow_zero).
std::vector<int64_t> decode_strides(Bytes& in, const std::vector<int64_t>& sizes, bool allow_zero) {
    const uint8_t m = in.u8();
    const size_t r = sizes.size();
    const int mode = m % (allow_zero ? 6 : 5);
    if (mode == 0) return {};
    std::vector<size_t> order(r);
    for (size_t d = 0; d < r; ++d) order[d] = d;
    if (mode == 2 && r > 1) {
        const uint8_t p = in.u8();
        if (p & 1) std::reverse(order.begin(), order.end());
        std::rotate(order.begin(), order.begin() + (p >> 1) % r, order.end());
    }
    std::vector<int64_t> st(r);
    int64_t step = 1;
    const int64_t gap = mode == 3 ? 1 + in.u8() % 3 : 0;
    for (size_t i = r; i-- > 0;) {
        const size_t d = order[i];
        st[d] = step;
        step = step * std::max<int64_t>(sizes[d], 1) + gap;
    }
    if (mode == 4) {
        const uint8_t neg = in.u8();
        for (size_t d = 0; d < r; ++d)
            if (neg >> (d % 8) & 1) st[d] = -st[d];
    }
    if (mode == 5) {
        const uint8_t z = in.u8();
        for (size_t d = 0; d < r; ++d)
            if (z >> (d % 8) & 1) st[d] = 0;
    }
    return st;
}

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

float hostile_param(Bytes& in) {
    static const float h[] = {
        std::numeric_limits<float>::quiet_NaN(), INFINITY, -INFINITY, -1.0f, -1e-30f, -3e38f};
    return h[in.u8() % 6];
}

double value(Bytes& in, int mode, int64_t i) {
    static const double special[] = {0.0,     -0.0, INFINITY, -INFINITY, NAN,  3e38, -3e38, 1e-40, -1e-45,
                                     65504.0, 1.0,  -1.0,     1e-8,      6e-8, 1e30, -1e30, 88.0};
    const uint16_t b = in.left() ? in.u16() : uint16_t(i * 40503u);
    switch (mode) {
        case 0: return (int(b) - 32768) / 8192.0;  // [-4, 4)
        case 1: return b % 4 ? (int(b % 512) - 256) / 16.0 : special[(b >> 2) % 17];
        case 2: return 1e4 + (int(b) - 32768) / 8192.0;
        case 3: return b % 2 ? 3e38 * (b % 7) / 6 : -3e38 * (b % 5) / 4;
        case 4: return 2.5;
        default: return b % 3 ? -INFINITY : (int(b) - 32768) / 4096.0;
    }
}

bool span_ok(const Operand& o) {
    if (!o.present) return true;
    for (int64_t s : o.sizes)
        if (s < 0) return false;
    if (o.strides.empty()) return true;
    int64_t reach = 0;
    for (size_t d = 0; d < o.sizes.size(); ++d) {
        if (o.sizes[d] == 0) return true;
        const int64_t st = o.strides[d];
        if (st > kSpanLimit || st < -kSpanLimit) return false;
        reach += (o.sizes[d] - 1) * (st < 0 ? -st : st);
    }
    return reach <= kSpanLimit;
}

int64_t count(const std::vector<int64_t>& s) {
    int64_t n = 1;
    for (int64_t v : s) n *= v;
    return n;
}

const int64_t kHugeStrides[] = {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
                                int64_t(1) << 62, -(int64_t(1) << 61), int64_t(1) << 40};

// A size for a broadcast operand: the input's, or 1.
std::vector<int64_t> bcast(Bytes& in, const std::vector<int64_t>& s) {
    const uint8_t b = in.u8();
    std::vector<int64_t> out = s;
    for (size_t d = 0; d < s.size(); ++d)
        if (b >> (d % 8) & 1) out[d] = 1;
    return out;
}

// ---- AttentionSoftmax --------------------------------------------------------

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
        case 4:
            if (c.o[2].present) {  // a mask size neither the input's nor 1
                const size_t d = v % rank;
                c.o[2].sizes[d] = s[d] + 2;
                c.o[2].strides.clear();
                c.must_reject = true;
            }
            break;
        case 5:
            if (c.o[2].present) {  // mask rank differs
                c.o[2].sizes.insert(c.o[2].sizes.begin(), 1);
                c.o[2].strides.clear();
                c.must_reject = rank < 8;
            }
            break;
        case 6:
            if (c.o[3].present && s[rank - 1] != 1) {
                c.o[3].sizes[rank - 1] = s[rank - 1];
                c.o[3].strides.clear();
                c.must_reject = true;
            }
            break;
        case 7:
            if (c.o[4].present) c.o[4].dt = SIMDAX_DTYPE_UINT8, c.must_reject = true;
            break;
        case 8:
            if (c.o[5].present)
                c.o[5].dt = v % 2 ? SIMDAX_DTYPE_FLOAT16 : SIMDAX_DTYPE_BFLOAT16, c.must_reject = true;
            break;
        case 9:
            if (c.o[5].present && s[rank - 1] != 1) {
                c.o[5].sizes[rank - 1] = s[rank - 1];
                c.o[5].strides.clear();
                c.must_reject = true;
            }
            break;
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
        if (c.bad_exec == 1) {
            std::vector<int> bound;
            for (int k = 0; k < SIMDAX_OPERAND_COUNT; ++k)
                if (bb[k].data) bound.push_back(k);
            bb[bound[c.bad_pick % bound.size()]].data = nullptr;
        } else {
            bb[SIMDAX_OPERAND_OUTPUT].size = size_t(1 + c.bad_pick % (simdax_dtype_size(xo.dt) - 1));
        }
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

// ---- LayerNormalization / RMSNormalization -------------------------------------

// A right-aligned broadcast operand (scale, bias, skip_bias) for sizes s
// normalized from axis a: rank in [rank - a, rank] (at least 1), sizes the
// input's or 1.
std::vector<int64_t> param_sizes(Bytes& in, const std::vector<int64_t>& s, size_t a) {
    const size_t r = s.size(), lo = std::max<size_t>(r - a, 1);
    const size_t pr = lo + in.u8() % (r - lo + 1);
    std::vector<int64_t> out(s.end() - long(pr), s.end());
    const uint8_t b = in.u8();
    for (size_t d = 0; d < pr; ++d)
        if (b >> (d % 8) & 1 && (b & 0x80)) out[d] = 1;
    return out;
}

void decode_norm(Bytes& in, TCase& c) {
    const bool ln = c.op == SIMDAX_OPERATOR_LAYER_NORMALIZATION;
    const simdax_dtype dt = data_dtype(in.u8());
    const uint8_t pb = in.u8();
    const simdax_dtype pdt = dt != SIMDAX_DTYPE_FLOAT32 && (pb & 1) ? SIMDAX_DTYPE_FLOAT32 : dt;
    const size_t rank = 1 + in.u8() % 5;
    std::vector<int64_t> s(rank);
    for (size_t d = 0; d < rank; ++d) s[d] = decode_size(in, d + 1 == rank);
    const size_t a = in.u8() % rank;
    c.axis = (pb & 2) ? int32_t(a) - int32_t(rank) : int32_t(a);
    const uint8_t flags = in.u8();
    c.o[0].present = true, c.o[0].dt = dt, c.o[0].sizes = s, c.o[0].strides = decode_strides(in, s, true);
    c.o[1].present = true, c.o[1].dt = dt, c.o[1].sizes = s, c.o[1].strides = decode_strides(in, s, false);
    c.o[2].present = true, c.o[2].dt = pdt, c.o[2].sizes = param_sizes(in, s, a);
    c.o[2].strides = decode_strides(in, c.o[2].sizes, true);
    if (ln && (flags & 1)) {
        c.o[3].present = true, c.o[3].dt = pdt, c.o[3].sizes = param_sizes(in, s, a);
        c.o[3].strides = decode_strides(in, c.o[3].sizes, true);
    }
    if (flags & 2) {
        c.o[4].present = true, c.o[4].dt = dt, c.o[4].sizes = s, c.o[4].strides = decode_strides(in, s, true);
        if (flags & 4) {
            c.o[5].present = true, c.o[5].dt = pdt, c.o[5].sizes = param_sizes(in, s, a);
            c.o[5].strides = decode_strides(in, c.o[5].sizes, true);
        }
        if (flags & 8)
            c.o[6].present = true, c.o[6].dt = dt, c.o[6].sizes = s,
            c.o[6].strides = decode_strides(in, s, false);
    }
    const std::vector<int64_t> st = stat_sizes(s, int32_t(a));
    for (int k = 7; k <= 8; ++k)
        if (ln && (flags & (16 << (k - 7)))) {
            c.o[k].present = true, c.o[k].dt = SIMDAX_DTYPE_FLOAT32, c.o[k].sizes = st;
            c.o[k].strides = decode_strides(in, st, false);
        }
    const uint8_t e = in.u8();
    static const float eps[] = {1e-5f, 1e-6f, 0.0f, 1e-12f, 1.0f, 1e-45f, 3e38f, 1e-3f};
    c.epsilon = eps[e % 8];
    if (c.valid) return;

    const uint8_t m = in.u8();
    c.mutation = m % 16;
    const uint8_t v = in.u8();
    switch (c.mutation) {
        case 0:
            c.epsilon = hostile_param(in), c.must_reject = !(c.epsilon >= 0 && std::isfinite(c.epsilon));
            break;
        case 1: c.stash = v % 3 == 0 ? 0 : (v % 3 == 1 ? -1 : 2), c.must_reject = true; break;
        case 2:
            c.axis = v % 2 ? int32_t(rank) + v % 3 : -int32_t(rank) - 1 - v % 3, c.must_reject = true;
            break;
        case 3:
            c.axis = v % 2 ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int32_t>::max(),
            c.must_reject = true;
            break;
        case 4: c.o[0].dt = c.o[1].dt = SIMDAX_DTYPE_FLOAT64, c.must_reject = true; break;
        case 5: c.o[2].present = false, c.must_reject = true; break;
        case 6: {  // a parameter of the wrong dtype
            const int k = v % 3 == 0 ? 2 : (v % 3 == 1 ? 3 : 5);
            if (c.o[k].present) {
                static const simdax_dtype bad[] = {SIMDAX_DTYPE_FLOAT64, SIMDAX_DTYPE_UINT8, simdax_dtype(0)};
                c.o[k].dt = dt == SIMDAX_DTYPE_FLOAT16   ? SIMDAX_DTYPE_BFLOAT16
                            : dt == SIMDAX_DTYPE_FLOAT32 ? (v & 8 ? SIMDAX_DTYPE_FLOAT16 : bad[v / 16 % 3])
                                                         : SIMDAX_DTYPE_FLOAT16;
                c.must_reject = true;
            }
            break;
        }
        case 7:  // scale of larger rank than the input
            c.o[2].sizes.insert(c.o[2].sizes.begin(), rank + 1 - c.o[2].sizes.size(), 1 + v % 2);
            c.o[2].strides.clear(), c.must_reject = true;
            break;
        case 8: {  // a scale size neither the input's nor 1
            const size_t d = v % c.o[2].sizes.size();
            c.o[2].sizes[d] = s[rank - c.o[2].sizes.size() + d] + 2, c.o[2].strides.clear();
            c.must_reject = true;
            break;
        }
        case 9:  // skip_bias / skip_sum without skip
            if (c.o[4].present && (c.o[5].present || c.o[6].present))
                c.o[4].present = false, c.must_reject = true;
            break;
        case 10:  // skip of the wrong sizes or dtype
            if (c.o[4].present) {
                if (v % 2)
                    c.o[4].dt =
                        data_dtype(uint8_t(dt)) == dt ? data_dtype(uint8_t(dt + 1)) : data_dtype(uint8_t(dt));
                else
                    c.o[4].sizes[v / 2 % rank] += 1, c.o[4].strides.clear();
                c.must_reject = true;
            }
            break;
        case 11:  // mean / inv_std_dev not float32, or of the input's sizes
            for (int k = 7; k <= 8; ++k)
                if (c.o[k].present) {
                    if (v % 2) {
                        c.o[k].dt = dt == SIMDAX_DTYPE_FLOAT32 ? SIMDAX_DTYPE_FLOAT16 : dt;
                        c.must_reject = true;
                    } else {
                        c.o[k].sizes = s, c.o[k].strides.clear();
                        for (size_t d = a; d < rank; ++d)
                            if (s[d] != 1) c.must_reject = true;
                    }
                    break;
                }
            break;
        case 12:  // an output with a zero stride
            if (s[v % rank] > 1 && count(s) > 0) {
                if (c.o[1].strides.empty()) c.o[1].strides = packed_strides(s);
                c.o[1].strides[v % rank] = 0;
                c.must_reject = true;
            }
            break;
        case 13: {
            Operand& t = c.o[v % 9];
            if (t.present) {
                if (t.strides.empty()) t.strides = packed_strides(t.sizes);
                t.strides[in.u8() % t.strides.size()] = kHugeStrides[in.u8() % 5];
            }
            break;
        }
        case 14:
            c.o[0].sizes[v % rank] = v % 2 ? -3 : std::numeric_limits<int64_t>::min(), c.must_reject = true;
            break;
        default:
            if (v % 2)
                c.o[0].present = false;
            else
                c.o[1].present = false;
            c.must_reject = true;
            break;
    }
}

void run_norm_case(Bytes& in, TCase& c, const simdax_operator* op) {
    for (int k = 0; k < 9; ++k)
        if (!span_ok(c.o[k])) return;
    const int64_t n = count(c.o[0].sizes);
    if (n > kMaxElements) return;
    // The harness's NormCase holds one dtype for the parameters.
    simdax_dtype pdt = c.o[2].dt;
    for (int k : {3, 5})
        if (c.o[k].present && c.o[k].dt != pdt) return;
    NormCase nc;
    nc.op = simdax_operator_type(c.op);
    nc.dt = c.o[0].dt;
    nc.param_dt = pdt;
    nc.axis = c.axis;
    nc.epsilon = c.epsilon;
    nc.stash_type = c.stash;
    NormLayout* l[9] = {&nc.x,         &nc.y,   &nc.scale, &nc.bias, &nc.skip,
                        &nc.skip_bias, &nc.sum, &nc.mean,  &nc.inv};
    for (int k = 0; k < 9; ++k) l[k]->sizes = c.o[k].sizes, l[k]->strides = c.o[k].strides;
    nc.has_bias = c.o[3].present, nc.has_skip = c.o[4].present, nc.has_skip_bias = c.o[5].present;
    nc.has_sum = c.o[6].present, nc.has_mean = c.o[7].present, nc.has_inv = c.o[8].present;
    NormIo io = make_norm_io(nc);
    fill_norm_io(io, [&](int k, int64_t i) {
        if (k >= 2) {  // parameters: moderate, or specials
            const uint8_t u = in.u8();
            return u < 220 ? (u - 110) / 32.0 : value(in, 1, i);
        }
        return value(in, c.value_mode, i);
    });
    TensorBuffer* t[9] = {io.x.get(),         io.y.get(),   io.scale.get(), io.bias.get(), io.skip.get(),
                          io.skip_bias.get(), io.sum.get(), io.mean.get(),  io.inv.get()};
    static const simdax_operand slot[9] = {
        SIMDAX_OPERAND_INPUT,    SIMDAX_OPERAND_OUTPUT, SIMDAX_OPERAND_SCALE,
        SIMDAX_OPERAND_BIAS,     SIMDAX_OPERAND_SKIP,   SIMDAX_OPERAND_SKIP_BIAS,
        SIMDAX_OPERAND_SKIP_SUM, SIMDAX_OPERAND_MEAN,   SIMDAX_OPERAND_INV_STD_DEV};
    simdax_buffer_binding bb[SIMDAX_OPERAND_COUNT];
    auto bind = [&] {
        std::memset(bb, 0, sizeof bb);
        for (int k = 0; k < 9; ++k)
            if (t[k]) bb[slot[k]].data = t[k]->data();
    };
    const simdax_operand_bindings b{
        SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS), SIMDAX_OPERAND_COUNT,
        bb};
    if (c.bad_exec && n > 0) {
        bind();
        if (c.bad_exec == 1) {
            std::vector<int> bound;
            for (int k = 0; k < SIMDAX_OPERAND_COUNT; ++k)
                if (bb[k].data) bound.push_back(k);
            bb[bound[c.bad_pick % bound.size()]].data = nullptr;
        } else {
            bb[SIMDAX_OPERAND_OUTPUT].size = size_t(1 + c.bad_pick % (simdax_dtype_size(nc.dt) - 1));
        }
        if (simdax_operator_execute_bound(op, &b, nullptr) == SIMDAX_OK)
            tfail(c, "execute accepted an unbound operand / a too short buffer");
        if (simdax_last_error()[0] == '\0') tfail(c, "execute refused without a message");
        for (int k = 0; k < 9; ++k) {
            if (!t[k]) continue;
            const bool out = k == 1 || k >= 6;
            if (out ? (t[k]->unwritten() != t[k]->count() || t[k]->touched_gaps() != 0)
                    : t[k]->input_modified())
                tfail(c, "a refused execute wrote operand " + std::to_string(k));
        }
    }
    bind();
    if (simdax_operator_execute_bound(op, &b, nullptr) != SIMDAX_OK)
        tfail(c, std::string("execute refused good bindings: ") + simdax_last_error());
    if (n == 0) {
        for (int k : {1, 6, 7, 8})
            if (t[k] && t[k]->touched_gaps()) tfail(c, "empty tensor: an output written");
        return;
    }
    if (std::getenv("SIMDAX_FUZZ_PRINT")) {
        const NormRef r = reference_norm(nc, io);
        const std::vector<double> got = io.y->read();
        for (size_t i = 0; i < got.size(); ++i)
            std::fprintf(stderr, "  y[%zu] ref %.17g got %.17g\n", i, r.y[i], got[i]);
    }
    const std::string err = check_norm(nc, io);
    if (!err.empty()) tfail(c, "normalization output differs\n" + err);
}

}  // namespace

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
