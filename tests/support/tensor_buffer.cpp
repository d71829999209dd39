#include "support/tensor_buffer.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "support/dtype.hpp"

namespace sxt {

void canary_bytes(simdax_dtype dt, unsigned char* out) {
    switch (dt) {
        case SIMDAX_DTYPE_FLOAT32: return put_raw(out, uint32_t{0x7FA5A5A5u});
        case SIMDAX_DTYPE_FLOAT16: return put_raw(out, uint16_t{0x7DA5u});
        case SIMDAX_DTYPE_BFLOAT16: return put_raw(out, uint16_t{0x7FA5u});
        case SIMDAX_DTYPE_FLOAT64: return put_raw(out, uint64_t{0x7FF5A5A5A5A5A5A5ull});
        case SIMDAX_DTYPE_UINT8: return put_raw(out, uint8_t{0xA5u});
    }
}

TensorBuffer::TensorBuffer(simdax_dtype dt, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                           Role role, int64_t pad_front, int64_t pad_back, bool guard_front)
    : dt_(dt),
      sizes_(std::move(sizes)),
      strides_(std::move(strides)),
      packed_(strides_.empty()),
      role_(role),
      pad_front_(pad_front),
      pad_back_(pad_back),
      guard_front_(guard_front),
      esize_(dtype_bytes(dt)) {
    if (packed_) strides_ = packed_strides(sizes_);
    if (strides_.size() != sizes_.size() || esize_ == 0)
        throw std::invalid_argument("TensorBuffer: bad strides or dtype");
    count_ = element_count(sizes_);
    int64_t max_off = 0;
    if (count_ > 0)
        for (size_t d = 0; d < sizes_.size(); ++d) {
            const int64_t reach = (sizes_[d] - 1) * strides_[d];
            (reach < 0 ? min_off_ : max_off) += reach;
        }
    span_ = pad_front_ + (max_off - min_off_ + 1) + pad_back_;
    const size_t bytes = size_t(span_) * esize_;
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    const size_t data_pages = (bytes + page - 1) / page;
    map_bytes_ = (data_pages + 1) * page;
    void* m = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    map_ = static_cast<unsigned char*>(m);
    // The guard page makes any read or write just past the buffer fault.
    if (guard_front_) {
        mprotect(map_, page, PROT_NONE);
        buf_ = map_ + page;
    } else {
        mprotect(map_ + data_pages * page, page, PROT_NONE);
        buf_ = map_ + data_pages * page - bytes;
    }
    base_ = buf_ + size_t(pad_front_ - min_off_) * esize_;
    mirror_.assign(size_t(span_), std::numeric_limits<double>::quiet_NaN());
    unsigned char canary[8];
    canary_bytes(dt_, canary);
    for (int64_t i = 0; i < span_; ++i) {
        if (role_ == Role::Input)
            store_as(dt_, buf_ + size_t(i) * esize_, std::numeric_limits<double>::quiet_NaN());
        else
            std::memcpy(buf_ + size_t(i) * esize_, canary, esize_);
    }
    initial_.assign(buf_, buf_ + bytes);
}

TensorBuffer::~TensorBuffer() {
    if (map_) munmap(map_, map_bytes_);
}

TensorBuffer::TensorBuffer(TensorBuffer&& o) noexcept
    : dt_(o.dt_),
      sizes_(std::move(o.sizes_)),
      strides_(std::move(o.strides_)),
      packed_(o.packed_),
      role_(o.role_),
      count_(o.count_),
      pad_front_(o.pad_front_),
      pad_back_(o.pad_back_),
      guard_front_(o.guard_front_),
      esize_(o.esize_),
      min_off_(o.min_off_),
      span_(o.span_),
      map_(o.map_),
      map_bytes_(o.map_bytes_),
      buf_(o.buf_),
      base_(o.base_),
      mirror_(std::move(o.mirror_)),
      initial_(std::move(o.initial_)) {
    o.map_ = nullptr;
}

unsigned char* TensorBuffer::elem(int64_t off) const { return base_ + off * int64_t(esize_); }

void TensorBuffer::for_each(const std::function<void(int64_t, int64_t)>& f) const {
    if (count_ == 0) return;
    const size_t r = sizes_.size();
    std::vector<int64_t> idx(r, 0);
    int64_t off = 0;
    for (int64_t p = 0; p < count_; ++p) {
        f(p, off);
        for (size_t d = r; d-- > 0;) {  // odometer, last dim fastest
            if (++idx[d] < sizes_[d]) {
                off += strides_[d];
                break;
            }
            off -= (sizes_[d] - 1) * strides_[d];
            idx[d] = 0;
        }
    }
}

void TensorBuffer::fill(const std::function<double(int64_t)>& gen) {
    std::vector<bool> assigned(size_t(span_), false);
    const int64_t shift = pad_front_ - min_off_;
    for_each([&](int64_t p, int64_t off) {
        const size_t pos = size_t(off + shift);
        if (assigned[pos]) return;
        assigned[pos] = true;
        const double v = round_to_dtype(gen(p), dt_);
        store_as(dt_, elem(off), v);
        mirror_[pos] = load_as(dt_, elem(off));  // NaN stays NaN
    });
    initial_.assign(buf_, buf_ + size_t(span_) * esize_);
}

void TensorBuffer::set(const std::vector<double>& packed) {
    if (int64_t(packed.size()) != count_) throw std::invalid_argument("TensorBuffer::set: size");
    fill([&](int64_t p) { return packed[size_t(p)]; });
}

std::vector<double> TensorBuffer::read() const {
    std::vector<double> out(static_cast<size_t>(count_));
    for_each([&](int64_t p, int64_t off) { out[size_t(p)] = load_as(dt_, elem(off)); });
    return out;
}

int64_t TensorBuffer::unwritten() const {
    unsigned char canary[8];
    canary_bytes(dt_, canary);
    int64_t n = 0;
    for_each([&](int64_t, int64_t off) { n += std::memcmp(elem(off), canary, esize_) == 0; });
    return n;
}

int64_t TensorBuffer::touched_gaps() const {
    std::vector<bool> reached(size_t(span_), false);
    const int64_t shift = pad_front_ - min_off_;
    for_each([&](int64_t, int64_t off) { reached[size_t(off + shift)] = true; });
    int64_t n = 0;
    for (int64_t i = 0; i < span_; ++i) {
        const size_t at = size_t(i) * esize_;
        if (!reached[size_t(i)]) n += std::memcmp(buf_ + at, initial_.data() + at, esize_) != 0;
    }
    return n;
}

bool TensorBuffer::input_modified() const { return std::memcmp(buf_, initial_.data(), initial_.size()) != 0; }

StridedView TensorBuffer::view() const {
    StridedView v;
    v.base = mirror_.data() + (pad_front_ - min_off_);
    v.sizes = sizes_;
    v.strides = strides_;
    return v;
}

simdax_tensor_desc TensorBuffer::desc() const {
    simdax_tensor_desc d;
    d.dtype = dt_;
    d.rank = uint32_t(sizes_.size());
    d.sizes = sizes_.data();
    d.strides = packed_ ? nullptr : strides_.data();
    return d;
}

std::string TensorBuffer::layout() const {
    std::ostringstream s;
    s << "strides [";
    for (size_t d = 0; d < strides_.size(); ++d) s << (d ? "," : "") << strides_[d];
    s << "]" << (packed_ ? " (packed, NULL)" : "") << " pad " << pad_front_ << "/" << pad_back_
      << (guard_front_ ? " guard-front" : " guard-back");
    return s.str();
}

}  // namespace sxt
