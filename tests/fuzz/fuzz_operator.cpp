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

#include "simdax/simdax.h"
#include "support/dtype.hpp"
#include "support/op_runner.hpp"
#include "support/reference.hpp"
#include "support/tensor_buffer.hpp"

namespace {

using namespace sxt;

constexpr int64_t kMaxElements = 4096;
constexpr int64_t kMaxSpan = 65536;
constexpr int kSlots = 10;  // array entries behind every sizes/strides/axes pointer

// Reads the fuzz input front to back; zeros once it runs out.
class Bytes {
public:
    Bytes(const uint8_t* p, size_t n) : p_(p), n_(n) {}
    uint8_t u8() { return i_ < n_ ? p_[i_++] : 0; }
    uint16_t u16() { return uint16_t(u8() | (u8() << 8)); }
    uint32_t u32() { return uint32_t(u16()) | (uint32_t(u16()) << 16); }
    uint64_t u64() { return uint64_t(u32()) | (uint64_t(u32()) << 32); }
    bool bit() { return u8() & 1; }
    size_t left() const { return n_ - i_; }

private:
    const uint8_t* p_;
    size_t n_, i_ = 0;
};

// Everything the decoder chose, in the form the library gets it.
struct Case {
    int op_raw = 1;
    simdax_operator_type op = SIMDAX_OPERATOR_SOFTMAX;
    int isa = 0;
    // Tensors: 0 input, 1 output, 2 scale, 3 bias.
    simdax_tensor_desc t[4]{};
    bool present[4] = {true, true, false, false};
    int64_t sizes[4][kSlots]{};
    int64_t strides[4][kSlots]{};
    bool explicit_strides[4] = {};
    bool null_sizes[4] = {};
    uint32_t axis_count = 0;
    uint32_t axes[kSlots]{};
    bool null_axes = false;
    int normalize_variance = 1;
    float epsilon = 1e-5f;
    int placement_raw = 0;  // MVN_EX: simdax_epsilon_placement, or an invalid value
    bool has_activation = false;
    simdax_activation_desc act{SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0};
    float hs_alpha = 0.2f, hs_beta = 0.5f;
    bool null_desc = false, null_inner = false, null_op_out = false;
    bool one_shot = false, in_place = false, bad_bindings_first = false;
    int bad_kind = 0;
    int64_t overlap_shift = 0;
    int value_mode = 0;
    int64_t pad[4][2]{};
    bool guard_front[4] = {};
};

const int64_t kHostileSizes[] = {-1,
                                 -7,
                                 std::numeric_limits<int64_t>::min(),
                                 std::numeric_limits<int64_t>::max(),
                                 int64_t(1) << 31,
                                 (int64_t(1) << 32) + 1,
                                 int64_t(1) << 62,
                                 (int64_t(1) << 61) + 3,
                                 int64_t(1) << 20,
                                 3037000500LL};
const int64_t kWidthSizes[] = {7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 70, 127, 129, 257};
const int64_t kHostileStrides[] = {std::numeric_limits<int64_t>::min(),
                                   std::numeric_limits<int64_t>::max(),
                                   -(int64_t(1) << 62),
                                   int64_t(1) << 62,
                                   int64_t(1) << 40,
                                   -(int64_t(1) << 40),
                                   int64_t(1) << 31,
                                   4611686018427387903LL,
                                   -1,
                                   1,
                                   0};

int64_t decode_size(Bytes& in) {
    const uint8_t s = in.u8();
    if (s < 150) return 1 + s % 6;
    if (s < 200) return kWidthSizes[s % (sizeof kWidthSizes / sizeof *kWidthSizes)];
    if (s < 215) return 0;
    if (s < 225) return 1;
    return kHostileSizes[s % (sizeof kHostileSizes / sizeof *kHostileSizes)];
}

float decode_float(Bytes& in, float dflt) {
    const uint8_t s = in.u8();
    if (s < 100) return dflt;
    if (s < 200) return float(int(s) - 150) / 16.0f;
    static const float special[] = {0.0f,     -0.0f,   std::numeric_limits<float>::quiet_NaN(),
                                    INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, 1e-45f, 1e-40f,
                                    1e30f,    -1e30f,  1.0f, -1.0f, 65504.0f, 3e38f};
    if (s < 230) return special[s % (sizeof special / sizeof *special)];
    const uint32_t bits = in.u32();
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// Packed strides for `sizes` in a dimension order chosen by `perm` (0 =
// row-major, 1 = column-major, else a rotation).
void natural_strides(const int64_t* sizes, uint32_t rank, uint8_t perm, int64_t* out) {
    int order[kSlots];
    for (uint32_t d = 0; d < rank; ++d) order[d] = int(d);
    if (perm % 3 == 1) std::reverse(order, order + rank);
    if (perm % 3 == 2 && rank > 1) std::rotate(order, order + (perm / 3) % rank, order + rank);
    int64_t step = 1;
    for (int i = int(rank) - 1; i >= 0; --i) {
        const int d = order[i];
        out[d] = step;
        const int64_t s = sizes[d] > 0 && sizes[d] < (int64_t(1) << 20) ? sizes[d] : 1;
        if (step < (int64_t(1) << 40)) step *= s;  // (huge sizes: strides stop growing)
        if (perm & 0x80) step += 1;                // a gap after each dimension
    }
}

void decode_strides(Bytes& in, Case& c, int k) {
    const uint32_t r = std::min<uint32_t>(c.t[k].rank, kSlots);
    natural_strides(c.sizes[k], r, in.u8(), c.strides[k]);
    for (uint32_t d = 0; d < r; ++d) {
        const uint8_t s = in.u8();
        int64_t& v = c.strides[k][d];
        if (s < 128) continue;                         // natural
        if (s < 160) v = -v;                           // reversed
        else if (s < 175) v = 0;                       // broadcast (outputs: overlap)
        else if (s < 200) v = int64_t(s % 17) - 8;     // small, maybe overlapping
        else if (s < 220) v = v * 2 + 1;               // gaps
        else v = kHostileStrides[s % (sizeof kHostileStrides / sizeof *kHostileStrides)];
    }
}

Case decode(const uint8_t* data, size_t size, Bytes& in) {
    (void)data;
    (void)size;
    Case c;
    const uint8_t ops = in.u8();
    c.op_raw = ops < 240 ? 1 + ops % 6 : (ops < 248 ? 0 : (ops < 252 ? 8 : -1));
    if (c.op_raw == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION && (ops / 6) % 8 >= 4) {
        // Half the MVN inputs through simdax_mvn_ex_desc: epsilon on the
        // variance, on the stddev (twice as often), or an unknown placement.
        static const int placements[4] = {0, 1, 1, 2};
        c.op_raw = SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX;
        c.placement_raw = placements[(ops / 6) % 4];
        if (c.placement_raw == 2 && (ops / 48) % 2) c.placement_raw = -1;
    }
    c.op = simdax_operator_type(c.op_raw);
    const uint8_t dts = in.u8();
    const int dt_raw = dts < 240 ? 1 + dts % 4 : (dts < 248 ? 0 : (dts < 252 ? 5 : -3));
    c.isa = in.u8() % 4;
    const uint8_t rs = in.u8();
    const uint32_t rank = rs < 200 ? 1 + rs % 4 : (rs < 230 ? 5 + rs % 4 : (rs % 2 ? 0u : 9u));
    const uint8_t flags = in.u8(), flags2 = in.u8();
    c.t[0] = simdax_tensor_desc{simdax_dtype(dt_raw), rank, c.sizes[0], nullptr};
    for (uint32_t d = 0; d < std::min<uint32_t>(rank, kSlots); ++d) c.sizes[0][d] = decode_size(in);
    // Output: the input's shape unless a mismatch is asked for.
    c.t[1] = c.t[0];
    c.t[1].sizes = c.sizes[1];
    std::copy(c.sizes[0], c.sizes[0] + kSlots, c.sizes[1]);
    if (flags & 0x04) {
        const uint8_t m = in.u8();
        if (m % 3 == 0) c.t[1].rank = m / 3 % 10;
        else if (m % 3 == 1) c.sizes[1][m / 3 % kSlots] = decode_size(in);
        else c.t[1].dtype = simdax_dtype(1 + m / 3 % 5);
    }
    c.in_place = flags & 0x10;
    for (int k = 0; k < 2; ++k) {
        c.explicit_strides[k] = flags & (k == 0 ? 0x01 : 0x02);
        if (c.explicit_strides[k]) decode_strides(in, c, k);
    }
    if (c.in_place) {  // element-wise in place: the output is the input's view
        c.t[1] = c.t[0];
        c.t[1].sizes = c.sizes[1];
        std::copy(c.sizes[0], c.sizes[0] + kSlots, c.sizes[1]);
        c.explicit_strides[1] = c.explicit_strides[0];
        std::copy(c.strides[0], c.strides[0] + kSlots, c.strides[1]);
    }
    // Axes.
    const uint8_t as = in.u8();
    c.axis_count = as < 230 ? 1 + as % 3 : as % 10;
    for (uint32_t i = 0; i < kSlots; ++i) {
        const uint8_t a = i < c.axis_count ? in.u8() : 0;
        if (a < 200) c.axes[i] = rank ? a % rank : 0;  // in range, sometimes repeated
        else if (a < 230) c.axes[i] = rank + a % 3;   // just out of range
        else c.axes[i] = a % 2 ? 0xFFFFFFFFu : 9u;
    }
    // MVN.
    const uint8_t nv = in.u8();
    c.normalize_variance = nv < 240 ? nv % 2 : (nv % 2 ? 2 : -1);
    const uint8_t es = in.u8();
    static const float eps[] = {1e-5f, 0.0f, 1e-9f, 1.0f, 1e-45f, -0.0f, 100.0f, 1e-5f};
    c.epsilon = es < 200 ? eps[es % 8] : decode_float(in, 1e-5f);
    for (int k = 2; k < 4; ++k) {
        const uint8_t p = in.u8();
        c.present[k] = p & 1;
        if (!c.present[k]) continue;
        c.t[k] = c.t[0];
        c.t[k].sizes = c.sizes[k];
        for (uint32_t d = 0; d < kSlots; ++d) {
            const uint8_t s = d < rank ? in.u8() : 0;
            c.sizes[k][d] = s < 120 ? c.sizes[0][d] : s < 240 ? 1 : decode_size(in);
        }
        if (p & 2) c.t[k].rank = in.u8() % 10;
        if (p & 4) c.t[k].dtype = simdax_dtype(in.u8() % 6);
        c.explicit_strides[k] = p & 8;
        if (c.explicit_strides[k]) decode_strides(in, c, k);
    }
    // Activation (MVN's fused one, or the standalone operator's).
    c.has_activation = flags & 0x08;
    const uint8_t at = in.u8();
    c.act.type = simdax_activation_type(at < 240 ? at % SIMDAX_ACTIVATION_COUNT
                                                 : (at % 2 ? SIMDAX_ACTIVATION_COUNT : -1));
    const simdax_activation_desc d = simdax_activation_default(
        c.act.type >= 0 && c.act.type < SIMDAX_ACTIVATION_COUNT ? c.act.type
                                                                : SIMDAX_ACTIVATION_IDENTITY);
    c.act.alpha = decode_float(in, d.alpha);
    c.act.beta = decode_float(in, d.beta);
    c.act.gamma = decode_float(in, d.gamma);
    c.hs_alpha = decode_float(in, 0.2f);
    c.hs_beta = decode_float(in, 0.5f);
    // NULL pointers and the way it is run.
    const uint8_t np = flags2;
    c.null_desc = (np & 0x0F) == 1;
    c.null_inner = (np & 0x0F) == 2;
    c.null_op_out = (np & 0x0F) == 3;
    if ((np & 0x0F) == 4) c.present[0] = false;  // input descriptor NULL
    if ((np & 0x0F) == 5) c.present[1] = false;  // output descriptor NULL
    if ((np & 0x0F) == 6) c.null_sizes[np >> 6] = true;
    if ((np & 0x0F) == 7) c.null_axes = true;
    c.one_shot = np & 0x10;
    c.bad_bindings_first = np & 0x20;
    c.bad_kind = in.u8();
    c.overlap_shift = int64_t(int8_t(in.u8()));
    c.value_mode = in.u8() % 7;
    for (int k = 0; k < 4; ++k) {
        const uint8_t p = in.u8();
        c.pad[k][0] = p & 3;
        c.pad[k][1] = (p >> 2) & 3;
        c.guard_front[k] = p & 0x10;
    }
    for (int k = 0; k < 4; ++k) {
        if (c.explicit_strides[k]) c.t[k].strides = c.strides[k];
        if (c.null_sizes[k]) c.t[k].sizes = nullptr;
    }
    return c;
}

// ---- an independent reading of the docs/spec.md rules ---------------------

bool valid_dtype(simdax_dtype d) { return d >= SIMDAX_DTYPE_FLOAT32 && d <= SIMDAX_DTYPE_FLOAT64; }

bool is_mvn(const Case& c) {
    return c.op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION ||
           c.op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX;
}
bool uses_axes(const Case& c) {
    return c.op == SIMDAX_OPERATOR_LOG_SOFTMAX || c.op == SIMDAX_OPERATOR_SOFTMAX ||
           c.op == SIMDAX_OPERATOR_HARDMAX || is_mvn(c);
}
bool is_elementwise(const Case& c) {
    return c.op == SIMDAX_OPERATOR_HARD_SIGMOID || c.op == SIMDAX_OPERATOR_ACTIVATION;
}
bool tensor_used(const Case& c, int k) { return k < 2 || (is_mvn(c) && c.present[k]); }

// Element count, or -1 if it overflows / a size is negative.
int64_t count_of(const simdax_tensor_desc& t) {
    int64_t n = 1;
    for (uint32_t d = 0; d < t.rank; ++d) {
        if (t.sizes[d] < 0) return -1;
        if (t.sizes[d] == 0) n = 0;
    }
    if (n == 0) return 0;
    for (uint32_t d = 0; d < t.rank; ++d)
        if (__builtin_mul_overflow(n, t.sizes[d], &n)) return -1;
    return n;
}

// The resolved strides of a descriptor.
std::vector<int64_t> strides_of(const simdax_tensor_desc& t) {
    std::vector<int64_t> s(t.rank);
    if (t.strides) {
        std::copy(t.strides, t.strides + t.rank, s.begin());
        return s;
    }
    int64_t step = 1;  // saturates (only empty tensors get that far)
    for (uint32_t d = t.rank; d-- > 0;) {
        s[d] = step;
        if (__builtin_mul_overflow(step, std::max<int64_t>(t.sizes[d], 1), &step))
            step = std::numeric_limits<int64_t>::max();
    }
    return s;
}

// Lowest and highest element offsets; false if they overflow or exceed
// what this harness allocates.
bool span_of(const simdax_tensor_desc& t, int64_t* lo, int64_t* hi) {
    *lo = *hi = 0;
    if (count_of(t) == 0) return true;
    const std::vector<int64_t> s = strides_of(t);
    for (uint32_t d = 0; d < t.rank; ++d) {
        if (t.sizes[d] <= 1) continue;
        if (s[d] > kMaxSpan || s[d] < -kMaxSpan || t.sizes[d] > kMaxSpan) return false;
        const int64_t reach = s[d] * (t.sizes[d] - 1);
        (reach < 0 ? *lo : *hi) += reach;
        if (*hi - *lo >= kMaxSpan) return false;
    }
    return true;
}

// The element offset of every index tuple of a (small) tensor, sorted;
// exact, as strides may be near 2^63.
std::vector<__int128> element_offsets(const simdax_tensor_desc& t) {
    const std::vector<int64_t> s = strides_of(t);
    std::vector<__int128> offs{0};
    for (uint32_t d = 0; d < t.rank; ++d) {
        std::vector<__int128> next;
        for (__int128 o : offs)
            for (int64_t i = 0; i < t.sizes[d]; ++i) next.push_back(o + __int128(i) * s[d]);
        offs.swap(next);
    }
    std::sort(offs.begin(), offs.end());
    return offs;
}

// True if two index tuples of the (small) tensor share an address.
bool self_overlaps(const simdax_tensor_desc& t) {
    const std::vector<__int128> offs = element_offsets(t);
    return std::adjacent_find(offs.begin(), offs.end()) != offs.end();
}

// True if an element of y, based `shift` elements after x's base, is also
// an element of x (same dtype, so elements share bytes only when they
// coincide). Interleaved views that never meet are not overlap (simdax.h).
bool shares_an_element(const simdax_tensor_desc& x, const simdax_tensor_desc& y, int64_t shift) {
    const std::vector<__int128> xo = element_offsets(x);
    for (__int128 o : element_offsets(y))
        if (std::binary_search(xo.begin(), xo.end(), o + shift)) return true;
    return false;
}

enum class Verdict { must_reject, must_accept, either };

// The parameters a type reads (simdax.h's list) must be finite; the others
// are ignored, whatever they hold.
bool finite_params(const simdax_activation_desc& a) {
    bool alpha = false, beta = false, gamma = false;
    switch (a.type) {
        case SIMDAX_ACTIVATION_LINEAR:
        case SIMDAX_ACTIVATION_HARD_SIGMOID:
        case SIMDAX_ACTIVATION_SCALED_TANH:
        case SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS:
        case SIMDAX_ACTIVATION_SHRINK: alpha = beta = true; break;
        case SIMDAX_ACTIVATION_LEAKY_RELU:
        case SIMDAX_ACTIVATION_ELU:
        case SIMDAX_ACTIVATION_CELU:
        case SIMDAX_ACTIVATION_SOFTPLUS:
        case SIMDAX_ACTIVATION_THRESHOLDED_RELU: alpha = true; break;
        case SIMDAX_ACTIVATION_SCALED_ELU: alpha = gamma = true; break;
        default: break;
    }
    return (!alpha || std::isfinite(a.alpha)) && (!beta || std::isfinite(a.beta)) &&
           (!gamma || std::isfinite(a.gamma));
}

// What docs/spec.md requires of create for this case. `why` names the rule.
Verdict judge(const Case& c, std::string* why) {
    auto reject = [&](const char* w) {
        *why = w;
        return Verdict::must_reject;
    };
    if (c.null_desc || c.null_inner || c.null_op_out) return reject("a NULL pointer");
    if (c.op_raw < 1 || c.op_raw > 7) return reject("unknown operator type");
    for (int k = 0; k < 4; ++k) {
        if (!tensor_used(c, k)) continue;
        if (!c.present[k]) return reject("a NULL tensor descriptor");
        if (!valid_dtype(c.t[k].dtype)) return reject("unknown dtype");
        if (c.t[k].rank < 1 || c.t[k].rank > 8) return reject("rank outside 1..8");
        if (!c.t[k].sizes) return reject("NULL sizes");
        for (uint32_t d = 0; d < c.t[k].rank; ++d)
            if (c.t[k].sizes[d] < 0) return reject("negative size");
        if (count_of(c.t[k]) < 0) return reject("element count overflows");
    }
    const simdax_tensor_desc &x = c.t[0], &y = c.t[1];
    if (x.dtype != y.dtype) return reject("output dtype differs");
    if (x.rank != y.rank) return reject("output rank differs");
    for (uint32_t d = 0; d < x.rank; ++d)
        if (x.sizes[d] != y.sizes[d]) return reject("output size differs");
    const int64_t n = count_of(x);
    if (n > 0 && n <= kMaxElements && y.strides && self_overlaps(y))
        return reject("output overlaps itself");
    if (uses_axes(c)) {
        if (c.axis_count == 0) return reject("empty axis set");
        if (c.null_axes) return reject("NULL axes");
        if (c.axis_count > x.rank) return reject("more axes than dimensions");
        bool seen[kSlots + 1] = {};
        for (uint32_t i = 0; i < c.axis_count; ++i) {
            if (c.axes[i] >= x.rank) return reject("axis out of range");
            if (seen[c.axes[i]]) return reject("repeated axis");
            seen[c.axes[i]] = true;
        }
    }
    const bool act_used =
        c.op == SIMDAX_OPERATOR_ACTIVATION || (is_mvn(c) && c.has_activation);
    if (act_used) {
        if (c.act.type < 0 || c.act.type >= SIMDAX_ACTIVATION_COUNT)
            return reject("unknown activation");
        if (!finite_params(c.act)) return reject("non-finite activation parameter");
        if ((c.act.type == SIMDAX_ACTIVATION_CELU || c.act.type == SIMDAX_ACTIVATION_SOFTPLUS) &&
            c.act.alpha == 0.0f)
            return reject("celu/softplus alpha 0");
    }
    if (c.op == SIMDAX_OPERATOR_HARD_SIGMOID &&
        (!std::isfinite(c.hs_alpha) || !std::isfinite(c.hs_beta)))
        return reject("non-finite HardSigmoid alpha/beta");
    if (is_mvn(c)) {
        if (c.normalize_variance != 0 && c.normalize_variance != 1)
            return reject("normalize_variance not 0/1");
        if (!std::isfinite(c.epsilon) || c.epsilon < 0) return reject("epsilon negative or not finite");
        if (c.placement_raw != 0 && c.placement_raw != 1) return reject("unknown epsilon placement");
        for (int k = 2; k < 4; ++k) {
            if (!c.present[k]) continue;
            if (c.t[k].dtype != x.dtype) return reject("scale/bias dtype differs");
            if (c.t[k].rank != x.rank) return reject("scale/bias rank differs");
            for (uint32_t d = 0; d < x.rank; ++d)
                if (c.t[k].sizes[d] != x.sizes[d] && c.t[k].sizes[d] != 1)
                    return reject("scale/bias size neither the input's nor 1");
        }
    }
    // Plainly valid: small sizes, every span small (no overflow question),
    // an output with NULL strides (the self-overlap rule is the library's).
    for (int k = 0; k < 4; ++k) {
        if (!tensor_used(c, k)) continue;
        int64_t lo, hi;
        if (!span_of(c.t[k], &lo, &hi)) return Verdict::either;
    }
    if (y.strides) return Verdict::either;
    *why = "a valid descriptor";
    return Verdict::must_accept;
}

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
    s << "op " << c.op_raw << " isa cap " << c.isa << " active "
      << simdax_isa_name(simdax_active_isa());
    const char* names[4] = {"input", "output", "scale", "bias"};
    for (int k = 0; k < 4; ++k) {
        if (!c.present[k]) {
            s << "\n  " << names[k] << ": NULL";
            continue;
        }
        s << "\n  " << names[k] << ": dtype " << int(c.t[k].dtype) << " rank " << c.t[k].rank
          << " sizes " << (c.t[k].sizes ? list(c.t[k].sizes, c.t[k].rank) : "NULL") << " strides "
          << (c.t[k].strides ? list(c.t[k].strides, c.t[k].rank) : "NULL");
    }
    s << "\n  axes (" << c.axis_count << ")" << (c.null_axes ? " NULL" : "") << " [";
    for (uint32_t i = 0; i < c.axis_count && i < kSlots; ++i) s << (i ? "," : "") << c.axes[i];
    s << "] normalize_variance " << c.normalize_variance << " epsilon " << c.epsilon
      << " placement " << c.placement_raw
      << "\n  activation " << (c.has_activation ? "on" : "off") << " type " << int(c.act.type)
      << " alpha " << c.act.alpha << " beta " << c.act.beta << " gamma " << c.act.gamma
      << "\n  hard_sigmoid alpha " << c.hs_alpha << " beta " << c.hs_beta << "\n  null desc/inner/op "
      << c.null_desc << c.null_inner << c.null_op_out << " one_shot " << c.one_shot << " in_place "
      << c.in_place << " bad_bindings_first " << c.bad_bindings_first << " value_mode "
      << c.value_mode;
    return s.str();
}

[[noreturn]] void fail(const Case& c, const std::string& what) {
    std::fprintf(stderr, "\n=== simdax fuzz failure: %s\n%s\n", what.c_str(), describe_case(c).c_str());
    std::fflush(stderr);
    std::abort();
}

// Element values, from the remaining input bytes.
double element_value(Bytes& in, int mode, simdax_dtype dt, int64_t i) {
    static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 3e38, -3e38, 1e-40,
                                     -1e-45, 65504.0, 1.0, -1.0, 1e-8, 6e-8, 1e308, -1e308, 5e-324};
    const uint16_t b = in.left() ? in.u16() : uint16_t(i * 40503u);
    switch (mode) {
        case 0: return (int(b) - 32768) / 2048.0;                // [-16, 16)
        case 1: return b % 4 ? (int(b % 512) - 256) / 16.0 : special[(b >> 2) % 17];
        case 2: return 1e4 + (int(b) - 32768) / 8192.0;            // large mean, small spread
        case 3: {                                                   // raw bits of the dtype
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
        case 4: return 2.5;                                         // constant group
        case 5: return b % 2 ? 3e38 : -3e38;                        // huge magnitudes
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
    Operands io{TensorBuffer(dt, vec(c.t[0]), svec(c.t[0]), Role::Input, c.pad[0][0], c.pad[0][1],
                             c.guard_front[0]),
                nullptr, nullptr,
                TensorBuffer(dt, vec(c.t[1]), svec(c.t[1]), Role::Output, c.pad[1][0], c.pad[1][1],
                             c.guard_front[1])};
    io.x.fill([&](int64_t i) { return element_value(in, c.value_mode, dt, i); });
    std::unique_ptr<TensorBuffer>* sb[2] = {&io.scale, &io.bias};
    for (int k = 2; k < 4; ++k) {
        if (!tensor_used(c, k)) continue;
        *sb[k - 2] = std::make_unique<TensorBuffer>(dt, vec(c.t[k]), svec(c.t[k]), Role::Input,
                                                    c.pad[k][0], c.pad[k][1], c.guard_front[k]);
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
                if (io.scale) b.scale = nullptr;
                else if (io.bias) b.bias = nullptr;
                else b.input = nullptr;
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
                const bool alias = shift == 0 && is_elementwise(c) &&
                                   strides_of(c.t[0]) == strides_of(c.t[1]);
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

    if (c.in_place && is_elementwise(c) && strides_of(c.t[0]) == strides_of(c.t[1])) {
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
            std::fprintf(stderr, "  [%zu] x %.17g  ref %.17g  got %.17g\n", i, xs[i], ref[i],
                         got[i]);
        for (const TensorBuffer* t : {io.scale.get(), io.bias.get()})
            if (t) {
                std::fprintf(stderr, "  %s (packed):", t == io.scale.get() ? "scale" : "bias");
                for (double v : t->read()) std::fprintf(stderr, " %.9g", v);
                std::fprintf(stderr, "\n");
            }
    }
    if (!r.ok)
        fail(c, "output differs from the reference\n" + r.report);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
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
            fail(c, std::string("create rejected a valid descriptor: ") + simdax_status_name(s) +
                        ": " + simdax_last_error());
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
