// The loop-nest driver: walks the kept (outer) dimensions and calls the
// kernels per group (rows, general) or per block of lanes (cols).
#include "executor.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace simdax {
namespace {

constexpr size_t kTile = 1024;  // elements per stack tile in the general form

// Walks a Dims set element by element, keeping each operand's offset.
struct Odometer {
    const Dims& d;
    int64_t idx[SIMDAX_MAX_RANK] = {};
    int64_t off[kOperands] = {};
    explicit Odometer(const Dims& dims) : d(dims) {}
    void next() {
        for (int i = d.n - 1; i >= 0; --i) {
            for (int o = 0; o < kOperands; ++o) off[o] += d.stride[o][i];
            if (++idx[i] < d.size[i]) return;
            for (int o = 0; o < kOperands; ++o) off[o] -= d.stride[o][i] * d.size[i];
            idx[i] = 0;
        }
    }
};

int64_t count(const Dims& d) {
    int64_t c = 1;
    for (int i = 0; i < d.n; ++i) c *= d.size[i];
    return c;
}

// Gathers n elements of operand o from base into tile, advancing the walk.
template <size_t E>
void gather(const char* base, int o, Odometer* w, size_t n, char* tile) {
    for (size_t i = 0; i < n; ++i, w->next()) std::memcpy(tile + i * E, base + w->off[o] * E, E);
}
template <size_t E>
void scatter(char* base, Odometer* w, size_t n, const char* tile) {
    for (size_t i = 0; i < n; ++i, w->next()) std::memcpy(base + w->off[kY] * E, tile + i * E, E);
}

void write_one(char* p, DType dt) {
    switch (dt) {
        case DType::f32: { const float v = 1.0f; std::memcpy(p, &v, 4); break; }
        case DType::f64: { const double v = 1.0; std::memcpy(p, &v, 8); break; }
        case DType::f16: { const uint16_t v = 0x3c00; std::memcpy(p, &v, 2); break; }
        case DType::bf16: { const uint16_t v = 0x3f80; std::memcpy(p, &v, 2); break; }
    }
}

double inv_std(const Plan& p, const Moments& m) {
    return p.normalize_variance ? 1.0 / std::sqrt(m.m2 / m.count + p.epsilon) : 1.0;
}

MaxSum empty_maxsum() { return MaxSum{-std::numeric_limits<double>::infinity(), 0.0}; }
ArgMax empty_argmax() { return ArgMax{-std::numeric_limits<double>::infinity(), -1, 0}; }

// ---- rows: the group is one contiguous run of group_size elements ----
void run_rows(const Plan& p, const Buffers& b, const int64_t off[kOperands]) {
    const size_t e = p.esize, n = size_t(p.group_size);
    const char* x = b.x + off[kX] * int64_t(e);
    char* y = b.y + off[kY] * int64_t(e);
    switch (p.op) {
        case OpKind::log_softmax:
        case OpKind::softmax: {
            MaxSum s = empty_maxsum();
            p.k.maxsum(x, n, &s);
            (p.op == OpKind::softmax ? p.k.softmax_out : p.k.log_softmax_out)(x, y, n, &s);
            break;
        }
        case OpKind::hardmax: {
            ArgMax s = empty_argmax();
            p.k.argmax(x, n, 0, &s);
            std::memset(y, 0, n * e);
            write_one(y + s.index * int64_t(e), p.dtype);
            break;
        }
        case OpKind::mvn: {
            Moments m{0, 0, 0};
            p.k.moments(x, n, &m);
            NormArgs a{m.mean, inv_std(p, m), nullptr, 0, nullptr, 0, p.act};
            if (p.has_operand[kScale]) {
                a.scale = b.scale + off[kScale] * int64_t(e);
                a.scale_stride = p.inner.stride[kScale][0];
            }
            if (p.has_operand[kBias]) {
                a.bias = b.bias + off[kBias] * int64_t(e);
                a.bias_stride = p.inner.stride[kBias][0];
            }
            p.k.normalize(x, y, n, &a);
            break;
        }
        case OpKind::elementwise: {
            p.k.activation(x, y, size_t(p.inner.size[0]), &p.act);
            break;
        }
    }
}

// ---- cols: one reduced dim by stride, lanes contiguous ----
void run_cols(const Plan& p, const Buffers& b, const int64_t off[kOperands]) {
    const int64_t e = int64_t(p.esize);
    const char* x = b.x + off[kX] * e;
    char* y = b.y + off[kY] * e;
    const size_t r = size_t(p.inner.size[0]), k = size_t(p.lanes);
    const ptrdiff_t xrs = p.inner.stride[kX][0], yrs = p.inner.stride[kY][0];
    switch (p.op) {
        case OpKind::log_softmax: p.k.log_softmax_cols(x, y, r, k, xrs, yrs); break;
        case OpKind::softmax: p.k.softmax_cols(x, y, r, k, xrs, yrs); break;
        case OpKind::hardmax: p.k.hardmax_cols(x, y, r, k, xrs, yrs); break;
        case OpKind::mvn: {
            MvnColsArgs a{p.normalize_variance, p.epsilon, nullptr, 0, 0, nullptr, 0, 0, p.act};
            if (p.has_operand[kScale]) {
                a.scale = b.scale + off[kScale] * e;
                a.scale_rs = p.inner.stride[kScale][0];
                a.scale_ks = p.lane_stride[kScale];
            }
            if (p.has_operand[kBias]) {
                a.bias = b.bias + off[kBias] * e;
                a.bias_rs = p.inner.stride[kBias][0];
                a.bias_ks = p.lane_stride[kBias];
            }
            p.k.mvn_cols(x, y, r, k, xrs, yrs, &a);
            break;
        }
        case OpKind::elementwise: break;  // never planned as cols
    }
}

// ---- general: any strides; the group is walked through stack tiles ----
template <size_t E>
class GeneralGroup {
public:
    GeneralGroup(const Plan& p, const Buffers& b, const int64_t off[kOperands]) : p_(p) {
        x_ = b.x + off[kX] * int64_t(E);
        y_ = b.y + off[kY] * int64_t(E);
        s_ = b.scale ? b.scale + off[kScale] * int64_t(E) : nullptr;
        b_ = b.bias ? b.bias + off[kBias] * int64_t(E) : nullptr;
        n_ = size_t(p.op == OpKind::elementwise ? p.inner.size[0] : p.group_size);
        // A group that fits one tile is gathered once for both passes.
        whole_ = n_ <= kTile;
        if (whole_) {
            Odometer w(p.inner);
            gather<E>(x_, kX, &w, n_, xt_);
        }
    }

