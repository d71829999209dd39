#include "json_fields.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "case_error.hpp"

namespace simdax_case {

namespace {
// nlohmann messages can be long but are single-line; keep them that way.
std::string one_line(std::string text) {
    for (char& c : text) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    return text;
}
}  // namespace

void JsonFields::fail(const std::string& where, const std::string& problem) const {
    throw CaseError(file_.string() + ": " + (where.empty() ? "" : where + ": ") + one_line(problem));
}

std::string JsonFields::join(const std::string& where, const std::string& key) {
    return where.empty() ? key : where + "." + key;
}

void JsonFields::require_object(const json& value, const std::string& where) const {
    if (!value.is_object()) fail(where, std::string("must be an object, not ") + value.type_name());
}

void JsonFields::allow_only(const json& object, const std::string& where,
                            std::initializer_list<const char*> allowed) const {
    for (const auto& item : object.items()) {
        bool known = false;
        for (const char* name : allowed) known = known || item.key() == name;
        if (!known) {
            std::string list;
            for (const char* name : allowed) list += std::string(list.empty() ? "" : ", ") + name;
            fail(join(where, item.key()), "unknown field (expected one of: " + list + ")");
        }
    }
}

const JsonFields::json& JsonFields::required(const json& object, const std::string& where,
                                             const char* key) const {
    const auto it = object.find(key);
    if (it == object.end()) fail(join(where, key), "missing");
    return *it;
}

const JsonFields::json* JsonFields::optional(const json& object, const char* key) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return nullptr;
    return &*it;
}

std::string JsonFields::as_string(const json& value, const std::string& where) const {
    if (!value.is_string()) fail(where, std::string("must be a string, not ") + value.type_name());
    return value.get<std::string>();
}

double JsonFields::as_number(const json& value, const std::string& where) const {
    if (!value.is_number()) fail(where, std::string("must be a number, not ") + value.type_name());
    const double v = value.get<double>();
    if (!std::isfinite(v)) fail(where, "must be finite");
    return v;
}

float JsonFields::as_float32(const json& value, const std::string& where) const {
    const double v = as_number(value, where);
    if (std::fabs(v) > std::numeric_limits<float>::max()) fail(where, "is beyond the float32 range");
    return static_cast<float>(v);
}

std::int64_t JsonFields::as_integer(const json& value, const std::string& where) const {
    if (value.is_number_unsigned()) {
        const auto u = value.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            fail(where, "is beyond the 64-bit signed range");
        }
        return static_cast<std::int64_t>(u);
    }
    if (!value.is_number_integer()) {
        // A float here is either fractional or beyond 64 bits (nlohmann
        // stores such integers as doubles); show it rather than guess.
        fail(where, "must be an integer, not " +
                        (value.is_number_float() ? value.dump() : std::string(value.type_name())));
    }
    return value.get<std::int64_t>();
}

bool JsonFields::as_bool(const json& value, const std::string& where) const {
    if (!value.is_boolean()) fail(where, std::string("must be true or false, not ") + value.type_name());
    return value.get<bool>();
}

const JsonFields::json& JsonFields::as_array(const json& value, const std::string& where) const {
    if (!value.is_array()) fail(where, std::string("must be an array, not ") + value.type_name());
    return value;
}

std::vector<std::int64_t> JsonFields::as_integer_array(const json& value, const std::string& where) const {
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < as_array(value, where).size(); ++i) {
        out.push_back(as_integer(value[i], where + "[" + std::to_string(i) + "]"));
    }
    return out;
}

std::vector<std::string> JsonFields::as_string_array(const json& value, const std::string& where) const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < as_array(value, where).size(); ++i) {
        out.push_back(as_string(value[i], where + "[" + std::to_string(i) + "]"));
    }
    return out;
}

nlohmann::json parse_json_file(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
        throw CaseError(file.string() + ": " +
                        (std::filesystem::exists(file, ec) ? "not a regular file" : "no such file"));
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) throw CaseError(file.string() + ": cannot be opened for reading");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw CaseError(file.string() + ": read error");
    try {
        return nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
        throw CaseError(file.string() + ": invalid JSON: " + one_line(e.what()));
    }
}

}  // namespace simdax_case
