// A group (or an element-wise run) as a sequence of contiguous pieces the
// chunk kernels can take: in place for the rows form, through stack tiles
// (gather, compute, scatter) for the general form. Any sub-range [p0, p1) of
// the group's positions can be visited, so a group can be split into parts.
#pragma once

#include <algorithm>
#include <cstring>

#include "executor.hpp"
#include "odometer.hpp"

namespace simdax {

struct Piece {
    const char* x;
    char* y;
    const char* scale;
    ptrdiff_t scale_stride;
    const char* bias;
    ptrdiff_t bias_stride;
    size_t n;
    int64_t pos;  // position of the first element within the group
};

// Rows form: runs of p.run contiguous elements, one per segment index.
class RowPieces {
public:
    RowPieces(const Plan& p, const Buffers& b, const int64_t* off) : p_(p), b_(b), off_(off) {}

    template <class F>
    void visit(int64_t p0, int64_t p1, bool /*store*/, F f) const {
        const int64_t e = int64_t(p_.esize), run = p_.run;
        Odometer w(p_.segments, p0 / run);
        int64_t i = p0 % run;
        while (p0 < p1) {
            const int64_t n = std::min(run - i, p1 - p0);
            Piece pc{};
            pc.x = b_.x + (off_[kX] + w.off[kX] + i) * e;
            pc.y = b_.y + (off_[kY] + w.off[kY] + i) * e;
            if (p_.has_operand[kScale]) {
                pc.scale = b_.scale + (off_[kScale] + w.off[kScale] + i * p_.run_stride[kScale]) * e;
                pc.scale_stride = p_.run_stride[kScale];
            }
            if (p_.has_operand[kBias]) {
                pc.bias = b_.bias + (off_[kBias] + w.off[kBias] + i * p_.run_stride[kBias]) * e;
                pc.bias_stride = p_.run_stride[kBias];
            }
            pc.n = size_t(n);
            pc.pos = p0;
            f(pc);
            p0 += n;
            i = 0;
            w.next();
        }
    }

private:
    const Plan& p_;
    const Buffers& b_;
    const int64_t* off_;
};

// General form: elements walked by an odometer over p.inner, through tiles.
template <size_t E>
class TiledPieces {
public:
    static constexpr size_t kTile = 512;

    TiledPieces(const Plan& p, const Buffers& b, const int64_t* off) : p_(p), b_(b), off_(off) {}

    template <class F>
    void visit(int64_t p0, int64_t p1, bool store, F f) const {
        alignas(64) char xt[kTile * E], yt[kTile * E], st[kTile * E], bt[kTile * E];
        Odometer w(p_.inner, p0);
        while (p0 < p1) {
            const size_t n = size_t(std::min<int64_t>(int64_t(kTile), p1 - p0));
            Odometer start = w;
            gather(b_.x, kX, &w, n, xt);
            Piece pc{xt, yt, nullptr, 1, nullptr, 1, n, p0};
            if (p_.has_operand[kScale]) {
                Odometer ws = start;
                gather(b_.scale, kScale, &ws, n, st);
                pc.scale = st;
            }
            if (p_.has_operand[kBias]) {
                Odometer wb = start;
                gather(b_.bias, kBias, &wb, n, bt);
                pc.bias = bt;
            }
            f(pc);
            if (store) {
                char* y = b_.y + off_[kY] * int64_t(E);
                for (size_t i = 0; i < n; ++i, start.next())
                    std::memcpy(y + start.off[kY] * int64_t(E), yt + i * E, E);
            }
            p0 += int64_t(n);
        }
    }

private:
    void gather(const char* base, int o, Odometer* w, size_t n, char* tile) const {
        base += off_[o] * int64_t(E);
        for (size_t i = 0; i < n; ++i, w->next())
            std::memcpy(tile + i * E, base + w->off[o] * int64_t(E), E);
    }

    const Plan& p_;
    const Buffers& b_;
    const int64_t* off_;
};

}  // namespace simdax
