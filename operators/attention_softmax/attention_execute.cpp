// AttentionSoftmax's executor: rows (every index but the key's) walked by an
// odometer in units of whole rows, on the caller's pool. Each row's causal
// window [j0, j1) is computed from its query index; keys outside it are
// written 0 (LogSoftmax: -inf) and never read. Rows whose keys are
// contiguous in input, output and mask go to attention_rows whole, as many
// consecutive queries of a head per call as the unit holds; otherwise its keys are gathered in parts through stack buffers
// (attention_stats, then attention_out and a scatter). Rows are
// independent, so every split gives the same bits.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "attention_softmax/attention_params.hpp"
#include "attention_softmax/attention_state.hpp"
#include "run_units.hpp"
#include "scalar/scalar_types.hpp"

namespace simdax {
namespace {

constexpr size_t kPart = 512;  // keys per gathered part
// The operands this operator reads or writes: the odometer moves these only.
constexpr int kUsed[] = {kX, kY, kMask, kAlibiSlopes, kSinks, kLogSumExp};
constexpr int64_t kUnitElems = 1 << 14;  // elements per unit of work, about
// A tensor from this size on is beyond a core's share of the last-level
// cache: its output is streamed (AttnRowArgs::stream) and each row's input
// prefetched. Below it the consumer (the next matmul) finds the output in
// cache: AS1's 3 MB output streamed took 2.5x as long.
constexpr uint64_t kLargeBytes = uint64_t(16) << 20;

float load_float(const char* p, DType d) {
    using namespace kernels::scalar;
    uint16_t h;
    switch (d) {
        case DType::f32: {
            float f;
            std::memcpy(&f, p, 4);
            return f;
        }
        case DType::f16: std::memcpy(&h, p, 2); return half_to_float(h);
        case DType::bf16: std::memcpy(&h, p, 2); return bfloat_to_float(h);
        case DType::f64:
        case DType::u8: break;  // refused by validation
    }
    return 0.0f;
}

// n elements of esize bytes, stride elements apart, to or from a packed run.
void gather(const char* src, int64_t stride, size_t esize, size_t n, char* dst) {
    for (size_t i = 0; i < n; ++i)
        std::memcpy(dst + i * esize, src + int64_t(i) * stride * int64_t(esize), esize);
}
void scatter(const char* src, size_t esize, size_t n, char* dst, int64_t stride) {
    for (size_t i = 0; i < n; ++i)
        std::memcpy(dst + int64_t(i) * stride * int64_t(esize), src + i * esize, esize);
}

// The bytes of 0 or -inf in a dtype.
void fill_value(DType d, bool log, unsigned char out[4]) {
    const float f = log ? -__builtin_inff() : 0.0f;
    const uint16_t h = d == DType::f16 ? (log ? 0xfc00u : 0u) : uint16_t(kernels::scalar::float_to_bfloat(f));
    if (d == DType::f32)
        std::memcpy(out, &f, 4);
    else
        std::memcpy(out, &h, 2);
}

struct RowWalk {
    const Plan& p;
    const Buffers& b;
    AttnParams ap;
    int r;  // rank
    int64_t sq, skv;
    size_t esize;
    unsigned char fill[4];
    bool contiguous;  // keys at stride 1 in input, output and mask
    bool batch;       // ... and slope and sink the same for every query of a head
    bool large;       // the tensor beyond the caches (kLargeBytes)
    bool stream;      // ... and not in place: the output streamed (AttnRowArgs::stream)

    char* at(int o, int64_t off, int64_t j) const {
        return b.at[o] + (off + j * p.strides[o][r - 1]) * int64_t(p.esize_of[o]);
    }

