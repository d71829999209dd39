// AttentionSoftmax test cases (support/attention_case.hpp).
#include "support/attention_case.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <sstream>

#include "support/attention_reference.hpp"
#include "support/tensor_buffer.hpp"

namespace sxt {
namespace {

std::string describe(const Case& c) {
    std::ostringstream s;
    s << dtype_name(c.dt) << " shape [";
    for (int64_t v : c.shape) s << v << ' ';
    s << "] mask=" << (c.mask ? dtype_name(c.mask_dt) : "none") << (c.mask_zero_strides ? "(stride0)" : "")
      << " slopes=" << c.slopes << " sinks=" << c.sinks << " per_query=" << c.per_query << " lse=" << c.lse
      << " log=" << c.log << " in_place=" << c.in_place << " scale=" << c.scale << " softcap=" << c.softcap
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

}  // namespace

void run_attention_case(const Case& c, bool one_shot) {
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
        y = std::make_unique<TensorBuffer>(c.dt, c.shape, strides_for(c.shape, c.layout), Role::Output,
                                           c.y_gaps, c.y_gaps);
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
    if (c.per_query) head_shape[r - 2] = c.shape[r - 2];
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

}  // namespace sxt
