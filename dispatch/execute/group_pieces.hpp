// A group (or an element-wise run) as a sequence of contiguous pieces the
// chunk kernels can take: in place for the rows form, through stack tiles
// (gather, compute, scatter) for the general form. Any sub-range [p0, p1) of
// the group's positions can be visited, so a group can be split into parts.
// Operands beyond input and output (Extra: a bit per Operand) are carried
// only when the operator reads them.
#pragma once

#include <algorithm>
#include <cstring>

#include "odometer.hpp"

namespace simdax {

struct Piece {
    char* at[kOperands];          // each operand's first element of the piece
    ptrdiff_t stride[kOperands];  // its step along the piece (0: broadcast)
    size_t n;
    int64_t pos;  // position of the first element within the group
};

constexpr bool is_extra(unsigned extra, int o) { return o >= 2 && (extra >> o) & 1u; }
// Input, output and the operator's extra operands: the ones a piece sets
// (a bit per operand; loops take exactly these).
constexpr unsigned read_operands(unsigned extra) { return bit(kX) | bit(kY) | (extra & ~3u); }

// Sets the operands an operator with these extra operands reads: place(o)
// fills at[o] and stride[o] of those the plan has, the others are nullptr
// (the operator tests for it). The rest of the piece is never read.
template <unsigned Extra, class Place>
inline void set_piece_operands(const Plan& p, Piece* pc, Place place) {
    for (unsigned m = read_operands(Extra); m; m &= m - 1) {
        const int o = __builtin_ctz(m);
        if (p.has_operand[o]) {
            place(o);
            continue;
        }
        pc->at[o] = nullptr;
        pc->stride[o] = 0;
    }
}

// Rows form: runs of p.run contiguous elements, one per segment index.
template <unsigned Extra>
class RowPieces {
public:
    RowPieces(const Plan& p, const Buffers& b, const int64_t* off) : p_(p), b_(b), off_(off) {}

    template <class F>
    void visit(int64_t p0, int64_t p1, bool /*store*/, F f) const {
        const int64_t run = p_.run;
        Odometer w(p_.segments, p0 / run);
        int64_t i = p0 % run;
        while (p0 < p1) {
            const int64_t n = std::min(run - i, p1 - p0);
            Piece pc;
            set_piece_operands<Extra>(p_, &pc, [&](int o) {
                pc.at[o] = b_.at[o] + (off_[o] + w.off[o] + i * p_.run_stride[o]) * int64_t(p_.esize_of[o]);
                pc.stride[o] = p_.run_stride[o];
            });
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
// loaded between the reduce and the output pass (one gather, not two). E:
// the largest element size of the plan's operands.
template <size_t E, unsigned Extra>
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
                move(kX, &w, n, false);
                loaded_p0_ = p0;
                loaded_n_ = n;
            }
            Piece pc;
            pc.n = n;
            pc.pos = p0;
            set_piece_operands<Extra>(p_, &pc, [&](int o) {
                if (kGroupOperands & bit(o)) {  // one element, in memory: strides 0 along the group
                    pc.at[o] = b_.at[o] + off_[o] * int64_t(p_.esize_of[o]);
                    pc.stride[o] = 0;
                    return;
                }
                pc.at[o] = tile_[slot(o)];
                pc.stride[o] = 1;
                if (o < 2 || (kOutputOperands & bit(o))) return;
                Odometer wo = start;
                move(o, &wo, n, false);
            });
            f(pc);
            if (store) {
                for (int o = 2; o < kOperands; ++o) {
                    if (!is_extra(Extra & kOutputOperands & ~kGroupOperands, o) || !p_.has_operand[o])
                        continue;
                    Odometer wo = start;
                    move(o, &wo, n, true);
                }
                move(kY, &start, n, true);
            }
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

    // Copies n elements of operand o between memory and its tile (to memory
    // when scatter), advancing the walk.
    void move(int o, Odometer* w, size_t n, bool scatter) {
        switch (p_.esize_of[o]) {  // a constant size: single moves compile to one load and store
            case 2: return move_as<2>(o, w, n, scatter);
            case 4: return move_as<4>(o, w, n, scatter);
            default: return move_as<8>(o, w, n, scatter);
        }
    }

    template <size_t S>
    void move_as(int o, Odometer* w, size_t n, bool scatter) {
        char* base = b_.at[o] + off_[o] * int64_t(S);
        char* tile = tile_[slot(o)];
        const int last = p_.inner.n - 1;
        const int64_t step = last >= 0 ? p_.inner.stride[o][last] : 1;
        for (size_t i = 0; i < n;) {
            const size_t m = size_t(std::min<int64_t>(w->inner_left(), int64_t(n - i)));
            char* mem = base + w->off[o] * int64_t(S);
            if (step == 1) {
                if (scatter)
                    std::memcpy(mem, tile + i * S, m * S);
                else
                    std::memcpy(tile + i * S, mem, m * S);
            } else {
                for (size_t j = 0; j < m; ++j, mem += step * int64_t(S)) {
                    if (scatter)
                        std::memcpy(mem, tile + (i + j) * S, S);
                    else
                        std::memcpy(tile + (i + j) * S, mem, S);
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
    // Tiles for input, output and the element operands the operator reads.
    static constexpr unsigned kTiled = Extra & ~kGroupOperands & ~3u;
    static constexpr int slot(int o) { return o < 2 ? o : 2 + __builtin_popcount(kTiled & (bit(o) - 1)); }
    alignas(64) char tile_[2 + __builtin_popcount(kTiled)][kTile * E];
};

}  // namespace simdax
