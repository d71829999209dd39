#include "case_checker.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "dtype_codec.hpp"
#include "tensor_layout.hpp"

namespace simdax_case {

bool element_passes(double got, double ref, simdax_dtype dtype, const Tolerance& tol) {
    if (std::isnan(ref)) return std::isnan(got);
    const double ref_rounded = round_to_dtype(ref, dtype);
    if (std::isinf(ref_rounded)) return got == ref_rounded;
    if (!std::isfinite(got)) return false;
    if (std::fabs(got - ref) <= tol.atol + tol.rtol * std::fabs(ref)) return true;
    return tol.ulps > 0 && ulp_distance(got, ref_rounded, dtype) <= tol.ulps;
}

namespace {
// How far out of bounds a failing element is, to pick the one to report.
// Special-value mismatches (NaN, inf) rank above any finite miss.
double badness(double got, double ref, double allowed) {
    const double diff = std::fabs(got - ref);
    if (std::isnan(diff) || std::isinf(diff)) return std::numeric_limits<double>::infinity();
    return diff - allowed;
}
}  // namespace

CheckResult check_output(const Case& c, const ByteBuffer& got) { return check_tensor(c, c.output, got); }

CheckResult check_run(const Case& c, const OperatorRun& run) {
    CheckResult result = check_output(c, run.output());
    for (std::size_t i = 0; result.passed() && i < c.extra_outputs.size(); ++i)
        result = check_tensor(c, c.extra_outputs[i], run.extra_output(i));
    return result;
}

CheckResult check_tensor(const Case& c, const Tensor& ref, const ByteBuffer& got) {
    CheckResult result;
    result.tensor = ref.name;
    const simdax_dtype dtype = ref.dtype;
    result.elements = ref.element_count;
    double worst_badness = -1;
    for (std::uint64_t i = 0; i < result.elements; ++i) {
        const double g = load_element(got.data(), i, dtype);
        const double r = load_element(ref.contents.data(), i, ref.file_dtype);
        if (element_passes(g, r, dtype, c.tolerance)) continue;
        ++result.failures;
        const double allowed = c.tolerance.atol + c.tolerance.rtol * std::fabs(r);
        const double b = badness(g, r, allowed);
        if (!result.worst || b > worst_badness) {
            worst_badness = b;
            result.worst = Mismatch{i, {}, g, r, allowed};
        }
    }
    if (result.worst) result.worst->coords = unravel_index(result.worst->index, ref.shape);
    return result;
}

std::string format_value(double value, simdax_dtype dtype) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char text[64];
    if (dtype == SIMDAX_DTYPE_FLOAT16 || dtype == SIMDAX_DTYPE_BFLOAT16) {
        // 5 (binary16) and 4 (bfloat16) significant digits always read back.
        std::snprintf(text, sizeof text, "%.*g", dtype == SIMDAX_DTYPE_FLOAT16 ? 5 : 4, value);
        return text;
    }
    const auto res = dtype == SIMDAX_DTYPE_FLOAT32
                         ? std::to_chars(text, text + sizeof text, static_cast<float>(value))
                         : std::to_chars(text, text + sizeof text, value);
    return std::string(text, res.ptr);
}

std::string describe_failure(const Case& c, const CheckResult& result) {
    if (result.passed() || !result.worst) return "passed";
    const Mismatch& m = *result.worst;
    const Tensor* out = &c.output;
    for (const Tensor& t : c.extra_outputs)
        if (t.name == result.tensor) out = &t;
    std::string coords;
    for (std::size_t k = 0; k < m.coords.size(); ++k) {
        coords += (k == 0 ? "[" : ",") + std::to_string(m.coords[k]);
    }
    coords += "]";
    std::string text = (out == &c.output ? "" : out->name + ": ") + std::to_string(result.failures) + " of " +
                       std::to_string(result.elements) + " elements fail; worst at index " +
                       std::to_string(m.index) + " " + coords + ": got " + format_value(m.got, out->dtype) +
                       ", ref " + format_value(m.ref, out->file_dtype);
    // Rules 1 and 2 ask for a special value; rule 3 for a distance.
    const double rounded = round_to_dtype(m.ref, out->dtype);
    if (std::isnan(m.ref) || std::isinf(rounded)) {
        return text + " (must be " + format_value(rounded, out->dtype) + ")";
    }
    char allowed[32];
    std::snprintf(allowed, sizeof allowed, "%.3g", m.allowed);
    text += std::string(", tolerance ") + allowed;
    if (c.tolerance.ulps > 0) {
        text += " or " + std::to_string(c.tolerance.ulps) + " ulp of " + dtype_name(out->dtype);
        if (std::isfinite(m.got)) {
            text += " (got is " + std::to_string(ulp_distance(m.got, rounded, out->dtype)) + " ulp away)";
        }
    }
    if (c.tolerance.atol == 0 && c.tolerance.rtol == 0 && c.tolerance.ulps == 0) text += " (exact)";
    return text;
}

}  // namespace simdax_case
