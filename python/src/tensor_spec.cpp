#include "tensor_spec.hpp"

#include <sstream>

namespace nb = nanobind;

namespace simdax_py {
namespace {

struct DtypeName {
    simdax_dtype dtype;
    const char* name;
};
constexpr DtypeName kDtypeNames[] = {
    {SIMDAX_DTYPE_FLOAT32, "float32"},
    {SIMDAX_DTYPE_FLOAT16, "float16"},
    {SIMDAX_DTYPE_BFLOAT16, "bfloat16"},
    {SIMDAX_DTYPE_FLOAT64, "float64"},
};

// bfloat16 arrives as DLPack bfloat16 (torch) or as the uint16 view the
// Python layer makes of an ml_dtypes array (numpy's DLPack export refuses
// ml_dtypes types); the Python layer has checked the dtype by then.
bool dtype_matches(simdax_dtype dtype, nb::dlpack::dtype got) {
    if (got.lanes != 1) return false;
    switch (dtype) {
        case SIMDAX_DTYPE_FLOAT32: return got == nb::dtype<float>();
        case SIMDAX_DTYPE_FLOAT64: return got == nb::dtype<double>();
        case SIMDAX_DTYPE_UINT8: return got == nb::dtype<uint8_t>() || got == nb::dtype<bool>();
        case SIMDAX_DTYPE_FLOAT16:
            return got.code == uint8_t(nb::dlpack::dtype_code::Float) && got.bits == 16;
        case SIMDAX_DTYPE_BFLOAT16:
            return got.bits == 16 && (got.code == uint8_t(nb::dlpack::dtype_code::Bfloat) ||
                                      got.code == uint8_t(nb::dlpack::dtype_code::UInt));
    }
    return false;
}

std::string join(const std::vector<int64_t>& values) {
    std::ostringstream out;
    out << '(';
    for (size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << values[i];
    out << (values.size() == 1 ? ",)" : ")");
    return out.str();
}

template <typename Array>
void check_array(const TensorSpec& spec, const Array& array, const char* what) {
    if (!dtype_matches(spec.dtype, array.dtype()))
        throw nb::type_error((std::string(what) + ": the operator was created for " + dtype_name(spec.dtype) +
                              ", this array holds another dtype")
                                 .c_str());
    std::vector<int64_t> sizes(array.ndim()), strides(array.ndim());
    for (size_t i = 0; i < array.ndim(); ++i) {
        sizes[i] = int64_t(array.shape(i));
        strides[i] = array.stride(i);
    }
    if (sizes != spec.sizes)
        throw nb::value_error((std::string(what) + ": the operator was created for shape " +
                               join(spec.sizes) + ", got " + join(sizes))
                                  .c_str());
    const std::vector<int64_t> expected = spec.element_strides();
    for (int64_t size : sizes)
        if (size == 0) return;  // no element: the strides reach nothing
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] > 1 && strides[i] != expected[i])
            throw nb::value_error((std::string(what) + ": the operator was created for element strides " +
                                   join(expected) + ", got " + join(strides) +
                                   " (create one for this layout)")
                                      .c_str());
    }
}

}  // namespace

simdax_dtype dtype_from_name(const std::string& name) {
    for (const DtypeName& entry : kDtypeNames)
        if (name == entry.name) return entry.dtype;
    throw nb::type_error(
        ("simdax has no dtype '" + name + "' (float32, float16, bfloat16, float64)").c_str());
}

const char* dtype_name(simdax_dtype dtype) {
    for (const DtypeName& entry : kDtypeNames)
        if (dtype == entry.dtype) return entry.name;
    return "unknown";
}

TensorSpec::TensorSpec(simdax_dtype dtype_, std::vector<int64_t> sizes_,
                       std::optional<std::vector<int64_t>> strides_)
    : dtype(dtype_), sizes(std::move(sizes_)) {
    if (strides_) {
        if (strides_->size() != sizes.size())
            throw nb::value_error(
                ("strides " + join(*strides_) + " do not match shape " + join(sizes) + " in length").c_str());
        strides = std::move(*strides_);
    }
}

simdax_tensor_desc TensorSpec::desc() const {
    return {dtype, uint32_t(sizes.size()), sizes.data(), strides.empty() ? nullptr : strides.data()};
}

std::vector<int64_t> TensorSpec::element_strides() const {
    if (!strides.empty()) return strides;
    std::vector<int64_t> packed(sizes.size());
    int64_t step = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
        packed[i] = step;
        step *= sizes[i];
    }
    return packed;
}

void check_layout(const TensorSpec& spec, const InputArray& array, const char* what) {
    check_array(spec, array, what);
}
void check_layout(const TensorSpec& spec, const OutputArray& array, const char* what) {
    check_array(spec, array, what);
}

}  // namespace simdax_py
