// Strict, typed access to the members of a parsed JSON document. Every
// failure throws CaseError "<file>: <field path>: <problem>", so a wrong
// case.json never reaches the runner and never surfaces as a raw
// nlohmann::json exception.
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace simdax_case {

class JsonFields {
public:
    using json = nlohmann::json;

    explicit JsonFields(std::filesystem::path file) : file_(std::move(file)) {}

    const std::filesystem::path& file() const { return file_; }

    [[noreturn]] void fail(const std::string& where, const std::string& problem) const;

    // "where.key" (or "key" at the top level).
    static std::string join(const std::string& where, const std::string& key);

    void require_object(const json& value, const std::string& where) const;
    // Rejects members outside `allowed`: a misspelt field would otherwise be
    // silently replaced by its default.
    void allow_only(const json& object, const std::string& where,
                    std::initializer_list<const char*> allowed) const;

    // The member `key` of an object; fails if it is missing.
    const json& required(const json& object, const std::string& where, const char* key) const;
    // The member `key`, or null if it is missing or JSON null.
    const json* optional(const json& object, const char* key) const;

    std::string as_string(const json& value, const std::string& where) const;
    double as_number(const json& value, const std::string& where) const;
    float as_float32(const json& value, const std::string& where) const;
    std::int64_t as_integer(const json& value, const std::string& where) const;
    bool as_bool(const json& value, const std::string& where) const;
    std::vector<std::int64_t> as_integer_array(const json& value, const std::string& where) const;
    std::vector<std::string> as_string_array(const json& value, const std::string& where) const;
    const json& as_array(const json& value, const std::string& where) const;

private:
    std::filesystem::path file_;
};

// Parses a whole JSON file; a missing file or a syntax error is a CaseError.
nlohmann::json parse_json_file(const std::filesystem::path& file);

}  // namespace simdax_case
