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

// General form: the group walked by an odometer over p.inner, through
// stack tiles (gather, compute, scatter). Stretches that are contiguous along
// the innermost dim move with memcpy. A range that fits one tile stays
// loaded between the reduce and the output pass (one gather, not two).
template <size_t E>
class TiledPieces {
public:
    static constexpr size_t kTile = 16384 / E;  // 16 KiB per buffer

    TiledPieces(const Plan& p, const Buffers& b, const int64_t* off) : p_(p), b_(b), off_(off) {}

    template <class F>
    void visit(int64_t p0, int64_t p1, bool store, F f) {
        Odometer w(p_.inner, p0);
        while (p0 < p1) {
            const size_t n = size_t(std::min<int64_t>(int64_t(kTile), p1 - p0));
            Odometer start = w;
            if (loaded_p0_ == p0 && loaded_n_ == n) {
                skip(&w, n);
            } else {
                move(const_cast<char*>(b_.x), kX, &w, n, xt_, false);
                loaded_p0_ = p0;
                loaded_n_ = n;
            }
            Piece pc{xt_, yt_, nullptr, 1, nullptr, 1, n, p0};
            if (p_.has_operand[kScale]) {
                Odometer ws = start;
                move(const_cast<char*>(b_.scale), kScale, &ws, n, st_, false);
                pc.scale = st_;
            }
            if (p_.has_operand[kBias]) {
                Odometer wb = start;
                move(const_cast<char*>(b_.bias), kBias, &wb, n, bt_, false);
                pc.bias = bt_;
            }
            f(pc);
            if (store) move(b_.y, kY, &start, n, yt_, true);
            p0 += int64_t(n);
        }
    }

private:
    static void skip(Odometer* w, size_t n) {
        while (n > 0) {
            const int64_t m = std::min<int64_t>(w->inner_left(), int64_t(n));
            w->advance_inner(m);
            n -= size_t(m);
        }
    }

    // Copies n elements of operand o between memory and tile (to memory
    // when scatter), advancing the walk.
    void move(char* base, int o, Odometer* w, size_t n, char* tile, bool scatter) const {
        base += off_[o] * int64_t(E);
        const int last = p_.inner.n - 1;
        const int64_t step = last >= 0 ? p_.inner.stride[o][last] : 1;
        for (size_t i = 0; i < n;) {
            const size_t m = size_t(std::min<int64_t>(w->inner_left(), int64_t(n - i)));
            char* mem = base + w->off[o] * int64_t(E);
            if (step == 1) {
                if (scatter) std::memcpy(mem, tile + i * E, m * E);
                else std::memcpy(tile + i * E, mem, m * E);
            } else {
                for (size_t j = 0; j < m; ++j, mem += step * int64_t(E)) {
                    if (scatter) std::memcpy(mem, tile + (i + j) * E, E);
                    else std::memcpy(tile + (i + j) * E, mem, E);
                }
            }
            w->advance_inner(int64_t(m));
            i += m;
        }
    }

    const Plan& p_;
    const Buffers& b_;
    const int64_t* off_;
    int64_t loaded_p0_ = -1;
    size_t loaded_n_ = 0;
    alignas(64) char xt_[kTile * E];
    alignas(64) char yt_[kTile * E];
    alignas(64) char st_[kTile * E];
    alignas(64) char bt_[kTile * E];
};

}  // namespace simdax
