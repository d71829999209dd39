// AttentionSoftmax against the float64 reference (support/attention_reference):
// random shapes and ranks, every mask dtype and broadcast, each causal mode
// and window, ALiBi, sinks, softcap, LogSoftmax, log-sum-exp, fully masked
// rows, NaN/inf, in place, negative/zero/padded strides, odd key lengths,
// 2-thread determinism. ctest runs this at every ISA (SIMDAX_MAX_ISA).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>

#include "support/attention_reference.hpp"
#include "support/tensor_buffer.hpp"

namespace sxt {
namespace {

enum class Layout { packed, padded, negative, key_strided };

struct Case {
    simdax_dtype dt = SIMDAX_DTYPE_FLOAT32;
    std::vector<int64_t> shape;
    bool mask = false;
    simdax_dtype mask_dt = SIMDAX_DTYPE_FLOAT32;
    std::vector<bool> mask_bcast;    // per dim: size 1
    bool mask_zero_strides = false;  // broadcast by explicit stride 0 at full size
    bool slopes = false, sinks = false, lse = false, log = false, in_place = false;
    float scale = 1, softcap = 0;
    simdax_causal causal = SIMDAX_CAUSAL_NONE;
    uint32_t window = 0;
    Layout layout = Layout::packed;
    double nan_rate = 0, inf_rate = 0, neg_inf_mask_rate = 0.1;
    uint32_t seed = 1;
};

std::string describe(const Case& c) {
    std::ostringstream s;
    s << dtype_name(c.dt) << " shape [";
    for (int64_t v : c.shape) s << v << ' ';
    s << "] mask=" << (c.mask ? dtype_name(c.mask_dt) : "none") << (c.mask_zero_strides ? "(stride0)" : "")
      << " slopes=" << c.slopes << " sinks=" << c.sinks << " lse=" << c.lse << " log=" << c.log
      << " in_place=" << c.in_place << " scale=" << c.scale << " softcap=" << c.softcap
      << " causal=" << c.causal << " window=" << c.window << " layout=" << int(c.layout)
      << " seed=" << c.seed;
    return s.str();
}

// Strides of a layout (empty: packed).
std::vector<int64_t> strides_for(const std::vector<int64_t>& sz, Layout l) {
    if (l == Layout::packed) return {};
    std::vector<int64_t> st(sz.size());
    int64_t s = l == Layout::key_strided ? 3 : 1;
    for (size_t d = sz.size(); d-- > 0;) {
        st[d] = s;
        s *= sz[d] + (l == Layout::padded ? 1 : 0);
    }
    if (l == Layout::negative)
        for (size_t d = 0; d < sz.size(); d += 2) st[d] = -st[d];  // the key axis too when rank is odd
    if (l == Layout::negative && sz.size() % 2 == 0) st.back() = -st.back();
    return st;
}

// Runs one case through create + execute_bound (or the one-shot call) and
// checks every output element and the log-sum-exp against the reference.
void run_case(const Case& c, bool one_shot = false) {
    SCOPED_TRACE(describe(c));
    std::mt19937 rng(c.seed);
    std::uniform_real_distribution<double> u(0, 1);
    const size_t r = c.shape.size();
    TensorBuffer x(c.dt, c.shape, strides_for(c.shape, c.layout), Role::Input, 2, 2);
    x.fill([&](int64_t) {
        const double p = u(rng);
        if (p < c.nan_rate) return std::nan("");
        if (p < c.nan_rate + c.inf_rate)
            return p < c.nan_rate + c.inf_rate / 2 ? double(INFINITY) : -double(INFINITY);
        return -4 + 8 * u(rng);
    });
    std::unique_ptr<TensorBuffer> y, mask, slopes, sinks, lse;
    if (!c.in_place)
        y = std::make_unique<TensorBuffer>(c.dt, c.shape, strides_for(c.shape, c.layout), Role::Output, 2, 2);
    std::vector<int64_t> row_shape = c.shape;
    row_shape[r - 1] = 1;
    if (c.mask) {
        std::vector<int64_t> ms = c.shape, mst;
        if (c.mask_zero_strides) {
            mst = packed_strides(c.shape);
            for (size_t d = 0; d < r; ++d)
                if (c.mask_bcast[d]) mst[d] = 0;
        } else {
            for (size_t d = 0; d < r; ++d)
                if (c.mask_bcast[d]) ms[d] = 1;
        }
        mask = std::make_unique<TensorBuffer>(c.mask_dt, ms, mst, Role::Input);
        const bool b = c.mask_dt == SIMDAX_DTYPE_UINT8;
        mask->fill([&](int64_t) {
            const double p = u(rng);
            if (b) return p < c.neg_inf_mask_rate * 2 ? 0.0 : 1.0;
            return p < c.neg_inf_mask_rate ? -double(INFINITY) : -2 + 4 * u(rng);
        });
    }
    std::vector<int64_t> head_shape(r, 1);
    if (r >= 3) head_shape[r - 3] = c.shape[r - 3];  // per head
    if (c.slopes) {
        slopes = std::make_unique<TensorBuffer>(SIMDAX_DTYPE_FLOAT32, head_shape, std::vector<int64_t>{},
                                                Role::Input);
        slopes->fill([&](int64_t) { return 0.001 + 0.03 * u(rng); });
    }
    if (c.sinks) {
        sinks = std::make_unique<TensorBuffer>(SIMDAX_DTYPE_BFLOAT16, head_shape, std::vector<int64_t>{},
                                               Role::Input);
        sinks->fill([&](int64_t) { return -2 + 5 * u(rng); });
    }
    if (c.lse)
        lse = std::make_unique<TensorBuffer>(SIMDAX_DTYPE_FLOAT32, row_shape, std::vector<int64_t>{},
                                             Role::Output);

    const simdax_tensor_desc xd = x.desc(), yd = c.in_place ? x.desc() : y->desc();
    simdax_tensor_desc md{}, sd{}, kd{}, ld{};
    if (mask) md = mask->desc();
    if (slopes) sd = slopes->desc();
    if (sinks) kd = sinks->desc();
    if (lse) ld = lse->desc();
    const simdax_attention_softmax_desc d{&xd,
                                          mask ? &md : nullptr,
                                          slopes ? &sd : nullptr,
                                          sinks ? &kd : nullptr,
                                          &yd,
                                          lse ? &ld : nullptr,
                                          c.scale,
                                          c.softcap,
                                          c.causal,
                                          c.window,
                                          c.log ? 1 : 0};
    void* out = c.in_place ? x.data() : y->data();
    simdax_status s;
    if (one_shot) {
        s = simdax_attention_softmax(&d, x.data(), mask ? mask->data() : nullptr,
                                     slopes ? slopes->data() : nullptr, sinks ? sinks->data() : nullptr, out,
                                     lse ? lse->data() : nullptr);
    } else {
        const simdax_operator_desc od{SIMDAX_OPERATOR_ATTENTION_SOFTMAX, &d};
        simdax_operator* op = nullptr;
        ASSERT_EQ(simdax_operator_create(&od, &op), SIMDAX_OK) << simdax_last_error();
        simdax_buffer_binding bb[SIMDAX_OPERAND_COUNT] = {};
        bb[SIMDAX_OPERAND_INPUT].data = x.data();
        bb[SIMDAX_OPERAND_OUTPUT].data = out;
        if (mask) bb[SIMDAX_OPERAND_MASK].data = mask->data();
        if (slopes) bb[SIMDAX_OPERAND_ALIBI_SLOPES].data = slopes->data();
        if (sinks) bb[SIMDAX_OPERAND_SINKS].data = sinks->data();
        if (lse) bb[SIMDAX_OPERAND_LOG_SUM_EXP].data = lse->data();
        const simdax_operand_bindings b{
            SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS),
            SIMDAX_OPERAND_COUNT, bb};
        s = simdax_operator_execute_bound(op, &b, nullptr);
        simdax_operator_destroy(op);
    }
    ASSERT_EQ(s, SIMDAX_OK) << simdax_last_error();

