#include "dtype_codec.hpp"

#include <cmath>
#include <cstring>

namespace simdax_case {
namespace {

// Rounds x to the nearest value of a binary format with `mant_bits` stored
// fraction bits and `exp_bits` exponent bits (ties to even) and returns its
// bit pattern. One routine for every narrow type keeps the rounding in one
// place; it works on the integer significand so it never rounds twice.
std::uint64_t round_to_binary(double x, int mant_bits, int exp_bits) {
    std::uint64_t d;
    std::memcpy(&d, &x, sizeof d);
    const std::uint64_t sign = (d >> 63) << (exp_bits + mant_bits);
    const std::uint64_t exp_ones = (std::uint64_t{1} << exp_bits) - 1;
    const std::uint64_t inf = exp_ones << mant_bits;
    const int biased = static_cast<int>((d >> 52) & 0x7ff);
    std::uint64_t m = d & ((std::uint64_t{1} << 52) - 1);
    if (biased == 0x7ff) {
        return m != 0 ? (sign | inf | (std::uint64_t{1} << (mant_bits - 1))) : (sign | inf);
    }
    if (biased == 0 && m == 0) return sign;

    // |x| = m * 2^(e - 52)
    int e = -1022;
    if (biased != 0) {
        e = biased - 1023;
        m |= std::uint64_t{1} << 52;
    }
    const int bias = static_cast<int>(exp_ones >> 1);
    const int emin = 1 - bias;
    // Exponent of the target's last place at x's magnitude (fixed below emin:
    // that is the subnormal range).
    const int last_place = (e >= emin ? e : emin) - mant_bits;
    const int shift = 52 + last_place - e;  // always > 0 for the formats here

    std::uint64_t n = 0;  // |x| in units of the last place, rounded
    if (shift <= 53) {
        n = m >> shift;
        const std::uint64_t rem = m & ((std::uint64_t{1} << shift) - 1);
        const std::uint64_t half = std::uint64_t{1} << (shift - 1);
        if (rem > half || (rem == half && (n & 1) != 0)) ++n;
    }
    // A carry out of the significand moves into the exponent field by itself.
    std::uint64_t bits = e >= emin ? (static_cast<std::uint64_t>(e + bias - 1) << mant_bits) + n : n;
    if (bits >= inf) bits = inf;
    return sign | bits;
}

}  // namespace

std::optional<simdax_dtype> dtype_from_name(const std::string& name) {
    if (name == "float32") return SIMDAX_DTYPE_FLOAT32;
    if (name == "float16") return SIMDAX_DTYPE_FLOAT16;
    if (name == "bfloat16") return SIMDAX_DTYPE_BFLOAT16;
    if (name == "float64") return SIMDAX_DTYPE_FLOAT64;
    return std::nullopt;
}

const char* dtype_name(simdax_dtype dtype) {
    switch (dtype) {
        case SIMDAX_DTYPE_FLOAT32: return "float32";
        case SIMDAX_DTYPE_FLOAT16: return "float16";
        case SIMDAX_DTYPE_BFLOAT16: return "bfloat16";
        case SIMDAX_DTYPE_FLOAT64: return "float64";
        case SIMDAX_DTYPE_UINT8: return "uint8";
    }
    return "unknown";
}

std::size_t dtype_bytes(simdax_dtype dtype) {
    switch (dtype) {
        case SIMDAX_DTYPE_FLOAT32: return 4;
        case SIMDAX_DTYPE_FLOAT16: return 2;
        case SIMDAX_DTYPE_BFLOAT16: return 2;
        case SIMDAX_DTYPE_FLOAT64: return 8;
        case SIMDAX_DTYPE_UINT8: return 1;
    }
    return 0;
}

std::uint16_t double_to_float16_bits(double x) {
    return static_cast<std::uint16_t>(round_to_binary(x, 10, 5));
}

std::uint16_t double_to_bfloat16_bits(double x) {
    return static_cast<std::uint16_t>(round_to_binary(x, 7, 8));
}

std::uint32_t double_to_float32_bits(double x) {
    return static_cast<std::uint32_t>(round_to_binary(x, 23, 8));
}

double float16_bits_to_double(std::uint16_t bits) {
    const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
    const int exponent = (bits >> 10) & 0x1f;
    const int fraction = bits & 0x3ff;
    if (exponent == 0x1f) return fraction != 0 ? std::nan("") : sign * HUGE_VAL;
    if (exponent == 0) return sign * std::ldexp(fraction, -24);
    return sign * std::ldexp(fraction + 1024, exponent - 25);
}

double bfloat16_bits_to_double(std::uint16_t bits) {
    const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &wide, sizeof f);
    return f;
}

