// The transformer fuzz path of LayerNormalization and RMSNormalization
// (fuzz_transformer.cpp): the descriptor decoded, well-formed or with one
// mutation (the documented refusals must be refused), and an accepted
// operator run (execute_bound) against the float64 reference of
// tests/support (norm_runner).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "fuzz_case.hpp"
#include "simdax/simdax.h"
#include "support/norm_runner.hpp"
#include "support/reference.hpp"
#include "support/tensor_buffer.hpp"
#include "transformer_case.hpp"

namespace fuzz::transformer {

using namespace sxt;

namespace {

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

}  // namespace

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
        break_bindings(c, bb, nc.dt);
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

}  // namespace fuzz::transformer
