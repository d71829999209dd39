// A display reporter that forwards to Google Benchmark's own one (console,
// json or csv as --benchmark_format says; or nothing with --table_only),
// keeps every result, and after the run prints the table: one row per
// workload, one column per ISA with time per execute, op/memcpy ratio and
// op/read ratio (baselines.hpp), the best ISA against the workload's target.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <simdax/simdax.h>

namespace simdax_bench {

class RatioTableReporter : public benchmark::BenchmarkReporter {
public:
    // inner: reporter to forward to, or nullptr. table: where the machine
    // header and the table go, or nullptr for none (the sweep). real_time:
    // tabulate wall-clock time instead of the thread's CPU time (the
    // default: on a shared machine it leaves out the time other processes
    // hold the core, for op and memcpy alike).
    RatioTableReporter(benchmark::BenchmarkReporter* inner, std::vector<simdax_isa> isas, std::ostream* table,
                       bool real_time);

    bool ReportContext(const Context& context) override;
    void ReportRuns(const std::vector<Run>& runs) override;
    void Finalize() override;

    // True if any benchmark failed (SkipWithError).
    bool any_error() const { return any_error_; }

private:
    struct Result {
        // Time per iteration, one per repetition: CPU, and wall-clock (the
        // hand-timed figure for a benchmark with manual time).
        std::vector<double> cpu, wall;
        double median_cpu = -1.0;  // the "median" aggregates, if reported
        double median_wall = -1.0;
        std::string error;
    };
    const Result* find(const std::string& name) const;
    // Median seconds per execute of a benchmark (CPU or wall-clock as the
    // table is), < 0 if it has no timing.
    double seconds(const std::string& name) const;
    // The same, always wall-clock.
    double wall_seconds(const std::string& name) const;
    // A baseline's seconds: memcpy_fastest is timed by hand (wall-clock).
    double baseline_seconds(const std::string& name) const;

    void print_machine() const;
    void print_table() const;
    void print_baselines(size_t name_width) const;
    void print_threads(size_t name_width) const;
    void print_threads(size_t name_width, size_t id_width, const char* isa, unsigned threads) const;

    benchmark::BenchmarkReporter* inner_;
    std::vector<simdax_isa> isas_;
    std::ostream* table_;
    std::map<std::string, Result> results_;
    bool real_time_;
    bool any_error_ = false;
};

}  // namespace simdax_bench
