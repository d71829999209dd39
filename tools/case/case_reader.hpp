// Reads conformance cases from disk (README "case.json" and "Binary
// files"). Everything is validated here; any problem is a CaseError whose
// message names the file and the problem.
#pragma once

#include <filesystem>
#include <vector>

#include "case_model.hpp"

namespace simdax_case {

// Reads DIR/case.json and the .bin files it names.
Case load_case(const std::filesystem::path& dir);

// Reads ROOT/index.json (the list of a set's cases).
std::vector<IndexEntry> load_index(const std::filesystem::path& root);

// Every folder at or below ROOT holding a case.json, sorted by path. ROOT
// may itself be a case folder.
std::vector<std::filesystem::path> find_case_dirs(const std::filesystem::path& root);

}  // namespace simdax_case
