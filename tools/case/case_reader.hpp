// Reads conformance cases from disk (README "case.json" and "Binary
// files"). Everything is validated here; any problem is a CaseError whose
// message names the file and the problem.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "case_model.hpp"

namespace simdax_case {

// Whether load_case reads the reference output file (the runner never
// needs it: `simdax run` works on a case folder without one).
enum class Reference { load, skip };

// Reads DIR/case.json and the .bin files it names (output.contents stays
// empty with Reference::skip). A `file` must name a file inside DIR.
Case load_case(const std::filesystem::path& dir, Reference reference = Reference::load);

// Reads ROOT/index.json (the list of a set's cases).
std::vector<IndexEntry> load_index(const std::filesystem::path& root);

// The folders at or below ROOT: those holding a case.json (sorted by path;
// ROOT may itself be one), and those passed over, with the reason: a folder
// without case.json and without subfolders, or one that cannot be listed.
struct CaseScan {
    struct Skipped {
        std::filesystem::path dir;
        std::string reason;
    };
    std::vector<std::filesystem::path> cases;
    std::vector<Skipped> skipped;
};
CaseScan scan_case_dirs(const std::filesystem::path& root);

// scan_case_dirs(root).cases.
std::vector<std::filesystem::path> find_case_dirs(const std::filesystem::path& root);

}  // namespace simdax_case
