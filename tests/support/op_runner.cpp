#include "support/op_runner.hpp"

#include <cmath>
#include <sstream>

#include "support/dtype.hpp"
#include "support/list_text.hpp"
#include "support/reference.hpp"

namespace sxt {
namespace {

std::string act_string(const simdax_activation_desc& a) {
    std::ostringstream s;
    s.precision(9);
    s << "type " << int(a.type) << " alpha " << a.alpha << " beta " << a.beta << " gamma " << a.gamma;
    return s.str();
}

std::vector<int64_t> unravel(int64_t p, const std::vector<int64_t>& sizes) {
    std::vector<int64_t> idx(sizes.size());
    for (size_t d = sizes.size(); d-- > 0;) {
        idx[d] = p % sizes[d];
        p /= sizes[d];
    }
    return idx;
}

double at(const StridedView& v, const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * v.strides[d];
    return v.base[off];
}

}  // namespace

const char* op_name(simdax_operator_type op) {
    switch (op) {
        case SIMDAX_OPERATOR_LOG_SOFTMAX: return "LogSoftmax";
        case SIMDAX_OPERATOR_SOFTMAX: return "Softmax";
        case SIMDAX_OPERATOR_HARDMAX: return "Hardmax";
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION:
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX: return "MVN";
        case SIMDAX_OPERATOR_HARD_SIGMOID: return "HardSigmoid";
        case SIMDAX_OPERATOR_ACTIVATION: return "Activation";
        case SIMDAX_OPERATOR_CAST: return "Cast";
        case SIMDAX_OPERATOR_ATTENTION_SOFTMAX: return "AttentionSoftmax";
        case SIMDAX_OPERATOR_LAYER_NORMALIZATION: return "LayerNormalization";
        case SIMDAX_OPERATOR_RMS_NORMALIZATION: return "RMSNormalization";
    }
    return "unknown-op";
}

std::string describe(const OpSpec& spec, const Operands& io) {
    std::ostringstream s;
    s.precision(9);
    const char* isa = simdax_isa_name(simdax_active_isa());
    s << op_name(spec.op) << " " << dtype_name(io.x.dtype()) << " isa " << (isa ? isa : "?") << " sizes "
      << list(io.x.sizes());
    if (!spec.axes.empty()) s << " axes " << list(spec.axes);
    s << "\n  input  " << io.x.layout() << "\n  output " << io.y.layout();
    if (io.scale) s << "\n  scale sizes " << list(io.scale->sizes()) << " " << io.scale->layout();
    if (io.bias) s << "\n  bias sizes " << list(io.bias->sizes()) << " " << io.bias->layout();
    switch (spec.op) {
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION:
            s << "\n  normalize_variance " << spec.normalize_variance << " epsilon " << spec.epsilon
              << " placement "
              << (!spec.epsilon_placement                                 ? "plain desc"
                  : *spec.epsilon_placement == SIMDAX_EPSILON_ON_STDDEV   ? "ex stddev"
                  : *spec.epsilon_placement == SIMDAX_EPSILON_ON_VARIANCE ? "ex variance"
                                                                          : "ex invalid")
              << " activation " << (spec.has_activation ? act_string(spec.activation) : "none");
            break;
        case SIMDAX_OPERATOR_HARD_SIGMOID: s << "\n  alpha " << spec.alpha << " beta " << spec.beta; break;
        case SIMDAX_OPERATOR_ACTIVATION: s << "\n  activation " << act_string(spec.activation); break;
        default: break;
    }
    return s.str();
}

simdax_operator_type created_type(const OpSpec& spec) {
    return spec.op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION && spec.epsilon_placement
               ? SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX
               : spec.op;
}

const simdax_operator_desc* build_desc(const OpSpec& spec, const Operands& io, DescStorage* st) {
    st->x = io.x.desc();
    st->y = io.y.desc();
    st->op.type = created_type(spec);
    switch (spec.op) {
        case SIMDAX_OPERATOR_LOG_SOFTMAX:
        case SIMDAX_OPERATOR_SOFTMAX:
        case SIMDAX_OPERATOR_HARDMAX:
            st->axes_desc = {&st->x, &st->y, uint32_t(spec.axes.size()), spec.axes.data()};
            st->op.desc = &st->axes_desc;
            break;
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX:  // OpSpec: MVN + epsilon_placement
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION:
            if (io.scale) st->scale = io.scale->desc();
            if (io.bias) st->bias = io.bias->desc();
            st->mvn.input = &st->x;
            st->mvn.scale = io.scale ? &st->scale : nullptr;
            st->mvn.bias = io.bias ? &st->bias : nullptr;
            st->mvn.output = &st->y;
            st->mvn.axis_count = uint32_t(spec.axes.size());
            st->mvn.axes = spec.axes.data();
            st->mvn.normalize_variance = spec.normalize_variance ? 1 : 0;
            st->mvn.epsilon = spec.epsilon;
            st->mvn.fused_activation = spec.has_activation ? &spec.activation : nullptr;
            st->op.desc = &st->mvn;
            if (spec.epsilon_placement) {
                st->mvn_ex = {st->mvn, *spec.epsilon_placement};
                st->op.desc = &st->mvn_ex;
            }
            break;
        case SIMDAX_OPERATOR_HARD_SIGMOID:
            st->hs = {&st->x, &st->y, spec.alpha, spec.beta};
            st->op.desc = &st->hs;
            break;
        case SIMDAX_OPERATOR_ACTIVATION:
            st->act = {&st->x, &st->y, spec.activation};
            st->op.desc = &st->act;
            break;
        case SIMDAX_OPERATOR_CAST:
            st->cast = {&st->x, &st->y};
            st->op.desc = &st->cast;
            break;
        case SIMDAX_OPERATOR_ATTENTION_SOFTMAX:  // without its options: Softmax over the last axis
            st->attn = {&st->x, nullptr, nullptr, nullptr, &st->y, nullptr, 1.0f, 0.0f, SIMDAX_CAUSAL_NONE,
                        0,      0};
            st->op.desc = &st->attn;
            break;
        case SIMDAX_OPERATOR_LAYER_NORMALIZATION:  // tests/layer_norm_test.cpp runs these itself
        case SIMDAX_OPERATOR_RMS_NORMALIZATION: st->op.desc = nullptr; break;
    }
    return &st->op;
}

namespace {
// The operator's one-shot entry point on the descriptor build_desc filled.
simdax_status call_one_shot(const OpSpec& spec, const DescStorage& st, Operands& io, const void* sc,
                            const void* bi) {
    const void* x = io.x.data();
    void* y = io.y.data();
    switch (spec.op) {
        case SIMDAX_OPERATOR_LOG_SOFTMAX: return simdax_log_softmax(&st.axes_desc, x, y);
        case SIMDAX_OPERATOR_SOFTMAX: return simdax_softmax(&st.axes_desc, x, y);
        case SIMDAX_OPERATOR_HARDMAX: return simdax_hardmax(&st.axes_desc, x, y);
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION:
            return spec.epsilon_placement ? simdax_mean_variance_normalization_ex(&st.mvn_ex, x, sc, bi, y)
                                          : simdax_mean_variance_normalization(&st.mvn, x, sc, bi, y);
        case SIMDAX_OPERATOR_HARD_SIGMOID: return simdax_hard_sigmoid(&st.hs, x, y);
        case SIMDAX_OPERATOR_ACTIVATION: return simdax_activation(&st.act, x, y);
        case SIMDAX_OPERATOR_CAST: return simdax_cast(&st.cast, x, y);
        case SIMDAX_OPERATOR_ATTENTION_SOFTMAX:
            return simdax_attention_softmax(&st.attn, x, nullptr, nullptr, nullptr, y, nullptr);
        default: return SIMDAX_ERROR_INVALID_ARGUMENT;
    }
}
}  // namespace

simdax_status execute(const OpSpec& spec, Operands& io, bool one_shot, std::string* error) {
    DescStorage st;
    const simdax_operator_desc* d = build_desc(spec, io, &st);
    simdax_status s;
    const void* sc = io.scale ? io.scale->data() : nullptr;
    const void* bi = io.bias ? io.bias->data() : nullptr;
    if (one_shot) {
        s = call_one_shot(spec, st, io, sc, bi);
    } else {
        simdax_operator* op = nullptr;
        s = simdax_operator_create(d, &op);
        if (s == SIMDAX_OK) {
            const simdax_bindings b{io.x.data(), sc, bi, io.y.data()};
            s = simdax_operator_execute(op, &b);
            if (s == SIMDAX_OK && simdax_operator_get_type(op) != created_type(spec)) {
                *error = "simdax_operator_get_type does not return the created type";
                simdax_operator_destroy(op);
                return SIMDAX_ERROR_INVALID_ARGUMENT;
            }
        }
        simdax_operator_destroy(op);
    }
    if (s != SIMDAX_OK) *error = simdax_last_error();
    return s;
}

namespace {
// ranges: filled by MVN only.
std::vector<double> reference_values(const OpSpec& spec, const Operands& io, std::vector<RefRange>* ranges) {
    const StridedView x = io.x.view();
    switch (spec.op) {
        case SIMDAX_OPERATOR_LOG_SOFTMAX: return ref_log_softmax(x, spec.axes);
        case SIMDAX_OPERATOR_SOFTMAX: return ref_softmax(x, spec.axes);
        case SIMDAX_OPERATOR_HARDMAX: return ref_hardmax(x, spec.axes);
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION_EX:  // OpSpec: MVN + epsilon_placement
        case SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION: {
            StridedView sv, bv;
            MvnParams p;
            if (io.scale) {
                sv = io.scale->view();
                p.scale = &sv;
            }
            if (io.bias) {
                bv = io.bias->view();
                p.bias = &bv;
            }
            p.normalize_variance = spec.normalize_variance;
            p.epsilon = spec.epsilon;
            p.epsilon_on_stddev = spec.epsilon_placement == SIMDAX_EPSILON_ON_STDDEV;
            p.compute_eps = io.x.dtype() == SIMDAX_DTYPE_FLOAT64 ? 0x1p-53 : 0x1p-24;
            p.act = spec.has_activation ? &spec.activation : nullptr;
            return ref_mvn(x, spec.axes, p, ranges);
        }
        case SIMDAX_OPERATOR_HARD_SIGMOID: return ref_hard_sigmoid_op(x, spec.alpha, spec.beta);
        case SIMDAX_OPERATOR_ATTENTION_SOFTMAX:
            return ref_softmax(x, std::vector<uint32_t>{uint32_t(io.x.sizes().size() - 1)});
        case SIMDAX_OPERATOR_ACTIVATION: return ref_activation_op(x, spec.activation);
        case SIMDAX_OPERATOR_CAST: {  // exact: the input's value rounded once to the output's type
            std::vector<double> v =
                ref_activation_op(x, simdax_activation_desc{SIMDAX_ACTIVATION_IDENTITY, 0, 0, 0});
            for (double& e : v) e = round_to_dtype(e, io.y.dtype());
            return v;
        }
        case SIMDAX_OPERATOR_LAYER_NORMALIZATION:  // tests/layer_norm_test.cpp has its own reference
        case SIMDAX_OPERATOR_RMS_NORMALIZATION: return {};
    }
    return {};
}
}  // namespace

std::vector<double> reference(const OpSpec& spec, const Operands& io, std::vector<RefRange>* ranges) {
    if (ranges) ranges->clear();
    const std::vector<double> ref = reference_values(spec, io, ranges);
    if (ranges && ranges->empty())
        for (double r : ref) ranges->push_back(point_range(r));
    return ref;
}

CheckResult check_output(const OpSpec& spec, const Operands& io) {
    const simdax_dtype dt = io.y.dtype();
    const bool fused_transcendental = spec.op == SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION &&
                                      spec.has_activation && is_transcendental(spec.activation.type);
    const Tolerance tol = tolerance_for(spec.op, dt, fused_transcendental);
    std::vector<RefRange> ranges;
    const std::vector<double> ref = reference(spec, io, &ranges);
    const std::vector<double> got = io.y.read();
    int64_t bad = 0, worst = -1;
    double worst_score = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        const double b = badness(ranges[i], got[i], dt, tol);
        if (b == 0) continue;
        ++bad;
        if (worst < 0 || b > worst_score) {
            worst = int64_t(i);
            worst_score = b;
        }
    }
    const int64_t unwritten = io.y.unwritten();
    const int64_t gaps = io.y.touched_gaps();
    const bool in_mod = io.x.input_modified() || (io.scale && io.scale->input_modified()) ||
                        (io.bias && io.bias->input_modified());
    CheckResult r;
    r.ok = bad == 0 && unwritten == 0 && gaps == 0 && !in_mod;
    if (r.ok) return r;
    std::ostringstream s;
    s.precision(17);
    s << describe(spec, io) << "\n  " << bad << " of " << ref.size() << " elements fail";
    if (worst >= 0) {
        const std::vector<int64_t> idx = unravel(worst, io.x.sizes());
        s << "; worst at index " << list(idx) << ": input " << at(io.x.view(), idx) << " ref "
          << ref[size_t(worst)] << " (in dtype " << round_to_dtype(ref[size_t(worst)], dt) << ") got "
          << got[size_t(worst)];
        const RefRange& a = ranges[size_t(worst)];
        s << " (accepted: [" << a.lo[0] << ", " << a.hi[0] << "]";
        if (a.lo[1] <= a.hi[1]) s << ", [" << a.lo[1] << ", " << a.hi[1] << "]";
        s << (a.nan ? ", NaN)" : ")");
    }
    if (unwritten) s << "\n  " << unwritten << " output elements never written (canary left)";
    if (gaps) s << "\n  " << gaps << " output gap elements overwritten (stray writes)";
    if (in_mod) s << "\n  an input buffer was modified";
    r.report = s.str();
    return r;
}

CheckResult run_and_check(const OpSpec& spec, Operands& io, bool one_shot) {
    std::string err;
    const simdax_status s = execute(spec, io, one_shot, &err);
    if (s != SIMDAX_OK) {
        CheckResult r;
        r.ok = false;
        r.report = describe(spec, io) + "\n  status " + simdax_status_name(s) + ": " + err;
        return r;
    }
    return check_output(spec, io);
}

}  // namespace sxt
