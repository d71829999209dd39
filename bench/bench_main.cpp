// simdax_bench: Google Benchmark flags as usual (--benchmark_filter, ...),
// plus --table_only (print just the machine header and the ratio table),
// --table_real_time (tabulate wall-clock instead of CPU time per execute) and
// --sweep (run the sweep family of sweep.hpp instead of the workloads, no
// table; --benchmark_out=<file.json> keeps it for tools/scripts/plot_sweep.py)
// and --placements[=REGEX] (the buffer-placement table of placements.hpp for
// the workloads whose id matches, instead of the workloads).
//
// Default run length: --benchmark_min_time=<kDefaultMinTime> is put in front
// of the user's flags unless they give their own. This is the MinTime of
// every benchmark, but, unlike Benchmark::MinTime() (which overrides the
// flag in 1.7.1), it lets --benchmark_min_time=0.001 shorten a smoke run.
//
// Exit status: 1 if a benchmark failed or the filter matched nothing.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <simdax/simdax.h>

#include "bench_ops.hpp"
#include "placements.hpp"
#include "ratio_table_reporter.hpp"
#include "sweep.hpp"

namespace {

constexpr const char* kDefaultMinTime = "--benchmark_min_time=0.5";

bool starts_with(const char* s, const char* prefix) {
    return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

void print_help() {
    benchmark::PrintDefaultHelp();
    std::cout << "simdax_bench options:\n"
                 "          [--table_only]       print only the machine header and the ratio table\n"
                 "          [--table_real_time]  tabulate wall-clock time (default: CPU time)\n"
                 "          [--sweep]            run the size and row-length sweep instead, no table\n"
                 "          [--placements[=REGEX]] time each workload (id matching REGEX) at several\n"
                 "                               input/output offsets from a 64-byte boundary instead\n"
                 "  default --benchmark_min_time is "
              << (kDefaultMinTime + std::strlen("--benchmark_min_time=")) << " s\n";
}

}  // namespace

int main(int argc, char** argv) {
    bool table_only = false;
    bool table_real_time = false;
    bool sweep = false;
    bool has_min_time = false;
    bool console_format = true;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (i > 0 && std::strcmp(argv[i], "--table_only") == 0) {
            table_only = true;
            continue;
        }
        if (i > 0 && std::strcmp(argv[i], "--table_real_time") == 0) {
            table_real_time = true;
            continue;
        }
        if (i > 0 && std::strcmp(argv[i], "--sweep") == 0) {
            sweep = true;
            continue;
        }
        if (i > 0 && starts_with(argv[i], "--placements")) {
            const char* eq = std::strchr(argv[i], '=');
            return simdax_bench::run_placements(simdax_bench::supported_isas(), eq ? eq + 1 : "");
        }
        if (starts_with(argv[i], "--benchmark_min_time")) has_min_time = true;
        if (starts_with(argv[i], "--benchmark_format=") &&
            std::strcmp(argv[i], "--benchmark_format=console") != 0)
            console_format = false;
        args.push_back(argv[i]);
    }
    std::string min_time = kDefaultMinTime;
    if (!has_min_time) args.insert(args.begin() + 1, &min_time[0]);
    int count = int(args.size());
    args.push_back(nullptr);

    benchmark::Initialize(&count, args.data(), print_help);
    if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;

    const std::vector<simdax_isa> isas = simdax_bench::supported_isas();
    if (sweep)
        simdax_bench::register_sweep(isas);
    else
        simdax_bench::register_benchmarks(isas);

    // json/csv on stdout stay parseable: the table then goes to stderr.
    std::ostream* table = sweep ? nullptr : console_format ? &std::cout : &std::cerr;
    simdax_bench::RatioTableReporter reporter(
        table_only && !sweep ? nullptr : benchmark::CreateDefaultDisplayReporter(), isas, table,
        table_real_time);
    const size_t matched = benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return (matched == 0 || reporter.any_error()) ? 1 : 0;
}