    void run() {
        switch (p_.op) {
            case OpKind::log_softmax:
            case OpKind::softmax: {
                MaxSum s = empty_maxsum();
                tiles([&](const char* xt, size_t n, size_t) { p_.k.maxsum(xt, n, &s); });
                auto out = p_.op == OpKind::softmax ? p_.k.softmax_out : p_.k.log_softmax_out;
                tiles([&](const char* xt, size_t n, size_t) { out(xt, yt_, n, &s); }, true);
                break;
            }
            case OpKind::hardmax: {
                ArgMax s = empty_argmax();
                tiles([&](const char* xt, size_t n, size_t at) {
                    p_.k.argmax(xt, n, int64_t(at), &s);
                });
                tiles([&](const char*, size_t n, size_t at) {
                    std::memset(yt_, 0, n * E);
                    if (s.index >= int64_t(at) && s.index < int64_t(at + n))
                        write_one(yt_ + (size_t(s.index) - at) * E, p_.dtype);
                }, true);
                break;
            }
            case OpKind::mvn: {
                Moments m{0, 0, 0};
                tiles([&](const char* xt, size_t n, size_t) { p_.k.moments(xt, n, &m); });
                NormArgs a{m.mean, inv_std(p_, m), nullptr, 1, nullptr, 1, p_.act};
                Odometer ws(p_.inner), wb(p_.inner);
                tiles([&](const char* xt, size_t n, size_t) {
                    if (s_) gather<E>(s_, kScale, &ws, n, st_), a.scale = st_;
                    if (b_) gather<E>(b_, kBias, &wb, n, bt_), a.bias = bt_;
                    p_.k.normalize(xt, yt_, n, &a);
                }, true);
                break;
            }
            case OpKind::elementwise:
                tiles([&](const char* xt, size_t n, size_t) {
                    p_.k.activation(xt, yt_, n, &p_.act);
                }, true);
                break;
        }
    }

private:
    // Calls f(tile, n, position) over the group; with store, writes yt_ back.
    template <class F>
    void tiles(F f, bool store = false) {
        if (whole_) {
            f(xt_, n_, 0);
            if (store) {
                Odometer w(p_.inner);
                scatter<E>(y_, &w, n_, yt_);
            }
            return;
        }
        Odometer wx(p_.inner), wy(p_.inner);
        for (size_t at = 0; at < n_; at += kTile) {
            const size_t n = n_ - at < kTile ? n_ - at : kTile;
            gather<E>(x_, kX, &wx, n, xt_);
            f(xt_, n, at);
            if (store) scatter<E>(y_, &wy, n, yt_);
        }
    }

    const Plan& p_;
    const char* x_;
    char* y_;
    const char* s_;
    const char* b_;
    size_t n_;
    bool whole_;
    alignas(64) char xt_[kTile * E];
    alignas(64) char yt_[kTile * E];
    alignas(64) char st_[kTile * E];
    alignas(64) char bt_[kTile * E];
};

template <size_t E>
void run_general(const Plan& p, const Buffers& b, const int64_t off[kOperands]) {
    GeneralGroup<E> g(p, b, off);
    g.run();
}

using GroupFn = void (*)(const Plan&, const Buffers&, const int64_t*);

GroupFn group_fn(const Plan& p) {
    switch (p.form) {
        case Form::rows: return run_rows;
        case Form::cols: return run_cols;
        case Form::general:
            return p.esize == 2 ? run_general<2> : p.esize == 4 ? run_general<4> : run_general<8>;
        case Form::empty: break;
    }
    return nullptr;
}

}  // namespace

void execute_plan(const Plan& p, const Buffers& b) {
    const GroupFn fn = group_fn(p);
    if (!fn) return;
    Odometer w(p.outer);
    for (int64_t i = 0, n = count(p.outer); i < n; ++i, w.next()) fn(p, b, w.off);
}

}  // namespace simdax
