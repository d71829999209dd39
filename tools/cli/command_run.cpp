#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "commands.hpp"
#include "simdax_case.hpp"

namespace simdax_cli {

namespace {
// Median wall time of `repeat` bare execute calls (the output is already
// valid, so these runs skip the poisoning).
std::uint64_t median_execute_ns(simdax_case::OperatorRun& run, std::uint64_t repeat) {
    std::vector<std::uint64_t> times;
    times.reserve(repeat);
    for (std::uint64_t i = 0; i < repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        run.execute_only();
        const auto stop = std::chrono::steady_clock::now();
        times.push_back(static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count()));
    }
    std::sort(times.begin(), times.end());
    const std::size_t mid = times.size() / 2;
    return times.size() % 2 == 1 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
}
}  // namespace

int command_run(const std::string& case_dir, const std::string& out_dir, std::uint64_t repeat) {
    // The reference output is for `conformance`; run never reads it.
    const simdax_case::Case c = simdax_case::load_case(case_dir, simdax_case::Reference::skip);
    simdax_case::OperatorRun run(c);
    run.execute();

    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) {
        std::fprintf(stderr, "simdax: %s: cannot create directory: %s\n", out_dir.c_str(),
                     ec.message().c_str());
        return kExitFailure;
    }
    // output_<i>.bin for the case's outputs[i]: Y, then those beside it.
    for (std::size_t i = 0; i <= c.extra_outputs.size(); ++i) {
        const simdax_case::Tensor& t = i == 0 ? c.output : c.extra_outputs[i - 1];
        const simdax_case::ByteBuffer& data = i == 0 ? run.output() : run.extra_output(i - 1);
        const std::filesystem::path out_file =
            std::filesystem::path(out_dir) / ("output_" + std::to_string(i) + ".bin");
        simdax_case::write_file(out_file, data.data(), data.size());
        std::printf("wrote %s: %s, %llu %s elements, isa %s\n", out_file.string().c_str(), t.name.c_str(),
                    static_cast<unsigned long long>(t.element_count), simdax_case::dtype_name(t.dtype),
                    simdax_isa_name(run.isa()));
    }

    if (repeat > 0) {
        std::printf("median_ns: %llu\n", static_cast<unsigned long long>(median_execute_ns(run, repeat)));
    }
    return kExitOk;
}

}  // namespace simdax_cli
