// The transformer fuzz path's case (transformer_case.hpp): its description
// in a failure report, and the decoding primitives of sizes, strides,
// parameters and element values both operator families use.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "support/list_text.hpp"
#include "transformer_case.hpp"

namespace fuzz::transformer {
namespace {

constexpr int64_t kSpanLimit = 65536;

using sxt::list;

}  // namespace

std::string TCase::describe() const {
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
        s << "\n  scale " << scale << " softcap " << softcap << " causal " << causal << " window " << window
          << " log " << log << " in_place " << in_place << " one_shot " << one_shot;
    else
        s << "\n  axis " << axis << " epsilon " << epsilon << " stash_type " << stash;
    s << " bad_exec " << bad_exec << " value_mode " << value_mode << " mask_mode " << mask_mode;
    return s.str();
}

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

void break_bindings(const TCase& c, simdax_buffer_binding* bb, simdax_dtype dt) {
    if (c.bad_exec == 1) {
        std::vector<int> bound;
        for (int k = 0; k < SIMDAX_OPERAND_COUNT; ++k)
            if (bb[k].data) bound.push_back(k);
        bb[bound[c.bad_pick % bound.size()]].data = nullptr;
    } else {
        bb[SIMDAX_OPERAND_OUTPUT].size = size_t(1 + c.bad_pick % (simdax_dtype_size(dt) - 1));
    }
}

}  // namespace fuzz::transformer
