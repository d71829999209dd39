#include <cstdio>
#include <exception>
#include <filesystem>

#include "commands.hpp"
#include "simdax_case.hpp"

namespace simdax_cli {

int command_conformance(const std::string& root) {
    const simdax_case::CaseScan scan = simdax_case::scan_case_dirs(root);
    // Folders passed over are named, so a case that lost its case.json (or
    // a folder without read permission) does not vanish from the count.
    for (const auto& skipped : scan.skipped)
        std::printf("SKIP %s: %s\n", skipped.dir.string().c_str(), skipped.reason.c_str());
    const auto& dirs = scan.cases;
    if (dirs.empty()) {
        std::fprintf(stderr, "simdax: %s: no case.json at or below it\n", root.c_str());
        return kExitFailure;
    }
    const char* isa = simdax_isa_name(simdax_active_isa());
    std::printf("running %zu case%s on isa %s\n", dirs.size(), dirs.size() == 1 ? "" : "s", isa ? isa : "?");

    std::size_t passed = 0;
    std::size_t failed = 0;
    for (const auto& dir : dirs) {
        // A broken case is a failure of its own; the others still run.
        try {
            const simdax_case::Case c = simdax_case::load_case(dir);
            simdax_case::OperatorRun run(c);
            run.execute();
            // Y and every output beside it (Mean, InvStdDev, LogSumExp).
            const simdax_case::CheckResult result = simdax_case::check_run(c, run);
            if (result.passed()) {
                ++passed;
            } else {
                ++failed;
                std::printf("FAIL %s (%s): %s\n", c.name.c_str(), dir.string().c_str(),
                            simdax_case::describe_failure(c, result).c_str());
            }
        } catch (const std::exception& e) {
            ++failed;
            std::printf("ERROR %s\n", e.what());
        }
    }
    std::printf("%zu passed, %zu failed", passed, failed);
    if (!scan.skipped.empty())
        std::printf(", %zu folder%s skipped", scan.skipped.size(), scan.skipped.size() == 1 ? "" : "s");
    std::printf("\n");
    return failed == 0 ? kExitOk : kExitFailure;
}

}  // namespace simdax_cli
