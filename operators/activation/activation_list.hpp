// The activation table: one row per simdax_activation_type, in enum order,
// with its docs/spec.md name and, for each of alpha/beta/gamma, the name
// docs/spec.md gives the parameter and DirectML's documented default (a
// parameter without a name is not read). The library's names, defaults and
// fields (activation_names.cpp) and tools/case's parser read it; the math
// is in kernels/scalar/activation_scalar.cpp and kernels/simd/activation.hpp.
// Header only, on the public enum alone, so that tools/case can use it.
#pragma once

#include "simdax/simdax.h"

namespace simdax {

struct ActivationParam {
    const char* name;  // docs/spec.md's name; nullptr: the activation does not read it
    float fallback;    // simdax_activation_default()'s value
};

struct ActivationRow {
    simdax_activation_type type;
    const char* name;  // simdax_activation_name()
    ActivationParam alpha, beta, gamma;
};

constexpr ActivationParam kNotRead{nullptr, 0.0f};

// softplus' steepness and shrink's bias/threshold live in alpha/beta, as
// simdax.h documents.
// clang-format off
inline constexpr ActivationRow kActivations[] = {
    {SIMDAX_ACTIVATION_IDENTITY,            "identity",            kNotRead,                  kNotRead,                  kNotRead},
    {SIMDAX_ACTIVATION_LINEAR,              "linear",              {"alpha", 1.0f},           {"beta", 0.0f},            kNotRead},
    {SIMDAX_ACTIVATION_RELU,                "relu",                kNotRead,                  kNotRead,                  kNotRead},
    {SIMDAX_ACTIVATION_LEAKY_RELU,          "leaky_relu",          {"alpha", 0.01f},          kNotRead,                  kNotRead},
    {SIMDAX_ACTIVATION_ELU,                 "elu",                 {"alpha", 1.0f},           kNotRead,                  kNotRead},
    {SIMDAX_ACTIVATION_CELU,                "celu",                {"alpha", 1.0f},           kNotRead,                  kNotRead},
    {SIMDAX_ACTIVATION_SCALED_ELU,          "scaled_elu",          {"alpha", 1.67326319f},    kNotRead,                  {"gamma", 1.05070102f}},
    {SIMDAX_ACTIVATION_SIGMOID,             "sigmoid",             kNotRead,                  kNotRead,                  kNotRead},
    {SIMDAX_ACTIVATION_HARD_SIGMOID,        "hard_sigmoid",        {"alpha", 0.2f},           {"beta", 0.5f},            kNotRead},
    {SIMDAX_ACTIVATION_TANH,                "tanh",                kNotRead,                  kNotRead,                  kNotRead},
    {SIMDAX_ACTIVATION_SCALED_TANH,         "scaled_tanh",         {"alpha", 1.0f},           {"beta", 1.0f},            kNotRead},
    {SIMDAX_ACTIVATION_SOFTPLUS,            "softplus",            {"steepness", 1.0f},       kNotRead,                  kNotRead},
    {SIMDAX_ACTIVATION_PARAMETRIC_SOFTPLUS, "parametric_softplus", {"alpha", 1.0f},           {"beta", 1.0f},            kNotRead},
    {SIMDAX_ACTIVATION_SOFTSIGN,            "softsign",            kNotRead,                  kNotRead,                  kNotRead},
    {SIMDAX_ACTIVATION_THRESHOLDED_RELU,    "thresholded_relu",    {"alpha", 1.0f},           kNotRead,                  kNotRead},
    {SIMDAX_ACTIVATION_SHRINK,              "shrink",              {"bias", 0.0f},            {"threshold", 0.5f},       kNotRead},
    {SIMDAX_ACTIVATION_GELU,                "gelu",                kNotRead,                  kNotRead,                  kNotRead},
};
// clang-format on

// A type missing from the table, or a row out of enum order, fails the build.
static_assert(sizeof(kActivations) / sizeof(kActivations[0]) == SIMDAX_ACTIVATION_COUNT,
              "kActivations needs one row per simdax_activation_type");
constexpr bool activations_in_enum_order() {
    for (int i = 0; i < SIMDAX_ACTIVATION_COUNT; ++i)
        if (int(kActivations[i].type) != i) return false;
    return true;
}
static_assert(activations_in_enum_order(), "kActivations' rows must follow the enum's order");

// The row of a valid type, nullptr otherwise.
constexpr const ActivationRow* activation_row(simdax_activation_type type) {
    const int i = int(type);
    return (i >= 0 && i < SIMDAX_ACTIVATION_COUNT) ? &kActivations[i] : nullptr;
}

}  // namespace simdax