    // Keys [j0, j1) of a row: 0 (LogSoftmax: -inf).
    void fill_keys(const int64_t* off, int64_t j0, int64_t j1) const {
        if (j0 >= j1) return;
        const int64_t ys = p.strides[kY][r - 1];
        char* y = b.at[kY] + (off[kY] + j0 * ys) * int64_t(esize);
        const size_t n = size_t(j1 - j0);
        if (ys == 1 && !ap.log) return void(std::memset(y, 0, n * esize));
        if (esize == 4) return fill_as<uint32_t>(y, ys, n);
        fill_as<uint16_t>(y, ys, n);
    }
    template <class U>
    void fill_as(char* y, int64_t ys, size_t n) const {
        U v;
        std::memcpy(&v, fill, sizeof v);
        if (ys == 1) {
            U* t = reinterpret_cast<U*>(y);  // aligned: bindings_check
            for (size_t i = 0; i < n; ++i) t[i] = v;
            return;
        }
        for (size_t i = 0; i < n; ++i) std::memcpy(y + int64_t(i) * ys * int64_t(sizeof(U)), &v, sizeof v);
    }

    // The fields every row of a head shares; slope and sink at offsets off.
    AttnRowArgs shared(const int64_t* off) const {
        AttnRowArgs a{};
        a.mask_dtype = p.dtypes[kMask];
        a.scale = ap.scale;
        a.softcap = ap.softcap;
        a.log = ap.log;
        a.slope = p.has_operand[kAlibiSlopes]
                      ? load_float(at(kAlibiSlopes, off[kAlibiSlopes], 0), p.dtypes[kAlibiSlopes])
                      : 0.0f;
        a.sink = p.has_operand[kSinks] ? load_float(at(kSinks, off[kSinks], 0), p.dtypes[kSinks])
                                       : -__builtin_inff();
        a.stream = stream;
        return a;
    }
    float* lse_at(const int64_t* off) const {
        return p.has_operand[kLogSumExp] ? reinterpret_cast<float*>(at(kLogSumExp, off[kLogSumExp], 0))
                                         : nullptr;
    }
    // The aligned position of query i.
    int64_t aligned(int64_t i) const { return ap.causal == SIMDAX_CAUSAL_BOTTOM_RIGHT ? i + skv - sq : i; }

    // count contiguous rows of one head from query i on, at offsets off.
    void rows(const int64_t* off, int64_t i, size_t count) const {
        const int q = r - 2;  // the query axis
        AttnQueries qs{};
        qs.row = shared(off);
        qs.x = at(kX, off[kX], 0);
        qs.y = at(kY, off[kY], 0);
        qs.mask = p.has_operand[kMask] ? at(kMask, off[kMask], 0) : nullptr;
        qs.row.mask = qs.mask;
        qs.lse = lse_at(off);
        qs.x_step = p.strides[kX][q] * int64_t(esize);
        qs.y_step = p.strides[kY][q] * int64_t(esize);
        qs.mask_step = p.strides[kMask][q] * int64_t(p.esize_of[kMask]);
        qs.lse_step = p.strides[kLogSumExp][q];
        qs.count = count;
        qs.keys = skv;
        qs.first = aligned(i);
        qs.causal = ap.causal;
        qs.window = int64_t(ap.window);
        qs.prefetch = large;
        p.k.attention_rows(&qs);
    }

    // One row whose keys are strided: its offsets, its query index i.
    void strided_row(const int64_t* off, int64_t i) const {
        const int64_t ip = aligned(i);
        const attn_state::KeyWindow w = attn_state::key_window(ap.causal, int64_t(ap.window), ip, skv);
        AttnRowArgs a = shared(off);
        a.pos = float(w.j0 - ip);
        float* lse = lse_at(off);
        if (w.j0 == w.j1) {
            fill_keys(off, 0, skv);
            if (lse) *lse = attn_state::empty_lse(a.sink);
            return;
        }
        fill_keys(off, 0, w.j0);
        fill_keys(off, w.j1, skv);
        gathered(a, off, w.j0, w.j1, lse);
    }

