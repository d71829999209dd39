// A tensor operand for the tests: the dtype's bytes in a buffer that ends
// (or starts) at an inaccessible guard page, plus a float64 mirror of the
// values for the reference. Elements no index reaches are "gaps": NaN in
// inputs (a stray read poisons a group and shows), a signalling-NaN canary
// in outputs (a stray write shows, and so does an element never written).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "simdax/simdax.h"
#include "support/reference.hpp"

namespace sxt {

enum class Role { Input, Output };

class TensorBuffer {
public:
    // strides empty = packed row-major (the descriptor then passes NULL).
    // pad_front/pad_back: gap elements around the span indices reach.
    // guard_front: the guard page sits before the buffer instead of after.
    TensorBuffer(simdax_dtype dt, std::vector<int64_t> sizes, std::vector<int64_t> strides, Role role,
                 int64_t pad_front = 0, int64_t pad_back = 0, bool guard_front = false);
    ~TensorBuffer();
    TensorBuffer(TensorBuffer&&) noexcept;
    TensorBuffer(const TensorBuffer&) = delete;
    TensorBuffer& operator=(const TensorBuffer&) = delete;
    TensorBuffer& operator=(TensorBuffer&&) = delete;

    // Inputs: every buffer element some index reaches gets gen(i), i the
    // packed index of the first index reaching it; the value is rounded to
    // the dtype (the mirror holds the rounded value).
    void fill(const std::function<double(int64_t)>& gen);
    // Inputs: packed values (size = element count); for broadcast views the
    // first index reaching an element decides.
    void set(const std::vector<double>& packed);

    // Outputs: the packed values the library wrote.
    std::vector<double> read() const;
    // Outputs: view elements still holding the canary (never written).
    int64_t unwritten() const;
    // Gap elements whose bytes changed since construction/fill (stray
    // writes; for an output that is the canary, for an input the NaN fill).
    int64_t touched_gaps() const;
    // Inputs: gap or view bytes that changed (the library wrote its input).
    bool input_modified() const;

    StridedView view() const;  // the mirror, for the reference
    simdax_tensor_desc desc() const;
    const void* data() const { return base_; }
    void* data() { return base_; }
    simdax_dtype dtype() const { return dt_; }
    const std::vector<int64_t>& sizes() const { return sizes_; }
    const std::vector<int64_t>& strides() const { return strides_; }  // resolved
    bool packed() const { return packed_; }
    int64_t count() const { return count_; }
    std::string layout() const;  // "strides [..] pad f/b" for failure messages

private:
    void for_each(const std::function<void(int64_t packed, int64_t off)>& f) const;
    unsigned char* elem(int64_t off) const;

    simdax_dtype dt_;
    std::vector<int64_t> sizes_, strides_;
    bool packed_;
    Role role_;
    int64_t count_ = 0;
    int64_t pad_front_, pad_back_;
    bool guard_front_;
    size_t esize_;
    int64_t min_off_ = 0, span_ = 0;  // span_ = buffer elements
    unsigned char* map_ = nullptr;    // mmap region (data + guard page)
    size_t map_bytes_ = 0;
    unsigned char* buf_ = nullptr;        // first buffer element
    unsigned char* base_ = nullptr;       // element (0,...,0)
    std::vector<double> mirror_;          // one double per buffer element
    std::vector<unsigned char> initial_;  // bytes after fill (inputs)
};

// The canary byte pattern of one output element (a signalling NaN with a
// payload no computation produces).
void canary_bytes(simdax_dtype dt, unsigned char* out);

}  // namespace sxt
