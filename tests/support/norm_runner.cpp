// LayerNormalization / RMSNormalization test cases: operands, a run through
// the typed API, and the float64 reference (docs/layer_normalization.md,
// docs/rms_normalization.md, written from the formulas).
#include "support/norm_runner.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

#include "support/dtype.hpp"
#include "support/list_text.hpp"

namespace sxt {
namespace {

std::unique_ptr<TensorBuffer> buffer(simdax_dtype dt, const NormLayout& l, Role r) {
    return std::make_unique<TensorBuffer>(dt, l.sizes, l.strides, r, 0, l.pad_back);
}

// The value of a (possibly right-aligned broadcast) view at the input's
// multi-index idx.
double at(const StridedView& v, const std::vector<int64_t>& idx) {
    const size_t lead = idx.size() - v.sizes.size();
    int64_t off = 0;
    for (size_t d = 0; d < v.sizes.size(); ++d)
        if (v.sizes[d] > 1) off += idx[lead + d] * v.strides[d];
    return v.base[off];
}

}  // namespace

std::string NormCase::describe() const {
    std::ostringstream s;
    s << (op == SIMDAX_OPERATOR_RMS_NORMALIZATION ? "RMSNormalization" : "LayerNormalization") << " "
      << dtype_name(dt) << " isa " << simdax_isa_name(simdax_active_isa()) << " sizes " << list(x.sizes)
      << " x.strides " << list(x.strides) << " y.strides " << list(y.strides) << " axis " << axis
      << " epsilon " << epsilon << " scale " << list(scale.sizes) << list(scale.strides) << " "
      << dtype_name(param_dt);
    if (has_bias) s << " bias " << list(bias.sizes) << list(bias.strides);
    if (has_skip) s << " skip " << list(skip.strides);
    if (has_skip_bias) s << " skip_bias " << list(skip_bias.sizes);
    if (has_sum) s << " sum " << list(sum.strides);
    if (has_mean) s << " mean";
    if (has_inv) s << " inv_std_dev";
    return s.str();
}

std::vector<int64_t> stat_sizes(const std::vector<int64_t>& sizes, int32_t axis) {
    const int32_t r = int32_t(sizes.size()), a = axis < 0 ? axis + r : axis;
    std::vector<int64_t> out = sizes;
    for (int32_t d = a; d < r; ++d) out[size_t(d)] = 1;
    return out;
}

NormIo make_norm_io(const NormCase& c) {
    NormIo io;
    io.x = buffer(c.dt, c.x, Role::Input);
    io.y = buffer(c.dt, c.y, Role::Output);
    io.scale = buffer(c.param_dt, c.scale, Role::Input);
    if (c.has_bias) io.bias = buffer(c.param_dt, c.bias, Role::Input);
    if (c.has_skip) io.skip = buffer(c.dt, c.skip, Role::Input);
    if (c.has_skip_bias) io.skip_bias = buffer(c.param_dt, c.skip_bias, Role::Input);
    if (c.has_sum) io.sum = buffer(c.dt, c.sum, Role::Output);
    if (c.has_mean) io.mean = buffer(SIMDAX_DTYPE_FLOAT32, c.mean, Role::Output);
    if (c.has_inv) io.inv = buffer(SIMDAX_DTYPE_FLOAT32, c.inv, Role::Output);
    return io;
}

void fill_norm_io(NormIo& io, const std::function<double(int, int64_t)>& gen) {
    TensorBuffer* in[] = {io.x.get(), io.skip.get(), io.scale.get(), io.bias.get(), io.skip_bias.get()};
    for (int k = 0; k < 5; ++k)
        if (in[k]) in[k]->fill([&](int64_t i) { return gen(k, i); });
}

simdax_status run_norm(const NormCase& c, NormIo& io, const simdax_parallel* par, std::string* error,
                       bool via_info) {
    simdax_tensor_desc d[9];
    TensorBuffer* t[9] = {io.x.get(),         io.y.get(),   io.scale.get(), io.bias.get(), io.skip.get(),
                          io.skip_bias.get(), io.sum.get(), io.mean.get(),  io.inv.get()};
    const simdax_tensor_desc* p[9];
    for (int i = 0; i < 9; ++i) {
        if (t[i]) d[i] = t[i]->desc();
        p[i] = t[i] ? &d[i] : nullptr;
    }
    simdax_operator* op = nullptr;
    simdax_status s;
    if (c.op == SIMDAX_OPERATOR_RMS_NORMALIZATION) {
        simdax_rms_normalization_create_info info{
            SIMDAX_HEADER(simdax_rms_normalization_create_info,
                          SIMDAX_STRUCTURE_TYPE_RMS_NORMALIZATION_CREATE_INFO),
            {p[0], p[2], p[1], c.axis, c.epsilon, c.stash_type, p[4], p[5], p[6]}};
        const simdax_operator_desc od{c.op, &info.desc};
        s = via_info ? simdax_operator_create_from_info(&info.header, &op) : simdax_operator_create(&od, &op);
    } else {
        simdax_layer_normalization_create_info info{
            SIMDAX_HEADER(simdax_layer_normalization_create_info,
                          SIMDAX_STRUCTURE_TYPE_LAYER_NORMALIZATION_CREATE_INFO),
            {p[0], p[2], p[3], p[1], c.axis, c.epsilon, c.stash_type, p[4], p[5], p[6], p[7], p[8]}};
        const simdax_operator_desc od{c.op, &info.desc};
        s = via_info ? simdax_operator_create_from_info(&info.header, &op) : simdax_operator_create(&od, &op);
    }
    if (s == SIMDAX_OK) {
        simdax_buffer_binding bb[SIMDAX_OPERAND_COUNT] = {};
        const simdax_operand slot[9] = {
            SIMDAX_OPERAND_INPUT,    SIMDAX_OPERAND_OUTPUT, SIMDAX_OPERAND_SCALE,
            SIMDAX_OPERAND_BIAS,     SIMDAX_OPERAND_SKIP,   SIMDAX_OPERAND_SKIP_BIAS,
            SIMDAX_OPERAND_SKIP_SUM, SIMDAX_OPERAND_MEAN,   SIMDAX_OPERAND_INV_STD_DEV};
        for (int i = 0; i < 9; ++i)
            if (t[i]) bb[slot[i]].data = t[i]->data();
        const simdax_operand_bindings b{
            SIMDAX_HEADER(simdax_operand_bindings, SIMDAX_STRUCTURE_TYPE_OPERAND_BINDINGS),
            SIMDAX_OPERAND_COUNT, bb};
        s = simdax_operator_execute_bound(op, &b, par);
    }
    simdax_operator_destroy(op);
    if (s != SIMDAX_OK && error) *error = simdax_last_error();
    return s;
}

NormRef reference_norm(const NormCase& c, const NormIo& io) {
    const bool rms = c.op == SIMDAX_OPERATOR_RMS_NORMALIZATION;
    const std::vector<int64_t>& sizes = c.x.sizes;
    const size_t rank = sizes.size();
    const size_t axis = size_t(c.axis < 0 ? c.axis + int32_t(rank) : c.axis);
    int64_t len = 1, total = 1;
    for (size_t d = 0; d < rank; ++d) {
        total *= sizes[d];
        if (d >= axis) len *= sizes[d];
    }
    const StridedView x = io.x->view(), g = io.scale->view();
    StridedView b, sk, sb;
    if (io.bias) b = io.bias->view();
    if (io.skip) sk = io.skip->view();
    if (io.skip_bias) sb = io.skip_bias->view();
    NormRef r;
    r.y.resize(size_t(total));
    r.y_reach.resize(size_t(total));
    // The compute type's unit roundoff (float for every dtype but float64).
    const double u = c.dt == SIMDAX_DTYPE_FLOAT64 ? 0x1p-53 : 0x1p-24;
    if (io.skip) r.sum.resize(size_t(total));
    std::vector<std::vector<int64_t>> idx(static_cast<size_t>(len), std::vector<int64_t>(rank));
    std::vector<double> v(static_cast<size_t>(len));
    for (int64_t g0 = 0; g0 < total; g0 += len) {
        // The group's multi-indices (packed order: the normalized dims are trailing).
        for (int64_t e = 0; e < len; ++e) {
            int64_t rest = g0 + e;
            for (size_t d = rank; d-- > 0;) {
                idx[size_t(e)][d] = rest % sizes[d];
                rest /= sizes[d];
            }
            double s = at(x, idx[size_t(e)]);
            if (io.skip) {
                // As documented: (x + skip) + skip_bias in float32, then
                // rounded to the data's dtype, which is what is normalized.
                const auto f32 = [](double v) { return round_to_dtype(v, SIMDAX_DTYPE_FLOAT32); };
                s = f32(s + at(sk, idx[size_t(e)]));
                if (io.skip_bias) s = f32(s + at(sb, idx[size_t(e)]));
                s = round_to_dtype(s, c.dt);
                r.sum[size_t(g0 + e)] = s;
            }
            v[size_t(e)] = s;
        }
        double mean = 0, var = 0;
        for (double s : v) mean += s;
        mean /= double(len);
        if (rms) mean = 0;
        for (double s : v) var += (s - mean) * (s - mean);
        var /= double(len);
        const double inv = 1.0 / std::sqrt(var + double(c.epsilon));
        for (int64_t e = 0; e < len; ++e) {
            const double product = (v[size_t(e)] - mean) * inv * at(g, idx[size_t(e)]);
            r.y[size_t(g0 + e)] = io.bias ? product + at(b, idx[size_t(e)]) : product;
            // The normalized value's error: relative to itself, and the
            // mean's (mean_reach) through inv * scale.
            const double mean_err = rms ? 0.0 : std::sqrt(var) * inv * std::fabs(at(g, idx[size_t(e)]));
            r.y_reach[size_t(g0 + e)] = std::isfinite(product) && std::isfinite(mean_err)
                                            ? 8 * u * (std::fabs(product) + mean_err)
                                            : 0.0;
        }
        r.mean.push_back(mean);
        r.mean_reach.push_back(std::isfinite(var) ? 8 * u * std::sqrt(var) : 0.0);
        r.inv.push_back(inv);
    }
    return r;
}

namespace {

// The worst element of got against ref, or "" when every one passes.
// reach: NULL, or each element's allowance around ref (NormRef::y_reach).
std::string compare(const char* what, const std::vector<double>& ref, const std::vector<double>& got,
                    simdax_dtype dt, const std::vector<double>* reach = nullptr) {
    const Tolerance tol = tolerance_for(SIMDAX_OPERATOR_MEAN_VARIANCE_NORMALIZATION, dt);
    int64_t bad = 0, worst = -1;
    double worst_score = -1;
    for (size_t i = 0; i < ref.size(); ++i) {
        RefRange rr = point_range(ref[i]);
        if (reach && !rr.nan) rr.lo[0] -= (*reach)[i], rr.hi[0] += (*reach)[i];
        const double score = badness(rr, got[i], dt, tol);
        if (score == 0) continue;
        ++bad;
        if (score > worst_score) worst_score = score, worst = int64_t(i);
    }
    if (bad == 0) return "";
    std::ostringstream s;
    s.precision(9);
    s << "\n  " << what << ": " << bad << " of " << ref.size() << " fail; worst at " << worst << ": got "
      << got[size_t(worst)] << " want " << ref[size_t(worst)];
    return s.str();
}

std::string canaries(const char* what, const TensorBuffer* t) {
    if (!t) return "";
    std::ostringstream s;
    if (t->touched_gaps()) s << "\n  " << what << ": " << t->touched_gaps() << " gap elements written";
    return s.str();
}

}  // namespace

std::string check_norm(const NormCase& c, const NormIo& io) {
    const NormRef r = reference_norm(c, io);
    std::string out = compare("output", r.y, io.y->read(), c.dt, &r.y_reach);
    if (io.sum) out += compare("skip_sum", r.sum, io.sum->read(), c.dt);
    if (io.mean) out += compare("mean", r.mean, io.mean->read(), SIMDAX_DTYPE_FLOAT32, &r.mean_reach);
    if (io.inv) out += compare("inv_std_dev", r.inv, io.inv->read(), SIMDAX_DTYPE_FLOAT32);
    const TensorBuffer* outs[] = {io.y.get(), io.sum.get(), io.mean.get(), io.inv.get()};
    for (const TensorBuffer* t : outs)
        if (t && t->unwritten())
            out += "\n  an output has " + std::to_string(t->unwritten()) + " unwritten elements";
    const TensorBuffer* ins[] = {io.x.get(), io.skip.get(), io.scale.get(), io.bias.get(),
                                 io.skip_bias.get()};
    for (const TensorBuffer* t : ins)
        if (t && t->input_modified()) out += "\n  an input was modified";
    out += canaries("output", io.y.get()) + canaries("skip_sum", io.sum.get()) +
           canaries("mean", io.mean.get()) + canaries("inv_std_dev", io.inv.get());
    return out.empty() ? out : c.describe() + out;
}

std::string bitwise_difference(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size())
        return " sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size());
    for (size_t i = 0; i < a.size(); ++i)
        if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) return " at " + std::to_string(i);
    return {};
}

}  // namespace sxt
