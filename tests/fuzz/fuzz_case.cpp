#include "fuzz_case.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

namespace fuzz {
namespace {

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
    static const float special[] = {0.0f,     -0.0f,     std::numeric_limits<float>::quiet_NaN(),
                                    INFINITY, -INFINITY, FLT_MAX,
                                    -FLT_MAX, 1e-45f,    1e-40f,
                                    1e30f,    -1e30f,    1.0f,
                                    -1.0f,    65504.0f,  3e38f};
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
        if (s < 128) continue;  // natural
        if (s < 160)
            v = -v;  // reversed
        else if (s < 175)
            v = 0;  // broadcast (outputs: overlap)
        else if (s < 200)
            v = int64_t(s % 17) - 8;  // small, maybe overlapping
        else if (s < 220)
            v = v * 2 + 1;  // gaps
        else
            v = kHostileStrides[s % (sizeof kHostileStrides / sizeof *kHostileStrides)];
    }
}

}  // namespace

// A type no simdax version will use: the unknown-operator probe.
constexpr int kUnknownOperator = 1000;

Case decode(const uint8_t* data, size_t size, Bytes& in) {
    (void)data;
    (void)size;
    Case c;
    const uint8_t ops = in.u8();
    c.op_raw = ops < 240 ? 1 + ops % 6 : (ops < 248 ? 0 : (ops < 252 ? kUnknownOperator : -1));
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
        if (m % 3 == 0)
            c.t[1].rank = m / 3 % 10;
        else if (m % 3 == 1)
            c.sizes[1][m / 3 % kSlots] = decode_size(in);
        else
            c.t[1].dtype = simdax_dtype(1 + m / 3 % 5);
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
        if (a < 200)
            c.axes[i] = rank ? a % rank : 0;  // in range, sometimes repeated
        else if (a < 230)
            c.axes[i] = rank + a % 3;  // just out of range
        else
            c.axes[i] = a % 2 ? 0xFFFFFFFFu : 9u;
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
        c.act.type >= 0 && c.act.type < SIMDAX_ACTIVATION_COUNT ? c.act.type : SIMDAX_ACTIVATION_IDENTITY);
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

}  // namespace fuzz
