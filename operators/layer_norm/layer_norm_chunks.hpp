// Where LayerNormalization's executor (layer_norm_execute.cpp) takes a
// group's chunks from: in place when each operand is one contiguous run
// (RunSource), else gathered into stack tiles and scattered back
// (TileSource). Apart from the executor so that it holds the group's
// passes only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "layer_norm/layer_norm_operator.hpp"
#include "odometer.hpp"

namespace simdax::norm_chunks {

constexpr size_t kTileChunk = 1024;                               // gathered groups: elements per chunk
constexpr int kParams[] = {kX, kSkip, kSkipBias, kScale, kBias};  // read
constexpr int kMoved[] = {kX, kSkip, kSkipBias, kScale, kBias, kY, kSkipSum};

// One chunk's contiguous arrays, indexed by Operand (X, Skip, SkipBias,
// Scale, Bias read; Y, SkipSum written).
struct Chunk {
    char* at[kOperands];
};

// A group whose operands are each one contiguous run: chunks in place.
struct RunSource {
    const Plan& p;
    char* base[kOperands];
    bool stream;  // the output with non-temporal stores
    const char* ahead[2];
    // The last group of the call: its last stores are fenced (one fence
    // per call, not per row: each drains the write-combining buffers).
    bool last;
    Chunk load(int64_t c0, size_t, bool) const {
        Chunk c{};
        for (int o = 0; o < kOperands; ++o)
            if (base[o]) c.at[o] = base[o] + c0 * p.run_stride[o] * int64_t(p.esize_of[o]);
        return c;
    }
    void store(int64_t, size_t, const Chunk&, bool) const {}
};

inline void copy_element(char* dst, const char* src, size_t esize) {
    if (esize == 4)
        std::memcpy(dst, src, 4);
    else
        std::memcpy(dst, src, 2);
}

// Any strides: the group's elements gathered into tiles, in the order of
// its dims, and the outputs scattered back.
struct TileSource {
    const Plan& p;
    const Dims& dims;
    char* base[kOperands];
    static constexpr bool stream = false;  // y is a tile
    static constexpr const char* ahead[2] = {nullptr, nullptr};
    static constexpr bool last = false;
    // A tile per operand it moves (slot_of), 4 bytes an element at most.
    alignas(64) char tile[7][kTileChunk * 4];
    static int slot_of(int o) {
        switch (o) {
            case kX: return 0;
            case kSkip: return 1;
            case kSkipBias: return 2;
            case kScale: return 3;
            case kBias: return 4;
            case kY: return 5;
            default: return 6;  // kSkipSum
        }
    }
    Chunk load(int64_t c0, size_t len, bool) {
        Chunk c{};
        for (int o : kMoved) c.at[o] = base[o] ? tile[slot_of(o)] : nullptr;
        Odometer w(dims, c0);
        for (size_t i = 0; i < len; ++i, w.next())
            for (int o : kParams)
                if (base[o])
                    copy_element(tile[slot_of(o)] + i * p.esize_of[o],
                                 base[o] + w.off[o] * int64_t(p.esize_of[o]), p.esize_of[o]);
        return c;
    }
    void store(int64_t c0, size_t len, const Chunk&, bool final) {
        Odometer w(dims, c0);
        const int out = final ? kY : kSkipSum;
        if (!base[out]) return;
        for (size_t i = 0; i < len; ++i, w.next())
            copy_element(base[out] + w.off[out] * int64_t(p.esize_of[out]),
                         tile[slot_of(out)] + i * p.esize_of[out], p.esize_of[out]);
    }
};

}  // namespace simdax::norm_chunks