namespace {
double float32_bits_to_double(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}
}  // namespace

double round_to_dtype(double x, simdax_dtype dtype) {
    switch (dtype) {
        case SIMDAX_DTYPE_FLOAT32: return float32_bits_to_double(double_to_float32_bits(x));
        case SIMDAX_DTYPE_FLOAT16: return float16_bits_to_double(double_to_float16_bits(x));
        case SIMDAX_DTYPE_BFLOAT16: return bfloat16_bits_to_double(double_to_bfloat16_bits(x));
        case SIMDAX_DTYPE_FLOAT64: return x;
        case SIMDAX_DTYPE_UINT8: return x != 0.0 ? 1.0 : 0.0;
    }
    return x;
}

double load_element(const void* data, std::size_t index, simdax_dtype dtype) {
    const auto* bytes = static_cast<const unsigned char*>(data) + index * dtype_bytes(dtype);
    switch (dtype) {
        case SIMDAX_DTYPE_FLOAT32: {
            std::uint32_t b;
            std::memcpy(&b, bytes, sizeof b);
            return float32_bits_to_double(b);
        }
        case SIMDAX_DTYPE_FLOAT16:
        case SIMDAX_DTYPE_BFLOAT16: {
            std::uint16_t b;
            std::memcpy(&b, bytes, sizeof b);
            return dtype == SIMDAX_DTYPE_FLOAT16 ? float16_bits_to_double(b) : bfloat16_bits_to_double(b);
        }
        case SIMDAX_DTYPE_FLOAT64: {
            double v;
            std::memcpy(&v, bytes, sizeof v);
            return v;
        }
        case SIMDAX_DTYPE_UINT8: return double(*bytes);
    }
    return std::nan("");
}

namespace {
// Bit pattern of a value already representable in dtype, and its sign bit.
std::uint64_t exact_bits(double x, simdax_dtype dtype, std::uint64_t* sign_bit) {
    switch (dtype) {
        case SIMDAX_DTYPE_FLOAT32: *sign_bit = std::uint64_t{1} << 31; return double_to_float32_bits(x);
        case SIMDAX_DTYPE_FLOAT16: *sign_bit = 0x8000; return double_to_float16_bits(x);
        case SIMDAX_DTYPE_BFLOAT16: *sign_bit = 0x8000; return double_to_bfloat16_bits(x);
        case SIMDAX_DTYPE_FLOAT64: break;
        case SIMDAX_DTYPE_UINT8: *sign_bit = 0; return x != 0.0 ? 1u : 0u;
    }
    std::uint64_t d;
    std::memcpy(&d, &x, sizeof d);
    *sign_bit = std::uint64_t{1} << 63;
    return d;
}
}  // namespace

std::uint64_t ulp_distance(double a, double b, simdax_dtype dtype) {
    // Finite values of one sign are ordered like their magnitude bits, so
    // the step count is a difference (same sign) or a sum (opposite signs,
    // which also makes -0 and +0 the same point).
    std::uint64_t sign_bit = 0;
    const std::uint64_t ba = exact_bits(a, dtype, &sign_bit);
    const std::uint64_t bb = exact_bits(b, dtype, &sign_bit);
    const std::uint64_t ma = ba & ~sign_bit;
    const std::uint64_t mb = bb & ~sign_bit;
    if ((ba & sign_bit) == (bb & sign_bit)) return ma > mb ? ma - mb : mb - ma;
    const std::uint64_t sum = ma + mb;
    return sum < ma ? UINT64_MAX : sum;
}

}  // namespace simdax_case
