#include "attention_params.hpp"

#include <cstdint>
#include <limits>
#include <string>

namespace simdax_case {
namespace {

using json = nlohmann::json;

struct CausalName {
    const char* name;
    simdax_causal mode;
};
constexpr CausalName kCausalNames[] = {{"none", SIMDAX_CAUSAL_NONE},
                                       {"top_left", SIMDAX_CAUSAL_TOP_LEFT},
                                       {"bottom_right", SIMDAX_CAUSAL_BOTTOM_RIGHT}};

simdax_causal parse_causal(const JsonFields& f, const json& value) {
    const std::string where = "params.causal";
    const std::string name = f.as_string(value, where);
    for (const CausalName& c : kCausalNames) {
        if (name == c.name) return c.mode;
    }
    f.fail(where, "unknown causal mode '" + name + "' (expected \"none\", \"top_left\" or \"bottom_right\")");
}

std::uint32_t parse_window(const JsonFields& f, const json& value) {
    const std::string where = "params.window";
    const std::int64_t window = f.as_integer(value, where);
    if (window < 0 || window > std::numeric_limits<std::uint32_t>::max())
        f.fail(where, std::to_string(window) + " is not a key count (0: unlimited)");
    return static_cast<std::uint32_t>(window);
}

// The library has one result for a row with no visible key: zeros (and
// -inf under LogSoftmax). A case whose reference holds something else there
// (the NaN of a plain softmax over -inf) could only fail, so it is refused
// with the reason instead.
void check_fully_masked_rows(const JsonFields& f, const json& value) {
    const std::string where = "params.fully_masked_rows";
    const std::string policy = f.as_string(value, where);
    if (policy != "zeros") {
        f.fail(where, "'" + policy +
                          "' is not simdax's policy: a row with no visible key gives zeros (LogSoftmax: "
                          "-inf); expected \"zeros\"");
    }
}

}  // namespace

AttentionParams parse_attention_params(const JsonFields& f, const json& params) {
    f.allow_only(params, "params", {"scale", "softcap", "causal", "window", "log", "fully_masked_rows"});
    AttentionParams out;
    if (const json* v = f.optional(params, "scale")) out.scale = f.as_float32(*v, "params.scale");
    if (const json* v = f.optional(params, "softcap")) out.softcap = f.as_float32(*v, "params.softcap");
    if (const json* v = f.optional(params, "causal")) out.causal = parse_causal(f, *v);
    if (const json* v = f.optional(params, "window")) out.window = parse_window(f, *v);
    if (const json* v = f.optional(params, "log")) out.log = f.as_bool(*v, "params.log");
    if (const json* v = f.optional(params, "fully_masked_rows")) check_fully_masked_rows(f, *v);
    return out;
}

}  // namespace simdax_case