    // A row whose keys are strided: parts gathered into stack buffers.
    void gathered(AttnRowArgs a, const int64_t* off, int64_t j0, int64_t j1, float* lse) const {
        alignas(64) char xb[kPart * 4], mb[kPart * 4], yb[kPart * 4];
        const float pos0 = a.pos;
        auto part = [&](int64_t j, size_t n) {
            gather(at(kX, off[kX], j), p.strides[kX][r - 1], esize, n, xb);
            if (p.has_operand[kMask])
                gather(at(kMask, off[kMask], j), p.strides[kMask][r - 1], p.esize_of[kMask], n, mb);
            a.x = xb;
            a.y = yb;
            a.mask = p.has_operand[kMask] ? mb : nullptr;
            a.n = n;
            a.pos = pos0 + float(j - j0);
        };
        AttnState st{-__builtin_inff(), 0.0f};
        for (int64_t j = j0; j < j1; j += int64_t(kPart)) {
            part(j, size_t(std::min<int64_t>(kPart, j1 - j)));
            p.k.attention_stats(&a, &st);
        }
        const AttnState fin = attn_state::with_sink(st, a.sink);
        if (lse) *lse = attn_state::log_sum_exp(fin);
        if (st.m == -__builtin_inff()) return fill_keys(off, j0, j1);
        for (int64_t j = j0; j < j1; j += int64_t(kPart)) {
            const size_t n = size_t(std::min<int64_t>(kPart, j1 - j));
            part(j, n);
            p.k.attention_out(&a, &fin);
            scatter(yb, esize, n, at(kY, off[kY], j), p.strides[kY][r - 1]);
        }
    }
};

}  // namespace

void execute_attention(const Plan& p, const Buffers& b, const simdax_parallel* par) {
    if (p.form == Form::empty) return;
    KernelFpEnv env;
    RowWalk w{p, b, load_params(p.params), int(p.rank), 0, 0, p.esize, {}, false, false, false, false};
    w.sq = p.sizes[w.r - 2];
    w.skv = p.sizes[w.r - 1];
    fill_value(p.dtype, w.ap.log, w.fill);
    const int key = w.r - 1;
    w.contiguous = w.skv == 1 || (p.strides[kX][key] == 1 && p.strides[kY][key] == 1 &&
                                  (!p.has_operand[kMask] || p.strides[kMask][key] == 1));
    const auto per_head = [&](int o) { return !p.has_operand[o] || p.strides[o][key - 1] == 0; };
    w.batch = w.contiguous && per_head(kAlibiSlopes) && per_head(kSinks);
    w.large = uint64_t(p.total) * p.esize >= kLargeBytes;
    // Not in place: streaming would evict the input the row reads.
    w.stream = w.large && b.at[kX] != b.at[kY];
    const int64_t rows = p.total / w.skv;
    const int64_t per_unit = std::max<int64_t>(1, kUnitElems / w.skv);
    const size_t units = size_t((rows + per_unit - 1) / per_unit);
    if (par && (par->thread_count <= 1 || p.total < p.parallel_min)) par = nullptr;
    run_units(par, units, [&](size_t u) {
        const int64_t g0 = int64_t(u) * per_unit, g1 = std::min(rows, g0 + per_unit);
        // The row's index along each dim but the key's, and each operand's
        // offset there.
        int64_t idx[SIMDAX_MAX_RANK] = {}, off[kOperands] = {};
        for (int64_t g = g0, d = key - 1; d >= 0; --d) {
            idx[d] = g % p.sizes[d];
            g /= p.sizes[d];
            for (int o : kUsed) off[o] += idx[d] * p.strides[o][d];
        }
        for (int64_t g = g0; g < g1;) {
            const int q = key - 1;
            const int64_t count = w.batch ? std::min(g1 - g, p.sizes[q] - idx[q]) : 1;
            if (w.contiguous)
                w.rows(off, idx[q], size_t(count));
            else
                w.strided_row(off, idx[q]);
            g += count;
            for (int o : kUsed) off[o] += count * p.strides[o][q];
            if ((idx[q] += count) < p.sizes[q]) continue;
            for (int o : kUsed) off[o] -= p.sizes[q] * p.strides[o][q];
            idx[q] = 0;
            for (int d = q - 1; d >= 0; --d) {
                for (int o : kUsed) off[o] += p.strides[o][d];
                if (++idx[d] < p.sizes[d]) break;
                for (int o : kUsed) off[o] -= p.sizes[d] * p.strides[o][d];
                idx[d] = 0;
            }
        }
    });
}

}  // namespace simdax
