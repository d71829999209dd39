// The executor of LayerNormalization and RMSNormalization. A unit is a
// block of whole groups (the normalized dims [axis, rank) of one index of
// the others). A group is processed in chunks that the kernels see as
// contiguous arrays: the memory itself when the group is one contiguous
// run in every operand (the rows form), else stack tiles gathered and
// scattered element by element (any strides, negative and zero included).
// A group of at most one chunk reads each input once and writes each
// output once; a longer one is read twice (its moments, then its output:
// the second reading recomputes x + skip + skip_bias from the inputs).
#include <algorithm>
#include <cmath>

#include "layer_norm/layer_norm_chunks.hpp"
#include "layer_norm/layer_norm_operator.hpp"
#include "mvn/mvn_wide.hpp"
#include "odometer.hpp"
#include "run_units.hpp"

namespace simdax {
namespace {

using norm_chunks::Chunk;
using norm_chunks::kTileChunk;
using norm_chunks::RunSource;
using norm_chunks::TileSource;

constexpr size_t kRowChunk = 8192;  // contiguous groups: elements per chunk (buf in L1)

void combine(NormMoments* s, const NormMoments& c) {
    if (s->count == 0) {
        *s = c;
        return;
    }
    if (!std::isfinite(s->mean) || !std::isfinite(c.mean)) {  // inf + inf stays inf, inf - inf is NaN
        s->count += c.count;
        s->mean += c.mean;
        s->m2 = s->mean - s->mean;
        return;
    }
    const double n = s->count + c.count, delta = c.mean - s->mean;
    s->mean += delta * (c.count / n);
    s->m2 += c.m2 + delta * delta * (s->count * c.count / n);
    s->count = n;
}

struct GroupOut {
    float* mean;
    float* inv;
};

// The row of a chunk: x itself without a skip (the kernels read it in its
// dtype), else x + skip + skip_bias in the compute type through buf (the
// sum written when asked).
const void* row_of(const Plan& p, const Chunk& c, size_t len, bool write_sum, void* buf) {
    if (!p.has_operand[kSkip]) return c.at[kX];
    p.k.norm_load(c.at[kX], c.at[kSkip], c.at[kSkipBias],
                  p.dtypes[kSkipBias] == DType::f32 && p.dtype != DType::f32,
                  write_sum ? c.at[kSkipSum] : nullptr, buf, len);
    return buf;
}

template <class Src>
void run_group(const Plan& p, Src& src, size_t chunk, void* buf, const GroupOut& out) {
    const bool rms = p.def->type == SIMDAX_OPERATOR_RMS_NORMALIZATION;
    const size_t n = size_t(p.group_size);
    NormApply a{0,
                0,
                nullptr,
                nullptr,
                p.dtypes[kScale] != p.dtype,
                p.dtypes[kBias] != p.dtype,
                false,
                src.stream,
                false,
                {src.ahead[0], src.ahead[1]},
                !p.has_operand[kSkip]};  // row_of gives x itself exactly when there is no skip
    const auto finish = [&](const NormMoments& m) {
        const double m2 = m.m2 < 0 ? 0.0 : m.m2;  // rounding of a constant row's sums
        const double var = m2 / m.count;
        a.mean = rms ? 0.0 : m.mean;
        a.inv = 1.0 / std::sqrt(var + p.vn.epsilon);
        a.wide = p.dtype != DType::f64 && !kernels::fits_fast_path_var<float>(a.mean, m2, var, p.vn);
        if (out.mean) *out.mean = float(a.mean);
        if (out.inv) *out.inv = float(a.inv);
    };
    const auto apply = [&](const Chunk& c, const void* row, size_t len, bool row_end) {
        a.scale = c.at[kScale];
        a.bias = c.at[kBias];
        a.fence = src.stream && src.last && row_end;
        p.k.norm_apply(row, c.at[kY], len, &a);
    };
    if (n <= chunk) {
        const Chunk c = src.load(0, n, true);
        const void* row = row_of(p, c, n, true, buf);
        NormMoments m;
        p.k.norm_moments(row, a.row_stored, n, rms, &m);
        finish(m);
        apply(c, row, n, true);
        src.store(0, n, c, false);
        src.store(0, n, c, true);
        return;
    }
    NormMoments m{0, 0, 0};
    for (size_t c0 = 0; c0 < n; c0 += chunk) {
        const size_t len = std::min(chunk, n - c0);
        const Chunk c = src.load(int64_t(c0), len, true);
        NormMoments cm;
        const void* row = row_of(p, c, len, true, buf);
        p.k.norm_moments(row, a.row_stored, len, rms, &cm);
        combine(&m, cm);
        src.store(int64_t(c0), len, c, false);
    }
    finish(m);
    for (size_t c0 = 0; c0 < n; c0 += chunk) {
        const size_t len = std::min(chunk, n - c0);
        const Chunk c = src.load(int64_t(c0), len, false);
        apply(c, row_of(p, c, len, false, buf), len, c0 + len == n);
        src.store(int64_t(c0), len, c, true);
    }
}

// The group's dims in element order: rows form, the segments then the run.
Dims group_dims(const Plan& p) {
    if (p.form != Form::rows) return p.inner;
    Dims d = p.segments;
    const int i = d.n++;
    d.size[i] = p.run;
    for (int o = 0; o < kOperands; ++o) d.stride[o][i] = p.run_stride[o];
    return d;
}

bool runs_in_place(const Plan& p) {
    if (p.form != Form::rows || p.segments.n != 0) return false;
    for (int o : {kSkip, kSkipBias, kScale, kBias, kSkipSum})
        if (p.has_operand[o] && p.run_stride[o] != 1) return false;
    return true;
}

__attribute__((noinline)) void run_groups_in_place(const Plan& p, const Buffers& b, int64_t g0, int64_t g1) {
    alignas(64) double buf[kRowChunk / 2];  // kRowChunk floats
    Odometer w(p.outer, g0), ahead(p.outer, g0 + 1);
    for (int64_t g = g0; g < g1; ++g, w.next(), ahead.next()) {
        const int64_t* off = w.off;
        // The next group's input (and skip) read while this one is written
        // (norm_apply's ahead): the row passes in L1 would leave the memory idle.
        const char* next[2] = {nullptr, nullptr};
        if (g + 1 < g1 && uint64_t(p.group_size) <= kRowChunk) {
            next[0] = b.at[kX] + ahead.off[kX] * int64_t(p.esize_of[kX]);
            if (p.has_operand[kSkip]) next[1] = b.at[kSkip] + ahead.off[kSkip] * int64_t(p.esize_of[kSkip]);
        }
        // An output beyond the caches is streamed: plain stores would read
        // each line for ownership first.
        RunSource src{p,
                      {},
                      uint64_t(p.total) * p.esize_of[kY] >= kernels::kStreamBytes,
                      {next[0], next[1]},
                      g + 1 == g1};
        for (int o = 0; o < kOperands; ++o)
            src.base[o] = p.has_operand[o] ? b.at[o] + off[o] * int64_t(p.esize_of[o]) : nullptr;
        run_group(
            p, src, kRowChunk, buf,
            {reinterpret_cast<float*>(src.base[kMean]), reinterpret_cast<float*>(src.base[kInvStdDev])});
    }
}

__attribute__((noinline)) void run_groups_tiled(const Plan& p, const Buffers& b, int64_t g0, int64_t g1) {
    alignas(64) float buf[kTileChunk];
    const Dims dims = group_dims(p);
    TileSource src{p, dims, {}, {}};
    Odometer w(p.outer, g0);
    for (int64_t g = g0; g < g1; ++g, w.next()) {
        const int64_t* off = w.off;
        for (int o = 0; o < kOperands; ++o)
            src.base[o] = p.has_operand[o] ? b.at[o] + off[o] * int64_t(p.esize_of[o]) : nullptr;
        run_group(
            p, src, kTileChunk, buf,
            {reinterpret_cast<float*>(src.base[kMean]), reinterpret_cast<float*>(src.base[kInvStdDev])});
    }
}

// A plain LayerNorm (no residual, no statistics outputs, Scale and Bias of
// the data's dtype) of contiguous rows along one outer dim: MVN's rows
// kernel takes many rows per call, where run_group's set-up per row would
// dominate short rows.
bool mvn_rows_serve(const Plan& p) {
    if (p.def->type != SIMDAX_OPERATOR_LAYER_NORMALIZATION || !runs_in_place(p) || p.outer.n > 1)
        return false;
    for (int o : {kSkip, kSkipSum, kMean, kInvStdDev})
        if (p.has_operand[o]) return false;
    for (int o : {kScale, kBias})
        if (p.has_operand[o] && p.dtypes[o] != p.dtype) return false;
    return true;
}

void run_mvn_rows(const Plan& p, const Buffers& b, int64_t g0, int64_t g1) {
    const auto row_stride = [&](int o) -> ptrdiff_t { return p.outer.n ? p.outer.stride[o][0] : 0; };
    const auto at = [&](int o) -> char* {
        return p.has_operand[o] ? b.at[o] + g0 * row_stride(o) * int64_t(p.esize_of[o]) : nullptr;
    };
    const MvnArgs a{VarianceNorm{true, false, p.vn.epsilon},
                    at(kScale),
                    row_stride(kScale),
                    p.run_stride[kScale],
                    at(kBias),
                    row_stride(kBias),
                    p.run_stride[kBias],
                    p.act};
    p.k.mvn_rows(at(kX), at(kY), size_t(g1 - g0), size_t(p.run), row_stride(kX), row_stride(kY), &a);
}

// A plain RMSNormalization (no residual) of contiguous rows along one outer
// dim, its Scale of any dtype: the rms_rows kernel takes many rows per call.
bool rms_rows_serve(const Plan& p) {
    if (p.def->type != SIMDAX_OPERATOR_RMS_NORMALIZATION || !runs_in_place(p) || p.outer.n > 1) return false;
    return !p.has_operand[kSkip] && !p.has_operand[kSkipSum];
}

void run_rms_rows(const Plan& p, const Buffers& b, int64_t g0, int64_t g1) {
    const auto row_stride = [&](int o) -> ptrdiff_t { return p.outer.n ? p.outer.stride[o][0] : 0; };
    const auto at = [&](int o) -> char* { return b.at[o] + g0 * row_stride(o) * int64_t(p.esize_of[o]); };
    const RmsRowsArgs a{p.vn.epsilon, at(kScale), row_stride(kScale), p.run_stride[kScale],
                        p.dtypes[kScale] != p.dtype};
    p.k.rms_rows(at(kX), at(kY), size_t(g1 - g0), size_t(p.run), row_stride(kX), row_stride(kY), &a);
}

}  // namespace

void execute_norm(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    KernelFpEnv env;
    if (p.form == Form::empty) return;
    if (par && (par->thread_count <= 1 || p.total < p.parallel_min)) par = nullptr;
    const int64_t groups = count(p.outer);
    const int64_t per_unit = std::max<int64_t>(1, (int64_t(1) << 14) / p.group_size);
    if (mvn_rows_serve(p))
        return run_unit_ranges(par, size_t((groups + per_unit - 1) / per_unit), [&](size_t u0, size_t u1) {
            run_mvn_rows(p, b, int64_t(u0) * per_unit, std::min(groups, int64_t(u1) * per_unit));
        });
    if (rms_rows_serve(p))
        return run_unit_ranges(par, size_t((groups + per_unit - 1) / per_unit), [&](size_t u0, size_t u1) {
            run_rms_rows(p, b, int64_t(u0) * per_unit, std::min(groups, int64_t(u1) * per_unit));
        });
    const bool in_place = runs_in_place(p);
    run_unit_ranges(par, size_t((groups + per_unit - 1) / per_unit), [&](size_t u0, size_t u1) {
        const int64_t g0 = int64_t(u0) * per_unit, g1 = std::min(groups, int64_t(u1) * per_unit);
        if (in_place)
            run_groups_in_place(p, b, g0, g1);
        else
            run_groups_tiled(p, b, g0, g1);
    });
}

}  // namespace simdax
