// The benchmarks' name of an operator type ("log_softmax", "mvn",
// "layer_norm"): the operator list's name (simdax_operator_name:
// "LogSoftmax", "MeanVarianceNormalization", "LayerNormalization") with the
// abbreviations below, in snake_case. A new operator is named by the list,
// with no edit here. Header-only and given the name function, so that
// simdax_lib_ab can ask the library it dlopens.
#pragma once

#include <cctype>
#include <cstring>
#include <stdexcept>
#include <string>

#include <simdax/simdax.h>

namespace simdax_bench {

using OperatorNameFn = const char* (*)(simdax_operator_type);

// The one place a benchmark name departs from the operator list: the short
// names the benchmark names, tools/scripts/bench_ab.py, the README tables
// and bench/peers/workloads.txt carried before the list existed. Applied in
// order, each to the first occurrence of its long form.
struct Abbreviation {
    const char* long_form;
    const char* short_form;
};
constexpr Abbreviation kAbbreviations[] = {
    {"MeanVarianceNormalization", "Mvn"},  // mvn
    {"Normalization", "Norm"},             // layer_norm, rms_norm
};

// "LogSoftmax" -> "log_softmax", "RMSNorm" -> "rms_norm": a word starts at a
// capital after a lower-case letter, or at the last capital of a run that
// a lower-case letter follows.
inline std::string snake_case(const std::string& name) {
    const auto upper = [&](size_t i) { return std::isupper(static_cast<unsigned char>(name[i])) != 0; };
    const auto lower = [&](size_t i) { return std::islower(static_cast<unsigned char>(name[i])) != 0; };
    std::string s;
    for (size_t i = 0; i < name.size(); ++i) {
        if (i > 0 && upper(i) && (lower(i - 1) || (upper(i - 1) && i + 1 < name.size() && lower(i + 1))))
            s += '_';
        s += char(std::tolower(static_cast<unsigned char>(name[i])));
    }
    return s;
}

// The benchmark name of type; throws std::invalid_argument for a type
// name_of does not know (so no benchmark runs under a made-up name).
inline std::string operator_short_name(simdax_operator_type type,
                                       OperatorNameFn name_of = simdax_operator_name) {
    const char* name = name_of(type);
    if (!name) throw std::invalid_argument("no operator of type " + std::to_string(int(type)));
    std::string s = name;
    for (const Abbreviation& a : kAbbreviations) {
        const size_t at = s.find(a.long_form);
        if (at != std::string::npos) s.replace(at, std::strlen(a.long_form), a.short_form);
    }
    return snake_case(s);
}

// The type whose operator_short_name is `name`, among every type name_of
// knows (the types count up from 1: simdax_descriptors.h); false if none.
inline bool parse_operator_short_name(const std::string& name, simdax_operator_type* type,
                                      OperatorNameFn name_of = simdax_operator_name) {
    for (int t = 1; name_of(simdax_operator_type(t)); ++t) {
        const auto candidate = simdax_operator_type(t);
        if (operator_short_name(candidate, name_of) == name) {
            *type = candidate;
            return true;
        }
    }
    return false;
}

}  // namespace simdax_bench