    const StridedView xv = x.view();
    StridedView mv, sv, kv;
    AttnRefArgs a;
    a.x = &xv;
    if (mask) {
        mv = mask->view();
        a.mask = &mv;
        a.mask_bool = c.mask_dt == SIMDAX_DTYPE_UINT8;
    }
    if (slopes) {
        sv = slopes->view();
        a.slopes = &sv;
    }
    if (sinks) {
        kv = sinks->view();
        a.sinks = &kv;
    }
    a.scale = double(c.scale);
    a.softcap = double(c.softcap);
    a.causal = c.causal;
    a.window = c.window;
    a.log = c.log;
    const AttnRef ref = ref_attention_softmax(a);
    const std::vector<double> got = c.in_place ? x.read() : y->read();
    ASSERT_EQ(got.size(), ref.y.size());
    const Tolerance tol = tolerance_for(c.log ? SIMDAX_OPERATOR_LOG_SOFTMAX : SIMDAX_OPERATOR_SOFTMAX, c.dt);
    int bad = 0;
    for (size_t i = 0; i < got.size() && bad < 5; ++i)
        if (!passes(ref.y[i], got[i], c.dt, tol)) {
            ADD_FAILURE() << "y[" << i << "] = " << got[i] << ", reference " << ref.y[i];
            ++bad;
        }
    if (!c.in_place) {
        EXPECT_EQ(y->touched_gaps(), 0);
        EXPECT_EQ(y->unwritten(), 0);
        EXPECT_FALSE(x.input_modified());
    }
    if (lse) {
        const std::vector<double> l = lse->read();
        ASSERT_EQ(l.size(), ref.lse.size());
        const Tolerance lt = tolerance_for(SIMDAX_OPERATOR_LOG_SOFTMAX, SIMDAX_DTYPE_FLOAT32);
        for (size_t i = 0; i < l.size() && bad < 10; ++i)
            if (!passes(ref.lse[i], l[i], SIMDAX_DTYPE_FLOAT32, lt)) {
                ADD_FAILURE() << "lse[" << i << "] = " << l[i] << ", reference " << ref.lse[i];
                ++bad;
            }
    }
}

constexpr simdax_dtype kDtypes[] = {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16};
constexpr simdax_dtype kMaskDtypes[] = {SIMDAX_DTYPE_FLOAT32, SIMDAX_DTYPE_FLOAT16, SIMDAX_DTYPE_BFLOAT16,
                                        SIMDAX_DTYPE_UINT8};
constexpr int64_t kLengths[] = {1, 7, 8, 9, 15, 16, 17, 127, 128, 129, 1000};

TEST(AttentionSoftmax, OddLengthsEveryDtypeAndMaskDtype) {
    uint32_t seed = 1;
    for (simdax_dtype dt : kDtypes)
        for (int64_t n : kLengths)
            for (int m = -1; m < 4; ++m) {
                Case c;
                c.dt = dt;
                c.shape = {2, 3, n < 100 ? 5 : 2, n};
                c.mask = m >= 0;
                if (c.mask) c.mask_dt = kMaskDtypes[m];
                c.mask_bcast = {false, true, m == 1, false};
                c.scale = 0.125f;
                c.seed = seed++;
                run_case(c);
            }
}

TEST(AttentionSoftmax, CausalModesWindowsAlibiSinksSoftcapLogLse) {
    uint32_t seed = 100;
    const int64_t shapes[][2] = {{1, 1}, {5, 5}, {3, 17}, {17, 3}, {9, 129}, {1, 1000}, {64, 64}};
    for (const auto& sh : shapes)
        for (int causal = 0; causal < 3; ++causal)
            for (uint32_t window : {0u, 1u, 4u, 100u})
                for (int opt = 0; opt < 4; ++opt) {
                    if (causal == 0 && window) continue;
                    Case c;
                    c.dt = kDtypes[opt % 3];
                    c.shape = {2, sh[0], sh[1]};
                    c.causal = simdax_causal(causal);
                    c.window = window;
                    c.slopes = opt & 1;
                    c.sinks = opt >= 2;
                    c.softcap = opt == 3 ? 5.0f : 0.0f;
                    c.log = opt & 2 ? opt == 2 : false;
                    c.lse = true;
                    c.mask = opt == 1;
                    c.mask_dt = SIMDAX_DTYPE_UINT8;
                    c.mask_bcast = {true, false, false};
                    c.seed = seed++;
                    run_case(c);
                    c.log = !c.log;
                    c.seed = seed++;
                    run_case(c);
                }
}

TEST(AttentionSoftmax, StridesInPlaceAndBroadcasts) {
    uint32_t seed = 500;
    for (Layout l : {Layout::packed, Layout::padded, Layout::negative, Layout::key_strided})
        for (int64_t n : {1, 9, 17, 129, 600})
            for (simdax_dtype dt : kDtypes)
                for (int variant = 0; variant < 3; ++variant) {
                    Case c;
                    c.dt = dt;
                    c.shape = {2, 2, 3, n};
                    c.layout = l;
                    c.mask = true;
                    c.mask_dt = kMaskDtypes[(seed + variant) % 4];
                    c.mask_bcast = variant == 0   ? std::vector<bool>{false, true, true, false}
                                   : variant == 1 ? std::vector<bool>{true, true, false, false}
                                                  : std::vector<bool>{false, false, false, true};
                    c.mask_zero_strides = variant == 2;
                    c.in_place = variant == 1;
                    c.causal = SIMDAX_CAUSAL_BOTTOM_RIGHT;
                    c.window = variant == 0 ? 5 : 0;
                    c.slopes = c.sinks = c.lse = true;
                    c.log = variant == 2;
                    c.seed = seed++;
                    run_case(c);
                }
}

TEST(AttentionSoftmax, RanksAndLongRows) {
    uint32_t seed = 900;
    const std::vector<std::vector<int64_t>> shapes = {
        {3, 5}, {2, 1, 4, 7}, {1, 2, 1, 2, 3, 9}, {2, 5000}, {1, 2, 3, 4100}};
    for (const auto& sh : shapes)
        for (simdax_dtype dt : kDtypes)
            for (int causal = 0; causal < 3; ++causal) {
                Case c;
                c.dt = dt;
                c.shape = sh;
                c.causal = simdax_causal(causal);
                c.mask = true;
                c.mask_dt = SIMDAX_DTYPE_FLOAT16;
                c.mask_bcast.assign(sh.size(), true);
                c.mask_bcast.back() = false;
                c.sinks = c.lse = causal == 2;
                c.log = causal == 1;
                c.layout = causal == 2 ? Layout::key_strided : Layout::packed;
                c.seed = seed++;
                run_case(c);
            }
}

TEST(AttentionSoftmax, FullyMaskedRowsNanAndInf) {
    uint32_t seed = 1200;
    for (simdax_dtype dt : kDtypes)
        for (int64_t n : {1, 8, 17, 129, 5000})
            for (int kind = 0; kind < 4; ++kind) {
                Case c;
                c.dt = dt;
                c.shape = {3, 4, n};
                c.mask = true;
                c.mask_dt = kind == 1 ? SIMDAX_DTYPE_UINT8 : SIMDAX_DTYPE_FLOAT32;
                c.mask_bcast = {false, false, false};
                c.neg_inf_mask_rate = kind < 2 ? 0.95 : 0.1;  // many rows fully masked
                c.nan_rate = kind == 2 ? 0.002 : 0;
                c.inf_rate = kind == 3 ? 0.01 : 0;
                c.lse = true;
                c.log = n % 2 == 1;
                c.sinks = kind == 0 && n == 8;
                c.layout = n == 17 ? Layout::key_strided : Layout::packed;
                c.seed = seed++;
                run_case(c);
            }
}

TEST(AttentionSoftmax, OneShot) {
    Case c;
    c.shape = {2, 3, 4, 33};
    c.mask = c.slopes = c.sinks = c.lse = true;
    c.mask_dt = SIMDAX_DTYPE_BFLOAT16;
    c.mask_bcast = {false, true, true, false};
    c.causal = SIMDAX_CAUSAL_TOP_LEFT;
    run_case(c, true);
}

}  // namespace
}  // namespace sxt
